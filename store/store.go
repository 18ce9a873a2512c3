// Package store keeps what sudokubot must remember across restarts: games in
// progress and their moves, daily results (and the leaderboards and streaks
// derived from them), per-server settings, and the daily posts already made.
//
// It uses SQLite through modernc.org/sqlite (pure Go, no cgo) in WAL mode.
// Every write is one transaction on a single writer connection, begun
// IMMEDIATE so that two processes sharing the file (two shards) queue on the
// busy timeout instead of failing half-way; reads use a small pool of
// read-only connections that WAL lets run beside the writer. The store never
// reads the clock: every time it records comes in as a parameter.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" driver
)

// Errors callers can act on; match them with errors.Is.
var (
	// ErrNotFound: no game (or other row) with that key.
	ErrNotFound = errors.New("not found")
	// ErrFinished: the game is solved or given up, so it takes no more moves.
	ErrFinished = errors.New("game is already finished")
	// ErrNothingToUndo: the game has no move left to take back.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrInvalid: the caller passed a value the store cannot record (a cell
	// off the board, an hour past 23, an empty user id).
	ErrInvalid = errors.New("invalid value")
)

// DefaultPath is the database file used when DATABASE_PATH is not set.
const DefaultPath = "sudokubot.db"

// busyTimeoutMS is how long a connection waits for another process's write
// lock before giving up: long enough for any of our short transactions.
const busyTimeoutMS = 5000

// readers is the size of the read pool. SQLite readers in WAL mode do not
// block the writer or each other; a handful covers a bot on two cores.
const readers = 4

// Store is an open database. It is safe for concurrent use.
type Store struct {
	w *sql.DB // one connection: writes are serialised here
	r *sql.DB // read-only pool
}

// Open opens (creating if needed) the SQLite database at path and brings its
// schema up to date. path is a file name; ":memory:" gives a private
// in-memory database (one connection, for quick experiments).
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("open store: %w: empty database path", ErrInvalid)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open store %q: %w: the path may not contain '?' or '#'", path, ErrInvalid)
	}
	if path != ":memory:" {
		// SQLite says "out of memory (14)" for a file in a missing folder.
		dir := filepath.Dir(path)
		if fi, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("open store %q: the folder %q does not exist (create it, or choose a file in an existing folder): %w", path, dir, err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("open store %q: %q is not a folder: %w", path, dir, ErrInvalid)
		}
	}
	// synchronous=NORMAL in WAL mode: a killed process loses nothing that was
	// committed; only a power cut can lose the last commits (never half of
	// one), and it spares an fsync per move.
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)", busyTimeoutMS)
	w, err := sql.Open("sqlite", path+"?"+common+"&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open store %q: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	s := &Store{w: w, r: w}
	if err := pingBusy(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %q: %w", path, classify(err))
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %q: %w", path, classify(err))
	}
	if path == ":memory:" {
		return s, nil // a second pool would see a different, empty database
	}
	r, err := sql.Open("sqlite", path+"?"+common+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %q for reading: %w", path, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("open store %q for reading: %w", path, err)
	}
	s.r = r
	return s, nil
}

// Close closes the database. Pending writes have already been committed.
func (s *Store) Close() error {
	var errR error
	if s.r != s.w {
		errR = s.r.Close()
	}
	errW := s.w.Close()
	if err := errors.Join(errW, errR); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// write runs fn in one IMMEDIATE transaction on the writer connection and
// commits it, or rolls it back when fn fails. what names the operation for
// errors.
// Failures of the database itself wrap ErrReadOnly, ErrFull or
// ErrUnavailable.
func (s *Store) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: begin: %w", what, classify(err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return fmt.Errorf("%s: %w", what, classify(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: commit: %w", what, classify(err))
	}
	return nil
}

// querier is what both *sql.DB and *sql.Tx offer for reading, so one loader
// serves inside and outside transactions.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// pingBusy opens db's first connection. Switching a new file to WAL takes
// a lock that SQLite does not wait for with the busy timeout, so processes
// (or stores) opening the same new file at once can see "database is
// locked" here: that is retried for as long as the busy timeout allows.
func pingBusy(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := db.PingContext(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}
