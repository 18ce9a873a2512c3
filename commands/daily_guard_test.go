package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// disguise turns a grid a quarter turn and relabels every digit v as v+1
// (9 as 1): the same puzzle to anyone who solves it.
func disguise(g *sudoku.Grid) *sudoku.Grid {
	n := g.N()
	out := sudoku.New(g.Shape)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if v := g.Get(r, c); v != 0 {
				out.Set(c, n-1-r, v%n+1)
			}
		}
	}
	return out
}

func mustDailyOf(t *testing.T, src Puzzles, date time.Time, level sudoku.Level) sudoku.DailyPuzzle {
	t.Helper()
	dp, err := src.Daily(context.Background(), date, level)
	if err != nil {
		t.Fatal(err)
	}
	return dp
}

func TestSolveHintCheckRefuseTheDaily(t *testing.T) {
	e := newPlayEnv(t)
	dp := mustDailyOf(t, e.puzzles, t0, sudoku.Medium)
	// A position: the givens and a few right entries, disguised.
	pos := dp.Grid.Clone()
	for i, added := 0, 0; i < len(pos.Cells) && added < 12; i++ {
		if pos.Cells[i] == 0 {
			pos.Cells[i] = dp.Solution.Cells[i]
			added++
		}
	}
	// The same position with a wrong entry (no solution any more).
	wrong := pos.Clone()
	for i := range wrong.Cells {
		if wrong.Cells[i] == 0 {
			wrong.Cells[i] = dp.Solution.Cells[i]%9 + 1
			break
		}
	}
	texts := map[string]string{
		"a wrong position":     disguise(wrong).String(),
		"the puzzle":           dp.Grid.String(),
		"turned, relabelled":   disguise(dp.Grid).String(),
		"a disguised position": disguise(pos).String(),
	}
	for name, text := range texts {
		for _, cmd := range []string{"solve", "check", "hint"} {
			r := e.do(bob.slash(t0, cmd, "", optPuzzle, text))
			if !r.Ephemeral || !strings.Contains(r.Content, "today's medium daily (#73)") || !strings.Contains(r.Content, "/daily play level:medium") {
				t.Errorf("/%s on %s = %q (ephemeral %v); want a private refusal pointing at /daily play", cmd, name, allText(r), r.Ephemeral)
			}
			if strings.Contains(allText(r), dp.Solution.String()) || len(r.Files) > 0 {
				t.Errorf("/%s on %s shows the solution or a board", cmd, name)
			}
		}
		// The Apps menu and a mention go the same way.
		app := bob.req(MessageCommand, t0)
		app.Command, app.Text = "Solve Sudoku", text
		if r := e.do(app); !strings.Contains(r.Content, "today's medium daily") {
			t.Errorf("Apps menu Solve on %s = %q", name, allText(r))
		}
		modal := bob.req(ModalSubmit, t0)
		modal.CustomID, modal.Fields = modalPrefix+":hint:", map[string]string{optPuzzle: text}
		if r := e.do(modal); !strings.Contains(r.Content, "today's medium daily") {
			t.Errorf("the /hint modal on %s = %q", name, allText(r))
		}
		mention := bob.req(Mention, t0)
		mention.Text, mention.Mentioned = "<@100> solve this pls\n"+text, true
		if r := e.do(mention); !strings.Contains(r.Content, "today's medium daily") || len(r.Embeds) > 0 {
			t.Errorf("mention on %s = %q", name, allText(r))
		}
	}
	// Any other puzzle is solved as ever.
	other := "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	if r := e.do(bob.slash(t0, "solve", "", optPuzzle, other)); len(r.Embeds) == 0 || !strings.Contains(r.Embeds[0].Title, "Solved") {
		t.Errorf("/solve on another puzzle = %q", allText(r))
	}
}

func TestHintOnTheDailyCountsInTheGame(t *testing.T) {
	e := newPlayEnv(t)
	dp := mustDailyOf(t, e.puzzles, t0, sudoku.Easy)
	id := gameID(t, e.do(ada.slash(t0, "daily", "play", optLevel, "easy")))
	r := e.do(ada.slash(t0.Add(time.Minute), "hint", "", optPuzzle, disguise(dp.Grid).String()))
	if !r.Ephemeral || !strings.Contains(r.Content, "which you are playing") || !strings.Contains(r.Content, "1 hint so far") || !strings.Contains(r.Content, "level 1 of 3") {
		t.Errorf("/hint on the daily being played = %q", r.Content)
	}
	g, err := e.st.Game(context.Background(), id)
	if err != nil || g.Hints != 1 {
		t.Errorf("game after /hint: %d hints (%v), want 1", g.Hints, err)
	}
	// /solve is still refused, and says where the hints are.
	r = e.do(ada.slash(t0.Add(time.Minute), "solve", "", optPuzzle, dp.Grid.String()))
	if !strings.Contains(r.Content, "press Hint on your board") {
		t.Errorf("/solve on the daily being played = %q", r.Content)
	}
	if g, _ := e.st.Game(context.Background(), id); g.Hints != 1 {
		t.Errorf("/solve counted a hint: %d", g.Hints)
	}
}

func TestWatchedDailyGetsNoButtons(t *testing.T) {
	e := newPlayEnv(t)
	dp := mustDailyOf(t, e.puzzles, t0, sudoku.Hard)
	if err := e.s.settings.SetWatched(context.Background(), bob.guild, "c-"+bob.guild, true); err != nil {
		t.Fatal(err)
	}
	msg := bob.req(Mention, t0)
	msg.Text = dp.Grid.String() // posted in a watched channel, no mention
	if e.s.mentioned(context.Background(), msg) {
		t.Fatal("the test's channel is not watched")
	}
	// Another grid there gets the offer of buttons.
	other := "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	if r := e.s.handleMessage(context.Background(), Request{Kind: Mention, UserID: "u-bob", GuildID: "g1", ChannelID: "c-g1", Now: t0, Text: other}); len(r.Components) == 0 {
		t.Fatalf("watched channel reply to another grid = %q, want the offer", allText(r))
	}
	r := e.s.handleMessage(context.Background(), msg)
	if len(r.Components) > 0 || !strings.Contains(r.Content, "today's hard daily") {
		t.Errorf("watched channel reply to the daily = %q with %d rows; want a note and no buttons", r.Content, len(r.Components))
	}
}

func TestYesterdaysDailyIsRefusedAndOlderOnesAreNot(t *testing.T) {
	if testing.Short() {
		t.Skip("generates dailies")
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "guard.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secret := []byte("guard test secret")
	s := New(Config{Games: st, DailySecret: secret})
	engine := enginePuzzles{secret: secret}
	yesterday := mustDailyOf(t, engine, t0.AddDate(0, 0, -1), sudoku.Hard)
	r := s.Handle(context.Background(), bob.slash(t0, "check", "", optPuzzle, disguise(yesterday.Grid).String()))
	if !strings.Contains(r.Content, "yesterday's hard daily (#72)") || !strings.Contains(r.Content, "stops counting") {
		t.Errorf("/check on yesterday's daily = %q", allText(r))
	}
	older := mustDailyOf(t, engine, t0.AddDate(0, 0, -2), sudoku.Hard)
	r = s.Handle(context.Background(), bob.slash(t0, "check", "", optPuzzle, older.Grid.String()))
	if len(r.Embeds) == 0 || !strings.Contains(allText(r), "a proper Sudoku") {
		t.Errorf("/check on the daily of two days ago = %q, want the usual report", allText(r))
	}
}

func TestStoreFailuresAreWordedAndLoggedOnce(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "closing.db"))
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	s := New(Config{Games: st, Puzzles: &fakePuzzles{}, Logf: func(format string, args ...any) {
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	id := gameID(t, s.Handle(context.Background(), ada.slash(t0, "play", "", optLevel, "easy")))
	if err := st.Close(); err != nil { // the database goes away
		t.Fatal(err)
	}
	setup := ada.slash(t0, "daily", "setup", optChannel, "c-x")
	setup.Permissions, setup.ChannelGuilds, setup.ID = permManageGuild, map[string]string{"c-x": "g1"}, "i-setup"
	r := s.Handle(context.Background(), setup)
	if !r.Ephemeral || !strings.Contains(r.Content, "can't reach my database") || strings.Contains(r.Content, "your game") {
		t.Errorf("/daily setup with the database closed = %q", r.Content)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "i-setup") || !strings.Contains(logged[0], "set daily channel of g1") ||
		!strings.Contains(logged[0], "database is closed") {
		t.Errorf("log after the failed setup = %q, want one line naming the request, the operation and the cause", logged)
	}
	logged = nil
	r = s.Handle(context.Background(), ada.submit(t0, gmovePrefix+":"+strconv.FormatInt(id, 10), "A2 1"))
	if !strings.Contains(r.Content, "database") || len(logged) != 1 {
		t.Errorf("a move with the database closed = %q, logged %q", r.Content, logged)
	}
	// A game that is simply gone is the player's news, not the operator's.
	logged = nil
	st2, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	s2 := New(Config{Games: st2, Puzzles: &fakePuzzles{}, Logf: func(format string, args ...any) {
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	r = s2.Handle(context.Background(), ada.click(t0, gamePrefix+":c:99"))
	if !strings.Contains(r.Content, "can't find that game") || len(logged) != 0 {
		t.Errorf("a missing game = %q, logged %q", r.Content, logged)
	}
}

// BenchmarkRefuseDaily is what the dailies' guard adds to a /solve, /hint
// or /check of an ordinary 9x9 (the puzzles of the day already made).
func BenchmarkRefuseDaily(b *testing.B) {
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Config{Games: st, Puzzles: &fakePuzzles{}})
	req := bob.slash(t0, "solve", "", optPuzzle, uniquePuzzle)
	ctx := context.Background()
	if _, ok := s.refuseDailyText(ctx, req, uniquePuzzle, "solve"); ok {
		b.Fatal("an ordinary puzzle was taken for a daily")
	}
	for b.Loop() {
		s.refuseDailyText(ctx, req, uniquePuzzle, "solve")
	}
}

func TestDailyWithoutSecret(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "nosecret.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := New(Config{Games: st})
	r := s.Handle(context.Background(), ada.slash(t0, "daily", "play", optLevel, "easy"))
	if !strings.Contains(r.Content, "no daily secret") || len(r.Embeds) > 0 {
		t.Errorf("/daily play without a secret = %q", allText(r))
	}
	// /solve still works (the guard has no dailies to compare with).
	if r := s.Handle(context.Background(), bob.slash(t0, "solve", "", optPuzzle, uniquePuzzle)); len(r.Embeds) == 0 {
		t.Errorf("/solve without a daily secret = %q", allText(r))
	}
}

func TestDailyGuardConcurrent(t *testing.T) {
	e := newPlayEnv(t)
	daily := mustDailyOf(t, e.puzzles, t0, sudoku.Easy).Grid.String()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two days, so the guard's cache turns over while in use.
			now := t0.AddDate(0, 0, i%2)
			r := e.s.Handle(context.Background(), bob.slash(now, "solve", "", optPuzzle, daily))
			if !strings.Contains(r.Content, "daily") {
				errs <- allText(r)
			}
			r = e.s.Handle(context.Background(), bob.slash(now, "solve", "", optPuzzle, uniquePuzzle))
			if len(r.Embeds) == 0 {
				errs <- allText(r)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Errorf("concurrent /solve = %q", msg)
	}
}
