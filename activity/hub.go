package activity

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"sudokubot/commands"
)

// The hub: who watches which game (and which race's standings), and the
// fan-out of a change to them. A change is only a game's id (and race,
// and mover): the hub loads the game once per change and sends the same
// view to every page watching it, so a page always shows the store's
// state, whoever made the move and wherever (this page, another, chat,
// another process). Changes arriving while a game is being loaded are
// folded into one more load.

// Change is a committed change to a game's board (the store's
// GameChange): Game 0 means changes may have been missed, so every game
// watched is loaded again.
type Change struct {
	Game int64
	Race int64 // the game's race (or co-op game), 0 for none
	By   string
}

// Changes tells the server of committed changes to games: the store's
// watch (on PostgreSQL, every process's changes). Watch calls fn until
// ctx ends or it fails; the server then watches again.
type Changes interface {
	Watch(ctx context.Context, fn func(Change)) error
}

// client is one open socket.
type client struct {
	who  commands.Player
	game int64 // the game watched
	race int64 // the race whose standings are watched, or 0
	// expires is when the socket's session ends (the socket with it).
	expires time.Time
	send    chan []byte
	// kick closes the socket with a code and reason (once).
	kick func(code int, reason string)
}

// topic is the watchers of one game or one race.
type topic struct {
	subs  map[*client]struct{}
	busy  bool   // a load is running
	again bool   // another change came during it
	by    string // the last mover heard of
	last  *commands.BoardView
}

type hub struct {
	s     *Server
	mu    sync.Mutex
	games map[int64]*topic
	races map[int64]*topic
	users map[string]int // open sockets per user
}

func newHub(s *Server) *hub {
	return &hub{s: s, games: map[int64]*topic{}, races: map[int64]*topic{}, users: map[string]int{}}
}

// join adds c, or refuses when its player has too many sockets open.
func (h *hub) join(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.users[c.who.UserID] >= maxSocketsPerUser {
		return false
	}
	h.users[c.who.UserID]++
	t := h.games[c.game]
	if t == nil {
		t = &topic{subs: map[*client]struct{}{}}
		h.games[c.game] = t
	}
	t.subs[c] = struct{}{}
	if c.race != 0 {
		r := h.races[c.race]
		if r == nil {
			r = &topic{subs: map[*client]struct{}{}}
			h.races[c.race] = r
		}
		r.subs[c] = struct{}{}
	}
	return true
}

// leave drops c (again: nothing).
func (h *hub) leave(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.games[c.game]
	if t == nil {
		return
	}
	if _, in := t.subs[c]; !in {
		return
	}
	delete(t.subs, c)
	if len(t.subs) == 0 && !t.busy {
		delete(h.games, c.game)
	}
	if r := h.races[c.race]; c.race != 0 && r != nil {
		delete(r.subs, c)
		if len(r.subs) == 0 && !r.busy {
			delete(h.races, c.race)
		}
	}
	if h.users[c.who.UserID]--; h.users[c.who.UserID] <= 0 {
		delete(h.users, c.who.UserID)
	}
}

// changed is told of every committed change.
func (h *hub) changed(ch Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ch.Game == 0 {
		for id := range h.games {
			h.scheduleGame(id)
		}
		for race := range h.races {
			h.scheduleRace(race)
		}
		return
	}
	if t := h.games[ch.Game]; t != nil {
		t.by = ch.By
		h.scheduleGame(ch.Game)
	}
	if ch.Race != 0 && h.races[ch.Race] != nil {
		h.scheduleRace(ch.Race)
	}
}

// scheduleGame and scheduleRace load a topic of the hub (h.mu held).
func (h *hub) scheduleGame(id int64) {
	t := h.games[id]
	h.schedule(t, func() { h.loadGame(id) }, func() {
		if h.games[id] == t {
			delete(h.games, id)
		}
	})
}

func (h *hub) scheduleRace(id int64) {
	t := h.races[id]
	h.schedule(t, func() { h.loadRace(id) }, func() {
		if h.races[id] == t {
			delete(h.races, id)
		}
	})
}

// schedule runs load for t unless one is running (then it runs once more
// after it); when the loads end and t has no watchers left, drop (called
// with h.mu held) forgets it. h.mu is held.
func (h *hub) schedule(t *topic, load, drop func()) {
	if t.busy {
		t.again = true
		return
	}
	t.busy = true
	go func() {
		for {
			load()
			h.mu.Lock()
			if !t.again {
				t.busy = false
				if len(t.subs) == 0 {
					drop()
				}
				h.mu.Unlock()
				return
			}
			t.again = false
			h.mu.Unlock()
		}
	}()
}

// watchers returns t's clients (h.mu held).
func (h *hub) watchers(t *topic) []*client {
	out := make([]*client, 0, len(t.subs))
	for c := range t.subs {
		out = append(out, c)
	}
	return out
}

// liveGame is the message that carries a game.
type liveGame struct {
	Type    string             `json:"type"` // "game"
	Game    commands.BoardView `json:"game"`
	CanRedo bool               `json:"canRedo"`
	// By is who made the change, when known; Cells the cells it changed.
	By     string `json:"by,omitempty"`
	ByName string `json:"byName,omitempty"`
	Cells  []int  `json:"cells"`
}

// loadGame loads game id and sends it to its watchers.
func (h *hub) loadGame(id int64) {
	h.mu.Lock()
	t := h.games[id]
	if t == nil {
		h.mu.Unlock()
		return
	}
	subs := h.watchers(t)
	by, last := t.by, t.last
	h.mu.Unlock()
	if len(subs) == 0 {
		return // schedule forgets t
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	v, err := h.s.cfg.Boards.Board(ctx, subs[0].who, id, h.s.cfg.Now())
	if err != nil {
		h.s.logf("activity live: load game %d: %v", id, err)
		return
	}
	msg := liveGame{Type: "game", Game: v, CanRedo: h.s.redo.can(v), By: by, Cells: changedCells(last, &v)}
	for _, c := range subs {
		if c.who.UserID == by {
			msg.ByName = c.who.UserName
		}
	}
	h.mu.Lock()
	t.last = &v
	h.mu.Unlock()
	b, _ := json.Marshal(msg)
	for _, c := range subs {
		c.post(b)
	}
}

// changedCells lists the cells whose entry or notes differ between two
// views of a game (none when there is no earlier view).
func changedCells(before, after *commands.BoardView) []int {
	cells := []int{}
	if before == nil || len(before.Entries) != len(after.Entries) {
		return cells
	}
	for i := range after.Entries {
		if before.Entries[i] != after.Entries[i] || before.Notes[i] != after.Notes[i] {
			cells = append(cells, i)
		}
	}
	return cells
}

// post queues b for c; a client too slow to take it is closed (its page
// connects again and loads the game afresh).
func (c *client) post(b []byte) {
	select {
	case c.send <- b:
	default:
		c.kick(closeTooSlow, "Too many updates queued for this board: reconnecting.")
	}
}

// loadRace sends race id's standings to its watchers.
func (h *hub) loadRace(id int64) {
	h.s.sendRace(id)
}

// watch runs the server's watch of changes until ctx ends, watching again
// (after a pause) when it fails.
func (h *hub) watch(ctx context.Context, ch Changes) {
	wait := time.Second
	for ctx.Err() == nil {
		start := time.Now()
		err := ch.Watch(ctx, h.changed)
		if ctx.Err() != nil {
			return
		}
		h.s.logf("activity live: watching changes to games stopped (%v); again in %s", err, wait)
		if time.Since(start) > time.Minute {
			wait = time.Second
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}
