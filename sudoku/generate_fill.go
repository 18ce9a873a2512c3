package sudoku

import (
	"context"
	"math/bits"
	"math/rand/v2"
)

// filler draws random complete grids: depth-first search that fills the cell
// with the fewest candidates next and tries its candidates in random order.
//
// The generator uses its own filler rather than SolveWith so that a seed's
// puzzle depends only on this file, not on the fast solver's branching
// order, which is free to change.
type filler struct {
	n     int
	geo   *Geometry
	rng   *rand.Rand
	all   uint32
	vals  []uint8
	unitM []uint32 // placed digits per unit (rows, columns, boxes)
	nodes int
	limit int
}

func newFiller(sh Shape, rng *rand.Rand) *filler {
	n := sh.N()
	return &filler{
		n:     n,
		geo:   sh.Geometry(),
		rng:   rng,
		all:   uint32(1)<<n - 1,
		vals:  make([]uint8, n*n),
		unitM: make([]uint32, 3*n),
	}
}

// fill returns a random complete grid. Searches that wander too long (rare,
// and only on big grids) restart with fresh random choices; ctx is checked
// between restarts.
func (f *filler) fill(ctx context.Context) ([]uint8, error) {
	f.limit = 20 * len(f.vals)
	for {
		clear(f.vals)
		clear(f.unitM)
		f.nodes = 0
		if f.search() {
			return append([]uint8(nil), f.vals...), nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f.limit *= 2
	}
}

func (f *filler) candidates(cell int) uint32 {
	u := &f.geo.CellUnits[cell]
	return f.all &^ (f.unitM[u[0]] | f.unitM[u[1]] | f.unitM[u[2]])
}

func (f *filler) set(cell, v int) {
	bit := uint32(1) << (v - 1)
	f.vals[cell] = uint8(v)
	for _, u := range f.geo.CellUnits[cell] {
		f.unitM[u] ^= bit
	}
}

// search fills the remaining cells; it reports false on a dead end or when
// the node budget is spent.
func (f *filler) search() bool {
	f.nodes++
	if f.nodes > f.limit {
		return false
	}
	best, bestCount, bestMask := -1, 99, uint32(0)
	for cell, v := range f.vals {
		if v != 0 {
			continue
		}
		m := f.candidates(cell)
		if c := bits.OnesCount32(m); c < bestCount {
			best, bestCount, bestMask = cell, c, m
			if c <= 1 {
				break
			}
		}
	}
	if best < 0 {
		return true
	}
	var order [MaxN]uint8
	k := 0
	for m := bestMask; m != 0; m &= m - 1 {
		order[k] = uint8(bits.TrailingZeros32(m) + 1)
		k++
	}
	for i := k - 1; i > 0; i-- {
		j := f.rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	for _, v := range order[:k] {
		f.set(best, int(v))
		if f.search() {
			return true
		}
		f.set(best, int(v)) // the XOR in set undoes the placement
		f.vals[best] = 0
	}
	return false
}
