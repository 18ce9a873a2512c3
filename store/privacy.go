package store

import (
	"context"
	"database/sql"
	"fmt"
)

// PlayerData is everything the store keeps about one Discord user: their
// games (each with the name, server and channel it was played under) and
// their daily results. The undo log of a game in progress is part of the
// game.
type PlayerData struct {
	UserID  string
	Games   []Game   // newest first
	Results []Result // newest day first
	Profile Profile  // their time zone; TimeZone "" when never set
	// Rating is their skill rating (zero when never rated) and Ratings
	// every rated game, newest first.
	Rating  Rating
	Ratings []RatingChange
	// Races are their places in races and co-op games, newest first.
	Races []RaceEntry
}

// RaceEntry is a player's place in a race (or a co-op game): the race,
// and their row of it; Placed counts the values of a co-op board credited
// to them.
type RaceEntry struct {
	RaceID int64
	Kind   RaceKind
	Title  string
	Racer
	Placed int
}

// PlayerData returns everything the store keeps about userID.
func (c *core) PlayerData(ctx context.Context, userID string) (PlayerData, error) {
	d := PlayerData{UserID: userID}
	var err error
	d.Games, err = queryAll(ctx, c.r, scanGame, `SELECT `+gameColumns+` FROM games WHERE user_id = $1 ORDER BY id DESC`, userID)
	if err != nil {
		return PlayerData{}, fmt.Errorf("games of %s: %w", userID, err)
	}
	d.Results, err = queryAll(ctx, c.r, scanResult, `SELECT `+resultColumns+` FROM daily_results
		WHERE user_id = $1 ORDER BY daily_date DESC, level`, userID)
	if err != nil {
		return PlayerData{}, fmt.Errorf("daily results of %s: %w", userID, err)
	}
	if d.Profile, err = c.Profile(ctx, userID); err != nil {
		return PlayerData{}, err
	}
	if d.Rating, _, err = c.PlayerRating(ctx, userID); err != nil {
		return PlayerData{}, err
	}
	if d.Ratings, err = c.RatingHistory(ctx, userID, 0); err != nil {
		return PlayerData{}, err
	}
	d.Races, err = queryAll(ctx, c.r, func(s scanner) (RaceEntry, error) {
		var (
			e                 RaceEntry
			kind, status      string
			joined            int64
			game, moved, done sql.NullInt64
		)
		err := s.Scan(&e.RaceID, &kind, &e.Title, &e.UserID, &e.UserName, &joined, &game, &status, &moved, &done, &e.Mistakes, &e.Placed)
		e.Kind, e.Status, e.JoinedAt, e.GameID = RaceKind(kind), RacerStatus(status), fromMS(joined), game.Int64
		if moved.Valid {
			e.LastMoveAt = fromMS(moved.Int64)
		}
		if done.Valid {
			e.FinishedAt = fromMS(done.Int64)
		}
		return e, err
	}, `SELECT r.id, r.kind, r.title, p.user_id, p.user_name, p.joined_at, p.game_id, p.status, p.last_move_at,
		p.finished_at, p.mistakes, (SELECT COUNT(*) FROM cell_movers m WHERE m.game_id = r.game_id AND m.user_id = p.user_id)
		FROM race_players p JOIN races r ON r.id = p.race_id WHERE p.user_id = $1 ORDER BY r.id DESC`, userID)
	if err != nil {
		return PlayerData{}, fmt.Errorf("races of %s: %w", userID, err)
	}
	return d, nil
}

// Forgotten counts what ForgetPlayer deleted.
type Forgotten struct {
	Games, Results int
}

// ForgetPlayer deletes everything the store keeps about userID, in one
// transaction: their daily results (so leaderboards and streaks lose them),
// then their games with their undo logs, their profile, and their rating
// with its history. A daily game deleted can be played again.
func (c *core) ForgetPlayer(ctx context.Context, userID string) (Forgotten, error) {
	if userID == "" {
		return Forgotten{}, fmt.Errorf("forget player: %w: no user id", ErrInvalid)
	}
	var f Forgotten
	err := c.write(ctx, "forget player "+userID, func(tx *sql.Tx) error {
		// Results first: they refer to the games. The games' moves go with
		// them (ON DELETE CASCADE).
		var err error
		if f.Results, err = deleted(tx.ExecContext(ctx, `DELETE FROM daily_results WHERE user_id = $1`, userID)); err != nil {
			return err
		}
		if f.Games, err = deleted(tx.ExecContext(ctx, `DELETE FROM games WHERE user_id = $1`, userID)); err != nil {
			return err
		}
		// Their places in races and their credit in co-op games go; the
		// others' games keep their moves, credited to nobody.
		for _, q := range []string{
			`DELETE FROM race_players WHERE user_id = $1`,
			`DELETE FROM cell_movers WHERE user_id = $1`,
			`UPDATE moves SET mover = '' WHERE mover = $1`,
			`UPDATE moves SET prev_mover = '' WHERE prev_mover = $1`,
			`UPDATE races SET starter_name = '' WHERE starter_id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, userID); err != nil {
				return err
			}
		}
		for _, table := range []string{"players", "ratings", "rating_history", "board_totals"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, userID); err != nil {
				return err
			}
		}
		return nil
	})
	return f, err
}

// ForgetGuild deletes what the store keeps about a server itself: its
// daily post settings, its watched channels and its daily posts made. The
// games and results its members played there are theirs, and stay (see
// ForgetPlayer); so a server kept off the global boards stays off them (a
// row with only that choice is kept).
func (c *core) ForgetGuild(ctx context.Context, guildID string) error {
	if guildID == "" {
		return fmt.Errorf("forget guild: %w: no guild id", ErrInvalid)
	}
	return c.write(ctx, "forget guild "+guildID, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM guild_settings WHERE guild_id = $1 AND global_boards <> 0`, guildID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE guild_settings SET daily_channel = '', daily_hour = 0 WHERE guild_id = $1`, guildID); err != nil {
			return err
		}
		for _, table := range []string{"watched_channels", "posts"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE guild_id = $1`, guildID); err != nil {
				return err
			}
		}
		return nil
	})
}

// deleted is the row count of a DELETE's result.
func deleted(res sql.Result, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
