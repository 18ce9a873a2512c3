package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testRace(kind RaceKind) NewRace {
	return NewRace{Kind: kind, GuildID: "g1", ChannelID: "c1", StarterID: "ada", Starter: "Ada",
		Puzzle: testPuzzle, Shape: "3x3", Level: "hard", Title: "Hard 9x9", Now: t0}
}

func mustCreateRace(t *testing.T, s backend, nr NewRace) Race {
	t.Helper()
	r, err := s.CreateRace(context.Background(), nr)
	if err != nil {
		t.Fatalf("CreateRace: %v", err)
	}
	return r
}

func racerStatuses(r Race) map[string]RacerStatus {
	m := map[string]RacerStatus{}
	for _, p := range r.Players {
		m[p.UserID] = p.Status
	}
	return m
}

// testRaceLifecycle: a lobby takes players up to its most, lets them
// leave, starts once, refuses joins after, marks idle and leaving players
// and ends once.
func testRaceLifecycle(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	r := mustCreateRace(t, s, testRace(KindRace))
	if r.Status != RaceLobby || len(r.Players) != 1 || r.Players[0].UserID != "ada" || !r.CreatedAt.Equal(t0) {
		t.Fatalf("CreateRace = %+v, want a lobby with its starter", r)
	}
	for i, u := range []string{"bob", "cy", "bob"} {
		r, joined, err := s.JoinRace(ctx, r.ID, u, "name-"+u, 3, t0.Add(time.Duration(i+1)*time.Second))
		if err != nil || joined != (i < 2) {
			t.Fatalf("JoinRace(%s) = %v, joined %v", u, err, joined)
		}
		if i == 2 && len(r.Players) != 3 {
			t.Errorf("after joins: %d players, want 3", len(r.Players))
		}
	}
	if _, _, err := s.JoinRace(ctx, r.ID, "dee", "Dee", 3, t0); !errors.Is(err, ErrRaceFull) {
		t.Errorf("a fourth join of at most 3 = %v, want ErrRaceFull", err)
	}
	r, left, err := s.LeaveRace(ctx, r.ID, "cy", t0)
	if err != nil || !left || len(r.Players) != 2 {
		t.Fatalf("LeaveRace(cy) in the lobby = %v, left %v, %d players; want out", err, left, len(r.Players))
	}
	start := t0.Add(time.Minute)
	r, won, err := s.StartRace(ctx, r.ID, start)
	if err != nil || !won || r.Status != RaceRunning || !r.StartAt.Equal(start) {
		t.Fatalf("StartRace = %+v, %v, %v", r, won, err)
	}
	if _, won, err := s.StartRace(ctx, r.ID, start.Add(time.Second)); err != nil || won {
		t.Errorf("a second StartRace = %v, %v; want it lost", won, err)
	}
	if _, _, err := s.JoinRace(ctx, r.ID, "dee", "Dee", 9, t0); !errors.Is(err, ErrRaceClosed) {
		t.Errorf("joining a started race = %v, want ErrRaceClosed", err)
	}
	// One game per player, however often asked.
	ng := testGame("bob")
	ng.Viewed, ng.Now = start, start
	g1, err := s.RacerGame(ctx, r.ID, "bob", ng)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := s.RacerGame(ctx, r.ID, "bob", ng)
	if err != nil || g2.ID != g1.ID || g1.RaceID != r.ID || !g1.ViewedAt.Equal(start) {
		t.Errorf("RacerGame twice = %d, %d (%v), race %d viewed %v; want one game of race %d viewed at the start",
			g1.ID, g2.ID, err, g1.RaceID, g1.ViewedAt, r.ID)
	}
	if _, err := s.RacerGame(ctx, r.ID, "zed", testGame("zed")); !errors.Is(err, ErrNotFound) {
		t.Errorf("RacerGame of someone not in the race = %v, want ErrNotFound", err)
	}
	// bob moves at +2 min with one mistake; ada never moves.
	if err := s.RacerMoved(ctx, r.ID, "bob", "Bob", 1, start.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	r, err = s.MarkIdle(ctx, r.ID, start.Add(time.Minute), start.Add(6*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if got := racerStatuses(r); got["ada"] != RacerIdle || got["bob"] != RacerJoined {
		t.Errorf("after MarkIdle: %v, want ada idle, bob racing", got)
	}
	if p, _ := r.Player("bob"); p.Mistakes != 1 || !p.LastMoveAt.Equal(start.Add(2*time.Minute)) {
		t.Errorf("bob = %+v, want 1 mistake, last move at +2 min", p)
	}
	// A move brings an idle player back.
	if err := s.RacerMoved(ctx, r.ID, "ada", "Ada", 0, start.Add(7*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if done, err := s.RacerDone(ctx, r.ID, "bob", RacerFinished, start.Add(8*time.Minute)); err != nil || !done {
		t.Fatalf("RacerDone(bob) = %v, %v", done, err)
	}
	if done, err := s.RacerDone(ctx, r.ID, "bob", RacerLeft, start.Add(9*time.Minute)); err != nil || done {
		t.Errorf("leaving after finishing = %v, %v; want nothing done", done, err)
	}
	r, left, err = s.LeaveRace(ctx, r.ID, "ada", start.Add(9*time.Minute))
	if err != nil || !left {
		t.Fatalf("LeaveRace(ada) running = %v, %v", left, err)
	}
	if got := racerStatuses(r); got["ada"] != RacerLeft || got["bob"] != RacerFinished {
		t.Errorf("statuses = %v, want ada left, bob finished", got)
	}
	r, err = s.SetRaceMessages(ctx, r.ID, "lobby1", "thread1", "")
	if err != nil || r.LobbyID != "lobby1" || r.ThreadID != "thread1" || r.BoardID != "" {
		t.Errorf("SetRaceMessages = %+v, %v", r, err)
	}
	if won, err := s.ClaimRaceBoard(ctx, r.ID, "claim"); err != nil || !won {
		t.Errorf("ClaimRaceBoard = %v, %v", won, err)
	}
	if won, _ := s.ClaimRaceBoard(ctx, r.ID, "claim2"); won {
		t.Error("a second ClaimRaceBoard won")
	}
	if open, err := s.OpenRaces(ctx, 10); err != nil || len(open) != 1 {
		t.Errorf("OpenRaces = %d races, %v; want 1", len(open), err)
	}
	r, won, err = s.EndRace(ctx, r.ID, start.Add(10*time.Minute))
	if err != nil || !won || r.Status != RaceOver {
		t.Errorf("EndRace = %v, %v, %v", r.Status, won, err)
	}
	if _, won, _ := s.EndRace(ctx, r.ID, start.Add(11*time.Minute)); won {
		t.Error("a second EndRace won")
	}
	if open, _ := s.OpenRaces(ctx, 10); len(open) != 0 {
		t.Errorf("OpenRaces after the end = %d, want 0", len(open))
	}
	lobby := mustCreateRace(t, s, testRace(KindRace))
	if r, won, _ := s.EndRace(ctx, lobby.ID, t0); !won || r.Status != RaceCancelled {
		t.Errorf("ending a lobby: %v, %v; want cancelled", r.Status, won)
	}
}

// testConcurrentRaceStartOnce: of ten Start presses on two processes,
// one starts the race.
func testConcurrentRaceStartOnce(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	s2 := second()
	r := mustCreateRace(t, s, testRace(KindRace))
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range 10 {
		st := s
		if i%2 == 1 {
			st = s2
		}
		wg.Go(func() {
			_, won, err := st.StartRace(ctx, r.ID, t0.Add(time.Duration(i)*time.Second))
			if err != nil {
				t.Errorf("StartRace: %v", err)
			}
			if won {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Errorf("%d Start presses won, want 1", wins.Load())
	}
}

// testCoopMovers: a co-op game credits each value to whoever placed it,
// Undo gives the credit back, and the credit outlives the finish.
func testCoopMovers(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	r := mustCreateRace(t, s, testRace(KindTogether))
	if len(r.Players) != 0 {
		t.Fatalf("a co-op game starts with %d players, want 0", len(r.Players))
	}
	ng := testGame("ada")
	ng.RaceID = r.ID
	g := mustStart(t, s, ng)
	if err := s.SetRaceGame(ctx, r.ID, g.ID); err != nil {
		t.Fatal(err)
	}
	move := func(who string, changes ...Change) {
		t.Helper()
		if _, err := s.MoveBy(ctx, g.ID, who, changes, nil, t0); err != nil {
			t.Fatalf("MoveBy(%s): %v", who, err)
		}
		if err := s.RacerMoved(ctx, r.ID, who, "name-"+who, 0, t0); err != nil {
			t.Fatal(err)
		}
	}
	move("ada", Change{Cell: 1, Value: 1}, Change{Cell: 2, Value: 2})
	move("bob", Change{Cell: 2, Value: 3}, Change{Cell: 3, Value: 4})
	move("cy", Change{Cell: 4, Pencil: 0b11})
	movers := func() map[string]int {
		t.Helper()
		m, err := s.Movers(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := movers(); m["ada"] != 1 || m["bob"] != 2 || m["cy"] != 0 {
		t.Errorf("Movers = %v, want ada 1, bob 2 (B overwrote a cell of ada's), no cy", m)
	}
	if _, err := s.Undo(ctx, g.ID); err != nil { // cy's marks
		t.Fatal(err)
	}
	if _, err := s.Undo(ctx, g.ID); err != nil { // bob's move
		t.Fatal(err)
	}
	if m := movers(); m["ada"] != 2 || m["bob"] != 0 {
		t.Errorf("Movers after undoing bob = %v, want ada 2", m)
	}
	r, err := s.Race(ctx, r.ID)
	if err != nil || len(r.Players) != 3 {
		t.Fatalf("co-op players = %+v, %v; want the three movers", r.Players, err)
	}
	if _, err := s.Finish(ctx, g.ID, GaveUp, t0); err != nil {
		t.Fatal(err)
	}
	if m := movers(); m["ada"] != 2 {
		t.Errorf("Movers after the finish = %v, want ada 2 kept", m)
	}
	if _, err := s.MoveBy(ctx, g.ID, "", nil, nil, t0); !errors.Is(err, ErrInvalid) {
		t.Errorf("MoveBy without a mover = %v, want ErrInvalid", err)
	}
}
