package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RaceKind says how a race's players share a puzzle.
type RaceKind string

// The kinds of race.
const (
	// KindRace: each player plays the puzzle on a board of their own.
	KindRace RaceKind = "race"
	// KindTogether: one board everyone in the thread plays (a co-op game).
	KindTogether RaceKind = "together"
)

// RaceStatus is where a race stands.
type RaceStatus string

// The statuses of a race.
const (
	RaceLobby     RaceStatus = "lobby"   // taking players
	RaceRunning   RaceStatus = "running" // from its start (the end of its countdown) on
	RaceOver      RaceStatus = "over"
	RaceCancelled RaceStatus = "cancelled" // ended in the lobby
)

// RacerStatus is where one player of a race stands.
type RacerStatus string

// The statuses of a race's player.
const (
	RacerJoined   RacerStatus = "joined" // in the lobby, or racing
	RacerFinished RacerStatus = "finished"
	RacerLeft     RacerStatus = "left" // left or gave up
	RacerIdle     RacerStatus = "idle" // no move for a while; a move brings them back
)

// Race is a race (or a co-op game) and its players.
type Race struct {
	ID                 int64
	Kind               RaceKind
	GuildID, ChannelID string
	LobbyID            string // the lobby message, once known
	ThreadID           string // the race's thread; "" when it runs in the channel
	BoardID            string // the scoreboard (or co-op board) message
	StarterID, Starter string // who started it: id and name
	RivalID            string // a duel: the one member who may join
	Puzzle, Shape      string
	Solution, Level    string
	Title              string
	Status             RaceStatus
	CreatedAt, StartAt time.Time // StartAt: zero until started
	EndedAt            time.Time
	GameID             int64 // KindTogether: the shared game
	Players            []Racer
}

// Racer is one player of a race.
type Racer struct {
	UserID, UserName string
	JoinedAt         time.Time
	GameID           int64 // 0 until they open their board
	Status           RacerStatus
	LastMoveAt       time.Time // zero before their first move
	FinishedAt       time.Time // when they finished, left or went idle
	Mistakes         int       // wrong digits placed
}

// Player returns the racer userID of r, and whether they are in it.
func (r Race) Player(userID string) (Racer, bool) {
	for _, p := range r.Players {
		if p.UserID == userID {
			return p, true
		}
	}
	return Racer{}, false
}

// NewRace describes a race to open; its starter is its first player.
type NewRace struct {
	Kind                        RaceKind
	GuildID, ChannelID          string
	StarterID, Starter, RivalID string
	Puzzle, Shape, Solution     string
	Level, Title                string
	Now                         time.Time
}

// Errors of race changes that the caller reports to the player.
var (
	// ErrRaceClosed: the race is no longer in its lobby (started, over or
	// cancelled), so nobody may join it or start it.
	ErrRaceClosed = errors.New("the race is no longer taking players")
	// ErrRaceFull: the lobby holds its most players.
	ErrRaceFull = errors.New("the race is full")
)

const raceColumns = `id, kind, guild_id, channel_id, lobby_id, thread_id, board_id, starter_id, starter_name,
	rival_id, puzzle, shape, solution, level, title, status, created_at, start_at, ended_at, game_id`

func scanRace(row scanner) (Race, error) {
	var (
		r                  Race
		kind, status       string
		created            int64
		start, ended, game sql.NullInt64
	)
	err := row.Scan(&r.ID, &kind, &r.GuildID, &r.ChannelID, &r.LobbyID, &r.ThreadID, &r.BoardID, &r.StarterID,
		&r.Starter, &r.RivalID, &r.Puzzle, &r.Shape, &r.Solution, &r.Level, &r.Title, &status, &created,
		&start, &ended, &game)
	if err != nil {
		return Race{}, err
	}
	r.Kind, r.Status = RaceKind(kind), RaceStatus(status)
	r.CreatedAt = fromMS(created)
	if start.Valid {
		r.StartAt = fromMS(start.Int64)
	}
	if ended.Valid {
		r.EndedAt = fromMS(ended.Int64)
	}
	r.GameID = game.Int64
	return r, nil
}

func scanRacer(row scanner) (Racer, error) {
	var (
		p                 Racer
		status            string
		joined            int64
		game, moved, done sql.NullInt64
	)
	if err := row.Scan(&p.UserID, &p.UserName, &joined, &game, &status, &moved, &done, &p.Mistakes); err != nil {
		return Racer{}, err
	}
	p.Status = RacerStatus(status)
	p.JoinedAt = fromMS(joined)
	p.GameID = game.Int64
	if moved.Valid {
		p.LastMoveAt = fromMS(moved.Int64)
	}
	if done.Valid {
		p.FinishedAt = fromMS(done.Int64)
	}
	return p, nil
}

// loadRace reads race id and its players (in joining order) through q;
// with lock, the race row stays locked for the rest of q's transaction.
func (c *core) loadRace(ctx context.Context, q querier, id int64, lock bool) (Race, error) {
	query := `SELECT ` + raceColumns + ` FROM races WHERE id = $1`
	if lock {
		query += c.d.forUpdate
	}
	r, err := scanRace(q.QueryRowContext(ctx, query, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Race{}, fmt.Errorf("race %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Race{}, fmt.Errorf("load race %d: %w", id, err)
	}
	r.Players, err = queryAll(ctx, q, scanRacer, `SELECT user_id, user_name, joined_at, game_id, status, last_move_at,
		finished_at, mistakes FROM race_players WHERE race_id = $1 ORDER BY joined_at, user_id`, id)
	if err != nil {
		return Race{}, fmt.Errorf("load the players of race %d: %w", id, err)
	}
	return r, nil
}

// CreateRace opens a race in its lobby with its starter as first player
// (a co-op game starts with no player: each mover joins by moving).
func (c *core) CreateRace(ctx context.Context, nr NewRace) (Race, error) {
	switch {
	case nr.Kind != KindRace && nr.Kind != KindTogether:
		return Race{}, fmt.Errorf("create race: %w: kind %q", ErrInvalid, nr.Kind)
	case nr.StarterID == "" || nr.Puzzle == "" || nr.Shape == "":
		return Race{}, fmt.Errorf("create race: %w: no starter or puzzle", ErrInvalid)
	}
	var r Race
	err := c.write(ctx, "create race", func(tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO races (kind, guild_id, channel_id, starter_id, starter_name, rival_id,
			puzzle, shape, solution, level, title, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			RETURNING id`, string(nr.Kind), nr.GuildID, nr.ChannelID, nr.StarterID, nr.Starter, nr.RivalID,
			nr.Puzzle, nr.Shape, nr.Solution, nr.Level, nr.Title, ms(nr.Now)).Scan(&id); err != nil {
			return err
		}
		if nr.Kind == KindRace {
			if _, err := tx.ExecContext(ctx, `INSERT INTO race_players (race_id, user_id, user_name, joined_at)
				VALUES ($1, $2, $3, $4)`, id, nr.StarterID, nr.Starter, ms(nr.Now)); err != nil {
				return err
			}
		}
		var err error
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, err
}

// Race loads race id with its players.
func (c *core) Race(ctx context.Context, id int64) (Race, error) {
	return c.loadRace(ctx, c.r, id, false)
}

// OpenRaces lists the races (not co-op games) in their lobby or running,
// oldest first, at most limit: what a periodic check looks at (not those
// of an Activity instance: the board page shows those, see rooms.go).
func (c *core) OpenRaces(ctx context.Context, limit int) ([]Race, error) {
	ids, err := queryAll(ctx, c.r, func(s scanner) (int64, error) {
		var id int64
		return id, s.Scan(&id)
	}, `SELECT id FROM races WHERE status IN ('lobby', 'running') AND kind = 'race' AND instance_id = '' ORDER BY id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list open races: %w", err)
	}
	races := make([]Race, 0, len(ids))
	for _, id := range ids {
		r, err := c.Race(ctx, id)
		if err != nil {
			return nil, err
		}
		races = append(races, r)
	}
	return races, nil
}

// JoinRace adds userID to race id while it is in its lobby and holds
// fewer than most players. joined is false when they were in it already.
func (c *core) JoinRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (r Race, joined bool, err error) {
	err = c.write(ctx, fmt.Sprintf("join race %d", id), func(tx *sql.Tx) error {
		if r, err = c.loadRace(ctx, tx, id, true); err != nil {
			return err
		}
		if _, in := r.Player(userID); in {
			return nil
		}
		if r.Status != RaceLobby {
			return ErrRaceClosed
		}
		if len(r.Players) >= most {
			return ErrRaceFull
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO race_players (race_id, user_id, user_name, joined_at)
			VALUES ($1, $2, $3, $4)`, id, userID, name, ms(now)); err != nil {
			return err
		}
		joined = true
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, joined, err
}

// LeaveRace takes userID out of race id: out of the lobby altogether, or,
// once it runs, marked as left at now (a player already finished stays
// finished). left reports whether anything changed.
func (c *core) LeaveRace(ctx context.Context, id int64, userID string, now time.Time) (r Race, left bool, err error) {
	err = c.write(ctx, fmt.Sprintf("leave race %d", id), func(tx *sql.Tx) error {
		if r, err = c.loadRace(ctx, tx, id, true); err != nil {
			return err
		}
		var res sql.Result
		switch r.Status {
		case RaceLobby:
			res, err = tx.ExecContext(ctx, `DELETE FROM race_players WHERE race_id = $1 AND user_id = $2`, id, userID)
		case RaceRunning:
			res, err = tx.ExecContext(ctx, `UPDATE race_players SET status = 'left', finished_at = $3
				WHERE race_id = $1 AND user_id = $2 AND status IN ('joined', 'idle')`, id, userID, ms(now))
		default:
			return nil
		}
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		left = n == 1
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, left, err
}

// StartRace starts race id at startAt (the end of its countdown) if it is
// still in its lobby: of any number of callers, on any number of
// processes, exactly one gets won.
func (c *core) StartRace(ctx context.Context, id int64, startAt time.Time) (Race, bool, error) {
	return c.claimRace(ctx, id, "start", `UPDATE races SET status = 'running', start_at = $2
		WHERE id = $1 AND status = 'lobby'`, ms(startAt))
}

// EndRace ends race id at now: a running race is over, a lobby cancelled.
// Exactly one caller gets won (the one that posts the results).
func (c *core) EndRace(ctx context.Context, id int64, now time.Time) (Race, bool, error) {
	return c.claimRace(ctx, id, "end", `UPDATE races SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'over' END,
		ended_at = $2 WHERE id = $1 AND status IN ('lobby', 'running')`, ms(now))
}

// claimRace runs update ($1 = id, then args) and reports whether it
// changed the race, with the race after it.
func (c *core) claimRace(ctx context.Context, id int64, what, update string, args ...any) (r Race, won bool, err error) {
	err = c.write(ctx, fmt.Sprintf("%s race %d", what, id), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, update, append([]any{id}, args...)...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		won = n == 1
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, won, err
}

// SetRaceMessages records the messages of race id: its lobby, thread and
// scoreboard; an empty one leaves what is stored. It returns the race.
func (c *core) SetRaceMessages(ctx context.Context, id int64, lobby, thread, board string) (Race, error) {
	var r Race
	err := c.write(ctx, fmt.Sprintf("set the messages of race %d", id), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE races SET
			lobby_id = CASE WHEN $2 = '' THEN lobby_id ELSE $2 END,
			thread_id = CASE WHEN $3 = '' THEN thread_id ELSE $3 END,
			board_id = CASE WHEN $4 = '' THEN board_id ELSE $4 END WHERE id = $1`, id, lobby, thread, board); err != nil {
			return err
		}
		var err error
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, err
}

// ClaimRaceBoard lets exactly one caller post race id's scoreboard: it
// sets board_id to claim while it is empty and reports whether it did.
// The winner then records the real message id with SetRaceMessages (or
// gives the claim back with an empty board by ReleaseRaceBoard).
func (c *core) ClaimRaceBoard(ctx context.Context, id int64, claim string) (bool, error) {
	_, won, err := c.claimRace(ctx, id, "claim the board of", `UPDATE races SET board_id = $2 WHERE id = $1 AND board_id = ''`, claim)
	return won, err
}

// ReleaseRaceBoard gives back a board claim whose post failed.
func (c *core) ReleaseRaceBoard(ctx context.Context, id int64, claim string) error {
	return c.write(ctx, fmt.Sprintf("release the board of race %d", id), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE races SET board_id = '' WHERE id = $1 AND board_id = $2`, id, claim)
		return err
	})
}

// SetRaceGame records the shared game of a co-op race.
func (c *core) SetRaceGame(ctx context.Context, id, gameID int64) error {
	return c.write(ctx, fmt.Sprintf("set the game of race %d", id), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE races SET game_id = $2 WHERE id = $1`, id, gameID)
		return err
	})
}

// RacerGame returns userID's game in race id, starting it from ng the
// first time (whatever the concurrent calls: one game per player). The
// player must be in the race.
func (c *core) RacerGame(ctx context.Context, id int64, userID string, ng NewGame) (Game, error) {
	if err := checkNewGame(ng); err != nil {
		return Game{}, err
	}
	ng.RaceID = id
	var g Game
	err := c.write(ctx, fmt.Sprintf("start %s's game in race %d", userID, id), func(tx *sql.Tx) error {
		var game sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT game_id FROM race_players WHERE race_id = $1 AND user_id = $2`+c.d.forUpdate,
			id, userID).Scan(&game)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%s in race %d: %w", userID, id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if game.Valid {
			g, err = c.loadGame(ctx, tx, game.Int64, false)
			return err
		}
		if g, err = c.insertGame(ctx, tx, ng); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE race_players SET game_id = $3 WHERE race_id = $1 AND user_id = $2`, id, userID, g.ID)
		return err
	})
	return g, err
}

// RacerMoved records that userID moved in race id at now, placing
// mistakes wrong digits: an idle player is back; in a co-op game a mover
// not yet among the players joins.
func (c *core) RacerMoved(ctx context.Context, id int64, userID, name string, mistakes int, now time.Time) error {
	return c.write(ctx, fmt.Sprintf("record a move of %s in race %d", userID, id), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO race_players (race_id, user_id, user_name, joined_at, last_move_at, mistakes)
			SELECT $1, $2, $3, $4, $4, $5 FROM races WHERE id = $1 AND kind = 'together'
			ON CONFLICT (race_id, user_id) DO UPDATE SET last_move_at = excluded.last_move_at,
			mistakes = race_players.mistakes + excluded.mistakes,
			status = CASE race_players.status WHEN 'idle' THEN 'joined' ELSE race_players.status END`,
			id, userID, name, ms(now), mistakes)
		if err != nil {
			return err
		}
		// A race's player is in already (a move needs their game).
		_, err = tx.ExecContext(ctx, `UPDATE race_players SET last_move_at = $3, mistakes = mistakes + $4,
			status = CASE status WHEN 'idle' THEN 'joined' ELSE status END
			WHERE race_id = $1 AND user_id = $2 AND EXISTS (SELECT 1 FROM races WHERE id = $1 AND kind = 'race')`,
			id, userID, ms(now), mistakes)
		return err
	})
}

// RacerDone marks userID's race over at now with status (finished or
// left), unless it is already: done reports whether this call did it.
func (c *core) RacerDone(ctx context.Context, id int64, userID string, status RacerStatus, now time.Time) (done bool, err error) {
	if status != RacerFinished && status != RacerLeft {
		return false, fmt.Errorf("race %d: %w: racer status %q", id, ErrInvalid, status)
	}
	err = c.write(ctx, fmt.Sprintf("mark %s %s in race %d", userID, status, id), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE race_players SET status = $3, finished_at = $4
			WHERE race_id = $1 AND user_id = $2 AND status IN ('joined', 'idle')`, id, userID, string(status), ms(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		done = n == 1
		return err
	})
	return done, err
}

// MarkIdle marks idle, at now, the players of running race id still
// racing whose last move (or the start, before any) is before cutoff, and
// returns the race.
func (c *core) MarkIdle(ctx context.Context, id int64, cutoff, now time.Time) (Race, error) {
	var r Race
	err := c.write(ctx, fmt.Sprintf("mark idle players of race %d", id), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE race_players SET status = 'idle', finished_at = $3
			WHERE race_id = $1 AND status = 'joined'
			AND COALESCE(last_move_at, (SELECT start_at FROM races WHERE id = $1)) < $2
			AND EXISTS (SELECT 1 FROM races WHERE id = $1 AND status = 'running')`, id, ms(cutoff), ms(now)); err != nil {
			return err
		}
		var err error
		r, err = c.loadRace(ctx, tx, id, false)
		return err
	})
	return r, err
}
