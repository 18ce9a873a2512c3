package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// testPuzzles make fixed puzzles: the engine's generator with a fixed seed
// (a pure function of its options) and its daily under a fixed secret.
type testPuzzles struct{}

func (testPuzzles) Generate(ctx context.Context, opts sudoku.GenerateOptions) (sudoku.Puzzle, error) {
	opts.Seed = 7
	return sudoku.Generate(ctx, opts)
}

func (testPuzzles) Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	return sudoku.Daily(ctx, []byte("activity test secret"), date, level)
}

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var (
	ada = commands.Player{UserID: "100", UserName: "Ada", GuildID: "g1"}
	bob = commands.Player{UserID: "200", UserName: "Bob", GuildID: "g1"}
)

// env is a server on a real store, with Ada as the local player.
type env struct {
	st    *store.Store
	svc   *commands.Service
	srv   *Server
	clock *clock
}

func newEnv(t testing.TB, cfg Config) *env {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{st: st, clock: &clock{t: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}}
	e.svc = commands.New(commands.Config{Games: st, Puzzles: testPuzzles{}})
	cfg.Boards = e.svc
	if cfg.Local == nil {
		cfg.Local = &ada
	}
	cfg.Now = e.clock.now
	if e.srv, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	return e
}

// token signs who in.
func (e *env) token(who commands.Player) string {
	tok, _ := e.srv.sessions.issue(who, e.clock.now())
	return tok
}

type answer struct {
	status int
	header http.Header
	reply
	Error string `json:"error"`
}

// do sends one request as token and reads the answer.
func (e *env) do(t testing.TB, method, path, token, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	a := answer{status: rec.Code, header: rec.Header()}
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s %s: answer %d is not JSON: %q", method, path, rec.Code, rec.Body.String())
	}
	return a
}

// start starts a 4x4 easy game for who and returns it with its solution.
func (e *env) start(t testing.TB, who commands.Player) (commands.BoardView, []int) {
	t.Helper()
	a := e.do(t, "POST", "/api/game", e.token(who), `{"size":4,"level":"easy"}`)
	if a.status != 200 {
		t.Fatalf("start: %d %s", a.status, a.Error)
	}
	g, err := e.st.Game(context.Background(), a.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Parse(g.Solution)
	if err != nil {
		t.Fatal(err)
	}
	cells := make([]int, len(sol.Cells))
	for i, v := range sol.Cells {
		cells[i] = int(v)
	}
	return a.Game, cells
}

// snapshot is what a refusal must leave as it was.
func (e *env) snapshot(t testing.TB, id int64) string {
	t.Helper()
	g, err := e.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := e.st.MoveCount(context.Background(), id)
	return fmt.Sprintf("%v %v moves=%d/%d hints=%d checks=%d %s", g.Entries, g.Pencil, g.Moves, n, g.Hints, g.Checks, g.Status)
}

// emptyCells are the cells of v the player can fill.
func emptyCells(v commands.BoardView) []int {
	var cells []int
	for i, g := range v.Givens {
		if g == 0 {
			cells = append(cells, i)
		}
	}
	return cells
}

func TestRefusalsChangeNothing(t *testing.T) {
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20}) // floods: TestRateLimit, TestNewActionsFlood
	g, sol := e.start(t, ada)
	free := emptyCells(g)[0]
	given := -1
	for i, v := range g.Givens {
		if v != 0 {
			given = i
			break
		}
	}
	// A finished game of Ada's to move on.
	done, doneSol := e.start(t, ada)
	for _, c := range emptyCells(done) {
		if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", done.ID), e.token(ada), fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, doneSol[c])); a.status != 200 {
			t.Fatalf("finishing move: %d %s", a.status, a.Error)
		}
	}
	other := *e.srv.sessions
	other.key = []byte("another key")
	forged, _ := other.issue(ada, e.clock.now())
	valid := e.token(ada)
	expired, _ := e.srv.sessions.issue(ada, e.clock.now().Add(-2*DefaultSessionTTL))
	tampered := strings.Replace(valid, valid[:4], "AAAA", 1)
	move := fmt.Sprintf("/api/games/%d/move", g.ID)
	digit := func(cell, v int) string { return fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, cell, v) }

	cases := []struct {
		name, method, path, token, body string
		status                          int
		says                            string
		game                            int64 // the game that must not change
	}{
		{"no session", "POST", move, "", digit(free, int(sol[free])), 401, "not signed in", g.ID},
		{"forged session", "POST", move, forged, digit(free, int(sol[free])), 401, "isn't valid", g.ID},
		{"tampered session", "POST", move, tampered, digit(free, int(sol[free])), 401, "isn't valid", g.ID},
		{"expired session", "POST", move, expired, digit(free, int(sol[free])), 401, "expired", g.ID},
		{"garbage session", "POST", move, "x.y.z", digit(free, 1), 401, "isn't valid", g.ID},
		{"someone else's game", "POST", move, e.token(bob), digit(free, int(sol[free])), 403, "belongs to someone else", g.ID},
		{"someone else's undo", "POST", fmt.Sprintf("/api/games/%d/undo", g.ID), e.token(bob), "", 403, "belongs to someone else", g.ID},
		{"someone else's hint", "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), e.token(bob), `{"level":3}`, 403, "belongs to someone else", g.ID},
		{"someone else's view", "GET", fmt.Sprintf("/api/games/%d", g.ID), e.token(bob), "", 403, "belongs to someone else", g.ID},
		{"finished game", "POST", fmt.Sprintf("/api/games/%d/move", done.ID), valid, digit(emptyCells(done)[0], 1), 409, "over", done.ID},
		{"undo on finished game", "POST", fmt.Sprintf("/api/games/%d/undo", done.ID), valid, "", 409, "over", done.ID},
		{"cell below range", "POST", move, valid, digit(-1, 1), 400, "off the board", g.ID},
		{"cell above range", "POST", move, valid, digit(16, 1), 400, "off the board", g.ID},
		{"no cell", "POST", move, valid, `{"kind":"digit","value":1}`, 400, "off the board", g.ID},
		{"digit too big", "POST", move, valid, digit(free, 5), 400, "not a digit", g.ID},
		{"digit zero", "POST", move, valid, digit(free, 0), 400, "not a digit", g.ID},
		{"digit negative", "POST", move, valid, digit(free, -3), 400, "not a digit", g.ID},
		{"notes out of range", "POST", move, valid, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":16}`, free), 400, "outside 1 to 4", g.ID},
		{"a given", "POST", move, valid, digit(given, 1), 400, "is a given", g.ID},
		{"unknown kind", "POST", move, valid, fmt.Sprintf(`{"cell":%d,"kind":"swap","value":1}`, free), 400, "not a move", g.ID},
		{"set is redo's own", "POST", move, valid, fmt.Sprintf(`{"cell":%d,"kind":"set","value":1}`, free), 400, "not a move", g.ID},
		{"unknown field", "POST", move, valid, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":1,"user":"200"}`, free), 400, "valid JSON", g.ID},
		{"malformed JSON", "POST", move, valid, `{"cell":`, 400, "valid JSON", g.ID},
		{"trailing data", "POST", move, valid, digit(free, 1) + `{}`, 400, "after its JSON", g.ID},
		{"huge body", "POST", move, valid, `{"cell":1,"kind":"digit","value":1,"x":"` + strings.Repeat("a", 2*MaxBody) + `"}`, 413, "over 4096 bytes", g.ID},
		{"no such game", "POST", "/api/games/999999/move", valid, digit(free, 1), 404, "can't find", g.ID},
		{"bad game id", "POST", "/api/games/abc/move", valid, digit(free, 1), 404, "no such game", g.ID},
		{"someone else's step", "POST", fmt.Sprintf("/api/games/%d/step", g.ID), e.token(bob), `{"step":"00"}`, 403, "belongs to someone else", g.ID},
		{"someone else's give up", "POST", fmt.Sprintf("/api/games/%d/giveup", g.ID), e.token(bob), "", 403, "belongs to someone else", g.ID},
		{"step on finished game", "POST", fmt.Sprintf("/api/games/%d/step", done.ID), valid, `{"step":"00"}`, 409, "over", done.ID},
		{"give up a finished game", "POST", fmt.Sprintf("/api/games/%d/giveup", done.ID), valid, "", 409, "over", done.ID},
		{"bad step id", "POST", fmt.Sprintf("/api/games/%d/step", g.ID), valid, `{"step":"0123456789abcdef01234567"}`, 400, "no longer fits", g.ID},
		{"no step id", "POST", fmt.Sprintf("/api/games/%d/step", g.ID), valid, `{}`, 400, "No hint step", g.ID},
		{"huge step id", "POST", fmt.Sprintf("/api/games/%d/step", g.ID), valid, `{"step":"` + strings.Repeat("a", 100) + `"}`, 400, "No hint step", g.ID},
		{"step body not JSON", "POST", fmt.Sprintf("/api/games/%d/step", g.ID), valid, `step=1`, 400, "valid JSON", g.ID},
		{"give up with a body", "POST", fmt.Sprintf("/api/games/%d/giveup", g.ID), valid, `{"really":true}`, 400, "valid JSON", g.ID},
		{"step on no such game", "POST", "/api/games/999999/step", valid, `{"step":"00"}`, 404, "can't find", g.ID},
		{"hint level 0", "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), valid, `{"level":0}`, 400, "not 1, 2 or 3", g.ID},
		{"hint level 4", "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), valid, `{"level":4}`, 400, "not 1, 2 or 3", g.ID},
		{"nothing to undo", "POST", fmt.Sprintf("/api/games/%d/undo", g.ID), valid, "", 400, "Nothing to undo", g.ID},
		{"nothing to redo", "POST", fmt.Sprintf("/api/games/%d/redo", g.ID), valid, "", 400, "Nothing to redo", g.ID},
		{"bad size", "POST", "/api/game", valid, `{"size":5}`, 400, "not a size", g.ID},
		{"bad level", "POST", "/api/game", valid, `{"size":9,"level":"impossible"}`, 400, "not a level", g.ID},
		{"bad daily level", "POST", "/api/game", valid, `{"daily":"expert"}`, 400, "easy, medium or hard", g.ID},
		{"level out of reach", "POST", "/api/game", valid, `{"size":4,"level":"hard"}`, 400, "go up to easy", g.ID},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := e.snapshot(t, c.game)
			a := e.do(t, c.method, c.path, c.token, c.body)
			if a.status != c.status || !strings.Contains(a.Error, c.says) {
				t.Errorf("got %d %q, want %d saying %q", a.status, a.Error, c.status, c.says)
			}
			if after := e.snapshot(t, c.game); after != before {
				t.Errorf("the refusal changed the game:\n before %s\n after  %s", before, after)
			}
		})
	}
}

func TestPlayToTheFinish(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	if a := e.do(t, "GET", "/api/game", tok, ""); a.status != 404 || !strings.Contains(a.Error, "No game is running") {
		t.Fatalf("no game yet: got %d %q", a.status, a.Error)
	}
	g, sol := e.start(t, ada)
	if a := e.do(t, "GET", "/api/game", tok, ""); a.status != 200 || a.Game.ID != g.ID {
		t.Fatalf("current game: got %d %q id %d, want %d", a.status, a.Error, a.Game.ID, g.ID)
	}
	free := emptyCells(g)
	// A wrong digit clashes or is wrong; check marks it; undo takes it back.
	c := free[0]
	wrongV := int(sol[c])%4 + 1
	a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, wrongV))
	if a.status != 200 || a.Game.Entries[c] != wrongV {
		t.Fatalf("move: %d %q entries %v", a.status, a.Error, a.Game.Entries)
	}
	a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/check", g.ID), tok, "")
	if a.status != 200 || len(a.Game.Wrong) != 1 || a.Game.Wrong[0] != c || a.Game.Checks != 1 {
		t.Fatalf("check: %d %q wrong %v checks %d", a.status, a.Error, a.Game.Wrong, a.Game.Checks)
	}
	e.clock.add(90 * time.Second)
	for _, c := range free {
		a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol[c]))
		if a.status != 200 {
			t.Fatalf("move %d: %d %q", c, a.status, a.Error)
		}
	}
	if a.Game.Status != "solved" || a.Game.Running || !strings.Contains(a.Game.Note, "Solved in 1:30") {
		t.Fatalf("last move: status %s running %v note %q", a.Game.Status, a.Game.Running, a.Game.Note)
	}
	stored, _ := e.st.Game(context.Background(), g.ID)
	if stored.Status != store.Solved || !stored.FinishedAt.Equal(e.clock.now()) {
		t.Errorf("store: status %s finished %v, want solved at the server's %v", stored.Status, stored.FinishedAt, e.clock.now())
	}
	if a := e.do(t, "GET", "/api/game", tok, ""); a.status != 404 {
		t.Errorf("after the finish, the current game: %d, want 404", a.status)
	}
}

func TestChatAndPageShareTheGame(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	g, sol := e.start(t, ada)
	free := emptyCells(g)
	// A move on the page is on the chat board...
	if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, free[0], sol[free[0]])); a.status != 200 {
		t.Fatalf("move: %d %q", a.status, a.Error)
	}
	sh := sudoku.Shape{BoxRows: 2, BoxCols: 2}
	r := e.svc.Handle(context.Background(), commands.Request{
		Kind: commands.ModalSubmit, UserID: ada.UserID, UserName: ada.UserName, GuildID: ada.GuildID,
		CustomID: fmt.Sprintf("gmove:%d", g.ID), Fields: map[string]string{"moves": fmt.Sprintf("%s %d", sh.CellName(free[1]), sol[free[1]])},
		Now: e.clock.now(),
	})
	if !strings.Contains(r.Content, "Played 1 move") {
		t.Fatalf("chat move: %q", r.Content)
	}
	// ...and a move in chat is on the page, as one more undoable move.
	a := e.do(t, "GET", fmt.Sprintf("/api/games/%d", g.ID), tok, "")
	if a.Game.Entries[free[0]] != sol[free[0]] || a.Game.Entries[free[1]] != sol[free[1]] || a.Game.Moves != 2 {
		t.Fatalf("page sees entries %v moves %d, want both moves", a.Game.Entries, a.Game.Moves)
	}
	a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/undo", g.ID), tok, "")
	if a.status != 200 || a.Game.Entries[free[1]] != 0 || a.Game.Entries[free[0]] == 0 {
		t.Fatalf("undo on the page took back %v", a.Game.Entries)
	}
}

func TestNotesUndoRedo(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	g, sol := e.start(t, ada)
	free := emptyCells(g)
	path := func(what string) string { return fmt.Sprintf("/api/games/%d/%s", g.ID, what) }
	c := free[0]
	a := e.do(t, "POST", path("move"), tok, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, c, 0b0101))
	if a.status != 200 || a.Game.Notes[c] != 0b0101 || a.Game.Entries[c] != 0 {
		t.Fatalf("notes: %d %q notes %v", a.status, a.Error, a.Game.Notes)
	}
	a = e.do(t, "POST", path("move"), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol[c]))
	if a.Game.Entries[c] != sol[c] || a.Game.Notes[c] != 0b0101 || a.CanRedo {
		t.Fatalf("digit over notes: entry %d notes %b canRedo %v", a.Game.Entries[c], a.Game.Notes[c], a.CanRedo)
	}
	a = e.do(t, "POST", path("undo"), tok, "")
	if a.Game.Entries[c] != 0 || a.Game.Notes[c] != 0b0101 || !a.CanRedo {
		t.Fatalf("undo: entry %d notes %b canRedo %v", a.Game.Entries[c], a.Game.Notes[c], a.CanRedo)
	}
	a = e.do(t, "POST", path("undo"), tok, "")
	if a.Game.Notes[c] != 0 || !a.CanRedo {
		t.Fatalf("second undo: notes %b canRedo %v", a.Game.Notes[c], a.CanRedo)
	}
	a = e.do(t, "POST", path("redo"), tok, "")
	if a.status != 200 || a.Game.Notes[c] != 0b0101 || a.Game.Entries[c] != 0 || !a.CanRedo {
		t.Fatalf("redo: %d %q notes %b entry %d canRedo %v", a.status, a.Error, a.Game.Notes[c], a.Game.Entries[c], a.CanRedo)
	}
	a = e.do(t, "POST", path("redo"), tok, "")
	if a.Game.Entries[c] != sol[c] || a.CanRedo {
		t.Fatalf("second redo: entry %d canRedo %v", a.Game.Entries[c], a.CanRedo)
	}
	// A new move after an undo drops the redo.
	e.do(t, "POST", path("undo"), tok, "")
	e.do(t, "POST", path("move"), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, free[1], sol[free[1]]))
	if a := e.do(t, "POST", path("redo"), tok, ""); a.status != 400 || !strings.Contains(a.Error, "Nothing to redo") {
		t.Errorf("redo after a new move: %d %q", a.status, a.Error)
	}
	// So does a move made in chat (the board is no longer what the undo left).
	e.do(t, "POST", path("undo"), tok, "")
	if _, err := e.st.Move(context.Background(), g.ID, []store.Change{{Cell: free[2], Value: uint8(sol[free[2]])}}, nil, e.clock.now(), nil); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot(t, g.ID)
	if a := e.do(t, "POST", path("redo"), tok, ""); a.status != 400 {
		t.Errorf("redo after a chat move: %d, want 400", a.status)
	}
	if after := e.snapshot(t, g.ID); after != before {
		t.Errorf("a refused redo changed the game")
	}
}

func TestHintLevels(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	g, _ := e.start(t, ada)
	for level := 1; level <= 3; level++ {
		a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), tok, fmt.Sprintf(`{"level":%d}`, level))
		if a.status != 200 || a.Game.Hint == nil || a.Game.Hint.Level != level || a.Game.Hint.Text == "" {
			t.Fatalf("hint %d: %d %q %+v", level, a.status, a.Error, a.Game.Hint)
		}
		if a.Game.Hints != 1 {
			t.Errorf("hint %d: %d hints counted, want 1 (one per position, as in chat)", level, a.Game.Hints)
		}
		if level == 3 && len(a.Game.Hint.Cells) == 0 {
			t.Errorf("a level-3 hint names no cells")
		}
	}
}

func TestDailyResumes(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	a := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	if a.status != 200 || a.Game.Daily != "easy" {
		t.Fatalf("daily: %d %q daily %q", a.status, a.Error, a.Game.Daily)
	}
	b := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	if b.Game.ID != a.Game.ID {
		t.Errorf("a second start of the same daily made game %d, want %d back", b.Game.ID, a.Game.ID)
	}
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, Config{RatePerMinute: 60, RateBurst: 3})
	tok := e.token(ada)
	g, sol := e.start(t, ada) // one token
	free := emptyCells(g)
	move := func(i int) answer {
		return e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, free[i], sol[free[i]]))
	}
	for i := range 2 {
		if a := move(i); a.status != 200 {
			t.Fatalf("move %d: %d %q", i, a.status, a.Error)
		}
	}
	before := e.snapshot(t, g.ID)
	a := move(2)
	if a.status != 429 || a.header.Get("Retry-After") == "" || !strings.Contains(a.Error, "wait") {
		t.Fatalf("flood: %d %q Retry-After %q", a.status, a.Error, a.header.Get("Retry-After"))
	}
	if e.snapshot(t, g.ID) != before {
		t.Errorf("a refused move changed the game")
	}
	// Bob has his own bucket; reading is not limited.
	if a := e.do(t, "GET", fmt.Sprintf("/api/games/%d", g.ID), tok, ""); a.status != 200 {
		t.Errorf("a read after the flood: %d", a.status)
	}
	e.clock.add(time.Second)
	if a := move(2); a.status != 200 {
		t.Errorf("a second later: %d %q", a.status, a.Error)
	}
}

func TestSignIn(t *testing.T) {
	e := newEnv(t, Config{})
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader("{}")))
	var got struct {
		Token string            `json:"token"`
		User  map[string]string `json:"user"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 || got.User["id"] != ada.UserID {
		t.Fatalf("local sign-in: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "accessToken") {
		t.Errorf("local sign-in hands out an access token: %s", rec.Body)
	}
	sess, err := e.srv.sessions.verify(got.Token, e.clock.now())
	if err != nil || sess.Player != ada {
		t.Fatalf("the issued token reads back as %+v, %v", sess, err)
	}
	if _, err := e.srv.sessions.verify(got.Token, e.clock.now().Add(DefaultSessionTTL)); err != ErrExpiredSession {
		t.Errorf("after its TTL: %v, want ErrExpiredSession", err)
	}
	// The page outside Discord signs in through the SDK's mock: its code
	// is the local player too; any other code is not.
	for _, c := range []struct {
		body   string
		status int
	}{{`{"code":"mock_code"}`, 200}, {`{"code":"good"}`, 403}} {
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader(c.body)))
		if rec.Code != c.status || (c.status == 200) != strings.Contains(rec.Body.String(), `"id":"`+ada.UserID+`"`) {
			t.Errorf("local sign-in %s: %d %s, want %d", c.body, rec.Code, rec.Body, c.status)
		}
	}
	// A code goes to Config.SignIn; a refused one gets a sentence, not the
	// error, and issues nothing.
	withCode, err := New(Config{Boards: e.svc, Now: e.clock.now, SignIn: fakeSignIn{"good": bob}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		body   string
		status int
		user   string
	}{
		{`{"code":"good"}`, 200, bob.UserID},
		{`{"code":"replayed"}`, 401, ""},
		{`{}`, 403, ""}, // no local mode here
		{`{"code":1}`, 400, ""},
	} {
		rec := httptest.NewRecorder()
		withCode.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader(c.body)))
		var got struct {
			Token       string            `json:"token"`
			User        map[string]string `json:"user"`
			Error       string            `json:"error"`
			AccessToken string            `json:"accessToken"`
		}
		json.Unmarshal(rec.Body.Bytes(), &got)
		if rec.Code != c.status || got.User["id"] != c.user || (c.status != 200) != (got.Token == "") {
			t.Errorf("sign-in %s: %d %s", c.body, rec.Code, rec.Body)
		}
		// Discord's access token comes back for the SDK's authenticate().
		if want := map[bool]string{true: "access-" + c.user}[c.status == 200]; got.AccessToken != want {
			t.Errorf("sign-in %s: accessToken %q, want %q", c.body, got.AccessToken, want)
		}
		if strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("sign-in %s: the answer shows the exchange's error: %s", c.body, rec.Body)
		}
	}
	// Without local mode nobody signs in without a code.
	off, err := New(Config{Boards: e.svc})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"{}", `{"code":"mock_code"}`} {
		rec := httptest.NewRecorder()
		off.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader(body)))
		if rec.Code != 403 || !strings.Contains(rec.Body.String(), "open the board from Discord") {
			t.Errorf("sign-in %s with local mode off: %d %s", body, rec.Code, rec.Body)
		}
	}
}

func TestPageAndAssets(t *testing.T) {
	e := newEnv(t, Config{})
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	page := rec.Body.String()
	if rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("page: %d cache %q", rec.Code, rec.Header().Get("Cache-Control"))
	}
	for src, hashed := range e.srv.assets.names {
		if !strings.Contains(page, "/assets/"+hashed) {
			t.Errorf("the page does not name %s as %s", src, hashed)
		}
		req := httptest.NewRequest("GET", "/assets/"+hashed, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: %d cache %q encoding %q", hashed, rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("Content-Encoding"))
		}
	}
	if len(e.srv.assets.names) < 2 {
		t.Errorf("assets %v: want the script and the style", e.srv.assets.names)
	}
	rec = httptest.NewRecorder()
	e.srv.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/app.0000000000.js", nil))
	if rec.Code != 404 {
		t.Errorf("an unknown hash: %d, want 404", rec.Code)
	}
	plain, gz := e.srv.assets.weight()
	t.Logf("page weight: %d bytes, %d gzipped (HTML, script and style)", plain, gz)
	if gz > 150<<10 {
		t.Errorf("page weight %d bytes gzipped, over the 150 KB goal", gz)
	}
}

// BenchmarkMoveRoundTrip measures one move over loopback HTTP: the request,
// the session, the checks, the store's transaction, the answer.
func BenchmarkMoveRoundTrip(b *testing.B) {
	e := newEnv(b, Config{RatePerMinute: 1 << 30, RateBurst: 1 << 30})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	tok := e.token(ada)
	a := e.do(b, "POST", "/api/game", tok, `{"size":9,"level":"easy"}`)
	cell := emptyCells(a.Game)[0]
	url := fmt.Sprintf("%s/api/games/%d/move", ts.URL, a.Game.ID)
	client := ts.Client()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		body := fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, cell, 1+i%500)
		t0 := time.Now()
		req, _ := http.NewRequest("POST", url, bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("move: %d", resp.StatusCode)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, times)
}

// fakeSignIn knows some codes; the others fail with an error that must not
// reach the player.
type fakeSignIn map[string]commands.Player

func (f fakeSignIn) SignIn(ctx context.Context, code string) (SignedIn, error) {
	if p, ok := f[code]; ok {
		return SignedIn{Player: p, AccessToken: "access-" + p.UserID}, nil
	}
	return SignedIn{}, fmt.Errorf("token exchange with client secret s3cret: invalid_grant")
}

// BenchmarkMoveRoundTrip200 is BenchmarkMoveRoundTrip with 200 players
// playing at once, each on their own game (one process, one SQLite file):
// b.N moves in all, each player making one every 400 ms (500 moves a second
// together, several times what 200 people tapping make), so the figures are
// the latency under load, not a queue's length.
func BenchmarkMoveRoundTrip200(b *testing.B) {
	const players = 200
	e := newEnv(b, Config{RatePerMinute: 1 << 30, RateBurst: 1 << 30})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	client := ts.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = players
	type seat struct {
		tok  string
		url  string
		cell int
	}
	seats := make([]seat, players)
	for i := range seats {
		who := commands.Player{UserID: fmt.Sprint(1000 + i), UserName: fmt.Sprint("p", i)}
		tok := e.token(who)
		a := e.do(b, "POST", "/api/game", tok, `{"size":9,"level":"easy"}`)
		if a.status != 200 {
			b.Fatalf("start: %d %s", a.status, a.Error)
		}
		seats[i] = seat{tok, fmt.Sprintf("%s/api/games/%d/move", ts.URL, a.Game.ID), emptyCells(a.Game)[0]}
	}
	var mu sync.Mutex
	times := make([]time.Duration, 0, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	for p := range players {
		n := b.N / players
		if p < b.N%players {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := seats[p]
			const pace = 400 * time.Millisecond
			next := time.Now().Add(pace * time.Duration(p) / players) // spread the players' phases
			for i := range n {
				time.Sleep(time.Until(next))
				next = next.Add(pace)
				body := fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, s.cell, 1+i%500)
				t0 := time.Now()
				if err := postMove(client, s.url, s.tok, body); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				times = append(times, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	reportPercentiles(b, times)
}

// slowBoards holds StartBoard until release is closed, to test the heavy
// limits.
type slowBoards struct {
	Boards
	started chan struct{}
	release chan struct{}
}

func (b slowBoards) StartBoard(ctx context.Context, who commands.Player, st commands.BoardStart, now time.Time) (commands.BoardView, error) {
	b.started <- struct{}{}
	select {
	case <-b.release:
	case <-ctx.Done():
		return commands.BoardView{}, ctx.Err()
	}
	return b.Boards.StartBoard(ctx, who, st, now)
}

func TestHeavyOneAtATime(t *testing.T) {
	e := newEnv(t, Config{})
	g, sol := e.start(t, ada)
	slow := slowBoards{Boards: e.svc, started: make(chan struct{}, 4), release: make(chan struct{})}
	srv, err := New(Config{Boards: slow, Now: e.clock.now, HeavyWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	first := make(chan answer)
	go func() { first <- e.do(t, "POST", "/api/game", e.token(ada), `{"size":4,"level":"easy"}`) }()
	<-slow.started
	// Ada's second puzzle waits for none: she is told to wait for the first.
	if a := e.do(t, "POST", "/api/game", e.token(ada), `{"size":4,"level":"easy"}`); a.status != 429 || !strings.Contains(a.Error, "still working") {
		t.Errorf("a second start while the first runs: %d %q", a.status, a.Error)
	}
	if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), e.token(ada), `{"level":1}`); a.status != 429 {
		t.Errorf("a hint while a start runs: %d %q", a.status, a.Error)
	}
	// Her moves are not heavy and go through.
	c := emptyCells(g)[0]
	if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), e.token(ada), fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol[c])); a.status != 200 {
		t.Errorf("a move while a start runs: %d %q", a.status, a.Error)
	}
	// Bob waits for the one worker; with a deadline shorter than the wait,
	// he is told the bot is busy.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := httptest.NewRequest("POST", "/api/game", strings.NewReader(`{"size":4,"level":"easy"}`)).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+e.token(bob))
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "busy") {
		t.Errorf("a start with every worker taken: %d %s", rec.Code, rec.Body)
	}
	close(slow.release)
	if a := <-first; a.status != 200 {
		t.Fatalf("the first start: %d %q", a.status, a.Error)
	}
	if a := e.do(t, "POST", "/api/game", e.token(ada), `{"size":4,"level":"easy"}`); a.status != 200 {
		t.Errorf("a start after the first ended: %d %q", a.status, a.Error)
	}
}

// TestDiscordSDKAndConfig: the page names the SDK bundle by its hashed
// name (loaded only inside Discord) and the bundle defines DiscordSDK;
// GET /api/config gives the page the application id, and nothing else.
func TestDiscordSDKAndConfig(t *testing.T) {
	e := newEnv(t, Config{})
	srv, err := New(Config{Boards: e.svc, Now: e.clock.now, ClientID: "100"})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get("/api/config"); code != 200 || strings.TrimSpace(body) != `{"clientId":"100"}` {
		t.Errorf("/api/config: %d %s", code, body)
	}
	if code, body := get("/api/config"); code != 200 || strings.Contains(body, "ecret") {
		t.Errorf("/api/config shows a secret: %s", body)
	}
	hashed := srv.assets.names["sdk.js"]
	_, page := get("/")
	if hashed == "" || !strings.Contains(page, `<meta name="discord-sdk" content="/assets/`+hashed+`">`) {
		t.Fatalf("the page does not name the SDK bundle %q", hashed)
	}
	if code, js := get("/assets/" + hashed); code != 200 || !strings.Contains(js, "window.DiscordSDK=") {
		t.Errorf("the SDK bundle: %d, defines DiscordSDK: %v", code, strings.Contains(js, "window.DiscordSDK="))
	}
}

func TestApplyStep(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	g, sol := e.start(t, ada)
	path := func(what string) string { return fmt.Sprintf("/api/games/%d/%s", g.ID, what) }
	a := e.do(t, "POST", path("hint"), tok, `{"level":2}`)
	if a.status != 200 || a.Game.Hint.Step != nil || len(a.Game.Hint.Cells) == 0 {
		t.Fatalf("level 2: %d %q %+v: want the units' cells tinted and no step", a.status, a.Error, a.Game.Hint)
	}
	a = e.do(t, "POST", path("hint"), tok, `{"level":3}`)
	st := a.Game.Hint.Step
	if a.status != 200 || st == nil || st.ID == "" || len(st.Placements) == 0 {
		t.Fatalf("level 3: %d %q %+v: want a step with a placement", a.status, a.Error, a.Game.Hint)
	}
	p := st.Placements[0]
	if p.Value != sol[p.Cell] {
		t.Fatalf("the step places %d in cell %d, the solution has %d", p.Value, p.Cell, sol[p.Cell])
	}
	a = e.do(t, "POST", path("step"), tok, fmt.Sprintf(`{"step":%q}`, st.ID))
	if a.status != 200 || a.Game.Entries[p.Cell] != p.Value || a.Game.Hints != 1 || a.Game.Moves != 1 {
		t.Fatalf("apply: %d %q entry %d hints %d moves %d: want the placement as one move and one hint", a.status, a.Error, a.Game.Entries[p.Cell], a.Game.Hints, a.Game.Moves)
	}
	// The same id again: the board has changed, so it no longer fits.
	before := e.snapshot(t, g.ID)
	if a := e.do(t, "POST", path("step"), tok, fmt.Sprintf(`{"step":%q}`, st.ID)); a.status != 400 || !strings.Contains(a.Error, "no longer fits") {
		t.Errorf("a stale step: %d %q", a.status, a.Error)
	}
	if e.snapshot(t, g.ID) != before {
		t.Errorf("a refused step changed the game")
	}
	// Applied without a hint shown on this position, a step counts one.
	a = e.do(t, "POST", path("hint"), tok, `{"level":3}`)
	a = e.do(t, "POST", path("step"), tok, fmt.Sprintf(`{"step":%q}`, a.Game.Hint.Step.ID))
	if a.status != 200 || a.Game.Hints != 2 {
		t.Errorf("second step: %d %q hints %d, want 2", a.status, a.Error, a.Game.Hints)
	}
	a = e.do(t, "POST", path("undo"), tok, "")
	if a.status != 200 || a.Game.Moves != 1 {
		t.Errorf("undo of a step: %d %q moves %d", a.status, a.Error, a.Game.Moves)
	}
}

// TestApplyStepRemovals: a step that only removes candidates takes them
// off the cells' notes, starting from the plain candidates where the
// player has none.
func TestApplyStepRemovals(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	for _, level := range []string{"hard", "expert", "extreme"} {
		a := e.do(t, "POST", "/api/game", tok, fmt.Sprintf(`{"size":9,"level":%q}`, level))
		if a.status != 200 {
			t.Fatalf("start: %d %q", a.status, a.Error)
		}
		id := a.Game.ID
		// Walk the hints until a step removes candidates.
		for range 80 {
			h := e.do(t, "POST", fmt.Sprintf("/api/games/%d/hint", id), tok, `{"level":3}`)
			st := h.Game.Hint.Step
			if h.status != 200 || st == nil {
				t.Fatalf("hint: %d %q %+v", h.status, h.Error, h.Game.Hint)
			}
			a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/step", id), tok, fmt.Sprintf(`{"step":%q}`, st.ID))
			if a.status != 200 {
				t.Fatalf("apply: %d %q", a.status, a.Error)
			}
			if len(st.Removals) == 0 {
				continue
			}
			marks := map[int]uint32{}
			for _, m := range st.Marks {
				marks[m.Cell] = m.Notes
			}
			for _, r := range st.Removals {
				bit := uint32(1) << (r.Value - 1)
				if marks[r.Cell]&bit == 0 {
					t.Errorf("the step removes %d from cell %d, which its marks %b don't have", r.Value, r.Cell, marks[r.Cell])
				}
				if got := a.Game.Notes[r.Cell]; got&bit != 0 || got == 0 {
					t.Errorf("after the step, cell %d has notes %b: want %d gone and the rest kept", r.Cell, got, r.Value)
				}
			}
			return
		}
		if err := e.do(t, "POST", fmt.Sprintf("/api/games/%d/giveup", id), tok, ""); err.status != 200 {
			t.Fatalf("give up: %d", err.status)
		}
	}
	t.Skip("no generated puzzle needed a removal step early on")
}

func TestGiveUp(t *testing.T) {
	e := newEnv(t, Config{})
	tok := e.token(ada)
	a := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	if a.status != 200 {
		t.Fatalf("daily: %d %q", a.status, a.Error)
	}
	g := a.Game
	free := emptyCells(g)
	gs, _ := e.st.Game(context.Background(), g.ID)
	sol, _ := sudoku.Parse(gs.Solution)
	wrongV := int(sol.Cells[free[0]])%9 + 1
	e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, free[0], wrongV))
	a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/giveup", g.ID), tok, "")
	if a.status != 200 || a.Game.Status != "gave_up" || a.Game.Running || len(a.Game.Solution) != 81 {
		t.Fatalf("give up: %d %q status %s solution %d cells", a.status, a.Error, a.Game.Status, len(a.Game.Solution))
	}
	if len(a.Game.Wrong) != 1 || a.Game.Wrong[0] != free[0] || !strings.Contains(a.Game.Note, "gave up") {
		t.Errorf("give up: wrong %v note %q, want the wrong entry marked", a.Game.Wrong, a.Game.Note)
	}
	if lb := a.Game.Leaderboard; lb == nil || len(lb.Rows) != 0 || lb.Note == "" {
		t.Errorf("a given-up daily's leaderboard: %+v, want no rows and a note", lb)
	}
	// As in chat, the daily is over: starting it again shows it, over.
	b := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	if b.Game.ID != g.ID || b.Game.Status != "gave_up" || !strings.Contains(b.Game.Note, "each daily is played once") {
		t.Errorf("the daily again: id %d status %s note %q", b.Game.ID, b.Game.Status, b.Game.Note)
	}
}

// TestDailyLeaderboard: a finished daily carries its server's leaderboard,
// with the player on it once, however often the page asks or tries again.
func TestDailyLeaderboard(t *testing.T) {
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	tok := e.token(ada)
	a := e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`)
	g := a.Game
	gs, _ := e.st.Game(context.Background(), g.ID)
	sol, _ := sudoku.Parse(gs.Solution)
	free := emptyCells(g)
	for i, c := range free {
		e.clock.add(5 * time.Second) // a person's pace: the solve counts
		a = e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol.Cells[c]))
		if a.status != 200 {
			t.Fatalf("move %d: %d %q", i, a.status, a.Error)
		}
	}
	lb := a.Game.Leaderboard
	if a.Game.Status != "solved" || lb == nil || len(lb.Rows) != 1 || !lb.Rows[0].You || lb.Rows[0].Name != "Ada" || lb.Rows[0].Rank != 1 {
		t.Fatalf("the finish: status %s leaderboard %+v, want Ada first and once", a.Game.Status, lb)
	}
	if !strings.Contains(lb.Title, "Daily #") || !strings.Contains(lb.Title, "easy") {
		t.Errorf("leaderboard title %q", lb.Title)
	}
	// Again: the game, the daily restarted, a move on it.
	again := []answer{
		e.do(t, "GET", fmt.Sprintf("/api/games/%d", g.ID), tok, ""),
		e.do(t, "POST", "/api/game", tok, `{"daily":"easy"}`),
	}
	for i, a := range again {
		if a.status != 200 || a.Game.Leaderboard == nil || len(a.Game.Leaderboard.Rows) != 1 {
			t.Errorf("ask %d: %d %q %+v", i, a.status, a.Error, a.Game.Leaderboard)
		}
	}
	if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"clear"}`, free[0])); a.status != 409 {
		t.Errorf("a move on the solved daily: %d, want 409", a.status)
	}
	rows, err := e.st.Leaderboard(context.Background(), ada.GuildID, gs.DailyDate, "easy", 0)
	if err != nil || len(rows) != 1 {
		t.Errorf("the store's leaderboard: %v %v, want one row", rows, err)
	}
	if a.Game.Unfair != "" {
		t.Errorf("a fair solve says %q", a.Game.Unfair)
	}
	// Bob solves it in no time: not counted, and told why, then and later.
	btok := e.token(bob)
	b := e.do(t, "POST", "/api/game", btok, `{"daily":"easy"}`)
	for _, c := range free {
		b = e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", b.Game.ID), btok, fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol.Cells[c]))
	}
	again = append(again, b, e.do(t, "GET", fmt.Sprintf("/api/games/%d", b.Game.ID), btok, ""))
	for i, b := range again[2:] {
		if b.Game.Status != "solved" || !strings.Contains(b.Game.Unfair, "Not counted") || len(b.Game.Leaderboard.Rows) != 1 || b.Game.Leaderboard.Rows[0].You {
			t.Errorf("Bob's too-fast solve (%d): status %s unfair %q leaderboard %+v", i, b.Game.Status, b.Game.Unfair, b.Game.Leaderboard)
		}
	}
}

// TestNewActionsFlood: a hint step and a give-up are actions like moves:
// past the player's limit they are refused and change nothing.
func TestNewActionsFlood(t *testing.T) {
	e := newEnv(t, Config{RatePerMinute: 60, RateBurst: 2})
	tok := e.token(ada)
	g, _ := e.start(t, ada)                                                           // one token
	h := e.do(t, "POST", fmt.Sprintf("/api/games/%d/hint", g.ID), tok, `{"level":3}`) // the second
	if h.status != 200 || h.Game.Hint.Step == nil {
		t.Fatalf("hint: %d %q", h.status, h.Error)
	}
	before := e.snapshot(t, g.ID)
	for _, c := range []struct{ path, body string }{
		{"step", fmt.Sprintf(`{"step":%q}`, h.Game.Hint.Step.ID)},
		{"giveup", ""},
	} {
		a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/%s", g.ID, c.path), tok, c.body)
		if a.status != 429 || a.header.Get("Retry-After") == "" {
			t.Errorf("%s in a flood: %d %q", c.path, a.status, a.Error)
		}
	}
	if e.snapshot(t, g.ID) != before {
		t.Errorf("refused actions changed the game")
	}
}

// postMove posts a move (body) to url as tok's player; an error for a
// failed request or an answer other than 200.
func postMove(client *http.Client, url, tok, body string) error {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("move: %d", resp.StatusCode)
	}
	return nil
}
