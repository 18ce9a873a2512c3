package sudoku

import (
	"math/bits"
	"slices"
)

// Names of the techniques, as steps and ratings report them.
const (
	techFullHouse          = "Full house"
	techHiddenSingleBox    = "Hidden single"
	techHiddenSingleLine   = "Hidden single (row or column)"
	techNakedSingle        = "Naked single"
	techDirectPointing     = "Direct pointing"
	techDirectClaiming     = "Direct claiming"
	techPointing           = "Pointing"
	techClaiming           = "Claiming"
	techDirectHiddenPair   = "Direct hidden pair"
	techDirectHiddenTriple = "Direct hidden triple"
	techNakedPair          = "Naked pair"
	techNakedTriple        = "Naked triple"
	techNakedQuad          = "Naked quad"
	techHiddenPair         = "Hidden pair"
	techHiddenTriple       = "Hidden triple"
	techHiddenQuad         = "Hidden quad"
	techXWing              = "X-Wing"
	techSwordfish          = "Swordfish"
	techJellyfish          = "Jellyfish"
	techXYWing             = "XY-Wing"
	techXYZWing            = "XYZ-Wing"
	techUR1                = "Unique rectangle"
	techUR2                = "Unique rectangle type 2"
	techUR4                = "Unique rectangle type 4"
	techBUG                = "BUG+1"
	techTurbot             = "Turbot fish"
	techXChain             = "X-Chain"
	techXYChain            = "XY-Chain"
	techAIC                = "Alternating inference chain"
	techWWing              = "W-Wing"
)

// findFullHouse finds a unit with a single empty cell (SE 1.0).
func findFullHouse(b *board) (Step, bool) {
	for u := range b.g.units {
		if b.empties[u] != 1 {
			continue
		}
		missing := b.all &^ b.placed[u]
		if bits.OnesCount32(missing) != 1 {
			continue // broken position
		}
		v := bits.TrailingZeros32(missing) + 1
		for _, c := range b.g.unitCells[u] {
			if b.vals[c] == 0 && b.has(c, v) {
				un, cn, sv := b.g.unitName[u], b.name(c), b.sym(v)
				return Step{
					Technique:  techFullHouse,
					Score:      1.0,
					Placements: []Candidate{{c, v}},
					Units:      []Unit{b.g.units[u]},
					Where:      un,
					Explanation: capitalize(un) + " has one empty cell left, " + cn + ", and " + sv +
						" is the digit it lacks, so " + cn + " = " + sv + ".",
				}, true
			}
		}
	}
	return Step{}, false
}

func findHiddenSingleBox(b *board) (Step, bool) {
	return findHiddenSingle(b, Box, Box, techHiddenSingleBox, 1.2)
}

func findHiddenSingleLine(b *board) (Step, bool) {
	return findHiddenSingle(b, Row, Column, techHiddenSingleLine, 1.5)
}

// findHiddenSingle finds a digit with one place left in a unit of the kinds
// from..to (boxes SE 1.2, rows and columns 1.5).
func findHiddenSingle(b *board, from, to UnitKind, name string, score float64) (Step, bool) {
	n := b.n
	for u := int(from) * n; u < (int(to)+1)*n; u++ {
		missing := b.all &^ b.placed[u]
		for m := missing; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			p := b.pos[u*n+d]
			if bits.OnesCount32(p) != 1 {
				continue
			}
			c := b.g.unitCells[u][bits.TrailingZeros32(p)]
			v := d + 1
			un, cn, sv := b.g.unitName[u], b.name(c), b.sym(v)
			return Step{
				Technique:   name,
				Score:       score,
				Placements:  []Candidate{{c, v}},
				Units:       []Unit{b.g.units[u]},
				Cells:       b.blockers(u, c, v),
				Where:       sv + " in " + un,
				Explanation: "In " + un + ", " + sv + " fits only in " + cn + ", so " + cn + " = " + sv + ".",
			}, true
		}
	}
	return Step{}, false
}

// blockers returns, for each other empty cell of unit u, a filled peer
// holding v that rules v out there, if there is one: the cells a player
// looks at to see a hidden single.
func (b *board) blockers(u, keep, v int) []int {
	var out []int
	for _, c := range b.g.unitCells[u] {
		if c == keep || b.vals[c] != 0 {
			continue
		}
		for _, p := range b.g.peers[c] {
			if int(b.vals[p]) == v {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

// findNakedSingle finds a cell with one candidate left (SE 2.3).
func findNakedSingle(b *board) (Step, bool) {
	for c, m := range b.cand {
		if b.vals[c] != 0 || bits.OnesCount32(m) != 1 {
			continue
		}
		v := bits.TrailingZeros32(m) + 1
		// Say "sees every other digit" only when the filled peers alone
		// explain it; otherwise earlier steps removed candidates too.
		var seen uint32
		for _, p := range b.g.peers[c] {
			if pv := b.vals[p]; pv != 0 {
				seen |= 1 << (pv - 1)
			}
		}
		cn, sv := b.name(c), b.sym(v)
		why := cn + " has one candidate left, " + sv
		if seen|m == b.all {
			why = cn + "'s row, column and box already hold every digit but " + sv
		}
		return Step{
			Technique:   techNakedSingle,
			Score:       2.3,
			Placements:  []Candidate{{c, v}},
			Cells:       []int{c},
			Where:       cn,
			Explanation: why + ", so " + cn + " = " + sv + ".",
		}, true
	}
	return Step{}, false
}

// capitalize upper-cases the first letter of an ASCII sentence start.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
