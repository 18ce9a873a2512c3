package sudoku

import (
	"fmt"
	"math/bits"
	"strings"
)

// findXYWing finds a pivot with candidates {x,y} seeing two pincers {x,z}
// and {y,z}: one of the pincers is z, so z goes from every cell seeing both
// (SE 4.2).
func findXYWing(b *board) (Step, bool) {
	g := b.g
	for p, pm := range b.cand {
		if b.vals[p] != 0 || bits.OnesCount32(pm) != 2 {
			continue
		}
		for _, a := range g.peers[p] {
			am := b.cand[a]
			if b.vals[a] != 0 || bits.OnesCount32(am) != 2 || bits.OnesCount32(am&pm) != 1 {
				continue
			}
			z := am &^ pm
			want := (pm &^ am) | z
			for _, c := range g.peers[p] {
				if c <= a || b.vals[c] != 0 || b.cand[c] != want {
					continue
				}
				// Order the pincers so each wing is found once, from a.
				elims := b.seenByAll(z, -1, a, c)
				if len(elims) == 0 {
					continue
				}
				zv := bits.TrailingZeros32(z) + 1
				x, y := bits.TrailingZeros32(am&pm)+1, bits.TrailingZeros32(pm&^am)+1
				cells := []int{p, a, c}
				return Step{
					Technique:    techXYWing,
					Score:        4.2,
					Eliminations: elims,
					Cells:        cells,
					Causes:       b.causes(cells, b.all),
					Where:        fmt.Sprintf("%s and the cells it sees", b.name(p)),
					Explanation: fmt.Sprintf("%s is %s or %s; if %s, %s is %s, and if %s, %s is %s; either way one of them is %s, so remove %s.",
						b.name(p), b.sym(x), b.sym(y), b.sym(x), b.name(a), b.sym(zv), b.sym(y), b.name(c), b.sym(zv), b.sym(zv), b.elimList(elims)),
				}, true
			}
		}
	}
	return Step{}, false
}

// findXYZWing finds a pivot {x,y,z} seeing pincers {x,z} and {y,z}: one of
// the three is z, so z goes from every cell seeing all three (SE 4.4).
func findXYZWing(b *board) (Step, bool) {
	g := b.g
	for p, pm := range b.cand {
		if b.vals[p] != 0 || bits.OnesCount32(pm) != 3 {
			continue
		}
		for _, a := range g.peers[p] {
			am := b.cand[a]
			if b.vals[a] != 0 || bits.OnesCount32(am) != 2 || am&^pm != 0 {
				continue
			}
			for _, c := range g.peers[p] {
				cm := b.cand[c]
				if c <= a || b.vals[c] != 0 || bits.OnesCount32(cm) != 2 || cm&^pm != 0 || cm == am || am|cm != pm {
					continue
				}
				z := am & cm
				elims := b.seenByAll(z, p, a, c)
				if len(elims) == 0 {
					continue
				}
				zv := bits.TrailingZeros32(z) + 1
				cells := []int{p, a, c}
				return Step{
					Technique:    techXYZWing,
					Score:        4.4,
					Eliminations: elims,
					Cells:        cells,
					Causes:       b.causes(cells, b.all),
					Where:        fmt.Sprintf("%s and the cells it sees", b.name(p)),
					Explanation: fmt.Sprintf("%s is %s, %s is %s and %s is %s: whichever %s is, one of the three is %s, so remove %s.",
						b.name(p), b.symList(pm, "or"), b.name(a), b.symList(am, "or"), b.name(c), b.symList(cm, "or"),
						b.name(p), b.sym(zv), b.elimList(elims)),
				}, true
			}
		}
	}
	return Step{}, false
}

// seenByAll lists candidate z (a one-bit mask) in the empty cells that see
// a and c, and p too unless p < 0; the three cells themselves excluded.
func (b *board) seenByAll(z uint32, p, a, c int) []Candidate {
	var out []Candidate
	v := bits.TrailingZeros32(z) + 1
	for _, e := range b.g.peers[a] {
		if e == c || e == p || b.cand[e]&z == 0 || !b.g.sees(e, c) || (p >= 0 && !b.g.sees(e, p)) {
			continue
		}
		out = append(out, Candidate{e, v})
	}
	return out
}

// findUniqueRectangle finds four cells at the corners of a rectangle in two
// boxes that would hold the same two digits {a,b} in either order: the
// puzzle has one solution, so that "deadly pattern" can't happen.
//   - Type 1 (SE 4.5): three corners hold only {a,b}; the fourth is not a or b.
//   - Type 2 (SE 4.6): two corners hold only {a,b}, the other two {a,b,z};
//     one of those is z, so z goes from the cells seeing both.
//   - Type 4 (SE 4.6): as type 2 with any extras, but a is locked to the two
//     corners in a unit they share; then b goes from both.
//
// With b.urMissing the two corners beside the floor may each have lost one
// of {a,b} (see board.urMissing): the step removes what is left of them.
func findUniqueRectangle(b *board) (Step, bool) {
	n := b.n
	for r1 := 0; r1 < n; r1++ {
		for c1 := 0; c1 < n; c1++ {
			A := r1*n + c1
			pm := b.cand[A]
			if b.vals[A] != 0 || bits.OnesCount32(pm) != 2 {
				continue
			}
			// The floor A-B lies in a row (then the roof is another row) or
			// in a column.
			for c2 := c1 + 1; c2 < n; c2++ {
				B := r1*n + c2
				if b.vals[B] != 0 || b.cand[B] != pm {
					continue
				}
				for r2 := 0; r2 < n; r2++ {
					if r2 == r1 {
						continue
					}
					if st, ok := b.checkUR(pm, A, B, r2*n+c1, r2*n+c2); ok {
						return st, true
					}
				}
			}
			for r2 := r1 + 1; r2 < n; r2++ {
				B := r2*n + c1
				if b.vals[B] != 0 || b.cand[B] != pm {
					continue
				}
				for c2 := 0; c2 < n; c2++ {
					if c2 == c1 {
						continue
					}
					if st, ok := b.checkUR(pm, A, B, r1*n+c2, r2*n+c2); ok {
						return st, true
					}
				}
			}
		}
	}
	return Step{}, false
}

// checkUR checks the rectangle with floor A, B (both exactly pm) and roof
// C, D (C beside A, D beside B).
func (b *board) checkUR(pm uint32, A, B, C, D int) (Step, bool) {
	g := b.g
	cm, dm := b.cand[C], b.cand[D]
	if b.vals[C] != 0 || b.vals[D] != 0 {
		return Step{}, false
	}
	if cm&pm != pm || dm&pm != pm {
		// A corner that lost one of the pair (never both, and never
		// down to one candidate: that is a single, found long before).
		if !b.urMissing || cm&pm == 0 || dm&pm == 0 || cm&(cm-1) == 0 || dm&(dm-1) == 0 {
			return Step{}, false
		}
	}
	boxes := map2(g.box[A], g.box[B], g.box[C], g.box[D])
	if !boxes {
		return Step{}, false
	}
	corners := []int{A, B, C, D}
	a, bb := bits.TrailingZeros32(pm)+1, bits.TrailingZeros32(pm&(pm-1))+1
	pair := b.symList(pm, "and")
	deadly := fmt.Sprintf("the four cells could swap %s and the puzzle would have two solutions", pair)
	base := Step{
		Cells:  corners,
		Causes: b.causes(corners, pm),
		Where:  fmt.Sprintf("the %s in %s", pair, b.cellList(corners, "and")),
	}
	// lost says which corner lost which of the pair, for the explanation.
	lost := b.urLost(pm, C, D)
	if lost != "" {
		base.Where += " (" + lost + ")"
		lost += ", but that does not rule the swap out: a solution only has to fit the givens"
	}
	switch {
	case cm == pm && dm != pm, dm == pm && cm != pm:
		x := D
		if dm == pm {
			x = C
		}
		st := base
		st.Technique, st.Score = techUR1, 4.5
		for m := b.cand[x] & pm; m != 0; m &= m - 1 {
			st.Eliminations = append(st.Eliminations, Candidate{x, bits.TrailingZeros32(m) + 1})
		}
		three := []int{A, B, C}
		if x == C {
			three = []int{A, B, D}
		}
		if lost == "" {
			st.Explanation = fmt.Sprintf("%s hold only %s; if %s were %s too, %s, so remove %s from %s.",
				b.cellList(three, "and"), pair, b.name(x), b.symList(pm, "or"), deadly, b.symList(pm, "and"), b.name(x))
		} else {
			left := b.symList(b.cand[x]&pm, "and")
			st.Explanation = fmt.Sprintf("%s hold only %s; if %s were %s, %s (%s), so remove %s from %s.",
				b.cellList(three, "and"), pair, b.name(x), left, deadly, lost, left, b.name(x))
		}
		return st, true
	case cm == pm || dm == pm:
		return Step{}, false
	}
	// Type 2: the roof has one and the same extra digit.
	if extra := cm &^ pm; dm&^pm == extra && bits.OnesCount32(extra) == 1 {
		if elims := b.seenByAll(extra, -1, C, D); len(elims) > 0 {
			st := base
			st.Technique, st.Score = techUR2, 4.6
			st.Eliminations = elims
			z := b.sym(bits.TrailingZeros32(extra) + 1)
			roof := b.cellList([]int{C, D}, "and")
			if lost == "" {
				st.Explanation = fmt.Sprintf("%s hold only %s and %s hold them and %s; unless one of %s is %s, %s, so remove %s.",
					b.cellList([]int{A, B}, "and"), pair, roof, z, b.cellList([]int{C, D}, "or"), z, deadly, b.elimList(elims))
			} else {
				st.Explanation = fmt.Sprintf("%s hold only %s, and %s hold only those and %s; unless one of %s is %s, %s (%s), so remove %s.",
					b.cellList([]int{A, B}, "and"), pair, roof, z, b.cellList([]int{C, D}, "or"), z, deadly, lost, b.elimList(elims))
			}
			return st, true
		}
	}
	// Type 4: one of the pair is locked to the roof in a unit the roof
	// cells share, so the roof can't hold the other.
	n := b.n
	for k := 0; k < 3; k++ {
		u := g.cellUnits[C][k]
		if g.cellUnits[D][k] != u {
			continue
		}
		roof := uint32(1)<<g.cellIdx[C][k] | uint32(1)<<g.cellIdx[D][k]
		for _, pr := range [2][2]int{{a, bb}, {bb, a}} {
			lockedV, otherV := pr[0], pr[1]
			if b.pos[u*n+lockedV-1] != roof {
				continue
			}
			st := base
			st.Technique, st.Score = techUR4, 4.6
			var from []int
			for _, x := range []int{C, D} {
				if b.cand[x]&(1<<(otherV-1)) != 0 {
					st.Eliminations = append(st.Eliminations, Candidate{x, otherV})
					from = append(from, x)
				}
			}
			if len(from) == 0 {
				continue // both lost it: nothing to remove
			}
			st.Units = []Unit{g.units[u]}
			if lost == "" {
				st.Explanation = fmt.Sprintf("%s hold only %s, and in %s, %s can only go in %s; if either of those were %s too, %s, so remove %s from both.",
					b.cellList([]int{A, B}, "and"), pair, g.units[u], b.sym(lockedV), b.cellList([]int{C, D}, "or"), b.sym(otherV), deadly, b.sym(otherV))
			} else {
				st.Explanation = fmt.Sprintf("%s hold only %s, and in %s, %s can only go in %s; if %s were %s, %s (%s), so remove %s from %s.",
					b.cellList([]int{A, B}, "and"), pair, g.units[u], b.sym(lockedV), b.cellList([]int{C, D}, "or"),
					b.cellList(from, "or"), b.sym(otherV), deadly, lost, b.sym(otherV), b.cellList(from, "and"))
			}
			return st, true
		}
	}
	return Step{}, false
}

// urLost says which of the roof corners C and D lost which digit of the
// pair pm; "" when neither lost one.
func (b *board) urLost(pm uint32, C, D int) string {
	var parts []string
	for _, x := range []int{C, D} {
		if m := pm &^ b.cand[x]; m != 0 {
			parts = append(parts, fmt.Sprintf("%s has lost its %s", b.name(x), b.sym(bits.TrailingZeros32(m)+1)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ")
}

// map2 reports whether four box numbers name exactly two boxes, two cells
// in each.
func map2(a, b, c, d int) bool {
	switch {
	case a == b:
		return c == d && c != a
	case a == c:
		return b == d && b != a
	}
	return false
}

// findBUG finds a bivalue universal grave plus one: every empty cell has
// two candidates except one with three. Were that cell's extra digit gone,
// each digit would appear exactly twice in every unit and the puzzle would
// have two solutions, so the cell holds the digit that appears three times
// in its units (SE 5.6).
func findBUG(b *board) (Step, bool) {
	n := b.n
	g := b.g
	x := -1
	for c, m := range b.cand {
		if b.vals[c] != 0 {
			continue
		}
		switch bits.OnesCount32(m) {
		case 2:
		case 3:
			if x >= 0 {
				return Step{}, false
			}
			x = c
		default:
			return Step{}, false
		}
	}
	if x < 0 {
		return Step{}, false
	}
	rowU := g.cellUnits[x][0]
	for m := b.cand[x]; m != 0; m &= m - 1 {
		d := bits.TrailingZeros32(m)
		if bits.OnesCount32(b.pos[rowU*n+d]) != 3 {
			continue
		}
		// Check the grave: without d in x, every missing digit has two
		// places in every unit.
		ok := true
		for u := 0; u < 3*n && ok; u++ {
			for mm := b.all &^ b.placed[u]; mm != 0; mm &= mm - 1 {
				e := bits.TrailingZeros32(mm)
				cnt := bits.OnesCount32(b.pos[u*n+e])
				if e == d && (g.cellUnits[x][0] == u || g.cellUnits[x][1] == u || g.cellUnits[x][2] == u) {
					cnt--
				}
				if cnt != 2 {
					ok = false
					break
				}
			}
		}
		if !ok {
			return Step{}, false
		}
		v := d + 1
		return Step{
			Technique:  techBUG,
			Score:      5.6,
			Placements: []Candidate{{x, v}},
			Cells:      []int{x},
			Where:      b.name(x),
			Explanation: fmt.Sprintf("Every empty cell but %s has two candidates; if %s were not %s, each digit would have two places in every unit and the puzzle two solutions, so %s = %s.",
				b.name(x), b.name(x), b.sym(v), b.name(x), b.sym(v)),
		}, true
	}
	return Step{}, false
}
