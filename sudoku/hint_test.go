package sudoku

import (
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

const wikiPuzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

func TestHintLevels(t *testing.T) {
	ctx := context.Background()
	g := mustParse(t, wikiPuzzle)
	sol := mustSolution(t, g)
	var texts []string
	for _, level := range []HintLevel{HintTechnique, HintWhere, HintStep} {
		h, err := Hint(ctx, g, g, level)
		if err != nil {
			t.Fatalf("Hint(level %d): %v", level, err)
		}
		if h.Level != level || h.Text == "" || len(h.Wrong) != 0 {
			t.Fatalf("Hint(level %d) = %+v", level, h)
		}
		if len(h.Step.Placements) == 0 {
			t.Fatalf("Hint(level %d).Step = %+v, want a placement", level, h.Step)
		}
		for _, p := range h.Step.Placements {
			if int(sol.Cells[p.Cell]) != p.Value {
				t.Errorf("Hint places %d at %s, the solution has %d", p.Value, g.Shape.CellName(p.Cell), sol.Cells[p.Cell])
			}
		}
		texts = append(texts, h.Text)
	}
	// Level 1 names the technique without the cell; level 3 names the cell.
	h, _ := Hint(ctx, g, g, HintStep)
	cell := g.Shape.CellName(h.Step.Placements[0].Cell)
	if strings.Contains(texts[0], cell) {
		t.Errorf("level-1 hint %q gives away the cell %s", texts[0], cell)
	}
	if !strings.Contains(texts[2], cell) {
		t.Errorf("level-3 hint %q does not name the cell %s", texts[2], cell)
	}
	if texts[0] == texts[1] || texts[1] == texts[2] {
		t.Errorf("hint levels don't differ: %q", texts)
	}
}

func TestHintWrongEntry(t *testing.T) {
	ctx := context.Background()
	puzzle := mustParse(t, wikiPuzzle)
	sol := mustSolution(t, puzzle)
	pos := puzzle.Clone()
	// Enter one right value and one wrong value.
	pos.Cells[2] = sol.Cells[2]
	wrongAt := 3
	pos.Cells[wrongAt] = sol.Cells[wrongAt]%9 + 1
	h, err := Hint(ctx, puzzle, pos, HintTechnique)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Wrong) != 1 || h.Wrong[0] != wrongAt {
		t.Fatalf("Hint(wrong entry).Wrong = %v, want [%d]", h.Wrong, wrongAt)
	}
	if !strings.Contains(h.Text, "A4") {
		t.Errorf("Hint(wrong entry).Text = %q, want it to name A4", h.Text)
	}
	if len(h.Steps) != 0 || len(h.Step.Placements) != 0 {
		t.Errorf("Hint(wrong entry) also gave a step: %+v", h.Step)
	}
}

func TestHintErrors(t *testing.T) {
	ctx := context.Background()
	puzzle := mustParse(t, wikiPuzzle)
	changed := puzzle.Clone()
	changed.Cells[0] = 1 // a given changed
	multi := puzzle.Clone()
	for i := 0; i < 30; i++ {
		multi.Cells[i] = 0
	}
	none := mustParse(t, "12345678."+"........9"+strings.Repeat(".", 63))
	tests := []struct {
		name             string
		puzzle, position *Grid
		level            HintLevel
		want             error
	}{
		{"bad level", puzzle, puzzle, 4, nil},
		{"given changed", puzzle, changed, HintStep, nil},
		{"not unique", multi, multi, HintStep, ErrHintNotUnique},
		{"no solution", none, none, HintStep, ErrHintNoSolution},
		{"shape mismatch", puzzle, New(Shape4), HintStep, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Hint(ctx, tt.puzzle, tt.position, tt.level)
			if err == nil {
				t.Fatalf("Hint succeeded, want an error")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Hint error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestHintSolved(t *testing.T) {
	g := mustParse(t, wikiPuzzle)
	sol := mustSolution(t, g)
	h, err := Hint(context.Background(), g, sol, HintStep)
	if err != nil || len(h.Steps) != 0 || !strings.Contains(h.Text, "solved") {
		t.Errorf("Hint(solved) = %+v, %v; want a 'solved' text and no step", h, err)
	}
}

// TestHintFollowToEnd follows hints one step at a time, as a player
// pressing "Next hint" does: each hint's step is applied to the position
// (its placements filled, its removals taken off the pencil marks), and the
// next hint is asked for the position with those marks. Every step is
// right, no hint repeats the one before, and the puzzle gets finished.
func TestHintFollowToEnd(t *testing.T) {
	ctx := context.Background()
	for _, p := range []string{
		wikiPuzzle,
		// Needs chains and more (Platinum Blonde): hints still finish it,
		// revealing cells where logic runs out.
		".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
		// top1465 #1
		"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
	} {
		puzzle := mustParse(t, p)
		sol := mustSolution(t, puzzle)
		pos := puzzle.Clone()
		var prev []string
		for i := 0; !pos.Complete(); i++ {
			if i > 400 {
				t.Fatalf("%s: hints did not finish the puzzle", p)
			}
			h, err := Hint(ctx, puzzle, pos, HintStep)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Steps) == 0 || h.Step.Technique != h.Steps[0].Technique {
				t.Fatalf("%s: hint without a step, or Step is not Steps[0]: %+v", p, h)
			}
			if last := h.Steps[len(h.Steps)-1]; len(last.Placements) == 0 {
				t.Fatalf("%s: the hint's steps don't reach a placement", p)
			}
			for _, pl := range h.Step.Placements {
				if sol.Cells[pl.Cell] != uint8(pl.Value) {
					t.Fatalf("%s: hint places %d at %s; solution %d", p, pl.Value, puzzle.Shape.CellName(pl.Cell), sol.Cells[pl.Cell])
				}
			}
			for _, e := range h.Step.Eliminations {
				if sol.Cells[e.Cell] == uint8(e.Value) {
					t.Fatalf("%s: hint removes the solution's %d from %s", p, e.Value, puzzle.Shape.CellName(e.Cell))
				}
			}
			key := stepKey(h.Step)
			if strings.Join(key, " ") == strings.Join(prev, " ") {
				t.Fatalf("%s: hint %d repeats the step before: %v", p, i, key)
			}
			prev = key
			if pos, err = ApplyStep(pos, h.Step); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestHintMarksHonoured: a position pasted with pencil marks that already
// took the next step gets a different step, never one that removes a
// candidate the marks have gone without.
func TestHintMarksHonoured(t *testing.T) {
	ctx := context.Background()
	puzzle := mustParse(t, "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	pos := puzzle.Clone()
	var h HintResult
	// Play on until the next step only removes candidates.
	for {
		var err error
		if h, err = Hint(ctx, puzzle, pos, HintStep); err != nil {
			t.Fatal(err)
		}
		if len(h.Step.Placements) == 0 {
			break
		}
		if pos, err = ApplyStep(pos, h.Step); err != nil {
			t.Fatal(err)
		}
	}
	// The player takes that step on their own: their marks lack the
	// removed candidates. The hint must move on.
	taken, err := ApplyStep(pos, h.Step)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := Hint(ctx, puzzle, taken, HintStep)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stepKey(h2.Step), " ") == strings.Join(stepKey(h.Step), " ") {
		t.Fatalf("hint repeats the step the marks already took: %s", h2.Text)
	}
	// Only the first step starts from the marks as given; later steps start
	// from later positions.
	if len(h2.Steps) > 0 {
		st := h2.Steps[0]
		for _, e := range st.Eliminations {
			if taken.Marks[e.Cell]&(1<<(e.Value-1)) == 0 {
				t.Errorf("hint removes %d from %s, which the marks no longer hold: %s", e.Value, puzzle.Shape.CellName(e.Cell), st.Explanation)
			}
		}
	}
}

// TestHintWrongMarks: a candidate erased that is the solution's value is
// named before any step.
func TestHintWrongMarks(t *testing.T) {
	ctx := context.Background()
	puzzle := mustParse(t, wikiPuzzle)
	sol := mustSolution(t, puzzle)
	pos := puzzle.Clone()
	pos.Marks = puzzle.Candidates()
	cell := 2 // A3, the solution's 4
	pos.Marks[cell] &^= 1 << (sol.Cells[cell] - 1)
	h, err := Hint(ctx, puzzle, pos, HintTechnique)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.WrongMarks) != 1 || h.WrongMarks[0] != (Candidate{cell, int(sol.Cells[cell])}) || len(h.Steps) != 0 {
		t.Fatalf("Hint(erased solution).WrongMarks = %v, steps %d; want [{%d %d}] and no step", h.WrongMarks, len(h.Steps), cell, sol.Cells[cell])
	}
	// Level 1 names the cell but not the digit it needs: that is its answer.
	want := "A3 lost a candidate it needs: one of the digits you erased from its pencil marks belongs there. Look at A3 again before going on."
	if h.Text != want {
		t.Errorf("Hint(erased solution, level 1).Text = %q, want %q", h.Text, want)
	}
	for _, level := range []HintLevel{HintWhere, HintStep} {
		h, err := Hint(ctx, puzzle, pos, level)
		if err != nil {
			t.Fatal(err)
		}
		want := "You removed 4 from A3, but A3 is 4: put it back before going on."
		if h.Text != want || len(h.WrongMarks) != 1 {
			t.Errorf("Hint(erased solution, level %d).Text = %q, want %q", level, h.Text, want)
		}
	}
	// Several cells at level 1: named, without their digits.
	pos2 := pos.Clone()
	for _, c := range []int{5, 8} { // A6, A9
		pos2.Marks[c] &^= 1 << (sol.Cells[c] - 1)
	}
	h, err = Hint(ctx, puzzle, pos2, HintTechnique)
	if err != nil {
		t.Fatal(err)
	}
	want = "A3, A6 and A9 lost candidates they need: in each, one of the digits you erased from its pencil marks belongs there. Look at them again before going on."
	if h.Text != want {
		t.Errorf("Hint(three erased solutions, level 1).Text = %q, want %q", h.Text, want)
	}
	for _, w := range h.WrongMarks {
		if d := string(puzzle.Alphabet.Symbol(w.Value)); strings.Contains(h.Text, d) {
			t.Errorf("level-1 hint %q names the digit %s a cell needs", h.Text, d)
		}
	}
	// A wrong digit comes before a wrong mark.
	pos.Cells[3] = sol.Cells[3]%9 + 1
	if h, err = Hint(ctx, puzzle, pos, HintTechnique); err != nil || len(h.Wrong) != 1 {
		t.Errorf("Hint(wrong digit and mark) = %+v, %v; want the wrong digit", h, err)
	}
}

// TestHintUniqueByMarks: a pasted grid whose digits alone have several
// solutions is hinted when its pencil marks leave one.
func TestHintUniqueByMarks(t *testing.T) {
	ctx := context.Background()
	puzzle := mustParse(t, wikiPuzzle)
	sol := mustSolution(t, puzzle)
	g := puzzle.Clone()
	for i := 0; i < 30; i++ {
		g.Cells[i] = 0
	}
	if Solve(ctx, g, 2).Status != Multiple {
		t.Fatal("test grid is not ambiguous")
	}
	if _, err := Hint(ctx, g, g, HintStep); !errors.Is(err, ErrHintNotUnique) {
		t.Fatalf("Hint(ambiguous, no marks) error = %v, want ErrHintNotUnique", err)
	}
	g.Marks = make([]uint32, len(g.Cells))
	for i := 0; i < 30; i++ {
		g.Marks[i] = 1<<(sol.Cells[i]-1) | 1<<(sol.Cells[(i+40)%81]-1)
	}
	h, err := Hint(ctx, g, g, HintStep)
	if err != nil {
		t.Fatalf("Hint(ambiguous, marks make it unique): %v", err)
	}
	for _, p := range h.Step.Placements {
		if sol.Cells[p.Cell] != uint8(p.Value) {
			t.Errorf("hint places %d at %s, solution %d", p.Value, g.Shape.CellName(p.Cell), sol.Cells[p.Cell])
		}
	}
}

func TestHintCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := mustParse(t, wikiPuzzle)
	if _, err := Hint(ctx, g, g, HintStep); err == nil {
		t.Errorf("Hint(cancelled) succeeded, want the context's error")
	}
}

func TestTechPhrase(t *testing.T) {
	tests := map[string]string{
		"Hidden single":               "a hidden single",
		"X-Wing":                      "an X-Wing",
		"XY-Chain":                    "an XY-Chain",
		"Alternating inference chain": "an alternating inference chain",
		"BUG+1":                       "a BUG+1",
		"Pointing":                    "pointing",
		"Claiming":                    "claiming",
		"Swordfish":                   "a Swordfish",
		"Jellyfish":                   "a Jellyfish",
		"Turbot fish":                 "a Turbot fish",
		"Unique rectangle":            "a unique rectangle",
		"Unique rectangle type 2":     "a unique rectangle (type 2)",
		"Naked pair":                  "a naked pair",
	}
	for in, want := range tests {
		if got := techPhrase(in); got != want {
			t.Errorf("techPhrase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHintStepsSuffice walks hard puzzles hint by hint and checks that the
// steps a hint keeps (after dropping those the placement does not rest on)
// are enough: replayed on the bare position, they leave the placed value
// as a single (the only candidate of its cell, or its digit's only place
// in a unit).
func TestHintStepsSuffice(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, p := range sample(mustLoadPuzzles(t, "top1465.txt.gz"), 6)[:6] {
		puzzle := mustParse(t, p)
		pos := puzzle.Clone()
		for !pos.Complete() {
			h, err := Hint(ctx, puzzle, pos, HintStep)
			if err != nil {
				t.Fatal(err)
			}
			b, err := newBoard(pos)
			if err != nil {
				t.Fatal(err)
			}
			for i := range h.Steps {
				st := h.Steps[i]
				if i == len(h.Steps)-1 {
					st.Placements = nil
				}
				if err := b.apply(&st); err != nil {
					t.Fatal(err)
				}
			}
			b.refresh()
			last := h.Steps[len(h.Steps)-1]
			for _, pl := range last.Placements {
				switch last.Technique {
				case techBUG, techReveal, techCellForcing, techUnitForcing:
					continue // not singles
				}
				single := b.cand[pl.Cell] == 1<<(pl.Value-1)
				for k := 0; k < 3; k++ {
					u := b.g.cellUnits[pl.Cell][k]
					if b.pos[u*b.n+pl.Value-1] == 1<<b.g.cellIdx[pl.Cell][k] {
						single = true
					}
				}
				if !single {
					t.Fatalf("%s: after the hint's %d steps, %s = %d is not a single (%s)\n%s",
						pos, len(h.Steps), b.name(pl.Cell), pl.Value, last.Technique, h.Text)
				}
				checked++
				pos.Cells[pl.Cell] = uint8(pl.Value)
			}
		}
	}
	t.Logf("%d placements checked", checked)
}

// BenchmarkHintTop1465 asks for the first hint of each top1465 puzzle (a
// solve for uniqueness, then logic up to the first placement) and reports
// the median time.
func BenchmarkHintTop1465(b *testing.B) {
	defer lockThread()()
	ps := mustLoadPuzzles(b, "top1465.txt.gz")
	ctx := context.Background()
	var wall, cpu []time.Duration
	for range b.N {
		wall, cpu = wall[:0], cpu[:0]
		for _, p := range ps {
			g := mustParse(b, p)
			c0, _ := threadCPU()
			start := time.Now()
			if _, err := Hint(ctx, g, g, HintStep); err != nil {
				b.Fatal(err)
			}
			wall = append(wall, time.Since(start))
			if c1, ok := threadCPU(); ok {
				cpu = append(cpu, c1-c0)
			}
		}
	}
	b.ReportMetric(median(wall), "ms/hint-median")
	if len(cpu) > 0 {
		b.ReportMetric(median(cpu), "cpu-ms/hint-median")
	}
}

var hintReask = flag.Int("hint.reask", 5, "how many top1465 puzzles TestHintReask plays through (500 for the figure in the notes)")

// TestHintReask plays a client of `hint -json`: it applies the first step
// of every hint to its position (placements filled, eliminations taken off
// its pencil marks) and asks again with the candidates it then has. It must
// never get stuck (the same step again, or a position that does not move),
// and it must finish every puzzle.
func TestHintReask(t *testing.T) {
	ctx := context.Background()
	ps := mustLoadPuzzles(t, "top1465.txt.gz")
	n := min(*hintReask, len(ps))
	stuck, hints := 0, 0
	for _, p := range ps[:n] {
		puzzle := mustParse(t, p)
		pos := puzzle.Clone()
		prev := ""
		for !pos.Complete() {
			h, err := Hint(ctx, puzzle, pos, HintStep)
			if err != nil {
				t.Fatal(err)
			}
			hints++
			key := pos.String() + strings.Join(stepKey(h.Step), " ")
			if len(h.Steps) == 0 || key == prev {
				stuck++
				t.Errorf("%s: stuck at %s: %s", p, pos, h.Text)
				break
			}
			prev = key
			if pos, err = ApplyStep(pos, h.Step); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d puzzles, %d hints asked, %d stuck", n, hints, stuck)
}

// TestHintNamesTheSymbols: a level-1 hint speaks of the puzzle's own
// symbols: digits, letters (an own-letter puzzle), or symbols (16x16 in
// 1-9 and A-G).
func TestHintNamesTheSymbols(t *testing.T) {
	ctx := context.Background()
	// A position whose next step is a hidden single, whose nudge speaks of
	// "a digit"; the same position in letters and in a mixed alphabet.
	const puz = wikiPuzzle
	letters := strings.Map(func(r rune) rune {
		if r >= '1' && r <= '9' {
			return rune("AELMNOSTW"[r-'1'])
		}
		return r
	}, puz)
	mixed := strings.Map(func(r rune) rune {
		if r >= '1' && r <= '3' {
			return rune("XYZ"[r-'1'])
		}
		return r
	}, puz)
	tests := []struct {
		name, in string
		alphabet Alphabet
		want     string
	}{
		{"digits", puz, "", "a digit"},
		{"own letters", letters, "AELMNOSTW", "a letter"},
		{"mixed", mixed, "XYZ456789", "a symbol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseWith(tt.in, ParseOptions{Alphabet: tt.alphabet})
			if err != nil {
				t.Fatal(err)
			}
			h, err := Hint(ctx, g, g, HintTechnique)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(h.Text, tt.want) {
				t.Errorf("level-1 hint %q, want it to speak of %q", h.Text, tt.want)
			}
			for _, other := range []string{"a digit", "a letter", "a symbol"} {
				if other != tt.want && strings.Contains(h.Text, other) {
					t.Errorf("level-1 hint %q speaks of %q, want %q", h.Text, other, tt.want)
				}
			}
		})
	}
}

// TestWhereText: every technique's level-2 hint is a sentence made for its
// kind of place, with no "a pointing" or "Look for a X: row C".
func TestWhereText(t *testing.T) {
	tests := []struct {
		technique, where, want string
	}{
		{techFullHouse, "row H", "Look for a full house in row H."},
		{techHiddenSingleBox, "1 in box 4", "Look for a hidden single: where can 1 go in box 4?"},
		{techHiddenSingleLine, "4 in row A", "Look for a hidden single: where can 4 go in row A?"},
		{techNakedSingle, "D6", "Look for a naked single: which candidates are left in D6?"},
		{techPointing, "2 in box 4", "Look for pointing: where can 2 go in box 4?"},
		{techDirectPointing, "2 in box 4", "Look for pointing: where can 2 go in box 4?"},
		{techClaiming, "6 in row F", "Look for claiming: where can 6 go in row F?"},
		{techDirectClaiming, "6 in row F", "Look for claiming: where can 6 go in row F?"},
		{techNakedPair, "row C", "Look for a naked pair in row C."},
		{techNakedTriple, "column 4", "Look for a naked triple in column 4."},
		{techNakedQuad, "box 7", "Look for a naked quad in box 7."},
		{techHiddenPair, "row D", "Look for a hidden pair in row D."},
		{techDirectHiddenPair, "row D", "Look for a hidden pair in row D."},
		{techHiddenTriple, "column 7", "Look for a hidden triple in column 7."},
		{techDirectHiddenTriple, "column 7", "Look for a hidden triple in column 7."},
		{techHiddenQuad, "row I", "Look for a hidden quad in row I."},
		{techXWing, "2 in rows C and I", "Look for an X-Wing: where can 2 go in rows C and I?"},
		{techSwordfish, "9 in rows B, D and G", "Look for a Swordfish: where can 9 go in rows B, D and G?"},
		{techJellyfish, "7 in columns 1, 2, 5 and 9", "Look for a Jellyfish: where can 7 go in columns 1, 2, 5 and 9?"},
		{techXYWing, "H1 and the cells it sees", "Look for an XY-Wing: start from H1 and the cells it sees."},
		{techXYZWing, "I9 and the cells it sees", "Look for an XYZ-Wing: start from I9 and the cells it sees."},
		{techUR1, "the 3 and 4 in A1, A6, C1 and C6", "Look for a unique rectangle: the 3 and 4 in A1, A6, C1 and C6."},
		{techUR2, "the 5 and 7 in A4, C4, A8 and C8", "Look for a unique rectangle (type 2): the 5 and 7 in A4, C4, A8 and C8."},
		{techUR4, "the 2 and 4 in G4, G5, C4 and C5", "Look for a unique rectangle (type 4): the 2 and 4 in G4, G5, C4 and C5."},
		{techBUG, "F5", "Look for a BUG+1: F5 is the one empty cell with more than two candidates."},
		{techTurbot, "3 links starting at E6", "Look for a Turbot fish of 3 links starting at E6."},
		{techXChain, "5 links starting at D4", "Look for an X-Chain of 5 links starting at D4."},
		{techXYChain, "7 links starting at A4", "Look for an XY-Chain of 7 links starting at A4."},
		{techAIC, "5 links starting at F8", "Look for an alternating inference chain of 5 links starting at F8."},
		{techWWing, "4 links starting at B2", "Look for a W-Wing of 4 links starting at B2."},
		{techNishio, "what follows from A3 = 1", "Look for a forcing chain: see what follows from A3 = 1."},
		{techContradiction, "what follows from A3 = 1", "Look for a forcing chain: see what follows from A3 = 1."},
		{techCellForcing, "the candidates of B4", "Look for a cell forcing chain: try the candidates of B4 one by one."},
		{techStaticCell, "the candidates of B4", "Look for a cell forcing chain: try the candidates of B4 one by one."},
		{techUnitForcing, "the places of 2 in column 4", "Look for a unit forcing chain: try the places of 2 in column 4 one by one."},
		{techStaticUnit, "the places of 2 in column 4", "Look for a unit forcing chain: try the places of 2 in column 4 one by one."},
	}
	for _, tt := range tests {
		if got := whereText(Step{Technique: tt.technique, Where: tt.where}); got != tt.want {
			t.Errorf("whereText(%s, %q) = %q, want %q", tt.technique, tt.where, got, tt.want)
		}
	}
}

// TestNudgesRead: every technique's level-1 hint reads as a sentence: an
// article where the name takes one, and a description after the colon.
func TestNudgesRead(t *testing.T) {
	for tech := range nudges {
		got := "Look for " + nudge(tech, DefaultAlphabet(9)) + "."
		name, desc, ok := strings.Cut(strings.TrimPrefix(got, "Look for "), ": ")
		if !ok || desc == "" {
			t.Errorf("nudge(%s) = %q, want \"name: what it looks for\"", tech, got)
			continue
		}
		if !strings.HasPrefix(name, "a ") && !strings.HasPrefix(name, "an ") {
			t.Errorf("nudge(%s) = %q: the technique has no article", tech, got)
		}
	}
}
