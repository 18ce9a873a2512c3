package sudoku

import (
	"fmt"
	"math/bits"
)

// Subsets and fish share one search: pick k items (cells, digits or lines)
// whose masks together cover only k things. For a naked subset the items
// are cells and the masks their candidates; for a hidden subset the items
// are digits and the masks their places in the unit; for a fish the items
// are lines and the masks the places of one digit along them.

type subsetKind uint8

const (
	nakedSubset subsetKind = iota
	hiddenSubset
	fishSubset
)

// subsetSearch holds one scan's state, so the recursion needs no closures
// and no allocation.
type subsetSearch struct {
	b      *board
	kind   subsetKind
	k      int
	direct bool // hidden only: want a hidden single right after
	u      int  // the unit (naked, hidden)
	d      int  // the digit (fish)
	rows   bool // fish: base lines are rows
	items  [MaxN]int
	masks  [MaxN]uint32
	cnt    int
	sel    [4]int
	st     Step
}

func (s *subsetSearch) rec(depth, start int, union uint32) bool {
	if depth == s.k {
		if bits.OnesCount32(union) != s.k {
			return false
		}
		switch s.kind {
		case nakedSubset:
			return s.checkNaked(union)
		case hiddenSubset:
			return s.checkHidden(union)
		}
		return s.checkFish(union)
	}
	for i := start; i <= s.cnt-(s.k-depth); i++ {
		nu := union | s.masks[i]
		if bits.OnesCount32(nu) > s.k {
			continue
		}
		s.sel[depth] = i
		if s.rec(depth+1, i+1, nu) {
			return true
		}
	}
	return false
}

var (
	nakedNames  = [...]string{2: techNakedPair, 3: techNakedTriple, 4: techNakedQuad}
	nakedScores = [...]float64{2: 3.0, 3: 3.6, 4: 5.0}
	hiddenNames = [...]string{2: techHiddenPair, 3: techHiddenTriple, 4: techHiddenQuad}
	// hiddenScores: Sudoku Explainer rates hidden subsets that leave a
	// hidden single at once ("direct") lower.
	hiddenScores       = [...]float64{2: 3.4, 3: 4.0, 4: 5.4}
	directHiddenNames  = [...]string{2: techDirectHiddenPair, 3: techDirectHiddenTriple}
	directHiddenScores = [...]float64{2: 2.0, 3: 2.5}
	fishNames          = [...]string{2: techXWing, 3: techSwordfish, 4: techJellyfish}
	fishScores         = [...]float64{2: 3.2, 3: 3.8, 4: 5.2}
	sizeWords          = [...]string{2: "two", 3: "three", 4: "four"}
)

func findNakedPair(b *board) (Step, bool)          { return findNaked(b, 2) }
func findNakedTriple(b *board) (Step, bool)        { return findNaked(b, 3) }
func findNakedQuad(b *board) (Step, bool)          { return findNaked(b, 4) }
func findHiddenPair(b *board) (Step, bool)         { return findHidden(b, 2, false) }
func findHiddenTriple(b *board) (Step, bool)       { return findHidden(b, 3, false) }
func findHiddenQuad(b *board) (Step, bool)         { return findHidden(b, 4, false) }
func findDirectHiddenPair(b *board) (Step, bool)   { return findHidden(b, 2, true) }
func findDirectHiddenTriple(b *board) (Step, bool) { return findHidden(b, 3, true) }
func findXWing(b *board) (Step, bool)              { return findFish(b, 2) }
func findSwordfish(b *board) (Step, bool)          { return findFish(b, 3) }
func findJellyfish(b *board) (Step, bool)          { return findFish(b, 4) }

// findNaked finds k cells of a unit whose candidates are k digits in all,
// with those digits elsewhere in the unit to remove.
func findNaked(b *board, k int) (Step, bool) {
	s := subsetSearch{b: b, kind: nakedSubset, k: k}
	for u := range b.g.units {
		if b.empties[u] <= k {
			continue
		}
		s.u, s.cnt = u, 0
		for _, c := range b.g.unitCells[u] {
			if pc := bits.OnesCount32(b.cand[c]); b.vals[c] == 0 && pc >= 2 && pc <= k {
				s.items[s.cnt], s.masks[s.cnt] = c, b.cand[c]
				s.cnt++
			}
		}
		if s.cnt >= k && s.rec(0, 0, 0) {
			return s.st, true
		}
	}
	return Step{}, false
}

func (s *subsetSearch) checkNaked(digits uint32) bool {
	b := s.b
	var in [4]int
	for i := 0; i < s.k; i++ {
		in[i] = s.items[s.sel[i]]
	}
	var elims []Candidate
	for _, c := range b.g.unitCells[s.u] {
		if b.vals[c] != 0 || b.cand[c]&digits == 0 || containsInt(in[:s.k], c) {
			continue
		}
		for m := b.cand[c] & digits; m != 0; m &= m - 1 {
			elims = append(elims, Candidate{c, bits.TrailingZeros32(m) + 1})
		}
	}
	if len(elims) == 0 {
		return false
	}
	unit := b.g.units[s.u]
	cells := append([]int(nil), in[:s.k]...)
	s.st = Step{
		Technique:    nakedNames[s.k],
		Score:        nakedScores[s.k],
		Eliminations: elims,
		Cells:        cells,
		Causes:       b.causes(cells, digits),
		Units:        []Unit{unit},
		Where:        unit.String(),
		Explanation: fmt.Sprintf("In %s, %s hold only %s between them, so those digits go in these %s cells and nowhere else in %s: remove %s.",
			unit, b.cellList(cells, "and"), b.symList(digits, "and"), sizeWords[s.k], unit, b.elimList(elims)),
	}
	return true
}

// findHidden finds k digits of a unit that fit in only k cells, which hold
// other candidates to remove. With direct set it wants a step that leaves
// a hidden single in the same unit. As Sudoku Explainer does, the plain
// search skips units with at most 2k empty cells, where the same removals
// are a naked subset of at most k cells.
func findHidden(b *board, k int, direct bool) (Step, bool) {
	n := b.n
	s := subsetSearch{b: b, kind: hiddenSubset, k: k, direct: direct}
	for u := range b.g.units {
		if b.empties[u] <= k || (!direct && b.empties[u] <= 2*k) {
			continue
		}
		s.u, s.cnt = u, 0
		for m := b.all &^ b.placed[u]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			if pc := bits.OnesCount32(b.pos[u*n+d]); pc >= 2 && pc <= k {
				s.items[s.cnt], s.masks[s.cnt] = d, b.pos[u*n+d]
				s.cnt++
			}
		}
		if s.cnt >= k && s.rec(0, 0, 0) {
			return s.st, true
		}
	}
	return Step{}, false
}

func (s *subsetSearch) checkHidden(places uint32) bool {
	b := s.b
	n := b.n
	var digits uint32
	for i := 0; i < s.k; i++ {
		digits |= 1 << s.items[s.sel[i]]
	}
	cells := b.cellsOf(s.u, places)
	var elims []Candidate
	for _, c := range cells {
		for m := b.cand[c] &^ digits; m != 0; m &= m - 1 {
			elims = append(elims, Candidate{c, bits.TrailingZeros32(m) + 1})
		}
	}
	if len(elims) == 0 {
		return false
	}
	single, singleV := -1, 0
	if s.direct {
		for m := b.all &^ b.placed[s.u] &^ digits; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			p := b.pos[s.u*n+d]
			if rest := p &^ places; rest != p && bits.OnesCount32(rest) == 1 {
				single, singleV = b.g.unitCells[s.u][bits.TrailingZeros32(rest)], d+1
				break
			}
		}
		if single < 0 {
			return false
		}
	}
	unit := b.g.units[s.u]
	s.st = Step{
		Technique:    hiddenNames[s.k],
		Score:        hiddenScores[s.k],
		Eliminations: elims,
		Cells:        cells,
		Causes:       b.causes(cells, digits),
		Units:        []Unit{unit},
		Where:        unit.String(),
		Explanation: fmt.Sprintf("In %s, %s fit only in %s, so those %s cells hold nothing else: remove %s.",
			unit, b.symList(digits, "and"), b.cellList(cells, "and"), sizeWords[s.k], b.elimList(elims)),
	}
	if s.direct {
		s.st.Technique, s.st.Score = directHiddenNames[s.k], directHiddenScores[s.k]
		s.st.Placements = []Candidate{{single, singleV}}
		s.st.Explanation = s.st.Explanation[:len(s.st.Explanation)-1] +
			fmt.Sprintf("; then %s fits only in %s, so %s = %s.", b.sym(singleV), b.name(single), b.name(single), b.sym(singleV))
	}
	return true
}

// findFish finds k rows (or columns) in which one digit's places lie in k
// columns (or rows) in all, with the digit elsewhere in those to remove:
// X-Wing, Swordfish, Jellyfish.
func findFish(b *board, k int) (Step, bool) {
	n := b.n
	s := subsetSearch{b: b, kind: fishSubset, k: k}
	for d := 0; d < n; d++ {
		for _, rows := range [2]bool{true, false} {
			s.d, s.rows, s.cnt = d, rows, 0
			first := n
			if rows {
				first = 0
			}
			for u := first; u < first+n; u++ {
				if b.placed[u]&(1<<d) != 0 {
					continue
				}
				if pc := bits.OnesCount32(b.pos[u*n+d]); pc >= 2 && pc <= k {
					s.items[s.cnt], s.masks[s.cnt] = u, b.pos[u*n+d]
					s.cnt++
				}
			}
			if s.cnt >= k && s.rec(0, 0, 0) {
				return s.st, true
			}
		}
	}
	return Step{}, false
}

func (s *subsetSearch) checkFish(covers uint32) bool {
	b := s.b
	n := b.n
	var baseMask uint32 // base lines by index along the other direction
	base := make([]Unit, 0, s.k)
	for i := 0; i < s.k; i++ {
		u := s.items[s.sel[i]]
		baseMask |= 1 << (u % n)
		base = append(base, b.g.units[u])
	}
	coverFirst := 0 // covers are columns when the base lines are rows
	if s.rows {
		coverFirst = n
	}
	var elims []Candidate
	var cover []Unit
	for m := covers; m != 0; m &= m - 1 {
		cu := coverFirst + bits.TrailingZeros32(m)
		cover = append(cover, b.g.units[cu])
		for e := b.pos[cu*n+s.d] &^ baseMask; e != 0; e &= e - 1 {
			elims = append(elims, Candidate{b.g.unitCells[cu][bits.TrailingZeros32(e)], s.d + 1})
		}
	}
	if len(elims) == 0 {
		return false
	}
	v := s.d + 1
	var causes []Candidate
	for i := 0; i < s.k; i++ {
		u := s.items[s.sel[i]]
		for _, c := range b.cellsOf(u, b.pos[u*n+s.d]) {
			causes = append(causes, Candidate{c, v})
		}
	}
	s.st = Step{
		Technique:    fishNames[s.k],
		Score:        fishScores[s.k],
		Eliminations: elims,
		Causes:       causes,
		Units:        append(base, cover...),
		Where:        fmt.Sprintf("%s in %s", b.sym(v), unitList(base)),
		Explanation: fmt.Sprintf("In %s, %s can only go in %s, so it can't go elsewhere in %s: remove %s.",
			unitList(base), b.sym(v), unitList(cover), unitList(cover), b.elimList(elims)),
	}
	return true
}

// causes lists the candidates among digits of cells.
func (b *board) causes(cells []int, digits uint32) []Candidate {
	var out []Candidate
	for _, c := range cells {
		for m := b.cand[c] & digits; m != 0; m &= m - 1 {
			out = append(out, Candidate{c, bits.TrailingZeros32(m) + 1})
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
