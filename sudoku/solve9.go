package sudoku

import (
	"context"
	"math/bits"
	"slices"
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
//   - naked singles and empty cells come from counting, bit-sliced, how many
//     digits each cell still has.
//   - columns are checked across the three bands of a digit, for the digits
//     that changed since the last check: in each stack the digit's
//     (column, band) pairs form a permutation too (box-line reductions in
//     the other direction, with the same kind of table), an empty column is
//     a contradiction and a column with one open cell is a placement.
//   - triads (the name is tdoku's): the three cells of a row inside a box, a
//     mini-row, hold three distinct digits, and so do those of a
//     mini-column. Counting, bit-sliced over a band's nine digits, the
//     mini-rows and mini-columns each digit may take and those it is sure to
//     take gives two rules: three digits possible there all go there (and
//     leave the rest of that row or column and of the box); three sure
//     there leave no room for the others. Fewer than three possible, or
//     more than three sure, is a contradiction.
//
// The rules run cheapest first: the band updates until none has news, then
// naked singles, columns and triads, each back to the band updates as soon
// as it changed something. Each looks only at what changed since it last
// ran (bands or digits with news, as bits of masks), so a node only touches
// what its guess set off.
//
// The search guesses on where a digit goes in a band or a stack rather than
// on a cell (see pick); with the triads it needs 8.9 guesses a puzzle on
// top1465 where bivalue cells and the other rules needed 15.3. It keeps
// its states on a fixed stack of plain arrays, so a node costs no
// allocation: a guess copies the state (204 bytes) one level up, takes the
// first branch there, and leaves the second where it was, to be taken up
// on backtracking.

const (
	band27 = 1<<27 - 1
	row9   = 0x1FF
	// bandCells0 has the bits i = d*3 of the cand entries of band 0.
	bandCells0 = 0x1249249
)

// state9 is the whole search state of a 9x9 puzzle.
type state9 struct {
	// cand[d*3+b] holds the cells of band b where digit d+1 may go. The
	// array is padded to 32 so that an index taken from a 32-bit mask needs
	// no bounds check.
	cand [32]uint32
	// unsolved[b] holds the cells of band b not placed yet ([3] is padding).
	unsolved [4]uint32
	// dirty has bit i set when cand[i] changed since band i was last
	// brought up to date.
	dirty uint32
	// settled[b] marks the mini-rows (bit 3*row+box) and mini-columns (bit
	// 9+column) of band b whose three digits are known and already taken
	// out of their peers.
	settled [4]uint32
	// bandWeight[b] is the sum over the nine digits of band b of the
	// permWeight9 of their (row, box) occupancies, as of the band's last
	// triad check (pick reads it).
	bandWeight [4]uint8
	// stackWeights[d] holds, a byte per stack, the permWeight9 of the
	// (column, band) occupancy of digit d+1 in it, as of the last check of
	// its columns (pick reads it).
	stackWeights [9]uint32
}

var (
	// shrink9[x] maps a 9-bit row to the 3 boxes it has bits in.
	shrink9 [512]uint32
	// perm9[m] is the 27-bit mask of the (row, box) triples compatible with
	// some permutation in the 3x3 row-by-box occupancy m (bit 3*row+box).
	perm9 [512]uint32
	// permU9[m] is the 9-bit union of the permutations inside the 3x3
	// occupancy m (bit 3*row+col).
	permU9 [512]uint32
	// rows9[x] holds, for a 9-bit row x, row9 when x has exactly one bit
	// (else 0) in its low word and shrink9[x] in its high word.
	rows9 [512]uint64
	// keep9[p] clears, inside a band, every peer of cell p (same row, box or
	// column) and keeps p: applied to a digit's mask it places the digit.
	keep9 [27]uint32
	// bandOf[i] is the band of cand index i = d*3+b.
	bandOf [32]uint8
	// otherBand[b] lists the two bands other than b.
	otherBand = [4][2]uint8{{1, 2}, {0, 2}, {0, 1}, {0, 0}}
	// permCount9[m] is how many permutations the 3x3 occupancy m holds.
	permCount9 [512]uint8
	// permWeight9[m] weighs how open a digit with occupancy m is, for
	// pick: 0 when it has one permutation left (or none), else 8 plus how
	// many it has, so that a sum over the nine digits of a band counts
	// first its open digits, then their permutations.
	permWeight9 [512]uint8
	// permFix9[m] is the pairs of m that every permutation inside m uses
	// (none when m holds no permutation).
	permFix9 [512]uint16
	// permSplit9[m] is a pair, as 3*row+col, that some but not all of the
	// permutations inside m use (when m holds two or more).
	permSplit9 [512]uint8
	// permZ9[m] is permU9[m] spread out as the columns of one stack in
	// the three bands (bit 9*band+col).
	permZ9 [512]uint32
	// lone9[x] keeps the bits of a 9-bit row that are alone in their group
	// of three (their box).
	lone9 [512]uint16
	// triadKeep9[j] keeps, inside a band, mini-row j (row j/3, box j%3)
	// and every cell outside its row and box: applied to a digit's mask it
	// puts the digit's place in that row in that box.
	triadKeep9 [16]uint32
	// minirow9[j] is the three cells of mini-row j.
	minirow9 [16]uint32
	// colKeep9[c] keeps, inside a band, column c and every cell outside
	// its box: applied to a digit's mask it puts the digit's place in that
	// box in column c.
	colKeep9 [16]uint32
)

func init() {
	for x := 0; x < 512; x++ {
		for k := 0; k < 3; k++ {
			if x>>(3*k)&7 != 0 {
				shrink9[x] |= 1 << k
			}
		}
		rows9[x] = uint64(shrink9[x]) << 32
		if x != 0 && x&(x-1) == 0 {
			rows9[x] |= row9
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
		permU9[m] = uint32(union)
		permZ9[m] = uint32(union&7 | union>>3&7<<9 | union>>6&7<<18)
		fix, n, split := row9, 0, -1
		var first int
		for _, p := range perms {
			pm := 1<<p[0] | 1<<(3+p[1]) | 1<<(6+p[2])
			if m&pm != pm {
				continue
			}
			if n == 0 {
				first = pm
			} else if split < 0 {
				split = bits.TrailingZeros(uint(first &^ pm))
			}
			fix &= pm
			n++
		}
		permCount9[m] = uint8(n)
		if n > 1 {
			permWeight9[m] = uint8(8 + n)
		}
		if n > 0 {
			permFix9[m] = uint16(fix)
		}
		if split >= 0 {
			permSplit9[m] = uint8(split)
		}
		for k := 0; k < 9; k += 3 {
			if g := m >> k & 7; g&(g-1) == 0 {
				lone9[m] |= uint16(g << k)
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
	for i := 0; i < 27; i++ {
		bandOf[i] = uint8(i % 3)
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
	for j := 0; j < 9; j++ {
		r, k := j/3, j%3
		minirow9[j] = 7 << (9*r + 3*k)
		var rowBox uint32
		for q := 0; q < 27; q++ {
			if (q/9 == r) != (q%9/3 == k) {
				rowBox |= 1 << q
			}
		}
		triadKeep9[j] = band27 &^ rowBox
		colKeep9[j] = band27 &^ spread9(7<<(j/3*3)&^(1<<j))
	}
}

// spread9 copies 9 column bits to all three rows of a band.
func spread9(cols uint32) uint32 { return cols | cols<<9 | cols<<18 }

// fold9 returns the columns where a band mask has a bit.
func fold9(x uint32) uint32 { return (x | x>>9 | x>>18) & row9 }

// count2 returns the columns where a band mask has a bit, and those where it
// has two or more.
func count2(x uint32) (ones, twos uint32) {
	r0, r1, r2 := x&row9, x>>9&row9, x>>18
	return r0 | r1 | r2, r0&r1 | r2&(r0|r1)
}

// propagate applies the rules until nothing changes. It reports false when
// the state has no solution.
func (s *state9) propagate() bool {
	// dirty has bit i set when cand[i] changed since band i was last
	// brought up to date. The others say which digits changed since their
	// columns were last checked, and which bands since their naked singles
	// and their triads were last looked for: a state handed to propagate
	// has them all up to date but for what its dirty bits say.
	var colNews, singleNews, triadNews uint32
	dirty := s.dirty
	s.dirty = 0
	for {
		// Bring every band with news up to date, until none has news.
		var news uint32
		for dirty != 0 {
			i := bits.TrailingZeros32(dirty) & 31
			dirty &= dirty - 1
			news |= 1 << i
			m := s.cand[i]
			// One lookup per row gives its boxes (for the permutation
			// rule) and whether it has a single cell (a placement).
			t0, t1, t2 := rows9[m&row9], rows9[m>>9&row9], rows9[m>>18&row9]
			pm := perm9[(t0>>32|t1>>29|t2>>26)&row9]
			if pm == 0 {
				return false
			}
			single := uint32(t0) | uint32(t1)<<9 | uint32(t2)<<18
			if m&^pm != 0 {
				// The permutation rule cut the mask: its rows are looked
				// up again.
				m &= pm
				s.cand[i] = m
				single = uint32(rows9[m&row9]) | uint32(rows9[m>>9&row9])<<9 | uint32(rows9[m>>18&row9])<<18
			}
			b := bandOf[i] & 3
			placed := m & single & s.unsolved[b]
			if placed == 0 {
				continue
			}
			s.unsolved[b] &^= placed
			// The placed cells leave the other digits of the band (all nine
			// are cleared, then digit i is restored). A dirty bit is set
			// branch-free: x+band27 reaches bit 27 iff x != 0.
			c := s.cand[b : b+25 : b+25]
			x0, x1, x2 := c[0]&placed, c[3]&placed, c[6]&placed
			x3, x4, x5 := c[9]&placed, c[12]&placed, c[15]&placed
			x6, x7, x8 := c[18]&placed, c[21]&placed, c[24]&placed
			c[0], c[3], c[6] = c[0]^x0, c[3]^x1, c[6]^x2
			c[9], c[12], c[15] = c[9]^x3, c[12]^x4, c[15]^x5
			c[18], c[21], c[24] = c[18]^x6, c[21]^x7, c[24]^x8
			ch := (x0+band27)>>27 | (x1+band27)>>27<<3 | (x2+band27)>>27<<6 |
				(x3+band27)>>27<<9 | (x4+band27)>>27<<12 | (x5+band27)>>27<<15 |
				(x6+band27)>>27<<18 | (x7+band27)>>27<<21 | (x8+band27)>>27<<24
			s.cand[i] = m
			dirty |= ch << b &^ (1 << i)
			// Their columns leave the digit's other two bands.
			col := spread9(fold9(placed))
			d3 := uint32(i) - uint32(b)
			j0, j1 := (d3+uint32(otherBand[b][0]))&31, (d3+uint32(otherBand[b][1]))&31
			y0, y1 := s.cand[j0]&col, s.cand[j1]&col
			s.cand[j0] ^= y0
			s.cand[j1] ^= y1
			dirty |= (y0+band27)>>27<<j0 | (y1+band27)>>27<<j1
		}
		colNews |= news
		// The bands with news are those with an index in news.
		nb := (news&bandCells0+band27)>>27 | (news&(bandCells0<<1)+band27)>>27<<1 | (news&(bandCells0<<2)+band27)>>27<<2
		singleNews |= nb
		triadNews |= nb
		if s.unsolved[0]|s.unsolved[1]|s.unsolved[2] == 0 {
			return true
		}
		// Naked singles and empty cells, in the bands with news.
		for ; singleNews != 0; singleNews &= singleNews - 1 {
			b := bits.TrailingZeros32(singleNews) & 3
			c := s.cand[b : b+25 : b+25]
			ones, twos := c[0], uint32(0)
			twos, ones = twos|ones&c[3], ones|c[3]
			twos, ones = twos|ones&c[6], ones|c[6]
			twos, ones = twos|ones&c[9], ones|c[9]
			twos, ones = twos|ones&c[12], ones|c[12]
			twos, ones = twos|ones&c[15], ones|c[15]
			twos, ones = twos|ones&c[18], ones|c[18]
			twos, ones = twos|ones&c[21], ones|c[21]
			twos, ones = twos|ones&c[24], ones|c[24]
			u := s.unsolved[b]
			if u&^ones != 0 {
				return false
			}
			sg := u &^ twos
			if sg == 0 {
				continue
			}
			// planes[k] is the union of the digits whose index (0-8) has
			// bit k set, so a single's digit is read off its bits in the
			// four planes, without a search (whose exit would mispredict).
			planes := [4]uint32{c[3] | c[9] | c[15] | c[21], c[6] | c[9] | c[18] | c[21],
				c[12] | c[15] | c[18] | c[21], c[24]}
			for ; sg != 0; sg &= sg - 1 {
				p := bits.TrailingZeros32(sg) & 31
				d := planes[0]>>p&1 | planes[1]>>p&1<<1 | planes[2]>>p&1<<2 | planes[3]>>p&1<<3
				i := (int(d)*3 + b) & 31
				if s.cand[i]>>p&1 == 0 {
					// An earlier single of this loop took its last digit.
					return false
				}
				s.cand[i] &= keep9[p]
				dirty |= 1 << i
			}
		}
		if dirty != 0 {
			continue
		}
		// Columns, for the digits with news. In each stack the digit's
		// (column, band) pairs form a permutation, as its (row, box) pairs
		// do in a band: the same rule, on the columns the digit still has
		// in each band, also finds a column with no cell left. A column
		// left with one open cell for the digit is a placement.
		for colNews != 0 {
			d := uint32(bits.TrailingZeros32(colNews)) & 31
			d -= uint32(bandOf[d])
			colNews &^= 7 << d
			c := s.cand[d : d+3 : d+3]
			m0, m1, m2 := c[0], c[1], c[2]
			z := fold9(m0) | fold9(m1)<<9 | fold9(m2)<<18
			o0, o1, o2 := stack9(z), stack9(z>>3), stack9(z>>6)
			u0, u1, u2 := permZ9[o0], permZ9[o1], permZ9[o2]
			if u0 == 0 || u1 == 0 || u2 == 0 {
				return false
			}
			s.stackWeights[d/3] = uint32(permWeight9[o0]) | uint32(permWeight9[o1])<<8 | uint32(permWeight9[o2])<<16
			if a := u0 | u1<<3 | u2<<6; a != z {
				m0 &= spread9(a & row9)
				m1 &= spread9(a >> 9 & row9)
				m2 &= spread9(a >> 18)
				dirty |= (c[0]^m0+band27)>>27<<d | (c[1]^m1+band27)>>27<<(d+1) | (c[2]^m2+band27)>>27<<(d+2)
				c[0], c[1], c[2] = m0, m1, m2
			}
			v0, v1, v2 := m0&s.unsolved[0], m1&s.unsolved[1], m2&s.unsolved[2]
			a0, b0 := count2(v0)
			a1, b1 := count2(v1)
			a2, b2 := count2(v2)
			twos := b0 | b1 | b2 | a0&a1 | a2&(a0|a1)
			for one := (a0 | a1 | a2) &^ twos; one != 0; one &= one - 1 {
				col := spread9(one & -one)
				b, cell := 0, v0&col
				if cell == 0 {
					b, cell = 1, v1&col
					if cell == 0 {
						b, cell = 2, v2&col
					}
				}
				if c[b]&cell == 0 {
					// An earlier placement of this loop took its row or box.
					return false
				}
				c[b] &= keep9[bits.TrailingZeros32(cell)&31]
				dirty |= 1 << (d + uint32(b))
			}
		}
		if dirty != 0 {
			continue
		}
		// Triads, in the bands with news.
		for ; triadNews != 0; triadNews &= triadNews - 1 {
			b := bits.TrailingZeros32(triadNews) & 3
			news, ok := s.triads(b)
			if !ok {
				return false
			}
			dirty |= news
		}
		if dirty == 0 {
			return true
		}
	}
}

// triads applies the triad rules to band b. A mini-row (the three cells
// of a row inside a box) holds three distinct digits, and so does a
// mini-column. When only three digits can go in one, all three do: they
// leave the rest of its row (column) and of its box. When three digits are
// sure to be in one (each has no other place in that row of the band, or
// in that box), the other digits leave it. A mini-row or mini-column with
// fewer than three digits possible, or more than three sure, is a
// contradiction.
//
// The digits are counted bit-sliced over one word per digit: the (row,
// box) pairs it may take (bits 0-8), its columns (9-17), then the pairs and
// columns it is sure to take (18-35). The pass also records how many
// (row, box) permutations the band has left, for pick.
func (s *state9) triads(b int) (dirty uint32, ok bool) {
	b &= 3
	c := s.cand[b : b+25 : b+25]
	x0, n0 := unitWord(c[0])
	x1, n1 := unitWord(c[3])
	x2, n2 := unitWord(c[6])
	x3, n3 := unitWord(c[9])
	x4, n4 := unitWord(c[12])
	x5, n5 := unitWord(c[15])
	x6, n6 := unitWord(c[18])
	x7, n7 := unitWord(c[21])
	x8, n8 := unitWord(c[24])
	s.bandWeight[b] = n0 + n1 + n2 + n3 + n4 + n5 + n6 + n7 + n8
	// c1..c4: units with at least one to four digits.
	c1, c2, c3 := x0|x1, x0&x1, uint64(0)
	c3, c2, c1 = c3|c2&x2, c2|c1&x2, c1|x2
	c4 := c3 & x3
	c3, c2, c1 = c3|c2&x3, c2|c1&x3, c1|x3
	c4, c3, c2, c1 = c4|c3&x4, c3|c2&x4, c2|c1&x4, c1|x4
	c4, c3, c2, c1 = c4|c3&x5, c3|c2&x5, c2|c1&x5, c1|x5
	c4, c3, c2, c1 = c4|c3&x6, c3|c2&x6, c2|c1&x6, c1|x6
	c4, c3, c2 = c4|c3&x7, c3|c2&x7, c2|c1&x7
	c4, c3 = c4|c3&x8, c3|c2&x8
	const units = 1<<18 - 1
	if c3&units != units || c4>>18 != 0 {
		return 0, false
	}
	exact := c3 &^ c4
	// Units whose cells are all placed have nothing left to teach.
	u := s.unsolved[b]
	open := shrink9[u&row9] | shrink9[u>>9&row9]<<3 | shrink9[u>>18&row9]<<6 | fold9(u)<<9
	news := uint32(exact|exact>>18) & open &^ s.settled[b]
	if news == 0 {
		return 0, true
	}
	s.settled[b] |= news
	// A unit with three digits possible keeps those; one with three sure
	// keeps those (the others may still be possible there).
	possible, sure := uint32(exact)&news, uint32(exact>>18)&news
	// The digits with work to do: a unit to take that they are not sure
	// of yet (one they are sure of is taken already: the permutation rules
	// have seen to it), or a unit to leave.
	xs := [9]uint64{x0, x1, x2, x3, x4, x5, x6, x7, x8}
	var ins, outs [16]uint32
	var work uint32
	for d, x := range xs {
		in := uint32(x)&possible | uint32(x>>18)&sure
		out := uint32(x) & news &^ in
		ins[d], outs[d] = in, out
		work |= (in&^uint32(x>>18) | out + units) >> 18 << d
	}
	for ; work != 0; work &= work - 1 {
		d := bits.TrailingZeros32(work) & 15
		in, out := ins[d], outs[d]
		i := int(d)*3 + b
		m := s.cand[i]
		nm := m
		for r := in & row9; r != 0; r &= r - 1 {
			nm &= triadKeep9[bits.TrailingZeros32(r)&15]
		}
		for r := out & row9; r != 0; r &= r - 1 {
			nm &^= minirow9[bits.TrailingZeros32(r)&15]
		}
		nm &^= spread9(out >> 9)
		for c := in >> 9; c != 0; c &= c - 1 {
			k := bits.TrailingZeros32(c) & 15
			nm &= colKeep9[k]
			// The digit leaves this column in the other two bands.
			col := spread9(1 << k)
			for _, o := range otherBand[b] {
				j := int(d)*3 + int(o)
				if y := s.cand[j] & col; y != 0 {
					s.cand[j] ^= y
					dirty |= 1 << j
				}
			}
		}
		if nm != m {
			s.cand[i] = nm
			dirty |= 1 << i
		}
	}
	return dirty, true
}

// unitWord returns, for a digit's mask in a band, the word triads counts:
// the (row, box) pairs the digit may take (bits 0-8), its columns (9-17),
// the pairs and columns it is sure to take (18-26, 27-35); and the
// permWeight9 of its (row, box) occupancy.
func unitWord(m uint32) (uint64, uint8) {
	o := (shrink9[m&row9] | shrink9[m>>9&row9]<<3 | shrink9[m>>18&row9]<<6) & row9
	f := fold9(m)
	return uint64(o|f<<9) | uint64(uint32(permFix9[o])|uint32(lone9[f])<<9)<<18, permWeight9[o]
}

// pick chooses what to guess on. It returns a cand index and two masks:
// the first branch keeps cand[i]&keep, the second cand[i]&^clear, and
// every solution is in exactly one of them.
//
// The guess is not on a cell but on where a digit goes in a band or a
// stack, as tdoku does: in the band (horizontal or vertical) with the
// fewest digits still open (with more than one permutation left), ties
// going to the fewest permutations in all, it takes a digit with the
// fewest permutations left, preferably two, and a (row, box) pair (for a
// stack, (column, band)) that only some of them use. With two
// permutations the branches are "this one" and "the other one"; each
// fixes the digit's box in three rows at once, which propagates further
// than placing one digit in a cell. With the same inference, top1465
// takes 8.9 guesses a puzzle where the best bivalue cell took 12.5 (13.5
// and 15.3 without the triads).
//
// Counting open digits first is not tdoku's order (fewest permutations
// in all): it takes 11% fewer guesses on forum_hardest_1106 (98.6 a
// puzzle) for 1% more on forum_hardest_11plus and top1465 unchanged; the
// product of the counts, or open digits alone, did worse on one set or
// another.
func (s *state9) pick() (i int, keep, clear uint32) {
	// The open band or stack of least weight, as the smallest of keys
	// weight<<3|index, taken without branches (they would mispredict).
	sw := &s.stackWeights
	vt := sw[0] + sw[1] + sw[2] + sw[3] + sw[4] + sw[5] + sw[6] + sw[7] + sw[8]
	k := min(openKey(uint(s.bandWeight[0]))<<3, openKey(uint(s.bandWeight[1]))<<3|1,
		openKey(uint(s.bandWeight[2]))<<3|2, openKey(uint(vt&0xFF))<<3|3,
		openKey(uint(vt>>8&0xFF))<<3|4, openKey(uint(vt>>16&0xFF))<<3|5)
	if k>>3 > 0xFF {
		// Every band and stack fixed: propagation places all cells then,
		// so this is not reached; a cell guess keeps it safe.
		b, p, ds := s.pickCell()
		return bits.TrailingZeros32(ds)*3 + b, keep9[p], 1 << p
	}
	bb := int(k & 7)
	// Its open digit with the fewest permutations, as the smallest of
	// keys weight<<4|digit.
	dk := uint(1 << 16)
	for d := 0; d < 9; d++ {
		var w uint
		if bb < 3 {
			w = uint(permWeight9[occ9(s.cand[d*3+bb])])
		} else {
			w = uint(sw[d] >> (8 * (bb - 3)) & 0xFF)
		}
		dk = min(dk, openKey(w)<<4|uint(d))
	}
	bd := int(dk & 15)
	if bb < 3 {
		j := int(permSplit9[occ9(s.cand[bd*3+bb])])
		return bd*3 + bb, triadKeep9[j], minirow9[j]
	}
	z := fold9(s.cand[bd*3]) | fold9(s.cand[bd*3+1])<<9 | fold9(s.cand[bd*3+2])<<18
	j := int(permSplit9[stack9(z>>(3*(bb-3)))])
	// Pair j of a stack is (band j/3, column j%3 of the stack).
	c := 3*(bb-3) + j%3
	return bd*3 + j/3, colKeep9[c], spread9(1 << c)
}

// openKey returns a weight, or 256 for a weight of 0 (nothing open), so
// that the open ones sort first; without a branch.
func openKey(w uint) uint { return w + (w-1)>>63<<8 }

// occ9 returns the (row, box) occupancy of a band mask: bit 3*row+box set
// when the row has a cell in the box.
func occ9(m uint32) uint32 {
	return (shrink9[m&row9] | shrink9[m>>9&row9]<<3 | shrink9[m>>18&row9]<<6) & row9
}

// stack9 gathers the low three bits of each 9-bit group of z (the
// columns of one stack, in each band) into a 3x3 occupancy.
func stack9(z uint32) uint32 {
	return z&7 | z>>6&070 | z>>12&0700
}

// pickCell chooses a cell to guess on, and returns its band, its position in
// the band and its candidates as a 9-bit digit mask. The randomised search
// (SolveOptions.Rand) guesses on cells: it tries a cell's digits in random
// order.
//
// It takes a cell with two candidates when there is one (else one with the
// fewest). Among those it prefers a cell holding the digit with the most
// open cells, in the band with the most cells unplaced: measured on the hard
// sets, such guesses propagate furthest and cut the search tree by about a
// third compared with taking the first bivalue cell. (Scoring each bivalue
// cell by both of its digits saves another 3% of the nodes but costs more
// than that.)
func (s *state9) pickCell() (b, p int, digits uint32) {
	var biv [3]uint32
	any := uint32(0)
	for b := 0; b < 3; b++ {
		var ones, twos, threes uint32
		for i := b; i < 27; i += 3 {
			x := s.cand[i]
			threes |= twos & x
			twos |= ones & x
			ones |= x
		}
		biv[b] = s.unsolved[b] & twos &^ threes
		any |= biv[b]
	}
	if any == 0 {
		return s.pickFewest()
	}
	// The digit with the most open cells among those in a bivalue cell;
	// its first bivalue cell in the band with the most unplaced cells.
	bestC, bestU := -1, -1
	for d := 0; d < 27; d += 3 {
		m0, m1, m2 := s.cand[d], s.cand[d+1], s.cand[d+2]
		x0, x1, x2 := biv[0]&m0, biv[1]&m1, biv[2]&m2
		if x0|x1|x2 == 0 {
			continue
		}
		c := bits.OnesCount32(m0) + bits.OnesCount32(m1) + bits.OnesCount32(m2)
		if c <= bestC {
			continue
		}
		bestC, bestU = c, -1
		for bb, x := range [3]uint32{x0, x1, x2} {
			if x != 0 {
				if u := bits.OnesCount32(s.unsolved[bb]); u > bestU {
					bestU, b, p = u, bb, bits.TrailingZeros32(x)
				}
			}
		}
	}
	return b, p, s.digitsAt(b, p)
}

// pickFewest returns the first unplaced cell with the fewest candidates.
func (s *state9) pickFewest() (b, p int, digits uint32) {
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

// digitsAt returns the candidates of cell p of band b as a 9-bit mask.
func (s *state9) digitsAt(b, p int) uint32 {
	c := s.cand[b&3:]
	c = c[:27]
	return c[0]>>p&1 | c[3]>>p&1<<1 | c[6]>>p&1<<2 | c[9]>>p&1<<3 | c[12]>>p&1<<4 |
		c[15]>>p&1<<5 | c[18]>>p&1<<6 | c[21]>>p&1<<7 | c[24]>>p&1<<8
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

// init sets s to the givens and pencil marks of g, a 9x9 grid, with every
// band to be brought up to date. It reports false when givens clash.
func (s *state9) init(g *Grid) bool {
	// The whole state is reset: a pooled stack holds the last search's.
	*s = state9{unsolved: [4]uint32{band27, band27, band27}, dirty: band27}
	for i := range 27 {
		s.cand[i] = band27
	}
	// The givens are placed here, as the search would place them, but
	// without bringing the bands up to date after each.
	for b := 0; b < 3; b++ {
		cells := g.Cells[b*27 : b*27+27]
		c := s.cand[b : b+25 : b+25]
		ob0, ob1 := int(otherBand[b][0]), int(otherBand[b][1])
		// The givens are found first, branch-free, then visited: a branch
		// per cell on whether it is given would mispredict.
		var givens uint32
		for p, v := range cells {
			givens |= b2u(v != 0) << p
		}
		for ; givens != 0; givens &= givens - 1 {
			p := bits.TrailingZeros32(givens)
			v := cells[p]
			bit := uint32(1) << p
			d3 := int(v-1) * 3
			if c[d3]&bit == 0 {
				return false
			}
			keep := c[d3]&keep9[p] | bit
			c[0], c[3], c[6] = c[0]&^bit, c[3]&^bit, c[6]&^bit
			c[9], c[12], c[15] = c[9]&^bit, c[12]&^bit, c[15]&^bit
			c[18], c[21], c[24] = c[18]&^bit, c[21]&^bit, c[24]&^bit
			c[d3] = keep
			col := spread9(1 << (p % 9))
			s.cand[(d3+ob0)&31] &^= col
			s.cand[(d3+ob1)&31] &^= col
			s.unsolved[b] &^= bit
		}
	}
	if g.Marks != nil {
		// Pencil marks take the values they lack from the empty cells
		// they are on.
		for cell, m := range g.Marks[:min(len(g.Marks), 81)] {
			if m == 0 || g.Cells[cell] != 0 {
				continue
			}
			b, p := cell/27, cell%27
			for d := range 9 {
				if m>>d&1 == 0 {
					s.cand[d*3+b] &^= 1 << p
				}
			}
		}
	}
	return true
}

// b2u returns 1 for true and 0 for false.
func b2u(x bool) uint32 {
	if x {
		return 1
	}
	return 0
}

// solve9 searches a 9x9 grid (shape already checked, values in range).
func solve9(ctx context.Context, g *Grid, opts SolveOptions, limit int) (sols []*Grid, st Stats, cancelled bool) {
	sv := solver9Pool.Get().(*solver9)
	defer solver9Pool.Put(sv)
	if !sv.stack[0].init(g) {
		return nil, st, false // clashing givens
	}
	stop := newStopper(ctx, opts.Deadline)
	sp := 0
	for {
		s := &sv.stack[sp]
		st.Nodes++
		if st.Nodes%ctxCheck9 == 0 && stop.stopped() {
			return sols, st, true
		}
		if s.propagate() {
			if s.unsolved[0]|s.unsolved[1]|s.unsolved[2] == 0 {
				sols = append(sols, s.grid(g))
				if len(sols) >= limit {
					return sols, st, false
				}
			} else {
				var i int
				var keep, clear uint32
				if opts.Rand == nil {
					i, keep, clear = s.pick()
				} else {
					b, p, ds := s.pickCell()
					for k := opts.Rand.IntN(bits.OnesCount32(ds)); k > 0; k-- {
						ds &= ds - 1
					}
					i, keep, clear = bits.TrailingZeros32(ds)*3+b, keep9[p], 1<<p
				}
				next := &sv.stack[sp+1]
				*next = *s
				next.cand[i&31] &= keep
				next.dirty |= 1 << i
				s.cand[i&31] &^= clear
				s.dirty |= 1 << i
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
	// The grid and its cells in one allocation.
	a := new(struct {
		g     Grid
		cells [81]uint8
	})
	out := &a.g
	*out = *g
	out.Cells = a.cells[:]
	if g.Marks != nil {
		out.Marks = slices.Clone(g.Marks)
	}
	// A solved digit has one cell in each row of each band.
	var cells [128]uint8
	for d := 0; d < 9; d++ {
		c, v := s.cand[d*3:d*3+3:d*3+3], uint8(d+1)
		for at, m := range [3]uint32{c[0], c[1], c[2]} {
			at *= 27
			cells[(at+bits.TrailingZeros32(m))&127] = v
			cells[(at+bits.TrailingZeros32(m>>9)+9)&127] = v
			cells[(at+bits.TrailingZeros32(m>>18)+18)&127] = v
		}
	}
	copy(out.Cells, cells[:81])
	return out
}
