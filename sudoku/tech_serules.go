package sudoku

import (
	"math/bits"
	"sync"
)

// The simple techniques Sudoku Explainer runs inside chainings of level 1
// and up (locked candidates, hidden and naked pairs, X-Wing), each with the
// OFF potentials its conclusion rests on, in SE's order of search and of
// removals.
//
// A conclusion that rests on no OFF potential of the chaining is of no use
// to it (advanced leaves it out), and the OFF potentials a pattern rests on
// are candidates the chaining removed from the pattern's cells or units:
// so each rule skips, before any other work, the units and cells that
// still hold what the position held.

// seRuleHint is a simple technique's conclusion inside a chaining (level
// 1 and up): the candidates it removes, in the order SE lists them, and
// the OFF potentials it rests on.
type seRuleHint struct {
	parents []int // potential keys
	elims   []Candidate
}

// javaMapOrder orders removals (cells given in insertion order) as a Java
// HashMap keyed by cell index iterates them: by index modulo the table
// size, ties in insertion order.
func javaMapOrder(cells []int) {
	capa := 16
	for len(cells) > capa*3/4 {
		capa *= 2
	}
	for i := 1; i < len(cells); i++ { // insertion sort: stable, short lists
		for j := i; j > 0 && cells[j]&(capa-1) < cells[j-1]&(capa-1); j-- {
			cells[j], cells[j-1] = cells[j-1], cells[j]
		}
	}
}

// elimsFrom lists removals per cell (cells in insertion order, values
// ascending) in HashMap order.
func elimsFrom(cells []int, vals map[int]uint32) []Candidate {
	javaMapOrder(cells)
	var out []Candidate
	for _, c := range cells {
		for m := vals[c]; m != 0; m &= m - 1 {
			out = append(out, Candidate{Cell: c, Value: bits.TrailingZeros32(m) + 1})
		}
	}
	return out
}

// sePairs lists the 2-subsets of 0..n-1 in SE's Permutations order (by
// the higher element, then the lower).
func sePairs(n int) [][2]int {
	if p, ok := sePairCache.Load(n); ok {
		return p.([][2]int)
	}
	var out [][2]int
	for j := 1; j < n; j++ {
		for i := 0; i < j; i++ {
			out = append(out, [2]int{i, j})
		}
	}
	sePairCache.Store(n, out)
	return out
}

var sePairCache sync.Map // n -> [][2]int

// upos of unit u, digit d (1-based), working grid.
func (e *seEngine) posOf(u, d int) uint32 { return e.upos[u*e.n+d-1] }

// unitOf returns the unit of kind k (0 box, 1 row, 2 column: SE's region
// types) and number i.
func (e *seEngine) unitOf(k, i int) int {
	switch k {
	case 0:
		return 2*e.n + i
	case 1:
		return i
	}
	return e.n + i
}

// inter returns the positions (in unit u) of the cells u shares with
// unit v.
func (e *seEngine) inter(u, v int) uint32 {
	if e.inters == nil {
		nu := len(e.b.g.unitCells)
		e.inters = make([]uint32, nu*nu)
		for a := 0; a < nu; a++ {
			for i, c := range e.b.g.unitCells[a] {
				for _, x := range e.b.g.cellUnits[c] {
					e.inters[a*nu+x] |= 1 << i
				}
			}
		}
	}
	return e.inters[u*len(e.b.g.unitCells)+v]
}

// crossing lists, in order, the units of kind k that share two cells or
// more with unit u (a box and the lines through it).
func (e *seEngine) crossing(u, k int) []int {
	nu := len(e.b.g.unitCells)
	if e.crosses == nil {
		e.crosses = make([][]int, nu*3)
		for a := 0; a < nu; a++ {
			for kk := 0; kk < 3; kk++ {
				for i := 0; i < e.n; i++ {
					if b := e.unitOf(kk, i); bits.OnesCount32(e.inter(a, b)) >= 2 && a != b {
						e.crosses[a*3+kk] = append(e.crosses[a*3+kk], b)
					}
				}
			}
		}
	}
	return e.crosses[u*3+k]
}

// unitChanged reports whether the chaining removed a candidate from a
// cell of unit u.
func (e *seEngine) unitChanged(u int) bool {
	n := e.n
	for d := 0; d < n; d++ {
		if e.upos[u*n+d] != e.spos[u*n+d] {
			return true
		}
	}
	return false
}

func (e *seEngine) inUnit(c, u int) bool {
	cu := e.b.g.cellUnits[c]
	return cu[0] == u || cu[1] == u || cu[2] == u
}

// ruleLocking is SE's Locking(false) with its getRuleParents.
func (e *seEngine) ruleLocking(out []seRuleHint) []seRuleHint {
	n := e.n
	for _, kinds := range [4][2]int{{0, 2}, {0, 1}, {2, 0}, {1, 0}} {
		for d := 1; d <= n; d++ {
			bit := uint32(1) << (d - 1)
			for i1 := 0; i1 < n; i1++ {
				u1 := e.unitOf(kinds[0], i1)
				pos := e.posOf(u1, d)
				if bits.OnesCount32(pos) < 2 || pos == e.spos[u1*n+d-1] {
					continue // no parent: d lost no place in u1
				}
				for _, u2 := range e.crossing(u1, kinds[1]) {
					if pos&^e.inter(u1, u2) != 0 {
						continue
					}
					var cells []int
					vals := map[int]uint32{}
					for _, c := range e.b.g.unitCells[u2] {
						if !e.inUnit(c, u1) && e.grid[c]&bit != 0 {
							cells = append(cells, c)
							vals[c] = bit
						}
					}
					if len(cells) == 0 {
						continue
					}
					var h seRuleHint
					for _, c := range e.b.g.unitCells[u1] {
						if e.src[c]&bit != 0 && e.grid[c]&bit == 0 && !e.inUnit(c, u2) {
							h.parents = append(h.parents, sePotKey(n, c, d, false))
						}
					}
					h.elims = elimsFrom(cells, vals)
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// ruleHiddenPair is SE's HiddenSet(2, false).
func (e *seEngine) ruleHiddenPair(out []seRuleHint) []seRuleHint {
	n := e.n
	for _, k := range [3]int{0, 2, 1} {
		for i := 0; i < n; i++ {
			u := e.unitOf(k, i)
			if e.b.empties[u] <= 4 || !e.unitChanged(u) {
				continue
			}
			cells := e.b.g.unitCells[u]
			for _, pr := range sePairs(n) {
				d1, d2 := pr[0]+1, pr[1]+1
				p1, p2 := e.posOf(u, d1), e.posOf(u, d2)
				if bits.OnesCount32(p1) < 2 || bits.OnesCount32(p2) < 2 || bits.OnesCount32(p1|p2) != 2 {
					continue
				}
				if p1 == e.spos[u*n+d1-1] && p2 == e.spos[u*n+d2-1] {
					continue // no parent: neither digit lost a place in u
				}
				keep := uint32(1)<<(d1-1) | uint32(1)<<(d2-1)
				var rc []int
				vals := map[int]uint32{}
				for m := p1 | p2; m != 0; m &= m - 1 {
					c := cells[bits.TrailingZeros32(m)]
					if r := e.grid[c] &^ keep; r != 0 {
						rc = append(rc, c)
						vals[c] = r
					}
				}
				if len(rc) == 0 {
					continue
				}
				var h seRuleHint
				for idx, c := range cells {
					if (p1|p2)&(1<<idx) != 0 {
						continue
					}
					for _, d := range [2]int{d1, d2} {
						if e.src[c]&(1<<(d-1)) != 0 {
							h.parents = append(h.parents, sePotKey(n, c, d, false))
						}
					}
				}
				h.elims = elimsFrom(rc, vals)
				out = append(out, h)
			}
		}
	}
	return out
}

// ruleNakedPair is SE's NakedSet(2).
func (e *seEngine) ruleNakedPair(out []seRuleHint) []seRuleHint {
	n := e.n
	for _, k := range [3]int{0, 2, 1} {
		for i := 0; i < n; i++ {
			u := e.unitOf(k, i)
			if e.b.empties[u] < 4 || !e.unitChanged(u) {
				continue
			}
			cells := e.b.g.unitCells[u]
			for _, pr := range sePairs(n) {
				a, b := cells[pr[0]], cells[pr[1]]
				ca, cb := e.grid[a], e.grid[b]
				if bits.OnesCount32(ca) < 2 || bits.OnesCount32(cb) < 2 || bits.OnesCount32(ca|cb) != 2 {
					continue
				}
				if ca == e.src[a] && cb == e.src[b] {
					continue // no parent: the pair's cells lost nothing
				}
				common := ca | cb
				var rc []int
				vals := map[int]uint32{}
				for _, c := range cells {
					if c == a || c == b {
						continue
					}
					if r := e.grid[c] & common; r != 0 {
						rc = append(rc, c)
						vals[c] = r
					}
				}
				if len(rc) == 0 {
					continue
				}
				var h seRuleHint
				for _, c := range [2]int{a, b} {
					for m := e.src[c] &^ common; m != 0; m &= m - 1 {
						h.parents = append(h.parents, sePotKey(n, c, bits.TrailingZeros32(m)+1, false))
					}
				}
				h.elims = elimsFrom(rc, vals)
				out = append(out, h)
			}
		}
	}
	return out
}

// ruleXWing is SE's Fisherman(2).
func (e *seEngine) ruleXWing(out []seRuleHint) []seRuleHint {
	n := e.n
	var occ [33]int
	for _, v := range e.b.vals {
		occ[v]++
	}
	for _, kinds := range [2][2]int{{2, 1}, {1, 2}} {
		for _, pr := range sePairs(n) {
			b1, b2 := e.unitOf(kinds[0], pr[0]), e.unitOf(kinds[0], pr[1])
			for d := 1; d <= n; d++ {
				if occ[d]+4 > n {
					continue
				}
				bit := uint32(1) << (d - 1)
				p1, p2 := e.posOf(b1, d), e.posOf(b2, d)
				if bits.OnesCount32(p1) < 2 || bits.OnesCount32(p2) < 2 || bits.OnesCount32(p1|p2) != 2 {
					continue
				}
				if p1 == e.spos[b1*n+d-1] && p2 == e.spos[b2*n+d-1] {
					continue // no parent: d lost no place in the base lines
				}
				baseIdx := uint32(1)<<pr[0] | uint32(1)<<pr[1]
				var covers []int
				var rc []int
				vals := map[int]uint32{}
				for m := p1 | p2; m != 0; m &= m - 1 {
					cu := e.unitOf(kinds[1], bits.TrailingZeros32(m))
					covers = append(covers, cu)
					for r := e.posOf(cu, d) &^ baseIdx; r != 0; r &= r - 1 {
						c := e.b.g.unitCells[cu][bits.TrailingZeros32(r)]
						rc = append(rc, c)
						vals[c] = bit
					}
				}
				if len(rc) == 0 {
					continue
				}
				var h seRuleHint
				for _, bu := range [2]int{b1, b2} {
					for _, c := range e.b.g.unitCells[bu] {
						if e.src[c]&bit != 0 && e.grid[c]&bit == 0 && !e.inUnit(c, covers[0]) && !e.inUnit(c, covers[1]) {
							h.parents = append(h.parents, sePotKey(n, c, d, false))
						}
					}
				}
				h.elims = elimsFrom(rc, vals)
				out = append(out, h)
			}
		}
	}
	return out
}
