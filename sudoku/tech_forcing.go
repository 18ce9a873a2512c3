package sudoku

import (
	"fmt"
	"math/bits"
	"strings"
)

// Forcing chains. A probe assumes one candidate true and follows every
// consequence on a copy of the candidates, breadth first: a placed digit
// leaves its peers and the rest of its cell; a cell with one candidate left
// takes it; a digit with one place left in a unit goes there. This is
// "dynamic" chaining: later steps use what earlier ones removed.
//   - Nishio (SE 7.5): following one digit only, the assumption leaves the
//     digit no place in some unit, so the candidate is false.
//   - Dynamic contradiction (SE 8.5): following every digit, the
//     assumption empties a cell or a unit.
//   - Dynamic cell and unit forcing chains (SE 8.5): every candidate of a
//     cell (or every place of a digit in a unit) leads to the same
//     placement or elimination, which is therefore true.
//
// Scores grow with the number of events the conclusion depends on, the way
// Sudoku Explainer adds 0.1 per doubling of a chain's length.

const (
	techNishio        = "Nishio forcing chain"
	techContradiction = "Dynamic forcing chain"
	techCellForcing   = "Dynamic cell forcing chain"
	techUnitForcing   = "Dynamic unit forcing chain"
	techStaticCell    = "Cell forcing chain"
	techStaticUnit    = "Unit forcing chain"
)

// pevent is one consequence a probe derived: a placement (on) or an
// elimination of digit d in cell.
type pevent struct {
	cell       int32
	d          int8
	on         bool
	from, upto int32 // causes: probe.causes[from:upto] (tracking only)
}

// probe is the scratch state of one assumption's consequences.
type probe struct {
	b      *board
	n      int
	cand   []uint32
	vals   []uint8
	pos    []uint32
	placed []uint32
	ev     []pevent
	digit  int // -1: all digits; else follow only this digit (Nishio)
	// static follows only the links of the position itself, as Sudoku
	// Explainer's (non-dynamic) multiple forcing chains do: a cell takes
	// its other candidate only if it had two, a digit its other place in a
	// unit only if it had two there.
	static bool

	bad      bool    // a contradiction was reached
	badWhy   string  // says what broke
	badCause []int32 // the events the contradiction rests on (tracking)

	// Tracking, for explanations and scores.
	track     bool
	causes    []int32
	elimEvent []int32 // per candidate: the event that removed it, or -1
	placeEv   []int32 // per cell: the event that filled it, or -1
	tmp       []int32
	seen      []bool
	stack     []int32
}

func newProbe(b *board) *probe {
	n := b.n
	return &probe{
		b: b, n: n,
		cand:      make([]uint32, len(b.cand)),
		vals:      make([]uint8, len(b.vals)),
		pos:       make([]uint32, len(b.pos)),
		placed:    make([]uint32, len(b.placed)),
		elimEvent: make([]int32, len(b.cand)*n),
		placeEv:   make([]int32, len(b.cand)),
	}
}

// reset copies the board into the probe.
func (p *probe) reset(digit int, track bool) {
	b := p.b
	b.refresh()
	copy(p.cand, b.cand)
	copy(p.vals, b.vals)
	copy(p.pos, b.pos)
	copy(p.placed, b.placed)
	p.ev = p.ev[:0]
	p.causes = p.causes[:0]
	p.digit, p.track = digit, track
	p.bad, p.badWhy, p.badCause = false, "", p.badCause[:0]
	if track {
		for i := range p.elimEvent {
			p.elimEvent[i] = -1
		}
		for i := range p.placeEv {
			p.placeEv[i] = -1
		}
	}
}

// fail records a contradiction resting on the events in causes.
func (p *probe) fail(why string, causes []int32) {
	p.bad = true
	if p.track {
		p.badWhy = why
		p.badCause = append(p.badCause[:0], causes...)
	}
}

func (p *probe) addEvent(cell, d int, on bool, causes []int32) {
	e := pevent{cell: int32(cell), d: int8(d), on: on}
	if p.track {
		e.from = int32(len(p.causes))
		p.causes = append(p.causes, causes...)
		e.upto = int32(len(p.causes))
	}
	p.ev = append(p.ev, e)
}

// place fills cell with digit d as a consequence of causes.
func (p *probe) place(cell, d int, causes []int32) {
	if p.bad {
		return
	}
	g := p.b.g
	if v := p.vals[cell]; v != 0 {
		if int(v) != d+1 && p.track {
			p.fail(fmt.Sprintf("%s would have to hold both %s and %s", p.b.name(cell), p.b.sym(int(v)), p.b.sym(d+1)),
				append(causes, p.placeEv[cell]))
		} else if int(v) != d+1 {
			p.bad = true
		}
		return
	}
	if p.cand[cell]&(1<<d) == 0 {
		if p.track {
			p.fail(fmt.Sprintf("%s would have to be %s, which is no longer possible there", p.b.name(cell), p.b.sym(d+1)),
				append(causes, p.elimEvent[cell*p.n+d]))
		} else {
			p.bad = true
		}
		return
	}
	for k := 0; k < 3; k++ {
		if p.placed[g.cellUnits[cell][k]]&(1<<d) != 0 {
			if p.track {
				other := -1
				for _, c := range g.unitCells[g.cellUnits[cell][k]] {
					if int(p.vals[c]) == d+1 {
						other = c
					}
				}
				why := fmt.Sprintf("%s would hold %s twice", g.units[g.cellUnits[cell][k]], p.b.sym(d+1))
				cs := causes
				if other >= 0 {
					cs = append(cs, p.placeEv[other])
				}
				p.fail(why, cs)
			} else {
				p.bad = true
			}
			return
		}
	}
	p.vals[cell] = uint8(d + 1)
	for k := 0; k < 3; k++ {
		p.placed[g.cellUnits[cell][k]] |= 1 << d
	}
	if p.track {
		p.placeEv[cell] = int32(len(p.ev))
	}
	p.addEvent(cell, d, true, causes)
}

// elim removes digit d from cell as a consequence of causes.
func (p *probe) elim(cell, d int, causes []int32) {
	if p.cand[cell]&(1<<d) == 0 {
		return
	}
	g := p.b.g
	n := p.n
	p.cand[cell] &^= 1 << d
	for k := 0; k < 3; k++ {
		p.pos[g.cellUnits[cell][k]*n+d] &^= 1 << g.cellIdx[cell][k]
	}
	if p.track {
		p.elimEvent[cell*n+d] = int32(len(p.ev))
	}
	p.addEvent(cell, d, false, causes)
}

// run assumes candidate (cell, d) true and follows the consequences until
// none is left or a contradiction appears.
func (p *probe) run(cell, d int) {
	b := p.b
	g := b.g
	n := p.n
	p.place(cell, d, nil)
	var one [1]int32
	for i := 0; i < len(p.ev) && !p.bad; i++ {
		e := p.ev[i]
		c, ed := int(e.cell), int(e.d)
		one[0] = int32(i)
		if e.on {
			if p.digit < 0 {
				for m := p.cand[c] &^ (1 << ed); m != 0; m &= m - 1 {
					p.elim(c, bits.TrailingZeros32(m), one[:])
				}
			}
			for _, q := range g.peers[c] {
				if p.cand[q]&(1<<ed) != 0 {
					p.elim(q, ed, one[:])
				}
			}
			continue
		}
		// An elimination: look for singles and dead ends.
		if p.digit < 0 && p.vals[c] == 0 && (!p.static || bits.OnesCount32(b.cand[c]) == 2) {
			switch m := p.cand[c]; bits.OnesCount32(m) {
			case 0:
				if !p.track {
					p.bad = true // no one will read why
					break
				}
				p.fail(fmt.Sprintf("%s would have no candidate left", b.name(c)), p.cellCauses(c, -1))
			case 1:
				v := bits.TrailingZeros32(m)
				p.place(c, v, p.cellCauses(c, v))
			}
		}
		for k := 0; k < 3 && !p.bad; k++ {
			u := g.cellUnits[c][k]
			if p.placed[u]&(1<<ed) != 0 || (p.static && bits.OnesCount32(b.pos[u*n+ed]) != 2) {
				continue
			}
			switch m := p.pos[u*n+ed]; bits.OnesCount32(m) {
			case 0:
				if !p.track {
					p.bad = true // no one will read why
					break
				}
				p.fail(fmt.Sprintf("%s would have no place left for %s", g.units[u], b.sym(ed+1)), p.unitCauses(u, ed, -1))
			case 1:
				t := g.unitCells[u][bits.TrailingZeros32(m)]
				p.place(t, ed, p.unitCauses(u, ed, t))
			}
		}
	}
}

// cellCauses lists the events that removed cell's board candidates other
// than keep (tracking only).
func (p *probe) cellCauses(cell, keep int) []int32 {
	if !p.track {
		return nil
	}
	p.tmp = p.tmp[:0]
	for m := p.b.cand[cell]; m != 0; m &= m - 1 {
		d := bits.TrailingZeros32(m)
		if d != keep {
			if e := p.elimEvent[cell*p.n+d]; e >= 0 {
				p.tmp = append(p.tmp, e)
			}
		}
	}
	return p.tmp
}

// unitCauses lists the events that removed digit d from unit u's cells
// other than keep (tracking only).
func (p *probe) unitCauses(u, d, keep int) []int32 {
	if !p.track {
		return nil
	}
	p.tmp = p.tmp[:0]
	b := p.b
	for m := b.pos[u*p.n+d]; m != 0; m &= m - 1 {
		c := b.g.unitCells[u][bits.TrailingZeros32(m)]
		if c != keep {
			if e := p.elimEvent[c*p.n+d]; e >= 0 {
				p.tmp = append(p.tmp, e)
			}
		}
	}
	return p.tmp
}

// mark flags in p.seen every event the roots rest on (themselves
// included) and returns how many there are.
func (p *probe) mark(roots []int32) int {
	if cap(p.seen) < len(p.ev) {
		p.seen = make([]bool, len(p.ev), 2*len(p.ev))
	}
	p.seen = p.seen[:len(p.ev)]
	clear(p.seen)
	stack := append(p.stack[:0], roots...)
	count := 0
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e < 0 || p.seen[e] {
			continue
		}
		p.seen[e] = true
		count++
		ev := p.ev[e]
		stack = append(stack, p.causes[ev.from:ev.upto]...)
	}
	p.stack = stack
	return count
}

// countAncestors counts the events the roots rest on.
func (p *probe) countAncestors(roots []int32) int { return p.mark(roots) }

// ancestors returns, in event order, every event the roots rest on
// (themselves included).
func (p *probe) ancestors(roots []int32) []int32 {
	out := make([]int32, 0, p.mark(roots))
	for i, s := range p.seen {
		if s {
			out = append(out, int32(i))
		}
	}
	return out
}

// describe lists events in the order they follow from the assumption,
// "A7≠5, C8=5, …", leaving out the assumption (event 0), at most max
// of them.
func (p *probe) describe(evs []int32, max int) string {
	var sb strings.Builder
	i := 0
	for _, e := range evs {
		if e == 0 {
			continue
		}
		if i == max {
			fmt.Fprintf(&sb, ", … (%d more)", len(evs)-1-max)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		i++
		ev := p.ev[e]
		op := "≠"
		if ev.on {
			op = "="
		}
		sb.WriteString(p.b.name(int(ev.cell)) + op + p.b.sym(int(ev.d)+1))
	}
	return sb.String()
}

func (b *board) prober() *probe {
	if b.probe == nil {
		b.probe = newProbe(b)
	}
	return b.probe
}

// forcingScore is base (in tenths) plus the length penalty for a
// conclusion resting on events.
func forcingScore(base, events int) float64 {
	return float64(base+chainLengthBonus(events)) / 10
}

// findNishio finds a candidate whose assumption, following its digit
// alone, leaves the digit no place in a unit (SE 7.5+).
func findNishio(b *board) (Step, bool) {
	return findContradiction(b, true)
}

// findDynamic finds the easiest dynamic forcing chain: a contradiction, or
// a cell or unit whose every choice leads to the same conclusion (SE 8.5+).
// It probes every candidate once and keeps the outcomes (for grids up to
// 16x16) so the cell and unit forcing chains cost no more probes.
func findDynamic(b *board) (Step, bool) {
	dc := b.dynPass()
	best, ok := b.dynContradiction(dc)
	if f, fok := findForcing(b, dc, false); fok && (!ok || f.Score < best.Score) {
		return f, true
	}
	return best, ok
}

// dynCache holds the outcome of probing each candidate with every digit.
type dynCache struct {
	index  []int32 // cell*n+d -> record, or -1
	cell   []int32
	d      []int8
	bad    []bool
	events []int32
	stored bool     // cand and vals hold each record's outcome
	cand   []uint32 // record k: cand[k*size : (k+1)*size]
	vals   []uint8
}

// maxStoredOutcomes bounds the memory of kept outcomes (candidates × cells).
const maxStoredOutcomes = 1 << 21

func (b *board) dynPass() *dynCache {
	if b.dyn == nil {
		b.dyn = &dynCache{index: make([]int32, len(b.cand)*b.n)}
	}
	return b.probeAll(b.dyn)
}

// findMultiple finds Sudoku Explainer's (static) multiple forcing chains
// (SE 8.0+): a cell with three or more candidates, or a digit's places in a
// unit, whose every choice leads, through the position's own links, to the
// same conclusion. Like SE it looks at a unit only from the first of the
// digit's places there, and only when that cell has three candidates or
// more.
func findMultiple(b *board) (Step, bool) {
	if b.stat == nil {
		b.stat = &dynCache{index: make([]int32, len(b.cand)*b.n)}
	}
	p := b.prober()
	p.static = true
	defer func() { p.static = false }()
	return findForcing(b, b.probeAll(b.stat), true)
}

// probeAll probes every candidate and keeps the outcomes in dc.
func (b *board) probeAll(dc *dynCache) *dynCache {
	n, size := b.n, len(b.cand)
	dc.cell, dc.d, dc.bad, dc.events = dc.cell[:0], dc.d[:0], dc.bad[:0], dc.events[:0]
	total := 0
	for _, m := range b.cand {
		total += bits.OnesCount32(m)
	}
	dc.stored = total*size <= maxStoredOutcomes
	if dc.stored && cap(dc.cand) < total*size {
		dc.cand = make([]uint32, 0, total*size)
		dc.vals = make([]uint8, 0, total*size)
	}
	dc.cand, dc.vals = dc.cand[:0], dc.vals[:0]
	for i := range dc.index {
		dc.index[i] = -1
	}
	p := b.prober()
	for cell, m := range b.cand {
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			p.reset(-1, false)
			p.run(cell, d)
			dc.index[cell*n+d] = int32(len(dc.cell))
			dc.cell = append(dc.cell, int32(cell))
			dc.d = append(dc.d, int8(d))
			dc.bad = append(dc.bad, p.bad)
			dc.events = append(dc.events, int32(len(p.ev)))
			if dc.stored {
				dc.cand = append(dc.cand, p.cand...)
				dc.vals = append(dc.vals, p.vals...)
			}
		}
	}
	return dc
}

// dynContradiction builds the step for the contradiction needing the
// fewest events. When the board batches (rating), every other
// contradiction scoring no more joins the step.
func (b *board) dynContradiction(dc *dynCache) (Step, bool) {
	best := -1
	for k, bad := range dc.bad {
		if bad && (best < 0 || dc.events[k] < dc.events[best]) {
			best = k
		}
	}
	if best < 0 {
		return Step{}, false
	}
	st := b.contradictionStep(int(dc.cell[best]), int(dc.d[best]), false)
	if b.batch {
		p := b.prober()
		for k, bad := range dc.bad {
			if !bad || k == best {
				continue
			}
			cell, d := int(dc.cell[k]), int(dc.d[k])
			// A contradiction rests on at most the events before it: when
			// those already score no more, no need to trace it.
			if forcingScore(85, int(dc.events[k])) > st.Score {
				p.reset(-1, true)
				p.run(cell, d)
				if forcingScore(85, p.countAncestors(p.badCause)) > st.Score {
					continue
				}
			}
			st.Eliminations = append(st.Eliminations, Candidate{cell, d + 1})
		}
	}
	return st, true
}

// findContradiction probes every candidate following its digit alone
// (Nishio) and returns the contradiction needing the fewest events.
func findContradiction(b *board, nishio bool) (Step, bool) {
	p := b.prober()
	bestCell, bestD, bestLen := -1, -1, 1<<30
	var bad []Candidate // every contradiction (0-based digits), for batching
	for cell, m := range b.cand {
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			digit := -1
			if nishio {
				digit = d
			}
			p.reset(digit, false)
			p.run(cell, d)
			if !p.bad {
				continue
			}
			bad = append(bad, Candidate{cell, d})
			if len(p.ev) < bestLen {
				bestCell, bestD, bestLen = cell, d, len(p.ev)
			}
		}
	}
	if bestCell < 0 {
		return Step{}, false
	}
	st := b.contradictionStep(bestCell, bestD, nishio)
	if b.batch && nishio {
		// Rating: every other Nishio contradiction that scores no more
		// joins the step.
		for _, c := range bad {
			if c.Cell == bestCell && c.Value == bestD {
				continue
			}
			p.reset(c.Value, true)
			p.run(c.Cell, c.Value)
			if forcingScore(75, p.countAncestors(p.badCause)) <= st.Score {
				st.Eliminations = append(st.Eliminations, Candidate{c.Cell, c.Value + 1})
			}
		}
	}
	return st, true
}

// contradictionStep re-runs the probe of (cell, d) with tracking and says
// why d can't go in cell.
func (b *board) contradictionStep(cell, d int, nishio bool) Step {
	p := b.prober()
	digit := -1
	base, name := 85, techContradiction
	if nishio {
		digit, base, name = d, 75, techNishio
	}
	p.reset(digit, true)
	p.run(cell, d)
	chain := p.ancestors(p.badCause)
	v := d + 1
	return Step{
		Technique:    name,
		Score:        forcingScore(base, len(chain)),
		Eliminations: []Candidate{{cell, v}},
		Cells:        []int{cell},
		Causes:       p.eventCandidates(chain),
		Where:        fmt.Sprintf("what follows from %s = %s", b.name(cell), b.sym(v)),
		Explanation: fmt.Sprintf("If %s were %s, then in turn %s, and then %s; so %s is not %s.",
			b.name(cell), b.sym(v), p.describe(chain, 40), p.badWhy, b.name(cell), b.sym(v)),
	}
}

// eventCandidates lists the candidates of events, for highlighting.
func (p *probe) eventCandidates(evs []int32) []Candidate {
	out := make([]Candidate, 0, len(evs))
	for _, e := range evs {
		out = append(out, Candidate{int(p.ev[e].cell), int(p.ev[e].d) + 1})
	}
	return out
}

// forcingAcc intersects the outcomes of a set of assumptions.
type forcingAcc struct {
	elims []uint32 // candidates every branch removed
	vals  []uint8  // value every branch placed, or 0
	// live lists the cells where elims or vals is not 0: a later branch
	// can only clear them, so it need look at no other cell.
	live []int32
}

// findForcing tries every cell (each of its candidates) and every unit
// (each place of a digit) and returns the common conclusion whose branches
// need the fewest events in all.
func findForcing(b *board, dc *dynCache, static bool) (Step, bool) {
	n := b.n
	g := b.g
	p := b.prober()
	acc := forcingAcc{elims: make([]uint32, len(b.cand)), vals: make([]uint8, len(b.cand))}
	var bestBranches []Candidate
	bestEvents := 1 << 30
	bestUnit := -1
	var branches []Candidate
	try := func(unit int) {
		events := 0
		for _, br := range branches {
			k := dc.index[br.Cell*n+br.Value]
			if dc.bad[k] {
				return // a contradiction: dynContradiction has it
			}
			events += int(dc.events[k])
		}
		if static {
			// Sudoku Explainer rates each conclusion by the events it
			// rests on in all branches and takes the easiest: do the same.
			if !b.forcingBranches(p, branches, &acc, dc) {
				return
			}
			_, total := b.bestConclusion(p, branches, &acc)
			if total >= bestEvents {
				return
			}
			events = total
		} else if events >= bestEvents || !b.forcingBranches(p, branches, &acc, dc) {
			return
		}
		bestEvents = events
		bestBranches = append(bestBranches[:0], branches...)
		bestUnit = unit
	}
	for cell, m := range b.cand {
		if bits.OnesCount32(m) < 2 || (static && bits.OnesCount32(m) < 3) {
			continue
		}
		branches = branches[:0]
		for ; m != 0; m &= m - 1 {
			branches = append(branches, Candidate{cell, bits.TrailingZeros32(m)})
		}
		try(-1)
	}
	for u := range g.units {
		for m := b.all &^ b.placed[u]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			ps := b.pos[u*n+d]
			if bits.OnesCount32(ps) < 2 {
				continue
			}
			if first := g.unitCells[u][bits.TrailingZeros32(ps)]; static && bits.OnesCount32(b.cand[first]) < 3 {
				continue
			}
			branches = branches[:0]
			for ; ps != 0; ps &= ps - 1 {
				branches = append(branches, Candidate{g.unitCells[u][bits.TrailingZeros32(ps)], d})
			}
			try(u)
		}
	}
	if bestBranches == nil {
		return Step{}, false
	}
	return b.forcingStep(p, bestBranches, bestUnit, &acc, dc, static), true
}

// forcingBranches probes each branch (cell, digit 0-based) and intersects
// their outcomes into acc. It reports whether some conclusion is common to
// all branches and none is a contradiction.
func (b *board) forcingBranches(p *probe, branches []Candidate, acc *forcingAcc, dc *dynCache) bool {
	size := len(b.cand)
	for i, br := range branches {
		outCand, outVals := p.cand, p.vals
		if k := int(dc.index[br.Cell*b.n+br.Value]); dc.stored {
			outCand, outVals = dc.cand[k*size:(k+1)*size], dc.vals[k*size:(k+1)*size]
		} else {
			p.reset(-1, false)
			p.run(br.Cell, br.Value)
			if p.bad {
				return false
			}
		}
		if i == 0 {
			acc.live = acc.live[:0]
			for c, m := range b.cand {
				if m == 0 {
					continue
				}
				gone := m &^ outCand[c]
				v := uint8(0)
				if b.vals[c] == 0 {
					v = outVals[c]
				}
				acc.elims[c], acc.vals[c] = gone, v
				if gone != 0 || v != 0 {
					acc.live = append(acc.live, int32(c))
				}
			}
		} else {
			live := acc.live[:0]
			for _, c := range acc.live {
				acc.elims[c] &= b.cand[c] &^ outCand[c]
				if b.vals[c] != 0 || acc.vals[c] != outVals[c] {
					acc.vals[c] = 0
				}
				if acc.elims[c] != 0 || acc.vals[c] != 0 {
					live = append(live, c)
				}
			}
			acc.live = live
		}
		if len(acc.live) == 0 {
			return false
		}
	}
	return true
}

// forcingStep re-runs the chosen branches with tracking to build the step.
func (b *board) forcingStep(p *probe, branches []Candidate, unit int, acc *forcingAcc, dc *dynCache, static bool) Step {
	b.forcingBranches(p, branches, acc, dc)
	st := Step{Technique: techCellForcing}
	base, unitName := 85, techUnitForcing
	if static {
		st.Technique, base, unitName = techStaticCell, 80, techStaticUnit
	}
	// The conclusions: placements common to all branches; eliminations
	// common to all, except in cells those placements fill.
	for c, v := range acc.vals {
		if v != 0 {
			st.Placements = append(st.Placements, Candidate{c, int(v)})
		}
	}
	for c, m := range acc.elims {
		if acc.vals[c] != 0 {
			continue
		}
		for ; m != 0; m &= m - 1 {
			st.Eliminations = append(st.Eliminations, Candidate{c, bits.TrailingZeros32(m) + 1})
		}
	}
	// Explain through the first conclusion (for static chains, the one
	// resting on the fewest events, which sets the score).
	var target Candidate
	targetOn := len(st.Placements) > 0
	if targetOn {
		target = st.Placements[0]
	} else {
		target = st.Eliminations[0]
	}
	if static {
		var c Candidate
		c, _ = b.bestConclusion(p, branches, acc)
		target, targetOn = Candidate{c.Cell, abs(c.Value)}, c.Value > 0
	}
	total := 0
	var parts []string
	for _, br := range branches {
		p.reset(-1, true)
		p.run(br.Cell, br.Value)
		var root int32 = -1
		if targetOn {
			root = p.placeEv[target.Cell]
		} else {
			root = p.elimEvent[target.Cell*b.n+target.Value-1]
		}
		chain := p.ancestors([]int32{root})
		total += len(chain)
		st.Causes = append(st.Causes, p.eventCandidates(chain)...)
		parts = append(parts, fmt.Sprintf("if %s = %s, then %s", b.name(br.Cell), b.sym(br.Value+1), p.describe(chain, 20)))
	}
	what := fmt.Sprintf("%s is not %s", b.name(target.Cell), b.sym(target.Value))
	if targetOn {
		what = fmt.Sprintf("%s = %s", b.name(target.Cell), b.sym(target.Value))
	}
	var choice string
	if unit < 0 {
		cell := branches[0].Cell
		st.Cells = []int{cell}
		st.Where = fmt.Sprintf("the candidates of %s", b.name(cell))
		choice = fmt.Sprintf("Whatever %s holds", b.name(cell))
	} else {
		st.Technique = unitName
		un := b.g.units[unit]
		st.Units = []Unit{un}
		v := b.sym(branches[0].Value + 1)
		st.Where = fmt.Sprintf("the places of %s in %s", v, un)
		choice = fmt.Sprintf("Wherever %s goes in %s", v, un)
	}
	if static {
		total -= 2 // SE counts a static chain's length as its complexity less 2
	}
	st.Score = forcingScore(base, total)
	st.Explanation = fmt.Sprintf("%s, %s (%s); so %s%s.", choice, what, strings.Join(parts, "; "), what, moreConclusions(len(st.Placements)+len(st.Eliminations)))
	return st
}

// bestConclusion finds, of the conclusions common to all branches (in acc),
// the one resting on the fewest events in all branches together. It returns
// it as (cell, value), the value negative for an elimination, and the count.
func (b *board) bestConclusion(p *probe, branches []Candidate, acc *forcingAcc) (Candidate, int) {
	var concl []Candidate
	for c, v := range acc.vals {
		if v != 0 {
			concl = append(concl, Candidate{c, int(v)})
		}
	}
	for c, m := range acc.elims {
		if acc.vals[c] != 0 {
			continue
		}
		for ; m != 0; m &= m - 1 {
			concl = append(concl, Candidate{c, -(bits.TrailingZeros32(m) + 1)})
		}
	}
	totals := make([]int, len(concl))
	for _, br := range branches {
		p.reset(-1, true)
		p.run(br.Cell, br.Value)
		for i, c := range concl {
			root := p.placeEv[c.Cell]
			if c.Value < 0 {
				root = p.elimEvent[c.Cell*b.n-c.Value-1]
			}
			totals[i] += p.countAncestors([]int32{root})
		}
	}
	best := 0
	for i := range totals {
		if totals[i] < totals[best] {
			best = i
		}
	}
	return concl[best], totals[best]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func moreConclusions(k int) string {
	if k <= 1 {
		return ""
	}
	return fmt.Sprintf(", and %d more conclusions follow the same way", k-1)
}
