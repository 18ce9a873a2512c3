package sudoku

import (
	"strconv"
	"strings"
)

// Format returns g as a readable grid: one line per row, cells separated by
// spaces, '|' between boxes and a line of dashes with '+' where it crosses a
// box border between bands of boxes. Empty cells show as '.'. Lines have no
// trailing spaces, so the text survives chat clients; Parse reads it back to
// the same grid, box shape included.
//
//	5 3 . | . 7 . | . . .
//	6 . . | 1 9 5 | . . .
//	------+-------+------
//
// A grid with pencil marks (some empty cell has Marks) is written as a
// pencil-mark grid instead; see formatPencil. Parse reads that back too,
// marks included.
func Format(g *Grid) string {
	if hasMarks(g) {
		return formatPencil(g)
	}
	return formatGrid(g, func(v int) string { return string(g.Alphabet.Symbol(v)) }, 1)
}

// FormatNumbers returns g like Format but with every cell written as a
// number, right-aligned, 0 for an empty cell: the way 16x16 and 25x25
// puzzles are often shared when letters would confuse.
//
//	1 16  0  3 |  0 ...
func FormatNumbers(g *Grid) string {
	w := len(strconv.Itoa(g.N()))
	return formatGrid(g, func(v int) string { return strconv.Itoa(v) }, w)
}

// FormatRows returns g as one row per line with no spaces or separators
// (the .sdk layout); empty cells show as '.'. Like FormatNumbers, it leaves
// out pencil marks; Format writes them.
func FormatRows(g *Grid) string {
	n := g.N()
	s := g.String()
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + n)
	for r := 0; r < n; r++ {
		b.WriteString(string(rs[r*n : (r+1)*n]))
		b.WriteByte('\n')
	}
	return b.String()
}

// formatGrid writes the grid with each cell as cell(v) right-aligned in
// width w.
func formatGrid(g *Grid, cell func(v int) string, w int) string {
	n := g.N()
	br, bc := g.Shape.BoxRows, g.Shape.BoxCols
	boxWidth := bc*(w+1) - 1 // the cells of one box and the spaces between them
	var sep strings.Builder
	for c := 0; c < n/bc; c++ {
		if c > 0 {
			sep.WriteByte('+')
		}
		d := boxWidth + 2
		if c == 0 || c == n/bc-1 {
			d--
		}
		if n/bc == 1 {
			d = boxWidth
		}
		sep.WriteString(strings.Repeat("-", d))
	}
	sep.WriteByte('\n')

	var b strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 && r%br == 0 {
			b.WriteString(sep.String())
		}
		for c := 0; c < n; c++ {
			switch {
			case c == 0:
			case c%bc == 0:
				b.WriteString(" | ")
			default:
				b.WriteByte(' ')
			}
			s := cell(g.Get(r, c))
			if pad := w - len([]rune(s)); pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
