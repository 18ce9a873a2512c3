package sudoku

import (
	"context"
	"math/bits"
)

// solveMarked searches position g for up to limit solutions, honouring its
// pencil marks (a value a cell's marks exclude is never tried there). It is
// the fallback for hints on pasted grids whose digits alone have several
// solutions: such positions are far along, so a plain depth-first search
// with singles propagation on the logic board is quick.
func solveMarked(ctx context.Context, g *Grid, limit int) ([]*Grid, error) {
	b, err := newBoard(g)
	if err != nil {
		return nil, nil
	}
	var out []*Grid
	nodes := 0
	var search func(b *board) error
	search = func(b *board) error {
		if nodes++; nodes%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !propagateSingles(b) {
			return nil
		}
		if b.left == 0 {
			out = append(out, b.grid())
			return nil
		}
		best, bestN := -1, 99
		for c, v := range b.vals {
			if v == 0 {
				if k := bits.OnesCount32(b.cand[c]); k < bestN {
					best, bestN = c, k
				}
			}
		}
		for m := b.cand[best]; m != 0 && len(out) < limit; m &= m - 1 {
			c := b.clone()
			c.place(best, bits.TrailingZeros32(m)+1)
			if err := search(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := search(b); err != nil {
		return out, err
	}
	return out, nil
}

// propagateSingles fills naked and hidden singles until none is left. It
// reports false when the board turns out broken.
func propagateSingles(b *board) bool {
	for {
		if b.broken() {
			return false
		}
		changed := false
		for c, v := range b.vals {
			if v == 0 && bits.OnesCount32(b.cand[c]) == 1 {
				b.place(c, bits.TrailingZeros32(b.cand[c])+1)
				changed = true
			}
		}
		if changed {
			continue
		}
		b.refresh()
		n := b.n
		for u, cells := range b.g.unitCells {
			// place keeps pos current: read the unit's positions as they
			// were before this unit's first placement.
			var pos [32]uint32
			copy(pos[:n], b.pos[u*n:u*n+n])
			for d := 0; d < n; d++ {
				p := pos[d]
				if bits.OnesCount32(p) == 1 && b.placed[u]&(1<<d) == 0 {
					b.place(cells[bits.TrailingZeros32(p)], d+1)
					changed = true
				}
			}
			if changed {
				break
			}
		}
		if !changed {
			return true
		}
	}
}
