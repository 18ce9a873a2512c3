package sudoku

import (
	"math/bits"
	"slices"
)

// Sudoku Explainer's static chains: bidirectional cycles and forcing
// chains (6.5-7.0), SE's first chaining rung. The potentials, the ladder
// of producers and the scoring are in tech_sechain.go.

// staticChains is SE's Chaining(false, false, false): cycles and forcing
// chains over X links, then Y links (cycles only), then both. The links
// don't change during the search, so they are listed once per pass and
// the searches run on candidate numbers (cell*n + digit-1); nodes are made
// only for the chains found.
//
// A search that keeps only the easiest hint (best.all nil) remembers, when
// it finds none, the position it searched: the rater asks again after
// every step, and a search from a potential whose reachable links are all
// as they were follows the same links and again finds nothing (see
// dirty).
func (e *seEngine) staticChains(best *seBest) {
	e.flat = false // its hints are made of nodes
	copy(e.grid, e.src)
	if e.static == nil {
		e.static = e.newStatic()
	}
	st := e.static
	st.links(e)
	// base holds the links of a search that found nothing on a grid
	// holding this one: this engine's last search, or, for a search nested
	// in a chaining, the step's own static search (the rater tries it
	// first; the chainings only remove candidates).
	base := e.staticBase
	if base == nil && best.all == nil {
		base = st
	}
	memo := seStaticMemo && base != nil && base.prevOK
	if memo {
		st.changedSince(e, base)
	}
	// One closure, over the links of all kinds, serves the three passes:
	// what a pass's links reach, all links reach too, so it lets through
	// every start that can find something.
	st.pass(e, true, true)
	st.closure()
	if memo {
		st.dirty()
	}
	for pass := 0; pass < 3; pass++ {
		y, x := pass >= 1, pass != 1
		if best.done || pass == 2 && best.ok && best.all == nil && best.h.score < 7.0 {
			break // chains of both kinds score 7.0 and up: none can be easier
		}
		st.pass(e, y, x)
		for cell := 0; cell < e.size; cell++ {
			if e.ctx != nil && e.ctx.Err() != nil {
				return
			}
			cnt := bits.OnesCount32(e.grid[cell])
			if e.b.vals[cell] != 0 || cnt < 2 {
				continue
			}
			if !x && cnt > 2 {
				continue
			}
			for m := e.grid[cell]; m != 0; m &= m - 1 {
				ci := cell*e.n + bits.TrailingZeros32(m)
				fromOn, fromOff := true, true
				if memo {
					fromOn, fromOff = st.changedFrom(2*ci+1), st.changedFrom(2*ci)
				}
				e.unary(st, ci, y, x, fromOn, fromOff, best)
				if best.done {
					break
				}
			}
			if best.done {
				break
			}
		}
	}
	if best.all == nil {
		st.remember(e, !best.ok)
	}
}

// seStaticMemo lets static chain searches skip the starts whose reachable
// links are those of a search that found nothing (tests turn it off to
// compare).
var seStaticMemo = true

// seStatic holds the static links of one pass and the searches' scratch.
type seStatic struct {
	// onOff[onStart[c]:onStart[c+1]] are the candidates candidate c being
	// ON makes OFF, in SE's order: first those of its cell (Y links), from
	// onUnit[c] on those of its units (X links); offOn likewise, the other
	// candidate of a two-candidate cell first, from offUnit[c] on the
	// other place of a unit.
	onOff, offOn      []int32
	onCause, offCause []int8 // the cause of the potential each link makes
	onStart, offStart []int32
	onUnit, offUnit   []int32
	// A pass's links: onOff[onLo[c]:onHi[c]], offOn[offLo[c]:offHi[c]].
	onLo, onHi, offLo, offHi []int32
	gen                      uint32
	onSeen, offSeen          []uint32
	onPar, offPar            []int32 // forcing chains: the parent of each potential
	onParOff                 []int32 // cycles: the OFF that made each ON
	onParOn                  []int32 // cycles: the ON that made that OFF
	onCs, offCs              []int8  // the cause of each potential made
	curOn                    []int32
	// closure's state: Tarjan's numbering and each component's set.
	index, low, comp []int32
	onStack          []bool
	stack            []int32
	counter          int32
	reach            []uint64
	words            int        // reach words per component
	compSeen         []int32    // 1 + the component that last took a component's set
	cidx             []int32    // key -> compact number (candidates of the grid)
	nact             int32      // how many compact numbers
	curOff           [][3]int32 // cycles: OFF, the ON that made it, its cause
	fOff             []int32

	// The position of the last search that found nothing (prevOK): its
	// candidates and places (as seEngine.grid and upos); and what changed
	// since: changed has bit cidx[v] set when potential v's links may
	// differ, compChanged[c] when component c's reach holds such a
	// potential.
	prevOK             bool
	prevGrid, prevUpos []uint32
	changed            []uint64
	compChanged        []bool
}

func (e *seEngine) newStatic() *seStatic {
	m := e.size * e.n
	return &seStatic{
		onStart: make([]int32, m+1), offStart: make([]int32, m+1),
		onUnit: make([]int32, m), offUnit: make([]int32, m),
		onLo: make([]int32, m), onHi: make([]int32, m),
		offLo: make([]int32, m), offHi: make([]int32, m),
		onSeen: make([]uint32, m), offSeen: make([]uint32, m),
		onPar: make([]int32, m), offPar: make([]int32, m),
		onParOff: make([]int32, m), onParOn: make([]int32, m),
		onCs: make([]int8, m), offCs: make([]int8, m),
	}
}

// links lists every link, as SE's getOnToOff and getOffToOn make them
// with both kinds of links; a pass takes those of its kinds (pass).
func (st *seStatic) links(e *seEngine) {
	n := e.n
	st.onOff, st.offOn = st.onOff[:0], st.offOn[:0]
	st.onCause, st.offCause = st.onCause[:0], st.offCause[:0]
	// Potentials get compact numbers for the reach sets: only the
	// candidates of the grid count.
	if len(st.cidx) != 2*e.size*n {
		st.cidx = make([]int32, 2*e.size*n)
	}
	st.nact = 0
	g := e.b.g
	for ci := 0; ci < e.size*n; ci++ {
		cell, d := ci/n, ci%n+1
		bit := uint32(1) << (d - 1)
		st.onStart[ci] = int32(len(st.onOff))
		st.offStart[ci] = int32(len(st.offOn))
		if e.grid[cell]&bit == 0 {
			st.onUnit[ci], st.offUnit[ci] = st.onStart[ci], st.offStart[ci]
			continue
		}
		st.cidx[2*ci], st.cidx[2*ci+1] = st.nact, st.nact+1
		st.nact += 2
		for m := e.grid[cell] &^ bit; m != 0; m &= m - 1 {
			st.onOff = append(st.onOff, int32(cell*n+bits.TrailingZeros32(m)))
			st.onCause = append(st.onCause, seCauseCell)
		}
		st.onUnit[ci] = int32(len(st.onOff))
		units := e.seUnits(cell)
		for i, u := range units {
			for m := e.upos[u*n+d-1] &^ g.seExcl[cell][i]; m != 0; m &= m - 1 {
				c := g.unitCells[u][bits.TrailingZeros32(m)]
				st.onOff = append(st.onOff, int32(c*n+d-1))
				st.onCause = append(st.onCause, int8(seCauseBox+i))
			}
		}
		if bits.OnesCount32(e.grid[cell]) == 2 {
			st.offOn = append(st.offOn, int32(cell*n+bits.TrailingZeros32(e.grid[cell]&^bit)))
			st.offCause = append(st.offCause, seCauseCell)
		}
		st.offUnit[ci] = int32(len(st.offOn))
		for i, u := range units {
			m := e.upos[u*n+d-1] &^ (1 << g.cellIdx[cell][seKind[i]])
			if m != 0 && m&(m-1) == 0 {
				st.offOn = append(st.offOn, int32(g.unitCells[u][bits.TrailingZeros32(m)]*n+d-1))
				st.offCause = append(st.offCause, int8(seCauseBox+i))
			}
		}
	}
	st.onStart[e.size*n] = int32(len(st.onOff))
	st.offStart[e.size*n] = int32(len(st.offOn))
}

// remember keeps the position just searched when the search found
// nothing (ok), else forgets the last one.
func (st *seStatic) remember(e *seEngine, ok bool) {
	st.prevOK = ok
	if ok {
		st.prevGrid = append(st.prevGrid[:0], e.grid...)
		st.prevUpos = append(st.prevUpos[:0], e.upos...)
	}
}

// changedSince marks the potentials whose links may differ from those of
// base's remembered search: a potential's links read only its cell's
// candidates and its digit's places in the cell's units.
func (st *seStatic) changedSince(e *seEngine, base *seStatic) {
	words := (int(st.nact) + 63) / 64
	st.changed = slices.Grow(st.changed[:0], words)[:words]
	clear(st.changed)
	g, n := e.b.g, e.n
	for cell, m := range e.grid {
		same := m == base.prevGrid[cell]
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			if same {
				cu := g.cellUnits[cell]
				if e.upos[cu[0]*n+d] == base.prevUpos[cu[0]*n+d] &&
					e.upos[cu[1]*n+d] == base.prevUpos[cu[1]*n+d] &&
					e.upos[cu[2]*n+d] == base.prevUpos[cu[2]*n+d] {
					continue
				}
			}
			ci := cell*n + d
			for _, k := range [2]int32{st.cidx[2*ci], st.cidx[2*ci+1]} {
				st.changed[k>>6] |= 1 << (k & 63)
			}
		}
	}
}

// dirty marks, for the pass whose closure was just computed, the
// components that reach a changed potential. A search from a potential
// that is not changed and reaches none follows the same links as the
// remembered search did, and so finds nothing again: candidates are only
// ever removed, so a potential reached then but gone now was reached
// through one whose links changed.
func (st *seStatic) dirty() {
	words := st.words
	ncomp := len(st.reach) / max(words, 1)
	st.compChanged = slices.Grow(st.compChanged[:0], ncomp)[:ncomp]
	clear(st.compChanged)
	for c := range ncomp {
		for i, w := range st.reach[c*words : (c+1)*words] {
			if w&st.changed[i] != 0 {
				st.compChanged[c] = true
				break
			}
		}
	}
}

// changedFrom reports whether a search from potential key v may find
// something the remembered one did not: v's links, or those of a
// potential it reaches, changed.
func (st *seStatic) changedFrom(v int) bool {
	k := st.cidx[v]
	if st.changed[k>>6]&(1<<(k&63)) != 0 {
		return true
	}
	return st.index[v] >= 0 && st.compChanged[st.comp[v]]
}

// pass picks the links of a pass: Y links (inside a cell) when y, X links
// (inside a unit) when x; an ON potential's X links are always there.
func (st *seStatic) pass(e *seEngine, y, x bool) {
	for ci := range st.onLo {
		st.onLo[ci], st.onHi[ci] = st.onStart[ci], st.onStart[ci+1]
		st.offLo[ci], st.offHi[ci] = st.offStart[ci], st.offStart[ci+1]
		if !y {
			st.onLo[ci] = st.onUnit[ci]
			st.offLo[ci] = st.offUnit[ci]
		}
		if !x {
			st.offHi[ci] = st.offUnit[ci]
		}
	}
}

// closure computes, for every potential (key 2*candidate, +1 when ON),
// the set of potentials its links lead to, one step or more: Tarjan's
// strongly connected components, each component's set the union of its
// successors' (the components come out successors first). A search from
// a potential can find only what its set holds, so the searches run only
// for starts that lead back to themselves or to their own denial.
//
// Most OFF potentials make nothing (no strong link): they get no
// component, and a set that holds one needs only its bit.
func (st *seStatic) closure() {
	nk := 2 * (len(st.onStart) - 1)
	st.words = (int(st.nact) + 63) / 64
	if len(st.index) != nk {
		st.index = make([]int32, nk)
		st.low = make([]int32, nk)
		st.comp = make([]int32, nk)
		st.onStack = make([]bool, nk)
	}
	for i := range st.index {
		st.index[i] = -1
	}
	st.reach = st.reach[:0]
	st.stack = st.stack[:0]
	st.compSeen = st.compSeen[:0]
	st.counter = 0
	for ci := 0; ci < nk/2; ci++ {
		for v := 2 * ci; v <= 2*ci+1; v++ {
			if st.index[v] < 0 && len(st.succ(v)) > 0 {
				st.strong(int32(v))
			}
		}
	}
}

// succ lists the potentials key v's links make.
func (st *seStatic) succ(v int) []int32 {
	ci := v >> 1
	if v&1 == 1 {
		return st.onOff[st.onLo[ci]:st.onHi[ci]]
	}
	return st.offOn[st.offLo[ci]:st.offHi[ci]]
}

// succKey turns the i-th successor of v into a key (ON makes OFF, OFF
// makes ON).
func succKey(v int, q int32) int32 {
	if v&1 == 1 {
		return 2 * q
	}
	return 2*q + 1
}

func (st *seStatic) strong(v int32) {
	st.index[v], st.low[v] = st.counter, st.counter
	st.counter++
	st.stack = append(st.stack, v)
	st.onStack[v] = true
	for _, q := range st.succ(int(v)) {
		w := succKey(int(v), q)
		if st.index[w] < 0 {
			if len(st.succ(int(w))) == 0 {
				continue // a dead end: no component
			}
			st.strong(w)
			st.low[v] = min(st.low[v], st.low[w])
		} else if st.onStack[w] {
			st.low[v] = min(st.low[v], st.index[w])
		}
	}
	if st.low[v] != st.index[v] {
		return
	}
	// v roots a component: pop it, then give it the union of its
	// members' successors and their sets, each successor component's once.
	words := st.words
	c := int32(len(st.reach) / words)
	for range words {
		st.reach = append(st.reach, 0)
	}
	st.compSeen = append(st.compSeen, 0)
	top := len(st.stack)
	for {
		top--
		w := st.stack[top]
		st.onStack[w] = false
		st.comp[w] = c
		if w == v {
			break
		}
	}
	members := st.stack[top:]
	st.stack = st.stack[:top]
	r := st.reach[int(c)*words : int(c+1)*words]
	for _, m := range members {
		for _, q := range st.succ(int(m)) {
			w := succKey(int(m), q)
			cw := st.cidx[w]
			r[cw>>6] |= 1 << (cw & 63)
			if st.index[w] < 0 {
				continue // a dead end
			}
			if wc := st.comp[w]; wc != c && st.compSeen[wc] != c+1 {
				st.compSeen[wc] = c + 1
				for i, x := range st.reach[int(wc)*words : int(wc+1)*words] {
					r[i] |= x
				}
			}
		}
	}
}

// reaches reports whether potential key from leads, one link or more, to
// potential key to.
func (st *seStatic) reaches(from, to int) bool {
	if st.index[from] < 0 {
		return false // no links
	}
	words := st.words
	c, ct := int(st.comp[from]), st.cidx[to]
	return st.reach[c*words+int(ct>>6)]&(1<<(ct&63)) != 0
}

func (st *seStatic) next() {
	st.gen++
	if st.gen == 0 {
		clear(st.onSeen)
		clear(st.offSeen)
		st.gen = 1
	}
}

// path makes nodes for the potentials from the start to the end, given
// from the end back (candidate, ON), and returns the end's node.
func (e *seEngine) path(back [][3]int32) int32 {
	id := int32(-1)
	for i := len(back) - 1; i >= 0; i-- {
		ci := int(back[i][0])
		id = e.causedNode(ci/e.n, ci%e.n+1, back[i][1] == 1, id, int8(back[i][2]))
	}
	return id
}

// unary is SE's doUnaryChaining from candidate ci ON (and OFF); the
// searches from ON are left out unless fromOn, from OFF unless fromOff.
func (e *seEngine) unary(st *seStatic, ci int, y, x, fromOn, fromOff bool, best *seBest) {
	if best.all == nil { // a kept hint needs no nodes: it has its numbers
		e.nodes, e.pars = e.nodes[:0], e.pars[:0]
	}
	sortKey, mixed := 2, x && y
	if mixed {
		sortKey = 4
	} else if y {
		sortKey = 3
	}
	cycleBase, chainBase := 6.5, 6.6
	if mixed {
		cycleBase, chainBase = 7.0, 7.0
	}
	// hopeless reports whether a hint of complexity c or more can no
	// longer beat the best: it would score more, or tie and lose (it comes
	// later, with a sort key no lower).
	hopeless := func(base float64, c int) bool {
		if !best.ok || best.all != nil {
			return false
		}
		sc := base + seLengthBonus(c)
		return sc > best.h.score || (sc == best.h.score && c >= best.h.complexity)
	}
	var back [][3]int32
	// Cycles (SE's doCycles): none unless some link leads back to the
	// start at all (a cheap search with every potential kept once).
	// ONs are kept once; an OFF is kept unless it
	// is on its ON's line of first parents, so OFFs may repeat. A cycle
	// closed from an OFF at depth D rests on D+1 potentials (the start
	// counts once); the first worth one found beats every later one.
	if fromOn && st.reaches(2*ci+1, 2*ci+1) {
		st.next()
		st.onSeen[ci] = st.gen
		st.onParOn[ci], st.onCs[ci] = -1, 0
		cur := append(st.curOn[:0], int32(ci))
		offs := st.curOff[:0]
		length, depth := 0, 0
	cycles:
		for len(cur) > 0 || len(offs) > 0 {
			if hopeless(cycleBase, depth+1) {
				break
			}
			length++
			for _, p := range cur {
				for li, q := range st.onOff[st.onLo[p]:st.onHi[p]] {
					if st.offLo[q] == st.offHi[q] {
						continue // an OFF that makes nothing can't close a cycle
					}
					// SE's isParent: is q on p's line of first parents?
					onLine := false
					for a := p; st.onParOn[a] >= 0; a = st.onParOn[a] {
						if st.onParOff[a] == q {
							onLine = true
							break
						}
					}
					if !onLine {
						offs = append(offs, [3]int32{q, p, int32(st.onCause[int(st.onLo[p])+li])})
					}
				}
			}
			cur = cur[:0]
			depth++
			if hopeless(cycleBase, depth+1) {
				break
			}
			length++
			for _, o := range offs {
				for li, q := range st.offOn[st.offLo[o[0]]:st.offHi[o[0]]] {
					qc := int32(st.offCause[int(st.offLo[o[0]])+li])
					if length >= 4 && int(q) == ci {
						back = append(back[:0], [3]int32{q, 1, qc}, [3]int32{o[0], 0, o[2]})
						for a := o[1]; ; a = st.onParOn[a] {
							back = append(back, [3]int32{a, 1, int32(st.onCs[a])})
							if st.onParOn[a] < 0 {
								break
							}
							back = append(back, [3]int32{st.onParOff[a], 0, int32(st.offCs[a])})
						}
						dst := e.path(back)
						h := &seHint{kind: seCycle, sortKey: sortKey, unit: -1, targets: []int32{dst}}
						h.elims = e.cycleElims(dst)
						if len(h.elims) > 0 {
							h.complexity = e.ancestors(dst)
							h.score = cycleBase + seLengthBonus(h.complexity)
							best.offer(h)
							if best.all == nil {
								break cycles
							}
						}
					}
					if st.onSeen[q] != st.gen {
						st.onSeen[q] = st.gen
						st.onParOff[q], st.onParOn[q] = o[0], o[1]
						// onCs[q]: q's cause; offCs[q]: that of the OFF that made q.
						st.onCs[q], st.offCs[q] = int8(qc), int8(o[2])
						cur = append(cur, q)
					}
				}
			}
			offs = offs[:0]
			depth++
		}
		st.curOn, st.curOff = cur[:0], offs[:0]
	}
	if !x {
		return
	}
	// Forcing chains (SE's doForcingChains): each potential kept once; the
	// first potential found that denies the start is the only one SE
	// keeps. Found from depth D, it rests on D+2 potentials.
	for _, startOn := range []bool{true, false} {
		if startOn && (!fromOn || !st.reaches(2*ci+1, 2*ci)) || !startOn && (!fromOff || !st.reaches(2*ci, 2*ci+1)) {
			continue // the start never leads to its own denial
		}
		st.next()
		cur, offs := st.curOn[:0], st.fOff[:0]
		if startOn {
			st.onSeen[ci], st.onPar[ci] = st.gen, -1
			cur = append(cur, int32(ci))
		} else {
			st.offSeen[ci], st.offPar[ci] = st.gen, -1
			offs = append(offs, int32(ci))
		}
		depth := 0
		found, foundOn, from := int32(-1), false, int32(-1)
		var foundCause int8
		st.onCs[ci], st.offCs[ci] = 0, 0
	chains:
		for len(cur) > 0 || len(offs) > 0 {
			if hopeless(chainBase, depth+2) {
				break
			}
			for _, p := range cur {
				for li, q := range st.onOff[st.onLo[p]:st.onHi[p]] {
					if int(q) == ci && startOn {
						found, foundOn, from = q, false, p
						foundCause = st.onCause[int(st.onLo[p])+li]
						break chains
					}
					if st.offSeen[q] != st.gen && st.offLo[q] != st.offHi[q] { // an OFF that makes nothing leads nowhere
						st.offSeen[q], st.offPar[q] = st.gen, p
						st.offCs[q] = st.onCause[int(st.onLo[p])+li]
						offs = append(offs, q)
					}
				}
			}
			cur = cur[:0]
			for _, o := range offs {
				for li, q := range st.offOn[st.offLo[o]:st.offHi[o]] {
					if int(q) == ci && !startOn {
						found, foundOn, from = q, true, o
						foundCause = st.offCause[int(st.offLo[o])+li]
						break chains
					}
					if st.onSeen[q] != st.gen {
						st.onSeen[q], st.onPar[q] = st.gen, o
						st.onCs[q] = st.offCause[int(st.offLo[o])+li]
						cur = append(cur, q)
					}
				}
			}
			offs = offs[:0]
			depth++
		}
		st.curOn, st.fOff = cur[:0], offs[:0]
		if found < 0 {
			continue
		}
		on := !foundOn // the parent's state
		back = append(back[:0], [3]int32{found, b2i(foundOn), int32(foundCause)})
		for a := from; a >= 0; on = !on {
			if on {
				back = append(back, [3]int32{a, 1, int32(st.onCs[a])})
				a = st.onPar[a]
			} else {
				back = append(back, [3]int32{a, 0, int32(st.offCs[a])})
				a = st.offPar[a]
			}
		}
		t := e.path(back)
		h := &seHint{kind: seForcing, sortKey: sortKey, unit: -1, targets: []int32{t}}
		h.elims, h.place = e.removeFor(t)
		h.complexity = e.ancestors(t)
		h.score = chainBase + seLengthBonus(h.complexity)
		best.offer(h)
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// cycleElims is SE's createCycleHint: candidates outside the cycle that
// see an ON potential of the cycle's digit and an OFF one.
func (e *seEngine) cycleElims(dst int32) []Candidate {
	if len(e.cycOn) != e.size {
		e.cycOn, e.cycOff = make([]uint32, e.size), make([]uint32, e.size)
		e.cycIn = make([]bool, e.size)
	}
	var touched []int // cells whose scratch to clear
	e.eachOfCycle(dst, func(nd *seNode) { e.cycIn[nd.cell] = true })
	e.eachOfCycle(dst, func(nd *seNode) {
		bit := uint32(1) << (nd.d - 1)
		for _, c := range e.b.g.peers[nd.cell] {
			if e.cycIn[c] || e.grid[c]&bit == 0 {
				continue
			}
			if e.cycOn[c]|e.cycOff[c] == 0 {
				touched = append(touched, c)
			}
			if nd.on {
				e.cycOn[c] |= bit
			} else {
				e.cycOff[c] |= bit
			}
		}
	})
	var cells []int
	var vals map[int]uint32
	for _, c := range touched {
		if both := e.cycOn[c] & e.cycOff[c]; both != 0 {
			if vals == nil {
				vals = map[int]uint32{}
			}
			cells = append(cells, c)
			vals[c] = both
		}
		e.cycOn[c], e.cycOff[c] = 0, 0
	}
	e.eachOfCycle(dst, func(nd *seNode) { e.cycIn[nd.cell] = false })
	if len(cells) == 0 {
		return nil
	}
	return elimsFrom(cells, vals)
}

// eachOfCycle calls f on the potentials of the cycle ending at dst, from
// dst back along first parents (the start, which has none, is dst's
// candidate again and is left out).
func (e *seEngine) eachOfCycle(dst int32, f func(nd *seNode)) {
	for p := dst; ; {
		ps := e.parents(p)
		if len(ps) == 0 {
			return
		}
		f(&e.nodes[p])
		p = ps[0]
	}
}
