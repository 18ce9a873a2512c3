package sudoku

import (
	"context"
	"math"
	"math/bits"
	"strings"
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
//     their own complexity adds to the hint's;
//   - SE's "experimental" rungs (10.5, level 4): the same, letting dynamic
//     forcing chains found on the working grid remove more, those nested
//     chains plain, then (+), then with forcing chains, then with
//     multiple forcing chains nested in them in turn (SukakuExplainer's
//     Chaining(true, true, false, 4, _, nestingLimit) for limits 0 to 3).
//     On golden nugget they take SE 7 minutes (one core), this 5 seconds
//     on SE's path and 2.2 seconds with the rating's shortcut (rateSteps).
//
// Where one chain is nested in several branches of a hint, SE counts its
// complexity once (FullChain); so does chainSig here.
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
	// in has bit k set when potential key k is in the set: a few hundred
	// bytes, where the many sets of a search are read most.
	in        []uint64
	val       []int32 // key -> node id, when in the set
	ons, offs []int32
}

func (s *seSet) get(k int) int32 {
	if !s.has(k) {
		return -1
	}
	return s.val[k]
}
func (s *seSet) has(k int) bool { return s.in[k>>6]&(1<<(k&63)) != 0 }

// seHint is a candidate conclusion of a producer.
type seHint struct {
	kind       int // seCycle, seForcing, ...
	score      float64
	complexity int
	sortKey    int
	// scan is SE's order of discovery among hints of equal complexity and
	// sort key (multiple chains; the first found wins, as in SE's stable
	// sort).
	scan int64
	// What the hint does.
	elims []Candidate
	place Candidate // Value 0 when none
	// For the story.
	src  Candidate // the assumed candidate, or the cell (Value 0) or unit
	unit int       // unit of a region forcing chain, or -1
	// targets are the chains' ends (node ids in eng.nodes).
	targets []int32
}

// tenths is h's score as SE shows it, to the tenth.
func (h *seHint) tenths() float64 { return math.Round(h.score*10) / 10 }

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
	level   int             // 1: add simple techniques' eliminations; 2, 3, 4: add chains
	// nest is, at level 4, the level of the dynamic chains nested (0 to 3).
	nest int

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

	// onCache[cell*n+d-1] is the chaining from that candidate ON, offCache
	// from it OFF.
	onCache, offCache []*seChaining
	static            *seStatic
	// staticBase, in an engine nested in a chaining, is the static search
	// of the step's own engine (see staticChains).
	staticBase *seStatic
	// cycleElims' scratch, by cell: values seen ON and OFF, and the
	// cycle's cells.
	cycOn, cycOff []uint32
	cycIn         []bool
	// flat tells a level-0 multiple-chains search on a 9x9 grid, which
	// keeps its chainings flat (tech_seflat.go) in fs.
	flat bool
	fs   *seFlatState
	// nested holds the hints nested potentials come from.
	nested    []int    // complexities
	nestedSig []uint64 // chainSig of each
	child     *seEngine
	inters    []uint32 // see inter
	crosses   [][]int  // see crossing
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
		e.offCache = make([]*seChaining, size*n)
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
	clear(e.offCache)
	e.nodes, e.pars, e.nested, e.nestedSig = e.nodes[:0], e.pars[:0], e.nested[:0], e.nestedSig[:0]
	e.used = 0
	return e
}

func (e *seEngine) newSet() *seSet {
	if e.used < len(e.pool) {
		s := e.pool[e.used]
		e.used++
		clear(s.in)
		s.ons, s.offs = s.ons[:0], s.offs[:0]
		return s
	}
	s := &seSet{in: make([]uint64, (e.size*e.n*2+63)/64), val: make([]int32, e.size*e.n*2)}
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
	if !s.has(k) {
		s.in[k>>6] |= 1 << (k & 63)
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

// ancestors counts the distinct potentials id rests on, itself included.
func (e *seEngine) ancestors(id int32) int {
	count := 0
	e.eachAncestor(id, func(int32) { count++ })
	return count
}

// eachAncestor calls f once on each distinct potential id rests on, id
// included. f must not walk ancestors itself (they share the marks and
// the stack).
func (e *seEngine) eachAncestor(id int32, f func(x int32)) {
	e.stamp++
	if e.stamp == 0 {
		clear(e.mark)
		e.stamp = 1
	}
	stack := append(e.list[:0], id)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k := e.key(x)
		if e.mark[k] == e.stamp {
			continue
		}
		e.mark[k] = e.stamp
		f(x)
		stack = append(stack, e.parents(x)...)
	}
	e.list = stack[:0]
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
		// A cell in the box and the row or column is listed once.
		m := e.upos[u*n+d-1] &^ g.seExcl[cell][i]
		for ; m != 0; m &= m - 1 {
			c := g.unitCells[u][bits.TrailingZeros32(m)]
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

// offChaining returns the (cached) chaining from candidate (cell, d) OFF.
func (e *seEngine) offChaining(cell, d int) *seChaining {
	i := cell*e.n + d - 1
	if c := e.offCache[i]; c != nil {
		return c
	}
	s := e.newSet()
	e.add(s, e.node(cell, d, false, -1))
	c := &seChaining{set: s, cell: cell, d: d}
	c.absurd, c.absOn, c.absOff = e.chain(s)
	e.offCache[i] = c
	return c
}

// best keeps the easiest hint: lowest score, then complexity, then sort
// key, then scan; the first found wins ties, as SE's stable sort does.
type seBest struct {
	h  *seHint
	ok bool
	// all, when set, collects every worth hint instead.
	all *[]*seHint
	// cap, when above 0, is a score that is good enough: the first hint
	// scoring no more sets done, and a static search stops there.
	cap  float64
	done bool
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
			(h.complexity == o.complexity && (h.sortKey > o.sortKey ||
				(h.sortKey == o.sortKey && h.scan >= o.scan))))) {
			return false
		}
	}
	sb.h, sb.ok = h, true
	sb.done = sb.cap > 0 && h.tenths() <= sb.cap
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
	seen := map[uint64]bool{} // by chainSig, as SE's FullChain
	total := 0
	for _, t := range targets {
		e.eachAncestor(t, func(x int32) {
			if i := e.nodes[x].nested; i != 0 && !seen[e.nestedSig[i-1]] {
				seen[e.nestedSig[i-1]] = true
				total += e.nested[i-1]
			}
		})
	}
	return total
}

// base is the producer's score before the length bonus.
func (e *seEngine) base() float64 {
	switch {
	case e.level > 0:
		return seDynamicBase + 0.5*float64(e.level)
	case e.nishio:
		return 7.5
	case e.dynamic:
		return seDynamicBase
	}
	return 8.0
}

func (e *seEngine) finish(h *seHint, flat int) *seHint {
	h.complexity = flat + e.nestedComplexity(h.targets)
	h.score = e.base() + seLengthBonus(h.complexity)
	return h
}

// seDynamicRung is the place in seProducers of the dynamic forcing
// chains without nesting, whose hints score seDynamicBase and up.
const (
	seDynamicRung = 3
	seDynamicBase = 8.5
)

// seProducer is one rung of SE's chaining ladder.
type seProducer struct {
	nishio, dynamic, multiple bool
	level                     int
	nest                      int // level 4: the nested dynamic chains' level
}

var seProducers = []seProducer{
	{}, // cycles and forcing chains
	{nishio: true, dynamic: true},
	{multiple: true},
	{dynamic: true, multiple: true}, // seDynamicRung
	{dynamic: true, multiple: true, level: 1},
	{dynamic: true, multiple: true, level: 2},
	{dynamic: true, multiple: true, level: 3},
	// SE's "experimental" rungs, all scored from 10.5: dynamic chains
	// nested in dynamic chains, the nested ones plain, then (+), then
	// with forcing chains nested in them, then multiple forcing chains.
	{dynamic: true, multiple: true, level: 4, nest: 0},
	{dynamic: true, multiple: true, level: 4, nest: 1},
	{dynamic: true, multiple: true, level: 4, nest: 2},
	{dynamic: true, multiple: true, level: 4, nest: 3},
}

// findSEChain finds the step Sudoku Explainer would take when no
// technique below chains applies: the easiest hint of the first chaining
// producer that finds one. maxLevel bounds the nesting level tried.
//
// It gives up when ctx ends, with ctx's error.
//
// In a rating past a step of dynamic forcing chains' score (b.seCap at
// least seDynamicBase), their search goes first: when it has hints that
// score no more than the cap, any of them will do (see rateSteps), and the
// easier rungs before it, which mostly find nothing at such positions,
// are not searched. Otherwise the rungs go in SE's order, the dynamic one
// not searched twice. On the SE oracle's 286 puzzles that saves about 5%
// of the time and changes no rating, nor any of top1465 or the 375
// hardest of the forum. Steps that remove more pay: a capped static
// search that takes all its hints within the cap instead of the first
// saves another 5% in all, but makes the median puzzle 40% slower; a
// capped multiple-chains search that stops at the first cell with a hint
// within the cap, nested or not, takes 10% more time. Taking, when
// every hint of a search is above the cap, all those as easy as its
// easiest (so the step scores what SE's would) saves 16%, but 6 more
// of the 1751 golden puzzles come out lower than on SE's path (8.7 as
// 8.3, 8.9 as 8.4 or 8.5, 9.1 as 9.0): the rating must follow SE's.
func findSEChain(ctx context.Context, b *board, maxLevel int) (Step, bool, error) {
	var dyn Step
	dynOK, dynDone := false, false
	if b.seCap >= seDynamicBase {
		st, ok, err := seProduce(ctx, b, seDynamicRung)
		if err != nil {
			return Step{}, false, err
		}
		if ok && st.Score <= b.seCap+0.05 { // no more than the cap, in tenths
			return st, true, nil
		}
		dyn, dynOK, dynDone = st, ok, true
	}
	for i, p := range seProducers {
		if p.level > maxLevel {
			break
		}
		if i == seDynamicRung && dynDone {
			if dynOK {
				return dyn, true, nil
			}
			continue
		}
		st, ok, err := seProduce(ctx, b, i)
		if err != nil {
			return Step{}, false, err
		}
		if ok {
			return st, true, nil
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

// seProduce runs producer i on b and returns its easiest hint as a step,
// as SE takes it, or reports that it has none.
//
// With b.seCap (a rating's hardest score so far, see rateSteps) any hint
// scoring no more will do: a static search stops at the first, and a
// multiple-chains search, which can't be cut short as cheaply, returns
// all of them as one step. When no hint is that easy, the easiest it is.
func seProduce(ctx context.Context, b *board, i int) (Step, bool, error) {
	p := seProducers[i]
	if err := ctx.Err(); err != nil {
		return Step{}, false, err
	}
	e := newSEEngine(b, p.nishio, p.dynamic, p.level)
	e.ctx, e.nest = ctx, p.nest
	best := seBest{cap: b.seCap}
	static := !p.nishio && !p.dynamic && !p.multiple
	var all []*seHint
	if b.seCap > 0 && !static {
		best.all = &all
	}
	if static {
		e.staticChains(&best)
	} else {
		e.multipleChains(&best)
	}
	if err := ctx.Err(); err != nil {
		return Step{}, false, err
	}
	if best.all != nil {
		return e.batchStep(all, p, b.seCap)
	}
	if !best.ok {
		return Step{}, false, nil
	}
	return e.step(best.h, p), true, nil
}

// batchStep makes one step of the hints that score no more than limit,
// or of the easiest hint when none does.
func (e *seEngine) batchStep(all []*seHint, p seProducer, limit float64) (Step, bool, error) {
	var easiest seBest
	var st Step
	var why []string
	for _, h := range all {
		easiest.offer(h)
		if h.tenths() > limit {
			continue
		}
		one := e.step(h, p)
		if st.Technique == "" {
			st.Technique = one.Technique
		}
		st.Score = max(st.Score, one.Score)
		st.Eliminations = append(st.Eliminations, one.Eliminations...)
		st.Placements = append(st.Placements, one.Placements...)
		if one.Explanation != "" {
			why = append(why, one.Explanation)
		}
	}
	if st.Technique != "" {
		if len(why) > 0 {
			st.Explanation = strings.Join(why, " ")
		}
		return st, true, nil
	}
	if !easiest.ok {
		return Step{}, false, nil
	}
	return e.step(easiest.h, p), true, nil
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
	case 4:
		sb.WriteString(" (+ dynamic forcing chains)")
	}
	s := sb.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// step turns a hint into a Step.
func (e *seEngine) step(h *seHint, p seProducer) Step {
	st := Step{
		Technique:    e.seName(h, p),
		Score:        h.tenths(),
		Eliminations: h.elims,
	}
	if h.place.Value != 0 {
		st.Placements = []Candidate{h.place}
	}
	if e.b.untold {
		return st
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
