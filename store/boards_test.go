package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// standings is a board's user ids, ranks and hidden marks, for messages.
func standings(b []Standing) []string {
	var out []string
	for _, s := range b {
		line := s.UserID
		if s.Rank == 0 {
			line += "(unranked)"
		}
		if s.Hidden {
			line += "(hidden)"
		}
		out = append(out, line)
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// testBoards: a week's boards over three servers, by average time, with a
// least number of solves, a marked solve left out, a server kept off the
// global boards (still on its own) and a hidden name.
func testBoards(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	d := func(n int) time.Time { return day0.AddDate(0, 0, n) }
	for i, took := range []time.Duration{4, 5, 6} {
		solveDaily(t, s, "ada", "g1", d(i), "easy", took*time.Minute, 0, 0)
		solveDaily(t, s, "bob", "g2", d(i), "easy", 3*time.Minute, 1, 0)
		solveDaily(t, s, "eve", "g3", d(i+2), "easy", 4*time.Minute, 0, 0)
	}
	solveDaily(t, s, "eve", "g3", d(-1), "easy", time.Minute, 0, 0) // before the week
	solveDaily(t, s, "eve", "g3", d(1), "hard", time.Minute, 0, 0)  // another level
	solveDaily(t, s, "cy", "g3", d(0), "easy", time.Minute, 0, 0)
	solveDaily(t, s, "cy", "g3", d(1), "easy", time.Minute, 0, 0)
	solveDaily(t, s, "dan", "g1", d(0), "easy", 2*time.Minute, 0, 0)
	solveDaily(t, s, "dan", "g1", d(1), "easy", 2*time.Minute, 0, 0)
	// dan's third is marked: two fair solves don't rank him.
	cheat := mustStart(t, s, testDaily("dan", "g1", d(2), "easy"))
	if f, err := s.Move(ctx, cheat.ID, []Change{{Cell: 0, Value: 5}}, winOn(81), d(2).Add(time.Hour),
		func(Game) string { return "bulk" }); err != nil || f.Result == nil || f.Result.Flag != "bulk" {
		t.Fatalf("marked solve = %+v, %v", f, err)
	}

	week := BoardQuery{From: d(0), To: d(6), Level: "easy", MinSolves: 3, Limit: 10}
	check := func(name string, q BoardQuery, want ...string) []Standing {
		t.Helper()
		b, err := s.Board(ctx, q)
		if err != nil {
			t.Fatalf("%s: Board(%+v): %v", name, q, err)
		}
		if got := standings(b); !sameStrings(got, want) {
			t.Errorf("%s: Board = %v, want %v", name, got, want)
		}
		return b
	}
	b := check("global week", week, "bob", "eve", "ada")
	// All time (no dates) reads the totals kept as results come in: the
	// same as a range holding every day.
	ever := BoardQuery{From: d(-30), To: d(30), Level: "easy", MinSolves: 3}
	all := BoardQuery{Level: "easy", MinSolves: 3}
	sameAsEver := func(name string, guild string) {
		t.Helper()
		ever.GuildID, all.GuildID = guild, guild
		want, err := s.Board(ctx, ever)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Board(ctx, all)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: all-time board = %+v, %v; want %+v", name, got, err, want)
		}
	}
	sameAsEver("global", "")
	sameAsEver("g3", "g3")
	all.GuildID = ""
	check("global all time", all, "bob", "eve", "ada")
	if b[0].Rank != 1 || b[0].Solves != 3 || b[0].Average != 3*time.Minute || b[0].Hints != 3 || b[0].UserName != "name-bob" ||
		b[2].Average != 5*time.Minute || b[2].Best != 4*time.Minute || b[2].Rank != 3 {
		t.Errorf("global week rows = %+v", b)
	}
	g1 := week
	g1.GuildID = "g1"
	check("g1's week", g1, "ada")
	inc := week
	inc.Include, inc.Limit = "cy", 1
	if b := check("top 1 with cy", inc, "bob", "cy(unranked)"); b[1].Solves != 2 {
		t.Errorf("cy's standing = %+v, want 2 solves", b[1])
	}
	inc.Include = "ada"
	if b := check("top 1 with ada", inc, "bob", "ada"); b[1].Rank != 3 {
		t.Errorf("ada's standing = %+v, want rank 3", b[1])
	}
	day := BoardQuery{From: d(1), To: d(1), Level: "easy", MinSolves: 1}
	check("global day 1", day, "cy", "dan", "bob", "ada")

	// g2's admins keep it off the global boards: bob goes, from a second
	// process's view too; g2's own board keeps him.
	if err := s.SetGlobalBoards(ctx, "g2", false, t0); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Settings(ctx, "g2"); err != nil || st.GlobalBoards || st.DailyChannel != "" {
		t.Errorf("Settings(g2) = %+v, %v; want kept off the global boards, no daily post", st, err)
	}
	if st, _ := s.Settings(ctx, "g1"); !st.GlobalBoards {
		t.Errorf("Settings(g1) = %+v; want listed by default", st)
	}
	other := second()
	if b, err := other.Board(ctx, week); err != nil || !sameStrings(standings(b), []string{"eve", "ada"}) {
		t.Errorf("global week after g2's opt-out = %v, %v; want eve, ada", standings(b), err)
	}
	g2 := week
	g2.GuildID = "g2"
	check("g2's own week", g2, "bob")
	// A daily post set up later keeps the choice.
	if err := s.SetDaily(ctx, "g2", "c1", 9, t0); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Settings(ctx, "g2"); st.GlobalBoards || st.DailyChannel != "c1" {
		t.Errorf("Settings(g2) after SetDaily = %+v", st)
	}
	// The bot removed from g2 forgets its settings, but not that choice.
	if err := s.ForgetGuild(ctx, "g2"); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Settings(ctx, "g2"); st.GlobalBoards || st.DailyChannel != "" {
		t.Errorf("Settings(g2) after ForgetGuild = %+v; want off the global boards, no post", st)
	}
	check("global week after ForgetGuild(g2)", week, "eve", "ada")
	sameAsEver("global, g2 kept off", "")
	if err := s.SetGlobalBoards(ctx, "g2", true, t0); err != nil {
		t.Fatal(err)
	}
	check("global week, g2 back", week, "bob", "eve", "ada")

	// eve hides her name: hidden on global boards, not on her server's.
	if err := s.SetHideName(ctx, "eve", true, t0); err != nil {
		t.Fatal(err)
	}
	check("global week, eve hidden", week, "bob", "eve(hidden)", "ada")
	g3 := week
	g3.GuildID = "g3"
	check("g3's week", g3, "eve")
	p, err := s.Profile(ctx, "eve")
	if err != nil || !p.HideName || p.TimeZone != "" || !p.ZoneFloor.IsZero() {
		t.Errorf("Profile(eve) = %+v, %v; want a hidden name and no zone", p, err)
	}
	if err := s.SetTimeZone(ctx, "eve", "Europe/Paris", d(3), t0); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Profile(ctx, "eve"); err != nil || !p.HideName || p.TimeZone != "Europe/Paris" {
		t.Errorf("Profile(eve) after a zone = %+v, %v; want the name still hidden", p, err)
	}
	if err := s.SetHideName(ctx, "eve", false, t0); err != nil {
		t.Fatal(err)
	}
	check("global week, eve shown", week, "bob", "eve", "ada")
	if p, _ := s.Profile(ctx, "eve"); p.HideName || p.TimeZone != "Europe/Paris" {
		t.Errorf("Profile(eve) shown again = %+v; want the zone kept", p)
	}
	// Forgetting a player takes them off every board, all time too.
	if _, err := s.ForgetPlayer(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	all.GuildID = ""
	check("all time without bob", all, "eve", "ada")
	for _, err := range []error{s.SetGlobalBoards(ctx, "", false, t0), s.SetHideName(ctx, "", true, t0)} {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("empty id: %v, want ErrInvalid", err)
		}
	}
}

// plus is a Rater that adds n to the player's rating and 1 to the
// puzzle's.
func plus(n float64) Rater {
	return func(p, z Rating) (Rating, Rating) {
		p.Rating += n
		p.Deviation -= 10
		z.Rating++
		return p, z
	}
}

func finishedGame(t *testing.T, s backend, user string, at time.Time) Game {
	t.Helper()
	g := mustStart(t, s, testGame(user))
	f, err := s.Finish(context.Background(), g.ID, Solved, at)
	if err != nil || !f.Now {
		t.Fatalf("Finish: %+v, %v", f, err)
	}
	return f.Game
}

var seed = Rating{Rating: 1500, Deviation: 350, Volatility: 0.06}

func testRateGameOnce(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	if _, ok, err := s.PlayerRating(ctx, "ada"); ok || err != nil {
		t.Errorf("PlayerRating of a newcomer = %v, %v; want none", ok, err)
	}
	g1 := finishedGame(t, s, "ada", t0)
	rg := RatedGame{GameID: g1.ID, UserID: "ada", Puzzle: "daily 2025-03-14 easy", PuzzleSeed: Rating{Rating: 1100, Deviation: 150, Volatility: 0.06},
		PlayerSeed: seed, Score: 0.8, At: t0.Add(time.Minute)}
	ch, ok, err := s.RateGame(ctx, rg, plus(30))
	if err != nil || !ok || ch.Before != 1500 || ch.After != 1530 || ch.Deviation != 340 || ch.PuzzleRating != 1100 || ch.Score != 0.8 {
		t.Fatalf("RateGame = %+v, %v, %v; want 1500 → 1530 against 1100", ch, ok, err)
	}
	// Again, from another process: nothing changes.
	again, ok, err := second().RateGame(ctx, rg, plus(30))
	if err != nil || ok || again != ch {
		t.Errorf("RateGame again = %+v, %v, %v; want the first change, not rated twice", again, ok, err)
	}
	r, ok, err := s.PlayerRating(ctx, "ada")
	if err != nil || !ok || r.Rating != 1530 || r.Games != 1 {
		t.Errorf("PlayerRating = %+v, %v, %v; want 1530 after 1 game", r, ok, err)
	}
	// bob plays the same daily: its rating moved by ada's solve.
	g2 := finishedGame(t, s, "bob", t0)
	rg2 := rg
	rg2.GameID, rg2.UserID = g2.ID, "bob"
	if ch, _, err := s.RateGame(ctx, rg2, plus(-20)); err != nil || ch.PuzzleRating != 1101 || ch.After != 1480 {
		t.Errorf("bob's RateGame = %+v, %v; want the puzzle at 1101, bob at 1480", ch, err)
	}
	if z, ok, err := s.PuzzleRating(ctx, rg.Puzzle); err != nil || !ok || z.Rating != 1102 || z.Games != 2 {
		t.Errorf("PuzzleRating = %+v, %v, %v; want 1102 after 2 games", z, ok, err)
	}
	// An unkept puzzle rates against its seed.
	g3 := finishedGame(t, s, "ada", t0.Add(time.Hour))
	ch3, _, err := s.RateGame(ctx, RatedGame{GameID: g3.ID, UserID: "ada", PuzzleSeed: Rating{Rating: 1700}, PlayerSeed: seed,
		Score: 1, At: t0.Add(2 * time.Hour)}, plus(5))
	if err != nil || ch3.PuzzleRating != 1700 || ch3.Before != 1530 || ch3.After != 1535 {
		t.Errorf("RateGame of an unkept puzzle = %+v, %v", ch3, err)
	}
	hist, err := s.RatingHistory(ctx, "ada", 10)
	if err != nil || len(hist) != 2 || hist[0].GameID != g3.ID || hist[1].GameID != g1.ID {
		t.Errorf("RatingHistory = %+v, %v; want game %d then %d", hist, err, g3.ID, g1.ID)
	}
	// Refused: a game still being played, someone else's, none at all.
	playing := mustStart(t, s, testGame("ada"))
	for name, bad := range map[string]RatedGame{
		"playing":        {GameID: playing.ID, UserID: "ada", PlayerSeed: seed},
		"someone else's": {GameID: g2.ID, UserID: "ada", PlayerSeed: seed},
	} {
		if _, _, err := s.RateGame(ctx, bad, plus(1)); !errors.Is(err, ErrInvalid) {
			t.Errorf("RateGame(%s) = %v, want ErrInvalid", name, err)
		}
	}
	if _, _, err := s.RateGame(ctx, RatedGame{GameID: 99999, UserID: "ada"}, plus(1)); !errors.Is(err, ErrNotFound) {
		t.Errorf("RateGame(no such game) = %v, want ErrNotFound", err)
	}
	// Forgetting ada forgets her rating and its history, and shows both
	// first in her data.
	data, err := s.PlayerData(ctx, "ada")
	if err != nil || data.Rating.Rating != 1535 || len(data.Ratings) != 2 {
		t.Errorf("PlayerData rating = %+v, %d changes, %v", data.Rating, len(data.Ratings), err)
	}
	if _, err := s.ForgetPlayer(ctx, "ada"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.PlayerRating(ctx, "ada"); ok {
		t.Error("ada's rating is still there after ForgetPlayer")
	}
	if h, _ := s.RatingHistory(ctx, "ada", 0); len(h) != 0 {
		t.Errorf("ada's history after ForgetPlayer = %+v", h)
	}
}

// testConcurrentRatingsSerialize rates eight games of one player, each
// twice, from two handles at once: every game counts once, none is lost.
func testConcurrentRatingsSerialize(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	handles := []backend{s, second()}
	var games []Game
	for i := range 8 {
		games = append(games, finishedGame(t, s, "ada", t0.Add(time.Duration(i)*time.Minute)))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(games))
	for i, g := range games {
		for _, h := range handles {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := h.RateGame(ctx, RatedGame{GameID: g.ID, UserID: "ada", Puzzle: "daily", PuzzleSeed: seed, PlayerSeed: seed,
					Score: 1, At: t0.Add(time.Duration(i) * time.Minute)}, plus(1))
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	r, _, err := s.PlayerRating(ctx, "ada")
	if err != nil || r.Rating != 1508 || r.Games != 8 {
		t.Errorf("after 8 games rated twice at once: %+v, %v; want 1508 after 8", r, err)
	}
	if z, _, _ := s.PuzzleRating(ctx, "daily"); z.Rating != 1508 || z.Games != 8 {
		t.Errorf("puzzle after 8 games: %+v; want 1508 after 8", z)
	}
	if h, _ := s.RatingHistory(ctx, "ada", 0); len(h) != 8 {
		t.Errorf("history has %d rows, want 8", len(h))
	}
}

func testPersonalBests(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	play := func(ng NewGame, took time.Duration, status Status, judge Judge) {
		t.Helper()
		g := mustStart(t, s, ng)
		if _, err := s.MarkViewed(ctx, g.ID, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		at := t0.Add(time.Minute + took)
		if status == GaveUp {
			if _, err := s.Finish(ctx, g.ID, GaveUp, at); err != nil {
				t.Fatal(err)
			}
			return
		}
		if _, err := s.Move(ctx, g.ID, []Change{{Cell: 0, Value: 5}}, winOn(81), at, judge); err != nil {
			t.Fatal(err)
		}
	}
	hard := testGame("ada")
	play(hard, 5*time.Minute, Solved, nil)
	play(hard, 3*time.Minute, Solved, nil)
	play(hard, time.Minute, GaveUp, nil)
	play(hard, 10*time.Second, Solved, func(Game) string { return "fast" })
	arch := testGame("ada")
	arch.ArchiveDate = day0
	play(arch, time.Second*30, Solved, nil)
	raced := testGame("ada")
	raced.RaceID = 42
	play(raced, 20*time.Second, Solved, nil)
	play(testDaily("ada", "g1", day0, "easy"), 2*time.Minute, Solved, nil)
	play(testGame("bob"), time.Second, Solved, nil)
	got, err := s.PersonalBests(ctx, "ada")
	want := []Best{{"3x3", "easy", 2 * time.Minute, 1}, {"3x3", "hard", 3 * time.Minute, 2}}
	if err != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("PersonalBests = %+v, %v; want %+v", got, err, want)
	}
}
