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

func (s *seCells) add(c int)               { s[c>>6] |= 1 << (c & 63) }
func (s seCells) has(c int) bool           { return s[c>>6]&(1<<(c&63)) != 0 }
func (s seCells) and(t seCells) seCells    { return seCells{s[0] & t[0], s[1] & t[1]} }
func (s seCells) or(t seCells) seCells     { return seCells{s[0] | t[0], s[1] | t[1]} }
func (s seCells) count() int               { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }
func (s seCells) andNot(t seCells) seCells { return seCells{s[0] &^ t[0], s[1] &^ t[1]} }
func (s seCells) empty() bool              { return s[0]|s[1] == 0 }

// each calls f on the cells of s in index order.
func (s seCells) each(f func(c int)) {
	for w := 0; w < 2; w++ {
		for m := s[w]; m != 0; m &= m - 1 {
			f(w*64 + bits.TrailingZeros64(m))
		}
	}
}

// alignedMemo remembers, for each degree, the candidates of the last
// position where the aligned exclusion of that degree found nothing: the
// rater asks again after every step, and most steps change a few cells.
type alignedMemo struct {
	cand [2][]uint32 // by k-2; empty when unknown
	// elig holds, by k-2, the cells that could take part then.
	elig [2]seCells
}

// changedSince returns the cells whose candidates differ from the memo's
// for degree k, and whether the memo holds a position at all.
func (m *alignedMemo) changedSince(b *board, k int) (seCells, bool) {
	var ch seCells
	old := m.cand[k-2]
	if len(old) != len(b.cand) {
		return ch, false
	}
	for c, v := range b.cand {
		if old[c] != v {
			ch.add(c)
		}
	}
	return ch, true
}

// findSEAligned finds SE's first aligned exclusion of degree k (2 or 3),
// in SE's search order, on a 9x9 board.
//
// A set of cells can exclude something only if one of its cells or of its
// common excluders changed since a search that found nothing, or one of
// its cells could not take part then (a peer was down to one candidate,
// or it had no excluder): otherwise the candidates are the same, an
// excluder that is new has changed (it lost candidates), and one that has
// gone only allows more. So when b remembers such a search (b.aligned),
// only the sets that touch a changed or newly eligible cell are tried; the
// others would find nothing, and the first set found is the same as in a
// full search (TestSEIncremental compares them).
func findSEAligned(b *board, k int) (Step, bool) {
	if len(b.cand) > 128 {
		return Step{}, false
	}
	if b.aligned == nil {
		b.aligned = &alignedMemo{}
	}
	changed, incremental := b.aligned.changedSince(b, k)
	if incremental && changed.count() == 0 {
		return Step{}, false
	}
	st, ok, elig := findSEAlignedIn(b, k, changed, b.aligned.elig[k-2], incremental)
	if ok {
		b.aligned.cand[k-2] = b.aligned.cand[k-2][:0]
	} else {
		b.aligned.cand[k-2] = append(b.aligned.cand[k-2][:0], b.cand...)
		b.aligned.elig[k-2] = elig
	}
	return st, ok
}

// findSEAlignedIn is findSEAligned's search; when incremental, it tries
// only the sets of cells that touch a cell of changed (a cell of the set
// or a common excluder) or a cell outside wasElig. It also returns the
// cells that could take part.
func findSEAlignedIn(b *board, k int, changed, wasElig seCells, incremental bool) (Step, bool, seCells) {
	var cands []int
	var isCand seCells
	excl := make([]seCells, len(b.cand))
	var idx [128]int // a cell's place in cands
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
			idx[c] = len(cands)
			cands = append(cands, c)
			isCand.add(c)
			excl[c] = ex
		}
	}
	if len(cands) < k {
		return Step{}, false, isCand
	}
	changed = changed.or(isCand.andNot(wasElig))
	var twin []int
	for _, pr := range sePairs(len(cands)) {
		c0, c1 := cands[pr[0]], cands[pr[1]]
		common := excl[c0].and(excl[c1])
		// fresh: the pair or its common excluders changed, so every set
		// from it is tried; else only those whose third cell changed.
		fresh := !incremental || changed.has(c0) || changed.has(c1) || !common.and(changed).empty()
		if k == 2 {
			if fresh && common.count() >= 2 {
				if st, ok := b.alignedTry([]int{c0, c1}, common); ok {
					return st, true, isCand
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
		if !fresh && changed.and(isCand).and(excl[c0].or(excl[c1])).empty() {
			continue // no third cell changed
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
			if !fresh && !changed.has(t) {
				continue
			}
			if !firstMeeting(idx[c0], idx[c1], idx[t], c0, c1, t, excl) {
				continue
			}
			if c3 := common.and(excl[t]); c3.count() >= 2 {
				if st, ok := b.alignedTry([]int{c0, c1, t}, c3); ok {
					return st, true, isCand
				}
			}
		}
	}
	return Step{}, false, isCand
}

// firstMeeting reports whether SE meets the three cells c0, c1 (a pair,
// c0 first in cands) and t (from the pair's twin area) here for the first
// time: i0 < i1 and it are their places in cands. SE takes the pairs by
// their later cell, then the earlier; the cells of a set at places
// p < q < r come from pair (p, q) when r is an excluder of p or q, else
// from (p, r) when q is one of p or r, else from (q, r). The set and its
// common excluders are the same each time, and so is the outcome.
func firstMeeting(i0, i1, it, c0, c1, t int, excl []seCells) bool {
	switch {
	case it > i1: // (p, q) + r
		return true
	case it > i0: // (p, r) + q: not met from (p, q)
		return !excl[c0].has(c1) && !excl[t].has(c1)
	}
	// (q, r) + p: met neither from (p, q) nor from (p, r)
	return !excl[t].has(c1) && !excl[c0].has(c1) && !excl[t].has(c0) && !excl[c1].has(c0)
}

// alignedTry tests one set of cells with their common excluders.
//
// An excluder rules out the combinations that hold all its candidates, so
// one with a candidate none of the cells has rules out nothing: only the
// others are tried. With none left, only the cells' seeing each other
// rules combinations out, and that removes a value only when two of them
// are the same two-candidate pair seeing each other and the third sees
// both (then it loses the pair's values): aligned pairs never, aligned
// triples rarely; the enumeration is skipped otherwise.
func (b *board) alignedTry(cells []int, commonSet seCells) (Step, bool) {
	k := len(cells)
	var union uint32
	for _, c := range cells {
		union |= b.cand[c]
	}
	var rel [32]int // common excluders: peers of every cell
	nrel := 0
	for w := 0; w < 2; w++ {
		for m := commonSet[w]; m != 0; m &= m - 1 {
			x := w*64 + bits.TrailingZeros64(m)
			if b.cand[x]&^union == 0 {
				rel[nrel] = x
				nrel++
			}
		}
	}
	if nrel == 0 && (k == 2 || !b.alignedPairInside(cells)) {
		return Step{}, false
	}
	relevant := rel[:nrel]
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
			for _, x := range relevant {
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
	none := true
	for i, c := range cells {
		if b.cand[c]&^allowed[i] != 0 {
			none = false
		}
	}
	if none {
		return Step{}, false
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
	var common []int
	commonSet.each(func(x int) { common = append(common, x) })
	st.Cells = append(append([]int(nil), cells...), common...)
	st.Explanation = st.Technique + ": no way to fill " + b.cellList(cells, "and") +
		" leaves each of " + b.cellList(common, "and") + " a candidate and takes " + b.elimList(st.Eliminations) + "."
	return st, true
}

// alignedPairInside reports whether two of three cells hold the same two
// candidates and see each other, and the third sees both and holds one
// of them.
func (b *board) alignedPairInside(cells []int) bool {
	for i := 0; i < 3; i++ {
		x, y, z := cells[i], cells[(i+1)%3], cells[(i+2)%3]
		if b.cand[x] == b.cand[y] && bits.OnesCount32(b.cand[x]) == 2 && b.g.sees(x, y) &&
			b.g.sees(z, x) && b.g.sees(z, y) && b.cand[z]&b.cand[x] != 0 {
			return true
		}
	}
	return false
}
