package sudoku

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Sudoku Explainer's chaining, rule for rule, so ratings match SE's to the
// tenth. The rater uses it for every step from 6.5 on; the hints keep the
// chain techniques of tech_chains.go and tech_forcing.go, whose stories are
// shorter.
//
// SE works on "potentials": a candidate assumed ON (the cell holds the
// digit) or OFF. An ON potential makes OFF the other candidates of its cell
// and the other places of its digit in its box, row and column, in that
// order. An OFF potential makes ON the other candidate of a two-candidate
// cell and the other place of its digit in a unit where it has two (box,
// row, column). Each potential remembers its parents; a hint's complexity
// is the number of distinct potentials its conclusions rest on, and its
// score is the rule's base plus 0.1 each time that number less two passes
// 4, 6, 8, 12, 16, 24, 32, …
//
// The producers, tried in SE's order; a step is the easiest hint of the
// first producer that finds any (lowest score, then lowest complexity, then
// SE's order of kinds, then the order SE finds them in):
//   - static chains: bidirectional cycles (6.5, 7.0 mixed) and forcing
//     chains (6.6, 7.0 mixed), followed link by link;
//   - (not a chain: the aligned triple exclusion, 7.5, tech_sealigned.go);
//   - Nishio (7.5): a candidate whose assumption, following its digit only
//     and removing what it rules out as it goes, contradicts itself;
//   - multiple (8.0): cell and region forcing chains, static;
//   - dynamic (8.5): contradictions, double implications, cell and region
//     forcing chains, removing what each assumption rules out as it goes;
//   - dynamic (+) (9.0): the same, letting simple techniques (locked
//     candidates, pairs, X-Wing) remove more along the way;
//   - nested (9.5, 10.0): the same, letting static forcing chains (and
//     then multiple forcing chains) found on the working grid remove more;
//     their own complexity adds to the hint's.
//
// SE goes further (dynamic chains nested in dynamic ones, 10.5+): those
// take SE minutes per step and are not done here; a puzzle that needs them
// rates unfinished (see seBeyond in rate.go).
//
// Read from SukakuExplainer (github.com/SudokuMonster/SukakuExplainer,
// Chaining.java and the hints' getDifficulty, getRuleParents); the code is
// this package's own.

// sePotKey numbers a potential: (cell*n + digit-1)*2, +1 when ON.
func sePotKey(n, cell, d int, on bool) int {
	k := (cell*n + d - 1) * 2
	if on {
		k++
	}
	return k
}

// seNode is one potential found by a search.
type seNode struct {
	cell       int32
	d          int8
	on         bool
	par0, parN int32 // parents: seEngine.pars[par0 : par0+parN]
	// nested is 1 + the index in seEngine.nested of the hint whose
	// conclusion this OFF potential is (levels 1 and up), or 0.
	nested int32
	cause  int8 // seCauseCell, seCauseBox …; 0 for an assumption
}

// What made a potential: the cell's other candidates (or its last one),
// the other places (or the last place) of its digit in a box, row or
// column, or a technique (level 1 and up).
const (
	seCauseCell = 1 + iota
	seCauseBox
	seCauseRow
	seCauseCol
	seCauseAdvanced
)

// seSet is a set of potentials in insertion order, ON and OFF apart, as
// SE's LinkedSet.
type seSet struct {
	gen       uint32
	stamp     []uint32 // key -> gen when present
	val       []int32  // key -> node id
	ons, offs []int32
}

func (s *seSet) get(k int) int32 {
	if s.stamp[k] != s.gen {
		return -1
	}
	return s.val[k]
}
func (s *seSet) has(k int) bool { return s.stamp[k] == s.gen }

// seHint is a candidate conclusion of a producer.
type seHint struct {
	kind       int // seCycle, seForcing, ...
	score      float64
	complexity int
	sortKey    int
	// What the hint does.
	elims []Candidate
	place Candidate // Value 0 when none
	// For the story.
	src  Candidate // the assumed candidate, or the cell (Value 0) or unit
	unit int       // unit of a region forcing chain, or -1
	// targets are the chains' ends (node ids in eng.nodes).
	targets []int32
}

const (
	seCycle = iota
	seForcing
	seNishio
	seContradiction
	seDouble
	seCellForcing
	seRegionForcing
)

// seEngine is the state of one chaining producer on one position.
type seEngine struct {
	b       *board
	n, size int
	ctx     context.Context // checked cell by cell: the searches can take seconds
	nishio  bool            // follow one digit only (no cell links)
	dynamic bool            // remove OFF potentials from the grid as they are found
	level   int             // 1: add simple techniques' eliminations; 2, 3: add chains

	grid, src []uint32 // working candidates and the position's
	// upos and spos are the positions of each digit in each unit (as
	// board.pos), working and the position's.
	upos, spos []uint32
	nodes      []seNode
	pars       []int32
	pool       []*seSet
	used       int
	mark       []uint32
	stamp      uint32

	pendOn, pendOff []int32
	list            []int32

	// onCache[cell*n+d-1] is the chaining from that candidate ON.
	onCache []*seChaining
	static  *seStatic
	// nested holds the hints nested potentials come from.
	nested []int // complexities
	child  *seEngine
	inters []uint32 // see inter
}

// seChaining is the outcome of assuming one potential.
type seChaining struct {
	set           *seSet
	absurd        bool
	absOn, absOff int32
	startOn       bool
	cell, d       int
}

// newSEEngine readies b's chaining engine (its memory is kept from step
// to step) for one producer on b's position.
func newSEEngine(b *board, nishio, dynamic bool, level int) *seEngine {
	n, size := b.n, len(b.cand)
	e := b.se
	if e == nil {
		e = &seEngine{b: b, n: n, size: size}
		e.mark = make([]uint32, size*n*2)
		e.onCache = make([]*seChaining, size*n)
		e.grid = make([]uint32, size)
		e.src = make([]uint32, size)
		e.upos = make([]uint32, len(b.pos))
		e.spos = make([]uint32, len(b.pos))
		b.se = e
	}
	b.refresh()
	copy(e.upos, b.pos)
	copy(e.spos, b.pos)
	e.nishio, e.dynamic, e.level = nishio, dynamic, level
	copy(e.grid, b.cand)
	copy(e.src, b.cand)
	clear(e.onCache)
	e.nodes, e.pars, e.nested = e.nodes[:0], e.pars[:0], e.nested[:0]
	e.used = 0
	return e
}

func (e *seEngine) newSet() *seSet {
	if e.used < len(e.pool) {
		s := e.pool[e.used]
		e.used++
		s.gen++
		if s.gen == 0 {
			clear(s.stamp)
			s.gen = 1
		}
		s.ons, s.offs = s.ons[:0], s.offs[:0]
		return s
	}
	s := &seSet{gen: 1, stamp: make([]uint32, e.size*e.n*2), val: make([]int32, e.size*e.n*2)}
	e.pool = append(e.pool, s)
	e.used++
	return s
}

func (e *seEngine) key(id int32) int {
	nd := &e.nodes[id]
	return sePotKey(e.n, int(nd.cell), int(nd.d), nd.on)
}

// node adds a potential with its first parent (or none when parent < 0).
func (e *seEngine) node(cell, d int, on bool, parent int32) int32 {
	nd := seNode{cell: int32(cell), d: int8(d), on: on, par0: int32(len(e.pars))}
	if parent >= 0 {
		e.pars = append(e.pars, parent)
		nd.parN = 1
	}
	e.nodes = append(e.nodes, nd)
	return int32(len(e.nodes) - 1)
}

// causedNode is node with a cause.
func (e *seEngine) causedNode(cell, d int, on bool, parent int32, cause int8) int32 {
	id := e.node(cell, d, on, parent)
	e.nodes[id].cause = cause
	return id
}

// addParent adds a parent to the node just created.
func (e *seEngine) addParent(id, parent int32) {
	e.pars = append(e.pars, parent)
	e.nodes[id].parN++
}

func (e *seEngine) add(s *seSet, id int32) {
	k := e.key(id)
	if s.stamp[k] != s.gen {
		s.stamp[k] = s.gen
		if e.nodes[id].on {
			s.ons = append(s.ons, id)
		} else {
			s.offs = append(s.offs, id)
		}
	}
	s.val[k] = id // SE's LinkedSet.add keeps the place, takes the new value
}

func (e *seEngine) parents(id int32) []int32 {
	nd := &e.nodes[id]
	return e.pars[nd.par0 : nd.par0+nd.parN]
}

// ancestors counts the distinct potentials id rests on, itself included,
// plus the complexity of the nested hints among them when nested is set.
func (e *seEngine) ancestors(id int32) int {
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
	return e.countFrom(id)
}

func (e *seEngine) countFrom(id int32) int {
	stack := append(e.list[:0], id)
	count := 0
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k := e.key(x)
		if e.mark[k] == e.stamp {
			continue
		}
		e.mark[k] = e.stamp
		count++
		stack = append(stack, e.parents(x)...)
	}
	e.list = stack[:0]
	return count
}

// seLengthBonus is SE's getLengthDifficulty for a complexity.
func seLengthBonus(complexity int) float64 {
	added, ceil, odd := 0.0, 4, false
	for length := complexity - 2; length > ceil; odd = !odd {
		added += 0.1
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
	}
	return added
}

// seKind maps seUnits' order (box, row, column) to cellUnits' (row,
// column, box).
var seKind = [3]int{2, 0, 1}

// seUnits lists cell's units in SE's order: box, row, column.
func (e *seEngine) seUnits(cell int) [3]int {
	cu := e.b.g.cellUnits[cell]
	return [3]int{cu[2], cu[0], cu[1]}
}

// onToOff lists the OFF potentials an ON potential implies, as new nodes.
// Potentials already in skip (when not nil) are left out: the caller
// would ignore them.
func (e *seEngine) onToOff(p int32, y bool, skip *seSet, out []int32) []int32 {
	cell, d := int(e.nodes[p].cell), int(e.nodes[p].d)
	n := e.n
	if y {
		for m := e.grid[cell] &^ (1 << (d - 1)); m != 0; m &= m - 1 {
			v := bits.TrailingZeros32(m) + 1
			if skip != nil && skip.has(sePotKey(n, cell, v, false)) {
				continue
			}
			out = append(out, e.causedNode(cell, v, false, p, seCauseCell))
		}
	}
	g := e.b.g
	for i, u := range e.seUnits(cell) {
		m := e.upos[u*n+d-1] &^ (1 << g.cellIdx[cell][seKind[i]])
		for ; m != 0; m &= m - 1 {
			c := g.unitCells[u][bits.TrailingZeros32(m)]
			// A cell in the box and the row or column is listed once.
			if i > 0 && g.box[c] == g.box[cell] {
				continue
			}
			if i > 1 && g.row[c] == g.row[cell] {
				continue
			}
			if skip != nil && skip.has(sePotKey(n, c, d, false)) {
				continue
			}
			out = append(out, e.causedNode(c, d, false, p, int8(seCauseBox+i)))
		}
	}
	return out
}

// offToOn lists the ON potentials an OFF potential implies, as new nodes;
// hidden parents (OFF potentials of set that removed candidates since the
// search began) are added as SE does.
func (e *seEngine) offToOn(p int32, s *seSet, y, x, skip bool, out []int32) []int32 {
	cell, d := int(e.nodes[p].cell), int(e.nodes[p].d)
	bit := uint32(1) << (d - 1)
	if y && bits.OnesCount32(e.grid[cell]) == 2 {
		other := bits.TrailingZeros32(e.grid[cell]&^bit) + 1
		if skip && s.has(sePotKey(e.n, cell, other, true)) {
			goto units
		}
		id := e.causedNode(cell, other, true, p, seCauseCell)
		for m := e.src[cell] &^ e.grid[cell]; m != 0; m &= m - 1 {
			e.addParent(id, s.get(sePotKey(e.n, cell, bits.TrailingZeros32(m)+1, false)))
		}
		out = append(out, id)
	}
units:
	if x {
		g := e.b.g
		for i, u := range e.seUnits(cell) {
			ud := u*e.n + d - 1
			m := e.upos[ud] &^ (1 << g.cellIdx[cell][seKind[i]])
			if m == 0 || m&(m-1) != 0 {
				continue
			}
			cells := g.unitCells[u]
			other := cells[bits.TrailingZeros32(m)]
			if skip && s.has(sePotKey(e.n, other, d, true)) {
				continue
			}
			id := e.causedNode(other, d, true, p, int8(seCauseBox+i))
			for h := e.spos[ud] &^ e.upos[ud]; h != 0; h &= h - 1 {
				e.addParent(id, s.get(sePotKey(e.n, cells[bits.TrailingZeros32(h)], d, false)))
			}
			out = append(out, id)
		}
	}
	return out
}

// chain is SE's doChaining: it completes set s (holding the start) with
// every consequence, ON potentials first, and stops at the first
// potential that would be both ON and OFF.
func (e *seEngine) chain(s *seSet) (absurd bool, absOn, absOff int32) {
	copy(e.grid, e.src)
	copy(e.upos, e.spos)
	defer func() {
		copy(e.grid, e.src)
		copy(e.upos, e.spos)
	}()
	y := !e.nishio
	pendOn := append(e.pendOn[:0], s.ons...)
	pendOff := append(e.pendOff[:0], s.offs...)
	defer func() { e.pendOn, e.pendOff = pendOn[:0], pendOff[:0] }()
	hOn, hOff := 0, 0
	for {
		if hOn < len(pendOn) {
			p := pendOn[hOn]
			hOn++
			e.list = e.onToOff(p, y, s, e.list[:0])
			for _, q := range e.list {
				k := e.key(q)
				if s.has(k ^ 1) {
					return true, s.get(k ^ 1), q
				}
				if !s.has(k) {
					e.add(s, q)
					pendOff = append(pendOff, q)
				}
			}
			continue
		}
		if hOff < len(pendOff) {
			p := pendOff[hOff]
			hOff++
			e.list = e.offToOn(p, s, y, true, true, e.list[:0])
			if e.dynamic {
				e.remove(int(e.nodes[p].cell), int(e.nodes[p].d))
			}
			for _, q := range e.list {
				k := e.key(q)
				if s.has(k ^ 1) {
					return true, q, s.get(k ^ 1)
				}
				if !s.has(k) {
					e.add(s, q)
					pendOn = append(pendOn, q)
				}
			}
			continue
		}
		if e.level == 0 {
			return false, -1, -1
		}
		if e.ctx != nil && e.ctx.Err() != nil {
			return false, -1, -1 // the caller sees ctx's error
		}
		more := false
		for _, q := range e.advanced(s) {
			if !s.has(e.key(q)) {
				e.add(s, q)
				pendOff = append(pendOff, q)
				more = true
			}
		}
		if !more {
			return false, -1, -1
		}
	}
}

// remove takes candidate (cell, d) off the working grid.
func (e *seEngine) remove(cell, d int) {
	e.grid[cell] &^= 1 << (d - 1)
	g := e.b.g
	for k, u := range g.cellUnits[cell] {
		e.upos[u*e.n+d-1] &^= 1 << g.cellIdx[cell][k]
	}
}

// onChaining returns the (cached) chaining from candidate (cell, d) ON.
func (e *seEngine) onChaining(cell, d int) *seChaining {
	i := cell*e.n + d - 1
	if c := e.onCache[i]; c != nil {
		return c
	}
	s := e.newSet()
	e.add(s, e.node(cell, d, true, -1))
	c := &seChaining{set: s, startOn: true, cell: cell, d: d}
	c.absurd, c.absOn, c.absOff = e.chain(s)
	e.onCache[i] = c
	return c
}

func (e *seEngine) offChaining(cell, d int) *seChaining {
	s := e.newSet()
	e.add(s, e.node(cell, d, false, -1))
	c := &seChaining{set: s, cell: cell, d: d}
	c.absurd, c.absOn, c.absOff = e.chain(s)
	return c
}

// best keeps the easiest hint: lowest score, then complexity, then sort
// key; the first found wins ties, as SE's stable sort does.
type seBest struct {
	h  *seHint
	ok bool
	// all, when set, collects every worth hint instead.
	all *[]*seHint
}

func (sb *seBest) offer(h *seHint) bool {
	if len(h.elims) == 0 && h.place.Value == 0 {
		return false
	}
	if sb.all != nil {
		*sb.all = append(*sb.all, h)
		return true
	}
	if sb.ok {
		o := sb.h
		if h.score > o.score || (h.score == o.score && (h.complexity > o.complexity ||
			(h.complexity == o.complexity && h.sortKey >= o.sortKey))) {
			return false
		}
	}
	sb.h, sb.ok = h, true
	return true
}

// removeFor lists what a hint concluding potential t removes: t's
// candidate when OFF, the other candidates of t's cell when ON.
func (e *seEngine) removeFor(t int32) ([]Candidate, Candidate) {
	nd := e.nodes[t]
	if !nd.on {
		return []Candidate{{Cell: int(nd.cell), Value: int(nd.d)}}, Candidate{}
	}
	var out []Candidate
	for m := e.src[nd.cell] &^ (1 << (nd.d - 1)); m != 0; m &= m - 1 {
		out = append(out, Candidate{Cell: int(nd.cell), Value: bits.TrailingZeros32(m) + 1})
	}
	if len(out) == 0 {
		return nil, Candidate{}
	}
	return out, Candidate{Cell: int(nd.cell), Value: int(nd.d)}
}

// nestedComplexity adds the complexity of the nested hints the targets
// rest on, each once.
func (e *seEngine) nestedComplexity(targets []int32) int {
	if e.level == 0 {
		return 0
	}
	seen := map[int32]bool{}
	total := 0
	for _, t := range targets {
		e.stamp++
		stack := []int32{t}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			k := e.key(x)
			if e.mark[k] == e.stamp {
				continue
			}
			e.mark[k] = e.stamp
			if i := e.nodes[x].nested; i != 0 && !seen[i] {
				seen[i] = true
				total += e.nested[i-1]
			}
			stack = append(stack, e.parents(x)...)
		}
	}
	return total
}

// base is the producer's score before the length bonus.
func (e *seEngine) base() float64 {
	switch {
	case e.level > 0:
		return 8.5 + 0.5*float64(e.level)
	case e.nishio:
		return 7.5
	case e.dynamic:
		return 8.5
	}
	return 8.0
}

func (e *seEngine) finish(h *seHint, flat int) *seHint {
	h.complexity = flat + e.nestedComplexity(h.targets)
	h.score = e.base() + seLengthBonus(h.complexity)
	return h
}

// staticChains is SE's Chaining(false, false, false): cycles and forcing
// chains over X links, then Y links (cycles only), then both. The links
// don't change during the search, so they are listed once per pass and
// the searches run on candidate numbers (cell*n + digit-1); nodes are made
// only for the chains found.
func (e *seEngine) staticChains(best *seBest) {
	copy(e.grid, e.src)
	if e.static == nil {
		e.static = e.newStatic()
	}
	st := e.static
	for pass := 0; pass < 3; pass++ {
		y, x := pass >= 1, pass != 1
		st.links(e, y, x)
		st.closure()
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
				d := bits.TrailingZeros32(m) + 1
				e.unary(st, cell*e.n+d-1, y, x, best)
			}
		}
	}
}

// seStatic holds the static links of one pass and the searches' scratch.
type seStatic struct {
	// onOff[onStart[c]:onStart[c+1]] are the candidates candidate c being
	// ON makes OFF, in SE's order; offOn likewise.
	onOff, offOn      []int32
	onCause, offCause []int8 // the cause of the potential each link makes
	onStart, offStart []int32
	gen               uint32
	onSeen, offSeen   []uint32
	onPar, offPar     []int32 // forcing chains: the parent of each potential
	onParOff          []int32 // cycles: the OFF that made each ON
	onParOn           []int32 // cycles: the ON that made that OFF
	onCs, offCs       []int8  // the cause of each potential made
	curOn             []int32
	// closure's state: Tarjan's numbering and each component's set.
	index, low, comp []int32
	onStack          []bool
	stack            []int32
	counter          int32
	reach            []uint64
	cidx             []int32    // key -> compact number (candidates of the grid)
	nact             int32      // how many compact numbers
	curOff           [][3]int32 // cycles: OFF, the ON that made it, its cause
	fOff             []int32
}

func (e *seEngine) newStatic() *seStatic {
	m := e.size * e.n
	return &seStatic{
		onStart: make([]int32, m+1), offStart: make([]int32, m+1),
		onSeen: make([]uint32, m), offSeen: make([]uint32, m),
		onPar: make([]int32, m), offPar: make([]int32, m),
		onParOff: make([]int32, m), onParOn: make([]int32, m),
		onCs: make([]int8, m), offCs: make([]int8, m),
	}
}

// links lists the pass's links, as SE's getOnToOff and getOffToOn make them.
func (st *seStatic) links(e *seEngine, y, x bool) {
	n := e.n
	st.onOff, st.offOn = st.onOff[:0], st.offOn[:0]
	st.onCause, st.offCause = st.onCause[:0], st.offCause[:0]
	// Potentials get compact numbers for the reach sets: only the
	// candidates of the grid count.
	if len(st.cidx) != 2*e.size*n {
		st.cidx = make([]int32, 2*e.size*n)
	}
	st.nact = 0
	for ci := 0; ci < e.size*n; ci++ {
		if e.grid[ci/n]&(1<<(ci%n)) != 0 {
			st.cidx[2*ci], st.cidx[2*ci+1] = st.nact, st.nact+1
			st.nact += 2
		}
	}
	for ci := 0; ci < e.size*n; ci++ {
		cell, d := ci/n, ci%n+1
		bit := uint32(1) << (d - 1)
		st.onStart[ci] = int32(len(st.onOff))
		st.offStart[ci] = int32(len(st.offOn))
		if e.grid[cell]&bit == 0 {
			continue
		}
		if y {
			for m := e.grid[cell] &^ bit; m != 0; m &= m - 1 {
				st.onOff = append(st.onOff, int32(cell*n+bits.TrailingZeros32(m)))
				st.onCause = append(st.onCause, seCauseCell)
			}
		}
		g := e.b.g
		for i, u := range e.seUnits(cell) {
			m := e.upos[u*n+d-1] &^ (1 << g.cellIdx[cell][seKind[i]])
			for ; m != 0; m &= m - 1 {
				c := g.unitCells[u][bits.TrailingZeros32(m)]
				if (i > 0 && g.box[c] == g.box[cell]) || (i > 1 && g.row[c] == g.row[cell]) {
					continue
				}
				st.onOff = append(st.onOff, int32(c*n+d-1))
				st.onCause = append(st.onCause, int8(seCauseBox+i))
			}
		}
		if y && bits.OnesCount32(e.grid[cell]) == 2 {
			st.offOn = append(st.offOn, int32(cell*n+bits.TrailingZeros32(e.grid[cell]&^bit)))
			st.offCause = append(st.offCause, seCauseCell)
		}
		if x {
			for i, u := range e.seUnits(cell) {
				m := e.upos[u*n+d-1] &^ (1 << g.cellIdx[cell][seKind[i]])
				if m != 0 && m&(m-1) == 0 {
					st.offOn = append(st.offOn, int32(g.unitCells[u][bits.TrailingZeros32(m)]*n+d-1))
					st.offCause = append(st.offCause, int8(seCauseBox+i))
				}
			}
		}
	}
	st.onStart[e.size*n] = int32(len(st.onOff))
	st.offStart[e.size*n] = int32(len(st.offOn))
}

// closure computes, for every potential (key 2*candidate, +1 when ON),
// the set of potentials its links lead to, one step or more: Tarjan's
// strongly connected components, each component's set the union of its
// successors' (the components come out successors first). A search from
// a potential can find only what its set holds, so the searches run only
// for starts that lead back to themselves or to their own denial.
func (st *seStatic) closure() {
	nk := 2 * (len(st.onStart) - 1)
	words := (int(st.nact) + 63) / 64
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
	st.counter = 0
	for v := 0; v < nk; v++ {
		if st.index[v] < 0 && len(st.succ(v)) > 0 {
			st.strong(int32(v), words)
		}
	}
}

// succ lists the potentials key v's links make.
func (st *seStatic) succ(v int) []int32 {
	ci := v >> 1
	if v&1 == 1 {
		return st.onOff[st.onStart[ci]:st.onStart[ci+1]]
	}
	return st.offOn[st.offStart[ci]:st.offStart[ci+1]]
}

// succKey turns the i-th successor of v into a key (ON makes OFF, OFF
// makes ON).
func succKey(v int, q int32) int32 {
	if v&1 == 1 {
		return 2 * q
	}
	return 2*q + 1
}

func (st *seStatic) strong(v int32, words int) {
	st.index[v], st.low[v] = st.counter, st.counter
	st.counter++
	st.stack = append(st.stack, v)
	st.onStack[v] = true
	for _, q := range st.succ(int(v)) {
		w := succKey(int(v), q)
		if st.index[w] < 0 {
			st.strong(w, words)
			st.low[v] = min(st.low[v], st.low[w])
		} else if st.onStack[w] {
			st.low[v] = min(st.low[v], st.index[w])
		}
	}
	if st.low[v] != st.index[v] {
		return
	}
	// v roots a component: pop it, then give it the union of its
	// members' successors and their sets.
	c := int32(len(st.reach) / words)
	st.reach = append(st.reach, make([]uint64, words)...)
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
			if wc := st.comp[w]; wc != c {
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
	words := (int(st.nact) + 63) / 64
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

// unary is SE's doUnaryChaining from candidate ci ON (and OFF).
func (e *seEngine) unary(st *seStatic, ci int, y, x bool, best *seBest) {
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
	if st.reaches(2*ci+1, 2*ci+1) {
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
				for li, q := range st.onOff[st.onStart[p]:st.onStart[p+1]] {
					// SE's isParent: is q on p's line of first parents?
					onLine := false
					for a := p; st.onParOn[a] >= 0; a = st.onParOn[a] {
						if st.onParOff[a] == q {
							onLine = true
							break
						}
					}
					if !onLine {
						offs = append(offs, [3]int32{q, p, int32(st.onCause[int(st.onStart[p])+li])})
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
				for li, q := range st.offOn[st.offStart[o[0]]:st.offStart[o[0]+1]] {
					qc := int32(st.offCause[int(st.offStart[o[0]])+li])
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
		if startOn && !st.reaches(2*ci+1, 2*ci) || !startOn && !st.reaches(2*ci, 2*ci+1) {
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
				for li, q := range st.onOff[st.onStart[p]:st.onStart[p+1]] {
					if int(q) == ci && startOn {
						found, foundOn, from = q, false, p
						foundCause = st.onCause[int(st.onStart[p])+li]
						break chains
					}
					if st.offSeen[q] != st.gen {
						st.offSeen[q], st.offPar[q] = st.gen, p
						st.offCs[q] = st.onCause[int(st.onStart[p])+li]
						offs = append(offs, q)
					}
				}
			}
			cur = cur[:0]
			for _, o := range offs {
				for li, q := range st.offOn[st.offStart[o]:st.offStart[o+1]] {
					if int(q) == ci && !startOn {
						found, foundOn, from = q, true, o
						foundCause = st.offCause[int(st.offStart[o])+li]
						break chains
					}
					if st.onSeen[q] != st.gen {
						st.onSeen[q], st.onPar[q] = st.gen, o
						st.onCs[q] = st.offCause[int(st.offStart[o])+li]
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
	inCycle := map[int32]bool{}
	for p := dst; ; {
		ps := e.parents(p)
		if len(ps) == 0 {
			break
		}
		inCycle[e.nodes[p].cell] = true
		p = ps[0]
	}
	fw, bw := map[Candidate]bool{}, map[Candidate]bool{}
	var order []Candidate
	for p := dst; ; {
		ps := e.parents(p)
		if len(ps) == 0 {
			break
		}
		nd := e.nodes[p]
		for _, c := range e.b.g.peers[nd.cell] {
			if inCycle[int32(c)] || e.grid[c]&(1<<(nd.d-1)) == 0 {
				continue
			}
			cd := Candidate{Cell: c, Value: int(nd.d)}
			if nd.on {
				if !fw[cd] {
					order = append(order, cd)
				}
				fw[cd] = true
			} else {
				bw[cd] = true
			}
		}
		p = ps[0]
	}
	var cells []int
	vals := map[int]uint32{}
	for _, cd := range order {
		if bw[cd] {
			if vals[cd.Cell] == 0 {
				cells = append(cells, cd.Cell)
			}
			vals[cd.Cell] |= 1 << (cd.Value - 1)
		}
	}
	return elimsFrom(cells, vals)
}

// multipleChains is SE's getMultipleChainsHintList for Nishio, multiple
// and dynamic chains (and their nested levels).
func (e *seEngine) multipleChains(best *seBest) {
	e.used = 0
	for cell := 0; cell < e.size; cell++ {
		card := bits.OnesCount32(e.src[cell])
		if e.b.vals[cell] != 0 || !(card > 2 || (card > 1 && e.dynamic)) {
			continue
		}
		if e.ctx != nil && e.ctx.Err() != nil {
			return
		}
		e.cellChains(cell, card, best)
	}
}

func (e *seEngine) cellChains(cell, card int, best *seBest) {
	doDouble := card >= 3 && !e.nishio && e.dynamic
	doContradiction := e.dynamic || e.nishio
	var valueOn []*seChaining
	for m := e.src[cell]; m != 0; m &= m - 1 {
		d := bits.TrailingZeros32(m) + 1
		on := e.onChaining(cell, d)
		valueOn = append(valueOn, on)
		if doContradiction && on.absurd {
			h := &seHint{kind: seContradiction, sortKey: 7, unit: -1, src: Candidate{cell, d}, targets: []int32{on.absOn, on.absOff}}
			h.elims = []Candidate{{cell, d}}
			best.offer(e.finish(h, e.ancestors(on.absOn)+e.ancestors(on.absOff)))
		}
		if doContradiction || doDouble {
			off := e.offChaining(cell, d)
			if doContradiction && off.absurd {
				h := &seHint{kind: seContradiction, sortKey: 7, unit: -1, src: Candidate{cell, d}, targets: []int32{off.absOn, off.absOff}}
				h.elims, h.place = e.placeElims(cell, d)
				best.offer(e.finish(h, e.ancestors(off.absOn)+e.ancestors(off.absOff)))
			}
			if doDouble {
				for _, t := range on.set.ons {
					if o := off.set.get(e.key(t)); o >= 0 {
						h := &seHint{kind: seDouble, sortKey: 1, unit: -1, src: Candidate{cell, d}, targets: []int32{t, o}}
						h.elims, h.place = e.removeFor(t)
						best.offer(e.finish(h, e.ancestors(t)+e.ancestors(o)))
					}
				}
				for _, t := range on.set.offs {
					if o := off.set.get(e.key(t)); o >= 0 {
						h := &seHint{kind: seDouble, sortKey: 1, unit: -1, src: Candidate{cell, d}, targets: []int32{t, o}}
						h.elims, h.place = e.removeFor(t)
						best.offer(e.finish(h, e.ancestors(t)+e.ancestors(o)))
					}
				}
			}
		}
		if !e.nishio {
			e.regionChains(cell, d, on, best)
		}
	}
	if e.nishio || !(card == 2 || card > 2) {
		return
	}
	// Cell forcing chains: potentials every candidate of the cell implies.
	first := valueOn[0].set
	for _, list := range [2][]int32{first.ons, first.offs} {
		for _, t := range list {
			k := e.key(t)
			ok := true
			for _, c := range valueOn {
				if !c.set.has(k) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			targets := make([]int32, len(valueOn))
			for i, c := range valueOn {
				targets[i] = c.set.get(k)
			}
			h := &seHint{kind: seCellForcing, sortKey: 5, unit: -1, src: Candidate{Cell: cell}, targets: targets}
			h.elims, h.place = e.removeFor(t)
			if len(h.elims) == 0 && h.place.Value == 0 {
				continue
			}
			flat := 0
			for _, id := range targets {
				flat += e.ancestors(id)
			}
			best.offer(e.finish(h, flat))
		}
	}
}

// placeElims is the outcome of placing d in cell.
func (e *seEngine) placeElims(cell, d int) ([]Candidate, Candidate) {
	var out []Candidate
	for m := e.src[cell] &^ (1 << (d - 1)); m != 0; m &= m - 1 {
		out = append(out, Candidate{Cell: cell, Value: bits.TrailingZeros32(m) + 1})
	}
	if len(out) == 0 {
		return nil, Candidate{}
	}
	return out, Candidate{Cell: cell, Value: d}
}

// regionChains is SE's doRegionChainings for candidate (cell, d).
func (e *seEngine) regionChains(cell, d int, on *seChaining, best *seBest) {
	bit := uint32(1) << (d - 1)
	for _, u := range e.seUnits(cell) {
		var places []int
		for _, c := range e.b.g.unitCells[u] {
			if e.src[c]&bit != 0 {
				places = append(places, c)
			}
		}
		if !(len(places) == 2 || len(places) > 2) || places[0] != cell {
			continue
		}
		outs := make([]*seChaining, len(places))
		for i, c := range places {
			if c == cell {
				outs[i] = on
			} else {
				outs[i] = e.onChaining(c, d)
			}
		}
		first := on.set
		for _, list := range [2][]int32{first.ons, first.offs} {
			for _, t := range list {
				k := e.key(t)
				ok := true
				for _, c := range outs {
					if !c.set.has(k) {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				targets := make([]int32, len(outs))
				for i, c := range outs {
					targets[i] = c.set.get(k)
				}
				h := &seHint{kind: seRegionForcing, sortKey: 6, unit: u, src: Candidate{Cell: cell, Value: d}, targets: targets}
				h.elims, h.place = e.removeFor(t)
				if len(h.elims) == 0 && h.place.Value == 0 {
					continue
				}
				flat := 0
				for _, id := range targets {
					flat += e.ancestors(id)
				}
				best.offer(e.finish(h, flat))
			}
		}
	}
}

// seProducer is one rung of SE's chaining ladder.
type seProducer struct {
	nishio, dynamic, multiple bool
	level                     int
}

var seProducers = []seProducer{
	{}, // cycles and forcing chains
	{nishio: true, dynamic: true},
	{multiple: true},
	{dynamic: true, multiple: true},
	{dynamic: true, multiple: true, level: 1},
	{dynamic: true, multiple: true, level: 2},
	{dynamic: true, multiple: true, level: 3},
}

// findSEChain finds the step Sudoku Explainer would take when no
// technique below chains applies: the easiest hint of the first chaining
// producer that finds one. maxLevel bounds the nesting level tried.
//
// It gives up when ctx ends, with ctx's error.
func findSEChain(ctx context.Context, b *board, maxLevel int) (Step, bool, error) {
	for i, p := range seProducers {
		if p.level > maxLevel {
			break
		}
		if err := ctx.Err(); err != nil {
			return Step{}, false, err
		}
		e := newSEEngine(b, p.nishio, p.dynamic, p.level)
		e.ctx = ctx
		var best seBest
		if !p.nishio && !p.dynamic && !p.multiple {
			e.staticChains(&best)
		} else {
			e.multipleChains(&best)
		}
		if err := ctx.Err(); err != nil {
			return Step{}, false, err
		}
		if best.ok {
			return e.step(best.h, p), true, nil
		}
		if i == 0 {
			// SE tries the aligned triple exclusion (7.5) right after its
			// static chains.
			if st, ok := findSEAligned(b, 3); ok {
				return st, true, nil
			}
		}
	}
	return Step{}, false, nil
}

// seName is SE's name of a hint.
func (e *seEngine) seName(h *seHint, p seProducer) string {
	var sb strings.Builder
	if p.level > 0 || (p.dynamic && !p.nishio) {
		sb.WriteString("Dynamic ")
	} else if p.nishio {
		sb.WriteString("Nishio ")
	}
	switch h.kind {
	case seCycle:
		return "Bidirectional cycle"
	case seForcing:
		if h.sortKey == 2 {
			if h.complexity == 6 {
				return "Turbot fish"
			}
			return "Forcing X-chain"
		}
		return "Forcing chain"
	case seContradiction:
		if p.nishio {
			sb.WriteString("forcing chain")
		} else {
			sb.WriteString("contradiction forcing chain")
		}
	case seDouble:
		sb.WriteString("double forcing chain")
	case seCellForcing:
		sb.WriteString("cell forcing chains")
	case seRegionForcing:
		sb.WriteString("region forcing chains")
	}
	switch p.level {
	case 1:
		sb.WriteString(" (+)")
	case 2:
		sb.WriteString(" (+ forcing chains)")
	case 3:
		sb.WriteString(" (+ multiple forcing chains)")
	}
	s := sb.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// advanced is SE's getAdvancedPotentials: the OFF potentials the first
// simple technique that finds anything (locked candidates, hidden pair,
// naked pair, X-Wing; at level 2 and up, then chains) removes on the
// working grid, each with the potentials of s it rests on as parents.
// Conclusions that rest on none are left out (the technique works without
// the chain).
func (e *seEngine) advanced(s *seSet) []int32 {
	var out []int32
	rules := [...]func([]seRuleHint) []seRuleHint{e.ruleLocking, e.ruleHiddenPair, e.ruleNakedPair, e.ruleXWing}
	for _, rule := range rules {
		for _, h := range rule(nil) {
			if len(h.parents) == 0 {
				continue
			}
			for _, c := range h.elims {
				id := e.node(c.Cell, c.Value, false, -1)
				for _, k := range h.parents {
					if p := s.get(k); p >= 0 {
						e.addParent(id, p)
					}
				}
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	if e.level < 2 {
		return out
	}
	// Forcing chains (level 2), then multiple forcing chains (level 3), on
	// the working grid, every hint, easiest first.
	for lv := 2; lv <= e.level; lv++ {
		c := e.childEngine()
		var all []*seHint
		best := seBest{all: &all}
		if lv == 2 {
			c.staticChains(&best)
		} else {
			c.multipleChains(&best)
		}
		sort.SliceStable(all, func(i, j int) bool {
			a, b := all[i], all[j]
			if a.score != b.score {
				return a.score < b.score
			}
			if a.complexity != b.complexity {
				return a.complexity < b.complexity
			}
			return a.sortKey < b.sortKey
		})
		var seen []string
		for _, h := range all {
			sig := elimSig(h.elims)
			if slices.Contains(seen, sig) {
				continue
			}
			seen = append(seen, sig)
			parents := c.ruleParents(h, e.src, e.grid)
			if len(parents) == 0 {
				continue
			}
			e.nested = append(e.nested, h.complexity)
			ni := int32(len(e.nested))
			for _, cd := range h.elims {
				id := e.causedNode(cd.Cell, cd.Value, false, -1, seCauseAdvanced)
				e.nodes[id].nested = ni
				for _, k := range parents {
					if p := s.get(k); p >= 0 {
						e.addParent(id, p)
					}
				}
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}

// elimSig is a key for a set of removals (SE's hints are equal when they
// remove the same candidates).
func elimSig(cs []Candidate) string {
	c := slices.Clone(cs)
	slices.SortFunc(c, func(a, b Candidate) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Value - b.Value
	})
	var sb strings.Builder
	for _, x := range c {
		sb.WriteString(strconv.Itoa(x.Cell*64 + x.Value))
		sb.WriteByte(',')
	}
	return sb.String()
}

// childEngine readies the engine of the chains nested in e's: a static
// producer on e's working grid.
func (e *seEngine) childEngine() *seEngine {
	c := e.child
	if c == nil {
		c = &seEngine{b: e.b, n: e.n, size: e.size}
		c.mark = make([]uint32, len(e.mark))
		c.onCache = make([]*seChaining, len(e.onCache))
		c.grid = make([]uint32, e.size)
		c.src = make([]uint32, e.size)
		c.upos = make([]uint32, len(e.upos))
		c.spos = make([]uint32, len(e.upos))
		e.child = c
	}
	c.nishio, c.dynamic, c.level = false, false, 0
	c.ctx = e.ctx
	copy(c.grid, e.grid)
	copy(c.src, e.grid)
	copy(c.upos, e.upos)
	copy(c.spos, e.upos)
	clear(c.onCache)
	c.nodes, c.pars, c.nested = c.nodes[:0], c.pars[:0], c.nested[:0]
	c.used = 0
	return c
}

// ruleParents is SE's ChainingHint.getRuleParents for a nested hint h
// found by c: the OFF potentials of the outer chaining (candidates in
// initial but no longer in current) that the ON potentials of h's chains
// rest on, as keys.
func (c *seEngine) ruleParents(h *seHint, initial, current []uint32) []int {
	var out []int
	have := map[int]bool{}
	addKey := func(k int) {
		if !have[k] {
			have[k] = true
			out = append(out, k)
		}
	}
	collect := func(cell, d int, cause int8) {
		n := c.n
		if cause == seCauseCell {
			for m := initial[cell] &^ current[cell]; m != 0; m &= m - 1 {
				addKey(sePotKey(n, cell, bits.TrailingZeros32(m)+1, false))
			}
			return
		}
		u := c.b.g.cellUnits[cell][seKind[cause-seCauseBox]]
		bit := uint32(1) << (d - 1)
		for _, x := range c.b.g.unitCells[u] {
			if initial[x]&bit != 0 && current[x]&bit == 0 {
				addKey(sePotKey(n, x, d, false))
			}
		}
	}
	var rootCause int8
	switch h.kind {
	case seCellForcing:
		rootCause = seCauseCell
	case seRegionForcing:
		for i, u := range c.seUnits(h.src.Cell) {
			if u == h.unit {
				rootCause = int8(seCauseBox + i)
			}
		}
	}
	for _, t := range h.targets {
		c.stamp++
		stack := []int32{t}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			k := c.key(x)
			if c.mark[k] == c.stamp {
				continue
			}
			c.mark[k] = c.stamp
			nd := c.nodes[x]
			cause := nd.cause
			if cause == 0 && len(c.parents(x)) == 0 {
				cause = rootCause
			}
			if nd.on && cause != 0 && cause != seCauseAdvanced {
				collect(int(nd.cell), int(nd.d), cause)
			}
			stack = append(stack, c.parents(x)...)
		}
		if h.kind == seCycle {
			// The cycle read backwards: its OFF potentials, ON.
			for x := t; ; {
				nd := c.nodes[x]
				if !nd.on && nd.cause != 0 && nd.cause != seCauseAdvanced {
					collect(int(nd.cell), int(nd.d), nd.cause)
				}
				ps := c.parents(x)
				if len(ps) == 0 {
					break
				}
				x = ps[0]
			}
		}
	}
	return out
}

// seMaxLevel is the deepest nesting the rater tries.
const seMaxLevel = 3

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
				if bits.OnesCount32(pos) < 2 {
					continue
				}
				for i2 := 0; i2 < n; i2++ {
					u2 := e.unitOf(kinds[1], i2)
					in := e.inter(u1, u2)
					if in == 0 || pos&^in != 0 {
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
			if e.b.empties[u] <= 4 {
				continue
			}
			cells := e.b.g.unitCells[u]
			for _, pr := range sePairs(n) {
				d1, d2 := pr[0]+1, pr[1]+1
				p1, p2 := e.posOf(u, d1), e.posOf(u, d2)
				if bits.OnesCount32(p1) < 2 || bits.OnesCount32(p2) < 2 || bits.OnesCount32(p1|p2) != 2 {
					continue
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
			if e.b.empties[u] < 4 {
				continue
			}
			cells := e.b.g.unitCells[u]
			for _, pr := range sePairs(n) {
				a, b := cells[pr[0]], cells[pr[1]]
				ca, cb := e.grid[a], e.grid[b]
				if bits.OnesCount32(ca) < 2 || bits.OnesCount32(cb) < 2 || bits.OnesCount32(ca|cb) != 2 {
					continue
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

// step turns a hint into a Step.
func (e *seEngine) step(h *seHint, p seProducer) Step {
	st := Step{
		Technique:    e.seName(h, p),
		Score:        math.Round(h.score*10) / 10,
		Eliminations: h.elims,
	}
	if h.place.Value != 0 {
		st.Placements = []Candidate{h.place}
	}
	var what []string
	if h.place.Value != 0 {
		what = append(what, e.b.name(h.place.Cell)+" = "+e.b.sym(h.place.Value))
	} else {
		for _, c := range h.elims {
			what = append(what, e.b.name(c.Cell)+" ≠ "+e.b.sym(c.Value))
		}
	}
	st.Explanation = st.Technique + ": " + strings.Join(what, ", ") + "."
	return st
}
