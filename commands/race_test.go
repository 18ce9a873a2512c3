package commands

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/store"
)

// recordingChannels is a Channels that keeps what it is asked to post,
// edit and thread.
type recordingChannels struct {
	mu        sync.Mutex
	seq       int
	noThreads bool
	noPosts   bool // every Post fails (the bot may not send messages there)
	posts     []posted
	edits     []posted
	threads   []string // "channel/message name"
}

type posted struct {
	channel, message string
	r                Response
}

func (c *recordingChannels) Post(ctx context.Context, channelID string, r Response) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.noPosts {
		return "", errors.New("403 Missing Permissions")
	}
	c.seq++
	id := fmt.Sprintf("msg-%d", c.seq)
	c.posts = append(c.posts, posted{channelID, id, r})
	return id, nil
}

func (c *recordingChannels) Edit(ctx context.Context, channelID, messageID string, r Response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.edits = append(c.edits, posted{channelID, messageID, r})
	return nil
}

func (c *recordingChannels) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.noThreads {
		return "", ErrNoThreads
	}
	c.seq++
	c.threads = append(c.threads, channelID+"/"+messageID+" "+name)
	return fmt.Sprintf("thread-%d", c.seq), nil
}

// lastEdit is the last edit of message id, or the zero posted.
func (c *recordingChannels) lastEdit(id string) posted {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.edits) - 1; i >= 0; i-- {
		if c.edits[i].message == id {
			return c.edits[i]
		}
	}
	return posted{}
}

func (c *recordingChannels) snapshot() (posts, edits []posted, threads []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]posted(nil), c.posts...), append([]posted(nil), c.edits...), append([]string(nil), c.threads...)
}

// raceEnv is a Service with races: a real store and recording channels.
type raceEnv struct {
	*playEnv
	ch      *recordingChannels
	lobbies map[int64]string // each race's lobby message
}

func newRaceEnv(t *testing.T) *raceEnv {
	t.Helper()
	e := &raceEnv{playEnv: &playEnv{t: t, path: filepath.Join(t.TempDir(), "race.db"), puzzles: &fakePuzzles{}}, ch: &recordingChannels{}}
	e.openRace()
	t.Cleanup(func() { e.st.Close() })
	return e
}

func (e *raceEnv) openRace() {
	e.t.Helper()
	st, err := store.Open(context.Background(), e.path)
	if err != nil {
		e.t.Fatalf("store.Open: %v", err)
	}
	e.st = st
	e.s = New(Config{Games: st, Puzzles: e.puzzles, Channels: e.ch})
}

func (e *raceEnv) restartRace() {
	e.t.Helper()
	if err := e.st.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.openRace()
}

var raceIDRE = regexp.MustCompile(`race:j:(\d+)`)

// open runs /race for w with opts and returns the lobby's race id.
func (e *raceEnv) open(w who, now time.Time, opts ...string) int64 {
	e.t.Helper()
	r := e.do(w.slash(now, "race", "", opts...))
	posts, _, _ := e.ch.snapshot()
	if !r.Ephemeral || len(posts) == 0 {
		e.t.Fatalf("/race %v: %d posts, answer:\n%s\nwant the lobby posted and a private answer", opts, len(posts), allText(r))
	}
	lobby := posts[len(posts)-1]
	m := raceIDRE.FindStringSubmatch(strings.Join(buttonIDs(lobby.r), " "))
	if m == nil || lobby.channel != w.slash(now, "race", "").ChannelID {
		e.t.Fatalf("/race %v: no lobby in its channel:\n%s", opts, allText(lobby.r))
	}
	// The lobby post is taken out of the record: the tests read the
	// race's own posts (its scoreboard, its results) by index.
	e.ch.mu.Lock()
	e.ch.posts = e.ch.posts[:len(e.ch.posts)-1]
	e.ch.mu.Unlock()
	id, _ := parseGameNumber(m[1])
	if e.lobbies == nil {
		e.lobbies = map[int64]string{}
	}
	e.lobbies[id] = lobby.message
	return id
}

func buttonIDs(r Response) []string {
	var ids []string
	for _, b := range buttons(r) {
		ids = append(ids, b.CustomID)
	}
	return ids
}

// press clicks race id's button for action as w on the lobby message.
func (e *raceEnv) press(w who, now time.Time, action string, id int64) Response {
	e.t.Helper()
	req := w.click(now, raceButtonID(action, id))
	req.MessageID, req.ChannelID = e.lobbies[id], "c-g1"
	return e.do(req)
}

// gameOf returns w's game id in race id (0 when none).
func (e *raceEnv) gameOf(w who, id int64) int64 {
	e.t.Helper()
	race, err := e.st.Race(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	pl, _ := race.Player(w.user)
	return pl.GameID
}

var dee = who{"u-dee", "Dee", "g1"}

// moveList writes the moves that fill cells of playPuzzles[level] with
// the solution ("A3 3, A4 8"), from the from-th empty cell, n of them.
func moveList(level, from, n int) string {
	p, s := playPuzzles[level][0], playPuzzles[level][1]
	var moves []string
	k := 0
	for i := range 81 {
		if p[i] != '0' {
			continue
		}
		if k >= from && len(moves) < n {
			moves = append(moves, fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, s[i]))
		}
		k++
	}
	return strings.Join(moves, ", ")
}

// wrongMove is a move that puts a wrong digit in the first empty cell of
// playPuzzles[level].
func wrongMove(level int) string {
	p, s := playPuzzles[level][0], playPuzzles[level][1]
	i := strings.IndexByte(p, '0')
	wrong := '1'
	if s[i] == '1' {
		wrong = '2'
	}
	return fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, wrong)
}

// TestRaceLobbyRules: who may join, leave and start a race, and when.
func TestRaceLobbyRules(t *testing.T) {
	type step struct {
		who    who
		after  time.Duration
		action string // j, l, s, p
		want   string // in the reply
		update bool   // the lobby is updated (else an ephemeral refusal)
	}
	tests := []struct {
		name  string
		opts  []string
		steps []step
	}{
		{"alone can't start", nil, []step{
			{ada, 0, "s", "A race needs two players", false},
			{ada, 0, "j", "You're in this race already", false},
		}},
		{"only the starter starts at first", nil, []step{
			{bob, 0, "j", "Players (2 of at most 20):** Ada, Bob", true},
			{bob, time.Minute, "s", "Ada starts this race", false},
			{dee, time.Minute, "s", "Only players in the race can start it", false},
			{bob, 3 * time.Minute, "s", "The start:", true},
		}},
		{"start twice", nil, []step{
			{bob, 0, "j", "Bob", true},
			{ada, 0, "s", "The start:", true},
			{ada, time.Second, "s", "has started already", false},
			{bob, time.Second, "s", "has started already", false},
			{dee, time.Second, "j", "This race has started, so it takes no more players", false},
			{dee, time.Minute, "p", "This race has started, so it takes no more players", false},
			{bob, time.Second, "p", "The race starts", false},
		}},
		{"leave the lobby", nil, []step{
			{bob, 0, "j", "Ada, Bob", true},
			{bob, 0, "l", "Players (1 of at most 20):** Ada", true},
			{bob, 0, "l", "You're not in this race", false},
			{ada, 0, "s", "A race needs two players", false},
		}},
		{"the starter leaving calls it off", nil, []step{
			{bob, 0, "j", "Bob", true},
			{ada, 0, "l", "Ada called the race off.", true},
			{bob, 0, "s", "called off before it started", false},
			{dee, 0, "j", "called off before it started", false},
		}},
		{"a lobby nobody starts is called off", nil, []step{
			{bob, 31 * time.Minute, "j", "called off before it started", false},
		}},
		{"duel", []string{optVs, bob.user}, []step{
			{dee, 0, "j", "This is a duel between Ada and <@u-bob>", false},
			{ada, 0, "s", "<@u-bob> hasn't joined yet", false},
			{bob, 0, "j", "Ada, Bob", true},
			{ada, 0, "s", "The start:", true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newRaceEnv(t)
			id := e.open(ada, t0, tt.opts...)
			for i, st := range tt.steps {
				r := e.press(st.who, t0.Add(st.after), st.action, id)
				text := allText(r)
				if !strings.Contains(text, st.want) || r.Update != st.update || r.Ephemeral == st.update {
					t.Errorf("step %d (%s presses %s): update %v, ephemeral %v:\n%s\nwant update %v and %q", i, st.who.name, st.action,
						r.Update, r.Ephemeral, text, st.update, st.want)
				}
			}
		})
	}
}

// TestRaceRefusals: /race's own refusals.
func TestRaceRefusals(t *testing.T) {
	e := newRaceEnv(t)
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"in a DM", func() Request { r := ada.slash(t0, "race", ""); r.GuildID = ""; return r }(), "Races are run in a server's channel"},
		{"duel yourself", ada.slash(t0, "race", "", optVs, ada.user), "You can't duel yourself"},
		{"daily and size", ada.slash(t0, "race", "", optDaily, "easy", optSize, "6"), "leave out `size` and `level`"},
		{"puzzle and level", ada.slash(t0, "race", "", optPuzzle, playPuzzles[0][0], optLevel, "easy"), "leave out `daily`, `size` and `level`"},
		{"two solutions", ada.slash(t0, "race", "", optPuzzle, strings.Repeat("0", 81)), "more than one solution"},
		{"clash", ada.slash(t0, "race", "", optPuzzle, "11"+strings.Repeat("0", 79)), "breaks the rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.req)
			if !r.Ephemeral || !strings.Contains(allText(r), tt.want) {
				t.Errorf("reply:\n%s\nwant an ephemeral %q", allText(r), tt.want)
			}
		})
	}
	// A pasted puzzle and the day's daily make lobbies.
	for _, opts := range [][]string{{optPuzzle, playPuzzles[1][0]}, {optDaily, "hard"}} {
		e.open(ada, t0, opts...)
	}
}

// TestRaceRun plays a race of four to its end: the thread, the
// scoreboard (never a digit), finishing order, an idle player, the
// results; then a move in someone else's race board is refused.
func TestRaceRun(t *testing.T) {
	e := newRaceEnv(t)
	id := e.open(ada, t0, optLevel, "medium") // playPuzzles[1]
	for _, w := range []who{bob, cy, dee} {
		cy := w
		cy.guild = "g1"
		e.press(cy, t0, "j", id)
	}
	e.press(ada, t0.Add(time.Second), "s", id)
	posts, _, threads := e.ch.snapshot()
	if len(threads) != 1 || !strings.HasPrefix(threads[0], "c-g1/"+e.lobbies[id]+" Race · Medium 9x9") || len(posts) != 1 {
		t.Fatalf("after Start: threads %q, %d posts; want one thread from the lobby and the scoreboard", threads, len(posts))
	}
	board := posts[0]
	if !strings.HasPrefix(board.channel, "thread-") || !strings.Contains(allText(board.r), "hasn't opened their board yet") {
		t.Fatalf("scoreboard in %s:\n%s", board.channel, allText(board.r))
	}
	start := t0.Add(time.Second + raceCountdown)
	inThread := func(w who, at time.Time, action string) Response {
		req := w.click(at, raceButtonID(action, id))
		req.ChannelID, req.MessageID = board.channel, board.message
		return e.do(req)
	}
	cyg := cy
	cyg.guild = "g1"
	// Everyone but Dee opens a board; Dee never does.
	for _, w := range []who{ada, bob, cyg} {
		r := inThread(w, start.Add(time.Second), "p")
		if !r.Ephemeral || !strings.Contains(allText(r), "0 of 56 cells filled") {
			t.Fatalf("%s's Play:\n%s", w.name, allText(r))
		}
	}
	game := map[string]int64{}
	for _, w := range []who{ada, bob, cyg} {
		game[w.name] = e.gameOf(w, id)
	}
	submit := func(w who, at time.Time, moves string) Response {
		return e.do(w.submit(at, movesModalID(game[w.name]), moves))
	}
	// Bob places a wrong digit, then fixes it; Cy plays a little, then
	// nothing more.
	submit(bob, start.Add(time.Minute), wrongMove(1))
	submit(cyg, start.Add(time.Minute), moveList(1, 0, 5))
	submit(ada, start.Add(2*time.Minute), moveList(1, 0, 30))
	sb := allText(e.ch.lastEdit(board.message).r)
	for _, want := range []string{"**Ada** — 30 of 56 cells · no mistakes", "**Bob** — 1 of 56 cells · 1 mistake", "**Cy** — 5 of 56 cells", "**Dee** — hasn't opened"} {
		if !strings.Contains(sb, want) {
			t.Errorf("scoreboard:\n%s\nwant %q", sb, want)
		}
	}
	// Never a digit of a board: no cell names, no grid.
	if regexp.MustCompile(`\b[A-I][1-9]\b`).MatchString(sb) || strings.Contains(sb, playPuzzles[1][0]) {
		t.Errorf("scoreboard shows a cell or a grid:\n%s", sb)
	}
	// Someone else's race board is theirs alone.
	if r := e.do(bob.submit(start.Add(2*time.Minute), movesModalID(game["Ada"]), moveList(1, 30, 1))); !strings.Contains(allText(r), "This board belongs to Ada") {
		t.Errorf("Bob moving on Ada's board:\n%s", allText(r))
	}
	// Bob finishes first, then Ada; Dee was idle from the start, Cy goes
	// idle; the race ends with Ada's finish.
	r := submit(bob, start.Add(5*time.Minute), moveList(1, 0, 56))
	if !strings.Contains(allText(r), "You finished the race in 5:00") {
		t.Errorf("Bob's finish:\n%s", allText(r))
	}
	e.s.Tick(context.Background(), start.Add(11*time.Minute+30*time.Second))
	sb = allText(e.ch.lastEdit(board.message).r)
	if !strings.Contains(sb, "**Dee** — idle") || !strings.Contains(sb, "**Cy** — idle") || !strings.Contains(sb, "1. **Bob** — finished in 5:00") {
		t.Errorf("scoreboard after 11 min:\n%s\nwant Bob first, Cy and Dee idle", sb)
	}
	submit(ada, start.Add(12*time.Minute), moveList(1, 30, 26))
	posts, _, _ = e.ch.snapshot()
	results := allText(posts[len(posts)-1].r)
	want := []string{"## Race · Medium 9x9 · results", "1. **Bob** 5:00 · 1 mistake", "2. **Ada** 12:00 · no mistakes", "– **Cy** idle (5 of 56 cells)", "– **Dee** idle (0 of 56 cells)"}
	last := -1
	for _, w := range want {
		at := strings.Index(results, w)
		if at <= last {
			t.Errorf("results:\n%s\nwant %q after the lines before it", results, w)
		}
		last = at
	}
	if len(posts) != 2 || posts[1].channel != board.channel {
		t.Errorf("%d posts, results in %s; want the scoreboard and the results, in the thread", len(posts), posts[len(posts)-1].channel)
	}
	final := e.ch.lastEdit(board.message).r
	if !strings.Contains(allText(final), "Over.") || len(buttons(final)) != 0 {
		t.Errorf("final scoreboard:\n%s\nwant it over, with no buttons", allText(final))
	}
	// A Tick after the end posts nothing more.
	e.s.Tick(context.Background(), start.Add(time.Hour))
	if p, _, _ := e.ch.snapshot(); len(p) != 2 {
		t.Errorf("%d posts after a later Tick, want 2", len(p))
	}
}

// TestRaceRestart: a restart mid-race loses nothing: the same boards, the
// countdown and the idle clock from the stored times, the results after.
func TestRaceRestart(t *testing.T) {
	e := newRaceEnv(t)
	id := e.open(ada, t0)
	e.press(bob, t0, "j", id)
	e.press(ada, t0, "s", id)
	start := t0.Add(raceCountdown)
	e.restartRace()
	if r := e.press(bob, start.Add(-time.Second), "p", id); !strings.Contains(allText(r), "The race starts") {
		t.Errorf("Play before the start, after a restart:\n%s", allText(r))
	}
	e.press(ada, start, "p", id)
	e.press(bob, start, "p", id)
	adaGame := e.gameOf(ada, id)
	e.do(ada.submit(start.Add(time.Minute), movesModalID(adaGame), moveList(1, 0, 10)))
	e.restartRace()
	if r := e.press(ada, start.Add(2*time.Minute), "p", id); !strings.Contains(allText(r), "10 of 56 cells filled") || e.gameOf(ada, id) != adaGame {
		t.Errorf("Ada's Play after a restart:\n%s\nwant her board as she left it", allText(r))
	}
	e.do(ada.submit(start.Add(3*time.Minute), movesModalID(adaGame), moveList(1, 10, 46)))
	// Bob never moved: the ticker of a restarted process marks him idle
	// and ends the race.
	e.restartRace()
	e.s.Tick(context.Background(), start.Add(raceIdleAfter+time.Second))
	posts, _, _ := e.ch.snapshot()
	res := allText(posts[len(posts)-1].r)
	if !strings.Contains(res, "1. **Ada** 3:00") || !strings.Contains(res, "– **Bob** idle") {
		t.Errorf("results after restarts:\n%s", res)
	}
}

// TestRaceLeaveAndGiveUp: a player who leaves or gives up is marked, not
// waited for; the last one racing ends the race by finishing.
func TestRaceLeaveAndGiveUp(t *testing.T) {
	e := newRaceEnv(t)
	id := e.open(ada, t0)
	for _, w := range []who{bob, dee} {
		e.press(w, t0, "j", id)
	}
	e.press(ada, t0, "s", id)
	start := t0.Add(raceCountdown)
	for _, w := range []who{ada, bob, dee} {
		e.press(w, start, "p", id)
	}
	if r := e.press(bob, start.Add(time.Minute), "l", id); !strings.Contains(allText(r), "You left the race") {
		t.Errorf("Bob leaves:\n%s", allText(r))
	}
	if r := e.press(bob, start.Add(time.Minute), "p", id); !strings.Contains(allText(r), "You left this race") {
		t.Errorf("Bob's Play after leaving:\n%s", allText(r))
	}
	deeGame := e.gameOf(dee, id)
	e.do(dee.click(start.Add(2*time.Minute), gameButtonID("G", deeGame)))
	race, _ := e.st.Race(context.Background(), id)
	if got := fmt.Sprint(raceStatuses(race)); got != "map[u-ada:joined u-bob:left u-dee:left]" {
		t.Errorf("statuses = %s", got)
	}
	e.do(ada.submit(start.Add(4*time.Minute), movesModalID(e.gameOf(ada, id)), moveList(1, 0, 56)))
	posts, _, _ := e.ch.snapshot()
	res := allText(posts[len(posts)-1].r)
	if !strings.Contains(res, "1. **Ada** 4:00") || !strings.Contains(res, "– **Bob** left") || !strings.Contains(res, "– **Dee** left") {
		t.Errorf("results:\n%s", res)
	}
}

func raceStatuses(r store.Race) map[string]store.RacerStatus {
	m := map[string]store.RacerStatus{}
	for _, p := range r.Players {
		m[p.UserID] = p.Status
	}
	return m
}

// TestRaceWithoutThreads: where the bot can't make a thread, the race runs
// in the channel and says so.
func TestRaceWithoutThreads(t *testing.T) {
	e := newRaceEnv(t)
	e.ch.noThreads = true
	id := e.open(ada, t0)
	e.press(bob, t0, "j", id)
	r := e.press(ada, t0, "s", id)
	posts, _, _ := e.ch.snapshot()
	if len(posts) != 1 || posts[0].channel != "c-g1" || !strings.Contains(allText(posts[0].r), "I can't make a thread here") {
		t.Fatalf("posts %+v; want the scoreboard in the channel, saying why", posts)
	}
	if !strings.Contains(allText(r), "the scoreboard is the next message") {
		t.Errorf("lobby after Start:\n%s", allText(r))
	}
}

// TestRaceTwoProcessesStart: Start pressed on two processes at once (two
// Services on one database) starts the race once: one thread, one
// scoreboard. On PostgreSQL too, with DATABASE_URL_TEST.
func TestRaceTwoProcessesStart(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			var open func() RaceStore
			switch db {
			case "sqlite":
				path := filepath.Join(t.TempDir(), "two.db")
				open = func() RaceStore {
					st, err := store.Open(context.Background(), path)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { st.Close() })
					return st
				}
			case "postgres":
				url := newPostgresSchema(t)
				open = func() RaceStore {
					st, err := store.OpenPostgres(context.Background(), url)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { st.Close() })
					return st
				}
			}
			ch := &recordingChannels{}
			var services [2]*Service
			for i := range services {
				services[i] = New(Config{Games: open().(PlayStore), Puzzles: &fakePuzzles{}, Channels: ch})
			}
			services[0].Handle(context.Background(), ada.slash(t0, "race", ""))
			lobby := ch.posts[0]
			ch.posts = nil
			m := raceIDRE.FindStringSubmatch(strings.Join(buttonIDs(lobby.r), " "))
			if m == nil {
				t.Fatalf("no lobby:\n%s", allText(lobby.r))
			}
			id, _ := parseGameNumber(m[1])
			join := bob.click(t0, raceButtonID("j", id))
			services[1].Handle(context.Background(), join)
			var started atomic.Int32
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Go(func() {
					who := ada
					if i%2 == 1 {
						who = bob
					}
					req := who.click(t0.Add(3*time.Minute), raceButtonID("s", id))
					req.MessageID = "lobby-msg"
					if r := services[i%2].Handle(context.Background(), req); r.Update {
						started.Add(1)
					}
				})
			}
			wg.Wait()
			posts, _, threads := ch.snapshot()
			if started.Load() != 1 || len(threads) != 1 || len(posts) != 1 {
				t.Errorf("8 Start presses on two processes: %d started, %d threads, %d posts; want 1 each", started.Load(), len(threads), len(posts))
			}
			// Ticks on both processes at the end post the results once.
			for i := range 4 {
				wg.Go(func() { services[i%2].Tick(context.Background(), t0.Add(4*time.Hour)) })
			}
			wg.Wait()
			if posts, _, _ := ch.snapshot(); len(posts) != 2 || !strings.Contains(allText(posts[1].r), "Nobody finished") {
				t.Errorf("after ticks on both processes: %d posts; want the results once", len(posts))
			}
		})
	}
}

// newPostgresSchema makes a fresh schema on DATABASE_URL_TEST's server
// and returns a URL that uses it, or skips the test without one.
func newPostgresSchema(t *testing.T) string {
	t.Helper()
	url := os.Getenv("DATABASE_URL_TEST")
	if url == "" {
		t.Skip("DATABASE_URL_TEST is not set: PostgreSQL tests skipped")
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "commands_test_" + hex.EncodeToString(b[:])
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		db.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		defer db.Close()
		if _, err := db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}

// TestTogether: a co-op game of three in a thread: anyone there moves,
// each value credited to its mover; only the starter gives up; the finish
// says who placed what.
func TestTogether(t *testing.T) {
	e := newRaceEnv(t)
	r := e.do(ada.slash(t0, "play", "", optLevel, "medium", optTogether, "true"))
	posts, _, threads := e.ch.snapshot()
	if !r.Ephemeral || len(threads) != 1 || len(posts) != 2 || !strings.Contains(allText(r), "<#"+posts[1].channel+">") {
		t.Fatalf("/play together: reply\n%s\nthreads %q, %d posts; want an opening post, a thread and the board in it", allText(r), threads, len(posts))
	}
	board := posts[1]
	if board.r.Ephemeral || !strings.HasPrefix(board.r.Embeds[0].Title, "Co-op · Medium 9x9") {
		t.Fatalf("the co-op board:\n%s", allText(board.r))
	}
	_, id, ok := parseGameButton(buttons(board.r)[0].CustomID)
	if !ok {
		t.Fatal("the board has no game button")
	}
	inThread := func(w who, at time.Time, moves string) Response {
		req := w.submit(at, movesModalID(id), moves)
		req.ChannelID, req.MessageID = board.channel, board.message
		return e.do(req)
	}
	cyg := cy
	cyg.guild = "g1"
	// Ada 10 cells, Bob 20, Cy 5 more (a sixth is Bob's already, the same
	// digit: no change, so no credit).
	for _, m := range []struct {
		who   who
		moves string
	}{{ada, moveList(1, 0, 10)}, {bob, moveList(1, 10, 20)}, {cyg, moveList(1, 29, 6)}} {
		r := inThread(m.who, t0.Add(time.Minute), m.moves)
		if r.Ephemeral || !r.Update || !strings.HasPrefix(r.Content, "**"+m.who.name+"**: Played") {
			t.Errorf("%s's moves:\n%s\nwant the shared board updated, saying who played", m.who.name, allText(r))
		}
	}
	// Outside the thread the board is Ada's alone.
	out := bob.submit(t0.Add(time.Minute), movesModalID(id), moveList(1, 35, 1))
	if r := e.do(out); !strings.Contains(allText(r), "This co-op board is played in <#"+board.channel+">") {
		t.Errorf("Bob moving from another channel:\n%s", allText(r))
	}
	give := bob.click(t0.Add(time.Minute), gameButtonID("g", id))
	give.ChannelID = board.channel
	if r := e.do(give); !strings.Contains(allText(r), "Only Ada, who started this co-op game, can give it up") {
		t.Errorf("Bob's Give up:\n%s", allText(r))
	}
	hint := bob.click(t0.Add(time.Minute), gameButtonID("c", id))
	hint.ChannelID = board.channel
	if r := e.do(hint); r.Ephemeral || !strings.Contains(r.Content, "**Bob**: Check: all 35 entries are right") {
		t.Errorf("Bob's Check:\n%s", allText(r))
	}
	r = inThread(ada, t0.Add(9*time.Minute), moveList(1, 35, 21))
	text := allText(r)
	if !strings.Contains(text, "Solved together in 9:00") || !strings.Contains(text, "Who placed what (cells): **Ada** 31, **Bob** 20, **Cy** 5.") {
		t.Errorf("the finish:\n%s", text)
	}
	if r.Ephemeral || len(r.FollowUps) != 0 {
		t.Errorf("the finish is ephemeral %v with %d follow-ups; want the shared board only", r.Ephemeral, len(r.FollowUps))
	}
	// What is kept of Bob, and forgetting it.
	ctx := context.Background()
	d, err := e.st.PlayerData(ctx, bob.user)
	if err != nil || len(d.Races) != 1 || d.Races[0].Placed != 20 || d.Races[0].Kind != store.KindTogether {
		t.Errorf("Bob's data: races %+v, %v; want the co-op game with his 20 cells", d.Races, err)
	}
	if _, err := e.st.ForgetPlayer(ctx, bob.user); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.st.PlayerData(ctx, bob.user); len(d.Races) != 0 {
		t.Errorf("after forgetting Bob: races %+v", d.Races)
	}
	if m, _ := e.st.Movers(ctx, id); m[bob.user] != 0 || m[ada.user] != 31 {
		t.Errorf("credits after forgetting Bob: %v; want his gone, Ada's kept", m)
	}
}

// v2Size counts a layout as Discord does: components, nested ones
// included (a row and its buttons, a section, its texts and accessory),
// and the characters of its texts and labels; and the largest number of
// blocks in one container.
func v2Size(blocks []Block) (components, text, widest int) {
	for _, b := range blocks {
		components++
		switch b := b.(type) {
		case TextBlock:
			text += len([]rune(b.Text))
		case ActionRow:
			components += len(b.Buttons)
			for _, bt := range b.Buttons {
				text += len([]rune(bt.Label))
			}
		case Container:
			c, t, w := v2Size(b.Blocks)
			components, text = components+c, text+t
			widest = max(widest, w, len(b.Blocks))
		}
	}
	return components, text, widest
}

// TestRaceCardsFit: a full race of 20 players whose names are as long as
// Discord allows and all markdown (each character escaped) keeps its
// lobby, scoreboard and results within Components V2's limits, every
// player's line whole.
func TestRaceCardsFit(t *testing.T) {
	e := newRaceEnv(t)
	ctx := context.Background()
	id := e.open(ada, t0)
	names := []string{}
	for i := range raceMaxPlayers - 1 {
		name := fmt.Sprintf("%02d", i) + strings.Repeat("_*", 15) // 32 characters, 62 once escaped
		names = append(names, name)
		if _, _, err := e.st.JoinRace(ctx, id, fmt.Sprintf("u-%d", i), name, raceMaxPlayers, t0); err != nil {
			t.Fatal(err)
		}
	}
	r := e.s.playFeature.racing
	race, err := e.st.Race(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.st.StartRace(ctx, id, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	running, _ := e.st.Race(ctx, id)
	for i := range 10 { // half finish, with the longest line there is
		if _, err := e.st.RacerDone(ctx, id, fmt.Sprintf("u-%d", i), store.RacerFinished, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	over, _, err := e.st.EndRace(ctx, id, t0.Add(3*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for name, resp := range map[string]Response{
		"lobby":      r.lobby(race, t0, "Ada called the race off."),
		"scoreboard": r.scoreboard(ctx, running, t0.Add(time.Hour), "I can't make a thread here, so the race runs in this channel."),
		"over":       r.scoreboard(ctx, over, t0.Add(3*time.Hour), ""),
		"results":    r.results(ctx, over),
	} {
		if resp.Content != "" || len(resp.Embeds) != 0 {
			t.Errorf("%s: content or embeds beside Components V2", name)
		}
		n, text, widest := v2Size(resp.Blocks)
		if n > MaxComponentsV2 || text > MaxTextV2 || widest > MaxContainerBlocks {
			t.Errorf("%s: %d components, %d characters, %d blocks in a container; limits %d, %d, %d", name, n, text, widest, MaxComponentsV2, MaxTextV2, MaxContainerBlocks)
		}
		all := allText(resp)
		if strings.Contains(all, "…") {
			t.Errorf("%s was clipped:\n%s", name, all)
		}
		for _, n := range names {
			if !strings.Contains(all, escapeMarkdown(n)) {
				t.Errorf("%s has no line for %q:\n%s", name, n, all)
			}
		}
		t.Logf("%s: %d components, %d characters", name, n, text)
	}
}

// TestRaceLobbyCalledOff: a lobby nobody starts within raceLobbyLife is
// called off by the tick, which edits the lobby message once (whatever
// the processes ticking) to say so, its buttons gone; a button pressed
// on it afterwards says the same.
func TestRaceLobbyCalledOff(t *testing.T) {
	for _, joined := range []bool{false, true} {
		t.Run(fmt.Sprintf("joined=%v", joined), func(t *testing.T) {
			e := newRaceEnv(t)
			id := e.open(ada, t0)
			if joined {
				e.press(bob, t0.Add(time.Minute), "j", id)
			}
			other := New(Config{Games: e.st, Puzzles: e.puzzles, Channels: e.ch}) // a second process
			e.s.Tick(context.Background(), t0.Add(raceLobbyLife-time.Second))
			if _, edits, _ := e.ch.snapshot(); len(edits) != 0 {
				t.Fatalf("%d edits a second before the lobby's end; want none", len(edits))
			}
			var wg sync.WaitGroup
			for _, s := range []*Service{e.s, other, e.s, other} {
				wg.Go(func() { s.Tick(context.Background(), t0.Add(raceLobbyLife)) })
			}
			wg.Wait()
			e.s.Tick(context.Background(), t0.Add(raceLobbyLife+time.Minute))
			_, edits, _ := e.ch.snapshot()
			if len(edits) != 1 || edits[0].channel != "c-g1" || edits[0].message != e.lobbies[id] {
				t.Fatalf("edits %+v; want the lobby %s in c-g1 edited once", edits, e.lobbies[id])
			}
			lobby := edits[0].r
			if len(buttons(lobby)) != 0 || !strings.Contains(allText(lobby), "Nobody started this race within 30 minutes, so it was called off.") ||
				!strings.Contains(allText(lobby), fmt.Sprintf("(#%06x)", colorWarn)) || lobby.Content != "" || len(lobby.Blocks) == 0 {
				t.Errorf("the lobby called off:\n%s\nwant a V2 card in the warning colour saying why, without buttons", allText(lobby))
			}
			if race, err := e.st.Race(context.Background(), id); err != nil || race.Status != store.RaceCancelled {
				t.Errorf("race after the ticks: %v, %v; want cancelled", race.Status, err)
			}
			r := e.press(bob, t0.Add(raceLobbyLife+2*time.Minute), "s", id)
			if !r.Ephemeral || !strings.Contains(allText(r), "called off before it started") {
				t.Errorf("Start on the lobby called off:\n%s", allText(r))
			}
			if _, edits, _ := e.ch.snapshot(); len(edits) != 1 {
				t.Errorf("%d edits after a press on the lobby called off; want still 1", len(edits))
			}
		})
	}
}

// TestRaceAdversaries: what a player not meant to act on a race, a duel
// or a co-op game can press or send, and what it must not change: no game
// made or moved, no scoreboard edited or results posted, each refusal
// private and saying why.
func TestRaceAdversaries(t *testing.T) {
	e := newRaceEnv(t)
	ctx := context.Background()
	eve := who{"u-eve", "Eve", "g1"}     // in the server, in no race
	mallory := who{"u-mal", "Mal", "g9"} // another server
	id := e.open(ada, t0)
	e.press(bob, t0, "j", id)
	e.press(ada, t0, "s", id)
	start := t0.Add(raceCountdown)
	posts, _, _ := e.ch.snapshot()
	board := posts[0]
	onBoard := func(w who, at time.Time, action string) Response {
		req := w.click(at, raceButtonID(action, id))
		req.ChannelID, req.MessageID = board.channel, board.message
		if w.guild != "g1" {
			req.ChannelID = "c-" + w.guild
		}
		return e.do(req)
	}
	adaBoard := onBoard(ada, start.Add(time.Second), "p")
	adaGame := gameIDOf(adaBoard)
	if adaGame == 0 {
		t.Fatalf("Ada's Play:\n%s", allText(adaBoard))
	}
	e.do(ada.submit(start.Add(time.Minute), movesModalID(adaGame), moveList(0, 0, 3)))
	duel := e.open(ada, t0, optVs, bob.user)
	open := e.open(bob, t0)
	e.do(ada.slash(t0, "play", "", optLevel, "easy", optTogether, "true"))
	posts, _, _ = e.ch.snapshot()
	coop := posts[len(posts)-1]
	coopGame := gameIDOf(coop.r)

	before := func() (int, int, store.Game) {
		t.Helper()
		p, ed, _ := e.ch.snapshot()
		g, err := e.st.Game(ctx, adaGame)
		if err != nil {
			t.Fatal(err)
		}
		return len(p), len(ed), g
	}
	at := start.Add(2 * time.Minute)
	tests := []struct {
		name string
		do   func() Response
		want string
	}{
		{"Play by someone not in the race", func() Response { return onBoard(eve, at, "p") }, "it takes no more players"},
		{"Play from another server", func() Response { return onBoard(mallory, at, "p") }, "belongs to another server"},
		{"Join from another server", func() Response { return onBoard(mallory, at, "j") }, "belongs to another server"},
		{"Join of an open lobby from another server", func() Response { return e.press(mallory, at, "j", open) }, "belongs to another server"},
		{"Leave by someone not in the race", func() Response { return onBoard(eve, at, "l") }, "You're not in this race"},
		{"Join after the start", func() Response { return e.press(eve, at, "j", id) }, "it takes no more players"},
		{"Start again by someone not in it", func() Response { return e.press(eve, at, "s", id) }, "This race has started already"},
		{"a move on Ada's race board by Eve", func() Response {
			return e.do(eve.submit(at, movesModalID(adaGame), moveList(0, 3, 1)))
		}, "This board belongs to Ada"},
		{"a move on Ada's race board by Bob, her rival", func() Response {
			return e.do(bob.submit(at, movesModalID(adaGame), moveList(0, 3, 1)))
		}, "This board belongs to Ada"},
		{"Hint on Ada's race board by Bob", func() Response { return e.do(bob.click(at, gameButtonID("h", adaGame))) }, "This board belongs to Ada"},
		{"Check on Ada's race board by Bob", func() Response { return e.do(bob.click(at, gameButtonID("c", adaGame))) }, "This board belongs to Ada"},
		{"Undo on Ada's race board by Bob", func() Response { return e.do(bob.click(at, gameButtonID("u", adaGame))) }, "This board belongs to Ada"},
		{"Give up on Ada's race board by Eve", func() Response { return e.do(eve.click(at, gameButtonID("G", adaGame))) }, "This board belongs to Ada"},
		{"Start of a duel by someone not in it", func() Response { return e.press(eve, t0.Add(5*time.Minute), "s", duel) }, "only they play"},
		{"Join of a duel by someone else", func() Response { return e.press(eve, t0, "j", duel) }, "only they play"},
		{"a co-op move from outside its thread", func() Response {
			return e.do(eve.submit(at, movesModalID(coopGame), "A1 1"))
		}, "This co-op board is played in <#" + coop.channel + ">"},
		{"co-op Hint from outside its thread", func() Response { return e.do(bob.click(at, gameButtonID("h", coopGame))) }, "This co-op board is played in <#" + coop.channel + ">"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, e0, g0 := before()
			r := tt.do()
			if !r.Ephemeral || r.Update || !strings.Contains(allText(r), tt.want) {
				t.Errorf("answer (update %v):\n%s\nwant a private %q", r.Update, allText(r), tt.want)
			}
			p1, e1, g1 := before()
			if p1 != p0 || e1 != e0 || g1.Hints != g0.Hints || g1.Checks != g0.Checks || g1.Status != g0.Status || string(g1.Entries) != string(g0.Entries) {
				t.Errorf("posts %d→%d, edits %d→%d, Ada's game %+v→%+v; want nothing changed", p0, p1, e0, e1, g0, g1)
			}
		})
	}
	race, err := e.st.Race(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []who{eve, mallory} {
		if _, in := race.Player(w.user); in {
			t.Errorf("%s is a player of the race", w.name)
		}
		if games, _ := e.st.ActiveGames(ctx, w.user, 5); len(games) != 0 {
			t.Errorf("%s has %d games; want none", w.name, len(games))
		}
	}
	if d, _ := e.st.Race(ctx, duel); len(d.Players) != 1 {
		t.Errorf("the duel has %d players; want Ada alone", len(d.Players))
	}
	if o, _ := e.st.Race(ctx, open); len(o.Players) != 1 {
		t.Errorf("the open lobby has %d players; want Bob alone", len(o.Players))
	}
}

// TestRaceReplaysAfterTheEnd: the buttons of a race that is over (or a
// lobby called off) pressed again say so, and post or edit nothing; a
// move on a race board after the end plays on as a game of one.
func TestRaceReplaysAfterTheEnd(t *testing.T) {
	e := newRaceEnv(t)
	ctx := context.Background()
	eve := who{"u-eve", "Eve", "g1"}
	id := e.open(ada, t0, optLevel, "easy") // playPuzzles[0]
	e.press(bob, t0, "j", id)
	e.press(ada, t0, "s", id)
	start := t0.Add(raceCountdown)
	posts, _, _ := e.ch.snapshot()
	board := posts[0]
	onBoard := func(w who, at time.Time, action string) Response {
		req := w.click(at, raceButtonID(action, id))
		req.ChannelID, req.MessageID = board.channel, board.message
		return e.do(req)
	}
	adaGame := gameIDOf(onBoard(ada, start, "p"))
	bobGame := gameIDOf(onBoard(bob, start, "p"))
	if r := e.do(ada.submit(start.Add(5*time.Minute), movesModalID(adaGame), moveList(0, 0, 81))); !strings.Contains(allText(r), "You finished the race") {
		t.Fatalf("Ada's finish:\n%s", allText(r))
	}
	e.s.Tick(ctx, start.Add(11*time.Minute)) // Bob idle: nobody races, the race ends
	if race, _ := e.st.Race(ctx, id); race.Status != store.RaceOver {
		t.Fatalf("race %v after Bob's idle time; want over", race.Status)
	}
	called := e.open(ada, t0)
	e.s.Tick(ctx, t0.Add(raceLobbyLife))
	p0, e0, _ := e.ch.snapshot()
	if len(p0) != 2 {
		t.Fatalf("%d posts; want the scoreboard and the results", len(p0))
	}
	after := start.Add(time.Hour)
	tests := []struct {
		name string
		do   func() Response
		want string
	}{
		{"Start on the lobby", func() Response { return e.press(ada, after, "s", id) }, "This race is over"},
		{"Join on the lobby", func() Response { return e.press(eve, after, "j", id) }, "This race is over"},
		{"Leave on the lobby by its starter", func() Response { return e.press(ada, after, "l", id) }, "This race is over"},
		{"Leave on the scoreboard by an idle player", func() Response { return onBoard(bob, after, "l") }, "This race is over"},
		{"Play by someone never in it", func() Response { return onBoard(eve, after, "p") }, "This race is over"},
		{"Leave on a lobby called off, by its starter", func() Response { return e.press(ada, after, "l", called) }, "called off before it started"},
		{"Start on a lobby called off", func() Response { return e.press(ada, after, "s", called) }, "called off before it started"},
		{"a move on a finished race board", func() Response {
			return e.do(ada.submit(after, movesModalID(adaGame), "A1 1"))
		}, "over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.do()
			if !r.Ephemeral || r.Update || !strings.Contains(allText(r), tt.want) {
				t.Errorf("answer (update %v):\n%s\nwant a private %q", r.Update, allText(r), tt.want)
			}
		})
	}
	// Bob plays on after the end: his game, no longer the race's news.
	r := e.do(bob.submit(after, movesModalID(bobGame), moveList(0, 0, 2)))
	if g, _ := e.st.Game(ctx, bobGame); g.Status != store.Playing || strings.Count(string(g.Entries), "\x00") == len(g.Entries) {
		t.Errorf("Bob's moves after the end:\n%s\ngame %+v; want them played", allText(r), g)
	}
	e.s.Tick(ctx, after.Add(time.Hour))
	if p1, e1, _ := e.ch.snapshot(); len(p1) != len(p0) || len(e1) != len(e0) {
		t.Errorf("posts %d→%d, edits %d→%d after the replays; want none", len(p0), len(p1), len(e0), len(e1))
	}
}

// TestRaceLobbyNotPosted: where the bot can't post, /race says so
// privately and leaves no race open (no tick will look for its lobby).
func TestRaceLobbyNotPosted(t *testing.T) {
	e := newRaceEnv(t)
	e.ch.noPosts = true
	r := e.do(ada.slash(t0, "race", ""))
	if !r.Ephemeral || !strings.Contains(allText(r), "I couldn't post the race's lobby in this channel, so there is no race") {
		t.Errorf("/race where the bot can't post:\n%s", allText(r))
	}
	open, err := e.st.OpenRaces(context.Background(), 10)
	if err != nil || len(open) != 0 {
		t.Errorf("open races %+v, %v; want none", open, err)
	}
}
