package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// testInstanceRaces: an instance has one open race and one open co-op
// game, whoever opens them (at once, too); players enter while it runs,
// up to the most; once it ends a new one opens; chat's periodic check
// doesn't see them.
func testInstanceRaces(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	other := second()
	defer other.Close()
	// Two processes open the instance's race at once: one race.
	var wg sync.WaitGroup
	races := make([]Race, 2)
	created := make([]bool, 2)
	errs := make([]error, 2)
	for i, b := range []backend{s, other} {
		wg.Go(func() {
			nr := testRace(KindRace)
			nr.StarterID, nr.Starter = []string{"ada", "bo"}[i], []string{"Ada", "Bo"}[i]
			races[i], created[i], errs[i] = b.OpenInstanceRace(ctx, "inst-1", nr)
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("OpenInstanceRace: %v, %v", errs[0], errs[1])
	}
	if races[0].ID != races[1].ID || created[0] == created[1] {
		t.Fatalf("two opens gave races %d (created %v) and %d (created %v), want one race, created once", races[0].ID, created[0], races[1].ID, created[1])
	}
	r := races[0]
	if r.Status != RaceRunning || !r.StartAt.Equal(t0) || len(r.Players) != 1 {
		t.Errorf("the opened race: status %s, start %v, %d players; want running from t0 with its opener", r.Status, r.StartAt, len(r.Players))
	}
	coop, made, err := s.OpenInstanceRace(ctx, "inst-1", testRace(KindTogether))
	if err != nil || !made || coop.ID == r.ID || coop.Kind != KindTogether {
		t.Errorf("OpenInstanceRace(together) = race %d made %v, %v; want a co-op game of its own", coop.ID, made, err)
	}
	if got, err := s.InstanceRace(ctx, "inst-1", KindRace); err != nil || got.ID != r.ID {
		t.Errorf("InstanceRace(inst-1, race) = %d, %v; want %d", got.ID, err, r.ID)
	}
	if _, err := s.InstanceRace(ctx, "inst-2", KindRace); !errors.Is(err, ErrNotFound) {
		t.Errorf("InstanceRace(inst-2) = %v, want ErrNotFound", err)
	}
	if in, err := s.RaceInstance(ctx, r.ID); err != nil || in != "inst-1" {
		t.Errorf("RaceInstance = %q, %v; want inst-1", in, err)
	}
	chat := mustCreateRace(t, s, testRace(KindRace))
	if in, err := s.RaceInstance(ctx, chat.ID); err != nil || in != "" {
		t.Errorf("RaceInstance(a chat race) = %q, %v; want \"\"", in, err)
	}
	if open, err := s.OpenRaces(ctx, 10); err != nil || len(open) != 1 || open[0].ID != chat.ID {
		t.Errorf("OpenRaces = %d races, %v; want only the chat race %d", len(open), err, chat.ID)
	}
	// Entering: while it runs, up to the most; twice is once.
	for _, who := range []string{"cy", "cy", "di"} {
		if r, err = s.EnterInstanceRace(ctx, r.ID, who, "Name "+who, 3, t0.Add(time.Minute)); err != nil {
			t.Fatalf("EnterInstanceRace(%s) = %v", who, err)
		}
	}
	if len(r.Players) != 3 {
		t.Errorf("after three entries (one twice) the race has %d players, want 3", len(r.Players))
	}
	if _, err := s.EnterInstanceRace(ctx, r.ID, "ed", "Ed", 3, t0); !errors.Is(err, ErrRaceFull) {
		t.Errorf("EnterInstanceRace(a full race) = %v, want ErrRaceFull", err)
	}
	if _, err := s.EnterInstanceRace(ctx, chat.ID, "ed", "Ed", 3, t0); !errors.Is(err, ErrRaceClosed) {
		t.Errorf("EnterInstanceRace(a chat race) = %v, want ErrRaceClosed", err)
	}
	if _, _, err := s.EndRace(ctx, r.ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnterInstanceRace(ctx, r.ID, "ed", "Ed", 9, t0); !errors.Is(err, ErrRaceClosed) {
		t.Errorf("EnterInstanceRace(an ended race) = %v, want ErrRaceClosed", err)
	}
	next, made, err := s.OpenInstanceRace(ctx, "inst-1", testRace(KindRace))
	if err != nil || !made || next.ID == r.ID {
		t.Errorf("OpenInstanceRace after the end = race %d made %v, %v; want a new race", next.ID, made, err)
	}
	if _, _, err := s.OpenInstanceRace(ctx, "", testRace(KindRace)); !errors.Is(err, ErrInvalid) {
		t.Errorf("OpenInstanceRace(no instance) = %v, want ErrInvalid", err)
	}
	// Who placed what on the co-op board.
	g := mustStart(t, s, testGame("ada"))
	if _, err := s.MoveBy(ctx, g.ID, "bo", []Change{{Cell: 2, Value: 4}, {Cell: 3, Value: 5}}, nil, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MoveBy(ctx, g.ID, "cy", []Change{{Cell: 3, Value: 6}}, nil, t0); err != nil {
		t.Fatal(err)
	}
	if m, err := s.CellMovers(ctx, g.ID); err != nil || len(m) != 2 || m[2] != "bo" || m[3] != "cy" {
		t.Errorf("CellMovers = %v, %v; want cell 2 bo, cell 3 cy", m, err)
	}
}

// testRecentPlacements: a co-op game lists its last moves that placed
// values, newest first, each with its mover and their name in the game;
// clears, notes and undone moves are not among them.
func testRecentPlacements(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	coop, _, err := s.OpenInstanceRace(ctx, "inst-9", testRace(KindTogether))
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"ada", "bo"} {
		if _, err := s.EnterInstanceRace(ctx, coop.ID, who, strings.ToUpper(who[:1])+who[1:], 9, t0); err != nil {
			t.Fatal(err)
		}
	}
	g, err := s.RacerGame(ctx, coop.ID, "ada", testGame("ada"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.RecentPlacements(ctx, g.ID, 3); err != nil || len(got) != 0 {
		t.Errorf("RecentPlacements of a new game = %+v, %v; want none", got, err)
	}
	for i, m := range []struct {
		by      string
		changes []Change
	}{
		{"ada", []Change{{Cell: 2, Value: 4}}},
		{"bo", []Change{{Cell: 3, Value: 5}}},
		{"bo", []Change{{Cell: 2}}},             // a clear
		{"ada", []Change{{Cell: 2, Pencil: 3}}}, // notes
		{"zed", []Change{{Cell: 2, Value: 7}}},  // not in the race: no name
		{"bo", []Change{{Cell: 3, Value: 6}, {Cell: 2, Value: 8}}},
	} {
		if _, err := s.MoveBy(ctx, g.ID, m.by, m.changes, nil, t0); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	show := func(ms []PlacedMove) string {
		var b []string
		for _, m := range ms {
			b = append(b, fmt.Sprintf("%d %s(%s) %v=%v", m.Seq, m.By, m.ByName, m.Cells, m.Values))
		}
		return strings.Join(b, "; ")
	}
	got, err := s.RecentPlacements(ctx, g.ID, 3)
	if want := "6 bo(Bo) [2 3]=[8 6]; 5 zed() [2]=[7]; 2 bo(Bo) [3]=[5]"; err != nil || show(got) != want {
		t.Errorf("RecentPlacements = %q, %v; want %q", show(got), err, want)
	}
	if _, err := s.Undo(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	got, err = s.RecentPlacements(ctx, g.ID, 3)
	if want := "5 zed() [2]=[7]; 2 bo(Bo) [3]=[5]; 1 ada(Ada) [2]=[4]"; err != nil || show(got) != want {
		t.Errorf("RecentPlacements after an undo = %q, %v; want %q", show(got), err, want)
	}
}
