package sudoku

import (
	"fmt"
	"math/bits"
)

// Locked candidates: when a digit's places in one unit all lie in a second
// unit, the digit can go nowhere else in the second unit. Pointing looks
// from a box at a row or column; claiming looks from a row or column at a
// box. The "direct" variants are those whose eliminations at once leave a
// hidden single in a unit of the same kind as the base unit (another box
// for pointing, another row or column like the base line for claiming),
// which Sudoku Explainer rates lower (1.7 and 1.9) than the plain ones (2.6
// and 2.8). A single they leave in another kind of unit does not make them
// direct, as in SE.

func findDirectPointing(b *board) (Step, bool) { return findLocked(b, false, true) }
func findDirectClaiming(b *board) (Step, bool) { return findLocked(b, true, true) }
func findPointing(b *board) (Step, bool)       { return findLocked(b, false, false) }
func findClaiming(b *board) (Step, bool)       { return findLocked(b, true, false) }

// findLocked scans boxes (pointing) or lines (claiming) for a digit locked
// into an intersection with eliminations beyond it. With direct set it only
// accepts steps that leave a hidden single.
func findLocked(b *board, claiming, direct bool) (Step, bool) {
	n := b.n
	s := b.g.shape
	stacks := n / s.BoxCols
	var elims [MaxN]int
	if !claiming {
		for bi := 0; bi < n; bi++ {
			u := 2*n + bi
			top, left := (bi/stacks)*s.BoxRows, (bi%stacks)*s.BoxCols
			for m := b.all &^ b.placed[u]; m != 0; m &= m - 1 {
				d := bits.TrailingZeros32(m)
				p := b.pos[u*n+d]
				if bits.OnesCount32(p) < 2 {
					continue
				}
				for i, rm := range b.g.boxRowMask {
					if p&^rm != 0 {
						continue
					}
					t := top + i
					if others := b.pos[t*n+d] &^ b.g.rowSeg[bi%stacks]; others != 0 {
						if st, ok := b.lockedStep(u, t, d, p, others, elims[:0], claiming, direct); ok {
							return st, true
						}
					}
				}
				for j, cm := range b.g.boxColMask {
					if p&^cm != 0 {
						continue
					}
					t := n + left + j
					if others := b.pos[t*n+d] &^ b.g.colSeg[bi/stacks]; others != 0 {
						if st, ok := b.lockedStep(u, t, d, p, others, elims[:0], claiming, direct); ok {
							return st, true
						}
					}
				}
			}
		}
		return Step{}, false
	}
	for u := 0; u < 2*n; u++ {
		isRow := u < n
		line := u % n
		for m := b.all &^ b.placed[u]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			p := b.pos[u*n+d]
			if bits.OnesCount32(p) < 2 {
				continue
			}
			segs, inBox := b.g.colSeg, b.g.boxColMask[line%s.BoxCols]
			if isRow {
				segs, inBox = b.g.rowSeg, b.g.boxRowMask[line%s.BoxRows]
			}
			for k, seg := range segs {
				if p&^seg != 0 {
					continue
				}
				var bi int
				if isRow {
					bi = (line/s.BoxRows)*stacks + k
				} else {
					bi = k*stacks + line/s.BoxCols
				}
				t := 2*n + bi
				if others := b.pos[t*n+d] &^ inBox; others != 0 {
					if st, ok := b.lockedStep(u, t, d, p, others, elims[:0], claiming, direct); ok {
						return st, true
					}
				}
			}
		}
	}
	return Step{}, false
}

// lockedStep builds the step for digit d locked at positions p of unit u,
// removing it from positions others of unit t. With direct set it returns
// false unless the eliminations leave a hidden single.
func (b *board) lockedStep(u, t, d int, p, others uint32, elims []int, claiming, direct bool) (Step, bool) {
	for m := others; m != 0; m &= m - 1 {
		elims = append(elims, b.g.unitCells[t][bits.TrailingZeros32(m)])
	}
	single, singleUnit := -1, -1
	if direct {
		single, singleUnit = b.singleAfter(d, elims, u)
		if single < 0 {
			return Step{}, false
		}
	}
	v := d + 1
	st := Step{Score: 2.6, Technique: techPointing}
	if claiming {
		st.Score, st.Technique = 2.8, techClaiming
	}
	if direct {
		st.Score, st.Technique = 1.7, techDirectPointing
		if claiming {
			st.Score, st.Technique = 1.9, techDirectClaiming
		}
	}
	locked := b.cellsOf(u, p)
	for _, c := range locked {
		st.Causes = append(st.Causes, Candidate{c, v})
	}
	for _, c := range elims {
		st.Eliminations = append(st.Eliminations, Candidate{c, v})
	}
	base, target := b.g.units[u], b.g.units[t]
	st.Units = []Unit{base, target}
	st.Where = fmt.Sprintf("%s in %s", b.sym(v), base)
	st.Explanation = fmt.Sprintf("In %s, %s can only go in %s (%s), so it can't go elsewhere in %s: remove %s.",
		base, b.sym(v), target, b.cellList(locked, "or"), target, b.elimList(st.Eliminations))
	if direct {
		st.Placements = []Candidate{{single, v}}
		su := b.g.units[singleUnit]
		st.Units = append(st.Units, su)
		st.Explanation = st.Explanation[:len(st.Explanation)-1] +
			fmt.Sprintf("; then in %s, %s fits only in %s, so %s = %s.", su, b.sym(v), b.name(single), b.name(single), b.sym(v))
	}
	return st, true
}

// singleAfter checks whether removing digit d from cells would leave d with
// one place in a unit of the same kind as base (row, column or box), other
// than base, that had more than one before. It returns that cell and unit,
// or -1, -1.
func (b *board) singleAfter(d int, cells []int, base int) (int, int) {
	n := b.n
	k := base / n
	for _, e := range cells {
		U := b.g.cellUnits[e][k]
		if U == base {
			continue
		}
		m := b.pos[U*n+d]
		if bits.OnesCount32(m) < 2 {
			continue
		}
		for _, f := range cells {
			if b.g.cellUnits[f][k] == U {
				m &^= 1 << b.g.cellIdx[f][k]
			}
		}
		if bits.OnesCount32(m) == 1 {
			return b.g.unitCells[U][bits.TrailingZeros32(m)], U
		}
	}
	return -1, -1
}
