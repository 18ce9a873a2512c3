package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// GuildSettings are one server's choices.
type GuildSettings struct {
	GuildID string
	// DailyChannel is where the daily puzzles are posted; empty when off.
	DailyChannel string
	// DailyHour is the UTC hour (0-23) of the daily post.
	DailyHour int
	// GlobalBoards is false when the server's admins keep its results off
	// the global boards (SetGlobalBoards); true by default.
	GlobalBoards bool
}

// SetDaily turns the daily post on for guildID, in channelID at hour (UTC).
func (c *core) SetDaily(ctx context.Context, guildID, channelID string, hour int, now time.Time) error {
	if guildID == "" || channelID == "" {
		return fmt.Errorf("set daily channel: %w: guild and channel are required", ErrInvalid)
	}
	if hour < 0 || hour > 23 {
		return fmt.Errorf("set daily channel: %w: hour %d is not 0 to 23", ErrInvalid, hour)
	}
	return c.write(ctx, "set daily channel of "+guildID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO guild_settings (guild_id, daily_channel, daily_hour, updated_at)
			VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET
			daily_channel = excluded.daily_channel, daily_hour = excluded.daily_hour, updated_at = excluded.updated_at`,
			guildID, channelID, hour, ms(now))
		return err
	})
}

// StopDaily turns the daily post off for guildID.
func (c *core) StopDaily(ctx context.Context, guildID string, now time.Time) error {
	return c.write(ctx, "stop daily of "+guildID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE guild_settings SET daily_channel = '', updated_at = $1 WHERE guild_id = $2`,
			ms(now), guildID)
		return err
	})
}

// Settings returns guildID's settings; a server never configured gets the
// zero settings (daily off), not an error.
func (c *core) Settings(ctx context.Context, guildID string) (GuildSettings, error) {
	g := GuildSettings{GuildID: guildID, GlobalBoards: true}
	var global int
	err := c.r.QueryRowContext(ctx, `SELECT daily_channel, daily_hour, global_boards FROM guild_settings WHERE guild_id = $1`, guildID).
		Scan(&g.DailyChannel, &g.DailyHour, &global)
	if err == nil {
		g.GlobalBoards = global != 0
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return GuildSettings{}, fmt.Errorf("settings of %s: %w", guildID, err)
	}
	return g, nil
}

// DailyGuilds lists the servers that have the daily post on, by guild id.
func (c *core) DailyGuilds(ctx context.Context) ([]GuildSettings, error) {
	rows, err := c.r.QueryContext(ctx, `SELECT guild_id, daily_channel, daily_hour, global_boards FROM guild_settings
		WHERE daily_channel <> '' ORDER BY guild_id`)
	if err != nil {
		return nil, fmt.Errorf("list daily guilds: %w", err)
	}
	defer rows.Close()
	var out []GuildSettings
	for rows.Next() {
		var g GuildSettings
		var global int
		if err := rows.Scan(&g.GuildID, &g.DailyChannel, &g.DailyHour, &global); err != nil {
			return nil, fmt.Errorf("list daily guilds: %w", err)
		}
		g.GlobalBoards = global != 0
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list daily guilds: %w", err)
	}
	return out, nil
}

// SetWatched opts channelID of guildID in to (on) or out of grid watching.
func (c *core) SetWatched(ctx context.Context, guildID, channelID string, on bool) error {
	if guildID == "" || channelID == "" {
		return fmt.Errorf("set watched channel: %w: guild and channel are required", ErrInvalid)
	}
	return c.write(ctx, fmt.Sprintf("set watch of %s in %s", channelID, guildID), func(tx *sql.Tx) error {
		var err error
		if on {
			_, err = tx.ExecContext(ctx, `INSERT INTO watched_channels (guild_id, channel_id) VALUES ($1, $2)
				ON CONFLICT DO NOTHING`, guildID, channelID)
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM watched_channels WHERE guild_id = $1 AND channel_id = $2`, guildID, channelID)
		}
		return err
	})
}

// Watched reports whether channelID of guildID is watched for grids.
func (c *core) Watched(ctx context.Context, guildID, channelID string) (bool, error) {
	var n int
	if err := c.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM watched_channels WHERE guild_id = $1 AND channel_id = $2`,
		guildID, channelID).Scan(&n); err != nil {
		return false, fmt.Errorf("is %s in %s watched: %w", channelID, guildID, err)
	}
	return n > 0, nil
}

// WatchedChannels lists guildID's watched channels, sorted.
func (c *core) WatchedChannels(ctx context.Context, guildID string) ([]string, error) {
	rows, err := c.r.QueryContext(ctx, `SELECT channel_id FROM watched_channels WHERE guild_id = $1 ORDER BY channel_id`, guildID)
	if err != nil {
		return nil, fmt.Errorf("list watched channels of %s: %w", guildID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("list watched channels of %s: %w", guildID, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list watched channels of %s: %w", guildID, err)
	}
	return out, nil
}

// ClaimPost claims the daily post of date's UTC day to channelID of guildID
// for by (a name for logs: shard, host). It returns true for exactly one
// caller, whatever the restarts and shards: only the winner posts.
func (c *core) ClaimPost(ctx context.Context, guildID, channelID string, date time.Time, by string, now time.Time) (bool, error) {
	won := false
	err := c.write(ctx, fmt.Sprintf("claim %s post to %s", day(date), channelID), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO posts (guild_id, channel_id, post_date, claimed_at, claimed_by)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, guildID, channelID, day(date), ms(now), by)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		won = n == 1
		return err
	})
	return won, err
}

// ReleasePost gives back a claim whose post failed, so a later try may post.
func (c *core) ReleasePost(ctx context.Context, guildID, channelID string, date time.Time) error {
	return c.write(ctx, fmt.Sprintf("release %s post to %s", day(date), channelID), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM posts WHERE guild_id = $1 AND channel_id = $2 AND post_date = $3`,
			guildID, channelID, day(date))
		return err
	})
}
