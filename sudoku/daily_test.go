package sudoku

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// testSecret is the daily secret of the tests (a server's is random).
var testSecret = []byte("sudokubot test secret")

func mustDaily(t *testing.T, date time.Time, level Level) DailyPuzzle {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := Daily(ctx, testSecret, date, level)
	if err != nil {
		t.Fatalf("Daily(%v, %v): %v", date, level, err)
	}
	return d
}

func TestDailyNumber(t *testing.T) {
	ny := time.FixedZone("UTC-5", -5*3600)
	tokyo := time.FixedZone("UTC+9", 9*3600)
	tests := []struct {
		t    time.Time
		want int
		day  string
	}{
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 1, "2026-01-01"},
		{time.Date(2026, 1, 1, 23, 59, 59, 0, time.UTC), 1, "2026-01-01"},
		{time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), 2, "2026-01-02"},
		{time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), 325, "2026-11-21"},
		// Late evening in New York is already the next UTC day.
		{time.Date(2026, 11, 21, 20, 0, 0, 0, ny), 326, "2026-11-22"},
		// Early morning in Tokyo is still the previous UTC day.
		{time.Date(2026, 11, 22, 8, 0, 0, 0, tokyo), 325, "2026-11-21"},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), 366, "2027-01-01"},
		{time.Date(2028, 3, 1, 0, 0, 0, 0, time.UTC), 791, "2028-03-01"}, // 2028 is a leap year
		{time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC), 0, "2025-12-31"},
	}
	for _, tt := range tests {
		if got := DailyNumber(tt.t); got != tt.want {
			t.Errorf("DailyNumber(%v) = %d, want %d", tt.t, got, tt.want)
		}
		if got := DailyDay(tt.t).Format(time.DateOnly); got != tt.day {
			t.Errorf("DailyDay(%v) = %s, want %s", tt.t, got, tt.day)
		}
	}
}

func TestDailyProperties(t *testing.T) {
	date := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	seen := map[string]string{}
	for _, day := range []time.Time{date, date.AddDate(0, 0, 1)} {
		for _, level := range DailyLevels() {
			d := mustDaily(t, day, level)
			want := DailyDay(day)
			if !d.Date.Equal(want) || d.Date.Location() != time.UTC {
				t.Errorf("Daily(%v, %v).Date = %v, want %v", day, level, d.Date, want)
			}
			if d.Number != DailyNumber(day) || d.Level != level {
				t.Errorf("Daily(%v, %v) = #%d %v, want #%d %v", day, level, d.Number, d.Level, DailyNumber(day), level)
			}
			opts := GenerateOptions{Shape: DailyShape, Level: level, Symmetry: DailySymmetry}
			checkPuzzle(t, opts, d.Puzzle, true)
			key := d.Grid.String()
			if prev, ok := seen[key]; ok {
				t.Errorf("Daily(%v, %v) repeats the puzzle of %s", day, level, prev)
			}
			seen[key] = fmt.Sprintf("%s %v", day.Format(time.DateOnly), level)
		}
	}
}

func TestDailyIgnoresTimeZone(t *testing.T) {
	// The same UTC day seen from three places gives the same puzzle.
	utc := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	others := []time.Time{
		time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 5, 31, 21, 0, 0, 0, time.FixedZone("UTC-4", -4*3600)),
		time.Date(2026, 6, 2, 8, 59, 0, 0, time.FixedZone("UTC+9", 9*3600)),
	}
	want := mustDaily(t, utc, Medium)
	for _, o := range others {
		if got := mustDaily(t, o, Medium); !got.Grid.Equal(want.Grid) || got.Number != want.Number {
			t.Errorf("Daily(%v) = #%d %s, want #%d %s as for %v", o, got.Number, got.Grid, want.Number, want.Grid, utc)
		}
	}
}

func TestDailyErrors(t *testing.T) {
	tests := []struct {
		date  time.Time
		level Level
		want  string
	}{
		{time.Date(2025, 12, 31, 12, 0, 0, 0, time.UTC), Easy, "the first daily is 2026-01-01"},
		{time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Expert, "no expert daily"},
		{time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), Level(-1), "no Level(-1) daily"},
	}
	for _, tt := range tests {
		_, err := Daily(context.Background(), testSecret, tt.date, tt.level)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Daily(%v, %v) = %v, want an error mentioning %q", tt.date, tt.level, err, tt.want)
		}
	}
}

func TestDailySecret(t *testing.T) {
	day := time.Date(2026, 7, 4, 0, 0, 0, 0, time.UTC)
	want := mustDaily(t, day, Easy)
	again, err := Daily(context.Background(), []byte(string(testSecret)), day, Easy)
	if err != nil || !again.Grid.Equal(want.Grid) {
		t.Errorf("Daily with the same secret = %v, %v; want %s again", again.Grid, err, want.Grid)
	}
	other, err := Daily(context.Background(), []byte("another server's secret"), day, Easy)
	if err != nil {
		t.Fatal(err)
	}
	if other.Grid.Equal(want.Grid) {
		t.Errorf("Daily with another secret = %s, the same puzzle", other.Grid)
	}
	if _, err := Daily(context.Background(), nil, day, Easy); !errors.Is(err, ErrNoDailySecret) {
		t.Errorf("Daily without a secret: err = %v, want ErrNoDailySecret", err)
	}
	// The seed is keyed: the same day and level under two secrets, and two
	// days under one, all differ.
	seeds := map[uint64]string{}
	for _, sec := range []string{"a", "b"} {
		for _, d := range []time.Time{day, day.AddDate(0, 0, 1)} {
			for _, l := range DailyLevels() {
				s := dailySeed([]byte(sec), d, l)
				name := fmt.Sprintf("%s %s %v", sec, d.Format(time.DateOnly), l)
				if prev, ok := seeds[s]; ok {
					t.Errorf("dailySeed(%s) = dailySeed(%s)", name, prev)
				}
				seeds[s] = name
			}
		}
	}
}

func TestDailyGolden(t *testing.T) {
	var b strings.Builder
	for _, date := range []string{"2026-01-01", "2026-11-21"} {
		day, err := time.Parse(time.DateOnly, date)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range DailyLevels() {
			d := mustDaily(t, day, level)
			fmt.Fprintf(&b, "#%d %s %v %.1f %s\n", d.Number, d.Date.Format(time.DateOnly), d.Level, d.Rating.Score, d.Grid)
		}
	}
	checkGolden(t, "daily.golden", b.String())
}
