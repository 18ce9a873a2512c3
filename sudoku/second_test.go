package sudoku

import (
	"context"
	"strings"
	"testing"
)

func TestCloserSecond(t *testing.T) {
	tests := []struct {
		name   string
		puzzle string
		want   int // the fewest cells any second solution differs in; 0 if not known
	}{
		// 872 solutions; of the first one the search finds, the nearest
		// other differs in 6 cells (counted by enumerating them all).
		{"missing clues", "8.........95.......76.........426798...571243...893165......916....3.487....1.532", 6},
		{"empty 9x9", strings.Repeat(".", 81), 0},
		{"empty 6x6", strings.Repeat(".", 36), 4},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustParse(t, tt.puzzle)
			res := Solve(ctx, g, 2)
			if res.Status != Multiple {
				t.Fatalf("status %v, want Multiple", res.Status)
			}
			a, b := res.Solutions[0], res.Solutions[1]
			got := CloserSecond(ctx, g, a, b)
			d := differing(a, got)
			if len(d) == 0 || len(d) > len(differing(a, b)) {
				t.Fatalf("differs from the first in %d cells; the search's second differed in %d", len(d), len(differing(a, b)))
			}
			if !got.Complete() || len(got.Clashes()) > 0 {
				t.Fatalf("%s is not a complete valid grid", got)
			}
			for i, v := range g.Cells {
				if v != 0 && got.Cells[i] != v {
					t.Fatalf("cell %s holds %d, the clue is %d", g.Shape.CellName(i), got.Cells[i], v)
				}
			}
			// Two solutions differ in at least four cells (a digit that
			// moves in a row moves in a column too), and no single cell can
			// leave the set: fixing it and the cells outside to the first
			// solution leaves only the first.
			if len(d) < 4 {
				t.Fatalf("differs in %d cells; two solutions differ in at least 4", len(d))
			}
			if tt.want != 0 && len(d) != tt.want {
				t.Fatalf("differs in %d cells; the nearest other solution differs in %d", len(d), tt.want)
			}
			for _, c := range d {
				h := g.Clone()
				for i := range h.Cells {
					if !contains(d, i) || i == c {
						h.Cells[i] = a.Cells[i]
					}
				}
				for _, s := range Solve(ctx, h, 2).Solutions {
					if !s.Equal(a) {
						t.Fatalf("a solution differing in fewer cells exists (without %s): %s", g.Shape.CellName(c), s)
					}
				}
			}
			t.Logf("%d differing cells (the search's second: %d)", len(d), len(differing(a, b)))
		})
	}
}

// differing lists the cells where a and b hold different values.
func differing(a, b *Grid) []int {
	var d []int
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			d = append(d, i)
		}
	}
	return d
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
