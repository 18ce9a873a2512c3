package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Setting returns the bot-wide setting key, or ErrNotFound.
func (c *core) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := c.r.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("setting %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read setting %q: %w", key, err)
	}
	return v, nil
}

// InitSetting stores value under key unless key already has one, and
// returns the value stored: value for the first caller, the earlier value
// for every later one (other shards, restarts). Two processes starting at
// once therefore agree on one value.
func (c *core) InitSetting(ctx context.Context, key, value string) (string, error) {
	if key == "" || value == "" {
		return "", fmt.Errorf("init setting %q: %w: key and value are required", key, ErrInvalid)
	}
	var stored string
	err := c.write(ctx, fmt.Sprintf("init setting %q", key), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING`, key, value); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&stored)
	})
	return stored, err
}
