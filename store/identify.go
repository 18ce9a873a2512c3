package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ClaimIdentify asks for the next gateway Identify of rate-limit bucket:
// it returns 0 when the caller may identify now (and books the bucket
// until now+every), or how long to wait before asking again. Exactly one
// of any number of callers, in any number of processes, gets each slot:
// the bucket's row is locked for the decision.
func (c *core) ClaimIdentify(ctx context.Context, bucket int, every time.Duration, now time.Time) (time.Duration, error) {
	var wait time.Duration
	err := c.write(ctx, fmt.Sprintf("claim identify slot %d", bucket), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO identify_slots (bucket, next_at) VALUES ($1, 0) ON CONFLICT DO NOTHING`, bucket); err != nil {
			return err
		}
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT next_at FROM identify_slots WHERE bucket = $1`+c.d.forUpdate, bucket).Scan(&next); err != nil {
			return err
		}
		if wait = slotWait(next, now); wait > 0 {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE identify_slots SET next_at = $1 WHERE bucket = $2`, ms(now.Add(every)), bucket)
		return err
	})
	return wait, err
}

// slotWait is how long before a slot booked until next (Unix ms) frees.
func slotWait(next int64, now time.Time) time.Duration {
	if d := fromMS(next).Sub(now); d > 0 {
		return d
	}
	return 0
}
