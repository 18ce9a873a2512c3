package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Setting returns the bot-wide setting key, or ErrNotFound; see
// Store.Setting.
func (p *Postgres) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := p.pool.QueryRow(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&v)
	if isNoRows(err) {
		return "", fmt.Errorf("setting %q: %w", key, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read setting %q: %w", key, err)
	}
	return v, nil
}

// InitSetting stores value under key unless key already has one, and
// returns the value stored; see Store.InitSetting.
func (p *Postgres) InitSetting(ctx context.Context, key, value string) (string, error) {
	if key == "" || value == "" {
		return "", fmt.Errorf("init setting %q: %w: key and value are required", key, ErrInvalid)
	}
	var stored string
	err := p.write(ctx, fmt.Sprintf("init setting %q", key), func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING`, key, value); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&stored)
	})
	return stored, err
}
