package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Races and co-op games in an Activity instance: the board page's players
// in one launched instance (or a local room) share them. They run from
// the moment they are opened (no lobby: whoever comes in joins), and an
// instance has at most one open of each kind, kept so by a unique index:
// of two players opening one at once, the second gets the first's.

// OpenInstanceRace returns the open race of nr.Kind in instance, opening
// it from nr (running from nr.Now, nr's starter its first player) when
// there is none. created reports whether this call opened it.
func (c *core) OpenInstanceRace(ctx context.Context, instance string, nr NewRace) (r Race, created bool, err error) {
	switch {
	case instance == "":
		return Race{}, false, fmt.Errorf("open a race in an instance: %w: no instance", ErrInvalid)
	case nr.Kind != KindRace && nr.Kind != KindTogether:
		return Race{}, false, fmt.Errorf("open a race in an instance: %w: kind %q", ErrInvalid, nr.Kind)
	case nr.StarterID == "" || nr.Puzzle == "" || nr.Shape == "":
		return Race{}, false, fmt.Errorf("open a race in an instance: %w: no starter or puzzle", ErrInvalid)
	}
	err = c.write(ctx, "open a race in instance "+instance, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO races (kind, guild_id, channel_id, starter_id, starter_name,
			puzzle, shape, solution, level, title, created_at, status, start_at, instance_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'running', $11, $12)
			ON CONFLICT DO NOTHING RETURNING id`, string(nr.Kind), nr.GuildID, nr.ChannelID, nr.StarterID, nr.Starter,
			nr.Puzzle, nr.Shape, nr.Solution, nr.Level, nr.Title, ms(nr.Now), instance).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			// Another player opened one first: theirs.
			err = tx.QueryRowContext(ctx, `SELECT id FROM races WHERE instance_id = $1 AND kind = $2
				AND status IN ('lobby', 'running')`, instance, string(nr.Kind)).Scan(&id)
			if err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			created = true
			if nr.Kind == KindRace {
				if _, err := tx.ExecContext(ctx, `INSERT INTO race_players (race_id, user_id, user_name, joined_at)
					VALUES ($1, $2, $3, $4)`, id, nr.StarterID, nr.Starter, ms(nr.Now)); err != nil {
					return err
				}
			}
		}
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, created, err
}

// InstanceRace returns the open race of kind in instance, or ErrNotFound.
func (c *core) InstanceRace(ctx context.Context, instance string, kind RaceKind) (Race, error) {
	var id int64
	err := c.r.QueryRowContext(ctx, `SELECT id FROM races WHERE instance_id = $1 AND kind = $2
		AND status IN ('lobby', 'running')`, instance, string(kind)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Race{}, fmt.Errorf("no open %s in instance %s: %w", kind, instance, ErrNotFound)
	}
	if err != nil {
		return Race{}, fmt.Errorf("find the open %s of instance %s: %w", kind, instance, err)
	}
	return c.Race(ctx, id)
}

// RaceInstance returns the instance race id is played in ("" for a race
// in chat).
func (c *core) RaceInstance(ctx context.Context, id int64) (string, error) {
	var instance string
	err := c.r.QueryRowContext(ctx, `SELECT instance_id FROM races WHERE id = $1`, id).Scan(&instance)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("race %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("load race %d: %w", id, err)
	}
	return instance, nil
}

// EnterInstanceRace adds userID to race id, a race open in an instance
// (it takes players while it runs), unless it holds most players already.
// A player in it already stays as they are.
func (c *core) EnterInstanceRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (r Race, err error) {
	err = c.write(ctx, fmt.Sprintf("enter race %d", id), func(tx *sql.Tx) error {
		if r, err = c.loadRace(ctx, tx, id, true); err != nil {
			return err
		}
		if _, in := r.Player(userID); in {
			return nil
		}
		var instance string
		if err := tx.QueryRowContext(ctx, `SELECT instance_id FROM races WHERE id = $1`, id).Scan(&instance); err != nil {
			return err
		}
		if instance == "" || (r.Status != RaceLobby && r.Status != RaceRunning) {
			return ErrRaceClosed
		}
		if len(r.Players) >= most {
			return ErrRaceFull
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO race_players (race_id, user_id, user_name, joined_at)
			VALUES ($1, $2, $3, $4)`, id, userID, name, ms(now)); err != nil {
			return err
		}
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, err
}

// CellMovers returns who placed the value now in each cell of co-op game
// id (cells nobody is credited with are left out).
func (c *core) CellMovers(ctx context.Context, id int64) (map[int]string, error) {
	m, err := cellMovers(ctx, c.r, id)
	if err != nil {
		return nil, fmt.Errorf("read the movers of game %d: %w", id, err)
	}
	return m, nil
}

// PlacedMove is one move of a co-op game as its list of who did what
// shows it: the values one player placed in it.
type PlacedMove struct {
	Seq        int
	By, ByName string // the mover, and their name in the game's race
	Cells      []int
	Values     []uint8
}

// RecentPlacements returns the last n moves of co-op game id that placed
// values, newest first (moves undone are gone from the store, so from
// here too). Only placements are credited to a mover (a clear or a note
// is nobody's), so only they are listed.
func (c *core) RecentPlacements(ctx context.Context, id int64, n int) ([]PlacedMove, error) {
	rows, err := c.r.QueryContext(ctx, `SELECT m.seq, m.cell, m.value, m.mover, COALESCE(p.user_name, '')
		FROM moves m JOIN games g ON g.id = m.game_id
		LEFT JOIN race_players p ON p.race_id = g.race_id AND p.user_id = m.mover
		WHERE m.game_id = $1 AND m.mover <> '' AND m.value <> 0 AND m.value <> m.prev_value
		AND m.seq >= COALESCE((SELECT MIN(seq) FROM (SELECT DISTINCT seq FROM moves
			WHERE game_id = $1 AND mover <> '' AND value <> 0 AND value <> prev_value
			ORDER BY seq DESC LIMIT $2) last), 0)
		ORDER BY m.seq DESC, m.cell`, id, n)
	if err != nil {
		return nil, fmt.Errorf("read the last moves of game %d: %w", id, err)
	}
	defer rows.Close()
	var out []PlacedMove
	for rows.Next() {
		var seq, cell, value int
		var by, name string
		if err := rows.Scan(&seq, &cell, &value, &by, &name); err != nil {
			return nil, fmt.Errorf("read the last moves of game %d: %w", id, err)
		}
		if k := len(out) - 1; k < 0 || out[k].Seq != seq || out[k].By != by {
			out = append(out, PlacedMove{Seq: seq, By: by, ByName: name})
		}
		k := len(out) - 1
		out[k].Cells = append(out[k].Cells, cell)
		out[k].Values = append(out[k].Values, uint8(value))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the last moves of game %d: %w", id, err)
	}
	return out, nil
}
