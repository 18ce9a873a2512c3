package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// monday is the first day of the week the board tests play in.
var monday = time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)

// playDaily plays w's daily of day at level through the bot, as a player
// does: the board opens at noon, the moves come in boxes spread evenly up
// to took later (boxes 1 pastes the whole solution at once: a marked
// finish). It returns the finishing reply.
func (e *playEnv) playDaily(w who, day time.Time, level sudoku.Level, took time.Duration, boxes int) Response {
	e.t.Helper()
	start := day.Add(12 * time.Hour)
	r := e.do(w.slash(start, "daily", "play", optLevel, level.String()))
	id := gameID(e.t, r)
	dp, err := e.puzzles.Daily(context.Background(), day, level)
	if err != nil {
		e.t.Fatal(err)
	}
	if boxes == 1 {
		return e.do(w.submit(start.Add(took), fmt.Sprintf("%s:%d", gmovePrefix, id), dp.Solution.String()))
	}
	all := strings.Split(movesFor(strings.ReplaceAll(dp.Grid.String(), ".", "0"), dp.Solution.String()), ", ")
	for i := range boxes {
		part := all[i*len(all)/boxes : (i+1)*len(all)/boxes]
		r = e.do(w.submit(start.Add(took*time.Duration(i+1)/time.Duration(boxes)), fmt.Sprintf("%s:%d", gmovePrefix, id), strings.Join(part, ", ")))
	}
	if !strings.Contains(allText(r), "Solved in") || strings.Contains(allText(r), "not counted") {
		e.e(fmt.Sprintf("%s's daily of %s: last reply %q, want solved and counted", w.name, day.Format(time.DateOnly), allText(r)))
	}
	return r
}

func (e *playEnv) e(msg string) { e.t.Helper(); e.t.Error(msg) }

// boardField is the text of the board reply's field for level.
func boardField(t *testing.T, r Response, level string) string {
	t.Helper()
	if len(r.Embeds) == 0 {
		t.Fatalf("no board: %q", allText(r))
	}
	for _, f := range r.Embeds[0].Fields {
		if f.Name == capitalize(level) {
			return f.Value
		}
	}
	t.Fatalf("board %q has no %s field", allText(r), level)
	return ""
}

// names are the names of a board field's ranked lines, in order.
func names(field string) []string {
	var out []string
	for _, line := range strings.Split(field, "\n") {
		if _, rest, ok := strings.Cut(line, ".** "); ok {
			name, _, _ := strings.Cut(rest, " — ")
			out = append(out, name)
		}
	}
	return out
}

// TestGlobalAndWeeklyBoards: three servers play a week of easy dailies; the
// week's boards rank by average time with three solves needed; a server's
// admin keeps it off the global boards (its players vanish there, stay on
// its own), a player hides her name, and pasted finishes never count.
func TestGlobalAndWeeklyBoards(t *testing.T) {
	e := newPlayEnv(t)
	dee := who{"u-dee", "Dee", "g3"}
	eve := who{"u-eve", "Eve", "g1"}
	day := func(n int) time.Time { return monday.AddDate(0, 0, n) }
	for i := range 3 {
		e.playDaily(ada, day(i), sudoku.Easy, time.Duration(5+i)*time.Minute, 3) // average 6:00
		e.playDaily(bob, day(i), sudoku.Easy, 9*time.Minute, 3)                  // 9:00
		e.playDaily(cy, day(i+1), sudoku.Easy, 4*time.Minute, 3)                 // 4:00, in g2
		e.playDaily(dee, day(i+2), sudoku.Easy, 7*time.Minute, 3)                // 7:00, in g3
		if r := e.playDaily(eve, day(i), sudoku.Easy, 20*time.Second, 1); !strings.Contains(allText(r), "not counted") {
			t.Errorf("Eve's paste = %q, want it not counted", allText(r))
		}
	}
	e.playDaily(bob, day(-1), sudoku.Easy, time.Minute, 3) // last week's Sunday: not this week
	e.playDaily(bob, day(3), sudoku.Medium, time.Minute, 3)
	e.playDaily(ada, day(3), sudoku.Easy, 4*time.Minute, 3) // a fourth: the average, not the count, ranks

	sunday := day(6).Add(20 * time.Hour)
	board := func(w who, opts ...string) string {
		t.Helper()
		return boardField(t, e.do(w.slash(sunday, "daily", "leaderboard", append([]string{optLevel, "easy"}, opts...)...)), "easy")
	}
	tests := []struct {
		name string
		w    who
		opts []string
		want []string
	}{
		{"global week", bob, []string{optPeriod, "week", optScope, "global"}, []string{"Cy", "Ada", "Dee", "Bob (you)"}},
		{"g1's week", bob, []string{optPeriod, "week"}, []string{"Ada", "Bob (you)"}},
		{"g2's week", cy, []string{optPeriod, "week"}, []string{"Cy (you)"}},
		{"global month", dee, []string{optPeriod, "month", optScope, "global"}, nil}, // 7 needed
		{"global day, Wednesday", ada, []string{optScope, "global", optDate, "2026-03-18"}, []string{"Cy", "Ada (you)", "Dee", "Bob"}},
	}
	for _, c := range tests {
		if got := names(board(c.w, c.opts...)); strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	if f := board(ada, optPeriod, "week", optScope, "global"); !strings.Contains(f, "Ada (you) — 5:30 average over 4 · best 4:00") {
		t.Errorf("Ada's line on the global week = %q", f)
	}
	if f := board(eve, optPeriod, "week"); strings.Contains(f, "Eve") || strings.Contains(f, "You:") {
		t.Errorf("Eve's pastes reach the board: %q", f)
	}

	// g2's admin keeps it off the global boards.
	setup := cy.slash(sunday, "daily", "setup", optGlobal, "false")
	if r := e.do(setup); !strings.Contains(r.Content, "needs the Manage Server permission") {
		t.Errorf("a member's global:false = %q, want refused", r.Content)
	}
	setup.Permissions = permManageGuild
	if r := e.do(setup); !strings.Contains(r.Content, "off the global boards") {
		t.Errorf("global:false = %q", r.Content)
	}
	if got := names(board(bob, optPeriod, "week", optScope, "global")); strings.Join(got, ",") != "Ada,Dee,Bob (you)" {
		t.Errorf("global week without g2 = %v, want Ada, Dee, Bob", got)
	}
	if got := names(board(cy, optPeriod, "week")); strings.Join(got, ",") != "Cy (you)" {
		t.Errorf("g2's own week after opting out = %v, want Cy", got)
	}
	if r := e.do(cy.slash(sunday, "daily", "leaderboard", optScope, "global")); !strings.Contains(allText(r), "admins keep it off the global boards") {
		t.Errorf("the global board asked in g2 doesn't say why its solves are missing: %q", allText(r))
	}

	// Dee hides her name: anonymous on the global board, named on g3's.
	e.do(dee.slash(sunday, "profile", "", optHideName, "true"))
	if got := names(board(ada, optPeriod, "week", optScope, "global")); strings.Join(got, ",") != "Ada (you),"+anonymous+",Bob" {
		t.Errorf("global week with Dee hidden = %v", got)
	}
	if got := names(board(dee, optPeriod, "week", optScope, "global")); strings.Join(got, ",") != "Ada,"+anonymous+" (you),Bob" {
		t.Errorf("global week as Dee = %v", got)
	}
	if got := names(board(dee, optPeriod, "week")); strings.Join(got, ",") != "Dee (you)" {
		t.Errorf("g3's week = %v, want Dee named", got)
	}
	// Names never ping: no mention syntax anywhere on a board.
	if f := board(ada, optPeriod, "all", optScope, "global"); strings.Contains(f, "<@") {
		t.Errorf("a board mentions someone: %q", f)
	}
}

func TestPeriodRange(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse(time.DateOnly, s); return v }
	for _, c := range []struct {
		period, date, from, to string
	}{
		{"day", "2026-03-18", "2026-03-18", "2026-03-18"},
		{"week", "2026-03-16", "2026-03-16", "2026-03-22"}, // a Monday
		{"week", "2026-03-22", "2026-03-16", "2026-03-22"}, // a Sunday
		{"week", "2026-01-01", "2025-12-29", "2026-01-04"}, // across a year
		{"month", "2028-02-10", "2028-02-01", "2028-02-29"},
		{"all", "2026-03-18", "2026-01-01", "2026-03-18"},
	} {
		from, to := periodRange(c.period, d(c.date))
		if !from.Equal(d(c.from)) || !to.Equal(d(c.to)) {
			t.Errorf("periodRange(%s, %s) = %s to %s, want %s to %s", c.period, c.date,
				from.Format(time.DateOnly), to.Format(time.DateOnly), c.from, c.to)
		}
	}
}

// TestRatingsMoveTheRightWay: each case is a fresh player's first rated
// game, or a game that must not rate.
func TestRatingsMoveTheRightWay(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	day := monday
	rating := func(w who) (store.Rating, bool) {
		t.Helper()
		r, ok, err := e.st.PlayerRating(ctx, w.user)
		if err != nil {
			t.Fatal(err)
		}
		return r, ok
	}
	n := 0
	fresh := func() who { n++; return who{fmt.Sprintf("u-%d", n), fmt.Sprintf("P%d", n), "g1"} }
	for _, c := range []struct {
		name string
		play func(w who)
		// want: +1 up, -1 down, 0 not rated
		want int
	}{
		{"a fast easy daily", func(w who) { e.playDaily(w, day, sudoku.Easy, 2*time.Minute, 3) }, +1},
		// Within par a solve is a win: a newcomer (1500) never loses
		// rating on an easy puzzle (rated about 800-1000) solved fairly.
		{"an easy daily near par", func(w who) { e.playDaily(w, day, sudoku.Easy, 4*time.Minute, 3) }, +1},
		{"a slow easy daily", func(w who) { e.playDaily(w, day, sudoku.Easy, 40*time.Minute, 3) }, -1},
		{"a hard daily at par", func(w who) { e.playDaily(w, day, sudoku.Hard, 9*time.Minute, 3) }, +1},
		{"a pasted daily", func(w who) { e.playDaily(w, day, sudoku.Medium, 5*time.Minute, 1) }, 0},
		{"a daily given up", func(w who) {
			r := e.do(w.slash(day.Add(time.Hour), "daily", "play", optLevel, "easy"))
			id := gameID(t, r)
			e.do(w.click(day.Add(2*time.Hour), fmt.Sprintf("%s:G:%d", gamePrefix, id)))
		}, -1},
		{"an archive replay", func(w who) {
			r := e.do(w.slash(day.Add(time.Hour), "daily", "play", optLevel, "easy", optDate, "yesterday"))
			id := gameID(t, r)
			e.do(w.click(day.Add(2*time.Hour), fmt.Sprintf("%s:G:%d", gamePrefix, id)))
		}, 0},
		{"a /play game given up", func(w who) {
			r := e.do(w.slash(day.Add(time.Hour), "play", "", optLevel, "medium"))
			id := gameID(t, r)
			e.do(w.click(day.Add(2*time.Hour), fmt.Sprintf("%s:G:%d", gamePrefix, id)))
		}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := fresh()
			c.play(w)
			r, ok := rating(w)
			switch {
			case c.want == 0 && ok:
				t.Errorf("rated %+v, want no rating", r)
			case c.want != 0 && !ok:
				t.Error("not rated")
			case c.want > 0 && !(r.Rating > 1500):
				t.Errorf("rating %.1f, want above 1500", r.Rating)
			case c.want < 0 && !(r.Rating < 1500):
				t.Errorf("rating %.1f, want below 1500", r.Rating)
			case ok && !(r.Deviation < 350):
				t.Errorf("deviation %.1f, want under a newcomer's 350", r.Deviation)
			}
		})
	}
	// A finish answered twice (a retried request) rates once; /profile
	// shows the rating and its history.
	w := fresh()
	e.playDaily(w, day, sudoku.Easy, 3*time.Minute, 3)
	before, _ := rating(w)
	g, err := e.st.DailyGame(ctx, w.user, day, "easy")
	if err != nil {
		t.Fatal(err)
	}
	e.do(w.submit(day.Add(13*time.Hour), fmt.Sprintf("%s:%d", gmovePrefix, g.ID), "A1 1"))
	if after, _ := rating(w); after != before || after.Games != 1 {
		t.Errorf("rating after a move on a finished game = %+v, want %+v", after, before)
	}
	prof := allText(e.do(w.slash(day.Add(14*time.Hour), "profile", "")))
	for _, want := range []string{fmt.Sprintf("**%d?** ± %d after 1 rated game", round(before.Rating), round(before.Deviation)),
		"Last 1 game", "9x9 easy: **3:00** (1 solve)", "Current **1**"} {
		if !strings.Contains(prof, want) {
			t.Errorf("/profile lacks %q:\n%s", want, prof)
		}
	}
	// The daily's own rating moved: solved faster than expected, it went
	// down (it was easier than its seed said).
	z, ok, err := e.st.PuzzleRating(ctx, "daily 2026-03-16 easy")
	if err != nil || !ok || z.Games < 3 {
		t.Errorf("the daily's rating = %+v, %v, %v; want it kept and played", z, ok, err)
	}
}

func TestOutcome(t *testing.T) {
	start := t0
	game := func(took time.Duration, status store.Status, hints, checks int) store.Game {
		return store.Game{Level: "easy", StartedAt: start, ViewedAt: start, FinishedAt: start.Add(took), Status: status, Hints: hints, Checks: checks}
	}
	par := minSolveTime(50, "easy") * parFactor // 5:00
	for _, c := range []struct {
		name string
		g    store.Game
		want float64
	}{
		{"at par", game(par, store.Solved, 0, 0), 1},
		{"half par", game(par/2, store.Solved, 0, 0), 1},
		{"a tenth of par", game(par/10, store.Solved, 0, 0), 1},
		{"twice par", game(2*par, store.Solved, 0, 0), 0.75},
		{"four times par", game(4*par, store.Solved, 0, 0), 0.5},
		{"ten times par", game(10*par, store.Solved, 0, 0), 0.25},
		{"at par, a hint and a check", game(par, store.Solved, 1, 1), 0.85},
		{"slow with many hints", game(10*par, store.Solved, 9, 0), 0.1},
		{"given up", game(par, store.GaveUp, 0, 0), 0},
	} {
		if got := outcome(c.g, 50); got != c.want {
			t.Errorf("outcome(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPuzzleSeed(t *testing.T) {
	for _, c := range []struct{ se, want float64 }{
		{0.5, 800}, {1.0, 800}, {1.5, 1000}, {2.05, 1150}, {2.6, 1300}, {4.4, 1600}, {7.0, 1900}, {10.0, 2200}, {11.0, 2300}, {20, 2400},
	} {
		if got := puzzleSeed(c.se); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("puzzleSeed(%v) = %v, want %v", c.se, got, c.want)
		}
	}
}

func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want string
	}{
		{nil, ""},
		{[]float64{1500}, "▅"},
		{[]float64{1500, 1230, 1022, 1070}, "█▄▁▂"},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8}, "▁▂▃▄▅▆▇█"},
	} {
		if got := sparkline(c.in); got != c.want {
			t.Errorf("sparkline(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAllTimeBoard: twenty dailies list a player on the all-time board
// (read from the store's running totals); nineteen don't.
func TestAllTimeBoard(t *testing.T) {
	e := newPlayEnv(t)
	for i := range 20 {
		e.playDaily(ada, monday.AddDate(0, 0, i), sudoku.Easy, 5*time.Minute, 3)
		if i == 18 {
			f := boardField(t, e.do(ada.slash(monday.AddDate(0, 0, i).Add(20*time.Hour), "daily", "leaderboard", optPeriod, "all", optLevel, "easy")), "easy")
			if !strings.Contains(f, "You: 19 solves so far, 1 more to be listed.") {
				t.Errorf("all time after 19 = %q", f)
			}
		}
	}
	r := e.do(bob.slash(monday.AddDate(0, 0, 20), "daily", "leaderboard", optPeriod, "all", optScope, "global", optLevel, "easy"))
	if f := boardField(t, r, "easy"); f != "**1.** Ada — 5:00 average over 20 · best 5:00" {
		t.Errorf("all time after 20 = %q", f)
	}
	if title := r.Embeds[0].Title; title != "All time · leaderboard · every server" {
		t.Errorf("title = %q", title)
	}
}

// TestSetupRefusalChangesNothing: /daily setup with global: and a channel
// or hour it refuses leaves the server's global choice as it was (the
// reply is a refusal, so nothing it asked may have happened).
func TestSetupRefusalChangesNothing(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	tests := []struct {
		name string
		opts []string
		ch   map[string]string
	}{
		{"hour 25", []string{optGlobal, "false", optChannel, "c-daily", optHour, "25"}, map[string]string{"c-daily": "g1"}},
		{"another server's channel", []string{optGlobal, "false", optChannel, "c-other"}, map[string]string{"c-other": "g9"}},
		{"an unconfirmed channel", []string{optGlobal, "false", optChannel, "c-daily"}, nil},
	}
	for _, c := range tests {
		req := ada.slash(t0, "daily", "setup", c.opts...)
		req.Permissions, req.ChannelGuilds = permManageGuild, c.ch
		r := e.do(req)
		st, err := e.st.Settings(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if !st.GlobalBoards || strings.Contains(r.Content, "global") {
			t.Errorf("%s: setup = %q; global boards %v, want still on and the refusal alone", c.name, r.Content, st.GlobalBoards)
		}
	}
}

// TestWeekOnTheAskersDate: at one instant, Sunday in UTC and already
// Monday at UTC+14, the week's board is the asker's week: the UTC player
// reads the week ending that Sunday, the one at UTC+14 the new week.
func TestWeekOnTheAskersDate(t *testing.T) {
	e := newPlayEnv(t)
	east := who{"u-east", "East", "g1"}
	e.setZone(east, monday, "Pacific/Kiritimati")
	for i := range 3 {
		e.playDaily(ada, monday.AddDate(0, 0, i), sudoku.Easy, 5*time.Minute, 3)
	}
	now := monday.AddDate(0, 0, 6).Add(11 * time.Hour) // Sunday 11:00 UTC, Monday 01:00 at UTC+14
	tests := []struct {
		w           who
		title, line string
	}{
		{ada, "Week of 16–22 Mar 2026", "**1.** Ada (you) — 5:00 average over 3"},
		{east, "Week of 23–29 Mar 2026", "No one has solved 3 of these yet."},
	}
	for _, c := range tests {
		r := e.do(c.w.slash(now, "daily", "leaderboard", optPeriod, "week", optLevel, "easy"))
		if f := boardField(t, r, "easy"); !strings.HasPrefix(r.Embeds[0].Title, c.title) || !strings.Contains(f, c.line) {
			t.Errorf("%s's week = %q: %q; want %q and %q", c.w.name, r.Embeds[0].Title, f, c.title, c.line)
		}
	}
}
