package sudoku

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// FuzzCanonical feeds Canonical and Copies.Find arbitrary 9x9 grids: no
// panic, and a transformed copy has the same canonical form.
func FuzzCanonical(f *testing.F) {
	f.Add([]byte("..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"), uint64(1))
	f.Add([]byte("123456789"), uint64(2))
	f.Add([]byte("11......................................................................9"), uint64(3))
	set := mustLoadPuzzleSet(f, "famous_hardest.txt")
	c, err := NewCopies(Puzzle{Grid: set[0].Grid, Solution: mustSolution(f, set[0].Grid)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		g := New(Shape9)
		for i := range g.Cells {
			if i < len(data) && data[i] >= '1' && data[i] <= '9' {
				g.Cells[i] = data[i] - '0'
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c.Find(ctx, g)
		want, err := Canonical(g)
		if errors.Is(err, ErrTooSymmetric) {
			return
		}
		if err != nil {
			t.Fatalf("Canonical(%s): %v", g, err)
		}
		h := transform(g, rand.New(rand.NewPCG(seed, 0)))
		got, err := Canonical(h)
		if err == nil && !got.Equal(want) {
			t.Errorf("Canonical(%s) = %s, but its copy %s gives %s", g, want, h, got)
		}
	})
}
