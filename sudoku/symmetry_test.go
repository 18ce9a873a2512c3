package sudoku

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseSymmetry(t *testing.T) {
	tests := []struct {
		in   string
		want Symmetry
	}{
		{"none", NoSymmetry},
		{"", NoSymmetry},
		{"rot180", Rotate180},
		{" ROT180 ", Rotate180},
		{"180", Rotate180},
		{"rot90", Rotate90},
		{"90", Rotate90},
		{"mirror", Mirror},
		{"Diagonal", Diagonal},
		{"diag", Diagonal},
		{"flip", Flip},
		{"top-bottom", Flip},
		{"antidiagonal", AntiDiagonal},
		{"Anti-Diagonal", AntiDiagonal},
	}
	for _, tt := range tests {
		got, err := ParseSymmetry(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseSymmetry(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, s := range Symmetries() {
		if got, err := ParseSymmetry(s.String()); err != nil || got != s {
			t.Errorf("ParseSymmetry(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
	}
	for _, bad := range []string{"rot45", "spiral", "rot 180"} {
		if _, err := ParseSymmetry(bad); err == nil {
			t.Errorf("ParseSymmetry(%q) succeeded, want an error", bad)
		}
	}
}

func TestOrbits(t *testing.T) {
	// Orbit counts follow from the cells each symmetry fixes: a 9x9 has 81
	// cells; rot180 fixes the centre (1 + 80/2 = 41), rot90 fixes it too and
	// groups the rest by four (1 + 80/4 = 21), mirror fixes the middle column
	// (9 + 72/2 = 45), diagonal the main diagonal (9 + 72/2 = 45). Even sizes
	// have no centre.
	tests := []struct {
		shape Shape
		sym   Symmetry
		want  int
	}{
		{Shape9, NoSymmetry, 81},
		{Shape9, Rotate180, 41},
		{Shape9, Rotate90, 21},
		{Shape9, Mirror, 45},
		{Shape9, Diagonal, 45},
		{Shape9, Flip, 45},
		{Shape9, AntiDiagonal, 45},
		{Shape4, Rotate180, 8},
		{Shape4, Rotate90, 4},
		{Shape6, Rotate90, 9},
		{Shape6, Mirror, 18},
		{Shape16, Rotate180, 128},
		{Shape25, Rotate90, 157},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v/%v", tt.shape, tt.sym), func(t *testing.T) {
			orbits := tt.sym.Orbits(tt.shape)
			if len(orbits) != tt.want {
				t.Errorf("%v.Orbits(%v) has %d orbits, want %d", tt.sym, tt.shape, len(orbits), tt.want)
			}
			n := tt.shape.N()
			seen := make([]int, tt.shape.Size())
			for _, orbit := range orbits {
				in := map[int]bool{}
				for _, c := range orbit {
					seen[c]++
					in[c] = true
				}
				// Closed: the image of every cell is in the same orbit.
				for _, c := range orbit {
					r2, c2 := tt.sym.image(n, c/n, c%n)
					if !in[r2*n+c2] {
						t.Errorf("orbit %v holds %s but not its image %s", orbit, tt.shape.CellName(c), tt.shape.CellName(r2*n+c2))
					}
				}
			}
			for c, k := range seen {
				if k != 1 {
					t.Errorf("cell %s is in %d orbits, want 1", tt.shape.CellName(c), k)
				}
			}
		})
	}
}

func TestHasSymmetry(t *testing.T) {
	// One clue at r1c2 of a 4x4, and its images.
	tests := []struct {
		cells string
		syms  []Symmetry // the symmetries the pattern has
	}{
		{"................", []Symmetry{NoSymmetry, Rotate180, Rotate90, Mirror, Diagonal, Flip, AntiDiagonal}},
		{".1..............", []Symmetry{NoSymmetry}},
		{".1............2.", []Symmetry{NoSymmetry, Rotate180}},
		{".1.....32.....4.", []Symmetry{NoSymmetry, Rotate180, Rotate90}},
		{".12.............", []Symmetry{NoSymmetry, Mirror}},
		{".1..2...........", []Symmetry{NoSymmetry, Diagonal}},
		{".1...........2..", []Symmetry{NoSymmetry, Flip}},
		{".1.........2....", []Symmetry{NoSymmetry, AntiDiagonal}},
	}
	for _, tt := range tests {
		g := New(Shape4)
		for i, r := range tt.cells {
			if r != '.' {
				g.Cells[i] = uint8(r - '0')
			}
		}
		for _, s := range Symmetries() {
			want := false
			for _, h := range tt.syms {
				want = want || h == s
			}
			if got := g.HasSymmetry(s); got != want {
				t.Errorf("%s.HasSymmetry(%v) = %v, want %v", tt.cells, s, got, want)
			}
		}
	}
}

func TestClueSymmetries(t *testing.T) {
	tests := []struct {
		puzzle string
		want   string
	}{
		{"000075400000000008080190000300001060000000034000068170204000603900000020530200000", ""},
		{"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", "180° rotation"},
		{".1......." + strings.Repeat(".", 72), ""},
		{"1.......1" + strings.Repeat(".", 63) + "1.......1", "90° rotation, 180° rotation, mirror (left–right), mirror (top–bottom), diagonal, anti-diagonal"},
		{"1.......1" + strings.Repeat(".", 72), "mirror (left–right)"},
		{"1........" + strings.Repeat(".", 63) + "1........", "mirror (top–bottom)"},
		{"1.......2" + strings.Repeat(".", 72), "mirror (left–right)"},
		{".1......." + strings.Repeat(".", 54) + "........2" + ".........", "anti-diagonal"},
	}
	for _, tt := range tests {
		g, err := Parse(tt.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range g.ClueSymmetries() {
			names = append(names, s.Name())
		}
		if got := strings.Join(names, ", "); got != tt.want {
			t.Errorf("ClueSymmetries(%s) = %q, want %q", tt.puzzle, got, tt.want)
		}
	}
}
