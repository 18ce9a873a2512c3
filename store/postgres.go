package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the store on a PostgreSQL server, for several processes (and
// machines) sharing one truth. It keeps the same rules as the SQLite Store:
// every write is one transaction; a game being changed is locked (SELECT …
// FOR UPDATE) so moves on one game queue instead of interleaving; what must
// happen once (a daily result, a post claim, a daily game per user) rests on
// a unique key and INSERT … ON CONFLICT DO NOTHING. It is safe for
// concurrent use and never reads the clock.
type Postgres struct {
	pool  *pgxpool.Pool
	trace *errorTracer
}

//go:embed migrations/postgres/*.sql
var pgMigrationFS embed.FS

// pgMigrationLock is the advisory-lock key held while migrating, so two
// processes starting at once apply each migration once ("sudoku" in ASCII).
const pgMigrationLock = 0x7375646f6b75

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
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), err)
	}
	trace := &errorTracer{}
	cfg.ConnConfig.Tracer = trace
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres store %s: %w", redactURL(url), err)
	}
	p := &Postgres{pool: pool, trace: trace}
	if err := p.migrate(ctx); err != nil {
		pool.Close()
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

// Close closes the pool. Pending writes have already been committed.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Ping reports whether the database answers (for /readyz).
func (p *Postgres) Ping(ctx context.Context) error {
	if err := p.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// migrate applies the embedded PostgreSQL migrations under an advisory
// lock, each in its own transaction with the version bump.
func (p *Postgres) migrate(ctx context.Context) error {
	ms, err := loadMigrationsIn(pgMigrationFS, "migrations/postgres")
	if err != nil {
		return err
	}
	return p.applyMigrations(ctx, ms)
}

func (p *Postgres) applyMigrations(ctx context.Context, ms []migration) error {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, pgMigrationLock); err != nil {
		return fmt.Errorf("migrate: take lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, pgMigrationLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_version: %w", err)
	}
	for _, m := range ms {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var current int
			if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&current); err != nil {
				return fmt.Errorf("read schema version: %w", err)
			}
			if current > len(ms) {
				return fmt.Errorf("database schema is version %d, newer than this program knows (%d): run a newer sudokubot", current, len(ms))
			}
			if current >= m.version {
				return nil
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.version); err != nil {
				return fmt.Errorf("migration %s: record version: %w", m.name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion reports the schema version of the database.
func (p *Postgres) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := p.pool.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// write runs fn in one transaction and commits it, or rolls it back when fn
// fails. A serialization failure or deadlock (which READ COMMITTED with row
// locks makes rare) is retried a few times. what names the operation for
// errors.
func (p *Postgres) write(ctx context.Context, what string, fn func(tx pgx.Tx) error) error {
	var err error
	for range 3 {
		err = pgx.BeginFunc(ctx, p.pool, fn)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01") {
			continue
		}
		break
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, classifyPostgres(err))
	}
	return nil
}

// isNoRows reports whether err says a query found no row.
func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
