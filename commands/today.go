package commands

import (
	"context"
	_ "embed" // the zone list
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones on machines without a zone database (the scratch image)

	"sudokubot/store"
	"sudokubot/sudoku"
)

// The player's own day. A player who set a time zone (/profile timezone:)
// plays the daily of their local date: daily #N is the puzzle of a date, the
// same for everyone whose date it is (between UTC−12 and UTC+14 dates differ
// by up to two). Streaks, "already played", the leaderboard's "today" and
// the wording follow that date. A player with no zone follows UTC.
//
// Changing zone can't replay or back-fill a day: the store keeps, with the
// zone, the date the player was on when changing it (the floor), and their
// today never goes back before it; a date's daily is played once whatever
// the zone (the store's unique index). Moving east can jump over a date, as
// a flight over the date line does: that date is then missed.

// ProfileStore keeps a player's own settings.
type ProfileStore interface {
	Profile(ctx context.Context, userID string) (store.Profile, error)
	SetTimeZone(ctx context.Context, userID, zone string, floor, now time.Time) error
}

// zoneNames are the IANA zones offered by /profile timezone: UTC, then the
// zones of the tz database's zone.tab and zone1970.tab (every country's),
// sorted; written from /usr/share/zoneinfo by
// `(echo UTC; awk -F'\t' '!/^#/ {print $3}' zone1970.tab zone.tab | sort -u)`.
//
//go:embed zones.txt
var zoneNames string

var zoneList = sync.OnceValue(func() []string { return strings.Fields(zoneNames) })

// zoneLower is zoneList in lower case, for matching what a player types.
var zoneLower = sync.OnceValue(func() []string { return strings.Fields(strings.ToLower(zoneNames)) })

// loadZone reads an IANA zone name; "" and names that aren't zones fail.
// "Local" is refused: it is the server's zone, not the player's.
func loadZone(name string) (*time.Location, bool) {
	if name == "" || strings.EqualFold(name, "local") {
		return nil, false
	}
	zoneCache.Lock()
	defer zoneCache.Unlock()
	if loc, ok := zoneCache.m[name]; ok {
		return loc, true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zoneCache.m[name] = loc // only real zones: a few hundred at most
	return loc, true
}

// zoneCache keeps the zones loaded: time.LoadLocation reads the embedded
// database each time, and autocomplete loads 25 zones per keystroke.
var zoneCache = struct {
	sync.Mutex
	m map[string]*time.Location
}{m: map[string]*time.Location{}}

// localDay is the date of now in zone name (UTC when "" or unknown), as a
// UTC midnight: the form daily dates take.
func localDay(now time.Time, name string) time.Time {
	t := now.UTC()
	if loc, ok := loadZone(name); ok {
		t = now.In(loc)
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// playerDay is the player's today at now: the date in their zone, never
// before the date they were on when they last changed zone.
func playerDay(now time.Time, prof store.Profile) time.Time {
	d := localDay(now, prof.TimeZone)
	if d.Before(prof.ZoneFloor) {
		return prof.ZoneFloor
	}
	return d
}

// today returns userID's today at now (UTC's when the store can't say, with
// the error for the reply to log).
func (p *player) today(ctx context.Context, userID string, now time.Time) (time.Time, store.Profile, error) {
	if p.profiles == nil {
		return sudoku.DailyDay(now), store.Profile{UserID: userID}, nil
	}
	prof, err := p.profiles.Profile(ctx, userID)
	if err != nil {
		return sudoku.DailyDay(now), prof, err
	}
	return playerDay(now, prof), prof, nil
}
