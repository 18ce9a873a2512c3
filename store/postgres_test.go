package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// pgTestEnv names the PostgreSQL server the tests use, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Unset, the
// PostgreSQL tests skip; set, they run, and fail when the server does not
// answer (so CI cannot pass by silently skipping them).
const pgTestEnv = "DATABASE_URL_TEST"

// requirePostgres skips t when no server is configured and fails it when
// the configured one is unreachable.
func requirePostgres(t testing.TB) string {
	t.Helper()
	url := os.Getenv(pgTestEnv)
	if url == "" {
		t.Skipf("%s is not set: PostgreSQL tests skipped (set it to e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)", pgTestEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, url)
	if err == nil {
		err = pool.Ping(ctx)
		pool.Close()
	}
	if err != nil {
		t.Fatalf("%s=%s is set but the server does not answer: %v", pgTestEnv, redactURL(url), err)
	}
	return url
}

// withParam adds key=value to the query of a connection URL.
func withParam(url, key, value string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + key + "=" + value
}

// newTestSchema creates an empty schema with a random name on the test
// server and drops it (with everything in it) when t ends. It returns a URL
// whose connections use that schema, so parallel test runs never meet.
func newTestSchema(t testing.TB) string {
	t.Helper()
	url := requirePostgres(t)
	var b [8]byte
	rand.Read(b[:])
	schema := "sudokubot_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	admin, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", redactURL(url), err)
	}
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return withParam(url, "search_path", schema)
}

// openPostgresTest is the contract's PostgreSQL opener: a fresh schema per
// test, and any number of handles (pools) on it.
func openPostgresTest(t testing.TB) func() (backend, error) {
	t.Helper()
	url := newTestSchema(t)
	// Handles are closed before the schema is dropped: their cleanups are
	// registered after its.
	return closing(t, func() (*Postgres, error) { return OpenPostgres(context.Background(), url) })
}

func mustOpenPostgres(t testing.TB, url string) *Postgres {
	t.Helper()
	p, err := OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestPostgresMigrationsMatchSQLite keeps the two schemas in step: every
// SQLite migration has its PostgreSQL twin with the same number.
func TestPostgresMigrationsMatchSQLite(t *testing.T) {
	lite, err := sqliteDialect.loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	pg, err := postgresDialect.loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) != len(pg) {
		t.Fatalf("%d SQLite migrations but %d PostgreSQL ones: add the twin under store/migrations/postgres", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].name != pg[i].name {
			t.Errorf("migration %d is %s for SQLite but %s for PostgreSQL", i+1, lite[i].name, pg[i].name)
		}
	}
}

func TestOpenPostgresErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tests := []struct {
		name, url, want string
	}{
		{"not postgres", "mysql://u@h/db", "must start with postgres://"},
		{"nothing listening", "postgres://u:secret@127.0.0.1:1/db?connect_timeout=2", "127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := OpenPostgres(ctx, tt.url)
			if err == nil {
				p.Close()
				t.Fatalf("OpenPostgres(%q) succeeded, want an error", tt.url)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("OpenPostgres(%q) = %v, want it to mention %q", tt.url, err, tt.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("OpenPostgres error shows the password: %v", err)
			}
		})
	}
	if _, err := OpenPostgres(ctx, "mysql://x"); !errors.Is(err, ErrInvalid) {
		t.Errorf("OpenPostgres(mysql://x) = %v, want ErrInvalid", err)
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://bot:hunter2@db:5432/sudoku", "postgres://bot:xxx@db:5432/sudoku"},
		{"postgres://bot@db/sudoku", "postgres://bot:xxx@db/sudoku"},
		{"postgres://db/sudoku", "postgres://db/sudoku"},
		{"nonsense", "(unparsable URL)"},
	}
	for _, tt := range tests {
		if got := redactURL(tt.in); got != tt.want {
			t.Errorf("redactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPostgresWriteFailuresSayWhy(t *testing.T) {
	url := newTestSchema(t)
	ctx := context.Background()
	mustOpenPostgres(t, url) // creates the schema's tables
	// Every session read-only: every write fails with SQLSTATE 25006.
	cfg, err := pgx.ParseConfig(withParam(url, "default_transaction_read_only", "on"))
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	ro := &Postgres{core: core{w: db, r: db, d: postgresDialect}}
	if err := ro.SetDaily(ctx, "g1", "c1", 9, t0); !errors.Is(err, ErrReadOnly) {
		t.Errorf("SetDaily on a read-only database = %v, want ErrReadOnly", err)
	}
	db.Close()
	if err := ro.SetDaily(ctx, "g1", "c1", 9, t0); !errors.Is(err, ErrUnavailable) {
		t.Errorf("SetDaily on a closed pool = %v, want ErrUnavailable", err)
	}
}

// TestPostgresErrorsCounted: a statement the server refuses counts in
// Errors (the bot's database_errors_total); a missing row does not.
func TestPostgresErrorsCounted(t *testing.T) {
	p := mustOpenPostgres(t, newTestSchema(t))
	ctx := context.Background()
	if _, err := p.Game(ctx, 12345); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Game(12345) = %v, want ErrNotFound", err)
	}
	if n := p.Errors(); n != 0 {
		t.Errorf("Errors after a missing row = %d, want 0", n)
	}
	if _, err := p.w.ExecContext(ctx, `SELECT no_such_column FROM games`); err == nil {
		t.Fatal("a query of a missing column succeeded")
	}
	if n := p.Errors(); n != 1 {
		t.Errorf("Errors after a refused statement = %d, want 1", n)
	}
}

// TestSchemasMatch: the two sets of migrations make the same tables, with
// the same columns, each NOT NULL in both or in neither (the types are
// each database's own).
func TestSchemasMatch(t *testing.T) {
	ctx := context.Background()
	lite, _ := newTestStore(t)
	pg := mustOpenPostgres(t, newTestSchema(t))
	columns := func(db *sql.DB, query string) []string {
		t.Helper()
		rows, err := db.QueryContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var table, column string
			var notNull bool
			if err := rows.Scan(&table, &column, &notNull); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s.%s notnull=%v", table, column, notNull))
		}
		sort.Strings(out)
		return out
	}
	got := columns(lite.r, `SELECT m.name, c.name, c."notnull" OR c.pk > 0 FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table'`)
	want := columns(pg.r, `SELECT table_name, column_name, is_nullable = 'NO' FROM information_schema.columns
		WHERE table_schema = current_schema()`)
	if len(got) < 40 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the schemas differ:\nSQLite:\n%s\nPostgreSQL:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
