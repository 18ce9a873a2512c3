package store

import (
	"bytes"
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

	// DailyDate (a UTC midnight) and DailyLevel are set when the game is a
	// daily puzzle.
	DailyDate  time.Time
	DailyLevel string
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
	Now        time.Time
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
	moves_made, status, daily_date, daily_level`

type scanner interface{ Scan(dest ...any) error }

func scanGame(row scanner) (Game, error) {
	var (
		g                   Game
		entries, pencil     []byte
		started             int64
		viewed, finished    sql.NullInt64
		status              string
		dailyDate, dailyLvl sql.NullString
	)
	err := row.Scan(&g.ID, &g.UserID, &g.UserName, &g.GuildID, &g.ChannelID, &g.Puzzle, &g.Shape,
		&g.Solution, &g.Level, &entries, &pencil, &started, &viewed, &finished, &g.Hints,
		&g.HintStage, &g.Checks, &g.Moves, &status, &dailyDate, &dailyLvl)
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
	if dailyDate.Valid {
		d, err := time.Parse(dayFormat, dailyDate.String)
		if err != nil {
			return Game{}, fmt.Errorf("game %d: daily date %q: %w", g.ID, dailyDate.String, err)
		}
		g.DailyDate = d
		g.DailyLevel = dailyLvl.String
	}
	return g, nil
}

func loadGame(ctx context.Context, q querier, id int64) (Game, error) {
	g, err := scanGame(q.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Game{}, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, nil
}

// StartGame records a new game and returns it. For a daily game, a user who
// already has a game for that day and level gets that game back instead
// (created is then false), whatever its status: a daily is played once.
func (s *Store) StartGame(ctx context.Context, ng NewGame) (g Game, created bool, err error) {
	switch {
	case ng.UserID == "":
		return Game{}, false, fmt.Errorf("start game: %w: no user id", ErrInvalid)
	case ng.Puzzle == "" || ng.Shape == "":
		return Game{}, false, fmt.Errorf("start game: %w: no puzzle or shape", ErrInvalid)
	case ng.Cells <= 0 || ng.Cells > maxCells:
		return Game{}, false, fmt.Errorf("start game: %w: %d cells (want 1 to %d)", ErrInvalid, ng.Cells, maxCells)
	case ng.DailyLevel != "" && ng.DailyDate.IsZero():
		return Game{}, false, fmt.Errorf("start game: %w: daily level without a date", ErrInvalid)
	}
	var dailyDate, dailyLevel sql.NullString
	if ng.DailyLevel != "" {
		dailyDate = sql.NullString{String: day(ng.DailyDate), Valid: true}
		dailyLevel = sql.NullString{String: ng.DailyLevel, Valid: true}
	}
	err = s.write(ctx, "start game", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO games (user_id, user_name, guild_id, channel_id,
			puzzle, shape, solution, level, entries, pencil, started_at, daily_date, daily_level)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`,
			ng.UserID, ng.UserName, ng.GuildID, ng.ChannelID, ng.Puzzle, ng.Shape, ng.Solution, ng.Level,
			make([]byte, ng.Cells), make([]byte, 4*ng.Cells), ms(ng.Now), dailyDate, dailyLevel)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			created = true
			g, err = loadGame(ctx, tx, id)
			return err
		}
		// Only the daily index can conflict: return the game already there.
		g, err = scanGame(tx.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games
			WHERE user_id = ? AND daily_date = ? AND daily_level = ?`,
			ng.UserID, dailyDate, dailyLevel))
		return err
	})
	return g, created, err
}

// Game loads game id.
func (s *Store) Game(ctx context.Context, id int64) (Game, error) {
	return loadGame(ctx, s.r, id)
}

// DailyGame returns userID's game for the daily puzzle of date's UTC day at
// level, or ErrNotFound.
func (s *Store) DailyGame(ctx context.Context, userID string, date time.Time, level string) (Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM games
		WHERE user_id = ? AND daily_date = ? AND daily_level = ?`, userID, day(date), level))
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
func (s *Store) ActiveGames(ctx context.Context, userID string, limit int) ([]Game, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+gameColumns+` FROM games
		WHERE user_id = ? AND status = 'playing' ORDER BY id DESC LIMIT ?`, userID, limit)
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
func (s *Store) MarkViewed(ctx context.Context, id int64, now time.Time) (Game, error) {
	var g Game
	err := s.write(ctx, fmt.Sprintf("mark game %d viewed", id), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE games SET viewed_at = ? WHERE id = ? AND viewed_at IS NULL`, ms(now), id); err != nil {
			return err
		}
		var err error
		g, err = loadGame(ctx, tx, id)
		return err
	})
	return g, err
}

// loadPlaying loads game id inside tx and fails with ErrFinished unless it
// is still being played.
func loadPlaying(ctx context.Context, tx *sql.Tx, id int64) (Game, error) {
	g, err := loadGame(ctx, tx, id)
	if err != nil {
		return Game{}, err
	}
	if g.Status != Playing {
		return Game{}, fmt.Errorf("game %d (%s): %w", id, g.Status, ErrFinished)
	}
	return g, nil
}

func saveBoard(ctx context.Context, tx *sql.Tx, g Game) error {
	_, err := tx.ExecContext(ctx, `UPDATE games SET entries = ?, pencil = ?, moves_made = ?, hint_stage = ?
		WHERE id = ?`, g.Entries, encodePencil(g.Pencil), g.Moves, g.HintStage, g.ID)
	return err
}

// ApplyMoves applies a batch of changes to game id as one undoable move and
// returns the game. Changes that leave a cell as it was are dropped; when
// none is left no move is recorded. A cell changed twice in a batch ends with
// the last change and undoes to its value before the batch. Any move resets
// the progressive hint.
func (s *Store) ApplyMoves(ctx context.Context, id int64, changes []Change) (Game, error) {
	var g Game
	err := s.write(ctx, fmt.Sprintf("apply moves to game %d", id), func(tx *sql.Tx) error {
		var err error
		g, err = applyMoves(ctx, tx, id, changes)
		return err
	})
	return g, err
}

// Move applies changes to game id like ApplyMoves and, when the entries
// then equal solved (the solution's value in every cell the puzzle leaves
// empty, 0 on the givens), finishes the game as Solved at now, recording a
// daily's result, all in one transaction: a crash leaves either the board
// as it was, or the finished game with its result, never a full, right
// board still "playing". Finished.Now reports whether this call finished
// it; Finished.Game is the game either way. A nil solved never finishes.
func (s *Store) Move(ctx context.Context, id int64, changes []Change, solved []uint8, now time.Time) (Finished, error) {
	var f Finished
	err := s.write(ctx, fmt.Sprintf("move in game %d", id), func(tx *sql.Tx) error {
		g, err := applyMoves(ctx, tx, id, changes)
		if err != nil {
			return err
		}
		f.Game = g
		if solved == nil || !bytes.Equal(g.Entries, solved) {
			return nil
		}
		f, err = finish(ctx, tx, id, Solved, now)
		return err
	})
	return f, err
}

// applyMoves is ApplyMoves inside tx.
func applyMoves(ctx context.Context, tx *sql.Tx, id int64, changes []Change) (Game, error) {
	g, err := loadPlaying(ctx, tx, id)
	if err != nil {
		return Game{}, err
	}
	cells := len(g.Entries)
	n := side(cells)
	valid := uint32(1)<<n - 1 // bits 0..n-1 for values 1..n
	type step struct {
		cell               int
		prevValue, value   uint8
		prevPencil, pencil uint32
	}
	var steps []step
	at := map[int]int{}
	for _, c := range changes {
		switch {
		case c.Cell < 0 || c.Cell >= cells:
			return Game{}, fmt.Errorf("%w: cell %d is off the %d-cell board", ErrInvalid, c.Cell, cells)
		case int(c.Value) > n:
			return Game{}, fmt.Errorf("%w: value %d is over %d", ErrInvalid, c.Value, n)
		case c.Pencil&^valid != 0:
			return Game{}, fmt.Errorf("%w: pencil marks %b hold values outside 1..%d", ErrInvalid, c.Pencil, n)
		}
		if i, ok := at[c.Cell]; ok {
			steps[i].value, steps[i].pencil = c.Value, c.Pencil
			continue
		}
		at[c.Cell] = len(steps)
		steps = append(steps, step{c.Cell, g.Entries[c.Cell], c.Value, g.Pencil[c.Cell], c.Pencil})
	}
	var seq int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?`, id).Scan(&seq); err != nil {
		return Game{}, err
	}
	changed := false
	for _, st := range steps {
		if st.prevValue == st.value && st.prevPencil == st.pencil {
			continue
		}
		changed = true
		g.Entries[st.cell], g.Pencil[st.cell] = st.value, st.pencil
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, seq, cell, prev_value, prev_pencil, value, pencil)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, seq, st.cell, st.prevValue, st.prevPencil, st.value, st.pencil); err != nil {
			return Game{}, err
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
func (s *Store) Undo(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := s.write(ctx, fmt.Sprintf("undo in game %d", id), func(tx *sql.Tx) error {
		var err error
		if g, err = loadPlaying(ctx, tx, id); err != nil {
			return err
		}
		var seq sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM moves WHERE game_id = ?`, id).Scan(&seq); err != nil {
			return err
		}
		if !seq.Valid {
			return ErrNothingToUndo
		}
		rows, err := tx.QueryContext(ctx, `SELECT cell, prev_value, prev_pencil FROM moves WHERE game_id = ? AND seq = ?`, id, seq.Int64)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var cell int
			var v uint8
			var p uint32
			if err := rows.Scan(&cell, &v, &p); err != nil {
				return err
			}
			if cell < 0 || cell >= len(g.Entries) {
				return fmt.Errorf("move %d touches cell %d, off the board", seq.Int64, cell)
			}
			g.Entries[cell], g.Pencil[cell] = v, p
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND seq = ?`, id, seq.Int64); err != nil {
			return err
		}
		g.Moves = max(g.Moves-1, 0)
		g.HintStage = 0
		return saveBoard(ctx, tx, g)
	})
	return g, err
}

// MoveCount reports how many moves game id has that Undo could take back.
func (s *Store) MoveCount(ctx context.Context, id int64) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(DISTINCT seq) FROM moves WHERE game_id = ?`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("count moves of game %d: %w", id, err)
	}
	return n, nil
}

// RecordHint counts one hint given in game id and remembers stage as how far
// the progressive hint for this position has gone. It returns the game.
func (s *Store) RecordHint(ctx context.Context, id int64, stage int) (Game, error) {
	var g Game
	err := s.write(ctx, fmt.Sprintf("record hint in game %d", id), func(tx *sql.Tx) error {
		if _, err := loadPlaying(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET hints_used = hints_used + 1, hint_stage = ? WHERE id = ?`, stage, id); err != nil {
			return err
		}
		var err error
		g, err = loadGame(ctx, tx, id)
		return err
	})
	return g, err
}

// RecordCheck counts one check of game id and returns the game.
func (s *Store) RecordCheck(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := s.write(ctx, fmt.Sprintf("record check in game %d", id), func(tx *sql.Tx) error {
		if _, err := loadPlaying(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET checks_used = checks_used + 1 WHERE id = ?`, id); err != nil {
			return err
		}
		var err error
		g, err = loadGame(ctx, tx, id)
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
// undo log (the Moves count stays). It is safe to
// call any number of times, concurrently and from several processes: exactly
// one call finishes the game, and a solved daily is recorded at most once.
func (s *Store) Finish(ctx context.Context, id int64, status Status, now time.Time) (Finished, error) {
	if status != Solved && status != GaveUp {
		return Finished{}, fmt.Errorf("finish game %d: %w: status %q", id, ErrInvalid, status)
	}
	var f Finished
	err := s.write(ctx, fmt.Sprintf("finish game %d", id), func(tx *sql.Tx) error {
		var err error
		f, err = finish(ctx, tx, id, status, now)
		return err
	})
	return f, err
}

// finish is Finish inside tx.
func finish(ctx context.Context, tx *sql.Tx, id int64, status Status, now time.Time) (Finished, error) {
	var f Finished
	res, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, finished_at = ? WHERE id = ? AND status = 'playing'`,
		string(status), ms(now), id)
	if err != nil {
		return Finished{}, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return Finished{}, err
	}
	if f.Game, err = loadGame(ctx, tx, id); err != nil {
		return Finished{}, err
	}
	f.Now = n == 1
	if f.Now {
		// A finished game takes no more moves, so its undo log goes.
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ?`, id); err != nil {
			return Finished{}, fmt.Errorf("drop undo log: %w", err)
		}
	}
	if !f.Now || status != Solved || !f.Game.IsDaily() {
		return f, nil
	}
	r := f.Game.result(now)
	res, err = tx.ExecContext(ctx, `INSERT INTO daily_results (user_id, daily_date, level, user_name, guild_id,
		game_id, duration_ms, hints, checks, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		r.UserID, day(r.Date), r.Level, r.UserName, r.GuildID, r.GameID, r.Duration.Milliseconds(),
		r.Hints, r.Checks, ms(now))
	if err != nil {
		return Finished{}, fmt.Errorf("record daily result: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		f.Result = &r
	}
	return f, nil
}

// result is the daily result of g, a daily game solved at now.
func (g Game) result(now time.Time) Result {
	return Result{
		UserID: g.UserID, UserName: g.UserName, GuildID: g.GuildID,
		Date: g.DailyDate, Level: g.DailyLevel, GameID: g.ID,
		Duration: g.Elapsed(now), Hints: g.Hints, Checks: g.Checks, FinishedAt: fromMS(ms(now)),
	}
}
