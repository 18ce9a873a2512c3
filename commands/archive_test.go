package commands

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestArchiveReplay: /daily play date: replays a past daily, marked as
// such, counted on no board or streak; a replay in progress is resumed;
// today's date is the ordinary daily; future dates are refused.
func TestArchiveReplay(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	next := t0.AddDate(0, 0, 1)
	// Bob never played the 14th; the next day he replays it.
	r := e.do(bob.slash(next, "daily", "play", optLevel, "easy", optDate, "yesterday"))
	if len(r.Embeds) == 0 || r.Embeds[0].Title != "Daily #73 · easy · archive" || !strings.Contains(r.Content, "From the archive: the easy daily of Saturday 14 March (daily #73)") {
		t.Fatalf("/daily play date:yesterday = %q %+v", r.Content, r.Embeds)
	}
	id := gameID(t, r)
	g, _ := e.st.Game(ctx, id)
	want, _ := e.puzzles.Daily(ctx, t0, 0)
	if g.Puzzle != want.Grid.String() || g.IsDaily() || !isArchive(g) {
		t.Errorf("the replay holds %q (daily %v, archive %v), want the 14th's easy puzzle %q as an archive game", g.Puzzle, g.IsDaily(), isArchive(g), want.Grid.String())
	}
	again := e.do(bob.slash(next.Add(time.Minute), "daily", "play", optLevel, "easy", optDate, "2026-03-14"))
	if gameID(t, again) != id || !strings.Contains(again.Content, "You were playing it") {
		t.Errorf("replaying again = game %d %q, want game %d resumed", gameID(t, again), again.Content, id)
	}
	// Solved in typed entries: marked, not on the 14th's board, no streak.
	b, _ := e.s.playFeature.load(ctx, g)
	moves := strings.Split(movesFor(g.Puzzle, b.solution.String()), ", ")
	var done Response
	for len(moves) > 0 {
		n := min(6, len(moves))
		done = e.do(bob.submit(next.Add(10*time.Minute), gmovePrefix+":"+strconv.FormatInt(id, 10), strings.Join(moves[:n], ", ")))
		moves = moves[n:]
	}
	if !strings.Contains(done.Content, "from the archive: a replay counts on no leaderboard or streak") || strings.Contains(done.Content, "You are #") {
		t.Errorf("the replay's finish = %q", done.Content)
	}
	if len(done.FollowUps) != 1 || !strings.Contains(done.FollowUps[0].Content, "Bob solved the easy daily of 14 Mar (#73) from the archive in") {
		t.Errorf("the replay's announcement = %+v", done.FollowUps)
	}
	if lb := allText(e.do(ada.slash(next, "daily", "leaderboard", optLevel, "easy", optDate, "yesterday"))); strings.Contains(lb, "Bob") {
		t.Errorf("the 14th's leaderboard = %q, want no Bob", lb)
	}
	if st := allText(e.do(bob.slash(next, "daily", "stats"))); !strings.Contains(st, "You haven't solved a daily yet") {
		t.Errorf("Bob's stats after a replay = %q, want nothing counted", st)
	}
	// Today's date is the ordinary daily; the future and before #1 are refused.
	if r := e.do(bob.slash(next, "daily", "play", optLevel, "easy", optDate, "today")); r.Embeds[0].Title != "Daily #74 · easy" {
		t.Errorf("date:today = %q, want today's daily", r.Embeds[0].Title)
	}
	if r := e.do(bob.slash(next, "daily", "play", optDate, "2099-01-01")); !r.Ephemeral || !strings.Contains(r.Content, "hasn't come yet") {
		t.Errorf("a future date = %q", r.Content)
	}
	if r := e.do(bob.slash(next, "daily", "play", optDate, "2020-01-01")); !strings.Contains(r.Content, "There was no daily on 2020-01-01") {
		t.Errorf("a date before daily #1 = %q", r.Content)
	}
}
