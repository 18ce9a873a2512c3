package sudoku

import (
	"context"
	"math/rand/v2"
	"testing"
)

func TestCopiesFind(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	set := mustLoadPuzzleSet(t, "famous_hardest.txt")
	var sols []*Grid
	var known []Puzzle
	for _, p := range set[:3] {
		sols = append(sols, mustSolution(t, p.Grid))
		known = append(known, Puzzle{Grid: p.Grid, Solution: sols[len(sols)-1]})
	}
	c, err := NewCopies(known...)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range set[:3] {
		sol := sols[i]
		// A position: the givens plus a few right entries.
		pos := p.Grid.Clone()
		added := 0
		for cell, v := range pos.Cells {
			if v == 0 && added < 10 && rng.IntN(3) == 0 {
				pos.Cells[cell] = sol.Cells[cell]
				added++
			}
		}
		// The same position with two wrong entries (no solution, maybe a
		// clash).
		wrong := pos.Clone()
		for cell, bad := 0, 0; cell < len(wrong.Cells) && bad < 2; cell++ {
			if wrong.Cells[cell] == 0 {
				wrong.Cells[cell] = sol.Cells[cell]%9 + 1
				bad++
			}
		}
		for _, g := range []*Grid{p.Grid, sol, pos, wrong} {
			for k := range 4 {
				h := g
				if k > 0 {
					h = transform(g, rng)
				}
				if got, ok := c.Find(ctx, h); !ok || got != i {
					t.Errorf("Find(%s) = %d, %v; want %d, true (a copy of %s)", h, got, ok, i, p.Grid)
				}
			}
		}
	}
	// Other puzzles are not copies. (forum_hardest_1106 would not do: it
	// holds other puzzles with the solution of one of the three.)
	others := append(mustLoadPuzzleSet(t, "17clue.txt")[:40], set[3:]...)
	for _, p := range others {
		if got, ok := c.Find(ctx, p.Grid); ok {
			t.Errorf("Find(%s) = %d, true; want no match", p.Grid, got)
		}
		// Nor is their solution with two cells swapped (dense, so the
		// givens search has much to try), nor positions of them with wrong
		// entries (no solution: the givens search runs, and must find
		// nothing).
		swapped := mustSolution(t, p.Grid)
		swapped.Cells[0], swapped.Cells[1] = swapped.Cells[1], swapped.Cells[0]
		if got, ok := c.Find(ctx, swapped); ok {
			t.Errorf("Find(%s) = %d, true; want no match", swapped, got)
		}
		wrong := wrongPosition(t, p.Grid, rng)
		if got, ok := c.Find(ctx, wrong); ok {
			t.Errorf("Find(%s) = %d, true; want no match (a wrong position of %s)", wrong, got, p.Grid)
		}
	}
}

// wrongPosition fills half of g's blanks from its solution and two more
// with wrong values: a position with no solution.
func wrongPosition(t testing.TB, g *Grid, rng *rand.Rand) *Grid {
	t.Helper()
	sol := mustSolution(t, g)
	w := g.Clone()
	bad := 0
	for _, cell := range rng.Perm(len(w.Cells)) {
		if w.Cells[cell] != 0 {
			continue
		}
		switch {
		case bad < 2:
			w.Cells[cell] = sol.Cells[cell]%9 + 1
			bad++
		case rng.IntN(2) == 0:
			w.Cells[cell] = sol.Cells[cell]
		}
	}
	if res := Solve(context.Background(), w, 1); res.Status != NoSolution {
		t.Fatalf("wrongPosition(%s) = %s has a solution", g, w)
	}
	return w
}

func TestCopiesFindFewerClues(t *testing.T) {
	// A puzzle with spare clues (the generator's, not a minimal one) keeps
	// few solutions when a clue goes, and the known one is among them.
	g := mustParse(t, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	sol := mustSolution(t, g)
	c, err := NewCopies(Puzzle{Grid: g, Solution: sol})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	removed := 0
	fewer := g.Clone()
	for cell, v := range fewer.Cells {
		if v != 0 && removed < 3 {
			fewer.Cells[cell] = 0
			removed++
		}
	}
	h := transform(fewer, rng)
	if _, ok := c.Find(context.Background(), h); !ok {
		t.Errorf("Find(%s) = false; want a copy of %s with 3 clues removed", h, g)
	}
}

func TestSignatureInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range mustLoadPuzzleSet(t, "famous_hardest.txt") {
		sol := mustSolution(t, p.Grid)
		want := signature(sol)
		for range 10 {
			if got := signature(transform(sol, rng)); !got.equal(want) {
				t.Fatalf("signature of a transformed %s differs", sol)
			}
		}
	}
}

func TestNewCopiesRejects(t *testing.T) {
	g := mustLoadPuzzleSet(t, "famous_hardest.txt")[0].Grid
	if _, err := NewCopies(Puzzle{Grid: g, Solution: g}); err == nil {
		t.Errorf("NewCopies(an unsolved puzzle) = nil error, want one")
	}
}

// BenchmarkCopiesFind is the cost a /solve of an unrelated 9x9 pays to be
// checked against the six dailies that count.
func BenchmarkCopiesFind(b *testing.B) {
	set := mustLoadPuzzleSet(b, "famous_hardest.txt")
	var known []Puzzle
	for _, p := range set[:6] {
		known = append(known, Puzzle{Grid: p.Grid, Solution: mustSolution(b, p.Grid)})
	}
	c, err := NewCopies(known...)
	if err != nil {
		b.Fatal(err)
	}
	other := mustLoadPuzzleSet(b, "forum_hardest_1106.txt")[0].Grid
	ctx := context.Background()
	b.Run("other", func(b *testing.B) {
		for b.Loop() {
			c.Find(ctx, other)
		}
	})
	b.Run("match", func(b *testing.B) {
		// What Find adds to a solve the command does anyway.
		sol := mustSolution(b, other)
		for b.Loop() {
			c.match(sol)
		}
	})
	b.Run("wrong-other", func(b *testing.B) {
		// A position of another puzzle with wrong entries: no solution, so
		// the six puzzles' givens are searched for.
		w := wrongPosition(b, other, rand.New(rand.NewPCG(2, 2)))
		for b.Loop() {
			if _, ok := c.Find(ctx, w); ok {
				b.Fatal("found")
			}
		}
	})
	b.Run("swapped-full", func(b *testing.B) {
		// The costliest kind of grid found for the givens search: a full
		// grid with two cells swapped (clashes, so no solve).
		w := mustSolution(b, other)
		w.Cells[0], w.Cells[1] = w.Cells[1], w.Cells[0]
		for b.Loop() {
			if _, ok := c.Find(ctx, w); ok {
				b.Fatal("found")
			}
		}
	})
	b.Run("wrong-copy", func(b *testing.B) {
		w := transform(wrongPosition(b, set[4].Grid, rand.New(rand.NewPCG(3, 3))), rand.New(rand.NewPCG(4, 4)))
		for b.Loop() {
			if _, ok := c.Find(ctx, w); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		g := transform(set[2].Grid, rand.New(rand.NewPCG(1, 1)))
		for b.Loop() {
			if _, ok := c.Find(ctx, g); !ok {
				b.Fatal("not found")
			}
		}
	})
}
