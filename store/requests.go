package store

import (
	"context"
	"database/sql"
	"time"
)

// FirstSeen records the signature of a signed request and reports whether
// it is the first time any process has seen it. The record is kept until
// expires (when the request's timestamp alone would refuse it); expired
// records are swept as new ones arrive. The primary key decides between
// processes that record the same signature at once.
func (c *core) FirstSeen(ctx context.Context, signature string, expires, now time.Time) (bool, error) {
	first := false
	err := c.write(ctx, "record a request signature", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM seen_requests WHERE expires_at < $1`, ms(now)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO seen_requests (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
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
