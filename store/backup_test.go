package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestBackupWhilePlaying backs up a database while players on two handles
// (two processes, as far as SQLite can tell) keep moving and winning, then
// restores the backup as the README says and opens it as the bot would:
// the copy is one consistent moment, every game whole.
func TestBackupWhilePlaying(t *testing.T) {
	ctx := context.Background()
	s, path := newTestStore(t)
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()

	// Each player owns a game and fills its cells one move at a time, so a
	// game with n moves has cells 0..n-1 filled and nothing else; every
	// tenth move a daily is won, which finishes it and records its result
	// in the same transaction.
	const players = 6
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, players)
	for p := range players {
		st := s
		if p%2 == 1 {
			st = s2
		}
		wg.Go(func() {
			g, _, err := st.StartGame(ctx, testGame(fmt.Sprint("p", p)))
			if err != nil {
				errs <- err
				return
			}
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := st.Move(ctx, g.ID, []Change{{Cell: n % 81, Value: uint8(n%9 + 1)}}, nil, t0, nil); err != nil &&
					!errors.Is(err, ErrFinished) {
					errs <- err
					return
				}
				if n%81 == 80 {
					g, _, err = st.StartGame(ctx, testGame(fmt.Sprint("p", p)))
					if err != nil {
						errs <- err
						return
					}
				}
				if n%10 == 0 {
					d, _, err := st.StartGame(ctx, testDaily(fmt.Sprint("p", p), "g1", t0.AddDate(0, 0, n), "easy"))
					if err == nil {
						_, err = st.Move(ctx, d.ID, []Change{{Cell: 0, Value: 5}}, winOn(81), t0.AddDate(0, 0, n).Add(time.Minute), nil)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	// Back up once some dailies are won (polled, not slept: a loaded
	// machine plays slowly).
	waitFor(t, "a daily won", func() bool { return countGames(t, s, "status = 'solved'") > 0 })
	// Committed before the backup begins, so it must be in it.
	marker := mustStart(t, s2, testGame("marker"))
	dest := filepath.Join(t.TempDir(), "backup.db")
	info, err := Backup(ctx, path, dest)
	if err == nil {
		// Writes after the backup must not be in it: let some happen.
		waitFor(t, "games started after the backup", func() bool { return countGames(t, s, "TRUE") > info.Games })
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("player: %v", err)
	}
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}
	if info.Path != dest || info.Bytes == 0 || info.Games == 0 || info.SchemaVersion == 0 {
		t.Errorf("Backup = %+v, want the file, its size, its games and its schema version", info)
	}
	if _, err := Backup(ctx, path, dest); !errors.Is(err, ErrInvalid) {
		t.Errorf("a second Backup to the same file = %v, want ErrInvalid (it exists)", err)
	}
	live := snapshot(t, s)

	// Restore: stop the bot, copy the backup over the database, drop the
	// old database's -wal and -shm.
	s.Close()
	s2.Close()
	copyFile(t, dest, path)
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	r, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open the restored database: %v", err)
	}
	defer r.Close()
	restored := snapshot(t, r)
	if len(restored) != info.Games {
		t.Errorf("the restored database has %d games, the backup said %d", len(restored), info.Games)
	}
	if len(restored) >= len(live) {
		t.Errorf("the restored database has %d games, the live one had %d: the backup should predate the last writes", len(restored), len(live))
	}
	if g, ok := restored[marker.ID]; !ok || g.UserID != "marker" {
		t.Errorf("the game started just before the backup is not in it (%+v)", g)
	}
	results := 0
	for id, g := range restored {
		checkWhole(t, r, g)
		// A game in the backup was, at that moment, a prefix of the live
		// game: what it holds, the live game held too.
		l, ok := live[id]
		if !ok {
			t.Errorf("game %d is in the backup but not in the live database", id)
			continue
		}
		if g.Moves > l.Moves || g.UserID != l.UserID {
			t.Errorf("game %d: backup %s with %d moves, live %s with %d", id, g.UserID, g.Moves, l.UserID, l.Moves)
		}
		if g.Status == Solved {
			results++
		}
	}
	if results == 0 {
		t.Error("no daily won before the backup: the test played too little")
	}
	if _, _, err := r.StartGame(ctx, testGame("after-restore")); err != nil {
		t.Errorf("a new game in the restored database: %v", err)
	}
}

// waitFor polls cond for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// countGames counts the games of s that match where.
func countGames(t *testing.T, s *Store, where string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM games WHERE ` + where).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// snapshot loads every game of s by id.
func snapshot(t *testing.T, s *Store) map[int64]Game {
	t.Helper()
	rows, err := s.r.Query(`SELECT id FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	games := map[int64]Game{}
	for _, id := range ids {
		g, err := s.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		games[id] = g
	}
	return games
}

// checkWhole checks that g, as stored in s, is one of the test's games at
// a whole moment: a personal game with n moves has cells 0..n-1 filled and
// n moves to undo; a solved daily has its result, and no moves to undo.
func checkWhole(t *testing.T, s *Store, g Game) {
	t.Helper()
	ctx := context.Background()
	undo, err := s.MoveCount(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.IsDaily() {
		board, err := s.Leaderboard(ctx, "g1", g.DailyDate, "easy", 0)
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, r := range board {
			has = has || r.GameID == g.ID
		}
		if (g.Status == Solved) != has || (g.Status == Solved && undo != 0) {
			t.Errorf("daily game %d: status %s, result recorded %v, %d moves to undo", g.ID, g.Status, has, undo)
		}
		return
	}
	for c, v := range g.Entries {
		if want := c < g.Moves; (v != 0) != want {
			t.Errorf("game %d with %d moves: cell %d holds %d", g.ID, g.Moves, c, v)
			break
		}
	}
	if undo != g.Moves {
		t.Errorf("game %d: %d moves counted, %d in the undo log", g.ID, g.Moves, undo)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBackupRefuses(t *testing.T) {
	ctx := context.Background()
	_, path := newTestStore(t)
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.db")
	os.WriteFile(taken, []byte("keep me"), 0o644)
	tests := []struct {
		name, dest string
		want       error
	}{
		{"no name", "", ErrInvalid},
		{"exists", taken, ErrInvalid},
		{"no such folder", filepath.Join(dir, "missing", "b.db"), os.ErrNotExist},
	}
	for _, tt := range tests {
		if _, err := Backup(ctx, path, tt.dest); !errors.Is(err, tt.want) {
			t.Errorf("%s: Backup(%q) = %v, want %v", tt.name, tt.dest, err, tt.want)
		}
	}
	if _, err := Backup(ctx, filepath.Join(dir, "none.db"), filepath.Join(dir, "b.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Backup of a missing database = %v, want os.ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("Backup of a missing database created it")
	}
	if b, _ := os.ReadFile(taken); string(b) != "keep me" {
		t.Errorf("Backup over an existing file changed it to %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("Backup left %v behind", left)
	}
}
