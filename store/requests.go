package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/jackc/pgx/v5"
)

// FirstSeen records the signature of a signed request and reports whether
// it is the first time any process has seen it. The record is kept until
// expires (when the request's timestamp alone would refuse it); expired
// records are swept as new ones arrive.
func (s *Store) FirstSeen(ctx context.Context, signature string, expires, now time.Time) (bool, error) {
	first := false
	err := s.write(ctx, "record a request signature", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM seen_requests WHERE expires_at < ?`, ms(now)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO seen_requests (signature, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			signature, ms(expires))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	return first, err
}

// FirstSeen is Store.FirstSeen on PostgreSQL: the primary key decides
// between processes that record the same signature at once.
func (p *Postgres) FirstSeen(ctx context.Context, signature string, expires, now time.Time) (bool, error) {
	first := false
	err := p.write(ctx, "record a request signature", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM seen_requests WHERE expires_at < $1`, ms(now)); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO seen_requests (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			signature, ms(expires))
		first = err == nil && tag.RowsAffected() == 1
		return err
	})
	return first, err
}
