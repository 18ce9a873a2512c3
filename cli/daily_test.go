package cli

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubot/sudoku"
)

func TestDailyCommand(t *testing.T) {
	code, out, errOut := runGenCmd(t, "daily", "-date", "2026-11-21")
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("daily printed %d lines, want 3:\n%s", len(lines), out)
	}
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for i, level := range sudoku.DailyLevels() {
		d, err := sudoku.Daily(context.Background(), day, level)
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
	code, out, errOut := runGenCmd(t, "daily", "-date", "2026-01-01", "-level", "Hard")
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "#1\t2026-01-01\thard\t") || strings.Count(out, "\n") != 1 {
		t.Errorf("daily -level hard printed %q, want one line for daily #1, hard", out)
	}
}

func TestDailyCommandToday(t *testing.T) {
	code, out, errOut := runGenCmd(t, "daily", "-level", "easy")
	if code != 0 {
		t.Fatalf("daily = %d, stderr %q", code, errOut)
	}
	// The day may turn between the command and this check.
	today := sudoku.DailyNumber(time.Now())
	if !strings.HasPrefix(out, "#") || !(strings.Contains(out, "#"+strconv.Itoa(today)+"\t") || strings.Contains(out, "#"+strconv.Itoa(today-1)+"\t")) {
		t.Errorf("daily printed %q, want today's daily #%d", out, today)
	}
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
