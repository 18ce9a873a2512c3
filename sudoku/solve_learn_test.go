package sudoku

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestLearnSidesClosed checks that the learning search's propagation
// leaves no box-line reduction undone. After random decisions on puzzles
// of several shapes, whenever a side (a box outside a line, or a line
// outside a box, for one value) has no variable left that is not false,
// the value must be where box and line cross, so every variable of the
// other side must be false too.
func TestLearnSidesClosed(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	var grids []*Grid
	for _, set := range []string{"gecode_25x25.txt", "gecode_16x16.txt", "top1465.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set)[:3] {
			g := p.Grid.Clone()
			if g.N() == 16 {
				// The Gecode 16x16 fall to propagation at the root:
				// take a third of their givens away.
				for c := range g.Cells {
					if rng.IntN(3) == 0 {
						g.Cells[c] = 0
					}
				}
			}
			grids = append(grids, g)
		}
	}
	for _, sh := range []Shape{Shape6, Shape12, {4, 5}, {5, 4}} {
		full := SolveWith(t.Context(), New(sh), SolveOptions{Limit: 1, Rand: rng}).Solutions[0]
		keep := 1 // of five cells; the 20x20 need more to be interesting
		if sh.N() == 20 {
			keep = 2
		}
		for c := range full.Cells {
			if rng.IntN(5) >= keep {
				full.Cells[c] = 0
			}
		}
		grids = append(grids, full)
	}
	for _, g := range grids {
		geo := genGeoFor(g.Shape)
		cand := make([]uint32, geo.size)
		for c, v := range g.Cells {
			cand[c] = geo.all
			if v != 0 {
				cand[c] = 1 << (v - 1)
			}
		}
		stop := newStopper(t.Context(), time.Time{})
		s, ok := newLearner(geo, cand, &stop, defaultLearnParams())
		if !ok || !s.compact() {
			t.Fatalf("%s: no solution at the root", g)
		}
		fired, checked := 0, 0
		for round := 0; round < 200; round++ {
			s.cancelUntil(0)
			for depth := 0; depth < 12; depth++ {
				var open []int32
				for v := range s.val {
					if s.val[v] == 0 {
						open = append(open, int32(v))
					}
				}
				if len(open) == 0 {
					break
				}
				v := open[rng.IntN(len(open))]
				p := 2*v + 1 // mostly eliminations, now and then a placement
				if rng.IntN(4) == 0 {
					p = 2 * v
				}
				s.lim = append(s.lim, int32(len(s.trail)))
				s.assign(p, 0)
				if s.propagate() >= 0 {
					break
				}
				checked++
				for k := 0; k < s.nside; k++ {
					side := s.sideVar[s.sideOff[k]:s.sideOff[k+1]]
					other := s.sideVar[s.sideOff[k^1]:s.sideOff[k^1+1]]
					if len(side) == 0 || len(other) == 0 || !allFalse(s, side) {
						continue
					}
					if !allFalse(s, other) {
						t.Fatalf("%s: side %d (group %d) is empty after propagation, but its other side has a variable not false", g, k, s.sideGrp[k])
					}
					if s.vinfo[other[0]].reason == s.sideBase+int32(k) {
						fired++
					}
				}
			}
		}
		if checked == 0 || fired == 0 {
			t.Errorf("%s: %d positions checked, %d made false by an empty side: the test tried nothing", g, checked, fired)
		}
		t.Logf("%s: %d positions, %d sides propagated", g, checked, fired)
	}
}

func allFalse(s *learner, vars []int32) bool {
	for _, w := range vars {
		if s.val[w] >= 0 {
			return false
		}
	}
	return true
}
