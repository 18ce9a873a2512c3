package sudoku

import (
	"context"
	"time"
)

// Bounds on CloserSecond's search: how many of the grid's solutions it
// looks through, and for how long.
const (
	closerLimit = 2000
	closerTime  = 100 * time.Millisecond
)

// CloserSecond takes two different solutions a and b of g and returns a
// solution of g other than a that differs from a in as few cells as it can
// find, never more than b does. Which second solution a search meets first
// is an accident of its order; the one shown to a player should point at
// the cells that really are in doubt (often the four corners of a deadly
// rectangle), not at half the grid.
//
// It looks at the solutions that differ from a only where b does (every
// other cell fixed to a's value: a small search), then at up to
// closerLimit of g's solutions, and keeps the closest; both within
// closerTime.
// A puzzle with a few hundred solutions gets its true nearest; one with
// millions, the nearest of those seen. It never outlasts ctx.
func CloserSecond(ctx context.Context, g, a, b *Grid) *Grid {
	best, fewest := b, countDiffering(a, b)
	keep := func(sols []*Grid) {
		for _, s := range sols {
			if d := countDiffering(a, s); d > 0 && d < fewest {
				best, fewest = s, d
			}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, closerTime)
	defer cancel()
	h := g.Clone()
	for i := range h.Cells {
		if a.Cells[i] == b.Cells[i] {
			h.Cells[i] = a.Cells[i]
		}
	}
	if res := Solve(ctx, h, closerLimit); res.Status != Cancelled {
		keep(res.Solutions)
	}
	if res := Solve(ctx, g, closerLimit); res.Status != Cancelled {
		keep(res.Solutions)
	}
	return best
}

// countDiffering counts the cells where a and b hold different values.
func countDiffering(a, b *Grid) int {
	d := 0
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			d++
		}
	}
	return d
}
