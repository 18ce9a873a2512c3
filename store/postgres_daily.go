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
	err = st.readDays(rows, today)
	rows.Close()
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s: %w", userID, err)
	}
	rows, err = p.pool.Query(ctx, `SELECT level, COUNT(*), AVG(duration_ms)::float8, MIN(duration_ms)
		FROM daily_results WHERE user_id = $1 AND daily_date <= $2 GROUP BY level ORDER BY level`, userID, t)
	if err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	defer rows.Close()
	if err := st.readLevels(rows); err != nil {
		return Stats{}, fmt.Errorf("stats of %s by level: %w", userID, err)
	}
	return st, nil
}
