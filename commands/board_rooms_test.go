package commands

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRoomCoop: the first player of a room opens its co-op game, the next
// joins the same board; each plays it, credited with their values; a
// player of another room, or of none, may not.
func TestRoomCoop(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	ada := Player{UserID: "1", UserName: "Ada", Room: "inst"}
	bo := Player{UserID: "2", UserName: "Bo", Room: "inst"}
	a, err := e.s.RoomBoard(ctx, ada, RoomStart{Mode: RoomCoop, Size: 9, Level: "easy"}, now)
	if err != nil {
		t.Fatalf("RoomBoard(ada) = %v", err)
	}
	if a.Together == nil || a.Together.Mode != RoomCoop {
		t.Fatalf("the co-op board says %+v, want mode coop", a.Together)
	}
	b, err := e.s.RoomBoard(ctx, bo, RoomStart{Mode: RoomCoop, Size: 4, Level: "hard"}, now)
	if err != nil || b.ID != a.ID {
		t.Fatalf("RoomBoard(bo) = game %d, %v; want Ada's co-op game %d", b.ID, err, a.ID)
	}
	free := -1
	for i, v := range a.Givens {
		if v == 0 {
			free = i
			break
		}
	}
	v, err := e.s.PlayBoard(ctx, bo, a.ID, []BoardMove{{Cell: free, Kind: MoveDigit, Value: 1}}, now)
	if err != nil || v.Entries[free] != 1 {
		t.Fatalf("Bo's move on the co-op board = %v, entry %d", err, v.Entries[free])
	}
	movers, err := e.st.Movers(ctx, a.ID)
	if err != nil || movers["2"] != 1 {
		t.Errorf("Movers = %v, %v; want Bo credited with 1 value", movers, err)
	}
	if len(v.Movers) != len(v.Entries) || v.Movers[free] != "2" {
		t.Errorf("the co-op view's movers = %v, want Bo's id on cell %d", v.Movers, free)
	}
	for _, who := range []Player{{UserID: "3", UserName: "Cy", Room: "other"}, {UserID: "3", UserName: "Cy"}} {
		var be *BoardError
		if _, err := e.s.PlayBoard(ctx, who, a.ID, []BoardMove{{Cell: free, Kind: MoveClear}}, now); !errors.As(err, &be) || be.Kind != BoardNotYours {
			t.Errorf("a move by %s of room %q = %v, want BoardNotYours", who.UserName, who.Room, err)
		}
	}
	fresh, err := e.s.RoomBoard(ctx, bo, RoomStart{Mode: RoomCoop, Size: 4, Level: "easy", Fresh: true}, now)
	if err != nil || fresh.ID == a.ID || len(fresh.Givens) != 16 {
		t.Errorf("a fresh co-op game = game %d (%d cells), %v; want a new 4x4", fresh.ID, len(fresh.Givens), err)
	}
	if _, err := e.s.RoomBoard(ctx, Player{UserID: "1"}, RoomStart{Mode: RoomCoop}, now); err == nil {
		t.Error("RoomBoard without a room worked, want a refusal")
	}
	if _, err := e.s.RoomBoard(ctx, ada, RoomStart{Mode: "duel"}, now); err == nil {
		t.Error("RoomBoard(mode duel) worked, want a refusal")
	}
}

// TestRoomRace: the players of a room race the same puzzle on their own
// boards; the standings count cells and wrong entries, never digits, and
// rank the finished first, in finishing order with their times.
func TestRoomRace(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	ada := Player{UserID: "1", UserName: "Ada", Room: "inst"}
	bo := Player{UserID: "2", UserName: "Bo", Room: "inst"}
	a, err := e.s.RoomBoard(ctx, ada, RoomStart{Mode: RoomRace, Size: 4, Level: "easy"}, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.s.RoomBoard(ctx, bo, RoomStart{Mode: RoomRace}, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == b.ID || a.Together == nil || b.Together == nil || a.Together.Race != b.Together.Race || a.Together.Mode != RoomRace {
		t.Fatalf("race boards %d %+v and %d %+v: want two games of one race", a.ID, a.Together, b.ID, b.Together)
	}
	for i := range a.Givens {
		if a.Givens[i] != b.Givens[i] {
			t.Fatalf("the racers' puzzles differ at cell %d", i)
		}
	}
	g, _ := e.st.Game(ctx, b.ID)
	sol := mustGrid(g.Solution)
	// Bo solves his board; Ada puts one wrong digit.
	var moves []BoardMove
	wrongCell := -1
	for i, v := range b.Givens {
		if v == 0 {
			moves = append(moves, BoardMove{Cell: i, Kind: MoveDigit, Value: int(sol.Cells[i])})
			if wrongCell < 0 {
				wrongCell = i
			}
		}
	}
	if v, err := e.s.PlayBoard(ctx, bo, b.ID, moves, now.Add(3*time.Minute)); err != nil || v.Status != "solved" {
		t.Fatalf("Bo's solve = %v, status %s", err, v.Status)
	}
	if _, err := e.s.PlayBoard(ctx, ada, a.ID, []BoardMove{{Cell: wrongCell, Kind: MoveDigit, Value: int(sol.Cells[wrongCell])%4 + 1}}, now.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	st, err := e.s.RaceStandings(ctx, ada, a.Together.Race, now.Add(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Players) != 2 {
		t.Fatalf("standings have %d players, want 2", len(st.Players))
	}
	first, second := st.Players[0], st.Players[1]
	if first.Name != "Bo" || first.Place != 1 || first.Status != "solved" || first.ElapsedMS != (2*time.Minute).Milliseconds() || first.Filled != first.Empty {
		t.Errorf("first = %+v, want Bo, place 1, solved in 2:00 (from his own start), all cells", first)
	}
	if second.Name != "Ada" || second.Place != 0 || second.Filled != 1 || second.Wrong != 1 || second.Status != "playing" {
		t.Errorf("second = %+v, want Ada still playing, 1 cell filled, 1 wrong", second)
	}
	if st.Status != "running" {
		t.Errorf("the race with Ada still playing is %s, want running", st.Status)
	}
	if _, err := e.s.GiveUpBoard(ctx, ada, a.ID, now.Add(6*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if st, err := e.s.RaceStandings(ctx, bo, a.Together.Race, now.Add(7*time.Minute)); err != nil || st.Status != "over" || st.Players[1].Status != "gave_up" {
		t.Errorf("standings after Ada gave up = %+v, %v; want the race over, Ada gave_up", st, err)
	}
	var be *BoardError
	if _, err := e.s.RaceStandings(ctx, Player{UserID: "9"}, a.Together.Race, now); !errors.As(err, &be) || be.Kind != BoardNotYours {
		t.Errorf("standings for someone not in the race = %v, want BoardNotYours", err)
	}
	// Another player's race board is theirs alone.
	if _, err := e.s.PlayBoard(ctx, bo, a.ID, []BoardMove{{Cell: wrongCell, Kind: MoveClear}}, now); !errors.As(err, &be) || be.Kind != BoardNotYours {
		t.Errorf("Bo's move on Ada's race board = %v, want BoardNotYours", err)
	}
}
