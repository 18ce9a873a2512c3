package commands

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubot/sudoku"
)

// TestDefaultLevel: a level left out works for every size: medium where
// the size reaches it, else the hardest the size reaches.
func TestDefaultLevel(t *testing.T) {
	for _, c := range sizeChoices {
		n, _ := strconv.Atoi(c.Value)
		sh, _ := sudoku.ShapeFor(n)
		want := sudoku.Medium
		if top := sudoku.MaxLevel(sh); top < want {
			want = top
		}
		if got := DefaultLevel(sh); got != want || got > sudoku.MaxLevel(sh) {
			t.Errorf("DefaultLevel(%s) = %s, want %s (at most %s)", sh, got, want, sudoku.MaxLevel(sh))
		}
	}
	if got := DefaultLevel(sudoku.Shape4); got != sudoku.Easy {
		t.Errorf("DefaultLevel(4x4) = %s, want easy", got)
	}
}

// TestGenerateDefaultLevelEverySize: /generate with a size and no level
// makes a puzzle for every size offered; the small ones say their level.
func TestGenerateDefaultLevelEverySize(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a puzzle of every size")
	}
	var seed uint64 = 7
	s := newTestService(t, Config{Seed: func() uint64 { seed++; return seed }, SolveTimeout: 30 * time.Second})
	for _, c := range sizeChoices {
		t.Run(c.Name, func(t *testing.T) {
			n, _ := strconv.Atoi(c.Value)
			sh, _ := sudoku.ShapeFor(n)
			r := s.Handle(context.Background(), slash("generate", "size", c.Value, "output", "text"))
			if r.Ephemeral || len(r.Embeds) != 1 {
				t.Fatalf("/generate size:%s = %q %+v, want a public puzzle", c.Value, r.Content, r.Embeds)
			}
			if want := " · " + DefaultLevel(sh).String() + " ("; !strings.Contains(r.Embeds[0].Title, want) {
				t.Errorf("/generate size:%s title %q, want the level %s", c.Value, r.Embeds[0].Title, DefaultLevel(sh))
			}
		})
	}
}

// TestPlayDefaultLevel4x4: /play size:4 with no level starts an easy game
// rather than refusing medium.
func TestPlayDefaultLevel4x4(t *testing.T) {
	e := newPlayEnv(t)
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	r := e.do(ada.slash(t0, "play", "", optSize, "4"))
	if strings.Contains(r.Content, "go up to") {
		t.Fatalf("/play size:4 = %q, want a game", r.Content)
	}
	g, err := e.st.Game(context.Background(), gameID(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if g.Level != "easy" {
		t.Errorf("/play size:4 started a %q game, want easy", g.Level)
	}
	if r := e.do(ada.slash(t0, "play", "", optSize, "4", optLevel, "medium")); !strings.HasPrefix(r.Content, "4x4 puzzles go up to easy") {
		t.Errorf("/play size:4 level:medium = %q, want the refusal", r.Content)
	}
}
