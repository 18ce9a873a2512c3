package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// playPuzzles are three puzzles with their solutions (from a public set of
// hard puzzles), standing in for the generator: the tests must not depend on
// how long generation takes or on which puzzle it picks.
var playPuzzles = [3][2]string{
	{"000075400000000008080190000300001060000000034000068170204000603900000020530200000", "693875412145632798782194356357421869816957234429368175274519683968743521531286947"},
	{"300000000050703008000028070700000043000000000003904105400300800100040000968000200", "387419526259763418641528379716285943594631782823974165472396851135842697968157234"},
	{"302609005500730000000000900000940000000000109000057060008500006000000003019082040", "382619475594738621176425938863941752457263189921857364738594216245176893619382547"},
}

// dailyEpoch is day #1 of the fake daily numbering.
var dailyEpoch = sudoku.DailyEpoch

// fakePuzzles hands out playPuzzles: by level for Generate and Daily, so the
// daily is the same for everyone on a day and differs between levels.
type fakePuzzles struct{ dailyCalls atomic.Int32 }

func mustGrid(text string) *sudoku.Grid {
	g, err := sudoku.Parse(text)
	if err != nil {
		panic(err)
	}
	return g
}

func (f *fakePuzzles) puzzle(level sudoku.Level) sudoku.Puzzle {
	p := playPuzzles[int(level)%len(playPuzzles)]
	return sudoku.Puzzle{Grid: mustGrid(p[0]), Solution: mustGrid(p[1]), Rating: sudoku.Rating{Level: level}}
}

// Generate returns a fixed 9x9 by level; other shapes come from the
// engine's generator (quick for the small ones tests ask for).
func (f *fakePuzzles) Generate(ctx context.Context, opts sudoku.GenerateOptions) (sudoku.Puzzle, error) {
	if opts.Shape != (sudoku.Shape{}) && opts.Shape != sudoku.Shape9 {
		return sudoku.Generate(ctx, opts)
	}
	return f.puzzle(opts.Level), nil
}

func (f *fakePuzzles) Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	f.dailyCalls.Add(1)
	day := sudoku.DailyDay(date)
	// Rotate by day so different days differ too.
	n := int(day.Sub(dailyEpoch).Hours()/24) + 1
	p := f.puzzle(sudoku.Level((int(level) + n) % 3))
	return sudoku.DailyPuzzle{Number: n, Date: day, Level: level, Puzzle: p}, nil
}

// playEnv is a Service with a real store in a temporary file.
type playEnv struct {
	t       *testing.T
	s       *Service
	st      *store.Store
	path    string
	puzzles *fakePuzzles
}

func newPlayEnv(t *testing.T) *playEnv {
	t.Helper()
	path := filepath.Join(t.TempDir(), "play.db")
	e := &playEnv{t: t, path: path, puzzles: &fakePuzzles{}}
	e.open()
	t.Cleanup(func() { e.st.Close() })
	return e
}

// open (re)opens the store and builds a new Service on it, as a restart does.
func (e *playEnv) open() {
	e.t.Helper()
	st, err := store.Open(context.Background(), e.path)
	if err != nil {
		e.t.Fatalf("store.Open: %v", err)
	}
	e.st = st
	e.s = New(Config{Games: st, Puzzles: e.puzzles})
}

func (e *playEnv) restart() {
	e.t.Helper()
	if err := e.st.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.open()
}

// who is a user in a server.
type who struct{ user, name, guild string }

var (
	ada = who{"u-ada", "Ada", "g1"}
	bob = who{"u-bob", "Bob", "g1"}
	cy  = who{"u-cy", "Cy", "g2"}
)

func (w who) req(kind Kind, now time.Time) Request {
	return Request{Kind: kind, UserID: w.user, UserName: w.name, GuildID: w.guild, ChannelID: "c-" + w.guild, Now: now}
}

func (w who) slash(now time.Time, cmd, sub string, opts ...string) Request {
	r := w.req(SlashCommand, now)
	r.Command, r.Subcommand, r.Options = cmd, sub, map[string]string{}
	for i := 0; i+1 < len(opts); i += 2 {
		r.Options[opts[i]] = opts[i+1]
	}
	return r
}

func (w who) click(now time.Time, id string) Request {
	r := w.req(Component, now)
	r.CustomID = id
	return r
}

func (w who) submit(now time.Time, id, moves string) Request {
	r := w.req(ModalSubmit, now)
	r.CustomID, r.Fields = id, map[string]string{movesField: moves}
	return r
}

func (e *playEnv) do(req Request) Response {
	e.t.Helper()
	r := e.s.Handle(context.Background(), req)
	checkLimits(e.t, r)
	return r
}

// gameID reads the game id from a game message's buttons.
func gameID(t testing.TB, r Response) int64 {
	t.Helper()
	b := findButton(t, r, "Enter moves")
	_, id, ok := parseGameButton(b.CustomID)
	if !ok {
		t.Fatalf("bad game custom id %q", b.CustomID)
	}
	return id
}

// movesFor writes moves that fill every empty cell of puzzle from solution,
// in the forms players use, mixed.
func movesFor(puzzle, solution string) string {
	var parts []string
	for i := range puzzle {
		if puzzle[i] != '0' && puzzle[i] != '.' {
			continue
		}
		r, c := i/9, i%9
		switch i % 3 {
		case 0:
			parts = append(parts, fmt.Sprintf("%c%d %c", 'A'+r, c+1, solution[i]))
		case 1:
			parts = append(parts, fmt.Sprintf("%c%d=%c", 'a'+r, c+1, solution[i]))
		default:
			parts = append(parts, fmt.Sprintf("r%dc%d %c", r+1, c+1, solution[i]))
		}
	}
	return strings.Join(parts, ", ")
}

var t0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

func TestPlayFullGameByModalMoves(t *testing.T) {
	e := newPlayEnv(t)
	r := e.do(ada.slash(t0, "play", "", optLevel, "easy"))
	if !r.Ephemeral || len(r.Files) != 1 || r.Embeds[0].Image != "attachment://board.png" {
		t.Fatalf("/play = %+v, want an ephemeral board image", r)
	}
	for _, label := range []string{"Enter moves", "Hint", "Check", "Undo", "Give up"} {
		findButton(t, r, label)
	}
	id := gameID(t, r)
	modal := e.do(ada.click(t0.Add(time.Second), gamePrefix+":m:"+strconv.FormatInt(id, 10)))
	if modal.Modal == nil || modal.Modal.CustomID != gmovePrefix+":"+strconv.FormatInt(id, 10) {
		t.Fatalf("Enter moves = %+v, want the moves modal", modal)
	}
	p := playPuzzles[0]
	solution := p[1]
	// A first batch with good and bad moves: the good ones still apply.
	r = e.do(ada.submit(t0.Add(time.Minute), modal.Modal.CustomID, "A1 9, A5 9, Z9 3, A2 x5\nA3 p34"))
	text := allText(r)
	for _, want := range []string{"Played 2 moves", "Couldn't play 3 moves", "`A5 9` — A5 is a given (7)", "`Z9` — not a cell", "`A2 x5`",
		"Clash (red on the board): A1 and H1 both hold 9 in column 1."} {
		if !strings.Contains(text, want) {
			t.Errorf("mixed batch reply lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "1 move") {
		t.Errorf("mixed batch reply counts moves two ways (played 2, header 1):\n%s", text)
	}
	if !r.Update || !r.Ephemeral {
		t.Errorf("moves reply Update=%v Ephemeral=%v, want the game message edited", r.Update, r.Ephemeral)
	}
	g, err := e.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	// Each typed move is a step of its own for Undo.
	if g.Entries[0] != 9 || g.Pencil[2] != 1<<2|1<<3 || g.Moves != 2 {
		t.Errorf("stored game: A1=%d A3 pencil=%b moves=%d, want 9, 1100, 2", g.Entries[0], g.Pencil[2], g.Moves)
	}
	// The rest of the board in three boxes (one box filling half the
	// board is the solution entered at once: fair.go), then done.
	rest := strings.Split(movesFor(p[0], solution), ", ")
	third := len(rest) / 3
	e.do(ada.submit(t0.Add(2*time.Minute), modal.Modal.CustomID, strings.Join(rest[:third], ", ")))
	e.do(ada.submit(t0.Add(4*time.Minute), modal.Modal.CustomID, strings.Join(rest[third:2*third], ", ")))
	r = e.do(ada.submit(t0.Add(6*time.Minute+41*time.Second), modal.Modal.CustomID, strings.Join(rest[2*third:], ", ")))
	if !strings.Contains(r.Content, "Solved in 6:41") {
		t.Errorf("final reply = %q, want solved in 6:41 (from the first view)", r.Content)
	}
	if len(r.Components) != 0 {
		t.Errorf("solved game still has buttons: %+v", r.Components)
	}
	if len(r.FollowUps) != 1 || r.FollowUps[0].Ephemeral {
		t.Fatalf("want one public follow-up announcement, got %+v", r.FollowUps)
	}
	ann := r.FollowUps[0].Content
	if ann != "Ada solved an easy 9x9 in 6:41, no hints." {
		t.Errorf("announcement = %q", ann)
	}
	if strings.Contains(ann, "<@") {
		t.Errorf("announcement %q pings someone", ann)
	}
	g, _ = e.st.Game(context.Background(), id)
	if g.Status != store.Solved {
		t.Errorf("stored status = %q, want solved", g.Status)
	}
	// Pressing anything after the end says it is over.
	r = e.do(ada.click(t0.Add(7*time.Minute), gamePrefix+":c:"+strconv.FormatInt(id, 10)))
	if !strings.Contains(r.Content, "over") || len(r.Components) != 0 {
		t.Errorf("Check after solving = %q with %d rows, want 'over' and no buttons", r.Content, len(r.Components))
	}
}

func TestFullWrongBoardIsNotSolved(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "easy")))
	p := playPuzzles[0]
	wrong := []byte(p[1])
	// Swap two entries (not givens) so the board is full but wrong.
	var a, b int = -1, -1
	for i := range p[0] {
		if p[0][i] == '0' {
			if a < 0 {
				a = i
			} else if wrong[i] != wrong[a] {
				b = i
				break
			}
		}
	}
	wrong[a], wrong[b] = wrong[b], wrong[a]
	r := e.do(ada.submit(t0.Add(time.Minute), gmovePrefix+":"+strconv.FormatInt(id, 10), movesFor(p[0], string(wrong))))
	if !strings.Contains(r.Content, "something is wrong") || len(r.FollowUps) != 0 {
		t.Errorf("full wrong board = %q, %d follow-ups; want a nudge to Check and no announcement", r.Content, len(r.FollowUps))
	}
	r = e.do(ada.click(t0.Add(2*time.Minute), gamePrefix+":c:"+strconv.FormatInt(id, 10)))
	if !strings.Contains(r.Content, "2 entries are wrong") {
		t.Errorf("Check = %q, want 2 wrong", r.Content)
	}
}

func TestPastedGridAndUndo(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "medium")))
	sid := strconv.FormatInt(id, 10)
	p := playPuzzles[1]
	// Paste the puzzle with its first blank filled wrongly and one given
	// contradicted.
	first := strings.IndexByte(p[0], '0')
	paste := []byte(p[0])
	paste[first] = '1'
	if p[1][first] == '1' {
		paste[first] = '2'
	}
	paste[0] = '9' // A1 is a given 3
	r := e.do(ada.submit(t0.Add(time.Minute), gmovePrefix+":"+sid, string(paste)))
	if !strings.Contains(r.Content, "pasted grid") || !strings.Contains(r.Content, "A1 is a given (3); the pasted grid has 9") {
		t.Errorf("paste reply = %q", r.Content)
	}
	r = e.do(ada.click(t0.Add(2*time.Minute), gamePrefix+":c:"+sid))
	if wrongCell := sudoku.Shape9.CellName(first); !strings.Contains(r.Content, "Check: "+wrongCell+" is wrong") {
		t.Errorf("Check after paste = %q, want 1 wrong", r.Content)
	}
	r = e.do(ada.click(t0.Add(3*time.Minute), gamePrefix+":u:"+sid))
	if want := "Undid `" + sudoku.Shape9.CellName(first) + " " + string(paste[first]) + "`."; r.Content != want || !r.Update {
		t.Errorf("Undo = %q update %v", r.Content, r.Update)
	}
	r = e.do(ada.click(t0.Add(4*time.Minute), gamePrefix+":c:"+sid))
	if !strings.Contains(r.Content, "nothing entered") {
		t.Errorf("Check after undo = %q, want nothing entered", r.Content)
	}
	r = e.do(ada.click(t0.Add(5*time.Minute), gamePrefix+":u:"+sid))
	if r.Content != "Nothing to undo." {
		t.Errorf("second Undo = %q", r.Content)
	}
	g, _ := e.st.Game(context.Background(), id)
	if g.Checks != 1 { // the check of a board with no entries is not counted
		t.Errorf("checks used = %d, want 1", g.Checks)
	}
}

// TestUndoOneMoveAtATime: a batch of typed moves is undone one move at a
// time, newest first; Undo all, offered from two moves on, asks first and
// then empties the board.
func TestUndoOneMoveAtATime(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "easy")))
	// playPuzzles[0]: A1..A4 are empty.
	r := e.do(ada.submit(t0, movesModalID(id), "A1 6, A2 9, A3 p12, A2 ."))
	if !strings.Contains(r.Content, "Played 4 moves") {
		t.Fatalf("batch = %q", r.Content)
	}
	undo := func(wantNote string, wantEntries [3]uint8, wantPencil uint32) {
		t.Helper()
		r := e.do(ada.click(t0, gameButtonID("u", id)))
		if r.Content != wantNote {
			t.Errorf("Undo = %q, want %q", r.Content, wantNote)
		}
		g, err := e.st.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := [3]uint8(g.Entries[:3]); got != wantEntries || g.Pencil[2] != wantPencil {
			t.Errorf("after Undo: A1..A3 = %v, A3 marks %b; want %v, %b", got, g.Pencil[2], wantEntries, wantPencil)
		}
	}
	undo("Undid `A2 .`.", [3]uint8{6, 9, 0}, 0b11)
	undo("Undid `A3 p12`.", [3]uint8{6, 9, 0}, 0)
	undo("Undid `A2 9`.", [3]uint8{6, 0, 0}, 0)
	undo("Undid `A1 6`.", [3]uint8{0, 0, 0}, 0)
	undo("Nothing to undo.", [3]uint8{0, 0, 0}, 0)

	hasUndoAll := func(r Response) bool {
		for _, b := range buttons(r) {
			if b.Label == "Undo all" {
				return true
			}
		}
		return false
	}
	if r := e.do(ada.submit(t0, movesModalID(id), "A1 6")); hasUndoAll(r) {
		t.Error("Undo all offered after one move")
	}
	r = e.do(ada.submit(t0, movesModalID(id), "A2 9\nA4 p3"))
	if !hasUndoAll(r) {
		t.Fatalf("Undo all not offered after three moves: %v", buttons(r))
	}
	ask := e.do(ada.click(t0, findButton(t, r, "Undo all").CustomID))
	if !strings.Contains(ask.Content, "Undo all 3 moves") || len(buttons(ask)) != 2 {
		t.Fatalf("Undo all asks %q with %v", ask.Content, buttons(ask))
	}
	if g, _ := e.st.Game(ctx, id); g.Entries[0] != 6 {
		t.Error("asking to undo all changed the board")
	}
	done := e.do(ada.click(t0, findButton(t, ask, "Yes, undo all").CustomID))
	if done.Content != "Undid all 3 moves: the board is as it started." || !done.Update {
		t.Errorf("Yes, undo all = %q (update %v)", done.Content, done.Update)
	}
	g, err := e.st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Entries {
		if g.Entries[i] != 0 || g.Pencil[i] != 0 {
			t.Fatalf("cell %s still holds %d (marks %b) after Undo all", sudoku.Shape9.CellName(i), g.Entries[i], g.Pencil[i])
		}
	}
	if g.Moves != 0 {
		t.Errorf("moves after Undo all = %d, want 0", g.Moves)
	}
}

// TestHintNamesAClash: a Hint on a board where the player's entries clash
// names the clash, marks it, and counts no hint.
func TestHintNamesAClash(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "easy")))
	// playPuzzles[0]: row A is "....754..": a 7 in A1 clashes with A5's
	// given 7, and with nothing in column 1 or box 1.
	e.do(ada.submit(t0, movesModalID(id), "A1 7"))
	r := e.do(ada.click(t0, gameButtonID("h", id)))
	if want := "**Clash:** A1 and A5 both hold 7 in row A. Change A1, then"; !strings.HasPrefix(r.Content, want) {
		t.Errorf("Hint on a clash = %q, want it to start %q", r.Content, want)
	}
	if strings.Contains(r.Content, "solution") {
		t.Errorf("Hint on a clash speaks of the solution: %q", r.Content)
	}
	if g, _ := e.st.Game(context.Background(), id); g.Hints != 0 {
		t.Errorf("hints used = %d, want 0", g.Hints)
	}
}

func TestOtherUserIsRefused(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "")))
	sid := strconv.FormatInt(id, 10)
	e.do(ada.submit(t0, gmovePrefix+":"+sid, "A2 4"))
	for _, req := range []Request{
		bob.click(t0, gamePrefix+":m:"+sid),
		bob.click(t0, gamePrefix+":h:"+sid),
		bob.click(t0, gamePrefix+":c:"+sid),
		bob.click(t0, gamePrefix+":u:"+sid),
		bob.click(t0, gamePrefix+":g:"+sid),
		bob.click(t0, gamePrefix+":G:"+sid),
		bob.submit(t0, gmovePrefix+":"+sid, "A3 5"),
	} {
		r := e.do(req)
		if !strings.Contains(r.Content, "belongs to Ada") || !r.Ephemeral || r.Update || r.Modal != nil {
			t.Errorf("%s by Bob = %+v, want an ephemeral refusal that leaves Ada's message alone", req.CustomID, r)
		}
	}
	g, _ := e.st.Game(context.Background(), id)
	if g.Status != store.Playing || g.Moves != 1 || g.Checks != 0 || g.Entries[2] != 0 {
		t.Errorf("Ada's game changed by Bob's clicks: %+v", g)
	}
}

func TestGiveUp(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "")))
	sid := strconv.FormatInt(id, 10)
	r := e.do(ada.click(t0.Add(time.Minute), gamePrefix+":g:"+sid))
	if !strings.Contains(r.Content, "Give up and see the solution?") || !r.Update {
		t.Errorf("Give up asks %q", r.Content)
	}
	r = e.do(ada.click(t0.Add(time.Minute), findButton(t, r, "Keep playing").CustomID))
	if g, _ := e.st.Game(context.Background(), gameID(t, r)); g.Status != store.Playing {
		t.Errorf("Keep playing left the game %q", g.Status)
	}
	r = e.do(ada.click(t0.Add(time.Minute), gamePrefix+":g:"+sid))
	r = e.do(ada.click(t0.Add(time.Minute), findButton(t, r, "Yes, give up").CustomID))
	if !strings.Contains(r.Content, "gave up") || len(r.Components) != 0 || len(r.FollowUps) != 0 || len(r.Files) != 1 {
		t.Errorf("Give up = %+v, want the solution, no buttons, no announcement", r)
	}
	if r2 := e.do(ada.submit(t0.Add(2*time.Minute), gmovePrefix+":"+sid, "A2 4")); !strings.Contains(r2.Content, "over") {
		t.Errorf("moves after giving up = %q, want 'over'", r2.Content)
	}
}

func TestBadGameIDs(t *testing.T) {
	e := newPlayEnv(t)
	for _, id := range []string{"game:m", "game:m:x", "game:z:1", "game:m:-4", "gmove:abc", "gmove:999", "game:c:999"} {
		kind := Component
		if strings.HasPrefix(id, "gmove") {
			kind = ModalSubmit
		}
		req := ada.req(kind, t0)
		req.CustomID = id
		r := e.do(req)
		if !r.Ephemeral || r.Content == "" {
			t.Errorf("%q = %+v, want an ephemeral explanation", id, r)
		}
	}
}

func TestRestartMidGame(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "easy")))
	sid := strconv.FormatInt(id, 10)
	e.do(ada.submit(t0.Add(time.Minute), gmovePrefix+":"+sid, "A1 6"))
	e.restart()
	r := e.do(ada.click(t0.Add(2*time.Minute), gamePrefix+":m:"+sid))
	if r.Modal == nil {
		t.Fatalf("Enter moves after restart = %+v, want the modal", r)
	}
	r = e.do(ada.submit(t0.Add(3*time.Minute), gmovePrefix+":"+sid, movesFor(playPuzzles[0][0], playPuzzles[0][1])))
	if !strings.Contains(r.Content, "Solved in 3:00") {
		t.Errorf("finish after restart = %q, want solved in 3:00", r.Content)
	}
}

func TestDailySameForEveryone(t *testing.T) {
	e := newPlayEnv(t)
	ra := e.do(ada.slash(t0, "daily", "play", optLevel, "hard"))
	rc := e.do(cy.slash(t0.Add(time.Hour), "daily", "play", optLevel, "hard"))
	ga, _ := e.st.Game(context.Background(), gameID(t, ra))
	gc, _ := e.st.Game(context.Background(), gameID(t, rc))
	if ga.Puzzle != gc.Puzzle || ga.ID == gc.ID {
		t.Errorf("Ada (g1) and Cy (g2) got puzzles %q (game %d) and %q (game %d); want the same puzzle, own games", ga.Puzzle, ga.ID, gc.Puzzle, gc.ID)
	}
	if want := fmt.Sprintf("Daily #%d · hard", int(sudoku.DailyDay(t0).Sub(dailyEpoch).Hours()/24)+1); ra.Embeds[0].Title != want {
		t.Errorf("title = %q, want %q", ra.Embeds[0].Title, want)
	}
	// Resuming gives the same game; another level a different puzzle.
	again := e.do(ada.slash(t0.Add(2*time.Hour), "daily", "play", optLevel, "hard"))
	if gameID(t, again) != ga.ID {
		t.Errorf("resume gave game %d, want %d", gameID(t, again), ga.ID)
	}
	easy, _ := e.st.Game(context.Background(), gameID(t, e.do(ada.slash(t0, "daily", "play", optLevel, "easy"))))
	if easy.Puzzle == ga.Puzzle {
		t.Error("easy and hard dailies are the same puzzle")
	}
	if n := e.puzzles.dailyCalls.Load(); n != 2 {
		t.Errorf("the engine was asked for %d dailies, want 2 (one per level, then cached)", n)
	}
}

// solveDaily plays user's daily at level on day, viewed at `at`, solved took later.
func (e *playEnv) solveDaily(w who, level string, at time.Time, took time.Duration) Response {
	e.t.Helper()
	r := e.do(w.slash(at, "daily", "play", optLevel, level))
	id := gameID(e.t, r)
	g, _ := e.st.Game(context.Background(), id)
	sol, _ := e.s.playFeature.load(context.Background(), g)
	// Entered as a player types them, a few at a time: the whole solution
	// in one entry is kept off the boards (fair.go).
	moves := strings.Split(movesFor(g.Puzzle, sol.solution.String()), ", ")
	const each = 6
	for len(moves) > each {
		e.do(w.submit(at.Add(took/2), gmovePrefix+":"+strconv.FormatInt(id, 10), strings.Join(moves[:each], ", ")))
		moves = moves[each:]
	}
	return e.do(w.submit(at.Add(took), gmovePrefix+":"+strconv.FormatInt(id, 10), strings.Join(moves, ", ")))
}

func TestDailyLeaderboardOrderAndAnnouncement(t *testing.T) {
	e := newPlayEnv(t)
	r := e.solveDaily(bob, "medium", t0, 9*time.Minute)
	if len(r.FollowUps) != 1 || !strings.HasPrefix(r.FollowUps[0].Content, "Bob solved today's medium daily (#73) in 9:00, no hints") {
		t.Errorf("announcement = %+v", r.FollowUps)
	}
	e.solveDaily(ada, "medium", t0.Add(time.Hour), 6*time.Minute+41*time.Second)
	e.solveDaily(cy, "medium", t0, time.Minute) // another server
	r = e.do(ada.slash(t0.Add(2*time.Hour), "daily", "leaderboard", optLevel, "medium"))
	if len(r.Embeds) != 1 || len(r.Embeds[0].Fields) != 1 {
		t.Fatalf("leaderboard = %+v", r)
	}
	got := r.Embeds[0].Fields[0].Value
	want := "**1.** Ada — 6:41 · no hints\n**2.** Bob — 9:00 · no hints"
	if got != want {
		t.Errorf("leaderboard rows =\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(r.Embeds[0].Title, "Daily #73 · 14 Mar 2026") {
		t.Errorf("leaderboard title = %q", r.Embeds[0].Title)
	}
	all := e.do(ada.slash(t0.Add(2*time.Hour), "daily", "leaderboard"))
	if n := len(all.Embeds[0].Fields); n != 3 || !strings.Contains(all.Embeds[0].Fields[0].Value, "No one yet") {
		t.Errorf("all-levels leaderboard = %+v", all.Embeds[0].Fields)
	}
	for _, bad := range []string{"14/03/2026", "2999-01-01", "2025-12-31"} {
		if r := e.do(ada.slash(t0, "daily", "leaderboard", optDate, bad)); !r.Ephemeral {
			t.Errorf("leaderboard date %q = %+v, want an ephemeral error", bad, r)
		}
	}
	y := e.do(ada.slash(t0.AddDate(0, 0, 1), "daily", "leaderboard", optLevel, "medium", optDate, "yesterday"))
	if !strings.Contains(y.Embeds[0].Fields[0].Value, "Ada") {
		t.Errorf("yesterday's leaderboard = %+v", y.Embeds[0].Fields)
	}
	// Solving again (or resuming a solved daily) does not count twice.
	again := e.do(ada.slash(t0.Add(3*time.Hour), "daily", "play", optLevel, "medium"))
	if !strings.Contains(again.Content, "already solved") || len(again.Components) != 0 {
		t.Errorf("replaying a solved daily = %q", again.Content)
	}
}

func TestDailyStreakAcrossThreeDays(t *testing.T) {
	e := newPlayEnv(t)
	levels := []string{"easy", "hard", "medium"}
	for d := range 3 {
		e.solveDaily(ada, levels[d], t0.AddDate(0, 0, d), time.Duration(d+2)*time.Minute)
	}
	st := e.do(ada.slash(t0.AddDate(0, 0, 2).Add(time.Hour), "daily", "stats"))
	text := allText(st)
	for _, want := range []string{"3 dailies solved on 3 days", "current **3** · best **3**", "Easy: 1 solved\nAverage 2:00\nBest 2:00", "Medium: 1 solved\nAverage 4:00"} {
		if !strings.Contains(text, want) {
			t.Errorf("stats on day 3 lack %q:\n%s", want, text)
		}
	}
	// Day 4 without a solve: the streak is alive until the day ends.
	if text := allText(e.do(ada.slash(t0.AddDate(0, 0, 3), "daily", "stats"))); !strings.Contains(text, "current **3**") || !strings.Contains(text, "keep it going") {
		t.Errorf("stats on day 4:\n%s", text)
	}
	// Day 5: broken; best stays.
	if text := allText(e.do(ada.slash(t0.AddDate(0, 0, 4), "daily", "stats"))); !strings.Contains(text, "current **0** · best **3**") {
		t.Errorf("stats on day 5:\n%s", text)
	}
	// Someone else's stats, by option.
	if text := allText(e.do(bob.slash(t0.AddDate(0, 0, 2), "daily", "stats", optUser, ada.user))); !strings.Contains(text, "<@u-ada> · 3 dailies") {
		t.Errorf("Bob looking at Ada's stats:\n%s", text)
	}
	if text := allText(e.do(bob.slash(t0, "daily", "stats"))); !strings.Contains(text, "You haven't solved a daily yet.") || strings.Contains(text, "0 dailies") {
		t.Errorf("stats of a newcomer:\n%s", text)
	}
}

func TestDailySetup(t *testing.T) {
	e := newPlayEnv(t)
	member := ada.slash(t0, "daily", "setup", optChannel, "c-daily", optHour, "9")
	if r := e.do(member); !strings.Contains(r.Content, "Manage Server") {
		t.Errorf("setup without permission = %q", r.Content)
	}
	if g, _ := e.st.Settings(context.Background(), "g1"); g.DailyChannel != "" {
		t.Errorf("a member without permission changed the settings: %+v", g)
	}
	admin := member
	admin.Permissions = permManageGuild
	admin.ChannelGuilds = map[string]string{"c-daily": "g1"}
	if r := e.do(admin); !strings.Contains(r.Content, "<#c-daily> every day at 09:00 UTC") {
		t.Errorf("setup = %q", r.Content)
	}
	if g, _ := e.st.Settings(context.Background(), "g1"); g.DailyChannel != "c-daily" || g.DailyHour != 9 {
		t.Errorf("settings after setup = %+v", g)
	}
	status := ada.slash(t0, "daily", "setup")
	status.Permissions = permAdministrator
	if r := e.do(status); !strings.Contains(r.Content, "posted in <#c-daily> at 09:00 UTC") {
		t.Errorf("setup status = %q", r.Content)
	}
	bad := ada.slash(t0, "daily", "setup", optChannel, "c", optHour, "24")
	bad.Permissions = permManageGuild
	bad.ChannelGuilds = map[string]string{"c": "g1"}
	if r := e.do(bad); !strings.Contains(r.Content, "0 to 23") {
		t.Errorf("hour 24 = %q", r.Content)
	}
	off := ada.slash(t0, "daily", "setup", optOff, "true")
	off.Permissions = permManageGuild
	if r := e.do(off); !strings.Contains(r.Content, "off") {
		t.Errorf("setup off = %q", r.Content)
	}
	if g, _ := e.st.Settings(context.Background(), "g1"); g.DailyChannel != "" {
		t.Errorf("settings after off = %+v", g)
	}
	dm := ada.slash(t0, "daily", "setup", optChannel, "c")
	dm.GuildID, dm.Permissions = "", permManageGuild
	if r := e.do(dm); !strings.Contains(r.Content, "per server") {
		t.Errorf("setup in a DM = %q", r.Content)
	}
}

func TestDailySetupChecksTheChannelsServer(t *testing.T) {
	e := newPlayEnv(t)
	tests := []struct {
		name     string
		resolved map[string]string
		want     string // in the reply
		saved    string // the daily channel afterwards
	}{
		{"another server's channel", map[string]string{"c-x": "g2"}, "belongs to another server", ""},
		{"not resolved", nil, "couldn't confirm that channel", ""},
		{"resolved, another channel", map[string]string{"c-y": "g1"}, "couldn't confirm that channel", ""},
		{"this server's channel", map[string]string{"c-x": "g1"}, "<#c-x> every day", "c-x"},
		// Discord gave the channel without its server: it only resolves
		// channels the member can see, so this one is taken.
		{"resolved without a server", map[string]string{"c-x": ""}, "<#c-x> every day", "c-x"},
	}
	for _, tt := range tests {
		if err := e.st.StopDaily(context.Background(), "g1", t0); err != nil {
			t.Fatal(err)
		}
		req := ada.slash(t0, "daily", "setup", optChannel, "c-x")
		req.Permissions, req.ChannelGuilds = permManageGuild, tt.resolved
		r := e.do(req)
		if !strings.Contains(r.Content, tt.want) || !r.Ephemeral {
			t.Errorf("%s: setup = %q, want %q", tt.name, r.Content, tt.want)
		}
		if g, _ := e.st.Settings(context.Background(), "g1"); g.DailyChannel != tt.saved {
			t.Errorf("%s: daily channel after setup = %q, want %q", tt.name, g.DailyChannel, tt.saved)
		}
	}
}

func TestDailyPost(t *testing.T) {
	e := newPlayEnv(t)
	r, err := e.s.DailyPost(context.Background(), t0.Add(5*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	checkLimits(t, r)
	if len(r.Embeds) != 1 || len(r.Embeds[0].Fields) != 3 || !strings.Contains(r.Content, "Daily #73") {
		t.Fatalf("DailyPost = %d embeds, %q", len(r.Embeds), r.Content)
	}
	// No grid before a player's clock starts: no picture, and none of the
	// three puzzles in any text.
	if len(r.Files) != 0 || r.Embeds[0].Image != "" {
		t.Errorf("DailyPost shows a picture: %d files, image %q", len(r.Files), r.Embeds[0].Image)
	}
	for i, lvl := range dailyLevels {
		dp, err := e.puzzles.Daily(context.Background(), t0, lvl)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(allText(r), dp.Grid.String()) {
			t.Errorf("DailyPost shows the %s grid %s", lvl, dp.Grid)
		}
		if f := r.Embeds[0].Fields[i]; f.Name != capitalize(lvl.String()) || !strings.Contains(f.Value, "rated") {
			t.Errorf("DailyPost field %d = %+v, want the %s level and its rating", i, f, lvl)
		}
	}
	play := findButton(t, r, "Play hard")
	if play.CustomID != "dplay:20260314:hard" {
		t.Errorf("Play hard id = %q", play.CustomID)
	}
	// Pressing Play starts the same daily /daily play does.
	viaButton := e.do(ada.click(t0, play.CustomID))
	viaCommand := e.do(ada.slash(t0, "daily", "play", optLevel, "hard"))
	if gameID(t, viaButton) != gameID(t, viaCommand) || viaButton.Update {
		t.Errorf("Play button game %d vs /daily play game %d (Update %v)", gameID(t, viaButton), gameID(t, viaCommand), viaButton.Update)
	}
	// Yesterday's post plays today's puzzle.
	old := e.do(bob.click(t0.AddDate(0, 0, 1), play.CustomID))
	if !strings.Contains(old.Content, "here is today's hard daily") || !strings.Contains(old.Embeds[0].Title, "#74") {
		t.Errorf("old Play button = %q / %q", old.Content, old.Embeds[0].Title)
	}
	lb := e.do(bob.click(t0, findButton(t, r, "Leaderboard").CustomID))
	if !lb.Ephemeral || len(lb.Embeds) != 1 || len(lb.Embeds[0].Fields) != 3 {
		t.Errorf("Leaderboard button = %+v", lb)
	}
}

func TestPlayNotRegisteredWithoutStore(t *testing.T) {
	s := New(Config{})
	for _, sp := range s.Specs() {
		if sp.Name == "play" || sp.Name == "daily" {
			t.Errorf("%s registered without a game store", sp.Name)
		}
	}
	if _, err := s.DailyPost(context.Background(), t0); err == nil {
		t.Error("DailyPost without a store succeeded")
	}
}

func TestDecodeGridRoundTrip(t *testing.T) {
	for _, text := range []string{playPuzzles[0][0], "AELMNOSTW" + strings.Repeat(".", 72)} {
		g := mustGrid(playPuzzles[0][0])
		if strings.HasPrefix(text, "AEL") {
			g = sudoku.New(sudoku.Shape9)
			g.Alphabet = "AELMNOSTW"
			for i := range 9 {
				g.Cells[i] = uint8(i + 1)
			}
		}
		back, err := decodeGrid(g.String(), encodeShape(g))
		if err != nil || !back.Equal(g) || back.Alphabet != g.Alphabet {
			t.Errorf("decodeGrid(encode(%s)) = %v, %v", g.String(), back, err)
		}
	}
	for _, bad := range [][2]string{{"123", "3x3"}, {playPuzzles[0][0], "3y3"}, {playPuzzles[0][0], "1x1"}, {playPuzzles[0][0] + "1", "3x3"}} {
		if _, err := decodeGrid(bad[0], bad[1]); err == nil {
			t.Errorf("decodeGrid(%.10q…, %q) succeeded", bad[0], bad[1])
		}
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 61 * time.Second: "1:01", 6*time.Minute + 41*time.Second: "6:41", 3723 * time.Second: "1:02:03"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

// BenchmarkMoveSubmit is the commands side of a move's round trip: a modal
// submit to the updated board image, store write and PNG included, with 100
// games in progress.
func BenchmarkMoveSubmit(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Config{Games: st, Puzzles: &fakePuzzles{}})
	const games = 100
	ids := make([]string, games)
	users := make([]who, games)
	for i := range games {
		users[i] = who{fmt.Sprint("u", i), fmt.Sprint("player", i), "g1"}
		r := s.Handle(context.Background(), users[i].slash(t0, "play", "", optLevel, "easy"))
		_, id, _ := parseGameButton(r.Components[0].Buttons[0].CustomID)
		ids[i] = strconv.FormatInt(id, 10)
	}
	puzzle, solution := playPuzzles[0][0], playPuzzles[0][1]
	var blanks []int
	for i := range puzzle {
		if puzzle[i] == '0' {
			blanks = append(blanks, i)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		g := i % games
		k := i / games
		cell := blanks[k%len(blanks)]
		v := string(solution[cell])
		if (k/len(blanks))%2 == 1 {
			v = "."
		}
		r := s.Handle(context.Background(), users[g].submit(t0, gmovePrefix+":"+ids[g], fmt.Sprintf("%c%d %s", 'A'+cell/9, cell%9+1, v)))
		if len(r.Files) != 1 {
			b.Fatalf("move answered %q", r.Content)
		}
	}
}

// TestDailyWithTheEngine plays through the real generator's daily: the same
// puzzle for two users, and a solve recorded on the leaderboard.
func TestDailyWithTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a puzzle")
	}
	path := filepath.Join(t.TempDir(), "engine.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secret := []byte("test secret")
	s := New(Config{Games: st, DailySecret: secret})
	ra := s.Handle(context.Background(), ada.slash(t0, "daily", "play", optLevel, "easy"))
	rb := s.Handle(context.Background(), cy.slash(t0, "daily", "play", optLevel, "easy"))
	if len(ra.Components) == 0 || len(rb.Components) == 0 {
		t.Fatalf("/daily play with the engine = %q / %q", allText(ra), allText(rb))
	}
	_, ida, _ := parseGameButton(ra.Components[0].Buttons[0].CustomID)
	_, idc, _ := parseGameButton(rb.Components[0].Buttons[0].CustomID)
	ga, _ := st.Game(context.Background(), ida)
	gc, _ := st.Game(context.Background(), idc)
	want, err := sudoku.Daily(context.Background(), secret, t0, sudoku.Easy)
	if err != nil {
		t.Fatal(err)
	}
	if ga.Puzzle != want.Grid.String() || gc.Puzzle != ga.Puzzle || ga.Solution != want.Solution.String() {
		t.Fatalf("games hold %q and %q, want sudoku.Daily's %q", ga.Puzzle, gc.Puzzle, want.Grid.String())
	}
	r := s.Handle(context.Background(), ada.submit(t0.Add(4*time.Minute), gmovePrefix+":"+strconv.FormatInt(ida, 10), ga.Solution))
	// Pasting the whole solution solves it, kept off the board (fair.go).
	if !strings.Contains(r.Content, "Solved in 4:00") || !strings.Contains(r.Content, "not counted") || len(r.FollowUps) != 1 {
		t.Errorf("pasting the solution = %q", r.Content)
	}
	lb := s.Handle(context.Background(), ada.slash(t0, "daily", "leaderboard", optLevel, "easy"))
	if !strings.Contains(allText(lb), "No one yet") {
		t.Errorf("leaderboard after a pasted solution = %q, want no one on it", allText(lb))
	}
}

// TestPlaySpecs checks /play and /daily against Discord's rules for
// command definitions.
func TestPlaySpecs(t *testing.T) {
	e := newPlayEnv(t)
	name := regexp.MustCompile(`^[-_a-z0-9]{1,32}$`)
	var check func(path string, opts []OptionSpec)
	check = func(path string, opts []OptionSpec) {
		if len(opts) > 25 {
			t.Errorf("%s has %d options", path, len(opts))
		}
		optional := false
		for _, o := range opts {
			p := path + " " + o.Name
			if !name.MatchString(o.Name) {
				t.Errorf("%s: bad name", p)
			}
			if n := len([]rune(o.Description)); n < 1 || n > 100 {
				t.Errorf("%s: description of %d characters", p, n)
			}
			if o.Required && optional {
				t.Errorf("%s: required after optional", p)
			}
			optional = optional || !o.Required
			if o.Type == OptSubcommand {
				check(p, o.Options)
			} else if len(o.Options) > 0 {
				t.Errorf("%s: a plain option with options", p)
			}
		}
	}
	found := map[string]bool{}
	for _, sp := range e.s.Specs() {
		if sp.Name != "play" && sp.Name != "daily" {
			continue
		}
		found[sp.Name] = true
		if n := len([]rune(sp.Description)); n < 1 || n > 100 {
			t.Errorf("/%s description of %d characters", sp.Name, n)
		}
		check("/"+sp.Name, sp.Options)
	}
	if !found["play"] || !found["daily"] {
		t.Errorf("registered %v, want play and daily", found)
	}
	var subs []string
	for _, sp := range e.s.Specs() {
		if sp.Name == "daily" {
			for _, o := range sp.Options {
				subs = append(subs, o.Name)
			}
		}
	}
	if got := strings.Join(subs, " "); got != "play leaderboard stats setup flagged" {
		t.Errorf("/daily sub-commands = %q", got)
	}
}

// BenchmarkMoveBatch measures a batch of ten moves typed into the moves
// modal, on a real SQLite store: parsing, the store's writes and the board
// drawn again.
func BenchmarkMoveBatch(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Config{Games: st, Puzzles: &fakePuzzles{}})
	r := s.Handle(context.Background(), ada.slash(t0, "play", "", optLevel, "easy"))
	id := gameID(b, r)
	p := playPuzzles[0][0]
	var blanks []string
	for i := range p {
		if p[i] == '0' && len(blanks) < 10 {
			blanks = append(blanks, sudoku.Shape9.CellName(i))
		}
	}
	batches := [2]string{}
	for k, v := range []string{"1", "2"} {
		var ms []string
		for _, c := range blanks {
			ms = append(ms, c+" "+v)
		}
		batches[k] = strings.Join(ms, ", ")
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := s.Handle(context.Background(), ada.submit(t0.Add(time.Minute), movesModalID(id), batches[i%2]))
		if !strings.Contains(r.Content, "Played 10 moves") {
			b.Fatalf("reply %q", r.Content)
		}
	}
}

// TestHintErasedAnswerLevels: in a game, a hint about a candidate the
// player erased names the cell at level 1 and gives the digit only when
// asked, as /hint does.
func TestHintErasedAnswerLevels(t *testing.T) {
	e := newPlayEnv(t)
	id := gameID(t, e.do(ada.slash(t0, "play", "", optLevel, "easy")))
	answer := playPuzzles[0][1][0] // A1 is empty in playPuzzles[0]
	marks := strings.ReplaceAll("123456789", string(answer), "")
	e.do(ada.submit(t0, movesModalID(id), "A1 p"+marks))
	r := e.do(ada.click(t0, gameButtonID("h", id)))
	if !strings.Contains(r.Content, "A1") || strings.Contains(r.Content, string(answer)) {
		t.Fatalf("level-1 hint on an erased answer = %q, want A1 named and %c not", r.Content, answer)
	}
	more := findButton(t, r, "Which candidate?")
	if more.CustomID != gameButtonID("h2", id) {
		t.Errorf("Which candidate? goes to %q, want %q", more.CustomID, gameButtonID("h2", id))
	}
	r = e.do(ada.click(t0, more.CustomID))
	if !strings.Contains(r.Content, "A1 is "+string(answer)) {
		t.Errorf("level-2 hint on an erased answer = %q, want it to say A1 is %c", r.Content, answer)
	}
}
