package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// testWatchGames: a watcher hears of every committed move, undo and
// finish, with the game's room and the mover; not of a refused move. On
// PostgreSQL the watcher is on another handle (another process): the
// change crosses the database.
func testWatchGames(t *testing.T, s backend, second func() backend) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watcher := s
	if _, ok := s.(*Postgres); ok {
		watcher = second()
		defer watcher.Close()
	}
	heard := make(chan GameChange, 16)
	done := make(chan error, 1)
	go func() { done <- watcher.WatchGames(ctx, func(ch GameChange) { heard <- ch }) }()
	next := func(what string) GameChange {
		t.Helper()
		select {
		case ch := <-heard:
			return ch
		case err := <-done:
			t.Fatalf("%s: WatchGames ended: %v", what, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing heard in 10 s", what)
		}
		return GameChange{}
	}
	if ch := next("start"); ch != (GameChange{}) {
		t.Fatalf("first call = %+v, want GameChange{} (watching)", ch)
	}
	solo := mustStart(t, s, testGame("ada"))
	if _, err := s.Move(ctx, solo.ID, []Change{{Cell: 2, Value: 4}}, nil, t0, nil); err != nil {
		t.Fatal(err)
	}
	if ch := next("a move of one player"); ch != (GameChange{Game: solo.ID, By: "ada"}) {
		t.Errorf("after a move heard %+v, want game %d by ada", ch, solo.ID)
	}
	ng := testGame("ada")
	ng.RaceID = 9
	g := mustStart(t, s, ng)
	if _, err := s.MoveBy(ctx, g.ID, "bo", []Change{{Cell: 0, Value: 99}}, nil, t0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("MoveBy(value 99) = %v, want ErrInvalid", err)
	}
	if _, err := s.MoveBy(ctx, g.ID, "bo", []Change{{Cell: 2, Value: 4}}, nil, t0); err != nil {
		t.Fatal(err)
	}
	if ch := next("a co-op move"); ch != (GameChange{Game: g.ID, Race: 9, By: "bo"}) {
		t.Errorf("after a move heard %+v, want game %d race 9 by bo (and nothing of the refused move)", ch, g.ID)
	}
	if _, err := s.Undo(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if ch := next("undo"); ch != (GameChange{Game: g.ID, Race: 9}) {
		t.Errorf("after an undo heard %+v, want game %d race 9", ch, g.ID)
	}
	if _, err := s.Finish(ctx, g.ID, GaveUp, t0); err != nil {
		t.Fatal(err)
	}
	if ch := next("finish"); ch.Game != g.ID {
		t.Errorf("after a finish heard %+v, want game %d", ch, g.ID)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("WatchGames after its context ended = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("WatchGames didn't return once its context ended")
	}
}
