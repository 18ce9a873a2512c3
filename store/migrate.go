package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// The schema lives in numbered SQL files applied in order. A short runner is
// all this needs: migrations only go forward, there are no Go migrations, and
// it keeps the bot free of a migration framework and its dependencies.

// migration is one numbered schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the files named NNNN_what.sql in dir of fsys,
// sorted by number; numbers must run 1, 2, 3 … without gaps or repeats.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var ms []migration
	for _, path := range names {
		base := strings.TrimPrefix(path, dir+"/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_' (0002_what.sql)", base)
		}
		text, err := fs.ReadFile(fsys, path)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", base, err)
		}
		ms = append(ms, migration{version: v, name: base, sql: string(text)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %d (numbers run from 1 without gaps or repeats)", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate brings the schema up to the dialect's newest migration. Each
// migration runs in its own transaction together with the version bump, so
// a crash leaves the schema at a whole version; two processes opening the
// same database at once apply each migration once (SQLite's IMMEDIATE
// transactions queue them; on PostgreSQL the dialect's lock does).
func (c *core) migrate(ctx context.Context) error {
	ms, err := c.d.loadMigrations()
	if err != nil {
		return err
	}
	return c.applyMigrations(ctx, ms)
}

func (c *core) applyMigrations(ctx context.Context, ms []migration) error {
	conn, err := c.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if c.d.lockMigrations != nil {
		unlock, err := c.d.lockMigrations(ctx, conn)
		if err != nil {
			return fmt.Errorf("migrate: take lock: %w", err)
		}
		defer unlock()
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_version: %w", err)
	}
	for _, m := range ms {
		if err := applyMigration(ctx, conn, m, len(ms)); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, conn *sql.Conn, m migration, newest int) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: begin: %w", m.name, err)
	}
	defer tx.Rollback()
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > newest {
		return fmt.Errorf("database schema is version %d, newer than this program knows (%d): run a newer sudokubot", current, newest)
	}
	if current >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.version); err != nil {
		return fmt.Errorf("migration %s: record version: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}

// SchemaVersion reports the schema version of the open database.
func (c *core) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := c.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
