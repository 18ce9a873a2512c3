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
	"testing/fstest"
	"time"
)

// t0 is the fake "now" the tests start from; the store never reads the clock.
var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

func newTestStore(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, path
}

func TestOpenTwiceKeepsDataAndSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "again.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	g, _, err := s.StartGame(ctx, testGame("u1"))
	if err != nil {
		t.Fatalf("StartGame: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for i := range 2 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen %d: %v", i, err)
		}
		v, err := s.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ms, _ := sqliteDialect.loadMigrations()
		if v != len(ms) {
			t.Errorf("SchemaVersion = %d, want %d", v, len(ms))
		}
		var rows int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_version`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows != len(ms) {
			t.Errorf("schema_version has %d rows after reopening, want %d (one per migration)", rows, len(ms))
		}
		if _, err := s.Game(ctx, g.ID); err != nil {
			t.Errorf("Game(%d) after reopen: %v", g.ID, err)
		}
		var mode string
		if err := s.r.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" {
			t.Errorf("journal_mode = %q, want wal", mode)
		}
		s.Close()
	}
}

func TestOpenRejectsBadPaths(t *testing.T) {
	for _, p := range []string{"", "a?b.db", "x#y.db"} {
		if s, err := Open(context.Background(), p); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded, want an error", p)
		} else if !errors.Is(err, ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", p, err)
		}
	}
}

func TestOpenMemory(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, ":memory:")
	if err != nil {
		t.Fatalf("Open(:memory:): %v", err)
	}
	defer s.Close()
	g, _, err := s.StartGame(ctx, testGame("u"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(ctx, g.ID); err != nil {
		t.Errorf("Game after StartGame in memory: %v", err)
	}
}

func TestLoadMigrations(t *testing.T) {
	tests := []struct {
		name    string
		files   []string
		wantErr string
	}{
		{"ordered", []string{"0001_a.sql", "0002_b.sql", "0010_c.sql"}, "expected number 3"},
		{"good", []string{"0002_b.sql", "0001_a.sql"}, ""},
		{"duplicate", []string{"0001_a.sql", "0001_b.sql"}, "expected number 2"},
		{"unnumbered", []string{"init.sql"}, "positive number"},
		{"zero", []string{"0000_x.sql"}, "positive number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tt.files {
				fsys["migrations/"+f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
			}
			ms, err := loadMigrations(fsys, "migrations")
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("loadMigrations(%v) = %v", tt.files, err)
				}
				for i, m := range ms {
					if m.version != i+1 {
						t.Errorf("migration %d has version %d", i, m.version)
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("loadMigrations(%v) = %v, want error containing %q", tt.files, err, tt.wantErr)
			}
		})
	}
}

func TestFailedMigrationLeavesOldVersion(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	ms, _ := sqliteDialect.loadMigrations()
	bad := append(ms, migration{version: len(ms) + 1, name: "bad.sql",
		sql: `CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);`})
	if err := s.applyMigrations(ctx, bad); err == nil {
		t.Fatal("applyMigrations with a broken migration succeeded")
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v != len(ms) {
		t.Errorf("SchemaVersion after a failed migration = %d, want %d", v, len(ms))
	}
	var n int
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'`).Scan(&n)
	if n != 0 {
		t.Error("the failed migration's first statement was kept; want it rolled back")
	}
}

// killEnv, when set, makes TestKilledMidGame act as the child process: it
// plays moves into the database named by the variable until it is killed.
const killEnv = "STORE_TEST_KILL_CHILD"

func TestKilledMidGame(t *testing.T) {
	if path := os.Getenv(killEnv); path != "" {
		runKillChild(path)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledMidGame$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnv+"="+path)
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
	// Wait until the child has committed some moves, then kill it while it
	// keeps writing.
	sc := bufio.NewScanner(out)
	var id int64
	moves := 0
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		var n int
		if _, err := fmt.Sscanf(sc.Text(), "game %d move %d", &id, &n); err != nil {
			continue
		}
		moves = n
		if moves >= 20 {
			break
		}
	}
	if moves < 20 {
		t.Fatalf("child stopped after %d moves (scan error %v)", moves, sc.Err())
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
	g, err := s.Game(ctx, id)
	if err != nil {
		t.Fatalf("Game(%d) after kill: %v", id, err)
	}
	if g.Status != Playing || g.UserID != "killed" {
		t.Errorf("game after kill = status %q user %q, want playing by killed", g.Status, g.UserID)
	}
	if g.Moves < moves {
		t.Errorf("game has %d moves after kill, want at least the %d the child reported committed", g.Moves, moves)
	}
	n, err := s.MoveCount(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n != g.Moves {
		t.Errorf("MoveCount = %d but game says %d moves: a move was half written", n, g.Moves)
	}
	// Move k wrote killValue(k) to cell (k-1)%81: the board must match the
	// move log exactly.
	want := make([]uint8, 81)
	for k := 1; k <= g.Moves; k++ {
		want[(k-1)%81] = killValue(k)
	}
	for cell := range want {
		if g.Entries[cell] != want[cell] {
			t.Errorf("cell %d = %d after %d moves, want %d", cell, g.Entries[cell], g.Moves, want[cell])
		}
	}
	// The game still plays after the restart.
	if _, err := s.Undo(ctx, id); err != nil {
		t.Errorf("Undo after restart: %v", err)
	}
}

func runKillChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(2)
	}
	ng := testGame("killed")
	g, _, err := s.StartGame(ctx, ng)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child start:", err)
		os.Exit(2)
	}
	for k := 1; ; k++ {
		if _, err := s.ApplyMoves(ctx, g.ID, []Change{{Cell: (k - 1) % 81, Value: killValue(k)}}); err != nil {
			fmt.Fprintln(os.Stderr, "child move:", err)
			os.Exit(2)
		}
		fmt.Println("game " + strconv.FormatInt(g.ID, 10) + " move " + strconv.Itoa(k))
	}
}

// killValue is what the child writes in its move k: each pass over the board
// shifts the values by one, so no move is a no-op.
func killValue(k int) uint8 { return uint8((k-1+(k-1)/81)%9 + 1) }
