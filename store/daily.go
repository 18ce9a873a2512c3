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
	// Current is the run of consecutive days, each with a daily solved,
	// that ends today — or yesterday, since today's can still be played.
	Current int
	// Best is the longest such run ever.
	Best int
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
	st.Best, st.Current = streaks(days, today)
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

// streaks returns the longest run of consecutive days in days (sorted,
// distinct UTC midnights) and the run that ends today or yesterday.
func streaks(days []time.Time, today time.Time) (best, current int) {
	if len(days) == 0 {
		return 0, 0
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Before(days[j]) })
	run := 0
	for i, d := range days {
		if i > 0 && d.Equal(days[i-1].AddDate(0, 0, 1)) {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	t, _ := time.Parse(dayFormat, day(today))
	last := days[len(days)-1]
	if last.Equal(t) || last.Equal(t.AddDate(0, 0, -1)) {
		current = run
	}
	return best, current
}
