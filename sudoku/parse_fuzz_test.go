package sudoku

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds Parse arbitrary text. It must never panic; any grid it
// returns must have a playable shape, values in range and an alphabet of N
// distinct symbols; the grid's one-line form must read back to it, and
// Format's text to it with its pencil marks.
// Seeds: every sample under testdata/parse plus a few hand-picked edges.
// Run it for real with: go test ./sudoku -run '^$' -fuzz FuzzParse -fuzztime 5m
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "parse", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		s := string(b)
		if i := strings.LastIndex(s, "\n-- want --\n"); i > 0 {
			s = strings.TrimPrefix(s[:i+1], "-- input --\n")
		}
		f.Add(s)
	}
	for _, s := range []string{
		"", "\n", "```", "||", "|", "-", "---+---", "[[]]", "char p[9][9] = {",
		"1", "12\n21", "x", "X", strings.Repeat(".", 81), strings.Repeat("-", 81),
		strings.Repeat("0", 256), strings.Repeat("10 ", 256), "A\n1 2 3\n", "│ │ │",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			pe, ok := err.(*ParseError)
			if !ok {
				t.Fatalf("Parse(%q) error %T, want *ParseError", text, err)
			}
			if pe.Msg == "" || pe.Line < 0 || pe.Col < 0 || pe.Line > strings.Count(text, "\n")+1 {
				t.Fatalf("Parse(%q) error %+v: empty message or position outside the text", text, pe)
			}
			return
		}
		checkGrid(t, text, g)
		back, err := Parse(g.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %s, but Parse of that fails: %v", text, g, err)
		}
		if def, _ := ShapeFor(g.N()); back.Shape != def || !sameCells(back, g) || back.String() != g.String() {
			t.Fatalf("Parse(%q) = %s (%q), but Parse of that = %s (%q)", text, g, g.Alphabet, back, back.Alphabet)
		}
		if again, err := ParseWith(Format(g), ParseOptions{Alphabet: g.Alphabet}); err != nil || again.Shape != g.Shape || !sameMarks(again, g) {
			t.Fatalf("Parse(%q) = %s, but Format of it,\n%s\nreads back as %v, %v", text, g, Format(g), again, err)
		}
		if g.Marks != nil && len(g.Marks) != len(g.Cells) {
			t.Fatalf("Parse(%q) has %d marks for %d cells", text, len(g.Marks), len(g.Cells))
		}
	})
}

func checkGrid(t *testing.T, text string, g *Grid) {
	t.Helper()
	if !g.Shape.Valid() || g.Shape.BoxRows < 2 || g.Shape.BoxCols < 2 {
		t.Fatalf("Parse(%q) shape %+v is not playable", text, g.Shape)
	}
	n := g.N()
	if len(g.Cells) != n*n {
		t.Fatalf("Parse(%q) has %d cells, want %d", text, len(g.Cells), n*n)
	}
	for i, v := range g.Cells {
		if int(v) > n {
			t.Fatalf("Parse(%q) cell %d = %d, more than %d", text, i, v, n)
		}
	}
	if g.Alphabet.Len() != n {
		t.Fatalf("Parse(%q) alphabet %q has %d symbols, want %d", text, g.Alphabet, g.Alphabet.Len(), n)
	}
	seen := map[rune]bool{}
	for _, r := range string(g.Alphabet) {
		if seen[r] || r == '.' || r == utf8.RuneError || isDecoration(r) {
			t.Fatalf("Parse(%q) alphabet %q repeats or holds %q", text, g.Alphabet, r)
		}
		seen[r] = true
	}
}
