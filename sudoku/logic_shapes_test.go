package sudoku

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// newTestPuzzle makes a puzzle of shape s from seed: a random full grid,
// then cells emptied in random order while the solution stays unique,
// down to at most maxClues clues or until no cell can go (minimal). It is
// a test helper, not the generator: no symmetry, no level.
func newTestPuzzle(t testing.TB, s Shape, seed uint64, maxClues int) *Grid {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	full := SolveWith(ctx, New(s), SolveOptions{Limit: 1, Rand: rng})
	if len(full.Solutions) != 1 {
		t.Fatalf("no full %s grid: %v", s, full.Status)
	}
	g := full.Solutions[0].Clone()
	order := rng.Perm(len(g.Cells))
	clues := len(g.Cells)
	for _, c := range order {
		v := g.Cells[c]
		g.Cells[c] = 0
		if Solve(ctx, g, 2).Status != Unique {
			g.Cells[c] = v
			continue
		}
		clues--
		if clues <= maxClues {
			break
		}
	}
	return g
}

// TestStepsAgreeOtherShapes runs the logical solver on puzzles of every
// shape, square and rectangular boxes: every step agrees with the solution,
// and the minimal small puzzles are solved by logic.
func TestStepsAgreeOtherShapes(t *testing.T) {
	tests := []struct {
		shape    Shape
		count    int
		maxClues int // 0: minimal puzzles
	}{
		{Shape4, 30, 0},
		{Shape6, 30, 0},
		{Shape8, 20, 0},
		{Shape9, 20, 0},
		{Shape12, 6, 0},
		{Shape16, 3, 256 * 45 / 100},
		{Shape{2, 5}, 4, 0},
		{Shape{3, 5}, 2, 225 * 45 / 100},
	}
	if testing.Short() {
		tests = tests[:3]
	}
	for _, tt := range tests {
		t.Run(tt.shape.String(), func(t *testing.T) {
			used := map[string]int{}
			solved := 0
			for i := 0; i < tt.count; i++ {
				g := newTestPuzzle(t, tt.shape, uint64(1000*tt.shape.N()+i), tt.maxClues)
				done, steps := checkStepsAgree(t, g)
				if done {
					solved++
				}
				for _, st := range steps {
					used[st.Technique]++
				}
			}
			t.Logf("%d puzzles, %d solved by logic; steps: %v", tt.count, solved, used)
			if tt.shape.N() <= 6 && solved != tt.count {
				t.Errorf("%d of %d %s puzzles solved by logic; small grids should all be", solved, tt.count, tt.shape)
			}
		})
	}
}

// TestGecode16 checks the logical solver on the 16x16 puzzles of the
// Gecode examples (from janko.at).
func TestGecode16(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for i, p := range mustLoadPuzzles(t, "gecode16.txt") {
		if i%4 != 0 {
			continue
		}
		g, err := ParseWith(p, ParseOptions{Shape: Shape16})
		if err != nil {
			t.Fatalf("puzzle %d: %v", i, err)
		}
		start := time.Now()
		done, steps := checkStepsAgree(t, g)
		t.Logf("puzzle %d: solved %v in %d steps (%v)", i, done, len(steps), time.Since(start).Round(time.Millisecond))
	}
}
