package sudoku

import "strings"

// Format returns g as a readable grid: one line per row, cells separated by
// spaces, '|' between boxes and a dashed line between bands of boxes.
func Format(g *Grid) string {
	n := g.N()
	var b strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 && r%g.Shape.BoxRows == 0 {
			for c := 0; c < n; c++ {
				if c > 0 && c%g.Shape.BoxCols == 0 {
					b.WriteString("+-")
				}
				b.WriteString("--")
			}
			b.WriteString("\n")
		}
		for c := 0; c < n; c++ {
			if c > 0 && c%g.Shape.BoxCols == 0 {
				b.WriteString("| ")
			}
			b.WriteRune(g.Alphabet.Symbol(g.Get(r, c)))
			b.WriteByte(' ')
		}
		b.WriteString("\n")
	}
	return b.String()
}
