package commands

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Playing together on the board page, per Activity instance: everyone in
// one launched instance (Player.Room; a room code in local mode) shares
//   - a co-op game: one board, each player's moves credited to them
//     (store.MoveBy), which anyone in the room may play;
//   - a race: the same puzzle, each on a board of their own, with the
//     standings (cells filled, wrong entries, never the digits) and the
//     results in finishing order, timed by the server.
// Both are races of the store (kind together, or race) open in the
// instance; the first player to start one opens it, the others join it.
// The caller checks that the player is in the room (package activity asks
// Discord) before it sets Player.Room.

// roomStore is what playing together needs of the store (package store
// has it).
type roomStore interface {
	OpenInstanceRace(ctx context.Context, instance string, nr store.NewRace) (store.Race, bool, error)
	InstanceRace(ctx context.Context, instance string, kind store.RaceKind) (store.Race, error)
	EnterInstanceRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (store.Race, error)
	RaceInstance(ctx context.Context, id int64) (string, error)
	Race(ctx context.Context, id int64) (store.Race, error)
	EndRace(ctx context.Context, id int64, now time.Time) (store.Race, bool, error)
	SetRaceGame(ctx context.Context, id, gameID int64) error
	RacerGame(ctx context.Context, id int64, userID string, ng store.NewGame) (store.Game, error)
	MoveBy(ctx context.Context, id int64, mover string, changes []store.Change, solved []uint8, now time.Time) (store.Finished, error)
	CellMovers(ctx context.Context, id int64) (map[int]string, error)
	RecentPlacements(ctx context.Context, id int64, n int) ([]store.PlacedMove, error)
}

// The modes of playing together.
const (
	RoomCoop = "coop"
	RoomRace = "race"
)

const (
	// maxRoomRacers bounds a race's players (an Activity holds ~25).
	maxRoomRacers = 25
	// maxCoopPlayers bounds the players a co-op game names; more may play
	// it, listed as "Another player".
	maxCoopPlayers = 100
	// coopSetup is how long a co-op game may stay without its board
	// (its opener failed half way) before the next player opens another.
	coopSetup = 30 * time.Second
)

// RoomStart says what to play in the player's room: Mode (RoomCoop or
// RoomRace); a new one of Size and Level when none is open, or always
// with Fresh (the open one ends).
type RoomStart struct {
	Mode  string `json:"mode"`
	Size  int    `json:"size"`
	Level string `json:"level"`
	Fresh bool   `json:"fresh"`
}

// TogetherView says how a game is played together: its mode and its race
// (a co-op game's too), for the page's standings and list of moves.
type TogetherView struct {
	Mode string `json:"mode"`
	Race int64  `json:"race"`
	// Recent are a co-op game's last moves that placed values, newest
	// first (at most coopRecent): the page's list of who did what, from
	// the store, so a (re)loaded page has it too. Only the views a page
	// opens with (CurrentBoard, RoomBoard) carry them.
	Recent []CoopMoveView `json:"recent,omitempty"`
}

// CoopMoveView is one move of a co-op game: the values its mover placed.
type CoopMoveView struct {
	By     string `json:"by"`
	Name   string `json:"name"` // "" when the store has none
	Cells  []int  `json:"cells"`
	Values []int  `json:"values"`
}

// coopRecent is how many of a co-op game's moves its view lists.
const coopRecent = 8

// RaceView is a race's standings: its players in finishing order, then
// by cells filled. It never holds anyone's digits.
type RaceView struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	// Status is running, or over: ended (a new one was started), or
	// every player with a board has finished it.
	Status  string      `json:"status"`
	Players []RacerView `json:"players"`
}

// RacerView is one player's progress in a race.
type RacerView struct {
	UserID string `json:"id"`
	Name   string `json:"name"`
	Filled int    `json:"filled"` // cells they filled
	Empty  int    `json:"empty"`  // cells the puzzle leaves empty
	Wrong  int    `json:"wrong"`  // entries that disagree with the solution now
	Status string `json:"status"` // waiting (no board yet), playing, solved, gave_up
	// Place is their finishing place (1 first), 0 while not finished;
	// ElapsedMS their time on the server's clock.
	Place     int   `json:"place"`
	ElapsedMS int64 `json:"elapsedMs"`
}

func (p *player) rooms() (roomStore, error) {
	rs, ok := p.games.(roomStore)
	if !ok {
		return nil, boardErr(BoardUnavailable, "Playing together isn't set up on this bot.")
	}
	return rs, nil
}

// RoomBoard starts or joins the co-op game or race of who's room and
// returns who's board in it.
func (s *Service) RoomBoard(ctx context.Context, who Player, st RoomStart, now time.Time) (BoardView, error) {
	v, err := s.roomBoard(ctx, who, st, now)
	if err == nil {
		s.playFeature.addRecent(ctx, &v)
	}
	return v, err
}

func (s *Service) roomBoard(ctx context.Context, who Player, st RoomStart, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	rs, err := p.rooms()
	if err != nil {
		return BoardView{}, err
	}
	if who.Room == "" {
		return BoardView{}, boardErr(BoardInvalid, "Playing together needs a room: open the board from an Activity in Discord.")
	}
	kind := map[string]store.RaceKind{RoomCoop: store.KindTogether, RoomRace: store.KindRace}[st.Mode]
	if kind == "" {
		return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%q is not a way to play together: use coop or race.", st.Mode))
	}
	r, err := rs.InstanceRace(ctx, who.Room, kind)
	switch {
	case err == nil && kind == store.KindTogether && r.GameID == 0 && now.Sub(r.CreatedAt) > coopSetup:
		st.Fresh = true // its opener never set its board up
		fallthrough
	case err == nil && st.Fresh:
		if _, _, err := rs.EndRace(ctx, r.ID, now); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
	case err == nil:
		return p.enterRoom(ctx, rs, who, r, now)
	case !errors.Is(err, store.ErrNotFound):
		return BoardView{}, boardStoreErr(err)
	}
	return p.openRoom(ctx, rs, who, kind, st, now)
}

// openRoom opens a co-op game or race of a fresh puzzle in who's room
// (or joins the one another player opened at the same moment).
func (p *player) openRoom(ctx context.Context, rs roomStore, who Player, kind store.RaceKind, st RoomStart, now time.Time) (BoardView, error) {
	level := cmp.Or(st.Level, "medium")
	if _, err := choiceOption(map[string]string{optLevel: level}, optLevel, "", levelChoices); err != nil {
		return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%q is not a level: pick easy, medium, hard, expert or extreme.", st.Level))
	}
	size := strconv.Itoa(cmp.Or(st.Size, 9))
	if _, err := choiceOption(map[string]string{optSize: size}, optSize, "", sizeChoices); err != nil {
		return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%d is not a size: pick 4, 6, 8, 9, 12, 16 or 25.", st.Size))
	}
	req := who.request(now)
	puz, reply := p.generate(ctx, req, level, size)
	if reply != nil {
		kind := BoardUnavailable
		if reply.failure == nil && ctx.Err() == nil {
			kind = BoardInvalid
		}
		return BoardView{}, &BoardError{Kind: kind, Msg: reply.Content, Err: reply.failure}
	}
	ng := newGame(req, puz.Grid, puz.Solution, level)
	title := map[store.RaceKind]string{store.KindTogether: "Co-op", store.KindRace: "Race"}[kind] + " · " + p.title(store.Game{Level: level, Shape: ng.Shape, Puzzle: ng.Puzzle})
	r, created, err := rs.OpenInstanceRace(ctx, who.Room, store.NewRace{
		Kind: kind, GuildID: who.GuildID, ChannelID: who.ChannelID, StarterID: who.UserID, Starter: displayName(req),
		Puzzle: ng.Puzzle, Shape: ng.Shape, Solution: ng.Solution, Level: level, Title: title, Now: now,
	})
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	if created && kind == store.KindTogether {
		ng.RaceID, ng.Viewed = r.ID, now
		g, _, err := p.games.StartGame(ctx, ng)
		if err != nil {
			return BoardView{}, boardStoreErr(err)
		}
		if err := rs.SetRaceGame(ctx, r.ID, g.ID); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
		r.GameID = g.ID
	}
	return p.enterRoom(ctx, rs, who, r, now)
}

// enterRoom returns who's board in race r of their room: the co-op game,
// or their own board of the race (made the first time).
func (p *player) enterRoom(ctx context.Context, rs roomStore, who Player, r store.Race, now time.Time) (BoardView, error) {
	if r.Kind == store.KindTogether {
		if r.GameID == 0 {
			return BoardView{}, boardErr(BoardUnavailable, "The co-op board is still being set up: try again in a moment.")
		}
		// A player of the co-op game, so its list of who did what has
		// their name (the board is the room's all the same).
		if _, err := rs.EnterInstanceRace(ctx, r.ID, who.UserID, displayName(who.request(now)), maxCoopPlayers, now); err != nil &&
			!errors.Is(err, store.ErrRaceFull) && !errors.Is(err, store.ErrRaceClosed) {
			p.s.logf("co-op %d: enter %s: %v", r.ID, who.UserID, err)
		}
		g, err := p.games.Game(ctx, r.GameID)
		if err != nil {
			return BoardView{}, boardStoreErr(err)
		}
		return p.viewed(ctx, g, now, "")
	}
	req := who.request(now)
	if _, err := rs.EnterInstanceRace(ctx, r.ID, who.UserID, displayName(req), maxRoomRacers, now); err != nil {
		switch {
		case errors.Is(err, store.ErrRaceFull):
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("This race has its %d players already: start a new one when it ends.", maxRoomRacers))
		case errors.Is(err, store.ErrRaceClosed):
			return BoardView{}, boardErr(BoardFinished, "That race is over: start a new one.")
		}
		return BoardView{}, boardStoreErr(err)
	}
	puzzle, err := decodeGrid(r.Puzzle, r.Shape)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	var solution *sudoku.Grid
	if r.Solution != "" {
		if solution, err = decodeGrid(r.Solution, r.Shape); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
	}
	ng := newGame(req, puzzle, solution, r.Level)
	ng.Viewed = now // each racer's clock runs from their own start
	g, err := rs.RacerGame(ctx, r.ID, who.UserID, ng)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	return p.viewed(ctx, g, now, "")
}

// raceInfo is what never changes of a race once its shared board (a
// co-op game's) is set: every move and view of a race's game asks.
type raceInfo struct {
	kind     store.RaceKind
	instance string
	game     int64 // a co-op game's shared game
}

// raceInfo returns race id's kind, instance and shared game, from the
// cache once they are settled.
func (p *player) raceInfo(ctx context.Context, rs roomStore, id int64) (raceInfo, error) {
	if v, ok := p.raceInfos.Load(id); ok {
		return v.(raceInfo), nil
	}
	r, err := rs.Race(ctx, id)
	if err != nil {
		return raceInfo{}, err
	}
	instance, err := rs.RaceInstance(ctx, id)
	if err != nil {
		return raceInfo{}, err
	}
	info := raceInfo{kind: r.Kind, instance: instance, game: r.GameID}
	if info.kind != store.KindTogether || info.game != 0 {
		p.raceInfos.Store(id, info)
	}
	return info, nil
}

// roomCoop reports whether g is a co-op game (false too when the store
// keeps no races).
func (p *player) roomCoop(ctx context.Context, g store.Game) (bool, error) {
	rs, ok := p.games.(roomStore)
	if g.RaceID == 0 || !ok {
		return false, nil
	}
	info, err := p.raceInfo(ctx, rs, g.RaceID)
	if err != nil {
		return false, err
	}
	return info.kind == store.KindTogether && info.game == g.ID, nil
}

// inRoomGame reports whether who may play g as a player of their room's
// co-op game.
func (p *player) inRoomGame(ctx context.Context, who Player, g store.Game) bool {
	rs, ok := p.games.(roomStore)
	if who.Room == "" || g.RaceID == 0 || !ok {
		return false
	}
	info, err := p.raceInfo(ctx, rs, g.RaceID)
	return err == nil && info.instance == who.Room && info.kind == store.KindTogether && info.game == g.ID
}

// addTogether sets how g is played together on its view v (nothing for a
// game of one), and a co-op game's movers.
func (p *player) addTogether(ctx context.Context, g store.Game, v *BoardView) {
	rs, ok := p.games.(roomStore)
	if g.RaceID == 0 || !ok {
		return
	}
	info, err := p.raceInfo(ctx, rs, g.RaceID)
	if err != nil {
		return
	}
	if info.kind != store.KindTogether {
		v.Together = &TogetherView{Mode: RoomRace, Race: g.RaceID}
		return
	}
	v.Together = &TogetherView{Mode: RoomCoop, Race: g.RaceID}
	movers, err := rs.CellMovers(ctx, g.ID)
	if err != nil {
		p.s.logf("game %d: read its movers: %v", g.ID, err)
		return
	}
	v.Movers = make([]string, len(g.Entries))
	for cell, who := range movers {
		if cell >= 0 && cell < len(v.Movers) {
			v.Movers[cell] = who
		}
	}
}

// addRecent lists a co-op game's last moves on its view v (the view a
// page opens with: CurrentBoard, RoomBoard; the views after each move
// leave them out, as the page has them from its socket).
func (p *player) addRecent(ctx context.Context, v *BoardView) {
	rs, ok := p.games.(roomStore)
	if !ok || v.Together == nil || v.Together.Mode != RoomCoop {
		return
	}
	recent, err := rs.RecentPlacements(ctx, v.ID, coopRecent)
	if err != nil {
		p.s.logf("game %d: read its last moves: %v", v.ID, err)
	}
	for _, m := range recent {
		cm := CoopMoveView{By: m.By, Name: m.ByName, Cells: m.Cells, Values: make([]int, len(m.Values))}
		for i, val := range m.Values {
			cm.Values[i] = int(val)
		}
		v.Together.Recent = append(v.Together.Recent, cm)
	}
}

// RaceStandings returns the standings of race id, of which who must be a
// player.
func (s *Service) RaceStandings(ctx context.Context, who Player, id int64, now time.Time) (RaceView, error) {
	p := s.playFeature
	if p == nil {
		return RaceView{}, errNoBoards
	}
	rs, err := p.rooms()
	if err != nil {
		return RaceView{}, err
	}
	r, err := rs.Race(ctx, id)
	if err != nil {
		return RaceView{}, boardStoreErr(err)
	}
	if _, in := r.Player(who.UserID); !in || r.Kind != store.KindRace {
		return RaceView{}, boardErr(BoardNotYours, "You're not in this race: join it from the board's start screen.")
	}
	status := "running"
	if r.Status == store.RaceOver || r.Status == store.RaceCancelled {
		status = "over"
	}
	v := RaceView{ID: r.ID, Title: r.Title, Status: status, Players: []RacerView{}}
	var finished []int // indexes into v.Players, with their finish times
	var at []time.Time
	for _, racer := range r.Players {
		rv := RacerView{UserID: racer.UserID, Name: racer.UserName, Status: "waiting"}
		if racer.GameID != 0 {
			g, err := p.games.Game(ctx, racer.GameID)
			if err != nil {
				return RaceView{}, boardStoreErr(err)
			}
			b, err := p.load(ctx, g)
			if err != nil {
				return RaceView{}, boardStoreErr(err)
			}
			for i, e := range g.Entries {
				if b.puzzle.Cells[i] != 0 {
					continue
				}
				rv.Empty++
				if e != 0 {
					rv.Filled++
					if b.solution != nil && e != b.solution.Cells[i] {
						rv.Wrong++
					}
				}
			}
			rv.Status, rv.ElapsedMS = string(g.Status), g.Elapsed(now).Milliseconds()
			if g.Status == store.Solved {
				finished = append(finished, len(v.Players))
				at = append(at, g.FinishedAt)
			}
		}
		v.Players = append(v.Players, rv)
	}
	if status == "running" {
		done := 0
		for _, rv := range v.Players {
			if rv.Status == string(store.Solved) || rv.Status == string(store.GaveUp) {
				done++
			}
		}
		if done > 0 && done == len(v.Players) {
			status = "over"
		}
		v.Status = status
	}
	order := make([]int, len(finished))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return at[a].Compare(at[b]) })
	for place, k := range order {
		v.Players[finished[k]].Place = place + 1
	}
	slices.SortStableFunc(v.Players, func(a, b RacerView) int {
		switch {
		case a.Place != 0 && b.Place != 0:
			return a.Place - b.Place
		case a.Place != 0:
			return -1
		case b.Place != 0:
			return 1
		}
		return b.Filled - a.Filled
	})
	return v, nil
}
