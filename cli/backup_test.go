package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
)

// TestBackupCommand backs up a database the way an operator would, beside
// a store that is still open, and reads the game back from the copy.
func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	dir, db, st := openBotDB(t)
	g, _, err := st.StartGame(ctx, store.NewGame{UserID: "u1", Puzzle: cliWiki, Shape: "3x3", Cells: 81, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_PATH": db}
	taken := filepath.Join(dir, "taken.db")
	os.WriteFile(taken, nil, 0o644)
	tests := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stdout string // a part of it
		stderr string // a part of it
	}{
		{"backs up", env, []string{filepath.Join(dir, "b1.db")}, 0, "1 games (1 being played), schema version", ""},
		{"file exists", env, []string{taken}, 2, "", "taken.db already exists: choose a new file name"},
		{"no file", env, nil, 2, "", "want one FILE to write the backup to"},
		{"two files", env, []string{"a", "b"}, 2, "", "want one FILE"},
		{"no database", map[string]string{"DATABASE_PATH": filepath.Join(dir, "none.db")}, []string{filepath.Join(dir, "b2.db")}, 1, "", "no database to back up at"},
		{"postgres", map[string]string{"DATABASE_URL": "postgres://x@y/z"}, []string{filepath.Join(dir, "b3.db")}, 1, "", "pg_dump"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(ctx, append([]string{"backup"}, tt.args...), IO{Stdout: &out, Stderr: &errOut,
				Getenv: func(k string) string { return tt.env[k] }})
			if code != tt.code || !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("backup %v = %d, stdout %q, stderr %q; want %d, %q, %q", tt.args, code, out.String(), errOut.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("backup of a missing database created it")
	}
	// The copy opens as the bot's store, with the game in it.
	b, err := store.Open(ctx, filepath.Join(dir, "b1.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got, err := b.Game(ctx, g.ID); err != nil || got.Puzzle != cliWiki {
		t.Errorf("the backup's game %d = %+v, %v; want the game started", g.ID, got, err)
	}
}

// TestBackupClosedDatabase backs up a database no process has open (the
// bot stopped): it leaves nothing behind but the copy.
func TestBackupClosedDatabase(t *testing.T) {
	dir, db, st := openBotDB(t)
	st.Close()
	code, out, errOut := runCmdEnv(t, map[string]string{"DATABASE_PATH": db}, "backup", filepath.Join(dir, "copy.db"))
	if code != 0 || !strings.Contains(out, "0 games") {
		t.Fatalf("backup of a closed database = %d, %q, %q", code, out, errOut)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 2 {
		t.Errorf("the folder holds %v after the backup, want bot.db and copy.db", names)
	}
}

// openBotDB opens a new bot database, bot.db in a folder of its own,
// closed when t ends.
func openBotDB(t *testing.T) (dir, path string, st *store.Store) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "bot.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return dir, path, st
}

func runCmdEnv(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, IO{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
	return code, out.String(), errOut.String()
}
