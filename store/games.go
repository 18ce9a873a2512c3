package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// Status is where a game stands.
type Status string

// The statuses of a game.
const (
	Playing Status = "playing"
	Solved  Status = "solved"
	GaveUp  Status = "gave_up"
)

// maxCells bounds a board: 25x25 is the largest shape the engine knows.
const maxCells = 25 * 25

// Game is one player's board and how they got there.
type Game struct {
	ID        int64
	UserID    string
	UserName  string
	GuildID   string // empty in DMs
	ChannelID string

	// Puzzle is the puzzle in its one-line form, Shape its box shape as the
	// engine writes it ("3x3"), Solution the solved one-line form when the
	// caller stored it, and Level the level it was made for.
	Puzzle, Shape, Solution, Level string

	// Entries holds the player's value in each cell, row by row, 0 when
	// empty (givens are in Puzzle, not repeated here). Pencil holds each
	// cell's pencil marks: bit v-1 set means v is pencilled in (as package
	// render draws them).
	Entries []uint8
	Pencil  []uint32

	StartedAt  time.Time
	ViewedAt   time.Time // when the player first saw the board; zero until then
	FinishedAt time.Time // zero while playing

	Hints  int // hints asked for
	Checks int // checks asked for
	Moves  int // move batches applied (undone ones are taken off)
	// HintStage is how far the progressive hint for the current position
	// has gone (0 = none shown yet); any move resets it.
	HintStage int

	Status Status
	// Flag says why a solve was marked unfair (a Judge's reason), or is ""
	// for a fair one and for every game not solved.
	Flag string

	// DailyDate (a UTC midnight) and DailyLevel are set when the game is a
	// daily puzzle.
	DailyDate  time.Time
	DailyLevel string
	// ArchiveDate (a UTC midnight) is set on a past daily replayed from
	// the archive: an ordinary game (no daily result), Level its level.
	ArchiveDate time.Time
	// RaceID is the race (or co-op game) the game belongs to, or 0.
	RaceID int64
	// Score is the puzzle's Sudoku Explainer score as NewGame gave it (0:
	// unknown).
	Score float64
}

// IsDaily reports whether g is one of the day's puzzles.
func (g Game) IsDaily() bool { return g.DailyLevel != "" }

// Elapsed is the playing time at now (or at the finish, once finished),
// counted from the first view, or from the start when never viewed.
func (g Game) Elapsed(now time.Time) time.Duration {
	from := g.StartedAt
	if !g.ViewedAt.IsZero() {
		from = g.ViewedAt
	}
	to := now
	if !g.FinishedAt.IsZero() {
		to = g.FinishedAt
	}
	if d := to.Sub(from); d > 0 {
		return d
	}
	return 0
}

// NewGame describes a game to start.
type NewGame struct {
	UserID, UserName, GuildID, ChannelID string
	Puzzle, Shape, Solution, Level       string
	// Cells is the number of cells on the board (81 for 9x9).
	Cells int
	// DailyDate and DailyLevel make it a daily game; DailyDate is reduced to
	// its UTC day.
	DailyDate  time.Time
	DailyLevel string
	// ArchiveDate makes it a replay of that day's daily (not a daily game:
	// no result is recorded); reduced to its UTC day.
	ArchiveDate time.Time
	// RaceID ties the game to a race; Viewed, when set, starts its clock
	// then (a race's start) instead of at the first view.
	RaceID int64
	Viewed time.Time
	// Score is the puzzle's Sudoku Explainer score, when the caller knows
	// it (0: unknown); a rated game seeds the puzzle's rating from it.
	Score float64
	Now   time.Time
}

// Change sets one cell: its value (0 clears it) and its pencil marks.
type Change struct {
	Cell   int
	Value  uint8
	Pencil uint32
}

// dayFormat is how daily dates are written in the database.
const dayFormat = time.DateOnly

func day(t time.Time) string { return t.UTC().Format(dayFormat) }

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func encodePencil(p []uint32) []byte {
	b := make([]byte, 4*len(p))
	for i, v := range p {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func decodePencil(b []byte) ([]uint32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("pencil marks are %d bytes, not a multiple of 4", len(b))
	}
	p := make([]uint32, len(b)/4)
	for i := range p {
		p[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return p, nil
}

// side returns N for a board of cells = N*N cells.
func side(cells int) int {
	n := 0
	for n*n < cells {
		n++
	}
	return n
}

const gameColumns = `id, user_id, user_name, guild_id, channel_id, puzzle, shape, solution, level,
	entries, pencil, started_at, viewed_at, finished_at, hints_used, hint_stage, checks_used,
	moves_made, status, daily_date, daily_level, flag, archive_date, race_id, se_score`

type scanner interface{ Scan(dest ...any) error }

func scanGame(row scanner) (Game, error) {
	var (
		g                   Game
		entries, pencil     []byte
		started             int64
		viewed, finished    sql.NullInt64
		status              string
		dailyDate, dailyLvl sql.NullString
		archive             sql.NullString
		race                sql.NullInt64
	)
	err := row.Scan(&g.ID, &g.UserID, &g.UserName, &g.GuildID, &g.ChannelID, &g.Puzzle, &g.Shape,
		&g.Solution, &g.Level, &entries, &pencil, &started, &viewed, &finished, &g.Hints,
		&g.HintStage, &g.Checks, &g.Moves, &status, &dailyDate, &dailyLvl, &g.Flag, &archive, &race, &g.Score)
	if err != nil {
		return Game{}, err
	}
	g.Entries = entries
	if g.Pencil, err = decodePencil(pencil); err != nil {
		return Game{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	g.StartedAt = fromMS(started)
	if viewed.Valid {
		g.ViewedAt = fromMS(viewed.Int64)
	}
	if finished.Valid {
		g.FinishedAt = fromMS(finished.Int64)
	}
	g.Status = Status(status)
	g.RaceID = race.Int64
	if dailyDate.Valid {
		d, err := time.Parse(dayFormat, dailyDate.String)
		if err != nil {
			return Game{}, fmt.Errorf("game %d: daily date %q: %w", g.ID, dailyDate.String, err)
		}
		g.DailyDate = d
		g.DailyLevel = dailyLvl.String
	}
	if archive.Valid {
		d, err := time.Parse(dayFormat, archive.String)
		if err != nil {
			return Game{}, fmt.Errorf("game %d: archive date %q: %w", g.ID, archive.String, err)
		}
		g.ArchiveDate = d
	}
	return g, nil
}

// loadGame loads game id; with lock, the row stays locked for the rest of
// q's transaction (where the dialect has row locks).
func (c *core) loadGame(ctx context.Context, q querier, id int64, lock bool) (Game, error) {
	query := `SELECT ` + gameColumns + ` FROM games WHERE id = $1`
	if lock {
		query += c.d.forUpdate
	}
	g, err := scanGame(q.QueryRowContext(ctx, query, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, nil
}

// checkNewGame refuses a game description no store can record.
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
	case ng.DailyLevel != "" && !ng.ArchiveDate.IsZero():
		return fmt.Errorf("start game: %w: a daily game can't be an archive replay too", ErrInvalid)
	}
	return nil
}

// StartGame records a new game and returns it. For a daily game, a user who
// already has a game for that day and level gets that game back instead
// (created is then false), whatever its status: a daily is played once.
func (c *core) StartGame(ctx context.Context, ng NewGame) (g Game, created bool, err error) {
	if err := checkNewGame(ng); err != nil {
		return Game{}, false, err
	}
	var dailyDate, dailyLevel sql.NullString
	if ng.DailyLevel != "" {
		dailyDate = sql.NullString{String: day(ng.DailyDate), Valid: true}
		dailyLevel = sql.NullString{String: ng.DailyLevel, Valid: true}
	}
	err = c.write(ctx, "start game", func(tx *sql.Tx) error {
		g, err = c.insertGame(ctx, tx, ng)
		if err == nil {
			created = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) || !dailyLevel.Valid {
			return err
		}
		// Only the daily index can conflict: return the game already there
		// (committed by the other writer, which this INSERT waited for).
		g, err = scanGame(tx.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games
			WHERE user_id = $1 AND daily_date = $2 AND daily_level = $3`,
			ng.UserID, dailyDate, dailyLevel))
		return err
	})
	return g, created, err
}

// insertGame inserts the game ng describes (checked by checkNewGame) and
// returns it, or sql.ErrNoRows when a conflict left the table as it was.
func (c *core) insertGame(ctx context.Context, tx *sql.Tx, ng NewGame) (Game, error) {
	var dailyDate, dailyLevel, archive sql.NullString
	var race, viewed sql.NullInt64
	if ng.DailyLevel != "" {
		dailyDate = sql.NullString{String: day(ng.DailyDate), Valid: true}
		dailyLevel = sql.NullString{String: ng.DailyLevel, Valid: true}
	}
	if !ng.ArchiveDate.IsZero() {
		archive = sql.NullString{String: day(ng.ArchiveDate), Valid: true}
	}
	if ng.RaceID != 0 {
		race = sql.NullInt64{Int64: ng.RaceID, Valid: true}
	}
	if !ng.Viewed.IsZero() {
		viewed = sql.NullInt64{Int64: ms(ng.Viewed), Valid: true}
	}
	args := []any{ng.UserID, ng.UserName, ng.GuildID, ng.ChannelID, ng.Puzzle, ng.Shape,
		ng.Solution, ng.Level, make([]byte, ng.Cells), make([]byte, 4*ng.Cells), ms(ng.Now), dailyDate, dailyLevel, archive,
		race, viewed, ng.Score}
	const insert = `INSERT INTO games (user_id, user_name, guild_id, channel_id, puzzle, shape, solution,
		level, entries, pencil, started_at, daily_date, daily_level, archive_date, race_id, viewed_at, se_score)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING`
	if !c.d.lastInsertID {
		return scanGame(tx.QueryRowContext(ctx, insert+` RETURNING `+gameColumns, args...))
	}
	res, err := tx.ExecContext(ctx, insert, args...)
	if err != nil {
		return Game{}, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return Game{}, cmp.Or(err, sql.ErrNoRows)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Game{}, err
	}
	return c.loadGame(ctx, tx, id, false)
}

// Game loads game id.
func (c *core) Game(ctx context.Context, id int64) (Game, error) {
	return c.loadGame(ctx, c.r, id, false)
}

// DailyGame returns userID's game for the daily puzzle of date's UTC day at
// level, or ErrNotFound.
func (c *core) DailyGame(ctx context.Context, userID string, date time.Time, level string) (Game, error) {
	g, err := scanGame(c.r.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games
		WHERE user_id = $1 AND daily_date = $2 AND daily_level = $3`, userID, day(date), level))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("daily game of %s for %s %s: %w", userID, day(date), level, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("load daily game of %s for %s %s: %w", userID, day(date), level, err)
	}
	return g, nil
}

// ActiveGames lists userID's games still being played, newest first, at most
// limit of them.
func (c *core) ActiveGames(ctx context.Context, userID string, limit int) ([]Game, error) {
	games, err := queryAll(ctx, c.r, scanGame, `SELECT `+gameColumns+` FROM games
		WHERE user_id = $1 AND status = 'playing' ORDER BY id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("list active games of %s: %w", userID, err)
	}
	return games, nil
}

// queryAll runs query on q and reads every row with scan.
func queryAll[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// MarkViewed records now as the moment the player first saw game id; later
// calls keep the first time. It returns the game.
func (c *core) MarkViewed(ctx context.Context, id int64, now time.Time) (Game, error) {
	var g Game
	err := c.write(ctx, fmt.Sprintf("mark game %d viewed", id), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET viewed_at = $1 WHERE id = $2 AND viewed_at IS NULL`, ms(now), id); err != nil {
			return err
		}
		var err error
		g, err = c.loadGame(ctx, tx, id, false)
		return err
	})
	return g, err
}

// loadPlaying loads game id inside tx, locked for the rest of it, and fails
// with ErrFinished unless it is still being played.
func (c *core) loadPlaying(ctx context.Context, tx *sql.Tx, id int64) (Game, error) {
	g, err := c.loadGame(ctx, tx, id, true)
	if err != nil {
		return Game{}, err
	}
	if g.Status != Playing {
		return Game{}, fmt.Errorf("game %d (%s): %w", id, g.Status, ErrFinished)
	}
	return g, nil
}

func saveBoard(ctx context.Context, tx *sql.Tx, g Game) error {
	_, err := tx.ExecContext(ctx, `UPDATE games SET entries = $1, pencil = $2, moves_made = $3, hint_stage = $4
		WHERE id = $5`, g.Entries, encodePencil(g.Pencil), g.Moves, g.HintStage, g.ID)
	return err
}

// ApplyMoves applies a batch of changes to game id as one undoable move and
// returns the game. Changes that leave a cell as it was are dropped; when
// none is left no move is recorded. A cell changed twice in a batch ends with
// the last change and undoes to its value before the batch. Any move resets
// the progressive hint.
func (c *core) ApplyMoves(ctx context.Context, id int64, changes []Change) (Game, error) {
	var g Game
	err := c.write(ctx, fmt.Sprintf("apply moves to game %d", id), func(tx *sql.Tx) error {
		var err error
		if g, err = c.applyMoves(ctx, tx, id, changes, ""); err != nil {
			return err
		}
		return c.changed(ctx, tx, moveChange(g, ""))
	})
	if err == nil {
		c.committed(moveChange(g, ""))
	}
	return g, err
}

// moveChange is what watchers hear of a move on g by mover ("": the
// game's player).
func moveChange(g Game, mover string) GameChange {
	return GameChange{Game: g.ID, Race: g.RaceID, By: cmp.Or(mover, g.UserID)}
}

// Move applies changes to game id like ApplyMoves and, when the entries
// then equal solved (the solution's value in every cell the puzzle leaves
// empty, 0 on the givens), finishes the game as Solved at now, recording a
// daily's result, all in one transaction: a crash leaves either the board
// as it was, or the finished game with its result, never a full, right
// board still "playing". Finished.Now reports whether this call finished
// it; Finished.Game is the game either way. A nil solved never finishes.
// judge, when not nil, is asked about the game as it finishes (see Judge).
func (c *core) Move(ctx context.Context, id int64, changes []Change, solved []uint8, now time.Time, judge Judge) (Finished, error) {
	return c.move(ctx, id, "", changes, solved, now, judge)
}

// MoveBy is Move on a game several people play (a co-op game): each
// value placed is credited to mover until someone changes that cell
// (Movers counts them), and Undo gives the credit back.
func (c *core) MoveBy(ctx context.Context, id int64, mover string, changes []Change, solved []uint8, now time.Time) (Finished, error) {
	if mover == "" {
		return Finished{}, fmt.Errorf("move in game %d: %w: no mover", id, ErrInvalid)
	}
	return c.move(ctx, id, mover, changes, solved, now, nil)
}

func (c *core) move(ctx context.Context, id int64, mover string, changes []Change, solved []uint8, now time.Time, judge Judge) (Finished, error) {
	var f Finished
	err := c.write(ctx, fmt.Sprintf("move in game %d", id), func(tx *sql.Tx) error {
		g, err := c.applyMoves(ctx, tx, id, changes, mover)
		if err != nil {
			return err
		}
		f = Finished{Game: g}
		if solved != nil && bytes.Equal(g.Entries, solved) {
			if f, err = c.finish(ctx, tx, id, Solved, now, judge); err != nil {
				return err
			}
		}
		return c.changed(ctx, tx, moveChange(g, mover))
	})
	if err == nil {
		c.committed(moveChange(f.Game, mover))
	}
	return f, err
}

// Judge decides, inside the transaction that solves a game, whether the
// solve was fair: it gets the game as finished (FinishedAt, Moves and the
// counts final) and returns "" for a fair solve or a short reason, kept as
// the game's and the daily result's Flag. The store records the reason;
// the caller owns the rule.
type Judge func(g Game) string

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

// applyMoves is ApplyMoves inside tx, with the game row locked; a mover
// ("" for a game of one player) is credited with the values placed.
func (c *core) applyMoves(ctx context.Context, tx *sql.Tx, id int64, changes []Change, mover string) (Game, error) {
	g, err := c.loadPlaying(ctx, tx, id)
	if err != nil {
		return Game{}, err
	}
	steps, err := planMoves(g, changes)
	if err != nil {
		return Game{}, err
	}
	var seq int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = $1`, id).Scan(&seq); err != nil {
		return Game{}, err
	}
	var movers map[int]string
	if mover != "" {
		if movers, err = cellMovers(ctx, tx, id); err != nil {
			return Game{}, err
		}
	}
	changed := false
	for _, st := range steps {
		if st.prevValue == st.value && st.prevPencil == st.pencil {
			continue
		}
		changed = true
		g.Entries[st.cell], g.Pencil[st.cell] = st.value, st.pencil
		prevMover, newMover := movers[st.cell], ""
		if mover != "" {
			newMover = prevMover
			if st.value != st.prevValue {
				newMover = mover
				if st.value == 0 {
					newMover = ""
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, seq, cell, prev_value, prev_pencil, value, pencil, mover, prev_mover)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, id, seq, st.cell, int(st.prevValue), int64(st.prevPencil),
			int(st.value), int64(st.pencil), newMover, prevMover); err != nil {
			return Game{}, err
		}
		if newMover != prevMover {
			if err := setCellMover(ctx, tx, id, st.cell, newMover); err != nil {
				return Game{}, err
			}
		}
	}
	if !changed {
		return g, nil
	}
	g.Moves++
	g.HintStage = 0
	return g, saveBoard(ctx, tx, g)
}

// Undo takes back the last move of game id and returns the game, or fails
// with ErrNothingToUndo.
func (c *core) Undo(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := c.write(ctx, fmt.Sprintf("undo in game %d", id), func(tx *sql.Tx) error {
		var err error
		if g, err = c.loadPlaying(ctx, tx, id); err != nil {
			return err
		}
		var seq sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM moves WHERE game_id = $1`, id).Scan(&seq); err != nil {
			return err
		}
		if !seq.Valid {
			return ErrNothingToUndo
		}
		if err := undoStep(ctx, tx, g, seq.Int64); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = $1 AND seq = $2`, id, seq.Int64); err != nil {
			return err
		}
		g.Moves = max(g.Moves-1, 0)
		g.HintStage = 0
		if err := saveBoard(ctx, tx, g); err != nil {
			return err
		}
		return c.changed(ctx, tx, GameChange{Game: g.ID, Race: g.RaceID})
	})
	if err == nil {
		c.committed(GameChange{Game: g.ID, Race: g.RaceID})
	}
	return g, err
}

// undoStep puts back in g's board the cells move seq changed, as they were
// before it.
func undoStep(ctx context.Context, tx *sql.Tx, g Game, seq int64) error {
	type credit struct {
		cell          int
		mover, before string
	}
	var credits []credit
	rows, err := tx.QueryContext(ctx, `SELECT cell, prev_value, prev_pencil, mover, prev_mover FROM moves WHERE game_id = $1 AND seq = $2`, g.ID, seq)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var cell, v int
		var p int64
		var mover, prev string
		if err := rows.Scan(&cell, &v, &p, &mover, &prev); err != nil {
			return err
		}
		if cell < 0 || cell >= len(g.Entries) {
			return fmt.Errorf("move %d touches cell %d, off the board", seq, cell)
		}
		g.Entries[cell], g.Pencil[cell] = uint8(v), uint32(p)
		if mover != prev {
			credits = append(credits, credit{cell, mover, prev})
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	for _, c := range credits {
		if err := setCellMover(ctx, tx, g.ID, c.cell, c.before); err != nil {
			return err
		}
	}
	return nil
}

// cellMovers reads who placed the value in each cell of game id (co-op
// games only).
func cellMovers(ctx context.Context, q querier, id int64) (map[int]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT cell, user_id FROM cell_movers WHERE game_id = $1`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int]string{}
	for rows.Next() {
		var cell int
		var user string
		if err := rows.Scan(&cell, &user); err != nil {
			return nil, err
		}
		m[cell] = user
	}
	return m, rows.Err()
}

// setCellMover credits cell of game id to user, or to nobody when user is
// "".
func setCellMover(ctx context.Context, tx *sql.Tx, id int64, cell int, user string) error {
	if user == "" {
		_, err := tx.ExecContext(ctx, `DELETE FROM cell_movers WHERE game_id = $1 AND cell = $2`, id, cell)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO cell_movers (game_id, cell, user_id) VALUES ($1, $2, $3)
		ON CONFLICT (game_id, cell) DO UPDATE SET user_id = excluded.user_id`, id, cell, user)
	return err
}

// Movers counts, for a co-op game, the cells whose value each player
// placed, by user id.
func (c *core) Movers(ctx context.Context, id int64) (map[string]int, error) {
	rows, err := c.r.QueryContext(ctx, `SELECT user_id, COUNT(*) FROM cell_movers WHERE game_id = $1 GROUP BY user_id`, id)
	if err != nil {
		return nil, fmt.Errorf("count the movers of game %d: %w", id, err)
	}
	defer rows.Close()
	m := map[string]int{}
	for rows.Next() {
		var user string
		var n int
		if err := rows.Scan(&user, &n); err != nil {
			return nil, fmt.Errorf("count the movers of game %d: %w", id, err)
		}
		m[user] = n
	}
	return m, rows.Err()
}

// MoveCount reports how many moves game id has that Undo could take back.
func (c *core) MoveCount(ctx context.Context, id int64) (int, error) {
	var n int
	if err := c.r.QueryRowContext(ctx, `SELECT COUNT(DISTINCT seq) FROM moves WHERE game_id = $1`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("count moves of game %d: %w", id, err)
	}
	return n, nil
}

// RecordHint counts one hint given in game id and remembers stage as how far
// the progressive hint for this position has gone. It returns the game.
func (c *core) RecordHint(ctx context.Context, id int64, stage int) (Game, error) {
	return c.bump(ctx, fmt.Sprintf("record hint in game %d", id), id,
		`UPDATE games SET hints_used = hints_used + 1, hint_stage = $2 WHERE id = $1`, stage)
}

// RecordCheck counts one check of game id and returns the game.
func (c *core) RecordCheck(ctx context.Context, id int64) (Game, error) {
	return c.bump(ctx, fmt.Sprintf("record check in game %d", id), id,
		`UPDATE games SET checks_used = checks_used + 1 WHERE id = $1`)
}

// bump runs update ($1 = id, then args) on a game still being played and
// returns the game.
func (c *core) bump(ctx context.Context, what string, id int64, update string, args ...any) (Game, error) {
	var g Game
	err := c.write(ctx, what, func(tx *sql.Tx) error {
		if _, err := c.loadPlaying(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, update, append([]any{id}, args...)...); err != nil {
			return err
		}
		var err error
		g, err = c.loadGame(ctx, tx, id, false)
		return err
	})
	return g, err
}

// Finished is what Finish did.
type Finished struct {
	// Game is the game after the call.
	Game Game
	// Now is true when this call finished the game; false when it was
	// already finished (a second click, another shard), and nothing changed.
	Now bool
	// Result is the daily result this call recorded, or nil: only the call
	// that solves a daily game records one, once per user, day and level.
	Result *Result
}

// Finish ends game id with status (Solved or GaveUp) at now and drops its
// undo log (the Moves count stays). It is safe to call any number of
// times, concurrently and from several processes: exactly one call
// finishes the game (the UPDATE … WHERE status = 'playing' that matches;
// on PostgreSQL the losers wait on its row lock, re-read the row and match
// nothing), and a solved daily is recorded at most once.
func (c *core) Finish(ctx context.Context, id int64, status Status, now time.Time) (Finished, error) {
	if status != Solved && status != GaveUp {
		return Finished{}, fmt.Errorf("finish game %d: %w: status %q", id, ErrInvalid, status)
	}
	var f Finished
	err := c.write(ctx, fmt.Sprintf("finish game %d", id), func(tx *sql.Tx) error {
		var err error
		if f, err = c.finish(ctx, tx, id, status, now, nil); err != nil {
			return err
		}
		return c.changed(ctx, tx, GameChange{Game: id, Race: f.Game.RaceID})
	})
	if err == nil {
		c.committed(GameChange{Game: id, Race: f.Game.RaceID})
	}
	return f, err
}

// finish is Finish inside tx; judge (nil: every solve is fair) marks an
// unfair solve.
func (c *core) finish(ctx context.Context, tx *sql.Tx, id int64, status Status, now time.Time, judge Judge) (Finished, error) {
	var f Finished
	res, err := tx.ExecContext(ctx, `UPDATE games SET status = $1, finished_at = $2 WHERE id = $3 AND status = 'playing'`,
		string(status), ms(now), id)
	if err != nil {
		return Finished{}, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return Finished{}, err
	}
	if f.Game, err = c.loadGame(ctx, tx, id, false); err != nil {
		return Finished{}, err
	}
	f.Now = n == 1
	if f.Now {
		// A finished game takes no more moves, so its undo log goes.
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = $1`, id); err != nil {
			return Finished{}, fmt.Errorf("drop undo log: %w", err)
		}
		if status == Solved && judge != nil {
			if f.Game.Flag = judge(f.Game); f.Game.Flag != "" {
				if _, err := tx.ExecContext(ctx, `UPDATE games SET flag = $1 WHERE id = $2`, f.Game.Flag, id); err != nil {
					return Finished{}, fmt.Errorf("mark the solve: %w", err)
				}
			}
		}
	}
	if !f.Now || status != Solved || !f.Game.IsDaily() {
		return f, nil
	}
	r := f.Game.result(now)
	res, err = tx.ExecContext(ctx, `INSERT INTO daily_results (user_id, daily_date, level, user_name, guild_id,
		game_id, duration_ms, hints, checks, finished_at, flag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT DO NOTHING`,
		r.UserID, day(r.Date), r.Level, r.UserName, r.GuildID, r.GameID, r.Duration.Milliseconds(),
		r.Hints, r.Checks, ms(now), r.Flag)
	if err != nil {
		return Finished{}, fmt.Errorf("record daily result: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		f.Result = &r
		if r.Flag == "" {
			if err := addTotals(ctx, tx, r); err != nil {
				return Finished{}, fmt.Errorf("add to the board totals: %w", err)
			}
		}
	}
	return f, nil
}

// result is the daily result of g, a daily game solved at now.
func (g Game) result(now time.Time) Result {
	return Result{
		UserID: g.UserID, UserName: g.UserName, GuildID: g.GuildID,
		Date: g.DailyDate, Level: g.DailyLevel, GameID: g.ID,
		Duration: g.Elapsed(now), Hints: g.Hints, Checks: g.Checks, FinishedAt: fromMS(ms(now)),
		Flag: g.Flag,
	}
}
