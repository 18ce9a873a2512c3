package store

import (
	"context"
	"testing"
	"time"
)

// solveDaily plays user's daily of date at level in guild: viewed at the
// given offset into the day, hints and checks used, solved took later.
func solveDaily(t *testing.T, s backend, user, guild string, date time.Time, level string, took time.Duration, hints, checks int) Game {
	t.Helper()
	ctx := context.Background()
	g := mustStart(t, s, testDaily(user, guild, date, level))
	view := date.Add(10 * time.Hour)
	if _, err := s.MarkViewed(ctx, g.ID, view); err != nil {
		t.Fatal(err)
	}
	for i := range hints {
		if _, err := s.RecordHint(ctx, g.ID, i+1); err != nil {
			t.Fatal(err)
		}
	}
	for range checks {
		if _, err := s.RecordCheck(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	f, err := s.Finish(ctx, g.ID, Solved, view.Add(took))
	if err != nil || f.Result == nil {
		t.Fatalf("Finish daily of %s: %+v, %v; want a result", user, f, err)
	}
	if f.Result.Duration != took || f.Result.Hints != hints || f.Result.Checks != checks {
		t.Errorf("result of %s = %v %d hints %d checks, want %v %d %d", user, f.Result.Duration, f.Result.Hints, f.Result.Checks, took, hints, checks)
	}
	return f.Game
}

var day0 = time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)

func testLeaderboardOrder(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	solveDaily(t, s, "slow", "g1", day0, "hard", 9*time.Minute, 0, 0)
	solveDaily(t, s, "fast", "g1", day0, "hard", 4*time.Minute, 2, 0)
	solveDaily(t, s, "tie-nohint", "g1", day0, "hard", 6*time.Minute, 0, 1)
	solveDaily(t, s, "tie-hint", "g1", day0, "hard", 6*time.Minute, 1, 0)
	solveDaily(t, s, "tie-check", "g1", day0, "hard", 6*time.Minute, 0, 2)
	// Not on this board: another server, level or day, or given up.
	solveDaily(t, s, "elsewhere", "g2", day0, "hard", time.Minute, 0, 0)
	solveDaily(t, s, "easy", "g1", day0, "easy", time.Minute, 0, 0)
	solveDaily(t, s, "tomorrow", "g1", day0.AddDate(0, 0, 1), "hard", time.Minute, 0, 0)
	quit := mustStart(t, s, testDaily("quitter", "g1", day0, "hard"))
	if _, err := s.Finish(ctx, quit.ID, GaveUp, day0.Add(11*time.Hour)); err != nil {
		t.Fatal(err)
	}

	board, err := s.Leaderboard(ctx, "g1", day0.Add(13*time.Hour), "hard", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fast", "tie-nohint", "tie-check", "tie-hint", "slow"}
	if len(board) != len(want) {
		t.Fatalf("leaderboard has %d rows %+v, want %v", len(board), board, want)
	}
	for i, r := range board {
		if r.UserID != want[i] || r.Rank != i+1 || r.UserName != "name-"+want[i] || !r.Date.Equal(day0) || r.Level != "hard" {
			t.Errorf("row %d = %+v, want rank %d %s", i, r, i+1, want[i])
		}
	}
	top, err := s.Leaderboard(ctx, "g1", day0, "hard", 2)
	if err != nil || len(top) != 2 || top[1].UserID != "tie-nohint" {
		t.Errorf("Leaderboard limit 2 = %+v, %v", top, err)
	}
	empty, err := s.Leaderboard(ctx, "g9", day0, "hard", 0)
	if err != nil || len(empty) != 0 {
		t.Errorf("Leaderboard of a server with no results = %v, %v; want empty", empty, err)
	}
}

func testStatsStreakAcrossDays(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	d := func(n int) time.Time { return day0.AddDate(0, 0, n) }
	// Days 0,1,2 (best run 3), gap, days 4,5 (current run 2). Two levels on
	// day 1 count as one day.
	solveDaily(t, s, "ada", "g1", d(0), "easy", 3*time.Minute, 0, 0)
	solveDaily(t, s, "ada", "g1", d(1), "easy", 5*time.Minute, 0, 0)
	solveDaily(t, s, "ada", "g2", d(1), "hard", 20*time.Minute, 1, 0)
	solveDaily(t, s, "ada", "g1", d(2), "medium", 8*time.Minute, 0, 0)
	solveDaily(t, s, "ada", "g1", d(4), "easy", 4*time.Minute, 0, 0)
	solveDaily(t, s, "ada", "g1", d(5), "hard", 10*time.Minute, 0, 0)
	solveDaily(t, s, "bob", "g1", d(5), "easy", time.Minute, 0, 0)
	// A day given up does not count.
	q := mustStart(t, s, testDaily("ada", "g1", d(3), "easy"))
	s.Finish(ctx, q.ID, GaveUp, d(3).Add(time.Hour))

	tests := []struct {
		name          string
		today         time.Time
		solved, days  int
		current, best int
	}{
		{"on day 5", d(5).Add(23 * time.Hour), 6, 5, 2, 3},
		{"day 6: yesterday keeps the streak alive", d(6), 6, 5, 2, 3},
		{"day 7: streak broken", d(7), 6, 5, 0, 3},
		{"as of day 2: later days ignored", d(2).Add(time.Hour), 4, 3, 3, 3},
		{"before any", d(-1), 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := s.Stats(ctx, "ada", tt.today)
			if err != nil {
				t.Fatal(err)
			}
			if st.Solved != tt.solved || st.Days != tt.days || st.Current != tt.current || st.Best != tt.best {
				t.Errorf("Stats(ada, %v) = solved %d days %d current %d best %d, want %d %d %d %d",
					tt.today, st.Solved, st.Days, st.Current, st.Best, tt.solved, tt.days, tt.current, tt.best)
			}
		})
	}
	st, err := s.Stats(ctx, "ada", d(5))
	if err != nil {
		t.Fatal(err)
	}
	want := []LevelStats{
		{"easy", 3, 4 * time.Minute, 3 * time.Minute},
		{"hard", 2, 15 * time.Minute, 10 * time.Minute},
		{"medium", 1, 8 * time.Minute, 8 * time.Minute},
	}
	if len(st.Levels) != len(want) {
		t.Fatalf("Levels = %+v, want %+v", st.Levels, want)
	}
	for i := range want {
		if st.Levels[i] != want[i] {
			t.Errorf("Levels[%d] = %+v, want %+v", i, st.Levels[i], want[i])
		}
	}
	if !st.LastDay.Equal(d(5)) {
		t.Errorf("LastDay = %v, want %v", st.LastDay, d(5))
	}
	none, err := s.Stats(ctx, "nobody", d(5))
	if err != nil || none.Solved != 0 || none.Best != 0 || len(none.Levels) != 0 {
		t.Errorf("Stats(nobody) = %+v, %v; want zeros", none, err)
	}
}

func TestStreaks(t *testing.T) {
	d := func(n int) time.Time { return day0.AddDate(0, 0, n) }
	run := func(from, to int, skip ...int) []time.Time {
		var out []time.Time
	next:
		for i := from; i <= to; i++ {
			for _, s := range skip {
				if i == s {
					continue next
				}
			}
			out = append(out, d(i))
		}
		return out
	}
	tests := []struct {
		name                           string
		days                           []time.Time
		today                          time.Time
		best, current, freezes, frozen int
	}{
		{"none", nil, d(0), 0, 0, 0, 0},
		{"today only", []time.Time{d(0)}, d(0), 1, 1, 0, 0},
		{"yesterday", []time.Time{d(0)}, d(1), 1, 1, 0, 0},
		{"two days ago", []time.Time{d(0)}, d(2), 1, 0, 0, 0},
		{"unsorted", []time.Time{d(2), d(0), d(1)}, d(2), 3, 3, 0, 0},
		{"best earlier", []time.Time{d(0), d(1), d(2), d(3), d(5)}, d(5), 4, 1, 0, 0},
		{"across month end", []time.Time{day0.AddDate(0, 0, 16), day0.AddDate(0, 0, 17), day0.AddDate(0, 0, 18)}, day0.AddDate(0, 0, 18), 3, 3, 0, 0},
		{"six days earn nothing", run(0, 5), d(5), 6, 6, 0, 0},
		{"seven days earn a freeze", run(0, 6), d(6), 7, 7, 1, 0},
		{"a freeze bridges a missed day", run(0, 10, 7), d(10), 10, 10, 0, 1},
		{"a freeze held while today is still open", run(0, 6), d(7), 7, 7, 1, 0},
		{"two missed days, one freeze: broken", run(0, 10, 7, 8), d(10), 7, 2, 0, 1},
		{"fourteen days earn two", run(0, 13), d(13), 14, 14, 2, 0},
		{"at most two held", run(0, 27), d(27), 28, 28, 2, 0},
		{"two freezes bridge two days", run(0, 16, 14, 15), d(16), 15, 15, 0, 2},
		{"gone once the streak breaks", append(run(0, 6), d(20)), d(20), 7, 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := streaks(append([]time.Time(nil), tt.days...), tt.today)
			want := streak{tt.best, tt.current, tt.freezes, tt.frozen}
			if got != want {
				t.Errorf("streaks(%d days, today %s) = %+v, want %+v", len(tt.days), tt.today.Format(time.DateOnly), got, want)
			}
		})
	}
}
