package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Skill ratings: each rated game is one game between the player and the
// puzzle (package commands scores it and does the arithmetic, through a
// Rater); the store keeps each player's rating, one history row per rated
// game, and the ratings of puzzles kept by name (the dailies).

// Rating is a player's or a puzzle's rating (Glicko-2's three numbers)
// and how many rated games made it.
type Rating struct {
	Rating, Deviation, Volatility float64
	Games                         int
	UpdatedAt                     time.Time
}

// RatingChange is one rated game in a player's history.
type RatingChange struct {
	GameID int64
	UserID string
	At     time.Time
	// Score is the game's outcome, 0 to 1; PuzzleRating the puzzle's
	// rating it was played against.
	Score, PuzzleRating float64
	// Before and After are the player's rating around the game, Deviation
	// the deviation after it.
	Before, After, Deviation float64
}

// RatedGame asks RateGame to rate one finished game.
type RatedGame struct {
	GameID int64
	UserID string
	// Puzzle names a puzzle whose rating is kept ("daily 2026-11-27
	// easy"); "" rates against PuzzleSeed and keeps nothing.
	Puzzle string
	// PuzzleSeed is the puzzle's rating when none is kept yet;
	// PlayerSeed the player's when they were never rated.
	PuzzleSeed, PlayerSeed Rating
	Score                  float64
	At                     time.Time
}

// Rater works out the player's and the puzzle's new ratings after a game
// from their ratings before it (Games and UpdatedAt are the store's).
type Rater func(player, puzzle Rating) (Rating, Rating)

// RateGame rates game rg.GameID, a finished game of rg.UserID, once: in one
// transaction it locks the player's rating (and the puzzle's), gives them
// to rate, and records the new ratings and a history row. A game already
// rated, by this process or another, changes nothing: ok is then false
// and the change is the one recorded.
func (c *core) RateGame(ctx context.Context, rg RatedGame, rate Rater) (ch RatingChange, ok bool, err error) {
	if rg.GameID == 0 || rg.UserID == "" || rate == nil {
		return RatingChange{}, false, fmt.Errorf("rate game: %w: game, user and rater are required", ErrInvalid)
	}
	err = c.write(ctx, fmt.Sprintf("rate game %d", rg.GameID), func(tx *sql.Tx) error {
		ok = false
		var owner string
		var status Status
		err := tx.QueryRowContext(ctx, `SELECT user_id, status FROM games WHERE id = $1`, rg.GameID).Scan(&owner, &status)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("game %d: %w", rg.GameID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if owner != rg.UserID || status == Playing {
			return fmt.Errorf("%w: game %d is not a finished game of %s", ErrInvalid, rg.GameID, rg.UserID)
		}
		// The player's row, locked: two games of one player finishing at
		// once on two processes are rated one after the other.
		player, err := c.lockRating(ctx, tx, "ratings", "user_id", rg.UserID, rg.PlayerSeed, rg.At)
		if err != nil {
			return err
		}
		if ch, err = scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM rating_history WHERE game_id = $1`, rg.GameID)); err == nil {
			return nil // rated already
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		puzzle := rg.PuzzleSeed
		if rg.Puzzle != "" {
			if puzzle, err = c.lockRating(ctx, tx, "puzzle_ratings", "puzzle", rg.Puzzle, rg.PuzzleSeed, rg.At); err != nil {
				return err
			}
		}
		np, nz := rate(player, puzzle)
		ch = RatingChange{GameID: rg.GameID, UserID: rg.UserID, At: fromMS(ms(rg.At)), Score: rg.Score,
			PuzzleRating: puzzle.Rating, Before: player.Rating, After: np.Rating, Deviation: np.Deviation}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (game_id, user_id, rated_at, score, puzzle_rating, prior, rating, deviation, seq)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, ch.GameID, ch.UserID, ms(ch.At), ch.Score, ch.PuzzleRating,
			ch.Before, ch.After, ch.Deviation, player.Games+1); err != nil {
			return fmt.Errorf("record rating history: %w", err)
		}
		if err := saveRating(ctx, tx, "ratings", "user_id", rg.UserID, np, rg.At); err != nil {
			return err
		}
		if rg.Puzzle != "" {
			if err := saveRating(ctx, tx, "puzzle_ratings", "puzzle", rg.Puzzle, nz, rg.At); err != nil {
				return err
			}
		}
		ok = true
		return nil
	})
	return ch, ok, err
}

// lockRating returns the rating in table keyed by key = id, made from
// seed first when there is none, locked for the rest of tx.
func (c *core) lockRating(ctx context.Context, tx *sql.Tx, table, key, id string, seed Rating, now time.Time) (Rating, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (`+key+`, rating, deviation, volatility, games, updated_at)
		VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT DO NOTHING`, id, seed.Rating, seed.Deviation, seed.Volatility, ms(now)); err != nil {
		return Rating{}, fmt.Errorf("seed %s of %s: %w", table, id, err)
	}
	r, err := scanRating(tx.QueryRowContext(ctx, `SELECT rating, deviation, volatility, games, updated_at FROM `+table+
		` WHERE `+key+` = $1`+c.d.forUpdate, id))
	if err != nil {
		return Rating{}, fmt.Errorf("load %s of %s: %w", table, id, err)
	}
	return r, nil
}

// saveRating writes r into table's row keyed by key = id, one game more.
func saveRating(ctx context.Context, tx *sql.Tx, table, key, id string, r Rating, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE `+table+` SET rating = $1, deviation = $2, volatility = $3, games = games + 1,
		updated_at = $4 WHERE `+key+` = $5`, r.Rating, r.Deviation, r.Volatility, ms(now), id)
	if err != nil {
		return fmt.Errorf("save %s of %s: %w", table, id, err)
	}
	return nil
}

func scanRating(row scanner) (Rating, error) {
	var r Rating
	var at int64
	if err := row.Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Games, &at); err != nil {
		return Rating{}, err
	}
	r.UpdatedAt = fromMS(at)
	return r, nil
}

const changeColumns = `game_id, user_id, rated_at, score, puzzle_rating, prior, rating, deviation`

func scanChange(row scanner) (RatingChange, error) {
	var ch RatingChange
	var at int64
	if err := row.Scan(&ch.GameID, &ch.UserID, &at, &ch.Score, &ch.PuzzleRating, &ch.Before, &ch.After, &ch.Deviation); err != nil {
		return RatingChange{}, err
	}
	ch.At = fromMS(at)
	return ch, nil
}

// PlayerRating returns userID's rating; ok is false for a player never
// rated.
func (c *core) PlayerRating(ctx context.Context, userID string) (r Rating, ok bool, err error) {
	r, err = scanRating(c.r.QueryRowContext(ctx, `SELECT rating, deviation, volatility, games, updated_at FROM ratings WHERE user_id = $1`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, false, nil
	}
	if err != nil {
		return Rating{}, false, fmt.Errorf("rating of %s: %w", userID, err)
	}
	return r, true, nil
}

// PuzzleRating returns the kept rating of puzzle; ok is false when none
// is kept.
func (c *core) PuzzleRating(ctx context.Context, puzzle string) (r Rating, ok bool, err error) {
	r, err = scanRating(c.r.QueryRowContext(ctx, `SELECT rating, deviation, volatility, games, updated_at FROM puzzle_ratings WHERE puzzle = $1`, puzzle))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, false, nil
	}
	if err != nil {
		return Rating{}, false, fmt.Errorf("rating of puzzle %s: %w", puzzle, err)
	}
	return r, true, nil
}

// RatingHistory returns userID's last limit rated games (≤ 0: all),
// the last rated first (in the order their ratings changed, not by the
// clock).
func (c *core) RatingHistory(ctx context.Context, userID string, limit int) ([]RatingChange, error) {
	if limit <= 0 {
		limit = 1<<31 - 1
	}
	out, err := queryAll(ctx, c.r, scanChange, `SELECT `+changeColumns+` FROM rating_history
		WHERE user_id = $1 ORDER BY seq DESC, game_id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("rating history of %s: %w", userID, err)
	}
	return out, nil
}
