package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
)

// core is the one implementation of the store's methods, over database/sql,
// that Store (SQLite) and Postgres both embed. Its SQL is written once, in
// the syntax both databases accept ($1 placeholders, ON CONFLICT, RETURNING);
// what differs between them is in its dialect.
type core struct {
	w *sql.DB // writes, and reads inside a write
	r *sql.DB // reads outside a write: SQLite's read-only pool, or w
	d *dialect
	// channel is the PostgreSQL NOTIFY channel changes to games are
	// announced on; empty on SQLite, whose watchers feed tells instead.
	channel string
	feed    *feed
}

// dialect is what tells the two databases apart.
type dialect struct {
	// name is the database's name in messages ("sqlite", "postgres").
	name string
	// forUpdate ends a SELECT of a row the transaction will change, so
	// that writers of that row queue on it (" FOR UPDATE"); empty where the
	// database has a single writer anyway (SQLite's BEGIN IMMEDIATE).
	forUpdate string
	// lastInsertID: the driver reports a new row's id, and an INSERT then
	// a SELECT of the row costs less than INSERT … RETURNING (SQLite:
	// about 100 µs of CPU less per game started, measured with
	// BenchmarkStore).
	lastInsertID bool
	// cause is the database failure err shows (ErrReadOnly, ErrFull,
	// ErrUnavailable), or nil: see classify.
	cause func(err error) error
	// retry reports whether a transaction that failed with err may simply
	// be run again (a serialization failure or deadlock).
	retry func(err error) bool
	// migrations and migrationDir hold the numbered schema files.
	migrations   embed.FS
	migrationDir string
	// lockMigrations, when set, takes a lock on conn that keeps other
	// processes from migrating at the same time, and returns its release.
	lockMigrations func(ctx context.Context, conn *sql.Conn) (unlock func(), err error)
}

// loadMigrations reads the dialect's embedded migrations, in order.
func (d *dialect) loadMigrations() ([]migration, error) {
	return loadMigrations(d.migrations, d.migrationDir)
}

// classify wraps err with the database failure it shows, or returns it as
// it is.
func (c *core) classify(err error) error { return classify(err, c.d.cause) }

// write runs fn in one transaction on the writer and commits it, or rolls
// it back when fn fails; a transaction the dialect says may be retried is
// run again, up to three times. what names the operation for errors.
// Failures of the database itself wrap ErrReadOnly, ErrFull or
// ErrUnavailable.
func (c *core) write(ctx context.Context, what string, fn func(tx *sql.Tx) error) error {
	var err error
	for range 3 {
		if err = c.tx(ctx, fn); err == nil || !c.d.retry(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, c.classify(err))
	}
	return nil
}

// tx runs fn in one transaction on the writer.
func (c *core) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := c.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// querier is what both *sql.DB and *sql.Tx offer for reading, so one loader
// serves inside and outside transactions.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Ping reports whether the database answers (for readiness checks).
func (c *core) Ping(ctx context.Context) error {
	if err := c.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", c.d.name, err)
	}
	return nil
}

// Close closes the database. Pending writes have already been committed.
func (c *core) Close() error {
	var errR error
	if c.r != c.w {
		errR = c.r.Close()
	}
	if err := errors.Join(c.w.Close(), errR); err != nil {
		return fmt.Errorf("close %s store: %w", c.d.name, err)
	}
	return nil
}
