package sudoku

import (
	"math/bits"
	"sync"
)

// Flat chainings: SE's doChaining for the searches without nesting (level
// 0: Nishio, multiple and dynamic forcing chains, and the searches of
// those kinds nested in deeper ones), on a 9x9 grid, without a node per
// potential.
//
// In such a chaining every potential has one node, and its parents follow
// from the position: an OFF potential has the ON one that made it; an ON
// potential has the OFF one that made it plus, in a dynamic chaining, the
// other candidates of its cell (or the other places of its digit in its
// unit) of the position, which were all OFF when it was made (that is why
// it was made). So a chaining keeps, per potential key, the key of the
// potential that made it and why, and a bit set of the keys it holds; the
// counts of ancestors walk these implicit parents. The potentials come
// in SE's order, and the chaining stops at SE's first contradiction, so
// the hints and their complexities are SE's.

// seFlatKeys is the number of potential keys on a 9x9 grid: 2 per
// candidate, (cell*9 + digit-1)*2, +1 when ON.
const seFlatKeys = 2 * 81 * 9

// seFlat is one flat chaining.
type seFlat struct {
	in [(seFlatKeys + 63) / 64]uint64
	// made[key] is 1 + the key of the potential that made it (0 for the
	// assumption) | cause<<12.
	made      [seFlatKeys]uint16
	ons, offs []int16 // in SE's order
	absurd    bool
	// The contradiction: the potential made last (not in the set: the
	// set holds it the other way) and how it was made.
	absKey  int16
	absMade uint16
}

func (f *seFlat) has(k int) bool { return f.in[k>>6]&(1<<(k&63)) != 0 }

// seFlatGeo is the 9x9 geometry the flat chainings read, in SE's order of
// units for a cell: box, row, column.
type seFlatGeo struct {
	units [81][3]uint8  // unit numbers (board numbering)
	idx   [81][3]uint8  // the cell's position in each
	excl  [81][3]uint16 // positions not to list again: itself; its box in its row and column
	cells [27][9]uint8  // the cells of each unit
}

func newSEFlatGeo(g *logicGeo) *seFlatGeo {
	fg := &seFlatGeo{}
	for u, cells := range g.unitCells {
		for i, c := range cells {
			fg.cells[u][i] = uint8(c)
		}
	}
	for c := 0; c < 81; c++ {
		cu := g.cellUnits[c]
		for i, k := range seKind {
			u := cu[k]
			fg.units[c][i] = uint8(u)
			fg.idx[c][i] = uint8(g.cellIdx[c][k])
			fg.excl[c][i] = uint16(g.seExcl[c][i])
		}
	}
	return fg
}

// seFlatState is a flat engine's scratch: the position and the working
// grid of the chaining under way.
type seFlatState struct {
	geo        *seFlatGeo
	lg         *logicGeo // what geo was made from
	src, grid  [81]uint16
	spos, upos [27 * 9]uint16 // places of each digit in each unit: u*9 + digit-1
	pool       []*seFlat
	used       int
	on, off    [81 * 9]int32 // cached chainings: 1 + index in pool
	mark       [seFlatKeys]uint32
	stamp      uint32
	stack      []int32
}

// seFlatStates keeps flat states from one rating for the next (see
// releaseFlat): a rating of a hard puzzle fills one with a thousand
// chainings of 3 KB each, which it would otherwise allocate afresh.
var seFlatStates sync.Pool

// flatReady readies e's flat state for a search on e.src.
func (e *seEngine) flatReady() {
	fs := e.fs
	if fs == nil {
		if old, ok := seFlatStates.Get().(*seFlatState); ok && old.lg == e.b.g {
			fs = old
		} else {
			fs = &seFlatState{geo: newSEFlatGeo(e.b.g), lg: e.b.g}
		}
		e.fs = fs
	}
	for c := 0; c < 81; c++ {
		fs.src[c] = uint16(e.src[c])
	}
	for u := range fs.spos {
		fs.spos[u] = uint16(e.spos[u])
	}
	fs.used = 0
	clear(fs.on[:])
	clear(fs.off[:])
}

// releaseFlat gives the flat states of e and of the engines nested in it
// back for the next rating; e must not use them again.
func (e *seEngine) releaseFlat() {
	for c := e; c != nil; c = c.child {
		if c.fs != nil {
			seFlatStates.Put(c.fs)
			c.fs = nil
		}
	}
}

// flatOn returns the (cached) chaining from candidate ci (cell*9 + digit-1)
// ON, flatOff from it OFF.
func (e *seEngine) flatOn(ci int) (*seFlat, int32) { return e.flatFrom(ci, true) }

func (e *seEngine) flatOff(ci int) (*seFlat, int32) { return e.flatFrom(ci, false) }

func (e *seEngine) flatFrom(ci int, on bool) (*seFlat, int32) {
	fs := e.fs
	cache := &fs.off
	if on {
		cache = &fs.on
	}
	if i := cache[ci]; i != 0 {
		return fs.pool[i-1], i - 1
	}
	if fs.used == len(fs.pool) {
		fs.pool = append(fs.pool, &seFlat{})
	}
	f := fs.pool[fs.used]
	fs.used++
	cache[ci] = int32(fs.used)
	k := 2 * ci
	if on {
		k++
	}
	e.flatChain(f, k)
	return f, int32(fs.used - 1)
}

// flatChain is doChaining from potential start, kept in f.
//
// Adding a potential (unless held; a contradiction if its denial is) is
// written out at each of its four places: as a method the compiler won't
// inline it, and the rater then takes 2-3% longer.
func (e *seEngine) flatChain(f *seFlat, start int) {
	fs := e.fs
	geo := fs.geo
	fs.grid, fs.upos = fs.src, fs.spos
	f.in = [len(f.in)]uint64{}
	f.ons, f.offs = f.ons[:0], f.offs[:0]
	f.absurd = false
	y, dynamic := !e.nishio, e.dynamic
	f.in[start>>6] |= 1 << (start & 63)
	f.made[start] = 0
	if start&1 == 1 {
		f.ons = append(f.ons, int16(start))
	} else {
		f.offs = append(f.offs, int16(start))
	}
	hOn, hOff := 0, 0
	for {
		if hOn < len(f.ons) {
			p := int(f.ons[hOn])
			hOn++
			ci := p >> 1
			c, d := ci/9, ci%9
			made := uint16(p + 1)
			if y {
				for m := fs.grid[c] &^ (1 << d); m != 0; m &= m - 1 {
					q := 2 * (c*9 + bits.TrailingZeros16(m))
					if f.has(q) {
						continue
					}
					if f.has(q + 1) {
						f.absurd, f.absKey, f.absMade = true, int16(q), made|seCauseCell<<12
						return
					}
					f.in[q>>6] |= 1 << (q & 63)
					f.made[q] = made | seCauseCell<<12
					f.offs = append(f.offs, int16(q))
				}
			}
			for i := 0; i < 3; i++ {
				u := int(geo.units[c][i])
				for m := fs.upos[u*9+d] &^ geo.excl[c][i]; m != 0; m &= m - 1 {
					x := int(geo.cells[u][bits.TrailingZeros16(m)])
					q := 2 * (x*9 + d)
					if f.has(q) {
						continue
					}
					cause := uint16(seCauseBox+i) << 12
					if f.has(q + 1) {
						f.absurd, f.absKey, f.absMade = true, int16(q), made|cause
						return
					}
					f.in[q>>6] |= 1 << (q & 63)
					f.made[q] = made | cause
					f.offs = append(f.offs, int16(q))
				}
			}
			continue
		}
		if hOff < len(f.offs) {
			p := int(f.offs[hOff])
			hOff++
			ci := p >> 1
			c, d := ci/9, ci%9
			made := uint16(p + 1)
			if y && bits.OnesCount16(fs.grid[c]) == 2 {
				q := 2*(c*9+bits.TrailingZeros16(fs.grid[c]&^(1<<d))) + 1
				if !f.has(q) {
					if f.has(q - 1) {
						f.absurd, f.absKey, f.absMade = true, int16(q), made|seCauseCell<<12
						return
					}
					f.in[q>>6] |= 1 << (q & 63)
					f.made[q] = made | seCauseCell<<12
					f.ons = append(f.ons, int16(q))
				}
			}
			for i := 0; i < 3; i++ {
				u := int(geo.units[c][i])
				m := fs.upos[u*9+d] &^ (1 << geo.idx[c][i])
				if m == 0 || m&(m-1) != 0 {
					continue
				}
				x := int(geo.cells[u][bits.TrailingZeros16(m)])
				q := 2*(x*9+d) + 1
				if f.has(q) {
					continue
				}
				cause := uint16(seCauseBox+i) << 12
				if f.has(q - 1) {
					f.absurd, f.absKey, f.absMade = true, int16(q), made|cause
					return
				}
				f.in[q>>6] |= 1 << (q & 63)
				f.made[q] = made | cause
				f.ons = append(f.ons, int16(q))
			}
			if dynamic {
				fs.grid[c] &^= 1 << d
				for i := 0; i < 3; i++ {
					fs.upos[int(geo.units[c][i])*9+d] &^= 1 << geo.idx[c][i]
				}
			}
			continue
		}
		return
	}
}

// seFlatTarget names a potential of flat chaining fi: key k, or with
// isNew the contradiction's last potential (not in the set).
func seFlatTarget(fi int32, k int, isNew bool) int32 {
	t := fi<<12 | int32(k)<<1
	if isNew {
		t |= 1
	}
	return t
}

// flatMade returns how target t was made: the maker's key (-1 for the
// assumption) and the cause.
func (e *seEngine) flatMade(t int32) (f *seFlat, key, maker int, cause int8) {
	f = e.fs.pool[t>>12]
	key = int(t>>1) & 2047
	m := f.made[key]
	if t&1 == 1 {
		m = f.absMade
	}
	return f, key, int(m&4095) - 1, int8(m >> 12)
}

// flatAncestors counts the distinct potentials target t rests on, itself
// included.
func (e *seEngine) flatAncestors(t int32) int {
	fs := e.fs
	fs.stamp++
	if fs.stamp == 0 {
		clear(fs.mark[:])
		fs.stamp = 1
	}
	f, key, maker, cause := e.flatMade(t)
	fs.mark[key] = fs.stamp
	stack := fs.pushParents(fs.stack[:0], f, key, maker, cause)
	count := 1
	for len(stack) > 0 {
		k := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if fs.mark[k] == fs.stamp {
			continue
		}
		fs.mark[k] = fs.stamp
		count++
		m := f.made[k]
		stack = fs.pushParents(stack, f, k, int(m&4095)-1, int8(m>>12))
	}
	fs.stack = stack[:0]
	return count
}

// pushParents appends the parents of potential key of f (made by maker,
// for cause) that are not marked yet: maker, then, for an ON potential
// made in a dynamic chaining, the other candidates of its cell or the
// other places of its digit in the unit, OFF (in a static chaining there
// are none: the cell had two candidates, the unit two places).
func (fs *seFlatState) pushParents(stack []int32, f *seFlat, key, maker int, cause int8) []int32 {
	if maker < 0 {
		return stack
	}
	if fs.mark[maker] != fs.stamp {
		stack = append(stack, int32(maker))
	}
	if key&1 == 0 {
		return stack
	}
	ci, mi := key>>1, maker>>1
	c, d := ci/9, ci%9
	if cause == seCauseCell {
		for m := fs.src[c] &^ (1<<d | 1<<(mi%9)); m != 0; m &= m - 1 {
			if k := 2 * (c*9 + bits.TrailingZeros16(m)); fs.mark[k] != fs.stamp {
				stack = append(stack, int32(k))
			}
		}
		return stack
	}
	geo := fs.geo
	u := int(geo.units[c][cause-seCauseBox])
	mc := mi / 9
	for m := fs.spos[u*9+d]; m != 0; m &= m - 1 {
		x := int(geo.cells[u][bits.TrailingZeros16(m)])
		if k := 2 * (x*9 + d); x != c && x != mc && fs.mark[k] != fs.stamp {
			stack = append(stack, int32(k))
		}
	}
	return stack
}

// evalFlatGroup is evalGroup on flat chainings.
func (e *seEngine) evalFlatGroup(g *seGroup, best *seBest) {
	cell, d := int(g.cell), int(g.d)
	ci := cell*9 + d - 1
	scan := int64(g.scan) << 20
	switch g.kind {
	case seContradiction:
		f, fi := e.flatOff(ci)
		if g.on {
			f, fi = e.flatOn(ci)
		}
		if !f.absurd {
			return
		}
		made := seFlatTarget(fi, int(f.absKey), true)
		held := seFlatTarget(fi, int(f.absKey)^1, false)
		absOn, absOff := held, made
		if f.absKey&1 == 1 {
			absOn, absOff = made, held
		}
		h := &seHint{kind: seContradiction, sortKey: 7, unit: -1, src: Candidate{cell, d}, targets: []int32{absOn, absOff}, scan: scan}
		if g.on {
			h.elims = []Candidate{{cell, d}}
		} else {
			h.elims, h.place = e.placeElims(cell, d)
		}
		best.offer(e.finish(h, e.flatAncestors(absOn)+e.flatAncestors(absOff)))
	case seDouble:
		on, oi := e.flatOn(ci)
		off, fi := e.flatOff(ci)
		for _, list := range [2][]int16{on.ons, on.offs} {
			for _, k := range list {
				if !off.has(int(k)) {
					continue
				}
				t, o := seFlatTarget(oi, int(k), false), seFlatTarget(fi, int(k), false)
				h := &seHint{kind: seDouble, sortKey: 1, unit: -1, src: Candidate{cell, d}, targets: []int32{t, o}, scan: scan}
				scan++
				h.elims, h.place = e.flatRemoveFor(int(k))
				best.offer(e.finish(h, e.flatAncestors(t)+e.flatAncestors(o)))
			}
		}
	case seRegionForcing:
		var outs [9]int32
		n := 0
		bit := uint32(1) << (d - 1)
		for _, c := range e.b.g.unitCells[g.unit] {
			if e.src[c]&bit != 0 {
				_, outs[n] = e.flatOn(c*9 + d - 1)
				n++
			}
		}
		h := seHint{kind: seRegionForcing, sortKey: 6, unit: int(g.unit), src: Candidate{Cell: cell, Value: d}, scan: scan}
		e.flatCommonHints(outs[:n], h, best)
	case seCellForcing:
		var outs [9]int32
		n := 0
		for m := e.src[cell]; m != 0; m &= m - 1 {
			_, outs[n] = e.flatOn(cell*9 + bits.TrailingZeros32(m))
			n++
		}
		h := seHint{kind: seCellForcing, sortKey: 5, unit: -1, src: Candidate{Cell: cell}, scan: scan}
		e.flatCommonHints(outs[:n], h, best)
	}
}

// flatCommonHints is commonHints on flat chainings (by index in the pool).
func (e *seEngine) flatCommonHints(outs []int32, proto seHint, best *seBest) {
	pool := e.fs.pool
	first := pool[outs[0]]
	common := first.in
	for _, i := range outs[1:] {
		for w := range common {
			common[w] &= pool[i].in[w]
		}
	}
	if common == ([len(first.in)]uint64{}) {
		return
	}
	for _, list := range [2][]int16{first.ons, first.offs} {
		for _, k16 := range list {
			k := int(k16)
			if common[k>>6]&(1<<(k&63)) == 0 {
				continue
			}
			h := proto
			proto.scan++
			h.elims, h.place = e.flatRemoveFor(k)
			if len(h.elims) == 0 && h.place.Value == 0 {
				continue
			}
			h.targets = make([]int32, len(outs))
			flat := 0
			for i, fi := range outs {
				h.targets[i] = seFlatTarget(fi, k, false)
				flat += e.flatAncestors(h.targets[i])
			}
			best.offer(e.finish(&h, flat))
		}
	}
}

// flatRemoveFor is removeFor for potential key k.
func (e *seEngine) flatRemoveFor(k int) ([]Candidate, Candidate) {
	ci := k >> 1
	cell, d := ci/9, ci%9+1
	if k&1 == 0 {
		return []Candidate{{Cell: cell, Value: d}}, Candidate{}
	}
	return e.placeElims(cell, d)
}

// flatRuleParents is ruleParents for a hint of flat chainings.
func (c *seEngine) flatRuleParents(h *seHint, rootCause int8, collect func(cell, d int, cause int8)) {
	fs := c.fs
	for _, t := range h.targets {
		fs.stamp++
		if fs.stamp == 0 {
			clear(fs.mark[:])
			fs.stamp = 1
		}
		f, key, maker, cause := c.flatMade(t)
		stack := fs.stack[:0]
		for {
			if fs.mark[key] != fs.stamp {
				fs.mark[key] = fs.stamp
				if cause == 0 && maker < 0 {
					cause = rootCause
				}
				if key&1 == 1 && cause != 0 {
					collect(key>>1/9, key>>1%9+1, cause)
				}
				stack = fs.pushParents(stack, f, key, maker, cause)
			}
			if len(stack) == 0 {
				break
			}
			key = int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			m := f.made[key]
			maker, cause = int(m&4095)-1, int8(m>>12)
		}
		fs.stack = stack[:0]
	}
}

// flatChainKeys calls add on the keys of the potentials target t rests on,
// itself first, breadth first, parents in SE's order (chainSig).
func (e *seEngine) flatChainKeys(t int32, add func(k int)) {
	fs := e.fs
	fs.stamp++
	if fs.stamp == 0 {
		clear(fs.mark[:])
		fs.stamp = 1
	}
	f, key, maker, cause := e.flatMade(t)
	fs.mark[key] = fs.stamp
	add(key)
	queue := fs.pushParents(fs.stack[:0], f, key, maker, cause)
	for i := 0; i < len(queue); i++ {
		k := int(queue[i])
		if fs.mark[k] == fs.stamp {
			continue
		}
		fs.mark[k] = fs.stamp
		add(k)
		m := f.made[k]
		queue = fs.pushParents(queue, f, k, int(m&4095)-1, int8(m>>12))
	}
	fs.stack = queue[:0]
}
