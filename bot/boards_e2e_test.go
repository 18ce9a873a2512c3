package bot

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokubot/internal/fakediscord"
)

// TestE2EGlobalAndWeeklyBoards: players of three servers play a week of
// easy dailies through the fake Discord; the week's global board ranks
// them all by average time; a server's admin keeps it off the global
// boards (its player vanishes there, stays on the server's own); a player
// hides her name; no board mentions anyone.
func TestE2EGlobalAndWeeklyBoards(t *testing.T) {
	t.Parallel()
	monday := time.Date(2026, 3, 16, 12, 0, 0, 0, time.UTC)
	clock := newFakeClock(monday)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500", "501", "502"}})
	pb := startPlayBot(t, fake, filepath.Join(t.TempDir(), "boards.db"), clock)
	carol := fakediscord.User{ID: "13", Username: "carol", Discriminator: "0"}

	play := func(u fakediscord.User, guild string, start time.Time, took time.Duration) {
		t.Helper()
		clock.Set(start)
		c := pb.slash(u, guild, "daily", fakediscord.Sub("play", fakediscord.Str("level", "easy")))
		id, puzzle := game(t, c)
		moves := strings.Split(fillMoves(puzzle, solutionOf(t, puzzle)), "\n")
		clock.Set(start.Add(took / 2))
		pb.submitMoves(u, guild, id, strings.Join(moves[:len(moves)-5], "\n"))
		clock.Set(start.Add(took))
		if _, done := pb.submitMoves(u, guild, id, strings.Join(moves[len(moves)-5:], "\n")); !strings.Contains(text(done), "Well done") {
			t.Fatalf("%s's daily: %q", u.Username, text(done))
		}
	}
	for d := range 3 {
		day := monday.AddDate(0, 0, d)
		play(alice, "500", day, 6*time.Minute)
		play(bob, "501", day, 4*time.Minute)
		play(carol, "502", day, 5*time.Minute)
	}
	clock.Set(monday.AddDate(0, 0, 6)) // Sunday
	ranked := regexp.MustCompile(`\*\*\d+\.\*\* ([^—]+?) —`)
	board := func(u fakediscord.User, guild string, opts ...fakediscord.Option) []string {
		t.Helper()
		c := pb.slash(u, guild, "daily", fakediscord.Sub("leaderboard", append([]fakediscord.Option{fakediscord.Str("level", "easy")}, opts...)...))
		var names []string
		for _, m := range ranked.FindAllStringSubmatch(text(c), -1) {
			names = append(names, m[1])
		}
		return names
	}
	week, global := fakediscord.Str("period", "week"), fakediscord.Str("scope", "global")
	want := func(name string, got []string, names ...string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(names, ",") {
			t.Errorf("%s = %v, want %v", name, got, names)
		}
	}
	want("global week", board(alice, "500", week, global), "bob", "carol", "alice (you)")
	want("500's week", board(carol, "500", week), "alice")

	// 501's admin keeps it off the global boards.
	c := pb.slash(bob, "501", "daily", fakediscord.Sub("setup", fakediscord.Bool("global", false)))
	if !strings.Contains(text(c), "off the global boards") || !c.Ephemeral() {
		t.Errorf("global:false = %q (ephemeral %v)", text(c), c.Ephemeral())
	}
	want("global week without 501", board(alice, "500", week, global), "carol", "alice (you)")
	want("501's own week", board(bob, "501", week), "bob (you)")

	// Carol hides her name.
	if c := pb.slash(carol, "502", "profile", fakediscord.Bool("hide_name", true)); !strings.Contains(text(c), "anonymous player") {
		t.Errorf("hide_name:true = %q", text(c))
	}
	want("global week, carol hidden", board(alice, "500", week, global), "anonymous player", "alice (you)")
	want("502's week", board(alice, "502", week), "carol")
	// Every message the bot sent allows no mention, and no board names
	// anyone with a mention.
	for _, call := range fake.Calls() {
		msg, ok := call.Message()
		if !ok {
			continue
		}
		am, _ := msg["allowed_mentions"].(map[string]any)
		if p, _ := am["parse"].([]any); am == nil || len(p) != 0 || am["users"] != nil {
			t.Errorf("call %d %s: allowed_mentions = %v, want nothing allowed", call.Seq, call.Path, am)
		}
		if strings.Contains(string(call.Body), "leaderboard") && strings.Contains(string(call.Body), "<@") {
			t.Errorf("a board mentions someone: %s", call.Body)
		}
	}
}
