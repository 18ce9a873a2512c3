package sudoku

import "math"

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
//
// The files: this one holds the types, the tuning and the search loop;
// solve_learn_setup.go builds the groups, sides and root state;
// solve_learn_propagate.go propagates and goes back; solve_learn_analyze.go
// turns a conflict into a learned clause; solve_learn_clausedb.go keeps the
// learned clauses and reduces them; solve_learn_heap.go orders the
// decisions by activity.

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
