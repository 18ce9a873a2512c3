package sudoku

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzSolve feeds the solver arbitrary grids of every shape: it must not
// panic, every solution it returns must be complete, valid and agree with
// the givens, and on 9x9 grids it must find as many solutions as the
// generic path. The fuzzer's bytes choose the shape, the limit, an
// optional seed, and the cell values (taken modulo N+1, so most grids are
// sparse enough to be interesting and some clash).
func FuzzSolve(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint8(0), []byte("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"))
	f.Add(uint8(3), uint8(2), uint8(0), []byte("..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"))
	f.Add(uint8(0), uint8(1), uint8(7), []byte{1, 0, 0, 2})
	f.Add(uint8(1), uint8(3), uint8(0), []byte{1, 2, 3, 4, 5, 6})
	f.Add(uint8(5), uint8(2), uint8(1), []byte{})
	f.Add(uint8(6), uint8(2), uint8(0), []byte{25, 25})
	f.Add(uint8(7), uint8(0), uint8(0), []byte{9, 9, 9})
	shapes := []Shape{Shape4, Shape6, Shape8, Shape9, Shape12, Shape16, Shape25, {2, 5}, {3, 5}, {3, 2}, {1, 6}, {1, 12}}
	f.Fuzz(func(t *testing.T, shapeIdx, limit, seed uint8, cells []byte) {
		s := shapes[int(shapeIdx)%len(shapes)]
		g := New(s)
		n := s.N()
		for i := 0; i < len(g.Cells) && i < len(cells); i++ {
			c := cells[i]
			switch {
			case c >= '1' && c <= '9':
				c -= '0'
			case c == '.' || c == '0':
				c = 0
			}
			g.Cells[i] = c % uint8(n+1)
		}
		before := g.Clone()
		opts := SolveOptions{Limit: int(limit % 4)}
		if seed != 0 {
			opts.Rand = rand.New(rand.NewPCG(uint64(seed), 0))
		}
		// Big grids with few givens can take long to count; a deadline
		// keeps each input quick, and Cancelled is an acceptable answer.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res := SolveWith(ctx, g, opts)
		if !g.Equal(before) {
			t.Fatalf("SolveWith modified its input")
		}
		if len(res.Solutions) > max(opts.Limit, 1) {
			t.Fatalf("%d solutions, limit %d", len(res.Solutions), opts.Limit)
		}
		for _, sol := range res.Solutions {
			if err := checkSolvedGrid(g, sol); err != nil {
				t.Fatalf("SolveWith(%s) returned %s: %v", g, sol, err)
			}
		}
		clash := len(g.Clashes()) > 0
		switch res.Status {
		case Unique, Solved:
			if len(res.Solutions) != 1 || clash {
				t.Fatalf("status %v with %d solutions (clash %v)", res.Status, len(res.Solutions), clash)
			}
		case Multiple:
			if len(res.Solutions) < 2 || res.Solutions[0].Equal(res.Solutions[1]) {
				t.Fatalf("status multiple with solutions %v", res.Solutions)
			}
		case NoSolution:
			if len(res.Solutions) != 0 {
				t.Fatalf("status none with %d solutions", len(res.Solutions))
			}
		case Cancelled:
		default:
			t.Fatalf("unknown status %v", res.Status)
		}
		// The 9x9 path's inference and guesses are its own: the generic
		// path must find as many solutions.
		if s == Shape9 && res.Status != Cancelled && opts.Rand == nil {
			want, _, stopped := solveGeneric(ctx, g, opts, max(opts.Limit, 1))
			if !stopped && len(want) != len(res.Solutions) {
				t.Fatalf("SolveWith(%s) found %d solutions, the generic path %d", g, len(res.Solutions), len(want))
			}
		}
	})
}
