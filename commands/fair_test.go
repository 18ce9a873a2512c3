package commands

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
)

// TestFairness is the rule on finished games, timed by a fake clock: the
// board first shown at view, solved at view+took.
func TestFairness(t *testing.T) {
	view := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		level  string
		empty  int // cells the puzzle leaves to fill
		moves  int // the game's move count at the finish
		placed int // cells the finishing entry filled
		took   time.Duration
		want   string
	}{
		{"0:19 medium, the whole solution pasted", "medium", 51, 1, 51, 19 * time.Second, flagBulk},
		{"a solution pasted after an honest-looking wait", "medium", 51, 1, 51, 12 * time.Minute, flagBulk},
		{"two pastes", "easy", 45, 2, 20, 5 * time.Minute, flagBulk},
		{"every move typed into one box", "hard", 55, 55, 55, 8 * time.Minute, flagBulk},
		{"half the moves in the last box", "easy", 46, 30, 23, 6 * time.Minute, flagBulk},
		{"honest fast medium, many moves", "medium", 51, 51, 1, 90 * time.Second, ""},
		{"honest fast easy at the floor", "easy", 45, 45, 1, 13500 * time.Millisecond, ""},
		{"typed moves faster than anyone", "easy", 45, 45, 1, 13 * time.Second, flagFast},
		{"hard under its floor", "hard", 55, 60, 3, 30 * time.Second, flagFast},
		{"hard over its floor", "hard", 55, 60, 3, 34 * time.Second, ""},
		{"a nearly full puzzle in one move, instantly", "easy", 3, 1, 3, 500 * time.Millisecond, flagFast},
		{"a nearly full puzzle, slowly, in one move", "easy", 3, 1, 3, time.Minute, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := store.Game{Level: tt.level, Moves: tt.moves, StartedAt: view.Add(-time.Minute),
				ViewedAt: view, FinishedAt: view.Add(tt.took), Status: store.Solved}
			if got := judgeSolve(tt.empty, tt.placed)(g); got != tt.want {
				t.Errorf("fairness(%s, %d empty, %d moves, %d placed, %s) = %q, want %q",
					tt.level, tt.empty, tt.moves, tt.placed, tt.took, got, tt.want)
			}
		})
	}
}

// TestMinSolveTime pins the floor's figures: 0.3 s a cell, stretched by
// level, unknown levels as easy.
func TestMinSolveTime(t *testing.T) {
	for _, tt := range []struct {
		empty int
		level string
		want  time.Duration
	}{
		{50, "easy", 15 * time.Second},
		{50, "medium", 22500 * time.Millisecond},
		{50, "hard", 30 * time.Second},
		{50, "", 15 * time.Second},
		{0, "hard", 0},
	} {
		if got := minSolveTime(tt.empty, tt.level); got != tt.want {
			t.Errorf("minSolveTime(%d, %q) = %s, want %s", tt.empty, tt.level, got, tt.want)
		}
	}
}

// TestPastedDailyIsFlagged: the medium daily "solved" in 0:19 by pasting the
// whole solution is kept, told why, announced as not counted, off the
// leaderboard and the streak, and listed for admins by /daily flagged; an
// honest fast solve beside it is on the board and not listed.
func TestPastedDailyIsFlagged(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	r := e.do(ada.slash(t0, "daily", "play", optLevel, "medium"))
	id := gameID(t, r)
	g, _ := e.st.Game(ctx, id)
	b, _ := e.s.playFeature.load(ctx, g)
	r = e.do(ada.submit(t0.Add(19*time.Second), gmovePrefix+":"+strconv.FormatInt(id, 10), b.solution.String()))
	for _, want := range []string{"Solved in 0:19", "not counted on the leaderboard or for your streak", "entered all at once", "/daily flagged"} {
		if !strings.Contains(r.Content, want) {
			t.Errorf("the pasted finish says %q, want %q in it", r.Content, want)
		}
	}
	if strings.Contains(r.Content, "leaderboard.") && strings.Contains(r.Content, "You are #") {
		t.Errorf("the pasted finish gives a rank: %q", r.Content)
	}
	if len(r.FollowUps) != 1 || !strings.Contains(r.FollowUps[0].Content, "in 0:19, no hints — not counted (entered all at once).") {
		t.Errorf("announcement = %+v, want it marked not counted", r.FollowUps)
	}
	if g, _ := e.st.Game(ctx, id); g.Status != store.Solved || g.Flag != flagBulk {
		t.Errorf("the pasted game is %s flagged %q, want solved and %q", g.Status, g.Flag, flagBulk)
	}

	honest := e.solveDaily(bob, "medium", t0, 150*time.Second)
	if !strings.Contains(honest.Content, "Solved in 2:30") || strings.Contains(honest.Content, "not counted") || !strings.Contains(honest.Content, "You are #1 of 1") {
		t.Errorf("the honest finish = %q, want it counted, #1", honest.Content)
	}
	lb := allText(e.do(ada.slash(t0.Add(time.Hour), "daily", "leaderboard", optLevel, "medium")))
	if !strings.Contains(lb, "**1.** Bob — 2:30") || strings.Contains(lb, "Ada") {
		t.Errorf("leaderboard = %q, want Bob alone", lb)
	}
	st := allText(e.do(ada.slash(t0.Add(time.Hour), "daily", "stats")))
	if !strings.Contains(st, "You haven't solved a daily yet") || !strings.Contains(st, "1 finish not counted") {
		t.Errorf("Ada's stats = %q, want nothing counted and the flagged finish said", st)
	}

	member := ada.slash(t0.Add(time.Hour), "daily", "flagged")
	if r := e.do(member); !r.Ephemeral || !strings.Contains(r.Content, "needs the Manage Server permission") {
		t.Errorf("/daily flagged by a member = %+v, want a refusal", r)
	}
	admin := member
	admin.Permissions = permManageGuild
	list := e.do(admin)
	text := allText(list)
	if !list.Ephemeral || !strings.Contains(text, "Ada (<@u-ada>) — 0:19 · entered all at once") || strings.Contains(text, "Bob") {
		t.Errorf("/daily flagged = %q (ephemeral %v), want Ada's paste alone", text, list.Ephemeral)
	}
	other := cy.slash(t0.Add(time.Hour), "daily", "flagged")
	other.Permissions = permAdministrator
	if text := allText(e.do(other)); !strings.Contains(text, "No daily finish on this server was flagged") {
		t.Errorf("/daily flagged in another server = %q, want none", text)
	}
	// Reshown, the board says it too.
	again := allText(e.do(ada.slash(t0.Add(2*time.Hour), "daily", "play", optLevel, "medium")))
	if !strings.Contains(again, "Not counted on the leaderboard or for the streak: entered all at once.") {
		t.Errorf("the solved board reshown = %q, want the mark", again)
	}
}

// TestTypedTooFastIsFlagged: every move typed, a few at a time, but the
// whole medium daily in 0:10 — under the floor — is flagged as too fast.
func TestTypedTooFastIsFlagged(t *testing.T) {
	e := newPlayEnv(t)
	r := e.solveDaily(ada, "medium", t0, 10*time.Second)
	if !strings.Contains(r.Content, "0:10 is faster than anyone has solved a medium puzzle") {
		t.Errorf("the fast finish = %q, want the floor explained", r.Content)
	}
	if lb := allText(e.do(ada.slash(t0.Add(time.Hour), "daily", "leaderboard", optLevel, "medium"))); strings.Contains(lb, "Ada") {
		t.Errorf("leaderboard = %q, want no Ada", lb)
	}
}
