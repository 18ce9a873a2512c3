// Package store keeps what sudokubot must remember across restarts: games in
// progress and their moves, daily results (and the leaderboards and streaks
// derived from them), per-server settings, and the daily posts already made.
//
// Two databases hold it: SQLite (Store, through modernc.org/sqlite: pure
// Go, no cgo) for one process, and PostgreSQL (Postgres, through pgx's
// database/sql driver) for several. Their methods are written once, in
// core, over database/sql; a dialect holds the few differences (row locks,
// retries, the migration lock, how a new row's id comes back, how errors
// are told apart), and the schema has one set of numbered migrations per
// database.
//
// SQLite runs in WAL mode. Every write is one transaction on a single
// writer connection, begun IMMEDIATE so that two processes sharing the file
// (two shards) queue on the busy timeout instead of failing half-way; reads
// use a small pool of read-only connections that WAL lets run beside the
// writer. The store never reads the clock: every time it records comes in
// as a parameter.
package store

import (
	"context"
	"database/sql"
	"embed"
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

// Store is an open SQLite database. It is safe for concurrent use. Its
// methods are those of every store (see core); the writer is one
// connection, so writes are serialised there.
type Store struct{ core }

//go:embed migrations/*.sql
var migrationFS embed.FS

// sqliteDialect is SQLite as core sees it: one writer connection whose
// transactions begin IMMEDIATE, so nothing needs a row lock, a retry or a
// migration lock.
var sqliteDialect = &dialect{
	name:         "sqlite",
	lastInsertID: true,
	cause:        sqliteCause,
	retry:        func(error) bool { return false },
	migrations:   migrationFS,
	migrationDir: "migrations",
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
	s := &Store{core{w: w, r: w, d: sqliteDialect, feed: &feed{}}}
	if err := pingBusy(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %q: %w", path, s.classify(err))
	}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %q: %w", path, s.classify(err))
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
