package commands

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"sudokubot/sudoku"
)

// failingPuzzles can't make a daily.
type failingPuzzles struct{ fakePuzzles }

func (*failingPuzzles) Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	return sudoku.DailyPuzzle{}, errors.New("no puzzle today")
}

// TestDuePosts follows the daily posts of two servers through a day: due
// at their hour, claimed once across two services on one database, given
// back when the send fails, and not claimed when the post can't be made.
func TestDuePosts(t *testing.T) {
	e := newPlayEnv(t)
	ctx := context.Background()
	day := t0.Truncate(24 * time.Hour)
	for _, g := range []struct {
		guild, channel string
		hour           int
	}{{"g1", "c1", 9}, {"g2", "c2", 12}} {
		if err := e.st.SetDaily(ctx, g.guild, g.channel, g.hour, day); err != nil {
			t.Fatal(err)
		}
	}
	other := New(Config{Games: e.st, Puzzles: e.puzzles}) // a second process
	channels := func(posts []DuePost) []string {
		var cs []string
		for _, p := range posts {
			if p.Message.Content == "" || len(p.Message.Components) == 0 {
				t.Errorf("post to %s has no message: %+v", p.ChannelID, p.Message)
			}
			cs = append(cs, p.ChannelID)
		}
		return cs
	}
	steps := []struct {
		name string
		s    *Service
		at   time.Duration // after midnight
		fail []string      // posts to report failed
		want []string
	}{
		{"before any hour", e.s, 8 * time.Hour, nil, nil},
		{"g1's hour", e.s, 9*time.Hour + 10*time.Minute, []string{"c1"}, []string{"c1"}},
		{"a failed post is due again, on another process", other, 9*time.Hour + 11*time.Minute, nil, []string{"c1"}},
		{"sent: not again", e.s, 10 * time.Hour, nil, nil},
		{"g2's hour", other, 13 * time.Hour, nil, []string{"c2"}},
		{"the same hour from the first process", e.s, 13 * time.Hour, nil, nil},
		{"the next day, both", e.s, 24*time.Hour + 23*time.Hour, nil, []string{"c1", "c2"}},
	}
	for _, st := range steps {
		posts, err := st.s.DuePosts(ctx, day.Add(st.at), "test")
		if err != nil {
			t.Fatalf("%s: DuePosts: %v", st.name, err)
		}
		if got := channels(posts); !slices.Equal(got, st.want) {
			t.Errorf("%s: DuePosts = %v, want %v", st.name, got, st.want)
		}
		for _, p := range posts {
			for _, f := range st.fail {
				if p.ChannelID == f {
					if err := st.s.PostFailed(ctx, p); err != nil {
						t.Fatalf("%s: PostFailed: %v", st.name, err)
					}
				}
			}
		}
	}

	// A day whose puzzles can't be made keeps no claim.
	broken := New(Config{Games: e.st, Puzzles: &failingPuzzles{}})
	third := day.AddDate(0, 0, 2).Add(20 * time.Hour)
	if posts, err := broken.DuePosts(ctx, third, "test"); err == nil || len(posts) != 0 {
		t.Errorf("DuePosts without puzzles = %d posts, %v; want none and an error", len(posts), err)
	}
	if posts, err := e.s.DuePosts(ctx, third, "test"); err != nil || len(posts) != 2 {
		t.Errorf("DuePosts after the failure = %d posts, %v; want both claims free", len(posts), err)
	}
	if _, err := New(Config{}).DuePosts(ctx, third, "test"); err == nil {
		t.Error("DuePosts without a store succeeded")
	}
}
