package sudoku

import (
	"context"
	"math/bits"
	"sync"
)

// The 9x9 fast path.
//
// The candidates are kept digit-major: for each digit and each band (three
// rows of boxes) a 27-bit set of the cells of that band where the digit may
// still go, bit r*9+c for row r of the band and column c. One machine word
// then holds everything needed to reason about one digit inside one band,
// and the rules become a handful of table lookups:
//
//   - inside a band a digit takes exactly one cell in each of the three rows
//     and one in each of the three boxes, so its (row, box) pairs form a
//     3x3 permutation matrix. Shrinking each row to the three boxes it still
//     touches gives a 9-bit index; the table perm9 keeps only the (row, box)
//     pairs that belong to some permutation still possible. That one lookup
//     does pointing and claiming (box-line) inside the band, finds hidden
//     singles in boxes (they become single rows) and detects a digit with no
//     place left in a row or box.
//   - a row with one cell left for a digit is a placement (hidden single in
//     the row): the cell is taken from the other eight digits and its column
//     from the digit's other two bands.
//   - columns are checked across the three bands of a digit: an empty column
//     is a contradiction and a column with one cell left is a placement.
//   - naked singles and empty cells come from counting, bit-sliced, how many
//     digits each cell still has.
//
// The search guesses on a cell with two candidates when there is one (few
// are left after this much propagation) and keeps its states on a fixed stack
// of plain arrays, so a node costs no allocation.

const (
	band27 = 1<<27 - 1
	row9   = 0x1FF
)

// state9 is the whole search state of a 9x9 puzzle.
type state9 struct {
	// cand[d*3+b] holds the cells of band b where digit d+1 may go.
	cand [27]uint32
	// prev[i] is cand[i] as it was when band i was last brought up to date;
	// a difference means band i has news to propagate.
	prev [27]uint32
	// unsolved[b] holds the cells of band b not placed yet.
	unsolved [3]uint32
}

var (
	// shrink9[x] maps a 9-bit row to the 3 boxes it has bits in.
	shrink9 [512]uint32
	// perm9[m] is the 27-bit mask of the (row, box) triples compatible with
	// some permutation in the 3x3 row-by-box occupancy m (bit 3*row+box).
	perm9 [512]uint32
	// single9[x] is row9 when x has exactly one bit, else 0.
	single9 [512]uint32
	// keep9[p] clears, inside a band, every peer of cell p (same row, box or
	// column) and keeps p: applied to a digit's mask it places the digit.
	keep9 [27]uint32
	// otherBand[b] lists the two bands other than b.
	otherBand = [3][2]int{{1, 2}, {0, 2}, {0, 1}}
)

func init() {
	for x := 0; x < 512; x++ {
		for k := 0; k < 3; k++ {
			if x>>(3*k)&7 != 0 {
				shrink9[x] |= 1 << k
			}
		}
		if x != 0 && x&(x-1) == 0 {
			single9[x] = row9
		}
	}
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for m := 0; m < 512; m++ {
		union := 0
		for _, p := range perms {
			ok := true
			for r := 0; r < 3; r++ {
				if m>>(3*r+p[r])&1 == 0 {
					ok = false
				}
			}
			if ok {
				for r := 0; r < 3; r++ {
					union |= 1 << (3*r + p[r])
				}
			}
		}
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if union>>(3*r+k)&1 != 0 {
					perm9[m] |= 7 << (9*r + 3*k)
				}
			}
		}
	}
	for p := 0; p < 27; p++ {
		r, c := p/9, p%9
		var peers uint32
		for q := 0; q < 27; q++ {
			qr, qc := q/9, q%9
			if qr == r || qc == c || qc/3 == c/3 {
				peers |= 1 << q
			}
		}
		keep9[p] = band27&^peers | 1<<p
	}
}

// spread9 copies 9 column bits to all three rows of a band.
func spread9(cols uint32) uint32 { return cols | cols<<9 | cols<<18 }

// fold9 returns the columns where a band mask has a bit.
func fold9(x uint32) uint32 { return (x | x>>9 | x>>18) & row9 }

// propagate applies the rules until nothing changes. It reports false when
// the state has no solution.
func (s *state9) propagate() bool {
	for {
		// Bring every band with news up to date, until none has news.
		for changed := true; changed; {
			changed = false
			for i := 0; i < 27; i++ {
				m := s.cand[i]
				if m == s.prev[i] {
					continue
				}
				changed = true
				m &= perm9[shrink9[m&row9]|shrink9[m>>9&row9]<<3|shrink9[m>>18]<<6]
				if m == 0 {
					return false
				}
				s.cand[i], s.prev[i] = m, m
				b := i % 3
				placed := m & (single9[m&row9] | single9[m>>9&row9]<<9 | single9[m>>18]<<18) & s.unsolved[b]
				if placed == 0 {
					continue
				}
				s.unsolved[b] &^= placed
				for j := b; j < 27; j += 3 {
					if j != i {
						s.cand[j] &^= placed
					}
				}
				col := spread9(fold9(placed))
				ob := &otherBand[b]
				s.cand[i-b+ob[0]] &^= col
				s.cand[i-b+ob[1]] &^= col
			}
		}
		if s.unsolved[0]|s.unsolved[1]|s.unsolved[2] == 0 {
			return true
		}
		// Naked singles and empty cells.
		found := false
		for b := 0; b < 3; b++ {
			var ones, twos uint32
			for i := b; i < 27; i += 3 {
				x := s.cand[i]
				twos |= ones & x
				ones |= x
			}
			u := s.unsolved[b]
			if u&^ones != 0 {
				return false
			}
			for sg := u &^ twos; sg != 0; sg &= sg - 1 {
				p := bits.TrailingZeros32(sg)
				bit := uint32(1) << p
				i := b
				for ; i < 27; i += 3 {
					if s.cand[i]&bit != 0 {
						break
					}
				}
				if i >= 27 {
					// An earlier single of this loop took its last digit.
					return false
				}
				s.cand[i] &= keep9[p]
				found = true
			}
		}
		if found {
			continue
		}
		// Columns: each digit needs a cell in every column; a column left
		// with one cell is a placement.
		for d := 0; d < 27; d += 3 {
			m0, m1, m2 := s.cand[d], s.cand[d+1], s.cand[d+2]
			c0, c1, c2 := fold9(m0), fold9(m1), fold9(m2)
			if c0|c1|c2 != row9 {
				return false
			}
			// Columns present in one band only.
			only := [3]uint32{c0 &^ (c1 | c2), c1 &^ (c0 | c2), c2 &^ (c0 | c1)}
			ms := [3]uint32{m0, m1, m2}
			for b := 0; b < 3; b++ {
				if only[b] == 0 {
					continue
				}
				t := ms[b] & spread9(only[b]) & s.unsolved[b]
				if t == 0 {
					continue
				}
				r0, r1, r2 := t&row9, t>>9&row9, t>>18
				one := (r0 ^ r1 ^ r2) &^ (r0&r1 | r0&r2 | r1&r2)
				cells := t & spread9(one)
				for ; cells != 0; cells &= cells - 1 {
					p := bits.TrailingZeros32(cells)
					if s.cand[d+b]&(1<<p) == 0 {
						return false
					}
					s.cand[d+b] &= keep9[p]
					found = true
				}
			}
		}
		if !found {
			return true
		}
	}
}

// pick chooses the cell to guess on: the first cell with two candidates, or
// else one with the fewest. It returns the band, the position in the band,
// and the cell's candidates as a 9-bit digit mask.
func (s *state9) pick() (b, p int, digits uint32) {
	for b := 0; b < 3; b++ {
		var ones, twos, threes uint32
		for i := b; i < 27; i += 3 {
			x := s.cand[i]
			threes |= twos & x
			twos |= ones & x
			ones |= x
		}
		if biv := s.unsolved[b] & twos &^ threes; biv != 0 {
			p := bits.TrailingZeros32(biv)
			return b, p, s.digitsAt(b, p)
		}
	}
	best := 10
	for bb := 0; bb < 3; bb++ {
		for u := s.unsolved[bb]; u != 0; u &= u - 1 {
			pp := bits.TrailingZeros32(u)
			ds := s.digitsAt(bb, pp)
			if n := bits.OnesCount32(ds); n < best {
				best, b, p, digits = n, bb, pp, ds
			}
		}
	}
	return b, p, digits
}

func (s *state9) digitsAt(b, p int) uint32 {
	var ds uint32
	for d := 0; d < 9; d++ {
		ds |= (s.cand[d*3+b] >> p & 1) << d
	}
	return ds
}

// solver9 holds the stack of a 9x9 search; it is reused through a pool so a
// solve allocates only its results.
type solver9 struct {
	stack [82]state9
}

var solver9Pool = sync.Pool{New: func() any { return new(solver9) }}

// ctxCheck9 is how many nodes pass between two looks at the context: a few
// thousand nodes take about a millisecond.
const ctxCheck9 = 1 << 10

// solve9 searches a 9x9 grid (shape already checked, values in range).
func solve9(ctx context.Context, g *Grid, opts SolveOptions, limit int) (sols []*Grid, st Stats, cancelled bool) {
	sv := solver9Pool.Get().(*solver9)
	defer solver9Pool.Put(sv)
	s := &sv.stack[0]
	for i := range s.cand {
		s.cand[i], s.prev[i] = band27, 0
	}
	s.unsolved = [3]uint32{band27, band27, band27}
	for cell, v := range g.Cells[:81] {
		if v == 0 {
			continue
		}
		b, p := cell/27, cell%27
		i := int(v-1)*3 + b
		if s.cand[i]&(1<<p) == 0 {
			return nil, st, false // clashing givens
		}
		s.cand[i] &= keep9[p]
	}
	done := ctx.Done()
	sp := 0
	for {
		s := &sv.stack[sp]
		st.Nodes++
		if st.Nodes%ctxCheck9 == 0 && done != nil {
			select {
			case <-done:
				return sols, st, true
			default:
			}
		}
		if s.propagate() {
			if s.unsolved[0]|s.unsolved[1]|s.unsolved[2] == 0 {
				sols = append(sols, s.grid(g))
				if len(sols) >= limit {
					return sols, st, false
				}
			} else {
				b, p, ds := s.pick()
				d := bits.TrailingZeros32(ds)
				if opts.Rand != nil {
					for k := opts.Rand.IntN(bits.OnesCount32(ds)); k > 0; k-- {
						ds &= ds - 1
					}
					d = bits.TrailingZeros32(ds)
				}
				next := &sv.stack[sp+1]
				*next = *s
				next.cand[d*3+b] &= keep9[p]
				s.cand[d*3+b] &^= 1 << p
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

// grid returns the solved state as a copy of g with every cell filled.
func (s *state9) grid(g *Grid) *Grid {
	out := g.Clone()
	for i, m := range s.cand {
		d, b := i/3, i%3
		for ; m != 0; m &= m - 1 {
			out.Cells[b*27+bits.TrailingZeros32(m)] = uint8(d + 1)
		}
	}
	return out
}
