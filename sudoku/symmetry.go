package sudoku

import (
	"fmt"
	"slices"
	"strings"
)

// Symmetry is the pattern the clues of a generated puzzle follow: a cell is a
// clue exactly when its images under the symmetry are clues. Only the
// positions of the clues are symmetric, not their values.
type Symmetry int

// The symmetries. Every grid is square (N×N), so each of them applies to
// every shape, including rectangular boxes such as 2x3.
const (
	// NoSymmetry puts no constraint on the clues.
	NoSymmetry Symmetry = iota
	// Rotate180 keeps the clue pattern under a half turn: (r, c) ↔ (N-1-r, N-1-c).
	// It is the traditional symmetry of published puzzles.
	Rotate180
	// Rotate90 keeps the clue pattern under a quarter turn:
	// (r, c) → (c, N-1-r) → (N-1-r, N-1-c) → (N-1-c, r).
	Rotate90
	// Mirror keeps the clue pattern under a left-right reflection: (r, c) ↔ (r, N-1-c).
	Mirror
	// Diagonal keeps the clue pattern under a reflection in the main
	// (top-left to bottom-right) diagonal: (r, c) ↔ (c, r).
	Diagonal
	// Flip keeps the clue pattern under a top-bottom reflection:
	// (r, c) ↔ (N-1-r, c). It is Mirror turned a quarter.
	Flip
	// AntiDiagonal keeps the clue pattern under a reflection in the other
	// (top-right to bottom-left) diagonal: (r, c) ↔ (N-1-c, N-1-r).
	AntiDiagonal
)

// The values are stored in buttons and seeds: new ones go at the end.
var symmetryNames = [...]string{"none", "rot180", "rot90", "mirror", "diagonal", "flip", "antidiagonal"}

// symmetryWords name each symmetry for people, in the order Name uses.
var symmetryWords = [...]string{"none", "180° rotation", "90° rotation", "mirror (left–right)", "diagonal", "mirror (top–bottom)", "anti-diagonal"}

// symmetryAliases are other spellings people type, mapped to their symmetry.
var symmetryAliases = []struct {
	name string
	sym  Symmetry
}{
	{"", NoSymmetry}, {"no", NoSymmetry}, {"off", NoSymmetry},
	{"180", Rotate180}, {"rotate180", Rotate180}, {"rotational", Rotate180},
	{"90", Rotate90}, {"rotate90", Rotate90}, {"quarter", Rotate90},
	{"horizontal", Mirror}, {"leftright", Mirror}, {"left-right", Mirror},
	{"diag", Diagonal},
	{"topbottom", Flip}, {"top-bottom", Flip}, {"vertical", Flip},
	{"anti-diagonal", AntiDiagonal}, {"antidiag", AntiDiagonal},
}

// String returns the symmetry's name as ParseSymmetry reads it.
func (s Symmetry) String() string {
	if s < 0 || int(s) >= len(symmetryNames) {
		return fmt.Sprintf("Symmetry(%d)", int(s))
	}
	return symmetryNames[s]
}

// Name is the symmetry as people say it: "180° rotation", "mirror
// (left–right)".
func (s Symmetry) Name() string {
	if !s.Valid() {
		return s.String()
	}
	return symmetryWords[s]
}

// Valid reports whether s is one of the defined symmetries.
func (s Symmetry) Valid() bool { return s >= 0 && int(s) < len(symmetryNames) }

// Symmetries lists every symmetry, NoSymmetry first.
func Symmetries() []Symmetry {
	return []Symmetry{NoSymmetry, Rotate180, Rotate90, Mirror, Diagonal, Flip, AntiDiagonal}
}

// ParseSymmetry reads a symmetry name ("none", "rot180", "rot90", "mirror",
// "diagonal", "flip", "antidiagonal", and a few common aliases such as "180"
// or "diag"), ignoring
// case and surrounding space.
func ParseSymmetry(s string) (Symmetry, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, name := range symmetryNames {
		if t == name {
			return Symmetry(i), nil
		}
	}
	for _, a := range symmetryAliases {
		if t == a.name {
			return a.sym, nil
		}
	}
	return 0, fmt.Errorf("unknown symmetry %q: want one of %s", s, strings.Join(symmetryNames[:], ", "))
}

// image returns the cell that cell (r, c) maps to under one application of s
// in an n×n grid.
func (s Symmetry) image(n, r, c int) (int, int) {
	switch s {
	case Rotate180:
		return n - 1 - r, n - 1 - c
	case Rotate90:
		return c, n - 1 - r
	case Mirror:
		return r, n - 1 - c
	case Diagonal:
		return c, r
	case Flip:
		return n - 1 - r, c
	case AntiDiagonal:
		return n - 1 - c, n - 1 - r
	}
	return r, c
}

// Orbits splits the cells of a grid of shape sh into the groups that s keeps
// together: the cells of an orbit are all clues or all empty in a puzzle with
// that symmetry. Orbits come in the order of their first cell, and each
// orbit's cells in increasing order, so the result is the same every time.
func (s Symmetry) Orbits(sh Shape) [][]int {
	n := sh.N()
	seen := make([]bool, n*n)
	var orbits [][]int
	for cell := range seen {
		if seen[cell] {
			continue
		}
		var orbit []int
		r, c := cell/n, cell%n
		// Applying s at most four times returns to the start for every
		// symmetry here (all have order 1, 2 or 4).
		for !seen[r*n+c] {
			seen[r*n+c] = true
			orbit = append(orbit, r*n+c)
			r, c = s.image(n, r, c)
		}
		slices.Sort(orbit)
		orbits = append(orbits, orbit)
	}
	return orbits
}

// HasSymmetry reports whether the clues of g follow symmetry s: every cell's
// image under s is filled exactly when the cell is.
func (g *Grid) HasSymmetry(s Symmetry) bool {
	n := g.N()
	for cell, v := range g.Cells {
		r2, c2 := s.image(n, cell/n, cell%n)
		if (v == 0) != (g.Cells[r2*n+c2] == 0) {
			return false
		}
	}
	return true
}

// ClueSymmetries lists the symmetries the clues of g follow, without
// NoSymmetry: the turns (quarter, then half), the mirrors (left–right, then
// top–bottom), then the diagonals. An empty or full grid follows them all.
func (g *Grid) ClueSymmetries() []Symmetry {
	var out []Symmetry
	for _, s := range []Symmetry{Rotate90, Rotate180, Mirror, Flip, Diagonal, AntiDiagonal} {
		if g.HasSymmetry(s) {
			out = append(out, s)
		}
	}
	return out
}
