package store

import (
	"context"
	"fmt"
	"time"
)

// Leaderboard returns the results of the daily puzzle of date's UTC day at
// level solved in guildID; see Store.Leaderboard.
func (p *Postgres) Leaderboard(ctx context.Context, guildID string, date time.Time, level string, limit int) ([]Result, error) {
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	rows, err := p.pool.Query(ctx, `SELECT user_id, user_name, guild_id, game_id, duration_ms, hints,
		checks, finished_at FROM daily_results
		WHERE guild_id = $1 AND daily_date = $2 AND level = $3
		ORDER BY duration_ms, hints, checks, finished_at, user_id LIMIT $4`,
		guildID, day(date), level, lim)
	if err != nil {
		return nil, fmt.Errorf("leaderboard %s %s in %s: %w", day(date), level, guildID, err)
	}
	defer rows.Close()
	d, _ := time.Parse(dayFormat, day(date))
	var out []Result
	for rows.Next() {
		r := Result{Rank: len(out) + 1, Date: d, Level: level}
		var dur, fin int64
		if err := rows.Scan(&r.UserID, &r.UserName, &r.GuildID, &r.GameID, &dur, &r.Hints, &r.Checks, &fin); err != nil {
			return nil, fmt.Errorf("leaderboard %s %s in %s: %w", day(date), level, guildID, err)
		}
		r.Duration = time.Duration(dur) * time.Millisecond
		r.FinishedAt = fromMS(fin)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("leaderboard %s %s in %s: %w", day(date), level, guildID, err)
	}
	return out, nil
}

// Stats returns userID's daily figures as of today; see Store.Stats.
func (p *Postgres) Stats(ctx context.Context, userID string, today time.Time) (Stats, error) {
	st := Stats{UserID: userID}
	t := day(today)
	rows, err := p.pool.Query(ctx, `SELECT DISTINCT daily_date FROM daily_results
		WHERE user_id = $1 AND daily_date <= $2 ORDER BY daily_date`, userID, t)
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
	}
	var days []time.Time
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
		}
		d, err := time.Parse(dayFormat, s)
		if err != nil {
			rows.Close()
			return Stats{}, fmt.Errorf("stats of %s: bad date %q: %w", userID, s, err)
		}
		days = append(days, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
	}
	st.Days = len(days)
	st.Best, st.Current = streaks(days, today)
	if len(days) > 0 {
		st.LastDay = days[len(days)-1]
	}

	rows, err = p.pool.Query(ctx, `SELECT level, COUNT(*), AVG(duration_ms)::float8, MIN(duration_ms)
		FROM daily_results WHERE user_id = $1 AND daily_date <= $2 GROUP BY level ORDER BY level`, userID, t)
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var ls LevelStats
		var avg float64
		var best int64
		if err := rows.Scan(&ls.Level, &ls.Solved, &avg, &best); err != nil {
			return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
		}
		ls.Average = time.Duration(avg * float64(time.Millisecond)).Round(time.Millisecond)
		ls.Best = time.Duration(best) * time.Millisecond
		st.Solved += ls.Solved
		st.Levels = append(st.Levels, ls)
	}
	if err := rows.Err(); err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	return st, nil
}
