package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// winOn is the "solved" entries of the tests' boards: value 5 in cell 0 and
// nothing else (the store compares entries; it doesn't know Sudoku).
func winOn(cells int) []uint8 {
	w := make([]uint8, cells)
	w[0] = 5
	return w
}

func testMoveFinishesWithTheLastMove(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	day := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	g := mustStart(t, s, testDaily("u1", "g1", day, "easy"))
	win := winOn(81)

	// A move that doesn't complete the board leaves it playing.
	f, err := s.Move(ctx, g.ID, []Change{{Cell: 1, Value: 3}}, win, t0.Add(time.Minute), nil)
	if err != nil || f.Now || f.Game.Status != Playing || f.Game.Entries[1] != 3 {
		t.Fatalf("first move = %+v, %v; want the game still playing with B1=3", f, err)
	}
	// Clearing it and placing the last value finishes the game, with its
	// result, in the same call.
	f, err = s.Move(ctx, g.ID, []Change{{Cell: 1}, {Cell: 0, Value: 5}}, win, t0.Add(2*time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Now || f.Game.Status != Solved || f.Result == nil || f.Result.Duration != 2*time.Minute {
		t.Fatalf("winning move = %+v (result %+v); want solved now with a 2:00 result", f, f.Result)
	}
	board, err := s.Leaderboard(ctx, "g1", day, "easy", 0)
	if err != nil || len(board) != 1 || board[0].GameID != g.ID {
		t.Errorf("leaderboard after the winning move = %+v, %v", board, err)
	}
	// Later moves are refused; a second Finish changes nothing.
	if _, err := s.Move(ctx, g.ID, []Change{{Cell: 2, Value: 1}}, win, t0.Add(3*time.Minute), nil); !errors.Is(err, ErrFinished) {
		t.Errorf("move after the win = %v, want ErrFinished", err)
	}
	if f, err := s.Finish(ctx, g.ID, Solved, t0.Add(4*time.Minute)); err != nil || f.Now || f.Result != nil {
		t.Errorf("Finish after the win = %+v, %v; want nothing done", f, err)
	}
	// Without a winning board given, Move never finishes.
	h := mustStart(t, s, testGame("u2"))
	if f, err := s.Move(ctx, h.ID, []Change{{Cell: 0, Value: 5}}, nil, t0, nil); err != nil || f.Now || f.Game.Status != Playing {
		t.Errorf("Move with no solved board = %+v, %v; want still playing", f, err)
	}
}

func TestMoveIsOneTransaction(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	day := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	g := mustStart(t, s, testDaily("u1", "g1", day, "easy"))
	// The result can't be written: the winning move must not be either.
	if _, err := s.w.ExecContext(ctx, `CREATE TRIGGER no_results BEFORE INSERT ON daily_results
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, g.ID, []Change{{Cell: 0, Value: 5}}, winOn(81), t0.Add(time.Minute), nil); err == nil {
		t.Fatal("Move succeeded though its result could not be recorded")
	}
	after, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != Playing || after.Entries[0] != 0 || after.Moves != 0 {
		t.Errorf("after the failed winning move: status %q, A1=%d, %d moves; want the game as it was", after.Status, after.Entries[0], after.Moves)
	}
	if n, _ := s.MoveCount(ctx, g.ID); n != 0 {
		t.Errorf("the failed move left %d moves in the undo log", n)
	}
}

// finishKillEnv, when set, makes TestKilledWhileFinishing act as the child:
// it starts daily games and wins each with one move until it is killed.
const finishKillEnv = "STORE_TEST_FINISH_KILL_CHILD"

// TestKilledWhileFinishing kills a process that is winning daily games, at
// whatever point it has reached, and checks every game after a restart:
// the winning move, the finished game and its result are there together or
// not at all.
func TestKilledWhileFinishing(t *testing.T) {
	if path := os.Getenv(finishKillEnv); path != "" {
		runFinishKillChild(path)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "finish.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWhileFinishing$", "-test.count=1")
	cmd.Env = append(os.Environ(), finishKillEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := false
	defer func() {
		if !done {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	sc := bufio.NewScanner(out)
	won := 0
	for sc.Scan() && won < 40 {
		if _, err := fmt.Sscanf(sc.Text(), "won %d", &won); err != nil {
			continue
		}
	}
	if won < 40 {
		t.Fatalf("child stopped after %d wins (scan error %v)", won, sc.Err())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	done = true

	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	rows, err := s.r.QueryContext(ctx, `SELECT g.id, g.status, hex(g.entries), r.game_id IS NOT NULL
		FROM games g LEFT JOIN daily_results r ON r.game_id = g.id ORDER BY g.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	games, solved := 0, 0
	for rows.Next() {
		var id int64
		var status, entries string
		var result bool
		if err := rows.Scan(&id, &status, &entries, &result); err != nil {
			t.Fatal(err)
		}
		games++
		full := entries[:2] == "05"
		if (status == string(Solved)) != result || full != result {
			t.Errorf("game %d after the kill: status %s, winning move there %v, result there %v; want all or nothing", id, status, full, result)
		}
		if result {
			solved++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if solved < won {
		t.Errorf("%d games solved after the kill, but the child reported %d wins committed", solved, won)
	}
	t.Logf("%d games, %d solved when killed", games, solved)
}

func runFinishKillChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(2)
	}
	day := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	win := winOn(81)
	for k := 1; ; k++ {
		g, _, err := s.StartGame(ctx, testDaily("player"+strconv.Itoa(k), "g1", day, "easy"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "child start:", err)
			os.Exit(2)
		}
		if _, err := s.Move(ctx, g.ID, []Change{{Cell: 0, Value: 5}}, win, t0.Add(time.Minute), nil); err != nil {
			fmt.Fprintln(os.Stderr, "child move:", err)
			os.Exit(2)
		}
		fmt.Println("won " + strconv.Itoa(k))
	}
}

func TestWriteFailuresSayWhy(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		breakIt func(t *testing.T, s *Store)
		want    error
	}{
		{"read-only", func(t *testing.T, s *Store) {
			if _, err := s.w.ExecContext(ctx, `PRAGMA query_only = 1`); err != nil {
				t.Fatal(err)
			}
		}, ErrReadOnly},
		{"disk full", func(t *testing.T, s *Store) {
			// The database may not grow past the pages it has.
			var pages int
			if err := s.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
				t.Fatal(err)
			}
			if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
				t.Fatal(err)
			}
		}, ErrFull},
		{"closed", func(t *testing.T, s *Store) {
			if err := s.w.Close(); err != nil {
				t.Fatal(err)
			}
		}, ErrUnavailable},
	}
	for _, tt := range tests {
		s, err := Open(ctx, filepath.Join(t.TempDir(), "fail.db"))
		if err != nil {
			t.Fatal(err)
		}
		tt.breakIt(t, s)
		// Enough rows to need new pages.
		for i := 0; i < 200 && err == nil; i++ {
			_, _, err = s.StartGame(ctx, testGame(fmt.Sprintf("user-%d", i)))
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: StartGame = %v, want an error wrapping %v", tt.name, err, tt.want)
		}
		if err := s.SetDaily(ctx, "g1", "c1", 9, t0); !errors.Is(err, tt.want) && tt.name != "disk full" {
			t.Errorf("%s: SetDaily = %v, want an error wrapping %v", tt.name, err, tt.want)
		}
		s.Close()
	}
}

func TestOpenInMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "folder", "bot.db")
	_, err := Open(context.Background(), path)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open(%q) = %v, want a missing-folder error", path, err)
	}
	if want := "the folder " + strconv.Quote(filepath.Dir(path)) + " does not exist"; !strings.Contains(err.Error(), want) {
		t.Errorf("Open(%q) = %q, want it to say %q", path, err, want)
	}
}

// testJudgedSolveIsKeptButMarked: a solve the judge marks is finished and
// recorded with its reason, left off the leaderboard and out of the
// streak, counted as flagged in the stats and listed by Flagged; the judge
// sees the game as finished; a fair solve beside it is on the board.
func testJudgedSolveIsKeptButMarked(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	day := time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)
	win := winOn(81)
	var seen Game
	judge := func(g Game) string {
		seen = g
		if g.Moves <= 2 {
			return "bulk"
		}
		return ""
	}
	fast := mustStart(t, s, testDaily("cheat", "g1", day, "medium"))
	f, err := s.Move(ctx, fast.ID, []Change{{Cell: 0, Value: 5}}, win, t0.Add(19*time.Second), judge)
	if err != nil || !f.Now || f.Game.Status != Solved {
		t.Fatalf("pasted winning move = %+v, %v; want solved now", f, err)
	}
	if seen.Status != Solved || seen.FinishedAt.IsZero() || seen.Moves != 1 {
		t.Errorf("the judge saw %+v; want the finished game with 1 move", seen)
	}
	if f.Game.Flag != "bulk" || f.Result == nil || f.Result.Flag != "bulk" {
		t.Errorf("marked solve: game flag %q, result %+v; want both \"bulk\"", f.Game.Flag, f.Result)
	}
	if g, err := s.Game(ctx, fast.ID); err != nil || g.Flag != "bulk" {
		t.Errorf("Game after a marked solve: flag %q, %v; want \"bulk\" kept", g.Flag, err)
	}

	fair := mustStart(t, s, testDaily("honest", "g1", day, "medium"))
	for i := 1; i <= 3; i++ {
		if _, err := s.Move(ctx, fair.ID, []Change{{Cell: i, Value: 1}}, win, t0, judge); err != nil {
			t.Fatal(err)
		}
	}
	if f, err := s.Move(ctx, fair.ID, []Change{{Cell: 1}, {Cell: 2}, {Cell: 3}, {Cell: 0, Value: 5}}, win, t0.Add(3*time.Minute), judge); err != nil || f.Game.Flag != "" {
		t.Fatalf("fair winning move = %+v, %v; want solved unmarked", f, err)
	}

	board, err := s.Leaderboard(ctx, "g1", day, "medium", 0)
	if err != nil || len(board) != 1 || board[0].UserID != "honest" {
		t.Errorf("leaderboard = %+v, %v; want only the fair solver", board, err)
	}
	st, err := s.Stats(ctx, "cheat", day)
	if err != nil || st.Solved != 0 || st.Current != 0 || st.Flagged != 1 {
		t.Errorf("stats of the marked solver = %+v, %v; want nothing counted and 1 flagged", st, err)
	}
	marked, err := s.Flagged(ctx, "g1", t0, 10)
	if err != nil || len(marked) != 1 || marked[0].UserID != "cheat" || marked[0].Flag != "bulk" || marked[0].Duration != 19*time.Second {
		t.Errorf("Flagged = %+v, %v; want the 0:19 bulk solve", marked, err)
	}
	if marked, err := s.Flagged(ctx, "g1", t0.Add(time.Hour), 10); err != nil || len(marked) != 0 {
		t.Errorf("Flagged since after it = %+v, %v; want none", marked, err)
	}
	if marked, err := s.Flagged(ctx, "g2", t0, 10); err != nil || len(marked) != 0 {
		t.Errorf("Flagged in another server = %+v, %v; want none", marked, err)
	}
}
