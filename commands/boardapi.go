package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// The board API: the same games as /play and /daily, driven one move at a
// time by a page (the Activity) instead of by chat. A move made here is in
// the game chat shows, and the other way round: both go through the store
// with the same checks (whose game, playing or not, in range) and the same
// finishing (a move that solves the board finishes it, and records a
// daily's result, in one transaction). Nothing here draws a picture.

// Player is who acts on a board outside chat.
type Player struct {
	UserID, UserName, GuildID, ChannelID string
}

func (who Player) request(now time.Time) Request {
	return Request{UserID: who.UserID, UserName: who.UserName, GuildID: who.GuildID, ChannelID: who.ChannelID, Now: now}
}

// BoardView is a game as a page draws it. Cells are numbered row by row
// from 0; values are 1..N (0 empty); notes are bit v-1 for value v.
type BoardView struct {
	ID       int64    `json:"id"`
	Title    string   `json:"title"`
	BoxRows  int      `json:"boxRows"`
	BoxCols  int      `json:"boxCols"`
	Symbols  string   `json:"symbols"` // the symbol of value v is Symbols[v-1]
	Givens   []int    `json:"givens"`
	Entries  []int    `json:"entries"`
	Notes    []uint32 `json:"notes"`
	Clashes  []int    `json:"clashes"` // cells breaking a rule now
	Wrong    []int    `json:"wrong"`   // set by a check, or a hint about mistakes
	Solution []int    `json:"solution,omitempty"`
	Status   string   `json:"status"` // playing, solved, gave_up
	// ElapsedMS is the server's playing time at the answer; Running tells
	// the page whether to keep counting.
	ElapsedMS int64  `json:"elapsedMs"`
	Running   bool   `json:"running"`
	Hints     int    `json:"hints"`
	Checks    int    `json:"checks"`
	Moves     int    `json:"moves"`
	Daily     string `json:"daily,omitempty"` // the daily's level
	// Note is one sentence about what the action did.
	Note string `json:"note,omitempty"`
	// Hint is set by a hint.
	Hint *HintView `json:"hint,omitempty"`
}

// HintView is a hint for a page: its title, sentence and the cells to
// tint.
type HintView struct {
	Level int    `json:"level"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Cells []int  `json:"cells"`
}

// BoardErrorKind classifies a refused board action.
type BoardErrorKind int

// The kinds of refusal.
const (
	BoardInvalid     BoardErrorKind = iota // bad input: out of range, unknown kind
	BoardNotFound                          // no such game, or no game running
	BoardNotYours                          // someone else's game
	BoardFinished                          // the game is over
	BoardUnavailable                       // the store or the engine failed; nothing changed
)

// BoardError is a refused or failed board action with the sentence to show.
type BoardError struct {
	Kind BoardErrorKind
	Msg  string
	Err  error // the cause, for the log; never shown
}

func (e *BoardError) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *BoardError) Unwrap() error { return e.Err }

func boardErr(kind BoardErrorKind, msg string) error { return &BoardError{Kind: kind, Msg: msg} }

// boardStoreErr turns a store failure into a BoardError, worded as chat
// words it.
func boardStoreErr(err error) error {
	kind := BoardUnavailable
	switch {
	case errors.Is(err, store.ErrNotFound):
		kind = BoardNotFound
	case errors.Is(err, store.ErrFinished):
		kind = BoardFinished
	case errors.Is(err, store.ErrInvalid):
		kind = BoardInvalid
	}
	return &BoardError{Kind: kind, Msg: storeError(err).Content, Err: err}
}

// errNoBoards is returned when the service has no store for games.
var errNoBoards = boardErr(BoardUnavailable, "Games aren't set up on this bot (it has no database).")

// MoveKind is what a board move does to its cell.
type MoveKind string

// The moves.
const (
	MoveDigit MoveKind = "digit" // put Value in the cell (its notes stay underneath)
	MoveClear MoveKind = "clear" // empty the cell and its notes
	MoveNotes MoveKind = "notes" // set the cell's notes to Notes (and empty it)
	MoveSet   MoveKind = "set"   // set both Value and Notes (redo puts a cell back)
)

// BoardMove is one move on a board.
type BoardMove struct {
	Cell  int      `json:"cell"`
	Kind  MoveKind `json:"kind"`
	Value int      `json:"value"`
	Notes uint32   `json:"notes"`
}

// BoardStart says which game to start: a daily at DailyLevel, or a fresh
// Size x Size puzzle at Level.
type BoardStart struct {
	Size       int    `json:"size"`
	Level      string `json:"level"`
	DailyLevel string `json:"daily"`
}

// activeLister is the store's list of a user's running games (package
// store has it; CurrentBoard needs it).
type activeLister interface {
	ActiveGames(ctx context.Context, userID string, limit int) ([]store.Game, error)
}

// CurrentBoard returns who's newest running game, marked viewed, or a
// BoardNotFound error when there is none.
func (s *Service) CurrentBoard(ctx context.Context, who Player, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	lister, ok := p.games.(activeLister)
	if !ok {
		return BoardView{}, boardErr(BoardNotFound, "No game is running.")
	}
	games, err := lister.ActiveGames(ctx, who.UserID, 1)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	if len(games) == 0 {
		return BoardView{}, boardErr(BoardNotFound, "No game is running: start one.")
	}
	return p.viewed(ctx, games[0], now, "")
}

// Board returns game id, which must be who's, marked viewed.
func (s *Service) Board(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	g, err := p.ownedGame(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	return p.viewed(ctx, g, now, "")
}

// StartBoard starts a game for who as /play or /daily play would (a daily
// already started is resumed) and returns it, marked viewed.
func (s *Service) StartBoard(ctx context.Context, who Player, st BoardStart, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	req := who.request(now)
	var (
		g     store.Game
		reply *Response
	)
	if st.DailyLevel != "" {
		if _, err := choiceOption(map[string]string{optLevel: st.DailyLevel}, optLevel, "", dailyLevelChoices); err != nil {
			return BoardView{}, boardErr(BoardInvalid, "A daily comes in easy, medium or hard.")
		}
		g, reply = p.startDaily(ctx, req, st.DailyLevel)
	} else {
		level := st.Level
		if level == "" {
			level = "medium"
		}
		if _, err := choiceOption(map[string]string{optLevel: level}, optLevel, "", levelChoices); err != nil {
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%q is not a level: pick easy, medium, hard, expert or extreme.", st.Level))
		}
		size := strconv.Itoa(st.Size)
		if st.Size == 0 {
			size = "9"
		}
		if _, err := choiceOption(map[string]string{optSize: size}, optSize, "", sizeChoices); err != nil {
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%d is not a size: pick 4, 6, 8, 9, 12, 16 or 25.", st.Size))
		}
		g, reply = p.startPlay(ctx, req, level, size)
	}
	if reply != nil {
		kind := BoardUnavailable
		if reply.failure == nil && ctx.Err() == nil {
			kind = BoardInvalid
		}
		return BoardView{}, &BoardError{Kind: kind, Msg: reply.Content, Err: reply.failure}
	}
	note := ""
	switch g.Status {
	case store.Solved:
		note = "You already solved this daily."
	case store.GaveUp:
		note = "You gave up on this daily; each daily is played once."
	}
	return p.viewed(ctx, g, now, note)
}

// PlayBoard applies moves to who's game id as one undoable step (a single
// move is the usual case; redo puts back several cells at once). The move
// that solves the board finishes the game.
func (s *Service) PlayBoard(ctx context.Context, who Player, id int64, moves []BoardMove, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	if len(moves) == 0 {
		return BoardView{}, boardErr(BoardInvalid, "No move was sent.")
	}
	g, err := p.playingGame(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	n := b.puzzle.N()
	all := uint32(1)<<n - 1
	before := slices.Clone(g.Entries)
	changes := make([]store.Change, 0, len(moves))
	for _, m := range moves {
		if m.Cell < 0 || m.Cell >= len(b.puzzle.Cells) {
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("Cell %d is off the board (0 to %d).", m.Cell, len(b.puzzle.Cells)-1))
		}
		name := b.puzzle.Shape.CellName(m.Cell)
		if b.puzzle.Cells[m.Cell] != 0 {
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%s is a given: it can't change.", name))
		}
		c := store.Change{Cell: m.Cell, Value: g.Entries[m.Cell], Pencil: g.Pencil[m.Cell]}
		if m.Kind == MoveDigit || m.Kind == MoveSet {
			if m.Value < 0 || m.Value > n || (m.Kind == MoveDigit && m.Value == 0) {
				return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%d is not a digit of this board (1 to %d).", m.Value, n))
			}
		}
		if m.Kind == MoveNotes || m.Kind == MoveSet {
			if m.Notes&^all != 0 {
				return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("Notes for %s hold values outside 1 to %d.", name, n))
			}
		}
		switch m.Kind {
		case MoveDigit:
			c.Value = uint8(m.Value)
		case MoveClear:
			c.Value, c.Pencil = 0, 0
		case MoveNotes:
			c.Value, c.Pencil = 0, m.Notes
		case MoveSet:
			c.Value, c.Pencil = uint8(m.Value), m.Notes
		default:
			return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("%q is not a move: use digit, clear, notes or set.", m.Kind))
		}
		changes = append(changes, c)
		g.Entries[m.Cell], g.Pencil[m.Cell] = c.Value, c.Pencil
	}
	// A daily is judged as in chat (fair.go): a step that fills half the
	// empty cells at once is the whole solution entered in one go.
	var judge store.Judge
	if g.IsDaily() {
		judge = judgeSolve(emptyCells(b), placedCells(before, g.Entries))
	}
	f, err := p.games.Move(ctx, id, changes, solvedEntries(b), now, judge)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	note := ""
	if f.Game.Status == store.Solved {
		note = solvedNote(f.Game, now, emptyCells(b))
	}
	return p.view(ctx, f.Game, now, note)
}

// UndoBoard takes back the last move of who's game id.
func (s *Service) UndoBoard(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	if _, err := p.playingGame(ctx, who, id); err != nil {
		return BoardView{}, err
	}
	g, err := p.games.Undo(ctx, id)
	if errors.Is(err, store.ErrNothingToUndo) {
		return BoardView{}, boardErr(BoardInvalid, "Nothing to undo.")
	}
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	return p.view(ctx, g, now, "")
}

// CheckBoard marks the entries of who's game id that disagree with the
// solution (BoardView.Wrong) and counts the check, as chat's Check does.
func (s *Service) CheckBoard(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	g, err := p.playingGame(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	wrong, entries := b.checkEntries()
	if entries == 0 {
		return p.view(ctx, g, now, capitalize(checkNote(b.puzzle.Shape, wrong, entries, "marked")))
	}
	if g, err = p.games.RecordCheck(ctx, id); err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	if wrong == nil {
		wrong = []int{}
	}
	note := capitalize(checkNote(b.puzzle.Shape, wrong, entries, "marked"))
	v, err := p.view(ctx, g, now, note)
	v.Wrong = wrong
	return v, err
}

// HintBoard gives a hint at level 1 (technique), 2 (where) or 3 (the step)
// on who's game id, counted as chat counts it: once per position.
func (s *Service) HintBoard(ctx context.Context, who Player, id int64, level int, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	if level < 1 || level > 3 {
		return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("Hint level %d is not 1, 2 or 3.", level))
	}
	g, err := p.playingGame(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	if clashes := b.position.Clashes(); len(clashes) > 0 {
		return p.view(ctx, g, now, "Clash: "+clashSentences(clashes, b.puzzle)+". Fix it first (this hint isn't counted).")
	}
	pos := b.position.Clone()
	for i, m := range g.Pencil {
		if m != 0 && pos.Cells[i] == 0 {
			if pos.Marks == nil {
				pos.Marks = make([]uint32, len(pos.Cells))
			}
			pos.Marks[i] = m
		}
	}
	h, err := sudoku.Hint(ctx, b.puzzle, pos, sudoku.HintLevel(level))
	if err != nil {
		r := s.hintError(ctx, err, b.puzzle)
		return BoardView{}, &BoardError{Kind: BoardUnavailable, Msg: r.Content, Err: err}
	}
	if g.HintStage == 0 {
		if g, err = p.games.RecordHint(ctx, id, level); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
	}
	v, err := p.view(ctx, g, now, "")
	hv := &HintView{Level: level, Title: hintTitle(h), Text: h.Text, Cells: []int{}}
	switch {
	case len(h.Wrong) > 0:
		hv.Cells = h.Wrong
		v.Wrong = h.Wrong
	case len(h.WrongMarks) > 0:
		for _, c := range h.WrongMarks {
			hv.Cells = append(hv.Cells, c.Cell)
		}
	case level >= 2:
		hv.Cells = append(hv.Cells, h.Step.Cells...)
		if level >= 3 {
			for _, c := range h.Step.Placements {
				hv.Cells = append(hv.Cells, c.Cell)
			}
		}
	}
	v.Hint = hv
	return v, err
}

// ownedGame loads game id and refuses it unless it is who's.
func (p *player) ownedGame(ctx context.Context, who Player, id int64) (store.Game, error) {
	g, err := p.games.Game(ctx, id)
	if err != nil {
		return g, boardStoreErr(err)
	}
	if g.UserID != who.UserID {
		return g, boardErr(BoardNotYours, "This board belongs to someone else: only they can play it.")
	}
	return g, nil
}

// playingGame is ownedGame for a game still being played.
func (p *player) playingGame(ctx context.Context, who Player, id int64) (store.Game, error) {
	g, err := p.ownedGame(ctx, who, id)
	if err != nil {
		return g, err
	}
	if g.Status != store.Playing {
		return g, boardErr(BoardFinished, "That game is over: start a new one.")
	}
	return g, nil
}

// viewed marks g viewed (its clock starts) and returns its view.
func (p *player) viewed(ctx context.Context, g store.Game, now time.Time, note string) (BoardView, error) {
	if g.ViewedAt.IsZero() && g.Status == store.Playing {
		var err error
		if g, err = p.games.MarkViewed(ctx, g.ID, now); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
	}
	return p.view(ctx, g, now, note)
}

// view is g as a page draws it.
func (p *player) view(ctx context.Context, g store.Game, now time.Time, note string) (BoardView, error) {
	b, err := p.load(ctx, g)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	n := b.puzzle.N()
	v := BoardView{
		ID: g.ID, Title: p.title(g), BoxRows: b.puzzle.Shape.BoxRows, BoxCols: b.puzzle.Shape.BoxCols,
		Givens: ints(b.puzzle.Cells), Entries: make([]int, len(g.Entries)), Notes: make([]uint32, len(g.Pencil)),
		Clashes: []int{}, Wrong: []int{}, Status: string(g.Status), ElapsedMS: g.Elapsed(now).Milliseconds(),
		Running: g.Status == store.Playing, Hints: g.Hints, Checks: g.Checks, Moves: g.Moves, Daily: g.DailyLevel, Note: note,
	}
	sym := make([]rune, n)
	for i := range sym {
		sym[i] = b.puzzle.Alphabet.Symbol(i + 1)
	}
	v.Symbols = string(sym)
	for i := range g.Entries {
		if b.puzzle.Cells[i] == 0 {
			v.Entries[i], v.Notes[i] = int(g.Entries[i]), g.Pencil[i]
		}
	}
	seen := map[int]bool{}
	for _, c := range b.position.Clashes() {
		for _, cell := range c.Cells {
			if !seen[cell] {
				seen[cell] = true
				v.Clashes = append(v.Clashes, cell)
			}
		}
	}
	slices.Sort(v.Clashes)
	if g.Status == store.GaveUp {
		v.Solution = ints(b.solution.Cells)
	}
	return v, nil
}

// ints widens cell values for JSON (a []uint8 would be sent as base64).
func ints(cells []uint8) []int {
	out := make([]int, len(cells))
	for i, v := range cells {
		out[i] = int(v)
	}
	return out
}
