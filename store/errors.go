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

// classify wraps err with the cause it shows (ErrReadOnly, ErrFull,
// ErrUnavailable), or returns it as it is.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var cause error
	var se *sqlite.Error
	switch {
	case errors.As(err, &se):
		switch se.Code() & 0xff {
		case sqliteReadOnly:
			cause = ErrReadOnly
		case sqliteFull:
			cause = ErrFull
		case sqliteBusy, sqliteLocked, sqliteIOErr, sqliteCorrupt, sqliteCantOpen:
			cause = ErrUnavailable
		}
	case errors.Is(err, sql.ErrConnDone), strings.Contains(err.Error(), "sql: database is closed"):
		// database/sql has no exported error for a closed *sql.DB.
		cause = ErrUnavailable
	}
	if cause == nil || errors.Is(err, cause) {
		return err
	}
	return fmt.Errorf("%w: %w", cause, err)
}

// classifyPostgres is classify for the PostgreSQL store: read-only
// transactions (25006) and a full disk (53100) by their SQLSTATE, and a
// closed pool or a lost connection as unavailable.
func classifyPostgres(err error) error {
	if err == nil {
		return nil
	}
	var cause error
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &pe):
		switch {
		case pe.Code == "25006":
			cause = ErrReadOnly
		case pe.Code == "53100":
			cause = ErrFull
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "57P"):
			cause = ErrUnavailable // connection exceptions, shutdown
		}
	case errors.As(err, &ce), strings.Contains(err.Error(), "closed pool"):
		cause = ErrUnavailable
	}
	if cause == nil || errors.Is(err, cause) {
		return err
	}
	return fmt.Errorf("%w: %w", cause, err)
}
