package sudoku

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUniqueRectangleMissing takes HoDoKu's library positions whose unique
// rectangle has a corner that lost one digit of the pair (HoDoKu's
// "missing candidates" variant). A hint's board (urMissing) finds HoDoKu's
// step and says why the lost digit does not matter; a rating's board, which
// follows Sudoku Explainer, finds no rectangle there.
func TestUniqueRectangleMissing(t *testing.T) {
	byLine := map[string]hodokuCase{}
	for _, c := range mustLoadHodoku(t) {
		byLine[c.line] = c
	}
	for _, tc := range []struct {
		line, technique, explanation string
	}{
		{"892", techUR1, "H6, H8 and I8 hold only 2 and 7; if I6 were 7, the four cells could swap 2 and 7 and the puzzle would have two solutions (I6 has lost its 2, but that does not rule the swap out: a solution only has to fit the givens), so remove 7 from I6."},
		{"922", techUR2, "B1 and B8 hold only 1 and 5, and C1 and C8 hold only those and 6; unless one of C1 or C8 is 6, the four cells could swap 1 and 5 and the puzzle would have two solutions (C8 has lost its 5, but that does not rule the swap out: a solution only has to fit the givens), so remove 6 from C2 and C3."},
		{"960", techUR4, "I5 and I6 hold only 6 and 7, and in row B, 7 can only go in B5 or B6; if B5 were 6, the four cells could swap 6 and 7 and the puzzle would have two solutions (B6 has lost its 6, but that does not rule the swap out: a solution only has to fit the givens), so remove 6 from B5."},
	} {
		t.Run(tc.line, func(t *testing.T) {
			c, ok := byLine[tc.line]
			if !ok {
				t.Fatalf("no line %s in HoDoKu's library", tc.line)
			}
			b, err := newBoard(c.grid)
			if err != nil {
				t.Fatal(err)
			}
			b.refresh()
			if st, ok := findUniqueRectangle(b); ok {
				t.Fatalf("without urMissing: found %s %v, want none (SE needs both digits in every corner)", st.Technique, stepKey(st))
			}
			b.urMissing = true
			st, ok := findUniqueRectangle(b)
			if !ok {
				t.Fatalf("with urMissing: no rectangle, want HoDoKu's %v", c.want)
			}
			if st.Technique != tc.technique {
				t.Errorf("technique %q, want %q", st.Technique, tc.technique)
			}
			if got := strings.Join(stepKey(st), " "); got != strings.Join(c.want, " ") {
				t.Errorf("step %s, want HoDoKu's %s", got, strings.Join(c.want, " "))
			}
			if st.Explanation != tc.explanation {
				t.Errorf("explanation\n got %q\nwant %q", st.Explanation, tc.explanation)
			}
			// Level 2 names the corners, and the one that lost a digit.
			if !strings.Contains(st.Where, "has lost its") {
				t.Errorf("where %q does not say which corner lost a digit", st.Where)
			}
		})
	}
}

// TestUniqueRectangleHodoku: on every unique rectangle position of HoDoKu's
// library, those with a corner that lost a digit of the pair included, a
// hint's board takes a unique rectangle first, and HoDoKu's own in all but
// two (891 and 919, where it finds another rectangle, or the same one as
// type 4 with fewer removals, first).
func TestUniqueRectangleHodoku(t *testing.T) {
	n, exact, lost := 0, 0, 0
	for _, c := range mustLoadHodoku(t) {
		if c.family != "ur" {
			continue
		}
		n++
		b, err := newBoard(c.grid)
		if err != nil {
			t.Fatal(err)
		}
		b.urMissing = true
		st, ok := b.next()
		switch {
		case !ok || hodokuFamily(st.Technique) != "ur":
			t.Errorf("line %s (%s): first step %s %v, want a unique rectangle", c.line, c.label, st.Technique, stepKey(st))
		case strings.Join(stepKey(st), " ") == strings.Join(c.want, " "):
			exact++
		default:
			t.Logf("line %s (%s): %s %v, HoDoKu's %v", c.line, c.label, st.Technique, stepKey(st), c.want)
		}
		if strings.Contains(st.Explanation, "has lost its") {
			lost++
		}
	}
	t.Logf("%d rectangle positions: HoDoKu's step first in %d, resting on a lost digit in %d", n, exact, lost)
	if n != 58 || exact < 56 || lost < 20 {
		t.Errorf("want 58 positions, HoDoKu's step in at least 56 and a lost digit in at least 20")
	}
}

// TestUniqueRectangleMissingSound plays the part of a player who erased
// candidates: on positions along the steps of top1465 puzzles and Gecode's
// 16x16, it removes a random share of the candidates that are not the
// solution's, then asks for a unique rectangle with missing candidates
// allowed. No step may remove a solution's digit, and enough of them must
// rest on a lost digit for the check to mean something.
func TestUniqueRectangleMissingSound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	found, withLost := 0, 0
	var puzzles []*Grid
	for _, p := range sample(mustLoadPuzzles(t, "top1465.txt.gz"), 80) {
		puzzles = append(puzzles, mustParse(t, p))
	}
	for _, p := range mustLoadPuzzleSet(t, "gecode_16x16.txt")[:12] {
		puzzles = append(puzzles, p.Grid)
	}
	for _, puzzle := range puzzles {
		p := puzzle.String()
		sol := mustSolution(t, puzzle)
		b, err := newBoard(puzzle)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; b.left > 0 && step < 200; step++ {
			// Erase about a quarter of the wrong candidates in a copy.
			e := b.clone()
			for c := range e.cand {
				if e.vals[c] != 0 {
					continue
				}
				for m := e.cand[c] &^ (1 << (sol.Cells[c] - 1)); m != 0; m &= m - 1 {
					if rng.IntN(4) == 0 {
						e.cand[c] &^= m & -m
					}
				}
			}
			e.fresh = false
			e.refresh()
			e.urMissing = true
			if st, ok := findUniqueRectangle(e); ok {
				found++
				if strings.Contains(st.Explanation, "has lost its") {
					withLost++
				}
				for _, el := range st.Eliminations {
					if int(sol.Cells[el.Cell]) == el.Value {
						t.Fatalf("%s: %s removes %d from %s, the solution's digit: %s", p, st.Technique, el.Value, e.name(el.Cell), st.Explanation)
					}
					if e.cand[el.Cell]&(1<<(el.Value-1)) == 0 {
						t.Fatalf("%s: %s removes %d from %s, which is not a candidate there", p, st.Technique, el.Value, e.name(el.Cell))
					}
				}
				if len(st.Eliminations) == 0 {
					t.Fatalf("%s: %s removes nothing: %s", p, st.Technique, st.Explanation)
				}
			}
			next, ok := b.next()
			if !ok {
				break
			}
			if err := b.apply(&next); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d rectangles found on positions with erased candidates, %d resting on a lost digit", found, withLost)
	if withLost < 20 {
		t.Errorf("only %d rectangles rested on a lost digit: the check says too little", withLost)
	}
}

// TestHintURMissingNeedsUniqueGivens: where the givens have two solutions
// that differ by a rectangle and only the player's marks rule one out (a
// corner lost that solution's digit), a rectangle with a lost digit would
// remove the other solution's digit: the swapped grid it rules out is the
// solution the marks exclude. The hint must not take it. The puzzles are
// top1465's with the givens at the corners of a rectangle of the solution
// (a b / b a in two boxes; one or two of its corners given) taken away,
// when that leaves exactly the two solutions.
func TestHintURMissingNeedsUniqueGivens(t *testing.T) {
	ctx := context.Background()
	g := logicGeoFor(Shape9)
	traps := 0
	for _, p := range mustLoadPuzzles(t, "top1465.txt.gz") {
		puzzle := mustParse(t, p)
		s1 := mustSolution(t, puzzle)
		for _, rect := range solutionRectangles(g, s1) {
			var givens []int
			for _, c := range rect {
				if puzzle.Cells[c] != 0 {
					givens = append(givens, c)
				}
			}
			if len(givens) == 0 || len(givens) > 2 {
				continue
			}
			loose := puzzle.Clone()
			for _, c := range givens {
				loose.Cells[c] = 0
			}
			res := Solve(ctx, loose, 3)
			if len(res.Solutions) != 2 {
				continue
			}
			s2 := res.Solutions[0]
			if s2.String() == s1.String() {
				s2 = res.Solutions[1]
			}
			// Either pair of opposite sides as the floor, either corner
			// of the roof losing s2's digit.
			q := rect
			for _, r := range [][4]int{
				{q[0], q[1], q[2], q[3]}, {q[0], q[1], q[3], q[2]}, {q[2], q[3], q[0], q[1]}, {q[2], q[3], q[1], q[0]},
				{q[0], q[2], q[1], q[3]}, {q[0], q[2], q[3], q[1]}, {q[1], q[3], q[0], q[2]}, {q[1], q[3], q[2], q[0]},
			} {
				if trapsRectangle(t, loose, s1, s2, r) {
					traps++
				}
			}
		}
	}
	t.Logf("%d positions where a rectangle with a lost digit would mislead", traps)
	if traps < 20 {
		t.Fatalf("found %d positions where a rectangle with a lost digit would mislead, want at least 20", traps)
	}
}

// solutionRectangles lists the rectangles in two boxes whose corners hold
// a b / b a in sol, corners in reading order.
func solutionRectangles(g *logicGeo, sol *Grid) [][4]int {
	var out [][4]int
	for r1 := 0; r1 < 9; r1++ {
		for r2 := r1 + 1; r2 < 9; r2++ {
			for c1 := 0; c1 < 9; c1++ {
				for c2 := c1 + 1; c2 < 9; c2++ {
					q := [4]int{r1*9 + c1, r1*9 + c2, r2*9 + c1, r2*9 + c2}
					if sol.Cells[q[0]] == sol.Cells[q[3]] && sol.Cells[q[1]] == sol.Cells[q[2]] &&
						map2(g.box[q[0]], g.box[q[1]], g.box[q[2]], g.box[q[3]]) {
						out = append(out, q)
					}
				}
			}
		}
	}
	return out
}

// trapsRectangle builds the position on puzzle (two solutions, s1 and s2,
// differing in rect) where the floor rect[0], rect[1] and the roof corner
// rect[3] hold only the pair and the roof corner rect[2] has lost s2's
// digit, so that only the marks make s1 the solution, and plays the steps
// below a rectangle on it. It reports whether a rectangle with a lost
// digit would then be the next step and remove s1's digit; if so it asks
// for a hint, which must neither take such a rectangle nor remove or place
// anything against s1.
func trapsRectangle(t *testing.T, puzzle, s1, s2 *Grid, rect [4]int) bool {
	t.Helper()
	for c := range s1.Cells {
		if s1.Cells[c] != s2.Cells[c] && c != rect[0] && c != rect[1] && c != rect[2] && c != rect[3] {
			return false
		}
	}
	start := puzzle.Clone()
	start.Marks = puzzle.Candidates()
	pm := uint32(1)<<(s1.Cells[rect[0]]-1) | uint32(1)<<(s2.Cells[rect[0]]-1)
	for _, c := range []int{rect[0], rect[1], rect[3]} {
		start.Marks[c] = pm
	}
	start.Marks[rect[2]] &^= 1 << (s2.Cells[rect[2]] - 1)
	b, err := newBoard(start)
	if err != nil {
		t.Fatal(err)
	}
	// Play every step easier than a rectangle (these don't assume
	// uniqueness), as a player would before getting stuck.
	for {
		st, ok := b.next()
		if !ok || st.Score >= 4.5 {
			break
		}
		if err := b.apply(&st); err != nil {
			t.Fatal(err)
		}
	}
	if b.left == 0 || b.cand[rect[2]]&^pm == 0 {
		return false
	}
	b.urMissing = true
	st, ok := b.next()
	wrong := false
	for _, e := range st.Eliminations {
		wrong = wrong || int(s1.Cells[e.Cell]) == e.Value
	}
	if !ok || !wrong || !strings.Contains(st.Explanation, "has lost its") {
		return false
	}
	pos := b.markedGrid()
	h, err := Hint(context.Background(), puzzle, pos, HintStep)
	if err != nil {
		t.Fatalf("%s: %v", puzzle, err)
	}
	for _, st := range h.Steps {
		if strings.Contains(st.Explanation, "has lost its") {
			t.Errorf("%s: the hint takes a rectangle with a lost digit although only the marks make the solution unique: %s", puzzle, st.Explanation)
		}
		for _, e := range st.Eliminations {
			if int(s1.Cells[e.Cell]) == e.Value {
				t.Errorf("%s: %s removes %d from %s, the solution's digit: %s", puzzle, st.Technique, e.Value, b.name(e.Cell), st.Explanation)
			}
		}
		for _, pl := range st.Placements {
			if int(s1.Cells[pl.Cell]) != pl.Value {
				t.Errorf("%s: %s places %d in %s, the solution has %d: %s", puzzle, st.Technique, pl.Value, b.name(pl.Cell), s1.Cells[pl.Cell], st.Explanation)
			}
		}
	}
	return true
}
