package sudoku

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// spacedLayouts write a puzzle the way newspapers and hand-typed posts do,
// an empty cell being spaces.
var spacedLayouts = []struct {
	name string
	fn   func(g *Grid) string
}{
	{"padded", func(g *Grid) string { return spacedText(g, 1, 0, false, "\n") }},
	{"trimmed", func(g *Grid) string { return spacedText(g, 1, 0, true, "\n") }},
	{"box gaps and blank lines", func(g *Grid) string { return spacedText(g, 1, 2, true, "\n\n") }},
	{"wide", func(g *Grid) string { return spacedText(g, 2, 0, true, "\n") }},
	{"fixed width", func(g *Grid) string { return spacedText(g, 0, 0, true, "\n") }},
}

// spacedText writes g with sep spaces between cells (boxGap more between
// boxes), a space for an empty cell, trailing spaces cut or not, and band
// ending each band of boxes.
func spacedText(g *Grid, sep, boxGap int, trim bool, band string) string {
	n := g.N()
	var b strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 && r%g.Shape.BoxRows == 0 {
			b.WriteString(band[1:])
		}
		var row strings.Builder
		for c := 0; c < n; c++ {
			if c > 0 {
				row.WriteString(strings.Repeat(" ", sep))
				if c%g.Shape.BoxCols == 0 {
					row.WriteString(strings.Repeat(" ", boxGap))
				}
			}
			if v := g.Get(r, c); v != 0 {
				row.WriteRune(g.Alphabet.Symbol(v))
			} else {
				row.WriteByte(' ')
			}
		}
		s := row.String()
		if trim {
			s = strings.TrimRight(s, " ")
		}
		b.WriteString(s + "\n")
	}
	return b.String()
}

// TestParseSpacedBlanks reads real puzzles written with spaces for blanks,
// in each layout: hard ones with 20-odd clues and 17-clue ones, whose
// empty rows and columns leave the most to infer.
func TestParseSpacedBlanks(t *testing.T) {
	var puzzles []string
	puzzles = append(puzzles, sample(mustLoadPuzzles(t, "top1465.txt.gz"), 150)...)
	puzzles = append(puzzles, sample(mustLoadPuzzles(t, "17clue.txt.gz"), 150)...)
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range []Shape{Shape4, Shape6, Shape8, Shape12, Shape16} {
		for k := 0; k < 10; k++ {
			sol := patternSolution(s)
			g := sol.Clone()
			for i := range g.Cells {
				if r.IntN(2) > 0 {
					g.Cells[i] = 0
				}
			}
			// A column empty in every row leaves the spacing to guess
			// when boxes have wider gaps; puzzles people post have a
			// clue in every column.
			n := s.N()
			for c := 0; c < n; c++ {
				empty := true
				for row := 0; row < n; row++ {
					empty = empty && g.Get(row, c) == 0
				}
				if empty {
					row := r.IntN(n)
					g.Set(row, c, sol.Get(row, c))
				}
			}
			// Real puzzles have a blank between two clues of some row;
			// without one, a short row reads as cells missing.
			inside := false
			for row := 0; row < n; row++ {
				seen := false
				for c := 0; c < n; c++ {
					if g.Get(row, c) != 0 {
						inside = inside || seen && c > 0 && g.Get(row, c-1) == 0
						seen = true
					}
				}
			}
			if inside {
				puzzles = append(puzzles, g.String())
			}
		}
	}
	for _, l := range spacedLayouts {
		t.Run(l.name, func(t *testing.T) {
			read, refused, misread := 0, 0, 0
			for _, s := range puzzles {
				g := mustParse(t, s)
				text := l.fn(g)
				got, err := Parse(text)
				switch {
				case err != nil:
					refused++
					if refused <= 2 {
						t.Errorf("Parse(%q) error: %v", text, err)
					}
				case !sameCells(got, g) || got.Shape != g.Shape:
					misread++
					if misread <= 2 {
						t.Errorf("Parse(%q) =\n%s\nwant\n%s", text, Format(got), Format(g))
					}
				default:
					read++
				}
			}
			t.Logf("%s: %d of %d read, %d refused, %d misread", l.name, read, len(puzzles), refused, misread)
		})
	}
}
