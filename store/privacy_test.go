package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func testPlayerDataAndForget(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	day := day0
	won := solveDaily(t, s, "ada", "g1", day, "easy", 3*time.Minute, 1, 0)
	playing := mustStart(t, s, testGame("ada"))
	if _, err := s.ApplyMoves(ctx, playing.ID, []Change{{Cell: 3, Value: 4}}); err != nil {
		t.Fatal(err)
	}
	bobs := solveDaily(t, s, "bob", "g1", day, "easy", 5*time.Minute, 0, 0)

	d, err := s.PlayerData(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if d.UserID != "ada" || len(d.Games) != 2 || d.Games[0].ID != playing.ID || d.Games[1].ID != won.ID ||
		d.Games[0].Entries[3] != 4 || d.Games[1].UserName != "name-ada" {
		t.Errorf("PlayerData(ada) games = %+v, want the game in progress then the daily won", d.Games)
	}
	if len(d.Results) != 1 || d.Results[0].GameID != won.ID || !d.Results[0].Date.Equal(day) ||
		d.Results[0].Level != "easy" || d.Results[0].Duration != 3*time.Minute || d.Results[0].Hints != 1 {
		t.Errorf("PlayerData(ada) results = %+v, want the daily won in 3:00 with one hint", d.Results)
	}
	if none, err := s.PlayerData(ctx, "nobody"); err != nil || len(none.Games)+len(none.Results) != 0 {
		t.Errorf("PlayerData(nobody) = %+v, %v; want nothing", none, err)
	}

	f, err := s.ForgetPlayer(ctx, "ada")
	if err != nil || f != (Forgotten{Games: 2, Results: 1}) {
		t.Fatalf("ForgetPlayer(ada) = %+v, %v; want 2 games and 1 result", f, err)
	}
	if d, err := s.PlayerData(ctx, "ada"); err != nil || len(d.Games)+len(d.Results) != 0 {
		t.Errorf("PlayerData(ada) after ForgetPlayer = %+v, %v; want nothing", d, err)
	}
	if _, err := s.Game(ctx, playing.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game(%d) after ForgetPlayer = %v, want ErrNotFound", playing.ID, err)
	}
	if n, err := s.MoveCount(ctx, playing.ID); err != nil || n != 0 {
		t.Errorf("the deleted game's undo log holds %d moves (%v)", n, err)
	}
	board, err := s.Leaderboard(ctx, "g1", day, "easy", 0)
	if err != nil || len(board) != 1 || board[0].GameID != bobs.ID || board[0].Rank != 1 {
		t.Errorf("leaderboard after ada is forgotten = %+v, %v; want bob alone, first", board, err)
	}
	if st, err := s.Stats(ctx, "ada", day); err != nil || st.Solved != 0 {
		t.Errorf("Stats(ada) after ForgetPlayer = %+v, %v; want none", st, err)
	}
	// Forgotten, the daily can be played again.
	if _, created, err := s.StartGame(ctx, testDaily("ada", "g1", day, "easy")); err != nil || !created {
		t.Errorf("StartGame of the forgotten daily = created %v, %v; want a new game", created, err)
	}
	if f, err := s.ForgetPlayer(ctx, "nobody"); err != nil || f != (Forgotten{}) {
		t.Errorf("ForgetPlayer(nobody) = %+v, %v; want nothing deleted", f, err)
	}
	if _, err := s.ForgetPlayer(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("ForgetPlayer(\"\") = %v, want ErrInvalid", err)
	}
}

func testForgetGuild(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	for _, g := range []string{"g1", "g2"} {
		if err := s.SetDaily(ctx, g, "c-"+g, 9, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.SetWatched(ctx, g, "w-"+g, true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ClaimPost(ctx, g, "c-"+g, day0, "test", t0); err != nil {
			t.Fatal(err)
		}
	}
	won := solveDaily(t, s, "ada", "g1", day0, "easy", time.Minute, 0, 0)

	if err := s.ForgetGuild(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Settings(ctx, "g1"); err != nil || st.DailyChannel != "" {
		t.Errorf("Settings(g1) after ForgetGuild = %+v, %v; want the zero settings", st, err)
	}
	if ch, err := s.WatchedChannels(ctx, "g1"); err != nil || len(ch) != 0 {
		t.Errorf("WatchedChannels(g1) after ForgetGuild = %v, %v; want none", ch, err)
	}
	if again, err := s.ClaimPost(ctx, "g1", "c-g1", day0, "test", t0); err != nil || !again {
		t.Errorf("ClaimPost in g1 after ForgetGuild = %v, %v; want the claim gone", again, err)
	}
	// The other server, and the players' own results, stay.
	if st, err := s.Settings(ctx, "g2"); err != nil || st.DailyChannel != "c-g2" {
		t.Errorf("Settings(g2) = %+v, %v; want it kept", st, err)
	}
	if ch, err := s.WatchedChannels(ctx, "g2"); err != nil || len(ch) != 1 {
		t.Errorf("WatchedChannels(g2) = %v, %v; want it kept", ch, err)
	}
	if g, err := s.Game(ctx, won.ID); err != nil || g.Status != Solved {
		t.Errorf("ada's game in g1 after ForgetGuild = %+v, %v; want it kept", g, err)
	}
	if err := s.ForgetGuild(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Error("ForgetGuild(\"\") succeeded, want ErrInvalid")
	}
}
