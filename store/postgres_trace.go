package store

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// errorTracer counts the statements that failed for a reason of the
// database's own (not a missing row, not a cancelled request), for the
// bot's database_errors_total metric.
type errorTracer struct{ n atomic.Int64 }

func (t *errorTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (t *errorTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	if d.Err == nil || errors.Is(d.Err, pgx.ErrNoRows) || errors.Is(d.Err, sql.ErrNoRows) ||
		errors.Is(d.Err, context.Canceled) || ctx.Err() != nil {
		return
	}
	t.n.Add(1)
}

// Errors reports how many statements failed on the database's side since
// the store was opened.
func (p *Postgres) Errors() int64 { return p.trace.n.Load() }
