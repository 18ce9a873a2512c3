package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgQuerier is what the pool and a transaction both offer for reading.
type pgQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func pgLoadGame(ctx context.Context, q pgQuerier, id int64, forUpdate bool) (Game, error) {
	query := `SELECT ` + gameColumns + ` FROM games WHERE id = $1`
	if forUpdate {
		query += ` FOR UPDATE`
	}
	g, err := scanGame(q.QueryRow(ctx, query, id))
	if isNoRows(err) {
		return Game{}, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, nil
}

// pgLoadPlaying locks game id for the rest of tx and fails with ErrFinished
// unless it is still being played.
func pgLoadPlaying(ctx context.Context, tx pgx.Tx, id int64) (Game, error) {
	g, err := pgLoadGame(ctx, tx, id, true)
	if err != nil {
		return Game{}, err
	}
	if g.Status != Playing {
		return Game{}, fmt.Errorf("game %d (%s): %w", id, g.Status, ErrFinished)
	}
	return g, nil
}

func pgSaveBoard(ctx context.Context, tx pgx.Tx, g Game) error {
	_, err := tx.Exec(ctx, `UPDATE games SET entries = $1, pencil = $2, moves_made = $3, hint_stage = $4
		WHERE id = $5`, g.Entries, encodePencil(g.Pencil), g.Moves, g.HintStage, g.ID)
	return err
}

// StartGame records a new game and returns it; see Store.StartGame.
func (p *Postgres) StartGame(ctx context.Context, ng NewGame) (g Game, created bool, err error) {
	if err := checkNewGame(ng); err != nil {
		return Game{}, false, err
	}
	var dailyDate, dailyLevel sql.NullString
	if ng.DailyLevel != "" {
		dailyDate = sql.NullString{String: day(ng.DailyDate), Valid: true}
		dailyLevel = sql.NullString{String: ng.DailyLevel, Valid: true}
	}
	err = p.write(ctx, "start game", func(tx pgx.Tx) error {
		g, err = scanGame(tx.QueryRow(ctx, `INSERT INTO games (user_id, user_name, guild_id, channel_id,
			puzzle, shape, solution, level, entries, pencil, started_at, daily_date, daily_level)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
			ON CONFLICT DO NOTHING RETURNING `+gameColumns,
			ng.UserID, ng.UserName, ng.GuildID, ng.ChannelID, ng.Puzzle, ng.Shape, ng.Solution, ng.Level,
			make([]byte, ng.Cells), make([]byte, 4*ng.Cells), ms(ng.Now), dailyDate, dailyLevel))
		if err == nil {
			created = true
			return nil
		}
		if !isNoRows(err) || !dailyLevel.Valid {
			return err
		}
		// Only the daily index can conflict: return the game already there
		// (committed by the other writer, which this INSERT waited for).
		g, err = scanGame(tx.QueryRow(ctx, `SELECT `+gameColumns+` FROM games
			WHERE user_id = $1 AND daily_date = $2 AND daily_level = $3`,
			ng.UserID, dailyDate, dailyLevel))
		return err
	})
	return g, created, err
}

// checkNewGame refuses a game description neither store can record.
func checkNewGame(ng NewGame) error {
	switch {
	case ng.UserID == "":
		return fmt.Errorf("start game: %w: no user id", ErrInvalid)
	case ng.Puzzle == "" || ng.Shape == "":
		return fmt.Errorf("start game: %w: no puzzle or shape", ErrInvalid)
	case ng.Cells <= 0 || ng.Cells > maxCells:
		return fmt.Errorf("start game: %w: %d cells (want 1 to %d)", ErrInvalid, ng.Cells, maxCells)
	case ng.DailyLevel != "" && ng.DailyDate.IsZero():
		return fmt.Errorf("start game: %w: daily level without a date", ErrInvalid)
	}
	return nil
}

// Game loads game id.
func (p *Postgres) Game(ctx context.Context, id int64) (Game, error) {
	return pgLoadGame(ctx, p.pool, id, false)
}

// DailyGame returns userID's game for the daily puzzle of date's UTC day at
// level, or ErrNotFound.
func (p *Postgres) DailyGame(ctx context.Context, userID string, date time.Time, level string) (Game, error) {
	g, err := scanGame(p.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games
		WHERE user_id = $1 AND daily_date = $2 AND daily_level = $3`, userID, day(date), level))
	if isNoRows(err) {
		return Game{}, fmt.Errorf("daily game of %s for %s %s: %w", userID, day(date), level, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("load daily game of %s for %s %s: %w", userID, day(date), level, err)
	}
	return g, nil
}

// ActiveGames lists userID's games still being played, newest first, at most
// limit of them.
func (p *Postgres) ActiveGames(ctx context.Context, userID string, limit int) ([]Game, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+gameColumns+` FROM games
		WHERE user_id = $1 AND status = 'playing' ORDER BY id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("list active games of %s: %w", userID, err)
	}
	defer rows.Close()
	var games []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("list active games of %s: %w", userID, err)
		}
		games = append(games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list active games of %s: %w", userID, err)
	}
	return games, nil
}

// MarkViewed records now as the moment the player first saw game id; later
// calls keep the first time. It returns the game.
func (p *Postgres) MarkViewed(ctx context.Context, id int64, now time.Time) (Game, error) {
	var g Game
	err := p.write(ctx, fmt.Sprintf("mark game %d viewed", id), func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE games SET viewed_at = $1 WHERE id = $2 AND viewed_at IS NULL`, ms(now), id); err != nil {
			return err
		}
		var err error
		g, err = pgLoadGame(ctx, tx, id, false)
		return err
	})
	return g, err
}

// moveStep is one cell of a move batch: what it was and what it becomes.
type moveStep struct {
	cell               int
	prevValue, value   uint8
	prevPencil, pencil uint32
}

// planMoves checks changes against g and folds them into one step per
// cell (the last change of a cell wins; its undo goes back to before the
// batch). Steps that change nothing are kept; the caller skips them.
func planMoves(g Game, changes []Change) ([]moveStep, error) {
	cells := len(g.Entries)
	n := side(cells)
	valid := uint32(1)<<n - 1 // bits 0..n-1 for values 1..n
	var steps []moveStep
	at := map[int]int{}
	for _, c := range changes {
		switch {
		case c.Cell < 0 || c.Cell >= cells:
			return nil, fmt.Errorf("%w: cell %d is off the %d-cell board", ErrInvalid, c.Cell, cells)
		case int(c.Value) > n:
			return nil, fmt.Errorf("%w: value %d is over %d", ErrInvalid, c.Value, n)
		case c.Pencil&^valid != 0:
			return nil, fmt.Errorf("%w: pencil marks %b hold values outside 1..%d", ErrInvalid, c.Pencil, n)
		}
		if i, ok := at[c.Cell]; ok {
			steps[i].value, steps[i].pencil = c.Value, c.Pencil
			continue
		}
		at[c.Cell] = len(steps)
		steps = append(steps, moveStep{c.Cell, g.Entries[c.Cell], c.Value, g.Pencil[c.Cell], c.Pencil})
	}
	return steps, nil
}

// ApplyMoves applies a batch of changes to game id as one undoable move and
// returns the game; see Store.ApplyMoves.
func (p *Postgres) ApplyMoves(ctx context.Context, id int64, changes []Change) (Game, error) {
	var g Game
	err := p.write(ctx, fmt.Sprintf("apply moves to game %d", id), func(tx pgx.Tx) error {
		var err error
		g, err = pgApplyMoves(ctx, tx, id, changes)
		return err
	})
	return g, err
}

// Move applies changes to game id like ApplyMoves and, when the entries
// then equal solved (the solution in every cell the puzzle leaves empty, 0
// on the givens), finishes the game as Solved at now, recording a daily's
// result, all in one transaction: a crash leaves either the board as it
// was or the finished game with its result. A nil solved never finishes.
func (p *Postgres) Move(ctx context.Context, id int64, changes []Change, solved []uint8, now time.Time) (Finished, error) {
	var f Finished
	err := p.write(ctx, fmt.Sprintf("move in game %d", id), func(tx pgx.Tx) error {
		g, err := pgApplyMoves(ctx, tx, id, changes)
		if err != nil {
			return err
		}
		f = Finished{Game: g}
		if solved == nil || !bytes.Equal(g.Entries, solved) {
			return nil
		}
		f, err = pgFinish(ctx, tx, id, Solved, now)
		return err
	})
	return f, err
}

// pgApplyMoves is ApplyMoves inside tx, with the game row locked.
func pgApplyMoves(ctx context.Context, tx pgx.Tx, id int64, changes []Change) (Game, error) {
	g, err := pgLoadPlaying(ctx, tx, id)
	if err != nil {
		return Game{}, err
	}
	steps, err := planMoves(g, changes)
	if err != nil {
		return Game{}, err
	}
	var seq int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = $1`, id).Scan(&seq); err != nil {
		return Game{}, err
	}
	changed := false
	for _, st := range steps {
		if st.prevValue == st.value && st.prevPencil == st.pencil {
			continue
		}
		changed = true
		g.Entries[st.cell], g.Pencil[st.cell] = st.value, st.pencil
		if _, err := tx.Exec(ctx, `INSERT INTO moves (game_id, seq, cell, prev_value, prev_pencil, value, pencil)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, seq, st.cell, int16(st.prevValue), int64(st.prevPencil),
			int16(st.value), int64(st.pencil)); err != nil {
			return Game{}, err
		}
	}
	if !changed {
		return g, nil
	}
	g.Moves++
	g.HintStage = 0
	return g, pgSaveBoard(ctx, tx, g)
}

// Undo takes back the last move of game id and returns the game, or fails
// with ErrNothingToUndo.
func (p *Postgres) Undo(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := p.write(ctx, fmt.Sprintf("undo in game %d", id), func(tx pgx.Tx) error {
		var err error
		if g, err = pgLoadPlaying(ctx, tx, id); err != nil {
			return err
		}
		var seq sql.NullInt64
		if err := tx.QueryRow(ctx, `SELECT MAX(seq) FROM moves WHERE game_id = $1`, id).Scan(&seq); err != nil {
			return err
		}
		if !seq.Valid {
			return ErrNothingToUndo
		}
		rows, err := tx.Query(ctx, `SELECT cell, prev_value, prev_pencil FROM moves WHERE game_id = $1 AND seq = $2`, id, seq.Int64)
		if err != nil {
			return err
		}
		for rows.Next() {
			var cell int
			var v int16
			var pm int64
			if err := rows.Scan(&cell, &v, &pm); err != nil {
				rows.Close()
				return err
			}
			if cell < 0 || cell >= len(g.Entries) {
				rows.Close()
				return fmt.Errorf("move %d touches cell %d, off the board", seq.Int64, cell)
			}
			g.Entries[cell], g.Pencil[cell] = uint8(v), uint32(pm)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM moves WHERE game_id = $1 AND seq = $2`, id, seq.Int64); err != nil {
			return err
		}
		g.Moves = max(g.Moves-1, 0)
		g.HintStage = 0
		return pgSaveBoard(ctx, tx, g)
	})
	return g, err
}

// MoveCount reports how many moves game id has that Undo could take back.
func (p *Postgres) MoveCount(ctx context.Context, id int64) (int, error) {
	var n int
	if err := p.pool.QueryRow(ctx, `SELECT COUNT(DISTINCT seq) FROM moves WHERE game_id = $1`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("count moves of game %d: %w", id, err)
	}
	return n, nil
}

// RecordHint counts one hint given in game id and remembers stage as how far
// the progressive hint for this position has gone. It returns the game.
func (p *Postgres) RecordHint(ctx context.Context, id int64, stage int) (Game, error) {
	return p.bump(ctx, fmt.Sprintf("record hint in game %d", id), id,
		`UPDATE games SET hints_used = hints_used + 1, hint_stage = $2 WHERE id = $1`, stage)
}

// RecordCheck counts one check of game id and returns the game.
func (p *Postgres) RecordCheck(ctx context.Context, id int64) (Game, error) {
	return p.bump(ctx, fmt.Sprintf("record check in game %d", id), id,
		`UPDATE games SET checks_used = checks_used + 1 WHERE id = $1`)
}

// bump runs update ($1 = id) on a game still being played and returns it.
func (p *Postgres) bump(ctx context.Context, what string, id int64, update string, args ...any) (Game, error) {
	var g Game
	err := p.write(ctx, what, func(tx pgx.Tx) error {
		if _, err := pgLoadPlaying(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, update, append([]any{id}, args...)...); err != nil {
			return err
		}
		var err error
		g, err = pgLoadGame(ctx, tx, id, false)
		return err
	})
	return g, err
}

// Finish ends game id with status (Solved or GaveUp) at now; see
// Store.Finish. Exactly one of any number of concurrent calls, from any
// number of processes, finishes the game: the UPDATE … WHERE status =
// 'playing' takes the row lock, and the losers re-read the row after the
// winner commits and match nothing. A solved daily is recorded in the same
// transaction, at most once per user, day and level.
func (p *Postgres) Finish(ctx context.Context, id int64, status Status, now time.Time) (Finished, error) {
	if status != Solved && status != GaveUp {
		return Finished{}, fmt.Errorf("finish game %d: %w: status %q", id, ErrInvalid, status)
	}
	var f Finished
	err := p.write(ctx, fmt.Sprintf("finish game %d", id), func(tx pgx.Tx) error {
		var err error
		f, err = pgFinish(ctx, tx, id, status, now)
		return err
	})
	return f, err
}

// pgFinish is Finish inside tx.
func pgFinish(ctx context.Context, tx pgx.Tx, id int64, status Status, now time.Time) (Finished, error) {
	var f Finished
	tag, err := tx.Exec(ctx, `UPDATE games SET status = $1, finished_at = $2 WHERE id = $3 AND status = 'playing'`,
		string(status), ms(now), id)
	if err != nil {
		return Finished{}, err
	}
	if f.Game, err = pgLoadGame(ctx, tx, id, false); err != nil {
		return Finished{}, err
	}
	f.Now = tag.RowsAffected() == 1
	if f.Now {
		// A finished game takes no more moves, so its undo log goes.
		if _, err := tx.Exec(ctx, `DELETE FROM moves WHERE game_id = $1`, id); err != nil {
			return Finished{}, fmt.Errorf("drop undo log: %w", err)
		}
	}
	if !f.Now || status != Solved || !f.Game.IsDaily() {
		return f, nil
	}
	r := f.Game.result(now)
	tag, err = tx.Exec(ctx, `INSERT INTO daily_results (user_id, daily_date, level, user_name, guild_id,
		game_id, duration_ms, hints, checks, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT DO NOTHING`,
		r.UserID, day(r.Date), r.Level, r.UserName, r.GuildID, r.GameID, r.Duration.Milliseconds(),
		r.Hints, r.Checks, ms(now))
	if err != nil {
		return Finished{}, fmt.Errorf("record daily result: %w", err)
	}
	if tag.RowsAffected() == 1 {
		f.Result = &r
	}
	return f, nil
}
