package sudoku

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// DailyEpoch is the UTC day of Daily #1: 1 January 2026. Daily numbers count
// days from it, so 2026-01-02 is #2 and 2026-11-21 is #325.
var DailyEpoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// DailyShape and DailySymmetry are the shape and clue pattern of every daily
// puzzle: a classic 9x9 with the traditional half-turn symmetry.
var (
	DailyShape    = Shape9
	DailySymmetry = Rotate180
)

// DailyLevels lists the levels of the day's three puzzles, easiest first.
func DailyLevels() []Level { return []Level{Easy, Medium, Hard} }

// DailyPuzzle is one of the day's three puzzles.
type DailyPuzzle struct {
	Number int       // "Daily #325": days since DailyEpoch, from 1
	Date   time.Time // the UTC day, at midnight
	Level  Level
	Puzzle
}

// DailyDay returns the UTC day that holds the instant t, at midnight UTC.
// 2026-11-21T23:30-05:00 is already 2026-11-22 in UTC, so it belongs to the
// daily of the 22nd: every server, wherever it runs, agrees on the day.
func DailyDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DailyNumber returns the number of the daily of t's UTC day: 1 on
// DailyEpoch, and 0 or less before it.
func DailyNumber(t time.Time) int {
	// Whole UTC days have no leap seconds in Go's time, so the division is
	// exact.
	return int(DailyDay(t).Sub(DailyEpoch)/(24*time.Hour)) + 1
}

// ErrNoDailySecret is returned by Daily when it is given no secret.
var ErrNoDailySecret = errors.New("no daily secret")

// Daily returns the daily puzzle of date's UTC day at level (one of
// DailyLevels): a pure function of the secret, the day and the level, so
// every shard, server and restart that shares the secret shows the same
// puzzle, and nobody without it can work out a day's puzzle before it is
// published. Days before DailyEpoch have no daily.
func Daily(ctx context.Context, secret []byte, date time.Time, level Level) (DailyPuzzle, error) {
	day := DailyDay(date)
	if len(secret) == 0 {
		return DailyPuzzle{}, fmt.Errorf("daily %s: %w", day.Format(time.DateOnly), ErrNoDailySecret)
	}
	if day.Before(DailyEpoch) {
		return DailyPuzzle{}, fmt.Errorf("daily %s: the first daily is %s", day.Format(time.DateOnly), DailyEpoch.Format(time.DateOnly))
	}
	if !isDailyLevel(level) {
		return DailyPuzzle{}, fmt.Errorf("daily %s: no %v daily: the levels are easy, medium and hard", day.Format(time.DateOnly), level)
	}
	p, err := Generate(ctx, GenerateOptions{
		Shape:    DailyShape,
		Level:    level,
		Symmetry: DailySymmetry,
		Seed:     dailySeed(secret, day, level),
	})
	if err != nil {
		return DailyPuzzle{}, fmt.Errorf("daily %s %s: %w", day.Format(time.DateOnly), level, err)
	}
	return DailyPuzzle{Number: DailyNumber(day), Date: day, Level: level, Puzzle: p}, nil
}

func isDailyLevel(l Level) bool {
	for _, d := range DailyLevels() {
		if l == d {
			return true
		}
	}
	return false
}

// dailySeed derives the generator seed of a day and level: the first eight
// bytes of HMAC-SHA256 under the secret of "daily 2026-11-21 easy". Without
// the secret the seed of a coming day can't be computed, and the date is
// written as a calendar day so it never depends on time zones or the epoch.
func dailySeed(secret []byte, day time.Time, level Level) uint64 {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "daily %s %s", day.Format(time.DateOnly), level)
	return binary.BigEndian.Uint64(mac.Sum(nil))
}
