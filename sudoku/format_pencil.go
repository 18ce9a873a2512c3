package sudoku

import "strings"

// hasMarks reports whether some empty cell of g has pencil marks.
func hasMarks(g *Grid) bool {
	if len(g.Marks) != len(g.Cells) {
		return false
	}
	for i, m := range g.Marks {
		if m != 0 && g.Cells[i] == 0 {
			return true
		}
	}
	return false
}

// listedByPeer reports a filled cell whose value an empty peer still lists
// among its marks: a reader takes such a lone digit for a cell with one
// candidate left, so Format writes it "[5]".
func listedByPeer(g *Grid, geo *Geometry, i int) bool {
	if len(g.Marks) != len(g.Cells) {
		return false
	}
	bit := uint32(1) << (g.Cells[i] - 1)
	for _, q := range geo.Peers[i] {
		if g.Cells[q] == 0 && g.Marks[q]&bit != 0 {
			return true
		}
	}
	return false
}

// formatPencil writes g as a pencil-mark grid in the layout of HoDoKu's
// "PM grid", which forums use too: a filled cell is its symbol, an empty
// cell its candidates run together ("158"), or '.' when it has none; a cell
// with one candidate left is written "(5)", so it is not read back as a
// placed digit, and a digit a peer still lists as a candidate "[5]", so it
// is not read back as a cell with one candidate. Each column is as wide as its widest cell, bars separate
// boxes and lines of dashes bands, in a frame of dots, colons and
// apostrophes:
//
//	.-------------------.-----------------.-------------------.
//	| 5    3     124    | 26    7    2468 | 1489   1249  248  |
//	| 6    247   247    | 1     9    5    | 3478   234   2478 |
//	| 12   9     8      | 23    34   24   | 13457  6     247  |
//	:-------------------+-----------------+-------------------:
//	| 8    125   1259   | 579   6    147  | 4579   2459  3    |
//	| 4    25    2569   | 8     (5)  3    | 579    259   1    |
//	…
//	'-------------------'-----------------'-------------------'
func formatPencil(g *Grid) string {
	n := g.N()
	br, bc := g.Shape.BoxRows, g.Shape.BoxCols
	geo := g.Shape.Geometry()
	words := make([]string, len(g.Cells))
	width := make([]int, n)
	for i, v := range g.Cells {
		var m uint32
		if len(g.Marks) == len(g.Cells) {
			m = g.Marks[i]
		}
		switch {
		case v != 0:
			words[i] = string(g.Alphabet.Symbol(int(v)))
			if listedByPeer(g, geo, i) {
				words[i] = "[" + words[i] + "]"
			}
		case m == 0:
			words[i] = "."
		case m&(m-1) == 0:
			words[i] = "(" + sortedMarks(g.Alphabet, m, n) + ")"
		default:
			words[i] = sortedMarks(g.Alphabet, m, n)
		}
		if w := len([]rune(words[i])); w > width[i%n] {
			width[i%n] = w
		}
	}
	rule := func(edge, cross byte) string {
		var b strings.Builder
		b.WriteByte(edge)
		for c := 0; c < n; c++ {
			if c > 0 && c%bc == 0 {
				b.WriteByte(cross)
			}
			b.WriteString(strings.Repeat("-", width[c]+2))
		}
		b.WriteByte(edge)
		b.WriteByte('\n')
		return b.String()
	}
	var b strings.Builder
	b.WriteString(rule('.', '.'))
	for r := 0; r < n; r++ {
		if r > 0 && r%br == 0 {
			b.WriteString(rule(':', '+'))
		}
		for c := 0; c < n; c++ {
			if c%bc == 0 {
				b.WriteString("| ")
			} else {
				b.WriteByte(' ')
			}
			w := words[r*n+c]
			b.WriteString(w)
			b.WriteString(strings.Repeat(" ", width[c]+1-len([]rune(w))))
		}
		b.WriteString("|\n")
	}
	b.WriteString(rule('\'', '\''))
	return b.String()
}
