package sudoku

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "update golden files")

// testShapes are the shapes Format and Parse must round-trip, tall boxes
// included.
var testShapes = []Shape{
	{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}, {2, 5}, {3, 4}, {4, 3}, {4, 4}, {5, 5},
}

// patternGrid returns a complete valid grid of shape s: the standard
// shifted pattern, with rows and symbols shuffled by rng when it is not nil.
func patternGrid(s Shape, rng *rand.Rand) *Grid {
	n := s.N()
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	if rng != nil {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	g := New(s)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			v := (c + s.BoxCols*(r%s.BoxRows) + r/s.BoxRows) % n
			g.Set(r, c, perm[v]+1)
		}
	}
	return g
}

// randomPuzzle blanks each cell of a pattern grid with probability p.
func randomPuzzle(s Shape, rng *rand.Rand, p float64) *Grid {
	g := patternGrid(s, rng)
	for i := range g.Cells {
		if rng.Float64() < p {
			g.Cells[i] = 0
		}
	}
	return g
}

func TestFormatGolden(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []Shape{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 4}, {4, 4}, {5, 5}} {
		g := randomPuzzle(s, rng, 0.5)
		for _, f := range []struct {
			name string
			fn   func(*Grid) string
		}{{"grid", Format}, {"numbers", FormatNumbers}, {"rows", FormatRows}} {
			name := fmt.Sprintf("%s_%dx%d", f.name, s.BoxRows, s.BoxCols)
			t.Run(name, func(t *testing.T) {
				got := f.fn(g)
				path := filepath.Join("testdata", "format", name+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s(%s) =\n%s\nwant\n%s", f.name, g, got, want)
				}
				for i, line := range strings.Split(got, "\n") {
					if strings.TrimRight(line, " ") != line {
						t.Errorf("%s(%s) line %d has trailing spaces: %q", f.name, g, i+1, line)
					}
				}
			})
		}
	}
}

func TestFormatClassic(t *testing.T) {
	g, err := Parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	if err != nil {
		t.Fatal(err)
	}
	want := `5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
`
	if got := Format(g); got != want {
		t.Errorf("Format(%s) =\n%s\nwant\n%s", g, got, want)
	}
}

// TestFormatRoundTrip checks Parse(Format(g)) == g, and the same for the
// other layouts and the one-line form, over random grids of every shape:
// puzzles, complete grids, empty grids, and custom alphabets.
func TestFormatRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	formats := []struct {
		name      string
		fn        func(*Grid) string
		keepsBox  bool // the layout shows the box shape
		keepsSyms bool // the layout shows g's own symbols
	}{
		{"Format", Format, true, true},
		{"FormatNumbers", FormatNumbers, true, false},
		{"FormatRows", FormatRows, false, true},
		{"String", (*Grid).String, false, true},
	}
	for _, s := range testShapes {
		for trial := 0; trial < 30; trial++ {
			var g *Grid
			switch trial {
			case 0:
				g = New(s)
			case 1:
				g = patternGrid(s, rng)
			default:
				g = randomPuzzle(s, rng, rng.Float64())
			}
			for _, f := range formats {
				text := f.fn(g)
				got, err := Parse(text)
				if err != nil {
					t.Fatalf("%v: Parse(%s(%s)) error: %v\n%s", s, f.name, g, err, text)
				}
				wantShape := s
				if !f.keepsBox {
					wantShape, _ = ShapeFor(s.N())
				}
				if got.Shape != wantShape || !sameCells(got, g) {
					t.Fatalf("%v: Parse(%s(%s)) = %v %s, want %v %s\n%s", s, f.name, g, got.Shape, got, wantShape, g, text)
				}
				if f.keepsSyms && got.String() != g.String() {
					t.Fatalf("%v: Parse(%s(g)).String() = %s, want %s", s, f.name, got, g)
				}
			}
		}
	}
}

func sameCells(a, b *Grid) bool {
	if len(a.Cells) != len(b.Cells) {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}

// TestFormatRoundTripAlphabets checks grids written in other symbols: the
// alternative default alphabets, and custom letters. A custom alphabet can
// only be recovered when every symbol appears, so these grids are complete
// or nearly so; custom letters come back sorted.
func TestFormatRoundTripAlphabets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tests := []struct {
		shape Shape
		alpha Alphabet
	}{
		{Shape9, "AELMNOSTW"},
		{Shape9, "aelmnostw"},
		{Shape4, "ABCD"},
		{Shape6, "KLMNOP"},
		{Shape16, "0123456789ABCDEF"},
		{Shape16, "ABCDEFGHIJKLMNOP"},
		{Shape25, "123456789ABCDEFGHIJKLMNOP"},
		{Shape25, "ABCDEFGHIJKLMNOPQRSTUVWXY"},
		{Shape12, "ABCDEFGHIJKL"},
	}
	for _, tt := range tests {
		for trial := 0; trial < 10; trial++ {
			g := patternGrid(tt.shape, rng)
			g.Alphabet = tt.alpha
			// Blank a few cells, but keep every symbol present.
			for k := 0; k < trial; k++ {
				g.Cells[rng.IntN(tt.shape.N())*tt.shape.N()+rng.IntN(tt.shape.N())] = 0
			}
			if !allSymbolsPresent(g) {
				continue
			}
			for name, fn := range map[string]func(*Grid) string{"Format": Format, "FormatRows": FormatRows, "String": (*Grid).String} {
				text := fn(g)
				got, err := Parse(text)
				if err != nil {
					t.Fatalf("Parse(%s(%s)) error: %v", name, g, err)
				}
				if got.Alphabet != tt.alpha || got.String() != g.String() || !sameCells(got, g) {
					t.Fatalf("Parse(%s(g)) = %s in %q, want %s in %q", name, got, got.Alphabet, g, tt.alpha)
				}
			}
		}
	}
}

func allSymbolsPresent(g *Grid) bool {
	seen := make([]bool, g.N()+1)
	for _, v := range g.Cells {
		seen[v] = true
	}
	for v := 1; v <= g.N(); v++ {
		if !seen[v] {
			return false
		}
	}
	return true
}
