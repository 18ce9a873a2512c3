package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Errors of the database itself, not of the caller's values: every error
// a write returns for one of these causes wraps the matching one (and the
// driver's error), so a reply can say what failed and a log can say why.
var (
	// ErrReadOnly: the database file (or its folder, or the disk) can't be
	// written.
	ErrReadOnly = errors.New("the database is read-only")
	// ErrFull: the disk (or the database's size limit) is full.
	ErrFull = errors.New("the database's disk is full")
	// ErrUnavailable: the database can't be used at all: closed, an I/O
	// error, a file that can't be opened, or another process holding the
	// lock past the busy timeout.
	ErrUnavailable = errors.New("the database is unavailable")
)

// SQLite's primary result codes this package tells apart.
const (
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// classify wraps err with the database failure it shows, as cause (a
// dialect's) tells it or as database/sql does (a closed database), or
// returns it as it is.
func classify(err error, cause func(error) error) error {
	if err == nil {
		return nil
	}
	c := cause(err)
	if c == nil && (errors.Is(err, sql.ErrConnDone) || strings.Contains(err.Error(), "sql: database is closed")) {
		// database/sql has no exported error for a closed *sql.DB.
		c = ErrUnavailable
	}
	if c == nil || errors.Is(err, c) {
		return err
	}
	return fmt.Errorf("%w: %w", c, err)
}

// sqliteCause tells SQLite's failures apart by their primary result code.
func sqliteCause(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code() & 0xff {
	case sqliteReadOnly:
		return ErrReadOnly
	case sqliteFull:
		return ErrFull
	case sqliteBusy, sqliteLocked, sqliteIOErr, sqliteCorrupt, sqliteCantOpen:
		return ErrUnavailable
	}
	return nil
}

// postgresCause tells PostgreSQL's failures apart: a read-only transaction
// (25006) and a full disk (53100) by their SQLSTATE, a lost connection or a
// server shutting down, and a server that can't be reached, as unavailable.
func postgresCause(err error) error {
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &pe):
		switch {
		case pe.Code == "25006":
			return ErrReadOnly
		case pe.Code == "53100":
			return ErrFull
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "57P"):
			return ErrUnavailable // connection exceptions, shutdown
		}
	case errors.As(err, &ce):
		return ErrUnavailable
	}
	return nil
}

// postgresRetry reports whether a PostgreSQL transaction failed with a
// serialization failure (40001) or a deadlock (40P01), which running it
// again may not meet.
func postgresRetry(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}
