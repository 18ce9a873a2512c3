package sudoku

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// transform applies a random symmetry of Sudoku to g: a relabelling, a
// band order and row orders within bands, a stack order and column orders
// within stacks, and (square boxes only) maybe a transposition.
func transform(g *Grid, rng *rand.Rand) *Grid {
	n, h, w := g.N(), g.Shape.BoxRows, g.Shape.BoxCols
	rows := blockPerm(rng, n/h, h)
	cols := blockPerm(rng, n/w, w)
	labels := rng.Perm(n)
	transpose := h == w && rng.IntN(2) == 1
	out := New(g.Shape)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			sr, sc := rows[r], cols[c]
			if transpose {
				sr, sc = sc, sr
			}
			if v := g.Get(sr, sc); v != 0 {
				out.Set(r, c, labels[v-1]+1)
			}
		}
	}
	return out
}

// blockPerm is a random order of groups·size indices that keeps each group
// of size together: the rows of a band, the columns of a stack.
func blockPerm(rng *rand.Rand, groups, size int) []int {
	var out []int
	for _, gi := range rng.Perm(groups) {
		for _, k := range rng.Perm(size) {
			out = append(out, gi*size+k)
		}
	}
	return out
}

func mustCanonical(t testing.TB, g *Grid) *Grid {
	t.Helper()
	c, err := Canonical(g)
	if err != nil {
		t.Fatalf("Canonical(%s): %v", g, err)
	}
	return c
}

func TestCanonicalInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var grids []*Grid
	for _, p := range mustLoadPuzzleSet(t, "famous_hardest.txt") {
		grids = append(grids, p.Grid, mustSolution(t, p.Grid))
	}
	for _, p := range mustLoadPuzzleSet(t, "forum_hardest_1106.txt")[:20] {
		grids = append(grids, p.Grid)
	}
	// Other shapes, each a puzzle and its solution.
	for _, s := range []string{
		"..35.6.54......2.....6...2.....3...1",
		"...7.3....3.45...71.....8.2...6.....6...2.6...7....4.....3.254..",
	} {
		g := mustParse(t, s)
		grids = append(grids, g, mustSolution(t, g))
	}
	for _, g := range grids {
		want := mustCanonical(t, g)
		if mustCanonical(t, want).String() != want.String() {
			t.Errorf("Canonical(Canonical(%s)) changed it", g)
		}
		if want.Clues() != g.Clues() {
			t.Errorf("Canonical(%s) = %s, with %d clues instead of %d", g, want, want.Clues(), g.Clues())
		}
		for range 8 {
			h := transform(g, rng)
			if got := mustCanonical(t, h); !got.Equal(want) {
				t.Errorf("Canonical(%s) = %s, but the same puzzle transformed, %s, gives %s", g, want, h, got)
			}
		}
	}
}

func TestCanonicalDistinguishes(t *testing.T) {
	seen := map[string]string{}
	add := func(g *Grid) {
		t.Helper()
		k := mustCanonical(t, g).String()
		if prev, ok := seen[k]; ok {
			t.Errorf("%s and %s have the same canonical form %s", prev, g, k)
		}
		seen[k] = g.String()
	}
	for _, p := range mustLoadPuzzleSet(t, "forum_hardest_1106.txt")[:60] {
		add(p.Grid)
	}
	// One clue more or less is a different puzzle.
	g := mustLoadPuzzleSet(t, "famous_hardest.txt")[1].Grid
	sol := mustSolution(t, g)
	add(g)
	more := g.Clone()
	for i, v := range more.Cells {
		if v == 0 {
			more.Cells[i] = sol.Cells[i]
			break
		}
	}
	add(more)
	add(sol)
	// Swapping two rows of different bands is not a symmetry.
	swapped := sol.Clone()
	for c := 0; c < 9; c++ {
		a, b := swapped.Get(0, c), swapped.Get(3, c)
		swapped.Set(0, c, b)
		swapped.Set(3, c, a)
	}
	add(swapped)
}

func TestCanonicalShapes(t *testing.T) {
	tests := []struct {
		shape Shape
		ok    bool
	}{
		{Shape4, true}, {Shape6, true}, {Shape8, true}, {Shape9, true}, {Shape16, false}, {Shape25, false},
	}
	for _, tt := range tests {
		g := New(tt.shape)
		g.Cells[0], g.Cells[len(g.Cells)-1] = 1, 2
		_, err := Canonical(g)
		if (err == nil) != tt.ok {
			t.Errorf("Canonical(%s with two clues) error = %v, want ok=%v", tt.shape, err, tt.ok)
		}
	}
}

func TestCanonicalGivesUpOnEmptyGrids(t *testing.T) {
	// Every arrangement of an empty grid ties with every other: the search
	// stops at its budget instead of running for years.
	start := time.Now()
	_, err := Canonical(New(Shape9))
	if !errors.Is(err, ErrTooSymmetric) {
		t.Errorf("Canonical(empty 9x9) = %v, want ErrTooSymmetric", err)
	}
	t.Logf("gave up after %v", time.Since(start))
	// A bad cell value is an error, not a panic.
	g := New(Shape4)
	g.Cells[3] = 9
	if _, err := Canonical(g); err == nil {
		t.Error("Canonical(a 4x4 holding 9) = nil error")
	}
}

func BenchmarkCanonical(b *testing.B) {
	p := mustLoadPuzzleSet(b, "famous_hardest.txt")[1].Grid
	for _, bc := range []struct {
		name string
		g    *Grid
	}{{"puzzle", p}, {"solution", mustSolution(b, p)}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Canonical(bc.g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// bruteCanonical is Canonical by brute force: every arrangement of rows
// and columns (and transposition), relabelled by first appearance, and
// the smallest. Only for small shapes.
func bruteCanonical(g *Grid) string {
	n, h, w := g.N(), g.Shape.BoxRows, g.Shape.BoxCols
	rowOrders := blockOrders(n/h, h)
	colOrders := blockOrders(n/w, w)
	best := ""
	for t := 0; t < 2; t++ {
		if t == 1 && h != w {
			break
		}
		for _, ro := range rowOrders {
			for _, co := range colOrders {
				var label [MaxN + 1]byte
				next := byte(1)
				out := make([]byte, 0, n*n)
				for r := 0; r < n; r++ {
					for c := 0; c < n; c++ {
						sr, sc := ro[r], co[c]
						if t == 1 {
							sr, sc = sc, sr
						}
						v := g.Get(sr, sc)
						if v != 0 {
							if label[v] == 0 {
								label[v] = next
								next++
							}
							v = int(label[v])
						}
						out = append(out, byte(v))
					}
				}
				if s := string(out); best == "" || s < best {
					best = s
				}
			}
		}
	}
	return best
}

// blockOrders lists every order of groups·size indices that keeps each
// group together.
func blockOrders(groups, size int) [][]int {
	var out [][]int
	for _, gp := range permutations(groups) {
		var rec func(i int, acc []int)
		rec = func(i int, acc []int) {
			if i == groups {
				out = append(out, append([]int(nil), acc...))
				return
			}
			for _, p := range permutations(size) {
				next := append([]int(nil), acc...)
				for _, k := range p {
					next = append(next, gp[i]*size+k)
				}
				rec(i+1, next)
			}
		}
		rec(0, nil)
	}
	return out
}

func permutations(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), k-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestCanonicalIsTheSmallest checks Canonical against brute force on
// random 4x4 and 6x6 grids, complete and with cells emptied.
func TestCanonicalIsTheSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, s := range []string{
		"..35.6.54......2.....6...2.....3...1",
		"1...\n..3.\n.4..\n...2",
	} {
		sol := mustSolution(t, mustParse(t, s))
		for k := range 30 {
			g := transform(sol, rng)
			if k > 0 {
				for i := range g.Cells {
					if rng.IntN(10) < k%10 {
						g.Cells[i] = 0
					}
				}
			}
			got := mustCanonical(t, g)
			if want := bruteCanonical(g); string(got.Cells) != want {
				t.Errorf("Canonical(%s) = %v, brute force says %v", g, got.Cells, []byte(want))
			}
		}
	}
}
