package store

import (
	"context"
	"fmt"
)

// Ping reports whether the database answers (for readiness checks).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}
