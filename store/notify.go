package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Watching games: every committed change to a game's board (a move, an
// undo, a finish) is announced to whoever watches, so a page showing the
// game hears of a move made anywhere, in chat or on another page. On
// PostgreSQL the announcement is a NOTIFY sent inside the change's own
// transaction (delivered at commit, to every process LISTENing on the
// database); on SQLite it goes to this process's watchers after the commit
// (a second process on the same file is not told).

// GameChange is what watchers hear of a committed change to a game.
type GameChange struct {
	// Game is the game changed. 0 means changes may have been missed (the
	// watch just started, or started again): reload every game watched.
	Game int64 `json:"g"`
	// Race is the game's race or co-op game (0 for none), so the players
	// of a race hear of each other's progress.
	Race int64 `json:"r,omitempty"`
	// By is who made the move (an undo or a finish names nobody).
	By string `json:"b,omitempty"`
}

// feed hands changes to this process's watchers.
type feed struct {
	mu   sync.Mutex
	next int
	subs map[int]func(GameChange)
}

func (f *feed) publish(ch GameChange) {
	f.mu.Lock()
	subs := make([]func(GameChange), 0, len(f.subs))
	for _, fn := range f.subs {
		subs = append(subs, fn)
	}
	f.mu.Unlock()
	for _, fn := range subs {
		fn(ch)
	}
}

func (f *feed) subscribe(fn func(GameChange)) (cancel func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.subs == nil {
		f.subs = map[int]func(GameChange){}
	}
	id := f.next
	f.next++
	f.subs[id] = fn
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, id)
	}
}

// changed announces ch inside tx: on PostgreSQL a NOTIFY, which the
// server delivers when tx commits (and never when it rolls back).
func (c *core) changed(ctx context.Context, tx *sql.Tx, ch GameChange) error {
	if c.channel == "" {
		return nil
	}
	payload, _ := json.Marshal(ch)
	if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, c.channel, string(payload)); err != nil {
		return fmt.Errorf("announce the change: %w", err)
	}
	return nil
}

// committed announces ch after its transaction committed: SQLite's
// watchers are this process's, told here.
func (c *core) committed(ch GameChange) {
	if c.channel == "" && c.feed != nil {
		c.feed.publish(ch)
	}
}

// WatchGames calls fn with every change to a game committed through this
// store (this process's), until ctx ends; it first calls fn with
// GameChange{} once it is watching. fn runs on the writer's goroutine
// just after the commit: it must be quick.
func (s *Store) WatchGames(ctx context.Context, fn func(GameChange)) error {
	cancel := s.feed.subscribe(fn)
	defer cancel()
	fn(GameChange{})
	<-ctx.Done()
	return nil
}

// pgChannel is the NOTIFY channel of the store's schema: processes on one
// database but different schemas (tests) don't hear each other.
func pgChannel(schema string) string {
	ch := "sudokubot_games:" + schema
	if len(ch) > 63 { // PostgreSQL's longest name
		sum := sha256.Sum256([]byte(schema))
		ch = "sudokubot_games:" + hex.EncodeToString(sum[:12])
	}
	return ch
}

// pgPing is how long the listening connection may stay silent before it
// is asked whether it is still there.
const pgPing = 30 * time.Second

// WatchGames calls fn with every change to a game committed on the
// database, by any process, until ctx ends or the listening connection
// fails (it then returns the error; the caller watches again, and fn is
// first called with GameChange{} each time, since changes made in between
// were missed). It listens on a connection of its own, outside the pool.
func (p *Postgres) WatchGames(ctx context.Context, fn func(GameChange)) error {
	conn, err := pgx.ConnectConfig(ctx, p.conf.Copy())
	if err != nil {
		return fmt.Errorf("watch games: connect: %w", p.classify(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{p.channel}.Sanitize()); err != nil {
		return fmt.Errorf("watch games: listen: %w", p.classify(err))
	}
	fn(GameChange{})
	for {
		wctx, cancel := context.WithTimeout(ctx, pgPing)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, context.DeadlineExceeded) || (err != nil && wctx.Err() != nil):
			// Quiet: make sure the connection is still there.
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err = conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("watch games: the connection stopped answering: %w", p.classify(err))
			}
			continue
		case err != nil:
			return fmt.Errorf("watch games: %w", p.classify(err))
		}
		var ch GameChange
		if json.Unmarshal([]byte(n.Payload), &ch) != nil || ch.Game <= 0 {
			continue // not one of ours
		}
		fn(ch)
	}
}
