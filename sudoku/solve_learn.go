package sudoku

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
)

// The learning search: conflict-driven clause learning (CDCL) specialised to
// Sudoku, for the big grids where plain backtracking revisits the same dead
// ends (the minimal 25x25 puzzles). What was tried on the way, with the
// figures that kept or dropped it, is in docs/solver-experiments.md.
//
// A variable is "cell c holds value v" (index c*n+v). Every constraint of
// the puzzle is a group of n variables of which exactly one is true: the
// values of a cell, and the cells of a row, column or box for one value.
// Groups are propagated natively rather than as clauses: a variable set true
// makes its peers in its four groups false (the reason is the binary clause
// "not both"), and a group left with one variable not false makes it true
// (the reason is the group itself, "at least one"). Box-line reductions
// (pointing and claiming) are propagated natively too, read off the
// groups' masks (see the sides in learner). Only learned clauses go
// through two watched literals.
//
// Conflicts are analysed to the first unique implication point; the learned
// clause is minimised and shrunk (each level's literals replaced by one when
// the reasons allow: a group's reason names many variables), and the search
// jumps back. Decisions follow VSIDS activity with saved phases. Learned
// clauses of poor quality (high LBD, low activity) are dropped now and then.
//
// Until the first solution the search is in stable mode, made for finding
// one: restarts on a Luby sequence, decisions from the target phases (those
// of the longest conflict-free trail seen). After it, the search is in
// focused mode, made for proofs: Glucose's restarts (when the LBD of recent
// learned clauses runs above its long-run average). Both hold back a restart
// at a conflict whose trail is much longer than usual. The tuning is one
// learnParams value; Solve uses defaultLearnParams.
//
// The root state comes from the generic propagation (singles and box-line
// reductions), so the clauses start from the same facts the backtracking
// search has. Solutions are enumerated by blocking each one found with a
// clause ("some cell differs") and going on: when the search then proves the
// rest unsatisfiable, the solutions found are all there are.

// learnParams tunes the learning search. The search reads it, never
// changes it; defaultLearnParams is what Solve uses, and tests and
// experiments pass others.
type learnParams struct {
	// stableLuby is the unit, in conflicts, of stable mode's Luby restarts.
	stableLuby int64
	// ema is Glucose's restart margin in focused mode: restart when the
	// recent LBDs average more than ema times the long-run average.
	ema float64
	// blockR holds back a restart (from 10,000 conflicts on) at a conflict
	// whose trail is blockR times as long as the recent average: such a
	// trail may be close to a solution (Glucose's restart blocking).
	blockR float64
	// reduceBase and reduceInc space the reductions of the learned
	// clauses: the next comes after reduceBase conflicts plus reduceInc per
	// thousand clauses kept.
	reduceBase, reduceInc int64
	// varDecay is VSIDS's decay of variable activity per conflict.
	varDecay float64
	// maxConflicts stops the search (learnStopped) after that many
	// conflicts.
	maxConflicts int64
	// seed, when not 0, starts the variables' activities at small random
	// values drawn from it: the run-to-run spread that experiments on the
	// heavy-tailed first solutions measure over.
	seed uint64
	// onLearn, when set, is handed each learned clause (tests check them
	// against a known solution).
	onLearn func(learnt []lit)
}

// defaultLearnParams returns the tuning Solve uses.
func defaultLearnParams() learnParams {
	return learnParams{
		stableLuby:   1024,
		ema:          1.25,
		blockR:       1.4,
		reduceBase:   2000,
		reduceInc:    300,
		varDecay:     0.95,
		maxConflicts: math.MaxInt64,
	}
}

// Literals: 2*v for "v is true", 2*v+1 for "v is false".
type lit = int32

// Reasons, in one int32: 0 for none (decision or root), 1..nv for "made
// false by variable r-1 being true" (a group peer), nv+1..nv+ng for "made
// true as the last of group r-nv-1", then one code per box-line side ("made
// false because side k is empty", from sideBase), then the learned clauses
// (clBase plus the clause's offset in the arena). A conflict is returned as
// the code of a clause whose literals are all false; for a peer or side
// conflict, the true variable that clashes is in confPeer.

// gTrue is the bit of a group's mask that says one of its variables is
// true (groups have at most 31 variables).
const gTrue = 1 << 31

// Learned clauses live in one arena of uint16 (a literal fits: 2*nv is at
// most 31,250): at offset cref a header of clHead words (size, LBD,
// flags, activity as float32 bits in two words, where the last search for
// a watch stopped), then the literals; lits[0] and lits[1] are watched.
const (
	clHead     = 6
	clBlocking = 1 // a solution's blocking clause: never dropped
)

type varInfo struct {
	level, reason int32
}

// alit is a literal as the arena and the groups store it.
type alit = uint16

// The largest literal fits an alit: this fails to compile if MaxN grows
// too large for it.
const _ = alit(2*MaxN*MaxN*MaxN - 1)

// A side's index fits bitSide's uint16: there are two sides for each box,
// line through it and value, 2n²(br+bc), and br+bc is at most n+1.
const _ = uint16(2*MaxN*MaxN*(MaxN+1) + 1)

type watcher struct {
	cref    int32
	blocker lit
}

// sideCheck is a side of a group: the side is empty when the group's mask
// has no bit outside cross (the bits of the variables where the box and
// the line cross).
type sideCheck struct {
	cross uint32
	side  int32
}

type learner struct {
	n, nv, ng int
	grp       []int32    // the variables of the groups, group g at grpOff[g]
	grpOff    []int32    // ng+1 offsets into grp
	grpLit    []alit     // grp as literals ("w is true"): the groups' clauses
	varGrp    [][4]int32 // the four groups of each variable

	// Box-line reasoning: for each box, line through it and value, the
	// box outside the line and the line outside the box are sides 2k and
	// 2k+1. When one side has no variable left that is not false, the
	// value is where box and line cross, so the other side is all false
	// (the clause: not w, or the value somewhere on the first side). A
	// side is part of a group (the box's or the line's, for its value),
	// so it is empty when the group's mask has no bit outside the
	// crossing: each group lists its sides with the crossing's bits
	// (grpSide), and the group masks, kept for the groups anyway, tell
	// at once when one empties. (Watching a variable of each side, as
	// clauses are watched, moved watches on most assignments and cost a
	// fifth of the search's time.)
	nside   int
	sideOff []int32 // side k is sideVar[sideOff[k]:sideOff[k+1]]
	sideVar []int32
	sideGrp []int32     // the group each side is part of
	grpSide []sideCheck // the groups' sides, group by group
	// bitSide lists, for each variable of each group (indexed as grp),
	// the group's sides whose crossing holds it: 1 + the side's index in
	// grpSide, 0 for none. A cell is on one row and one column,
	// so a variable of a box's group is in the crossings of two sides,
	// and one of a line's group in one.
	bitSide  [][2]uint16
	sideBase int32 // reason code of side 0
	clBase   int32 // reason code of the clause at arena offset 0

	val  []int8 // +1 true, -1 false, 0 open
	lval []int8 // the same by literal
	// vinfo holds each variable's decision level and reason (together:
	// they are read and written together).
	vinfo []varInfo
	// gmask has, per group, a bit for each of its variables that is not
	// false (bit i for the i-th in grp); gpos is each variable's bit in
	// its four groups (varGrp's order). A group down to one bit names its
	// last variable at once. A group with a variable true has bit gTrue
	// set as well: it has nothing left to propagate, and the bit keeps it
	// from looking so.
	gmask []uint32
	gpos  [][4]uint8
	trail []lit
	lim   []int32 // trail length at the start of each level
	qhead int

	arena   []alit
	nlearnt int
	watches [][]watcher // by the literal whose falsity wakes them

	act    []float64
	varInc float64
	heap   []int32 // binary max-heap of variables by act
	hpos   []int32 // position in heap, -1 when absent
	phase  []int8
	// target holds the values of the longest conflict-free trail seen
	// (of targetLen literals) since the last reset: stable mode decides
	// with it (CaDiCaL's target phases).
	target    []int8
	targetLen int

	claInc float64
	seen   []uint8
	stack  []lit
	learnt []lit
	buf    []alit
	toClr  []int32

	// The peers of each variable open at the root (no repeats), set up
	// by compact: the variables of its groups but itself.
	peerOff, peerVar []int32

	shr     []uint8 // marks of shrink
	shrMark []int32
	shrBuf  []alit

	confPeer             int32 // the true variable of a peer or side conflict
	blocked              bool  // a solution has been blocked
	conflicts, decisions int64
	stop                 *stopper
	p                    learnParams
}

// learnShape is the part of a learner that depends on the shape only: the
// groups and the box-line sides before compaction. It is built once per
// shape and shared, read-only.
type learnShape struct {
	grp, grpOff      []int32
	varGrp           [][4]int32
	sideOff, sideVar []int32
	sideGrp          []int32 // the group each side is part of
}

var learnShapes sync.Map // Shape -> *learnShape

func learnShapeFor(geo *genGeo) *learnShape {
	key := Shape{geo.br, geo.bc}
	if ls, ok := learnShapes.Load(key); ok {
		return ls.(*learnShape)
	}
	n, size := geo.n, geo.size
	nv, ng := size*n, size+3*n*n
	ls := &learnShape{grp: make([]int32, 0, ng*n)}
	for c := 0; c < size; c++ {
		for v := 0; v < n; v++ {
			ls.grp = append(ls.grp, int32(c*n+v))
		}
	}
	for u := 0; u < 3*n; u++ {
		cells := geo.units[u*n : (u+1)*n]
		for v := 0; v < n; v++ {
			for _, c := range cells {
				ls.grp = append(ls.grp, int32(int(c)*n+v))
			}
		}
	}
	ls.grpOff = make([]int32, ng+1)
	for g := range ls.grpOff {
		ls.grpOff[g] = int32(g * n)
	}
	ls.varGrp = make([][4]int32, nv)
	k := make([]uint8, nv)
	for g := 0; g < ng; g++ {
		for _, x := range ls.grp[g*n : (g+1)*n] {
			ls.varGrp[x][k[x]] = int32(g)
			k[x]++
		}
	}
	ls.buildSides(geo)
	v, _ := learnShapes.LoadOrStore(key, ls)
	return v.(*learnShape)
}

// newLearner builds the solver for shape geo with root candidates cand
// (bitmask per cell, placedFlag ignored). The root is propagated without
// the box-line sides, which compact sets up.
func newLearner(geo *genGeo, cand []uint32, stop *stopper, p learnParams) (*learner, bool) {
	n, size := geo.n, geo.size
	s := &learner{n: n, nv: size * n, ng: size + 3*n*n, stop: stop, p: p}
	sh := learnShapeFor(geo)
	s.grp, s.grpOff, s.varGrp = sh.grp, slices.Clone(sh.grpOff), sh.varGrp
	s.grpLit = groupLits(s.grp)
	s.sideOff, s.sideVar, s.sideGrp = slices.Clone(sh.sideOff), sh.sideVar, sh.sideGrp
	s.nside = len(s.sideOff) - 1
	s.sideBase = int32(s.nv + s.ng + 1)
	s.clBase = s.sideBase + int32(s.nside)
	s.val = make([]int8, s.nv)
	s.lval = make([]int8, 2*s.nv)
	s.vinfo = make([]varInfo, s.nv)
	s.gmask = make([]uint32, s.ng)
	s.bitSide = make([][2]uint16, len(s.grp))
	s.gpos = make([][4]uint8, s.nv)
	s.indexGroups()
	s.trail = make([]lit, 0, s.nv)
	s.watches = make([][]watcher, 2*s.nv)
	s.act = make([]float64, s.nv)
	s.varInc = 1
	s.claInc = 1
	s.phase = make([]int8, s.nv)
	s.target = make([]int8, s.nv)
	s.seen = make([]uint8, s.nv)
	s.shr = make([]uint8, s.nv)
	s.hpos = make([]int32, s.nv)
	for i := range s.hpos {
		s.hpos[i] = -1
	}
	for c := 0; c < size; c++ {
		x := cand[c] &^ placedFlag
		for v := 0; v < n; v++ {
			if x>>v&1 == 0 {
				if s.val[c*n+v] == 0 {
					s.assign(lit(2*(c*n+v)+1), 0)
				} else if s.val[c*n+v] > 0 {
					return s, false
				}
			}
		}
	}
	if s.propagate() >= 0 {
		return s, false
	}
	if p.seed != 0 {
		// An experiment's perturbation of the first decisions' order.
		r := rand.New(rand.NewPCG(p.seed, 0))
		for v := range s.act {
			s.act[v] = r.Float64() * 1e-3
		}
	}
	for v := 0; v < s.nv; v++ {
		if s.val[v] == 0 {
			s.heapInsert(int32(v))
		}
	}
	return s, true
}

// groupLits returns the literals "w is true" of the variables of grp.
func groupLits(grp []int32) []alit {
	ls := make([]alit, len(grp))
	for i, w := range grp {
		ls[i] = alit(2 * w)
	}
	return ls
}

// indexGroups sets gpos from grp and gmask from the values: bit i of a
// group's mask is its i-th variable, set while that is not false.
func (s *learner) indexGroups() {
	for g := 0; g < s.ng; g++ {
		var m uint32
		for i, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
			for k, h := range s.varGrp[w] {
				if h == int32(g) {
					s.gpos[w][k] = uint8(i)
				}
			}
			if s.val[w] >= 0 {
				m |= 1 << i
			}
			if s.val[w] > 0 {
				m |= gTrue
			}
		}
		s.gmask[g] = m
	}
}

// buildSides lists the box-line sides of every box, line and value.
func (ls *learnShape) buildSides(geo *genGeo) {
	n, br, bc := geo.n, geo.br, geo.bc
	var sides [][]int32  // cells
	var units [][2]int16 // of each pair of sides: the box's and the line's
	for r0 := 0; r0 < n; r0 += br {
		for c0 := 0; c0 < n; c0 += bc {
			inBox := func(r, c int) bool { return r >= r0 && r < r0+br && c >= c0 && c < c0+bc }
			for line := 0; line < br+bc; line++ {
				var a, b []int32
				for r := 0; r < n; r++ {
					for c := 0; c < n; c++ {
						onLine := line < br && r == r0+line || line >= br && c == c0+line-br
						switch {
						case inBox(r, c) && !onLine:
							a = append(a, int32(r*n+c))
						case !inBox(r, c) && onLine:
							b = append(b, int32(r*n+c))
						}
					}
				}
				if len(a) > 0 && len(b) > 0 {
					sides = append(sides, a, b)
					var lu int16
					if line < br {
						lu = geo.cellUnit[(r0+line)*n+c0][0]
					} else {
						lu = geo.cellUnit[r0*n+c0+line-br][1]
					}
					units = append(units, [2]int16{geo.cellUnit[r0*n+c0][2], lu})
				}
			}
		}
	}
	ls.sideOff = make([]int32, 0, len(sides)*n+1)
	for i := 0; i < len(sides); i += 2 {
		for v := 0; v < n; v++ {
			for j, side := range sides[i : i+2] {
				ls.sideGrp = append(ls.sideGrp, int32(geo.size+int(units[i/2][j])*n+v))
				ls.sideOff = append(ls.sideOff, int32(len(ls.sideVar)))
				for _, c := range side {
					ls.sideVar = append(ls.sideVar, c*int32(n)+int32(v))
				}
			}
		}
	}
	ls.sideOff = append(ls.sideOff, int32(len(ls.sideVar)))
}

func (s *learner) assign(p lit, r int32) {
	v := p >> 1
	s.lval[p], s.lval[p^1] = 1, -1
	// The four groups are written out rather than looped over, and a
	// bit's shift is masked to 31 (gpos is below 31): this is the hottest
	// code of the search, and with the loop's copy of varGrp[v] and the
	// shift's check for counts of 32 and up it took 60% more
	// instructions.
	gm, vg := s.gmask, &s.varGrp[v]
	if p&1 == 0 {
		s.val[v] = 1
		gm[vg[0]] |= gTrue
		gm[vg[1]] |= gTrue
		gm[vg[2]] |= gTrue
		gm[vg[3]] |= gTrue
	} else {
		s.val[v] = -1
		gp := &s.gpos[v]
		gm[vg[0]] &^= 1 << (gp[0] & 31)
		gm[vg[1]] &^= 1 << (gp[1] & 31)
		gm[vg[2]] &^= 1 << (gp[2] & 31)
		gm[vg[3]] &^= 1 << (gp[3] & 31)
	}
	s.vinfo[v] = varInfo{int32(len(s.lim)), r}
	s.trail = append(s.trail, p)
}

// propagate runs unit propagation over the trail. It returns -1, or a
// conflict code: 1..nv peer conflict (with s.confPeer), group, or clause.
func (s *learner) propagate() int32 {
	nv := int32(s.nv)
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		v := p >> 1
		if p&1 == 0 {
			// v true: its peers become false.
			if s.peerOff != nil {
				for _, w := range s.peerVar[s.peerOff[v]:s.peerOff[v+1]] {
					switch s.val[w] {
					case 0:
						s.assign(2*w+1, v+1)
					case 1:
						s.confPeer = w
						return v + 1
					}
				}
				goto clauses
			}
			for _, g := range s.varGrp[v] {
				for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
					if w == v {
						continue
					}
					switch s.val[w] {
					case 0:
						s.assign(2*w+1, v+1)
					case 1:
						s.confPeer = w
						return v + 1
					}
				}
			}
		} else {
			// v false: a group may be down to one.
			vg := &s.varGrp[v]
			for k := 0; k < 4; k++ {
				g := vg[k]
				m := s.gmask[g]
				if m&(m-1) != 0 {
					continue
				}
				if m == 0 {
					return nv + 1 + g
				}
				if w := s.grp[s.grpOff[g]+int32(bits.TrailingZeros32(m))]; s.val[w] == 0 {
					s.assign(2*w, nv+1+g)
				}
			}
			// A side v emptied empties the other side.
			if c := s.sides(v); c >= 0 {
				return c
			}
		}
	clauses:
		// Learned clauses watching the literal that became false.
		if c := s.propagateClauses(p ^ 1); c >= 0 {
			return c
		}
	}
	return -1
}

// sides propagates the sides that v, just made false, may have emptied:
// in each of v's groups, those whose crossing holds every variable of the
// group still not false, when v was not in the crossing (so the side was
// not empty before). It returns -1 or a conflict. Until compact lists
// the sides, every group has none.
func (s *learner) sides(v int32) int32 {
	vg, gp, gm := &s.varGrp[v], &s.gpos[v], s.gmask
	for j := 1; j < 4; j++ { // the cell's group (0) has no sides
		g := vg[j]
		m := gm[g] &^ gTrue
		if m&(m-1) == 0 {
			// One variable left (or none): the group's own propagation
			// makes it true, and its peers take in the other side.
			continue
		}
		// A side now empty holds all of m, so also m's lowest bit: only
		// the (at most two) sides whose crossing holds that bit need a
		// look.
		for _, si := range s.bitSide[s.grpOff[g]+int32(bits.TrailingZeros32(m))] {
			if si == 0 {
				break
			}
			e := s.grpSide[si-1]
			if m&^e.cross != 0 || 1<<(gp[j]&31)&e.cross != 0 {
				continue
			}
			o := e.side ^ 1
			code := s.sideBase + e.side
			for _, w := range s.sideVar[s.sideOff[o]:s.sideOff[o+1]] {
				switch s.val[w] {
				case 0:
					s.assign(2*w+1, code)
				case 1:
					s.confPeer = w
					return code
				}
			}
		}
	}
	return -1
}

func (s *learner) propagateClauses(f lit) int32 {
	ws := s.watches[f]
	if len(ws) == 0 {
		// A literal that wakes no clause skips the list's write back.
		return -1
	}
	lv := s.lval
	i, j := 0, 0
	base := s.clBase
	for i < len(ws) {
		w := ws[i]
		i++
		if lv[w.blocker] > 0 {
			ws[j] = w
			j++
			continue
		}
		size := int32(s.arena[w.cref])
		ls := s.arena[w.cref+clHead : w.cref+clHead+size]
		if lit(ls[0]) == f {
			ls[0], ls[1] = ls[1], alit(f)
		}
		first := lit(ls[0])
		if first != w.blocker && lv[first] > 0 {
			ws[j] = watcher{w.cref, first}
			j++
			continue
		}
		// Look for a new watch from where the last search stopped, then
		// from the start: the literals just after the watches tend to
		// be the ones made false last time (Gent's circular search).
		pos := int32(s.arena[w.cref+5])
		if pos < 2 || pos >= size {
			pos = 2
		}
		k := pos
		for ; k < size && lv[ls[k]] < 0; k++ {
		}
		if k == size {
			for k = 2; k < pos && lv[ls[k]] < 0; k++ {
			}
			if k == pos {
				k = size
			}
		}
		if k < size {
			ls[1], ls[k] = ls[k], alit(f)
			s.arena[w.cref+5] = alit(k)
			s.watches[ls[1]] = append(s.watches[ls[1]], watcher{w.cref, first})
			continue
		}
		ws[j] = watcher{w.cref, first}
		j++
		if lv[first] < 0 {
			for i < len(ws) {
				ws[j] = ws[i]
				i++
				j++
			}
			s.watches[f] = ws[:j]
			return base + w.cref
		}
		s.assign(first, base+w.cref)
	}
	s.watches[f] = ws[:j]
	return -1
}

// clauseLits returns the literals of the clause at cref.
func (s *learner) clauseLits(cref int32) []alit {
	return s.arena[cref+clHead : cref+clHead+int32(s.arena[cref])]
}

// clauseLBD and clauseFlags read the clause header at cref; clauseNext
// is the offset of the next clause.
func (s *learner) clauseLBD(cref int32) int32   { return int32(s.arena[cref+1]) }
func (s *learner) clauseFlags(cref int32) int32 { return int32(s.arena[cref+2]) }
func (s *learner) clauseNext(cref int32) int32  { return cref + clHead + int32(s.arena[cref]) }

// reasonLits returns the literals of the clause behind code r, all false
// but p, the literal it made true (-1 for a conflict), which may be
// among them: a group's or a learned clause's literals are returned as
// they are, not copied.
func (s *learner) reasonLits(r int32, p lit) []alit {
	nv, ng := int32(s.nv), int32(s.ng)
	buf := s.buf[:0]
	switch {
	case r <= nv:
		buf = append(buf, alit(2*(r-1)+1))
		if p < 0 {
			buf = append(buf, alit(2*s.confPeer+1))
		}
	case r <= nv+ng:
		g := r - nv - 1
		return s.grpLit[s.grpOff[g]:s.grpOff[g+1]]
	case r < s.clBase:
		k := r - s.sideBase
		if p < 0 {
			buf = append(buf, alit(2*s.confPeer+1))
		}
		for _, u := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			buf = append(buf, alit(2*u))
		}
	default:
		cref := r - s.clBase
		if s.clauseLBD(cref) > 2 {
			s.bumpClause(cref)
		}
		return s.clauseLits(cref)
	}
	s.buf = buf
	return buf
}

func (s *learner) clauseAct(cref int32) float32 {
	return math.Float32frombits(uint32(s.arena[cref+3]) | uint32(s.arena[cref+4])<<16)
}

func (s *learner) setClauseAct(cref int32, a float32) {
	b := math.Float32bits(a)
	s.arena[cref+3], s.arena[cref+4] = alit(b), alit(b>>16)
}

func (s *learner) bumpClause(cref int32) {
	a := s.clauseAct(cref) + float32(s.claInc)
	s.setClauseAct(cref, a)
	if a > 1e20 {
		for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
			s.setClauseAct(c, s.clauseAct(c)*1e-20)
		}
		s.claInc *= 1e-20
	}
}

func (s *learner) bumpVar(v int32) {
	s.act[v] += s.varInc
	if s.act[v] > 1e100 {
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.hpos[v] >= 0 {
		s.heapUp(s.hpos[v])
	}
}

// analyze turns conflict confl into a learned clause (asserting literal
// first) and returns it with the level to jump back to.
func (s *learner) analyze(confl int32) ([]lit, int32) {
	s.learnt = append(s.learnt[:0], 0)
	cur := int32(len(s.lim))
	pathC := 0
	p := lit(-1)
	idx := len(s.trail) - 1
	for {
		for _, q16 := range s.reasonLits(confl, p) {
			q := lit(q16)
			v := q >> 1
			if s.seen[v] == 0 && s.vinfo[v].level > 0 && q != p {
				s.bumpVar(v)
				s.seen[v] = 1
				if s.vinfo[v].level >= cur {
					pathC++
				} else {
					s.learnt = append(s.learnt, q)
				}
			}
		}
		for s.seen[s.trail[idx]>>1] == 0 {
			idx--
		}
		p = s.trail[idx]
		idx--
		confl = s.vinfo[p>>1].reason
		s.seen[p>>1] = 0
		pathC--
		if pathC == 0 {
			break
		}
	}
	s.learnt[0] = p ^ 1
	// Minimise: drop literals implied by the others.
	s.toClr = s.toClr[:0]
	for _, q := range s.learnt[1:] {
		s.toClr = append(s.toClr, q>>1)
	}
	var abs uint32
	for _, q := range s.learnt[1:] {
		abs |= 1 << (s.vinfo[q>>1].level & 31)
	}
	j := 1
	for i := 1; i < len(s.learnt); i++ {
		q := s.learnt[i]
		if s.vinfo[q>>1].reason == 0 || !s.redundant(q, abs) {
			s.learnt[j] = q
			j++
		}
	}
	s.learnt = s.learnt[:j]
	if len(s.learnt) > 2 {
		s.shrink(abs)
	}
	for _, v := range s.toClr {
		s.seen[v] = 0
	}
	// The literal of the highest level after the first is watched second.
	back := int32(0)
	if len(s.learnt) > 1 {
		mi := 1
		for i := 2; i < len(s.learnt); i++ {
			if s.vinfo[s.learnt[i]>>1].level > s.vinfo[s.learnt[mi]>>1].level {
				mi = i
			}
		}
		s.learnt[1], s.learnt[mi] = s.learnt[mi], s.learnt[1]
		back = s.vinfo[s.learnt[1]>>1].level
	}
	return s.learnt, back
}

// shrink replaces the literals of each level of the learned clause (but the
// asserting one) by one, that level's first unique implication point for
// them, when the reasons between lead only to literals of that level or of
// the clause, or follow from it (CaDiCaL's shrinking). The clause stays implied and gets no
// longer; on Sudoku, where a group's reason names many variables, it often
// gets much shorter.
func (s *learner) shrink(abs uint32) {
	ls := s.learnt
	tail := ls[1:]
	slices.SortFunc(tail, func(a, b lit) int { return int(s.vinfo[b>>1].level - s.vinfo[a>>1].level) })
	out := ls[:1]
	for i := 0; i < len(tail); {
		lv := s.vinfo[tail[i]>>1].level
		j := i + 1
		for j < len(tail) && s.vinfo[tail[j]>>1].level == lv {
			j++
		}
		block := tail[i:j]
		i = j
		if len(block) == 1 {
			out = append(out, block[0])
			continue
		}
		if u, ok := s.shrinkBlock(block, lv, abs); ok {
			out = append(out, u)
			continue
		}
		out = append(out, block...)
	}
	s.learnt = out
}

// shrinkBlock finds the literal that can stand for the literals of block
// (all of level lv), or reports false.
//
// It runs before the marks of the clause's variables (seen) are cleared: a
// literal of a lower level may be met if it is in the clause, or follows
// from the clause's literals (redundant, which marks it in turn).
func (s *learner) shrinkBlock(block []lit, lv int32, abs uint32) (lit, bool) {
	mark := s.shrMark[:0]
	for _, q := range block {
		s.shr[q>>1] = 1
		mark = append(mark, q>>1)
	}
	open := len(block)
	start, end := int(s.lim[lv-1]), int(s.lim[lv])
	var uip lit = -1
	for i := end - 1; i >= start && uip < 0; i-- {
		p := s.trail[i]
		v := p >> 1
		if s.shr[v] == 0 {
			continue
		}
		if open == 1 {
			uip = p ^ 1
			break
		}
		open--
		r := s.vinfo[v].reason
		if r == 0 {
			break
		}
		// redundant reuses reasonLits' buffer: take a copy. (It holds p:
		// marked, so passed over.)
		s.shrBuf = append(s.shrBuf[:0], s.reasonLits(r, p)...)
		for _, q16 := range s.shrBuf {
			q := lit(q16)
			u := q >> 1
			switch l := s.vinfo[u].level; {
			case l == 0:
			case l == lv:
				if s.shr[u] == 0 {
					s.shr[u] = 1
					mark = append(mark, u)
					open++
				}
			case s.seen[u] != 0:
			case s.vinfo[u].reason == 0 || abs&(1<<(l&31)) == 0 || !s.redundant(q, abs):
				i = -1 // fail
			}
		}
	}
	for _, v := range mark {
		s.shr[v] = 0
	}
	s.shrMark = mark
	return uip, uip >= 0
}

// redundant reports whether literal q of the learned clause follows from
// the others through the reasons (MiniSat's recursive minimisation).
func (s *learner) redundant(q lit, abs uint32) bool {
	s.stack = append(s.stack[:0], q)
	top := len(s.toClr)
	for len(s.stack) > 0 {
		x := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		r := s.vinfo[x>>1].reason
		// reasonLits reuses its buffer, but only on the next pop.
		for _, y16 := range s.reasonLits(r, x^1) {
			y := lit(y16)
			v := y >> 1
			if s.seen[v] != 0 || s.vinfo[v].level == 0 || y == x^1 {
				continue
			}
			if s.vinfo[v].reason != 0 && abs&(1<<(s.vinfo[v].level&31)) != 0 {
				s.seen[v] = 1
				s.stack = append(s.stack, y)
				s.toClr = append(s.toClr, v)
				continue
			}
			for _, w := range s.toClr[top:] {
				s.seen[w] = 0
			}
			s.toClr = s.toClr[:top]
			return false
		}
	}
	return true
}

func (s *learner) lbd(ls []lit) int32 {
	var seenLv [4]uint64
	var extra map[int32]bool
	k := int32(0)
	for _, q := range ls {
		l := s.vinfo[q>>1].level
		if l < 256 {
			if seenLv[l>>6]>>(l&63)&1 == 0 {
				seenLv[l>>6] |= 1 << (l & 63)
				k++
			}
			continue
		}
		if extra == nil {
			extra = map[int32]bool{}
		}
		if !extra[l] {
			extra[l] = true
			k++
		}
	}
	return k
}

func (s *learner) cancelUntil(lv int32) {
	if int32(len(s.lim)) <= lv {
		return
	}
	start := int(s.lim[lv])
	gm, val, lval, phase, hpos := s.gmask, s.val, s.lval, s.phase, s.hpos
	for i := len(s.trail) - 1; i >= start; i-- {
		p := s.trail[i]
		v := p >> 1
		vg := &s.varGrp[v] // written out as in assign
		if p&1 != 0 {
			gp := &s.gpos[v]
			gm[vg[0]] |= 1 << (gp[0] & 31)
			gm[vg[1]] |= 1 << (gp[1] & 31)
			gm[vg[2]] |= 1 << (gp[2] & 31)
			gm[vg[3]] |= 1 << (gp[3] & 31)
		} else {
			gm[vg[0]] &^= gTrue
			gm[vg[1]] &^= gTrue
			gm[vg[2]] &^= gTrue
			gm[vg[3]] &^= gTrue
		}
		phase[v] = val[v]
		val[v] = 0
		lval[p], lval[p^1] = 0, 0
		if hpos[v] < 0 {
			s.heapInsert(v)
		}
	}
	s.trail = s.trail[:start]
	s.qhead = start
	s.lim = s.lim[:lv]
}

// addClause attaches clause ls (at least two literals, ls[0] and ls[1]
// to be watched) and returns its reference.
func (s *learner) addClause(ls []lit, lbd int32, flags int32) int32 {
	cref := int32(len(s.arena))
	s.arena = append(s.arena, alit(len(ls)), alit(lbd), alit(flags), 0, 0, 2) // lbd <= len(ls)
	for _, q := range ls {
		s.arena = append(s.arena, alit(q))
	}
	s.watches[ls[0]] = append(s.watches[ls[0]], watcher{cref, ls[1]})
	s.watches[ls[1]] = append(s.watches[ls[1]], watcher{cref, ls[0]})
	s.bumpClause(cref)
	s.nlearnt++
	return cref
}

// reduce drops about half of the learned clauses: the ones of highest LBD
// and lowest activity, never the glue clauses (LBD 2), the blocking ones,
// or a clause that is the reason of a current assignment. It compacts the
// arena and rebuilds the watches.
func (s *learner) reduce() bool {
	base := s.clBase
	locked := func(c int32) bool {
		p := s.arena[c+clHead]
		return s.lval[p] > 0 && s.vinfo[p>>1].reason == base+c
	}
	var cand []int32
	for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
		if s.clauseFlags(c)&clBlocking != 0 || s.clauseLBD(c) <= 2 || locked(c) {
			continue
		}
		cand = append(cand, c)
	}
	slices.SortFunc(cand, func(a, b int32) int {
		if la, lb := s.clauseLBD(a), s.clauseLBD(b); la != lb {
			return int(lb - la)
		}
		switch aa, ab := s.clauseAct(a), s.clauseAct(b); {
		case aa < ab:
			return -1
		case aa > ab:
			return 1
		}
		return 0
	})
	drop := make(map[int32]bool, len(cand)/2)
	for _, c := range cand[:len(cand)/2] {
		drop[c] = true
	}
	// Compact: live clauses move down; reasons follow them.
	moved := make(map[int32]int32)
	out := int32(0)
	for c := int32(0); c < int32(len(s.arena)); {
		next := s.clauseNext(c)
		if !drop[c] {
			if locked(c) {
				moved[c] = out
			}
			copy(s.arena[out:], s.arena[c:next])
			out += next - c
		}
		c = next
	}
	s.arena = s.arena[:out]
	s.nlearnt -= len(drop)
	for _, p := range s.trail {
		v := p >> 1
		if r := s.vinfo[v].reason; r >= base {
			s.vinfo[v].reason = base + moved[r-base]
		}
	}
	for l := range s.watches {
		s.watches[l] = s.watches[l][:0]
	}
	for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
		ls := s.clauseLits(c)
		s.watches[ls[0]] = append(s.watches[ls[0]], watcher{c, lit(ls[1])})
		s.watches[ls[1]] = append(s.watches[ls[1]], watcher{c, lit(ls[0])})
	}
	return true
}

// Heap of open variables by activity.

func (s *learner) heapLess(a, b int32) bool { return s.act[a] > s.act[b] }

func (s *learner) heapInsert(v int32) {
	s.hpos[v] = int32(len(s.heap))
	s.heap = append(s.heap, v)
	s.heapUp(s.hpos[v])
}

func (s *learner) heapUp(i int32) {
	h := s.heap
	v := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !s.heapLess(v, h[p]) {
			break
		}
		h[i] = h[p]
		s.hpos[h[i]] = i
		i = p
	}
	h[i] = v
	s.hpos[v] = i
}

func (s *learner) heapPop() int32 {
	h := s.heap
	top := h[0]
	last := h[len(h)-1]
	s.heap = h[:len(h)-1]
	s.hpos[top] = -1
	if len(s.heap) == 0 {
		return top
	}
	h = s.heap
	i := int32(0)
	n := int32(len(h))
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && s.heapLess(h[r], h[l]) {
			l = r
		}
		if !s.heapLess(h[l], last) {
			break
		}
		h[i] = h[l]
		s.hpos[h[i]] = i
		i = l
	}
	h[i] = last
	s.hpos[last] = i
	return top
}

// luby returns the i-th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 …
func luby(i int64) int64 {
	size, seq := int64(1), 0
	for size < i+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != i {
		size = (size - 1) >> 1
		seq--
		i %= size
	}
	return 1 << seq
}

// compact drops the variables false at the root from the groups and the
// box-line sides: they never change again, and the clauses behind the
// reasons need no root literals; indexSides then lists each group's
// sides. A side left empty makes the other side false. It must be called
// at the root, with propagation done, and reports false when the root
// fails.
func (s *learner) compact() bool {
	grp := make([]int32, 0, len(s.grp)/4)
	for g := 0; g < s.ng; g++ {
		start := int32(len(grp))
		for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
			if s.val[w] >= 0 {
				grp = append(grp, w)
			}
		}
		s.grpOff[g] = start
	}
	s.grpOff[s.ng] = int32(len(grp))
	s.grp = grp
	s.grpLit = groupLits(grp)
	s.indexGroups()
	sv := make([]int32, 0, len(s.sideVar)/4)
	for k := 0; k < s.nside; k++ {
		start := int32(len(sv))
		for _, w := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			if s.val[w] >= 0 {
				sv = append(sv, w)
			}
		}
		s.sideOff[k] = start
	}
	s.sideOff[s.nside] = int32(len(sv))
	s.sideVar = sv
	s.indexSides()
	s.peerOff = make([]int32, s.nv+1)
	s.peerVar = s.peerVar[:0]
	for v := int32(0); v < int32(s.nv); v++ {
		s.peerOff[v] = int32(len(s.peerVar))
		if s.val[v] != 0 {
			continue
		}
		start := len(s.peerVar)
		for _, g := range s.varGrp[v] {
			for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
				if w != v && s.seen[w] == 0 {
					s.seen[w] = 1
					s.peerVar = append(s.peerVar, w)
				}
			}
		}
		for _, w := range s.peerVar[start:] {
			s.seen[w] = 0
		}
	}
	s.peerOff[s.nv] = int32(len(s.peerVar))
	// A side empty at the root empties the other side, at the root.
	for k := 0; k < s.nside; k++ {
		if s.sideOff[k] != s.sideOff[k+1] {
			continue
		}
		o := k ^ 1
		for _, w := range s.sideVar[s.sideOff[o]:s.sideOff[o+1]] {
			switch s.val[w] {
			case 0:
				s.assign(2*w+1, 0)
			case 1:
				return false
			}
		}
	}
	return s.propagate() < 0
}

// indexSides lists each group's sides (grpSide) from the sides and groups
// as compact left them: a side that is empty, or whose other side is,
// can't propagate anything and is left out.
func (s *learner) indexSides() {
	off := make([]int32, s.ng+1) // group g's sides: grpSide[off[g]:off[g+1]]
	live := func(k int) bool {
		o := k ^ 1
		return s.sideOff[k] != s.sideOff[k+1] && s.sideOff[o] != s.sideOff[o+1]
	}
	for k := 0; k < s.nside; k++ {
		if live(k) {
			off[s.sideGrp[k]+1]++
		}
	}
	for g := 0; g < s.ng; g++ {
		off[g+1] += off[g]
	}
	s.grpSide = make([]sideCheck, off[s.ng])
	s.bitSide = make([][2]uint16, len(s.grp))
	fill := off[:s.ng] // where each group's next side goes (off is done with)
	for k := 0; k < s.nside; k++ {
		if !live(k) {
			continue
		}
		g := s.sideGrp[k]
		cross := uint32(1)<<(s.grpOff[g+1]-s.grpOff[g]) - 1
		for _, u := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			for j, h := range s.varGrp[u] {
				if h == g {
					cross &^= 1 << s.gpos[u][j]
				}
			}
		}
		s.grpSide[fill[g]] = sideCheck{cross: cross, side: int32(k)}
		li := uint16(fill[g] + 1)
		fill[g]++
		for i, m := s.grpOff[g], cross; m != 0; m &= m - 1 {
			bs := &s.bitSide[i+int32(bits.TrailingZeros32(m))]
			if bs[0] == 0 {
				bs[0] = li
			} else {
				bs[1] = li
			}
		}
	}
}

// learnStatus is how a learning search ended.
type learnStatus int

const (
	learnSat learnStatus = iota
	learnUnsat
	learnStopped
)

// solve searches for a model. On learnSat the model is in s.val.
func (s *learner) solve() learnStatus {
	p := &s.p
	var restarts int64
	var sinceRestart int64
	var fast, slow float64 // moving averages of the LBD of learned clauses
	var trailAvg float64   // moving average of the trail above the root
	// Stable mode until a first solution is found (and blocked), then
	// focused mode.
	stable := !s.blocked
	budget := p.stableLuby * luby(0) // conflicts to a restart, in stable mode
	nextReduce := p.reduceBase
	for {
		confl := s.propagate()
		if confl >= 0 {
			s.conflicts++
			sinceRestart++
			if len(s.lim) == 0 {
				return learnUnsat
			}
			if s.conflicts%8 == 0 && s.stop.stopped() || s.conflicts > p.maxConflicts {
				return learnStopped
			}
			if stable {
				if ok := int(s.lim[len(s.lim)-1]); ok > s.targetLen {
					for _, q := range s.trail[:ok] {
						s.target[q>>1] = s.val[q>>1]
					}
					s.targetLen = ok
				}
			}
			// Glucose's restart blocking: a trail much longer than usual
			// may be close to a solution, so the restart waits.
			t := float64(len(s.trail) - int(s.lim[0]))
			trailAvg += (t - trailAvg) / float64(min(s.conflicts, 5000))
			if s.conflicts > 10000 && t > p.blockR*trailAvg {
				sinceRestart = 0
			}
			ls, back := s.analyze(confl)
			if p.onLearn != nil {
				p.onLearn(ls)
			}
			s.cancelUntil(back)
			lbd := int32(1)
			if len(ls) > 1 {
				lbd = s.lbd(ls)
			}
			fast += (float64(lbd) - fast) / 32
			slow += (float64(lbd) - slow) / float64(min(s.conflicts, 4096))
			if len(ls) == 1 {
				s.assign(ls[0], 0)
			} else {
				cref := s.addClause(ls, lbd, 0)
				s.assign(ls[0], s.clBase+cref)
			}
			s.varInc *= 1 / p.varDecay
			s.claInc *= 1 / 0.999
			continue
		}
		var restart bool
		if stable {
			restart = sinceRestart >= budget
		} else {
			restart = sinceRestart >= 50 && fast > p.ema*slow
		}
		if restart {
			restarts++
			sinceRestart = 0
			budget = p.stableLuby * luby(restarts)
			s.cancelUntil(0)
			if s.conflicts >= nextReduce {
				nextReduce = s.conflicts + p.reduceBase + p.reduceInc*int64(s.nlearnt/1000)
				if !s.reduce() {
					return learnUnsat
				}
			}
			continue
		}
		if stable && s.conflicts >= nextReduce {
			// Stable mode's restarts are rare: the learned clauses
			// can't wait for one to be cut down.
			nextReduce = s.conflicts + p.reduceBase + p.reduceInc*int64(s.nlearnt/1000)
			if !s.reduce() {
				return learnUnsat
			}
		}
		// Decide.
		v := int32(-1)
		for len(s.heap) > 0 {
			x := s.heapPop()
			if s.val[x] == 0 {
				v = x
				break
			}
		}
		if v < 0 {
			return learnSat
		}
		s.decisions++
		if s.decisions%1024 == 0 && s.stop.stopped() {
			return learnStopped
		}
		s.lim = append(s.lim, int32(len(s.trail)))
		ph := s.phase[v]
		if stable && s.target[v] != 0 {
			ph = s.target[v]
		}
		if ph > 0 {
			s.assign(2*v, 0)
		} else {
			s.assign(2*v+1, 0)
		}
	}
}

// block adds the clause that rules out the current model (some open cell
// differs) and goes back to the root. It reports false when nothing is left
// to search (every cell was fixed at the root).
func (s *learner) block() bool {
	s.blocked = true
	ls := s.learnt[:0]
	for v := 0; v < s.nv; v++ {
		if s.val[v] > 0 && s.vinfo[v].level > 0 {
			ls = append(ls, lit(2*v+1))
		}
	}
	s.learnt = ls
	s.cancelUntil(0)
	switch len(ls) {
	case 0:
		return false
	case 1:
		s.assign(ls[0], 0)
		return true
	}
	s.addClause(ls, int32(len(ls)), clBlocking)
	return true
}

// cells writes the current model into out (values 1..n).
func (s *learner) cells(out []uint8) {
	n := s.n
	for c := range out {
		for v := 0; v < n; v++ {
			if s.val[c*n+v] > 0 {
				out[c] = uint8(v + 1)
				break
			}
		}
	}
}

// blockGrid rules out a known solution (found by another search).
func (s *learner) blockGrid(sol *Grid) bool {
	s.blocked = true
	ls := s.learnt[:0]
	for c, x := range sol.Cells {
		v := c*s.n + int(x) - 1
		switch s.val[v] {
		case 0:
			ls = append(ls, lit(2*v+1))
		case -1:
			return true // already excluded at the root
		}
	}
	s.learnt = ls
	switch len(ls) {
	case 0:
		return false
	case 1:
		s.assign(ls[0], 0)
		return true
	}
	s.addClause(ls, int32(len(ls)), clBlocking)
	return true
}
