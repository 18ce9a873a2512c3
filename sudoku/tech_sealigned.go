package sudoku

import (
	"math/bits"
)

// Sudoku Explainer's aligned exclusions, for the rater: SE 1.2.1 tries
// the aligned pair exclusion (6.2) after BUG and the aligned triple
// exclusion (7.5) after its static chains, before Nishio.
//
// Take two (three) cells with two candidates or more, and the cells that
// see all of them with at most two (three) candidates, the excluders. A
// combination of values for the cells is impossible when two cells that
// see each other take the same value, or when it leaves an excluder
// nothing. A value of a cell that takes part in no possible combination
// goes.

const (
	techAlignedPair   = "Aligned pair exclusion"
	techAlignedTriple = "Aligned triple exclusion"
)

// seCells is a set of cells of a 9x9 grid.
type seCells [2]uint64

func (s *seCells) add(c int)            { s[c>>6] |= 1 << (c & 63) }
func (s seCells) has(c int) bool        { return s[c>>6]&(1<<(c&63)) != 0 }
func (s seCells) and(t seCells) seCells { return seCells{s[0] & t[0], s[1] & t[1]} }
func (s seCells) count() int            { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// each calls f on the cells of s in index order.
func (s seCells) each(f func(c int)) {
	for w := 0; w < 2; w++ {
		for m := s[w]; m != 0; m &= m - 1 {
			f(w*64 + bits.TrailingZeros64(m))
		}
	}
}

// findSEAligned finds SE's first aligned exclusion of degree k (2 or 3),
// in SE's search order, on a 9x9 board.
func findSEAligned(b *board, k int) (Step, bool) {
	if len(b.cand) > 128 {
		return Step{}, false
	}
	var cands []int
	var isCand seCells
	excl := make([]seCells, len(b.cand))
	for c := range b.cand {
		if bits.OnesCount32(b.cand[c]) < 2 {
			continue
		}
		single := false
		var ex seCells
		for _, p := range b.g.peers[c] {
			switch n := bits.OnesCount32(b.cand[p]); {
			case n == 1:
				single = true
			case n == 2 || (k > 2 && n >= 2 && n <= k):
				ex.add(p)
			}
		}
		if !single && ex.count() > 0 {
			cands = append(cands, c)
			isCand.add(c)
			excl[c] = ex
		}
	}
	if len(cands) < k {
		return Step{}, false
	}
	var twin []int
	for _, pr := range sePairs(len(cands)) {
		c0, c1 := cands[pr[0]], cands[pr[1]]
		common := excl[c0].and(excl[c1])
		if k == 2 {
			if common.count() >= 2 {
				if st, ok := b.alignedTry([]int{c0, c1}, common); ok {
					return st, true
				}
			}
			continue
		}
		// The third cell comes from the twin area: the cells either sees
		// that can take part, c0's first, as SE lists them. Only a third
		// cell that sees two common excluders of c0 and c1 can do.
		if common.count() < 2 {
			continue
		}
		twin = twin[:0]
		excl[c0].and(isCand).each(func(x int) {
			if x != c1 {
				twin = append(twin, x)
			}
		})
		excl[c1].and(isCand).each(func(x int) {
			if x != c0 && !excl[c0].has(x) {
				twin = append(twin, x)
			}
		})
		for _, t := range twin {
			if c3 := common.and(excl[t]); c3.count() >= 2 {
				if st, ok := b.alignedTry([]int{c0, c1, t}, c3); ok {
					return st, true
				}
			}
		}
	}
	return Step{}, false
}

// alignedTry tests one set of cells with their common excluders.
func (b *board) alignedTry(cells []int, commonSet seCells) (Step, bool) {
	var common []int
	commonSet.each(func(x int) { common = append(common, x) })
	k := len(cells)
	var allowed [3]uint32 // values each cell takes in some allowed combination
	c0, c1 := b.cand[cells[0]], b.cand[cells[1]]
	see01 := b.g.sees(cells[0], cells[1])
	var c2 uint32
	var see02, see12 bool
	if k == 3 {
		c2 = b.cand[cells[2]]
		see02, see12 = b.g.sees(cells[0], cells[2]), b.g.sees(cells[1], cells[2])
	}
	for m0 := c0; m0 != 0; m0 &= m0 - 1 {
		v0 := m0 & -m0
		for m1 := c1; m1 != 0; m1 &= m1 - 1 {
			v1 := m1 & -m1
			if v0 == v1 && see01 {
				continue
			}
			// An excluder left nothing by v0 and v1 rules the pair out; one
			// left a single value w rules out w for the third cell.
			dead, killed := false, uint32(0)
			for _, x := range common {
				left := b.cand[x] &^ (v0 | v1)
				if left == 0 {
					dead = true
					break
				}
				if left&(left-1) == 0 {
					killed |= left
				}
			}
			if dead {
				continue
			}
			if k == 2 {
				allowed[0] |= v0
				allowed[1] |= v1
				continue
			}
			ok2 := c2 &^ killed
			if see02 {
				ok2 &^= v0
			}
			if see12 {
				ok2 &^= v1
			}
			if ok2 != 0 {
				allowed[0] |= v0
				allowed[1] |= v1
				allowed[2] |= ok2
			}
		}
	}
	st := Step{Technique: techAlignedPair, Score: 6.2}
	if k == 3 {
		st.Technique, st.Score = techAlignedTriple, 7.5
	}
	for i, c := range cells {
		for m := b.cand[c] &^ allowed[i]; m != 0; m &= m - 1 {
			st.Eliminations = append(st.Eliminations, Candidate{Cell: c, Value: bits.TrailingZeros32(m) + 1})
		}
	}
	if len(st.Eliminations) == 0 {
		return Step{}, false
	}
	st.Cells = append(append([]int(nil), cells...), common...)
	st.Explanation = st.Technique + ": no way to fill " + b.cellList(cells, "and") +
		" leaves each of " + b.cellList(common, "and") + " a candidate and takes " + b.elimList(st.Eliminations) + "."
	return st, true
}
