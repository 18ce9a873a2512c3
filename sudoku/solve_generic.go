package sudoku

import (
	"context"
	"math/bits"
	"sync"
)

// The generic path solves every shape: N from 4 to 25, square or
// rectangular boxes. Each cell holds a bitmask of its candidates (bit v-1 for
// value v) and a flag once it is placed. Propagation does naked singles
// through a queue, hidden singles by counting, per unit and bit-sliced, the
// cells each value can take, and box-line reductions (pointing and claiming),
// which matter on the big grids. The search branches on a cell with the
// fewest candidates, weighted by how often its units led to contradictions,
// or on a value with two places left in a unit when no cell has two
// candidates. It keeps its states on a stack of fixed-size arrays that is
// reused from one solve to the next.

// placedFlag marks a cell whose value is placed; the low bits then hold that
// one value.
const placedFlag = 1 << 31

// genGeo is the precomputed geometry of a shape in the form the generic
// search wants: flat int16 tables.
type genGeo struct {
	n, size  int
	br, bc   int    // box rows and columns
	all      uint32 // every value
	np       int    // peers per cell
	peers    []int16
	cellUnit [][3]int16  // the row, column and box unit of each cell
	units    []int16     // 3n units of n cells: rows, columns, boxes
	boxLine  bool        // whether pointing and claiming pay off for this size
	segsRow  int         // boxes across: segments in a row (n/bc)
	segsCol  int         // boxes down: segments in a column (n/br)
	segOf    [MaxN]uint8 // column -> index of its box across (c/bc)
}

var genGeos sync.Map // Shape -> *genGeo

func genGeoFor(s Shape) *genGeo {
	if g, ok := genGeos.Load(s); ok {
		return g.(*genGeo)
	}
	geo := s.Geometry()
	n := s.N()
	g := &genGeo{
		n: n, size: n * n, br: s.BoxRows, bc: s.BoxCols,
		all:     uint32(1)<<n - 1,
		np:      len(geo.Peers[0]),
		boxLine: n >= 12,
		segsRow: n / s.BoxCols,
		segsCol: n / s.BoxRows,
	}
	for c := 0; c < n; c++ {
		g.segOf[c] = uint8(c / s.BoxCols)
	}
	for _, ps := range geo.Peers {
		for _, p := range ps {
			g.peers = append(g.peers, int16(p))
		}
	}
	for _, us := range geo.CellUnits {
		g.cellUnit = append(g.cellUnit, [3]int16{int16(us[0]), int16(us[1]), int16(us[2])})
	}
	for _, cells := range geo.UnitCells {
		for _, c := range cells {
			g.units = append(g.units, int16(c))
		}
	}
	v, _ := genGeos.LoadOrStore(s, g)
	return v.(*genGeo)
}

// genFrame is one state of the generic search.
type genFrame struct {
	left  int // cells not placed yet
	check int // a cell to look at first (the last branch), or -1
	cand  [MaxN * MaxN]uint32
}

// genSolver holds the reusable memory of a generic search.
type genSolver struct {
	geo    *genGeo
	frames []genFrame
	queue  [MaxN*MaxN + 1]int16 // cells with one candidate left, to place
	qn     int
	// weight[u] counts the contradictions met in unit u (plus one); the
	// branching cell minimises candidates / weight of its units.
	weight [3 * MaxN]uint32
	// root is the state after the first propagation, for the learning
	// search.
	root [MaxN * MaxN]uint32
}

// learnMinN is the smallest N that may hand over to the learning search,
// and learnAfterNodes how many backtracking nodes it gets first: the easy
// puzzles finish within that, and the hard ones lose little (a 25x25 node
// costs about 40 µs).
const (
	learnMinN       = 20
	learnAfterNodes = 200
)

// solveLearned finishes a search with the learning solver tuned by lp: it
// starts from the root state, rules out the solutions already found, and
// looks for the rest up to limit.
func (sv *genSolver) solveLearned(stop *stopper, g *Grid, sols []*Grid, st Stats, limit int, lp learnParams) ([]*Grid, Stats, bool) {
	s, ok := newLearner(sv.geo, sv.root[:sv.geo.size], stop, lp)
	ok = ok && s.compact()
	// Setting up takes milliseconds: look at the clock before going on.
	cancelled := stop.stopped()
	ok = ok && !cancelled
	if ok {
		for _, sol := range sols {
			if ok = s.blockGrid(sol); !ok {
				break
			}
		}
	}
	for ok && len(sols) < limit {
		r := s.solve()
		if r != learnSat {
			cancelled = r == learnStopped
			break
		}
		out := g.Clone()
		s.cells(out.Cells)
		sols = append(sols, out)
		ok = len(sols) < limit && s.block()
	}
	st.Nodes += s.decisions + s.conflicts
	st.Guesses += s.decisions
	return sols, st, cancelled
}

// pickHidden finds a value with exactly two places left in some unit (the
// unit of most weight having one) and returns the first place and the value.
// When no cell has two candidates, branching there is still a two-way
// choice: the value goes in the first place, or it leaves it and goes in the
// second.
func (sv *genSolver) pickHidden(f *genFrame) (cell int, bit uint32, ok bool) {
	geo := sv.geo
	n := geo.n
	bestW := uint32(0)
	for u := 0; u < 3*n; u++ {
		if sv.weight[u] <= bestW {
			continue
		}
		cells := geo.units[u*n : (u+1)*n]
		var once, twice, three uint32
		for _, c := range cells {
			x := f.cand[c]
			x &^= uint32(int32(x) >> 31)
			three |= twice & x
			twice |= once & x
			once |= x
		}
		if two := twice &^ three; two != 0 {
			b := two & -two
			for _, c := range cells {
				if x := f.cand[c]; x&b != 0 && x&placedFlag == 0 {
					cell, bit, bestW, ok = int(c), b, sv.weight[u], true
					break
				}
			}
		}
	}
	return cell, bit, ok
}

func (sv *genSolver) failCell(c int) {
	for _, u := range sv.geo.cellUnit[c] {
		sv.weight[u]++
	}
}

var genSolverPool = sync.Pool{New: func() any { return new(genSolver) }}

// ctxCheckGeneric is how many generic nodes pass between two looks at the
// context: a node of a 25x25 costs tens of microseconds, a look a few
// nanoseconds.
const ctxCheckGeneric = 4

// solveGeneric searches any valid shape (values already checked).
func solveGeneric(ctx context.Context, g *Grid, opts SolveOptions, limit int) (sols []*Grid, st Stats, cancelled bool) {
	after := int64(-1)
	if g.N() >= learnMinN {
		after = learnAfterNodes
	}
	return solveGenericLearn(ctx, g, opts, limit, after, defaultLearnParams())
}

// solveGenericLearn is solveGeneric handing over to the learning search,
// tuned by lp, after learnAfter nodes (at least one), or never when
// learnAfter < 0.
func solveGenericLearn(ctx context.Context, g *Grid, opts SolveOptions, limit int, learnAfter int64, lp learnParams) (sols []*Grid, st Stats, cancelled bool) {
	sv := genSolverPool.Get().(*genSolver)
	defer genSolverPool.Put(sv)
	geo := genGeoFor(g.Shape)
	sv.geo = geo
	sv.qn = 0
	for i := range sv.weight {
		sv.weight[i] = 1
	}
	if len(sv.frames) < 2 {
		sv.frames = make([]genFrame, 2, 16)
	}
	f := &sv.frames[0]
	f.left, f.check = geo.size, -1
	for i := 0; i < geo.size; i++ {
		f.cand[i] = geo.all
	}
	if g.Marks != nil {
		// Pencil marks restrict the empty cells they are on.
		for cell, m := range g.Marks[:min(len(g.Marks), geo.size)] {
			if m == 0 || g.Cells[cell] != 0 {
				continue
			}
			x := f.cand[cell] & m
			if x == 0 {
				return nil, st, false
			}
			f.cand[cell] = x
			if x&(x-1) == 0 {
				sv.queue[sv.qn] = int16(cell)
				sv.qn++
			}
		}
	}
	for cell, v := range g.Cells {
		if v == 0 {
			continue
		}
		bit := uint32(1) << (v - 1)
		if f.cand[cell]&bit == 0 || !sv.assign(f, cell, bit) {
			sv.qn = 0
			return nil, st, false // clashing givens
		}
	}
	stop := newStopper(ctx, opts.Deadline)
	// The big grids hand over to the learning search (solve_learn.go) when
	// backtracking has not finished within a budget of nodes: it needs the
	// root state, saved after the first propagation.
	learn := opts.Rand == nil && learnAfter >= 0
	learnAfter = max(learnAfter, 1)
	if learn {
		// The learning search's tables take milliseconds to build, once
		// per shape: better now than near the deadline.
		learnShapeFor(geo)
	}
	sp := 0
	for {
		f := &sv.frames[sp]
		st.Nodes++
		if st.Nodes%ctxCheckGeneric == 0 && stop.stopped() {
			return sols, st, true
		}
		if learn && st.Nodes > learnAfter {
			return sv.solveLearned(&stop, g, sols, st, limit, lp)
		}
		ok := sv.propagate(f)
		if st.Nodes == 1 && learn {
			copy(sv.root[:geo.size], f.cand[:geo.size])
			if !ok {
				learn = false
			}
		}
		if ok {
			if f.left == 0 {
				sols = append(sols, sv.grid(f, g))
				if len(sols) >= limit {
					return sols, st, false
				}
			} else {
				cell, cands := sv.pick(f)
				bit := cands & -cands
				if bits.OnesCount32(cands) > 2 {
					if c2, b2, ok := sv.pickHidden(f); ok {
						cell, cands, bit = c2, f.cand[c2], b2
					}
				}
				if opts.Rand != nil {
					for k := opts.Rand.IntN(bits.OnesCount32(cands)); k > 0; k-- {
						cands &= cands - 1
					}
					bit = cands & -cands
				}
				if sp+1 >= len(sv.frames) {
					sv.frames = append(sv.frames, genFrame{})
					f = &sv.frames[sp]
				}
				next := &sv.frames[sp+1]
				next.left, next.check = f.left, cell
				copy(next.cand[:geo.size], f.cand[:geo.size])
				next.cand[cell] = bit
				f.cand[cell] &^= bit
				f.check = cell
				sp++
				st.Guesses++
				continue
			}
		}
		if sp == 0 {
			return sols, st, false
		}
		sp--
	}
}

// assign places the single value bit in cell and takes it from the peers,
// queueing peers left with one candidate. It reports false when a peer is
// left with none.
func (sv *genSolver) assign(f *genFrame, cell int, bit uint32) bool {
	geo := sv.geo
	f.cand[cell] = bit | placedFlag
	f.left--
	for _, p := range geo.peers[cell*geo.np : (cell+1)*geo.np] {
		c := f.cand[p]
		if c&bit == 0 {
			continue
		}
		// A placed peer never holds bit: placing it took bit from cell.
		c &^= bit
		f.cand[p] = c
		if c&(c-1) == 0 {
			if c == 0 {
				sv.failCell(int(p))
				return false
			}
			sv.queue[sv.qn] = int16(p)
			sv.qn++
		}
	}
	return true
}

// remove takes the values e from an unplaced cell, queueing it when one
// candidate is left. It reports false when none is.
func (sv *genSolver) remove(f *genFrame, cell int, e uint32) (ok, changed bool) {
	c := f.cand[cell]
	if c&placedFlag != 0 || c&e == 0 {
		return true, false
	}
	c &^= e
	f.cand[cell] = c
	if c&(c-1) == 0 {
		if c == 0 {
			sv.failCell(cell)
			return false, true
		}
		sv.queue[sv.qn] = int16(cell)
		sv.qn++
	}
	return true, true
}

// propagate applies naked singles, hidden singles and box-line reductions
// until nothing changes. It reports false on a contradiction. The queue is
// empty when it returns.
func (sv *genSolver) propagate(f *genFrame) bool {
	ok := sv.propagate1(f)
	sv.qn = 0
	return ok
}

func (sv *genSolver) propagate1(f *genFrame) bool {
	geo := sv.geo
	n := geo.n
	if c := f.check; c >= 0 {
		f.check = -1
		x := f.cand[c]
		if x == 0 {
			return false
		}
		if x&placedFlag == 0 && x&(x-1) == 0 {
			sv.queue[sv.qn] = int16(c)
			sv.qn++
		}
	}
	for {
		for sv.qn > 0 {
			sv.qn--
			c := int(sv.queue[sv.qn])
			x := f.cand[c]
			if x&placedFlag != 0 {
				continue
			}
			if x == 0 {
				return false
			}
			if !sv.assign(f, c, x) {
				return false
			}
		}
		if f.left == 0 {
			return true
		}
		// Hidden singles, and units that lost a value entirely.
		for u := 0; u < 3*n; u++ {
			cells := geo.units[u*n : (u+1)*n]
			var once, twice, placed uint32
			for _, c := range cells {
				x := f.cand[c]
				p := uint32(int32(x) >> 31) // all ones when placed
				placed |= x & p
				x &^= p
				twice |= once & x
				once |= x
			}
			placed &^= placedFlag
			if once|placed != geo.all {
				sv.weight[u]++
				return false
			}
			for hid := once &^ twice; hid != 0; hid &= hid - 1 {
				bit := hid & -hid
				found := false
				for _, c := range cells {
					x := f.cand[c]
					if x&bit != 0 && x&placedFlag == 0 {
						if x != bit {
							f.cand[c] = bit
							sv.queue[sv.qn] = c
							sv.qn++
						}
						found = true
						break
					}
				}
				if !found {
					// Another value hidden in the same cell took it.
					sv.weight[u]++
					return false
				}
			}
		}
		if sv.qn > 0 {
			continue
		}
		if !geo.boxLine {
			return true
		}
		ok, changed := sv.boxLine(f)
		if !ok {
			return false
		}
		if !changed {
			return true
		}
	}
}

// boxLine applies pointing (a value confined to one line inside a box leaves
// the rest of that line) and claiming (a value confined to one box inside a
// line leaves the rest of that box), for rows and columns.
func (sv *genSolver) boxLine(f *genFrame) (ok, changed bool) {
	geo := sv.geo
	n, br, bc := geo.n, geo.br, geo.bc
	// rowSeg[r][k]: values open in row r inside the k-th box across;
	// colSeg[c][j]: values open in column c inside the j-th box down. One
	// pass over the grid fills both; placed cells count for nothing.
	var rowSeg, colSeg [MaxN][MaxN]uint32
	for r := 0; r < n; r++ {
		j := r / br
		for c, x := range f.cand[r*n : r*n+n] {
			x &^= uint32(int32(x) >> 31)
			rowSeg[r][geo.segOf[c]] |= x
			colSeg[c][j] |= x
		}
	}
	for pass := 0; pass < 2; pass++ {
		// pass 0: rows (segments along a row are bc long, a box has br of
		// them stacked); pass 1: columns.
		segLen, stack, nseg := bc, br, geo.segsRow
		lineStride, posStride := n, 1
		seg := &rowSeg
		if pass == 1 {
			segLen, stack, nseg = br, bc, geo.segsCol
			lineStride, posStride = 1, n
			seg = &colSeg
		}
		for line := 0; line < n; line++ {
			var once, twice uint32
			for _, m := range seg[line][:nseg] {
				twice |= once & m
				once |= m
			}
			// Claiming: values of this line confined to one segment leave
			// the other lines of that box.
			only := once &^ twice
			for k := 0; only != 0 && k < nseg; k++ {
				e := seg[line][k] & only
				if e == 0 {
					continue
				}
				only &^= e
				first := line / stack * stack
				for l := first; l < first+stack; l++ {
					if l == line {
						continue
					}
					for pos := k * segLen; pos < (k+1)*segLen; pos++ {
						o, ch := sv.remove(f, l*lineStride+pos*posStride, e)
						if !o {
							return false, true
						}
						changed = changed || ch
					}
				}
			}
		}
		// Pointing: inside a box, values confined to one of its lines leave
		// the rest of that line.
		for first := 0; first < n; first += stack {
			for k := 0; k < nseg; k++ {
				var once, twice uint32
				for l := first; l < first+stack; l++ {
					m := seg[l][k]
					twice |= once & m
					once |= m
				}
				only := once &^ twice
				for l := first; only != 0 && l < first+stack; l++ {
					e := seg[l][k] & only
					if e == 0 {
						continue
					}
					only &^= e
					for pos := 0; pos < n; pos++ {
						if pos/segLen == k {
							continue
						}
						o, ch := sv.remove(f, l*lineStride+pos*posStride, e)
						if !o {
							return false, true
						}
						changed = changed || ch
					}
				}
			}
		}
	}
	return true, changed
}

// pick returns the unplaced cell that minimises its number of candidates
// divided by the weight of its units (the "dom/wdeg" rule: units where the
// search keeps failing are where the puzzle is hard, so decide them first),
// and its candidates.
func (sv *genSolver) pick(f *genFrame) (cell int, cands uint32) {
	bestK, bestW := uint32(99), uint32(1)
	for i, x := range f.cand[:sv.geo.size] {
		if x&placedFlag != 0 {
			continue
		}
		k := uint32(bits.OnesCount32(x))
		us := &sv.geo.cellUnit[i]
		w := sv.weight[us[0]] + sv.weight[us[1]] + sv.weight[us[2]]
		if k*bestW < bestK*w {
			bestK, bestW, cell, cands = k, w, i, x
		}
	}
	return cell, cands
}

// grid returns the solved frame as a copy of g with every cell filled.
func (sv *genSolver) grid(f *genFrame, g *Grid) *Grid {
	out := g.Clone()
	for i, x := range f.cand[:sv.geo.size] {
		out.Cells[i] = uint8(bits.TrailingZeros32(x&^placedFlag) + 1)
	}
	return out
}
