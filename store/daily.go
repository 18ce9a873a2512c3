package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"time"
)

// Result is one solved daily puzzle.
type Result struct {
	// Rank is the place on a leaderboard (1 = fastest); 0 outside one.
	Rank       int
	UserID     string
	UserName   string
	GuildID    string    // the server it was solved in
	Date       time.Time // the puzzle's UTC day, at midnight
	Level      string
	GameID     int64
	Duration   time.Duration // from first view to the solve
	Hints      int
	Checks     int
	FinishedAt time.Time
	// Flag is why the solve was marked unfair (the game's Flag), "" when
	// fair. Marked results are kept but left off leaderboards and streaks.
	Flag string
}

// Leaderboard returns the fair results (Flag "") of the daily puzzle of
// date's UTC day at level solved in guildID: fastest first, then fewer hints, fewer checks,
// earlier finish. At most limit rows (limit ≤ 0 means all).
func (c *core) Leaderboard(ctx context.Context, guildID string, date time.Time, level string, limit int) ([]Result, error) {
	if limit <= 0 {
		limit = math.MaxInt32 // no limit, in a form both databases take
	}
	out, err := queryAll(ctx, c.r, scanResult, `SELECT `+resultColumns+` FROM daily_results
		WHERE guild_id = $1 AND daily_date = $2 AND level = $3 AND flag = ''
		ORDER BY duration_ms, hints, checks, finished_at, user_id LIMIT $4`,
		guildID, day(date), level, limit)
	if err != nil {
		return nil, fmt.Errorf("leaderboard %s %s in %s: %w", day(date), level, guildID, err)
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// resultColumns are the columns scanResult reads.
const resultColumns = `user_id, user_name, guild_id, game_id, duration_ms, hints, checks, finished_at, daily_date, level, flag`

func scanResult(row scanner) (Result, error) {
	var (
		r        Result
		dur, fin int64
		date     string
	)
	if err := row.Scan(&r.UserID, &r.UserName, &r.GuildID, &r.GameID, &dur, &r.Hints, &r.Checks, &fin, &date, &r.Level, &r.Flag); err != nil {
		return Result{}, err
	}
	d, err := time.Parse(dayFormat, date)
	if err != nil {
		return Result{}, fmt.Errorf("daily result of %s: date %q: %w", r.UserID, date, err)
	}
	r.Date, r.Duration, r.FinishedAt = d, time.Duration(dur)*time.Millisecond, fromMS(fin)
	return r, nil
}

// LevelStats are a user's figures for one daily level.
type LevelStats struct {
	Level   string
	Solved  int
	Average time.Duration
	Best    time.Duration
}

// Stats are a user's daily-challenge figures.
type Stats struct {
	UserID string
	// Solved counts daily puzzles solved, all levels.
	Solved int
	// Days counts UTC days with at least one daily solved.
	Days int
	// Current is the run of days with a daily solved that is still alive:
	// ending today or yesterday (today's can still be played), a missed
	// day bridged by a streak freeze (not counted in the run).
	Current int
	// Best is the longest such run ever.
	Best int
	// Freezes are the streak freezes held now (one earned per 7 days of
	// streak, at most 2, each spent by itself on a missed day); Frozen
	// counts the days they saved.
	Freezes, Frozen int
	// LastDay is the most recent day with a daily solved (zero if none).
	LastDay time.Time
	// Levels has one entry per level played, in name order.
	Levels []LevelStats
	// Flagged counts the solves marked unfair, which none of the figures
	// above count.
	Flagged int
}

// Stats returns userID's daily figures as of today (only the UTC day of
// today matters; results dated after it are ignored). A day counts towards a
// streak when any level of that day's daily was solved fairly; results
// marked unfair count only in Flagged.
func (c *core) Stats(ctx context.Context, userID string, today time.Time) (Stats, error) {
	st := Stats{UserID: userID}
	t := day(today)
	rows, err := c.r.QueryContext(ctx, `SELECT DISTINCT daily_date FROM daily_results
		WHERE user_id = $1 AND daily_date <= $2 AND flag = '' ORDER BY daily_date`, userID, t)
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
	}
	err = st.readDays(rows, today)
	rows.Close()
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
	}
	rows, err = c.r.QueryContext(ctx, `SELECT level, COUNT(*), CAST(AVG(duration_ms) AS DOUBLE PRECISION), MIN(duration_ms)
		FROM daily_results WHERE user_id = $1 AND daily_date <= $2 AND flag = '' GROUP BY level ORDER BY level`, userID, t)
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	defer rows.Close()
	if err := st.readLevels(rows); err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	if err := c.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM daily_results
		WHERE user_id = $1 AND daily_date <= $2 AND flag <> ''`, userID, t).Scan(&st.Flagged); err != nil {
		return Stats{}, fmt.Errorf("stats of %s, marked solves: %w", userID, err)
	}
	return st, nil
}

// Flagged returns the daily results solved in guildID that were marked
// unfair and finished at or after since, newest first, at most limit (≤ 0
// means all): what a server's admins review.
func (c *core) Flagged(ctx context.Context, guildID string, since time.Time, limit int) ([]Result, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	out, err := queryAll(ctx, c.r, scanResult, `SELECT `+resultColumns+` FROM daily_results
		WHERE guild_id = $1 AND flag <> '' AND finished_at >= $2
		ORDER BY finished_at DESC, user_id LIMIT $3`, guildID, ms(since), limit)
	if err != nil {
		return nil, fmt.Errorf("marked results in %s: %w", guildID, err)
	}
	return out, nil
}

// readDays reads the days with a daily solved (one dayFormat string a row,
// in order) into st's day count, streaks and last day.
func (st *Stats) readDays(rows *sql.Rows, today time.Time) error {
	var days []time.Time
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		d, err := time.Parse(dayFormat, s)
		if err != nil {
			return fmt.Errorf("bad date %q: %w", s, err)
		}
		days = append(days, d)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	st.Days = len(days)
	sk := streaks(days, today)
	st.Best, st.Current, st.Freezes, st.Frozen = sk.best, sk.current, sk.freezes, sk.frozen
	if len(days) > 0 {
		st.LastDay = days[len(days)-1]
	}
	return nil
}

// readLevels reads one row per level (level, solved, average and best
// milliseconds) into st's levels and solved count.
func (st *Stats) readLevels(rows *sql.Rows) error {
	for rows.Next() {
		var ls LevelStats
		var avg float64
		var best int64
		if err := rows.Scan(&ls.Level, &ls.Solved, &avg, &best); err != nil {
			return err
		}
		ls.Average = time.Duration(avg * float64(time.Millisecond)).Round(time.Millisecond)
		ls.Best = time.Duration(best) * time.Millisecond
		st.Solved += ls.Solved
		st.Levels = append(st.Levels, ls)
	}
	return rows.Err()
}

// Streak freezes: one is earned each time the current streak reaches a
// multiple of freezeEvery days, at most maxFreezes are held, and one is
// spent by itself on each day missed while the streak runs (the day keeps
// the streak alive without adding to it). They are worked out from the days
// solved alone, so every process agrees without storing anything.
const (
	freezeEvery = 7
	maxFreezes  = 2
)

// streak is what streaks finds.
type streak struct {
	best, current int
	freezes       int // held now
	frozen        int // days a freeze saved, ever
}

// streaks walks the days from the first in days (distinct UTC midnights,
// any order) to today: the longest run, the run still alive today (today
// itself can still be played, so it is never a missed day), the freezes
// held and the days they saved.
func streaks(days []time.Time, today time.Time) streak {
	var s streak
	if len(days) == 0 {
		return s
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Before(days[j]) })
	solved := make(map[string]bool, len(days))
	for _, d := range days {
		solved[day(d)] = true
	}
	t, _ := time.Parse(dayFormat, day(today))
	run := 0
	for d := days[0]; !d.After(t); d = d.AddDate(0, 0, 1) {
		switch {
		case solved[day(d)]:
			run++
			if run%freezeEvery == 0 && s.freezes < maxFreezes {
				s.freezes++
			}
			s.best = max(s.best, run)
		case d.Equal(t):
			// Today isn't over: not missed yet.
		case run > 0 && s.freezes > 0:
			s.freezes--
			s.frozen++
		default:
			run, s.freezes = 0, 0
		}
	}
	s.current = run
	return s
}
