package sudoku

import (
	"context"
	"fmt"
	"slices"
)

// Copies recognises a few known puzzles — the day's dailies — in whatever
// a player pastes: the puzzle itself, a rotated, mirrored, shuffled or
// relabelled copy of it (any of Sudoku's symmetries, see Canonical), with
// clues removed, or a position reached from it (its givens plus entries).
// All of these but a position with a wrong entry share the known puzzle's
// solution up to the symmetries, so that is what it compares; a grid with
// no solution is searched for the puzzle's givens instead (embeds).
//
// A complete grid's canonical form takes about 0.4 ms, so Find first
// compares a cheap invariant of the solution (gridSignature, about 2 µs)
// and computes the canonical form only when that matches, which for a grid
// that is not a copy almost never happens.
type Copies struct {
	known []knownSolution
}

type knownSolution struct {
	puzzle *Grid // nil when only the solution is known
	sig    gridSignature
	canon  *Grid
}

// NewCopies prepares to recognise copies of puzzles (Find reports the
// index into puzzles). Each needs its solution: a complete, valid 9x9 or
// smaller grid. A position with a wrong entry is recognised by the
// puzzle's givens, when the puzzle's Grid is set.
func NewCopies(puzzles ...Puzzle) (*Copies, error) {
	c := &Copies{}
	for i, p := range puzzles {
		s := p.Solution
		if s == nil || !s.Complete() || len(s.Clashes()) > 0 {
			return nil, fmt.Errorf("known puzzle %d: its solution is not a complete, valid grid", i+1)
		}
		canon, err := Canonical(s)
		if err != nil {
			return nil, fmt.Errorf("known puzzle %d: %w", i+1, err)
		}
		c.known = append(c.known, knownSolution{puzzle: p.Grid, sig: signature(s), canon: canon})
	}
	return c, nil
}

// multipleLimit is how many solutions Find looks through when g has more
// than one: a known puzzle with a clue or two removed has a handful, and
// the known one is among them.
const multipleLimit = 64

// Find reports which known puzzle g is a copy of, up to Sudoku's
// symmetries: the puzzle itself, a position in it (its givens plus
// entries, right or wrong), or the puzzle with a few clues removed (when
// the known solution is among g's first 64). A g that ctx stops is not
// recognised.
func (c *Copies) Find(ctx context.Context, g *Grid) (int, bool) {
	if c == nil || len(c.known) == 0 {
		return 0, false
	}
	res := Result{Status: NoSolution}
	if len(g.Clashes()) == 0 {
		res = Solve(ctx, g, 2)
		if res.Status == Multiple {
			res = Solve(ctx, g, multipleLimit)
		}
	}
	for _, sol := range res.Solutions {
		if i, ok := c.match(sol); ok {
			return i, true
		}
	}
	if res.Status != NoSolution || ctx.Err() != nil {
		return 0, false
	}
	// No solution: a position with a wrong entry still holds the givens.
	for i, k := range c.known {
		if k.puzzle != nil && embeds(ctx, k.puzzle, g) {
			return i, true
		}
	}
	return 0, false
}

// match compares a full grid with the known solutions.
func (c *Copies) match(sol *Grid) (int, bool) {
	sig := signature(sol)
	var canon *Grid
	for i, k := range c.known {
		if k.canon.Shape != sol.Shape || !sig.equal(k.sig) {
			continue
		}
		if canon == nil {
			var err error
			if canon, err = Canonical(sol); err != nil {
				return 0, false
			}
		}
		if canon.Equal(k.canon) {
			return i, true
		}
	}
	return 0, false
}

// gridSignature is an invariant of a full grid under Sudoku's symmetries,
// cheap to compute: for every two rows of one band, the cycle type of the
// permutation that sends the symbol of one row to the symbol below it in
// the other (relabelling conjugates it, column moves keep it, swapping the
// rows inverts it: the cycle type stays), sorted; the same for columns of
// one stack; and the two lists in sorted order (transposition swaps them).
type gridSignature struct {
	a, b []uint64
}

func (s gridSignature) equal(o gridSignature) bool {
	return slices.Equal(s.a, o.a) && slices.Equal(s.b, o.b)
}

func signature(g *Grid) gridSignature {
	rows := lineSignatures(g, false)
	cols := lineSignatures(g, true)
	if slices.Compare(rows, cols) > 0 {
		rows, cols = cols, rows
	}
	return gridSignature{rows, cols}
}

// lineSignatures lists the cycle types of the pairs of rows within each
// band (columns within each stack when byColumn), sorted.
func lineSignatures(g *Grid, byColumn bool) []uint64 {
	n := g.N()
	group := g.Shape.BoxRows
	if byColumn {
		group = g.Shape.BoxCols
	}
	at := func(line, k int) uint8 {
		if byColumn {
			return g.Cells[k*n+line]
		}
		return g.Cells[line*n+k]
	}
	var out []uint64
	for base := 0; base < n; base += group {
		for i := base; i < base+group; i++ {
			for j := i + 1; j < base+group; j++ {
				var perm [MaxN + 1]uint8
				for k := 0; k < n; k++ {
					perm[at(i, k)] = at(j, k)
				}
				out = append(out, cycleType(perm[:n+1], n))
			}
		}
	}
	slices.Sort(out)
	return out
}

// cycleType encodes the cycle lengths of perm (on 1..n) as counts, five
// bits per length: two permutations are conjugate exactly when equal.
func cycleType(perm []uint8, n int) uint64 {
	var seen [MaxN + 1]bool
	var counts [MaxN + 1]int
	for v := 1; v <= n; v++ {
		if seen[v] {
			continue
		}
		l := 0
		for w := v; !seen[w]; w = int(perm[w]) {
			seen[w] = true
			l++
			if w == 0 {
				break
			}
		}
		counts[l]++
	}
	var t uint64
	for l := 1; l <= n && l <= 12; l++ {
		t = t<<5 | uint64(counts[l]&31)
	}
	return t
}
