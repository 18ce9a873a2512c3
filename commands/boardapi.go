package commands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// Room is the Activity instance (or local room) the caller checked
	// the player is in: they may play its co-op game (board_rooms.go).
	Room string
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
	// Leaderboard is set on a finished daily.
	Leaderboard *LeaderboardView `json:"leaderboard,omitempty"`
	// Unfair says why a solve isn't counted on leaderboards and streaks
	// (too fast for a person, entered all at once); empty for a fair one.
	Unfair string `json:"unfair,omitempty"`
	// Together is set on a game played with others, and on a co-op game
	// Movers says who placed the value in each cell ("" nobody credited):
	// board_rooms.go.
	Together *TogetherView `json:"together,omitempty"`
	Movers   []string      `json:"movers,omitempty"`
}

// HintView is a hint for a page: its title, its sentence, the cells to
// tint and, at level 3, the step drawn on the board.
type HintView struct {
	Level int    `json:"level"`
	Title string `json:"title"`
	Text  string `json:"text"`
	// Cells are the cells to tint: the entries or cells a hint about the
	// player's mistakes names, or from level 2 the units the step looks at.
	Cells []int `json:"cells"`
	// Step is the step itself (level 3, when the hint is about a step).
	Step *StepView `json:"step,omitempty"`
}

// StepView is a hint's step as a page draws it (as chat's hint picture
// does: the cells and candidates that justify it, the candidates it
// removes, the values it places) and applies it (ApplyBoardStep).
type StepView struct {
	// ID names this step on this position; ApplyBoardStep takes it back
	// and refuses it once the board has changed.
	ID         string          `json:"id"`
	Cells      []int           `json:"cells"`
	Causes     []CandidateView `json:"causes"`
	Removals   []CandidateView `json:"removals"`
	Placements []CandidateView `json:"placements"`
	// Marks are the candidates the step reasons from, in the cells its
	// causes and removals are in: the player's notes there, or the plain
	// candidates where the player has none.
	Marks []CellMarks `json:"marks"`
}

// CandidateView is one value in one cell.
type CandidateView struct {
	Cell  int `json:"cell"`
	Value int `json:"value"`
}

// CellMarks is one cell's candidates (bit v-1 for value v).
type CellMarks struct {
	Cell  int    `json:"cell"`
	Notes uint32 `json:"notes"`
}

// LeaderboardView is a finished daily's leaderboard in its server, as
// /daily leaderboard shows it.
type LeaderboardView struct {
	Title string      `json:"title"`
	Rows  []LeaderRow `json:"rows"`
	// Note says why there are no rows, or none to show.
	Note string `json:"note,omitempty"`
}

// LeaderRow is one result on a leaderboard; You marks the game's player.
type LeaderRow struct {
	Rank   int    `json:"rank"`
	Name   string `json:"name"`
	TimeMS int64  `json:"timeMs"`
	Hints  int    `json:"hints"`
	You    bool   `json:"you,omitempty"`
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
	v, err := p.viewed(ctx, games[0], now, "")
	if err == nil {
		p.addRecent(ctx, &v)
	}
	return v, err
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
	if len(moves) == 0 {
		return BoardView{}, boardErr(BoardInvalid, "No move was sent.")
	}
	p, g, err := s.playing(ctx, who, id)
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
	mistakes := 0 // wrong digits placed, for a race's scoreboard
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
		if (m.Kind == MoveDigit || m.Kind == MoveSet) && m.Value != 0 && uint8(m.Value) != g.Entries[m.Cell] &&
			b.solution != nil && uint8(m.Value) != b.solution.Cells[m.Cell] {
			mistakes++
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
	// Judged as in chat (fair.go): a step that fills half the empty cells
	// at once is the whole solution entered in one go.
	var judge store.Judge
	if judged(g) {
		judge = judgeSolve(emptyCells(b), placedCells(before, g.Entries))
	}
	var f store.Finished
	if coop, cerr := p.roomCoop(ctx, g); cerr != nil {
		err = cerr
	} else if coop {
		// A co-op game: each value is credited to who placed it.
		f, err = p.games.(roomStore).MoveBy(ctx, id, who.UserID, changes, solvedEntries(b), now)
	} else {
		f, err = p.games.Move(ctx, id, changes, solvedEntries(b), now, judge)
	}
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	if f.Game.RaceID != 0 && p.racing != nil {
		p.racing.moved(ctx, who.request(now), f.Game, mistakes)
	}
	note := ""
	if f.Game.Status == store.Solved {
		note = solvedNote(f.Game, now, emptyCells(b)) + ratingNote(p.rate(ctx, f.Game, emptyCells(b)))
	}
	return p.view(ctx, f.Game, now, note)
}

// UndoBoard takes back the last move of who's game id.
func (s *Service) UndoBoard(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p, _, err := s.playing(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	g, err := p.games.Undo(ctx, id)
	if errors.Is(err, store.ErrNothingToUndo) {
		return BoardView{}, boardErr(BoardInvalid, "Nothing to undo.")
	}
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	p.touched(ctx, g, now)
	return p.view(ctx, g, now, "")
}

// CheckBoard marks the entries of who's game id that disagree with the
// solution (BoardView.Wrong) and counts the check, as chat's Check does.
func (s *Service) CheckBoard(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p, g, err := s.playing(ctx, who, id)
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
	p.touched(ctx, g, now)
	if wrong == nil {
		wrong = []int{}
	}
	note := capitalize(checkNote(b.puzzle.Shape, wrong, entries, "marked"))
	v, err := p.view(ctx, g, now, note)
	v.Wrong = wrong
	return v, err
}

// HintBoard gives a hint at level 1 (technique), 2 (where: the step's
// units tinted) or 3 (the step, drawn and ready to apply) on who's game
// id, counted as chat counts it: once per position.
func (s *Service) HintBoard(ctx context.Context, who Player, id int64, level int, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	if level < 1 || level > 3 {
		return BoardView{}, boardErr(BoardInvalid, fmt.Sprintf("Hint level %d is not 1, 2 or 3.", level))
	}
	bh, err := s.boardHint(ctx, who, id, level)
	if err != nil || bh.clash != "" {
		if err != nil {
			return BoardView{}, err
		}
		return p.view(ctx, bh.game, now, bh.clash)
	}
	g, h := bh.game, bh.hint
	if g.HintStage == 0 {
		if g, err = p.games.RecordHint(ctx, id, level); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
		p.touched(ctx, g, now)
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
		hv.Cells = unitCells(bh.board.puzzle.Shape, h.Step)
		if level >= 3 {
			hv.Step = stepView(bh, h.Step)
		}
	}
	v.Hint = hv
	return v, err
}

// ApplyBoardStep carries out the step of the level-3 hint named stepID on
// who's game id, as one undoable move: its placements as digits, its
// removals taken off the cells' notes (the plain candidates less the
// removed ones where a cell has no notes). It is refused when the board has
// changed since the hint (the step no longer fits), and counts as a hint on
// a position that has had none.
func (s *Service) ApplyBoardStep(ctx context.Context, who Player, id int64, stepID string, now time.Time) (BoardView, error) {
	p := s.playFeature
	if p == nil {
		return BoardView{}, errNoBoards
	}
	if stepID == "" || len(stepID) > 64 {
		return BoardView{}, boardErr(BoardInvalid, "No hint step was named: ask for a hint's step (level 3) first.")
	}
	bh, err := s.boardHint(ctx, who, id, int(sudoku.HintStep))
	if err != nil {
		return BoardView{}, err
	}
	h := bh.hint
	if bh.clash != "" || len(h.Wrong) > 0 || len(h.WrongMarks) > 0 || stepID != stepKey(bh, h.Step) {
		return BoardView{}, boardErr(BoardInvalid, "That hint's step no longer fits the board (it changed since the hint): ask for a new hint.")
	}
	after, err := sudoku.ApplyStep(bh.pos, h.Step)
	if err != nil {
		return BoardView{}, &BoardError{Kind: BoardUnavailable, Msg: "I couldn't apply that step, so nothing changed: ask for a new hint.", Err: err}
	}
	var moves []BoardMove
	for _, c := range h.Step.Placements {
		moves = append(moves, BoardMove{Cell: c.Cell, Kind: MoveDigit, Value: c.Value})
	}
	seen := map[int]bool{}
	for _, c := range h.Step.Eliminations {
		if !seen[c.Cell] && after.Cells[c.Cell] == 0 {
			seen[c.Cell] = true
			moves = append(moves, BoardMove{Cell: c.Cell, Kind: MoveNotes, Notes: after.Marks[c.Cell]})
		}
	}
	if len(moves) == 0 {
		return BoardView{}, boardErr(BoardInvalid, "That step changes nothing on your board: ask for a new hint.")
	}
	if bh.game.HintStage == 0 {
		if _, err := p.games.RecordHint(ctx, id, int(sudoku.HintStep)); err != nil {
			return BoardView{}, boardStoreErr(err)
		}
	}
	return s.PlayBoard(ctx, who, id, moves, now)
}

// boardHint is a hint on a game being played, with what it was worked out
// from; clash is set instead (and nothing counted) while the board has a
// clash.
type boardHint struct {
	game  store.Game
	board board
	pos   *sudoku.Grid // the position with the player's notes
	hint  sudoku.HintResult
	clash string
}

func (s *Service) boardHint(ctx context.Context, who Player, id int64, level int) (boardHint, error) {
	p, g, err := s.playing(ctx, who, id)
	if err != nil {
		return boardHint{}, err
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return boardHint{}, boardStoreErr(err)
	}
	bh := boardHint{game: g, board: b}
	if clashes := b.position.Clashes(); len(clashes) > 0 {
		bh.clash = "Clash: " + clashSentences(clashes, b.puzzle) + ". Fix it first (this hint isn't counted)."
		return bh, nil
	}
	bh.pos = b.position.Clone()
	for i, m := range g.Pencil {
		if m != 0 && bh.pos.Cells[i] == 0 {
			if bh.pos.Marks == nil {
				bh.pos.Marks = make([]uint32, len(bh.pos.Cells))
			}
			bh.pos.Marks[i] = m
		}
	}
	if bh.hint, err = sudoku.Hint(ctx, b.puzzle, bh.pos, sudoku.HintLevel(level)); err != nil {
		r := s.hintError(ctx, err, b.puzzle)
		return boardHint{}, &BoardError{Kind: BoardUnavailable, Msg: r.Content, Err: err}
	}
	return bh, nil
}

// unitCells lists the cells of the units st looks at (its own cells when
// it names no unit).
func unitCells(sh sudoku.Shape, st sudoku.Step) []int {
	geo := sh.Geometry()
	n := sh.N()
	seen := map[int]bool{}
	out := []int{}
	for _, u := range st.Units {
		for _, c := range geo.UnitCells[int(u.Kind)*n+u.Index] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, st.Cells...)
	}
	slices.Sort(out)
	return out
}

// stepView is st as a page draws it.
func stepView(bh boardHint, st sudoku.Step) *StepView {
	v := &StepView{ID: stepKey(bh, st), Cells: append([]int{}, st.Cells...),
		Causes: candidates(st.Causes), Removals: candidates(st.Eliminations), Placements: candidates(st.Placements), Marks: []CellMarks{}}
	marks := positionMarks(bh.pos)
	seen := map[int]bool{}
	for _, list := range [][]sudoku.Candidate{st.Causes, st.Eliminations} {
		for _, c := range list {
			if !seen[c.Cell] && bh.pos.Cells[c.Cell] == 0 {
				seen[c.Cell] = true
				v.Marks = append(v.Marks, CellMarks{Cell: c.Cell, Notes: marks[c.Cell]})
			}
		}
	}
	return v
}

func candidates(cs []sudoku.Candidate) []CandidateView {
	out := make([]CandidateView, len(cs))
	for i, c := range cs {
		out[i] = CandidateView{Cell: c.Cell, Value: c.Value}
	}
	return out
}

// stepKey names step st on the game's position: a digest of the game, its
// entries and notes, and what the step changes, so that an id from an
// older position never matches.
func stepKey(bh boardHint, st sudoku.Step) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d|%v|%v|%v|%v", bh.game.ID, bh.game.Entries, bh.game.Pencil, st.Placements, st.Eliminations)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// GiveUpBoard ends who's game id as chat's "Yes, give up" does: the
// solution is shown (BoardView.Solution), the entries that disagree with
// it are marked, and a daily can't be played again.
func (s *Service) GiveUpBoard(ctx context.Context, who Player, id int64, now time.Time) (BoardView, error) {
	p, g, err := s.playing(ctx, who, id)
	if err != nil {
		return BoardView{}, err
	}
	f, note, rating, err := p.endGame(ctx, g.ID, now)
	if err != nil {
		return BoardView{}, boardStoreErr(err)
	}
	v, err := p.view(ctx, f.Game, now, note+rating)
	if err != nil {
		return v, err
	}
	if f.Game.Status == store.GaveUp {
		for i, e := range v.Entries {
			if e != 0 && e != v.Solution[i] {
				v.Wrong = append(v.Wrong, i)
			}
		}
	}
	return v, nil
}

// playing returns the player feature and who's game id, which must be
// being played: the start of every board action on a game.
func (s *Service) playing(ctx context.Context, who Player, id int64) (*player, store.Game, error) {
	p := s.playFeature
	if p == nil {
		return nil, store.Game{}, errNoBoards
	}
	g, err := p.playingGame(ctx, who, id)
	return p, g, err
}

// ownedGame loads game id and refuses it unless it is who's.
func (p *player) ownedGame(ctx context.Context, who Player, id int64) (store.Game, error) {
	g, err := p.games.Game(ctx, id)
	if err != nil {
		return g, boardStoreErr(err)
	}
	if g.UserID != who.UserID && !p.inRoomGame(ctx, who, g) {
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
	if p.chatCoop(ctx, g) {
		return g, boardErr(BoardInvalid, "A co-op game is played in its thread, where everyone sees the one board.")
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
	p.addTogether(ctx, g, &v)
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
	if g.Status == store.Solved && g.Flag != "" {
		v.Unfair = "Not counted on the leaderboard or for your streak: " + flagReason(g.Flag, g, emptyCells(b)) + "."
		if !g.IsDaily() {
			v.Unfair = "Not counted for your rating or personal bests: " + flagReason(g.Flag, g, emptyCells(b)) + "."
		}
	}
	if g.IsDaily() && g.Status != store.Playing {
		lb, err := p.dailyLeaderboard(ctx, g)
		if err != nil {
			return BoardView{}, boardStoreErr(err)
		}
		v.Leaderboard = lb
	}
	return v, nil
}

// dailyLeaderboard is the leaderboard of g's daily in g's server, as
// /daily leaderboard shows it for that day and level.
func (p *player) dailyLeaderboard(ctx context.Context, g store.Game) (*LeaderboardView, error) {
	lb := &LeaderboardView{Title: dailyName(g.DailyDate) + " · " + g.DailyLevel, Rows: []LeaderRow{}}
	if g.GuildID == "" {
		lb.Note = "Leaderboards are per server, and this daily was played outside one."
		return lb, nil
	}
	rows, err := p.dailies.Leaderboard(ctx, g.GuildID, g.DailyDate, g.DailyLevel, leaderboardRows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		lb.Rows = append(lb.Rows, LeaderRow{Rank: r.Rank, Name: r.UserName, TimeMS: r.Duration.Milliseconds(), Hints: r.Hints, You: r.UserID == g.UserID})
	}
	if len(rows) == 0 {
		lb.Note = "No one has solved it in this server yet."
	}
	return lb, nil
}

// ints widens cell values for JSON (a []uint8 would be sent as base64).
func ints(cells []uint8) []int {
	out := make([]int, len(cells))
	for i, v := range cells {
		out[i] = int(v)
	}
	return out
}
