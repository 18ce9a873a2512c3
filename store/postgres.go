package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// Postgres is the store on a PostgreSQL server, for several processes (and
// machines) sharing one truth. It has the same methods, and keeps the same
// rules, as the SQLite Store (both are core): every write is one
// transaction; a game being changed is locked (SELECT … FOR UPDATE) so
// moves on one game queue instead of interleaving; what must happen once (a
// daily result, a post claim, a daily game per user) rests on a unique key
// and INSERT … ON CONFLICT DO NOTHING. It is safe for concurrent use and
// never reads the clock.
type Postgres struct {
	core
	trace *errorTracer
	conf  *pgx.ConnConfig // for WatchGames' own connection
}

//go:embed migrations/postgres/*.sql
var pgMigrationFS embed.FS

// pgMigrationLock is the advisory-lock key held while migrating, so two
// processes starting at once apply each migration once ("sudoku" in ASCII).
const pgMigrationLock = 0x7375646f6b75

// postgresDialect is PostgreSQL as core sees it: many writers, so rows a
// transaction changes are locked, serialization failures are retried, and
// migrations run under an advisory lock.
var postgresDialect = &dialect{
	name:           "postgres",
	forUpdate:      " FOR UPDATE",
	cause:          postgresCause,
	retry:          postgresRetry,
	migrations:     pgMigrationFS,
	migrationDir:   "migrations/postgres",
	lockMigrations: pgLockMigrations,
}

// pgLockMigrations holds the migration advisory lock on conn until unlock.
func pgLockMigrations(ctx context.Context, conn *sql.Conn) (func(), error) {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, pgMigrationLock); err != nil {
		return nil, err
	}
	return func() {
		conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, pgMigrationLock)
	}, nil
}

// IsPostgresURL reports whether url names a PostgreSQL database
// (postgres:// or postgresql://), the form DATABASE_URL takes.
func IsPostgresURL(url string) bool {
	u := strings.ToLower(url)
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// OpenPostgres connects to the database at url (postgres://user@host/db;
// pgx's settings such as pool_max_conns and search_path go in the query)
// and brings its schema up to date.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	if !IsPostgresURL(url) {
		return nil, fmt.Errorf("open postgres store: %w: DATABASE_URL must start with postgres:// (got %q)", ErrInvalid, redactURL(url))
	}
	// pgxpool's parser knows the pool_* settings (which the server would
	// refuse as parameters); database/sql's pool takes their values.
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), err)
	}
	trace := &errorTracer{}
	cfg.ConnConfig.Tracer = trace
	db := stdlib.OpenDB(*cfg.ConnConfig)
	db.SetMaxOpenConns(int(cfg.MaxConns))
	db.SetMaxIdleConns(int(cfg.MaxConns))
	db.SetConnMaxLifetime(cfg.MaxConnLifetime)
	db.SetConnMaxIdleTime(cfg.MaxConnIdleTime)
	p := &Postgres{core: core{w: db, r: db, d: postgresDialect}, trace: trace, conf: cfg.ConnConfig.Copy()}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), p.classify(err))
	}
	var schema string
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(current_schema(), '')`).Scan(&schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), p.classify(err))
	}
	p.channel = pgChannel(schema)
	if err := p.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), err)
	}
	return p, nil
}

// redactURL drops the password from a connection URL for messages.
func redactURL(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return "(unparsable URL)"
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return url
	}
	user, _, _ := strings.Cut(rest[:at], ":")
	return scheme + "://" + user + ":xxx" + rest[at:]
}
