package commands

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// hasButton reports whether r carries a button labelled label.
func hasButton(r Response, label string) bool {
	for _, b := range buttons(r) {
		if b.Label == label {
			return true
		}
	}
	return false
}

// TestOpenBoardButton: with the Activity set up, a game being played
// (from /play or /daily play, and after a move) carries "Open board",
// whose click launches the Activity and nothing else; someone else's
// click is refused; without the Activity there is no such button, and an
// old one says so instead of launching.
func TestOpenBoardButton(t *testing.T) {
	e := newPlayEnv(t)
	off := e.s
	e.s = New(Config{Games: e.st, Puzzles: e.puzzles, Activity: true})

	play := e.do(ada.slash(t0, "play", ""))
	daily := e.do(bob.slash(t0, "daily", "play", optLevel, "easy"))
	for name, r := range map[string]Response{"/play": play, "/daily play": daily} {
		if !hasButton(r, "Open board") {
			t.Errorf("%s: no Open board button in %+v", name, buttons(r))
		}
	}
	open := findButton(t, play, "Open board")
	if got := e.do(ada.click(t0.Add(time.Second), open.CustomID)); !got.LaunchActivity || got.Content != "" || len(got.Embeds) != 0 || got.Modal != nil {
		t.Errorf("Open board = %+v, want only LaunchActivity", got)
	}
	if plan := e.s.Plan(context.Background(), ada.click(t0, open.CustomID)); plan != (Plan{}) {
		t.Errorf("Open board's plan %+v, want the zero Plan (a launch is never deferred)", plan)
	}
	if got := e.do(bob.click(t0.Add(time.Second), open.CustomID)); got.LaunchActivity || got.Content == "" {
		t.Errorf("Bob pressing Ada's Open board = %+v, want a refusal", got)
	}
	// After a move the board still has it (beside Undo all later on).
	sid := strconv.FormatInt(gameID(t, play), 10)
	if r := e.do(ada.click(t0.Add(time.Minute), gamePrefix+":k:"+sid)); !hasButton(r, "Open board") {
		t.Errorf("the redrawn board lost Open board: %+v", buttons(r))
	}

	e.s = off
	if r := e.do(ada.slash(t0, "play", "")); hasButton(r, "Open board") {
		t.Errorf("without the Activity: an Open board button in %+v", buttons(r))
	}
	if got := e.do(ada.click(t0.Add(2*time.Second), open.CustomID)); got.LaunchActivity || got.Content != ActivityOffNotice {
		t.Errorf("an old Open board without the Activity = %+v, want %q", got, ActivityOffNotice)
	}
}

// TestDailyPostOpenBoard: with the Activity set up the daily post carries
// "Open board" beside Play and Leaderboard (five buttons, one row), and
// its click launches the Activity for anyone; without, the post is as
// before.
func TestDailyPostOpenBoard(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	plain, err := e.s.DailyPost(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	if hasButton(plain, "Open board") {
		t.Errorf("without the Activity: Open board in %+v", buttons(plain))
	}
	e.s = New(Config{Games: e.st, Puzzles: e.puzzles, Activity: true})
	post, err := e.s.DailyPost(ctx, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(post.Components) != 1 || len(post.Components[0].Buttons) != 5 {
		t.Fatalf("the post's buttons: %+v", post.Components)
	}
	open := findButton(t, post, "Open board")
	for _, w := range []who{ada, cy} {
		if got := e.do(w.click(t0, open.CustomID)); !got.LaunchActivity || got.Content != "" {
			t.Errorf("%s pressing the post's Open board = %+v, want only LaunchActivity", w.name, got)
		}
	}
	if plan := e.s.Plan(ctx, ada.click(t0, open.CustomID)); plan != (Plan{}) {
		t.Errorf("the post's Open board plan %+v, want the zero Plan", plan)
	}
}
