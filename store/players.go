package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Profile is a player's own settings.
type Profile struct {
	UserID string
	// TimeZone is an IANA zone name ("Europe/Paris"); "" means none set
	// (the dailies then follow UTC).
	TimeZone string
	// ZoneFloor is the date (a UTC midnight) the player was on when they
	// last set their zone; zero when never set. Package commands keeps the
	// player's today from going back before it.
	ZoneFloor time.Time
	// HideName shows the player as an anonymous player on the global
	// boards (SetHideName).
	HideName  bool
	UpdatedAt time.Time
}

// Profile returns userID's settings; a player who never set any gets a
// Profile with only UserID.
func (c *core) Profile(ctx context.Context, userID string) (Profile, error) {
	p := Profile{UserID: userID}
	var floor string
	var updated int64
	var hide int
	err := c.r.QueryRowContext(ctx, `SELECT time_zone, zone_floor, updated_at, hide_name FROM players WHERE user_id = $1`, userID).
		Scan(&p.TimeZone, &floor, &updated, &hide)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return Profile{}, fmt.Errorf("profile of %s: %w", userID, err)
	}
	p.HideName = hide != 0
	if floor == "" { // a player who only hid their name has no zone
		p.UpdatedAt = fromMS(updated)
		return p, nil
	}
	if p.ZoneFloor, err = time.Parse(dayFormat, floor); err != nil {
		return Profile{}, fmt.Errorf("profile of %s: zone floor %q: %w", userID, floor, err)
	}
	p.UpdatedAt = fromMS(updated)
	return p, nil
}

// SetTimeZone records zone as userID's time zone, with floor (its date is
// kept) as the date they were on when changing it. The store doesn't check
// the zone's name: the caller has loaded it.
func (c *core) SetTimeZone(ctx context.Context, userID, zone string, floor, now time.Time) error {
	if userID == "" || zone == "" || floor.IsZero() {
		return fmt.Errorf("set time zone: %w: user, zone and floor are required", ErrInvalid)
	}
	return c.write(ctx, "set time zone of "+userID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO players (user_id, time_zone, zone_floor, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, zone_floor = excluded.zone_floor,
			updated_at = excluded.updated_at`, userID, zone, day(floor), ms(now))
		return err
	})
}
