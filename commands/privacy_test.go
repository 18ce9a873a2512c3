package commands

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestPrivacyShowAndDelete: /privacy show hands over everything kept about
// the asker as JSON; /privacy delete deletes it only after the asker's own
// confirmation, and leaves other players alone.
func TestPrivacyShowAndDelete(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	for _, w := range []who{ada, ada, bob} {
		if r := e.do(w.slash(t0, "play", "", optLevel, "easy")); gameIDOf(r) == 0 {
			t.Fatalf("/play for %s: %+v", w.name, r)
		}
	}
	if err := e.st.SetDaily(ctx, "g1", "c-g1", 9, t0); err != nil {
		t.Fatal(err)
	}

	show := e.do(ada.slash(t0, "privacy", "show"))
	if !show.Ephemeral || len(show.Files) != 1 || !strings.Contains(show.Content, "2 games") {
		t.Fatalf("/privacy show = %+v; want an ephemeral reply counting 2 games, with a file", show)
	}
	var data struct {
		UserID string `json:"user_id"`
		Games  []struct {
			ID      int64  `json:"id"`
			Puzzle  string `json:"puzzle"`
			Entries []int  `json:"entries"`
			Status  string `json:"status"`
		} `json:"games"`
		Results []any `json:"daily_results"`
	}
	if lines := strings.Count(string(show.Files[0].Data), "\n"); lines != 10 {
		t.Errorf("the file has %d lines, want 10 (one a game, the result, settings, rating, history, races and the brackets):\n%s", lines, show.Files[0].Data)
	}
	if err := json.Unmarshal(show.Files[0].Data, &data); err != nil {
		t.Fatalf("the file is not JSON: %v\n%s", err, show.Files[0].Data)
	}
	if data.UserID != ada.user || len(data.Games) != 2 || data.Games[0].Puzzle == "" ||
		len(data.Games[0].Entries) != 81 || data.Games[0].Status != "playing" || data.Results == nil {
		t.Errorf("the file holds %+v; want ada's 2 games, whole", data)
	}

	ask := e.do(ada.slash(t0, "privacy", "delete"))
	del := findButton(t, ask, "Delete everything")
	// Someone else's click, and Keep it, delete nothing.
	e.do(bob.click(t0, del.CustomID))
	if kept := e.do(ada.click(t0, findButton(t, ask, "Keep it").CustomID)); !kept.Update {
		t.Errorf("Keep it = %+v; want the question replaced", kept)
	}
	if d, _ := e.st.PlayerData(ctx, ada.user); len(d.Games) != 2 {
		t.Fatalf("after bob's click and Keep it, ada has %d games; want 2", len(d.Games))
	}
	done := e.do(ada.click(t0, del.CustomID))
	if !done.Update || !done.Ephemeral || !strings.Contains(done.Content, "Deleted your 2 games") {
		t.Errorf("Delete everything = %+v", done)
	}
	if d, _ := e.st.PlayerData(ctx, ada.user); len(d.Games)+len(d.Results) != 0 {
		t.Errorf("after Delete everything ada still has %+v", d)
	}
	if d, _ := e.st.PlayerData(ctx, bob.user); len(d.Games) != 1 {
		t.Errorf("bob has %d games after ada's delete; want his 1", len(d.Games))
	}
	if st, _ := e.st.Settings(ctx, "g1"); st.DailyChannel != "c-g1" {
		t.Errorf("ada's delete changed the server's settings: %+v", st)
	}
}

// gameIDOf is the game id on a /play reply's buttons, or 0.
func gameIDOf(r Response) int64 {
	for _, row := range r.Components {
		for _, b := range row.Buttons {
			if _, id, ok := parseGameButton(b.CustomID); ok {
				return id
			}
		}
	}
	return 0
}

// TestPrivacyNeedsAStoreThatCanForget: without a store that can show and
// delete, there is no /privacy to offer.
func TestPrivacyNeedsAStoreThatCanForget(t *testing.T) {
	for _, sp := range New(Config{}).Specs() {
		if sp.Name == "privacy" {
			t.Error("/privacy offered with no game store")
		}
	}
}

// TestGuildRemoved: a server that removes the bot loses its settings and
// watched channels, in the store and in memory; its members' games stay.
func TestGuildRemoved(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	mem := NewMemSettings()
	s := New(Config{Games: e.st, Settings: mem, Puzzles: e.puzzles})
	if r := s.Handle(ctx, ada.slash(t0, "play", "", optLevel, "easy")); gameIDOf(r) == 0 {
		t.Fatalf("/play: %+v", r)
	}
	for _, g := range []string{"g1", "g2"} {
		if err := e.st.SetDaily(ctx, g, "c-"+g, 9, t0); err != nil {
			t.Fatal(err)
		}
		mem.SetWatched(ctx, g, "w-"+g, true)
	}
	if err := s.GuildRemoved(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.st.Settings(ctx, "g1"); st.DailyChannel != "" {
		t.Errorf("g1's daily settings after GuildRemoved: %+v; want none", st)
	}
	if on, _ := mem.Watched(ctx, "g1", "w-g1"); on {
		t.Error("g1's watched channel is still watched after GuildRemoved")
	}
	if st, _ := e.st.Settings(ctx, "g2"); st.DailyChannel != "c-g2" {
		t.Errorf("g2's settings after g1 was removed: %+v; want them kept", st)
	}
	if on, _ := mem.Watched(ctx, "g2", "w-g2"); !on {
		t.Error("g2's watched channel went with g1")
	}
	if d, _ := e.st.PlayerData(ctx, ada.user); len(d.Games) != 1 {
		t.Errorf("ada's game in g1 after GuildRemoved: %d games; want it kept", len(d.Games))
	}
}
