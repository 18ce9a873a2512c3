package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Boards beyond one server and one day: a week's, a month's or all days'
// fair daily results of one level, in one server or across every server
// whose admins keep it listed (GuildSettings.GlobalBoards), ranked by
// average time. Package commands decides the periods and the least number
// of solves that lists a player.

// BoardQuery says which board to read.
type BoardQuery struct {
	// GuildID is the server whose results count; "" reads the global
	// board: results from every server listed globally, and from DMs.
	GuildID string
	// From and To are the first and last daily dates counted (their UTC
	// days), inclusive; both zero for every day.
	From, To time.Time
	Level    string
	// MinSolves is the least number of results that ranks a player.
	MinSolves int
	// Limit is the most ranked players returned (≤ 0: all).
	Limit int
	// Include also returns this user's standing (ranked or not) when it
	// falls outside the first Limit.
	Include string
}

// Standing is one player's line on a board.
type Standing struct {
	// Rank is the place among players with MinSolves results or more;
	// 0 for a player with fewer (only ever Include).
	Rank   int
	UserID string
	// UserName is the name of their latest result counted.
	UserName string
	// Hidden is set on a global board for a player who hides their name
	// there (Profile.HideName).
	Hidden  bool
	Solves  int
	Average time.Duration
	Best    time.Duration
	Hints   int
}

// Board returns the standings of q's board: players with at least
// q.MinSolves fair results, by average time (then fewer hints, more
// solves, the earlier last finish), and q.Include's own line when it is
// not among them. A query with neither From nor To reads every result
// ever, from board_totals.
func (c *core) Board(ctx context.Context, q BoardQuery) ([]Standing, error) {
	query := `SELECT user_id, COUNT(*), CAST(AVG(duration_ms) AS DOUBLE PRECISION), MIN(duration_ms), SUM(hints), MAX(finished_at)
		FROM daily_results WHERE level = $1 AND daily_date >= $2 AND daily_date <= $3 AND flag = ''`
	args := []any{q.Level, day(q.From), day(q.To)}
	if q.From.IsZero() && q.To.IsZero() {
		query = `SELECT user_id, SUM(solves), CAST(SUM(total_ms) AS DOUBLE PRECISION) / SUM(solves), MIN(best_ms), SUM(hints), MAX(last_finished)
			FROM board_totals WHERE level = $1`
		args = args[:1]
	}
	if q.GuildID != "" {
		query += fmt.Sprintf(` AND guild_id = $%d`, len(args)+1)
		args = append(args, q.GuildID)
	} else {
		query += ` AND guild_id NOT IN (SELECT guild_id FROM guild_settings WHERE global_boards = 0)`
	}
	type agg struct {
		Standing
		last int64
	}
	rows, err := queryAll(ctx, c.r, func(row scanner) (agg, error) {
		var a agg
		var avg float64
		var best int64
		err := row.Scan(&a.UserID, &a.Solves, &avg, &best, &a.Hints, &a.last)
		a.Average = time.Duration(avg * float64(time.Millisecond)).Round(time.Millisecond)
		a.Best = time.Duration(best) * time.Millisecond
		return a, err
	}, query+` GROUP BY user_id ORDER BY 3, 5, 2 DESC, 6, user_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("board %s to %s %s in %q: %w", day(q.From), day(q.To), q.Level, q.GuildID, err)
	}
	var out []Standing
	var own *Standing
	rank := 0
	for _, a := range rows {
		if a.Solves >= q.MinSolves {
			rank++
			a.Rank = rank
			if q.Limit <= 0 || rank <= q.Limit {
				out = append(out, a.Standing)
				continue
			}
		}
		if q.Include != "" && a.UserID == q.Include {
			own = &a.Standing
		}
	}
	if own != nil {
		out = append(out, *own) // after the ranked lines, whatever its place
	}
	for i := range out {
		var hide int
		if err := c.r.QueryRowContext(ctx, `SELECT
			(SELECT user_name FROM daily_results WHERE user_id = $1 ORDER BY finished_at DESC LIMIT 1),
			COALESCE((SELECT hide_name FROM players WHERE user_id = $1), 0)`, out[i].UserID).Scan(&out[i].UserName, &hide); err != nil {
			return nil, fmt.Errorf("board: name of %s: %w", out[i].UserID, err)
		}
		out[i].Hidden = q.GuildID == "" && hide != 0
	}
	return out, nil
}

// SetGlobalBoards lists guildID's results on the global boards (on) or
// keeps them off (its own boards keep them either way).
func (c *core) SetGlobalBoards(ctx context.Context, guildID string, on bool, now time.Time) error {
	if guildID == "" {
		return fmt.Errorf("set global boards: %w: no guild id", ErrInvalid)
	}
	return c.write(ctx, "set global boards of "+guildID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO guild_settings (guild_id, global_boards, updated_at) VALUES ($1, $2, $3)
			ON CONFLICT (guild_id) DO UPDATE SET global_boards = excluded.global_boards, updated_at = excluded.updated_at`,
			guildID, boolInt(on), ms(now))
		return err
	})
}

// SetHideName hides (or shows) userID's name on the global boards.
func (c *core) SetHideName(ctx context.Context, userID string, hide bool, now time.Time) error {
	if userID == "" {
		return fmt.Errorf("hide name: %w: no user id", ErrInvalid)
	}
	return c.write(ctx, "hide name of "+userID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO players (user_id, time_zone, zone_floor, updated_at, hide_name) VALUES ($1, '', '', $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET hide_name = excluded.hide_name, updated_at = excluded.updated_at`,
			userID, ms(now), boolInt(hide))
		return err
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Best is a player's fastest fair solve of one size and level.
type Best struct {
	Shape, Level string
	Time         time.Duration
	Solved       int // fair solves of that size and level
}

// PersonalBests returns userID's fastest fair solve of each size and level
// they have solved (dailies and ordinary games; archive replays, races and
// co-op games, and marked solves left out), by shape then level.
func (c *core) PersonalBests(ctx context.Context, userID string) ([]Best, error) {
	out, err := queryAll(ctx, c.r, func(row scanner) (Best, error) {
		var b Best
		var t int64
		err := row.Scan(&b.Shape, &b.Level, &t, &b.Solved)
		b.Time = time.Duration(t) * time.Millisecond
		return b, err
	}, `SELECT shape, level, MIN(finished_at - COALESCE(viewed_at, started_at)), COUNT(*) FROM games
		WHERE user_id = $1 AND status = 'solved' AND flag = '' AND archive_date IS NULL AND race_id IS NULL AND level <> ''
		GROUP BY shape, level ORDER BY shape, level`, userID)
	if err != nil {
		return nil, fmt.Errorf("personal bests of %s: %w", userID, err)
	}
	return out, nil
}

// addTotals adds r, a fair daily result just recorded, to its player's
// totals for its server and level (board_totals), inside tx.
func addTotals(ctx context.Context, tx *sql.Tx, r Result) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO board_totals (user_id, guild_id, level, solves, total_ms, best_ms, hints, last_finished)
		VALUES ($1, $2, $3, 1, $4, $4, $5, $6) ON CONFLICT (user_id, guild_id, level) DO UPDATE SET
		solves = board_totals.solves + 1, total_ms = board_totals.total_ms + excluded.total_ms,
		best_ms = CASE WHEN excluded.best_ms < board_totals.best_ms THEN excluded.best_ms ELSE board_totals.best_ms END,
		hints = board_totals.hints + excluded.hints,
		last_finished = CASE WHEN excluded.last_finished > board_totals.last_finished THEN excluded.last_finished ELSE board_totals.last_finished END`,
		r.UserID, r.GuildID, r.Level, r.Duration.Milliseconds(), r.Hints, ms(r.FinishedAt))
	return err
}
