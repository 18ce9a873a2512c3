package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TestPlayerDay: the player's date in their zone, at the edges (UTC+14 and
// UTC−12), across New York's and Paris's clock changes, and never before
// the floor a zone change left.
func TestPlayerDay(t *testing.T) {
	utc := func(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		now   time.Time
		zone  string
		floor time.Time
		want  time.Time
	}{
		{"no zone: UTC", utc(3, 14, 11, 0), "", time.Time{}, date(2026, 3, 14)},
		{"UTC+14 is a day ahead", utc(3, 14, 11, 0), "Pacific/Kiritimati", time.Time{}, date(2026, 3, 15)},
		{"UTC+14 just before its midnight", utc(3, 14, 9, 59), "Pacific/Kiritimati", time.Time{}, date(2026, 3, 14)},
		{"UTC−12 is a day behind", utc(3, 14, 11, 0), "Etc/GMT+12", time.Time{}, date(2026, 3, 13)},
		{"UTC−12 at its midnight", utc(3, 14, 12, 0), "Etc/GMT+12", time.Time{}, date(2026, 3, 14)},
		{"two dates apart: UTC+14 at UTC−12's 23:00", utc(3, 15, 11, 0), "Pacific/Kiritimati", time.Time{}, date(2026, 3, 16)},
		{"New York 23:30 EST, the night DST starts", utc(3, 8, 4, 30), "America/New_York", time.Time{}, date(2026, 3, 7)},
		{"New York 23:30 EDT, the next night", utc(3, 9, 3, 30), "America/New_York", time.Time{}, date(2026, 3, 8)},
		{"New York 00:30 EDT", utc(3, 9, 4, 30), "America/New_York", time.Time{}, date(2026, 3, 9)},
		{"Paris 00:30 CEST after its change", utc(3, 29, 22, 30), "Europe/Paris", time.Time{}, date(2026, 3, 30)},
		{"Paris 23:30 CET before it", utc(3, 28, 22, 30), "Europe/Paris", time.Time{}, date(2026, 3, 28)},
		{"a floor holds today back from going back", utc(3, 14, 11, 0), "Etc/GMT+12", date(2026, 3, 15), date(2026, 3, 15)},
		{"once the zone's date passes the floor it leads", utc(3, 16, 12, 0), "Etc/GMT+12", date(2026, 3, 15), date(2026, 3, 16)},
		{"an unknown zone follows UTC", utc(3, 14, 23, 0), "Mars/Olympus", time.Time{}, date(2026, 3, 14)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := playerDay(tt.now, store.Profile{TimeZone: tt.zone, ZoneFloor: tt.floor})
			if !got.Equal(tt.want) {
				t.Errorf("playerDay(%s, %q, floor %s) = %s, want %s", tt.now.Format(time.RFC3339), tt.zone,
					tt.floor.Format(time.DateOnly), got.Format(time.DateOnly), tt.want.Format(time.DateOnly))
			}
		})
	}
}

// TestCanonicalZone: names as players type them.
func TestCanonicalZone(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Europe/Paris", "Europe/Paris"},
		{"europe/paris", "Europe/Paris"},
		{"America/New York", "America/New_York"},
		{"Tokyo", "Asia/Tokyo"},
		{"utc", "UTC"},
		{"Etc/GMT+12", "Etc/GMT+12"},
		{"Local", ""},
		{"Mars/Olympus", ""},
		{"", ""},
		{"../../etc/passwd", ""},
	} {
		got, ok := canonicalZone(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("canonicalZone(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// setZone runs /profile timezone: for w at now.
func (e *playEnv) setZone(w who, now time.Time, zone string) string {
	e.t.Helper()
	return e.do(w.slash(now, "profile", "", optTimezone, zone)).Content
}

// TestDailiesFollowThePlayersDate: at one instant, players at UTC+14,
// UTC and UTC−12 get three different dailies; daily #N is the same puzzle
// for everyone whose date it is.
func TestDailiesFollowThePlayersDate(t *testing.T) {
	e := newPlayEnv(t)
	now := time.Date(2026, 3, 14, 11, 0, 0, 0, time.UTC)
	east, west := who{"u-east", "East", "g1"}, who{"u-west", "West", "g1"}
	if r := e.setZone(east, now, "Pacific/Kiritimati"); !strings.Contains(r, "Your today is Sunday 15 March (daily #74)") {
		t.Errorf("setting UTC+14 = %q", r)
	}
	if r := e.setZone(west, now, "Etc/GMT+12"); !strings.Contains(r, "Your today stays Saturday 14 March (daily #73) until that date comes there") {
		t.Errorf("setting UTC−12 = %q, want today held at the 14th", r)
	}
	title := func(w who, at time.Time) (string, string) {
		r := e.do(w.slash(at, "daily", "play", optLevel, "easy"))
		g, _ := e.st.Game(context.Background(), gameID(t, r))
		return r.Embeds[0].Title, g.Puzzle
	}
	te, pe := title(east, now)
	tu, _ := title(ada, now)
	tw, _ := title(west, now)
	if te != "Daily #74 · easy" || tu != "Daily #73 · easy" || tw != "Daily #73 · easy" {
		t.Errorf("dailies at 11:00 UTC: east %q, UTC %q, west (held) %q", te, tu, tw)
	}
	// The next UTC day, Bob in UTC gets #74: the puzzle East played.
	tb, pb := title(bob, now.Add(24*time.Hour))
	if tb != "Daily #74 · easy" || pb != pe {
		t.Errorf("Bob's daily on the 15th = %q %q, want East's #74 %q", tb, pb, pe)
	}
	if r := e.setZone(east, now, "pacific/kiritimati"); !strings.Contains(r, "already Pacific/Kiritimati") {
		t.Errorf("setting the same zone again = %q", r)
	}
	if r := e.setZone(east, now, "Atlantis/Lost"); !strings.Contains(r, "I don't know the time zone \"Atlantis/Lost\"") {
		t.Errorf("an unknown zone = %q", r)
	}
	if r := allText(e.do(east.slash(now, "profile", ""))); !strings.Contains(r, "Your time zone is Pacific/Kiritimati: your today is Sunday 15 March (daily #74).") {
		t.Errorf("/profile = %q", r)
	}
}

// TestZoneChangeMidStreak: a change of zone neither replays a day nor
// back-fills a missed one, and a streak carries across a change and a
// clock change.
func TestZoneChangeMidStreak(t *testing.T) {
	e := newPlayEnv(t)
	d := func(day, h int) time.Time { return time.Date(2026, 3, day, h, 0, 0, 0, time.UTC) }
	// Ada, in UTC, solves the 13th and the 14th in the evening.
	e.solveDaily(ada, "easy", d(13, 20), 5*time.Minute)
	e.solveDaily(ada, "easy", d(14, 20), 5*time.Minute)
	// At 21:00 UTC on the 14th she moves to UTC+14, where it is the 15th.
	if r := e.setZone(ada, d(14, 21), "Pacific/Kiritimati"); !strings.Contains(r, "Sunday 15 March (daily #74)") {
		t.Fatalf("moving east = %q", r)
	}
	r := e.solveDaily(ada, "easy", d(14, 21), 5*time.Minute)
	if !strings.Contains(r.FollowUps[0].Content, "today's easy daily (#74)") {
		t.Errorf("announcement in the new zone = %q, want today's #74", r.FollowUps[0].Content)
	}
	// Back to UTC−12 (the 14th there): her today stays the 15th, so
	// /daily play shows the #74 she solved, not the 13th or 14th again.
	if r := e.setZone(ada, d(14, 22), "Etc/GMT+12"); !strings.Contains(r, "stays Sunday 15 March") {
		t.Errorf("moving back west = %q", r)
	}
	again := e.do(ada.slash(d(14, 22), "daily", "play", optLevel, "easy"))
	if !strings.Contains(again.Content, "You already solved today's easy daily") || again.Embeds[0].Title != "Daily #74 · easy" {
		t.Errorf("/daily play after moving back = %q %q, want #74 already solved", again.Content, again.Embeds[0].Title)
	}
	st := allText(e.do(ada.slash(d(14, 22), "daily", "stats")))
	if !strings.Contains(st, "current **3** · best **3**") {
		t.Errorf("stats after the changes = %q, want a streak of 3", st)
	}
	// Bob, in UTC+14, solves the 15th without the 14th, then moves west:
	// the 14th (and 13th) can't be back-filled.
	e.setZone(bob, d(14, 11), "Pacific/Kiritimati")
	e.solveDaily(bob, "easy", d(14, 11), 4*time.Minute)
	e.setZone(bob, d(14, 12), "Etc/GMT+12")
	if r := e.do(bob.slash(d(14, 12), "daily", "play", optLevel, "medium")); r.Embeds[0].Title != "Daily #74 · medium" {
		t.Errorf("Bob's daily after moving west = %q, want #74 (no back-fill)", r.Embeds[0].Title)
	}
	// New York across its clock change (8 March): the 7th, 8th and 9th
	// solved at 23:30 local, EST then EDT, make a streak of three.
	nyx := who{"u-ny", "Nyx", "g1"}
	e.setZone(nyx, time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC), "America/New_York")
	for _, at := range []time.Time{
		time.Date(2026, 3, 8, 4, 30, 0, 0, time.UTC), // 7 Mar 23:30 EST
		time.Date(2026, 3, 9, 3, 30, 0, 0, time.UTC), // 8 Mar 23:30 EDT
		time.Date(2026, 3, 10, 3, 30, 0, 0, time.UTC),
	} {
		e.solveDaily(nyx, "easy", at, 20*time.Minute)
	}
	st = allText(e.do(nyx.slash(time.Date(2026, 3, 10, 3, 59, 0, 0, time.UTC), "daily", "stats")))
	if !strings.Contains(st, "current **3** · best **3**") || !strings.Contains(st, "3 dailies solved on 3 days") {
		t.Errorf("New York stats = %q, want 3 days in a row", st)
	}
}

// TestCompleteZone: the zones offered as a player types, within Discord's
// limits, best matches first.
func TestCompleteZone(t *testing.T) {
	e := newPlayEnv(t)
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		typed, locale string
		first         string // the first choice's value ("" for none)
		min           int    // at least this many choices
	}{
		{"", "fr", "Europe/Paris", 2},
		{"", "en-US", "America/New_York", 7},
		{"", "pt-PT", "UTC", 1}, // no guess for the language: UTC
		{"paris", "", "Europe/Paris", 1},
		{"New Y", "", "America/New_York", 1},
		{"kolk", "", "Asia/Kolkata", 1},
		{"america", "", "America/Adak", 25},
		{"zzz", "", "", 0},
	} {
		r := ada.slash(now, "profile", "", optTimezone, tt.typed)
		r.Kind, r.Focused, r.Locale = Autocomplete, optTimezone, tt.locale
		got := e.do(r)
		first := ""
		if len(got.Choices) > 0 {
			first = got.Choices[0].Value
		}
		if first != tt.first || len(got.Choices) < tt.min || got.Choices == nil || got.Content != "" {
			t.Errorf("typing %q (%s): %d choices, first %q; want at least %d, first %q", tt.typed, tt.locale, len(got.Choices), first, tt.min, tt.first)
		}
	}
	r := ada.slash(now, "profile", "", optTimezone, "paris")
	r.Kind, r.Focused = Autocomplete, optTimezone
	if got := e.do(r); got.Choices[0].Name != "Europe/Paris (Wed 14:00, UTC+02:00)" {
		t.Errorf("the Paris choice reads %q", got.Choices[0].Name)
	}
	if p := e.s.Plan(context.Background(), r); p != (Plan{}) {
		t.Errorf("Plan(autocomplete) = %+v, want an answer at once", p)
	}
}

// TestStreakFreezeInStats: seven days in a row earn a freeze, shown in
// /daily stats; a missed day spends it and the streak goes on.
func TestStreakFreezeInStats(t *testing.T) {
	e := newPlayEnv(t)
	for i := range 9 {
		if i == 7 {
			continue // the 8th day is missed
		}
		e.solveDaily(ada, "easy", t0.AddDate(0, 0, i), 5*time.Minute)
		if i == 6 {
			st := allText(e.do(ada.slash(t0.AddDate(0, 0, i).Add(time.Hour), "daily", "stats")))
			if !strings.Contains(st, "current **7**") || !strings.Contains(st, "Freezes: **1** of 2 held") {
				t.Errorf("stats after seven days = %q, want a freeze held", st)
			}
		}
	}
	st := allText(e.do(ada.slash(t0.AddDate(0, 0, 8).Add(time.Hour), "daily", "stats")))
	if !strings.Contains(st, "current **8** · best **8**") || !strings.Contains(st, "Freezes: **0** of 2 held · 1 day saved by one so far") {
		t.Errorf("stats after a missed day = %q, want the streak kept by the freeze", st)
	}
}

// BenchmarkCompleteZone times one autocomplete answer (Discord fires one
// per keystroke): matching the zone list and formatting 25 choices.
func BenchmarkCompleteZone(b *testing.B) {
	p := &player{}
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, typed := range []string{"", "a", "new y"} {
		b.Run(strings.ReplaceAll(typed, " ", "_"), func(b *testing.B) {
			req := Request{Kind: Autocomplete, Focused: optTimezone, Options: map[string]string{optTimezone: typed}, Locale: "en-US", Now: now}
			for b.Loop() {
				p.completeZone(context.Background(), req)
			}
		})
	}
}
