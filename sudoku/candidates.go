package sudoku

import "math/bits"

// Candidates returns g's pencil marks: for each cell, a bitmask with bit v-1
// set when value v can go there without repeating a filled peer. Filled
// cells get 0. The marks are the plain ones, before any technique removes
// more; a Logic keeps the refined ones.
func (g *Grid) Candidates() []uint32 {
	geo := g.Shape.Geometry()
	all := uint32(1)<<g.N() - 1
	out := make([]uint32, len(g.Cells))
	for cell, v := range g.Cells {
		if v != 0 {
			continue
		}
		m := all
		for _, p := range geo.Peers[cell] {
			if pv := g.Cells[p]; pv != 0 {
				m &^= 1 << (pv - 1)
			}
		}
		out[cell] = m
	}
	return out
}

// MaskValues lists the values (1-based) whose bits are set in a candidate
// mask, smallest first.
func MaskValues(m uint32) []int {
	out := make([]int, 0, bits.OnesCount32(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m)+1)
	}
	return out
}
