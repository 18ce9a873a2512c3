package sudoku

import (
	"math/bits"
)

// Sudoku Explainer's multiple chains (getMultipleChainsHintList): Nishio,
// multiple and dynamic forcing chains and their nested levels look for
// hints cell by cell, and for each candidate of the cell compare the
// chainings from it ON and OFF and from the other places of its digit.
// Each comparison is a group here; SE's order of discovery is the order
// of the groups, and of the hints inside each (seHint.scan), so that the
// easiest hint wins ties as in SE whatever order the groups are followed in.

// seGroup is one comparison of chainings that can yield hints.
type seGroup struct {
	kind int8 // seContradiction, seDouble, seRegionForcing or seCellForcing
	on   bool // a contradiction: from the candidate ON, else OFF
	d    int8 // the digit; 0 for a cell forcing chain
	cell int16
	unit int16 // a region forcing chain's unit, else -1
	// scan orders the groups as SE meets them.
	scan int32
}

// multipleChains is SE's getMultipleChainsHintList for Nishio, multiple
// and dynamic chains (and their nested levels): every group in SE's order.
// A level-0 search on a 9x9 grid keeps its chainings flat
// (tech_seflat.go).
func (e *seEngine) multipleChains(best *seBest) {
	e.used = 0
	e.flat = e.level == 0 && e.n == 9
	if e.flat {
		e.flatReady()
	}
	var gs []seGroup
	for cell := 0; cell < e.size; cell++ {
		if !e.chainCell(cell) {
			continue
		}
		if e.ctx != nil && e.ctx.Err() != nil {
			return
		}
		gs = e.cellGroups(cell, gs[:0])
		for i := range gs {
			e.evalGroup(&gs[i], best)
		}
	}
}

// chainCell reports whether SE looks for multiple chains from cell: an
// empty cell with three candidates or more, or two for dynamic chains.
func (e *seEngine) chainCell(cell int) bool {
	card := bits.OnesCount32(e.src[cell])
	return e.b.vals[cell] == 0 && (card > 2 || (card > 1 && e.dynamic))
}

// cellGroups appends cell's groups in SE's order (getMultipleChainsHintListForCell):
// for each candidate, the contradictions from it ON and OFF, the double
// implications, the region forcing chains of the units where the cell is
// the digit's first place; then the cell forcing chains.
func (e *seEngine) cellGroups(cell int, out []seGroup) []seGroup {
	card := bits.OnesCount32(e.src[cell])
	doDouble := card >= 3 && !e.nishio && e.dynamic
	doContradiction := e.dynamic || e.nishio
	vi := 0
	for m := e.src[cell]; m != 0; m &= m - 1 {
		d := bits.TrailingZeros32(m) + 1
		g := seGroup{d: int8(d), cell: int16(cell), unit: -1, scan: int32((cell*10 + vi) * 8)}
		if doContradiction {
			g.kind, g.on = seContradiction, true
			out = append(out, g)
			g.on = false
			g.scan++
			out = append(out, g)
		}
		if doDouble {
			g.kind, g.scan = seDouble, int32((cell*10+vi)*8+2)
			out = append(out, g)
		}
		if !e.nishio {
			for i, u := range e.seUnits(cell) {
				places := e.spos[u*e.n+d-1]
				if bits.OnesCount32(places) >= 2 && e.b.g.unitCells[u][bits.TrailingZeros32(places)] == cell {
					out = append(out, seGroup{kind: seRegionForcing, d: int8(d), cell: int16(cell), unit: int16(u), scan: int32((cell*10+vi)*8 + 3 + i)})
				}
			}
		}
		vi++
	}
	if !e.nishio && card >= 2 {
		out = append(out, seGroup{kind: seCellForcing, cell: int16(cell), unit: -1, scan: int32((cell*10 + 9) * 8)})
	}
	return out
}

// evalGroup offers the hints of group g, as SE finds them.
func (e *seEngine) evalGroup(g *seGroup, best *seBest) {
	if e.flat {
		e.evalFlatGroup(g, best)
		return
	}
	cell, d := int(g.cell), int(g.d)
	scan := int64(g.scan) << 20
	switch g.kind {
	case seContradiction:
		c := e.offChaining(cell, d)
		if g.on {
			c = e.onChaining(cell, d)
		}
		if !c.absurd {
			return
		}
		h := &seHint{kind: seContradiction, sortKey: 7, unit: -1, src: Candidate{cell, d}, targets: []int32{c.absOn, c.absOff}, scan: scan}
		if g.on {
			h.elims = []Candidate{{cell, d}}
		} else {
			h.elims, h.place = e.placeElims(cell, d)
		}
		best.offer(e.finish(h, e.ancestors(c.absOn)+e.ancestors(c.absOff)))
	case seDouble:
		on, off := e.onChaining(cell, d), e.offChaining(cell, d)
		for _, list := range [2][]int32{on.set.ons, on.set.offs} {
			for _, t := range list {
				if o := off.set.get(e.key(t)); o >= 0 {
					h := &seHint{kind: seDouble, sortKey: 1, unit: -1, src: Candidate{cell, d}, targets: []int32{t, o}, scan: scan}
					scan++
					h.elims, h.place = e.removeFor(t)
					best.offer(e.finish(h, e.ancestors(t)+e.ancestors(o)))
				}
			}
		}
	case seRegionForcing:
		var outs []*seChaining
		bit := uint32(1) << (d - 1)
		for _, c := range e.b.g.unitCells[g.unit] {
			if e.src[c]&bit != 0 {
				outs = append(outs, e.onChaining(c, d))
			}
		}
		h := seHint{kind: seRegionForcing, sortKey: 6, unit: int(g.unit), src: Candidate{Cell: cell, Value: d}, scan: scan}
		e.commonHints(outs, h, best)
	case seCellForcing:
		var outs []*seChaining
		for m := e.src[cell]; m != 0; m &= m - 1 {
			outs = append(outs, e.onChaining(cell, bits.TrailingZeros32(m)+1))
		}
		h := seHint{kind: seCellForcing, sortKey: 5, unit: -1, src: Candidate{Cell: cell}, scan: scan}
		e.commonHints(outs, h, best)
	}
}

// commonHints offers a hint like proto for each potential every chaining
// of outs holds (a region or cell forcing chain), in the first chaining's
// order, ON potentials first.
func (e *seEngine) commonHints(outs []*seChaining, proto seHint, best *seBest) {
	first := outs[0].set
	for _, list := range [2][]int32{first.ons, first.offs} {
		for _, t := range list {
			k := e.key(t)
			ok := true
			for _, c := range outs[1:] {
				if !c.set.has(k) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			h := proto
			proto.scan++
			h.targets = make([]int32, len(outs))
			for i, c := range outs {
				h.targets[i] = c.set.get(k)
			}
			h.elims, h.place = e.removeFor(t)
			if len(h.elims) == 0 && h.place.Value == 0 {
				continue
			}
			flat := 0
			for _, id := range h.targets {
				flat += e.ancestors(id)
			}
			best.offer(e.finish(&h, flat))
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
