package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// testSecret is the daily secret the tests pass with -secret.
const testSecret = "cli test secret"

// runDailyCmd runs `sudokubot daily args` with env as the environment.
func runDailyCmd(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), append([]string{"daily"}, args...), IO{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string { return env[k] },
	})
	return code, out.String(), errOut.String()
}

func TestDailyCommand(t *testing.T) {
	code, out, errOut := runGenCmd(t, "daily", "-date", "2026-11-21", "-secret", testSecret)
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("daily printed %d lines, want 3:\n%s", len(lines), out)
	}
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for i, level := range sudoku.DailyLevels() {
		d, err := sudoku.Daily(context.Background(), []byte(testSecret), day, level)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Split(lines[i], "\t")
		if len(f) != 5 || f[0] != "#325" || f[1] != "2026-11-21" || f[2] != level.String() || f[4] != d.Grid.String() {
			t.Errorf("line %d = %q, want #325, the date, %v, a score and %s", i+1, lines[i], level, d.Grid)
		}
	}
}

func TestDailyCommandOneLevel(t *testing.T) {
	code, out, errOut := runGenCmd(t, "daily", "-date", "2026-01-01", "-level", "Hard", "-secret", testSecret)
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "#1\t2026-01-01\thard\t") || strings.Count(out, "\n") != 1 {
		t.Errorf("daily -level hard printed %q, want one line for daily #1, hard", out)
	}
}

func TestDailyCommandToday(t *testing.T) {
	code, out, errOut := runGenCmd(t, "daily", "-level", "easy", "-secret", testSecret)
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	// The day may turn between the command and this check.
	today := sudoku.DailyNumber(time.Now())
	if !strings.HasPrefix(out, "#") || !(strings.Contains(out, "#"+strconv.Itoa(today)+"\t") || strings.Contains(out, "#"+strconv.Itoa(today-1)+"\t")) {
		t.Errorf("daily printed %q, want today's daily #%d", out, today)
	}
}

func TestDailyCommandSecret(t *testing.T) {
	ctx := context.Background()
	tomorrow := sudoku.DailyDay(time.Now()).AddDate(0, 0, 2).Format(time.DateOnly) // 2: the day may turn
	past := "2026-03-01"
	dir := t.TempDir()
	db := filepath.Join(dir, "bot.db")
	noDB := filepath.Join(dir, "missing.db")

	// The bot's first start stores a secret; the command reads it back.
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	stored, _, err := dailySecret(ctx, noEnv, st)
	if err != nil {
		t.Fatal(err)
	}
	again, warning, err := dailySecret(ctx, noEnv, st)
	if err != nil || string(again) != string(stored) || len(stored) != 64 || warning != "" {
		t.Fatalf("dailySecret twice = %q, %q (%v, %q); want one 64-digit secret", stored, again, err, warning)
	}
	// DAILY_SECRET wins, with a warning when the database holds another.
	env := func(k string) string { return map[string]string{"DAILY_SECRET": "mine"}[k] }
	if s, warning, err := dailySecret(ctx, env, st); err != nil || string(s) != "mine" || !strings.Contains(warning, "differs") {
		t.Errorf("dailySecret with DAILY_SECRET = %q, %q, %v; want it and a warning", s, warning, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// A first start with DAILY_SECRET stores it: a shard started without it
	// then shows the same puzzles.
	st2, err := store.Open(ctx, filepath.Join(dir, "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if _, _, err := dailySecret(ctx, env, st2); err != nil {
		t.Fatal(err)
	}
	if s, _, err := dailySecret(ctx, noEnv, st2); err != nil || string(s) != "mine" {
		t.Errorf("dailySecret without DAILY_SECRET after a start with it = %q, %v; want %q", s, err, "mine")
	}
	line := func(secret, date string) string {
		d, err := sudoku.Daily(ctx, []byte(secret), mustDay(t, date), sudoku.Easy)
		if err != nil {
			t.Fatal(err)
		}
		return d.Grid.String()
	}

	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string // in stdout (the puzzle) or stderr
	}{
		{"past day, stored secret", map[string]string{"DATABASE_PATH": db}, []string{"-date", past}, 0, line(string(stored), past)},
		{"past day, DAILY_SECRET", map[string]string{"DAILY_SECRET": "env secret", "DATABASE_PATH": db}, []string{"-date", past}, 0, line("env secret", past)},
		{"past day, -secret wins", map[string]string{"DAILY_SECRET": "env secret"}, []string{"-date", past, "-secret", "flag secret"}, 0, line("flag secret", past)},
		{"future day, stored secret", map[string]string{"DATABASE_PATH": db}, []string{"-date", tomorrow}, 2, "a coming day's puzzles print only with -secret or DAILY_SECRET"},
		{"future day, DAILY_SECRET", map[string]string{"DAILY_SECRET": "env secret"}, []string{"-date", tomorrow}, 0, line("env secret", tomorrow)},
		{"no secret anywhere", map[string]string{"DATABASE_PATH": noDB}, []string{"-date", past}, 1, "no daily secret: pass -secret, set DAILY_SECRET"},
	}
	for _, tt := range tests {
		code, out, errOut := runDailyCmd(t, tt.env, append(tt.args, "-level", "easy")...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%s: daily %v = %d, stdout %q, stderr %q; want %d and %q", tt.name, tt.args, code, out, errOut, tt.code, tt.want)
		}
	}
	if _, err := os.Stat(noDB); !os.IsNotExist(err) {
		t.Errorf("daily created %s looking for a secret (stat: %v)", noDB, err)
	}
}

func mustDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDailyCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-date", "21/11/2026"}, "want a date such as 2026-11-21"},
		{[]string{"-date", "2025-12-31"}, "the first daily is 2026-01-01"},
		{[]string{"-level", "expert"}, "the daily levels are easy, medium and hard"},
		{[]string{"-level", "nope"}, "the daily levels are easy, medium and hard"},
		{[]string{"tomorrow"}, `unexpected argument "tomorrow"`},
	}
	for _, tt := range tests {
		args := append([]string{"daily"}, tt.args...)
		code, out, errOut := runGenCmd(t, args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v = %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errOut, tt.want)
		}
	}
}
