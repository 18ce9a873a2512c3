package render

import (
	"testing"

	"sudokubot/sudoku"
)

// TestRealSteps draws every step the logical solver takes on a hard puzzle,
// as the bot's "Show step" does, and checks each picture shows the step: the
// placed cells blue, every removed candidate on a red disc.
func TestRealSteps(t *testing.T) {
	puzzle := mustGrid(t, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	logic, err := sudoku.NewLogic(puzzle)
	if err != nil {
		t.Fatalf("NewLogic: %v", err)
	}
	spec := themeSpecs[Light]
	steps := 0
	for ; steps < 200; steps++ {
		step, ok := logic.NextStep()
		if !ok {
			break
		}
		b := Playing(puzzle, logic.Grid()).WithStep(step)
		b.Pencil = logic.Candidates()
		b.Caption = step.Technique
		l, err := newLayout(b, ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		img := mustPNG(t, b, ImageOptions{})
		for _, p := range step.Placements {
			in := interior(l, p.Cell)
			if got := rgbaAt(img, in.Min.X, in.Min.Y); got != spec.papers[pTarget] {
				t.Errorf("step %d (%s): placed cell %s is %v, want the target colour", steps, step.Technique, puzzle.Shape.CellName(p.Cell), got)
			}
		}
		for _, e := range step.Eliminations {
			if n := countColor(img, interior(l, e.Cell), spec.papers[pDiscRed]); n < 20 {
				t.Errorf("step %d (%s): removed %d in %s has %d red disc pixels", steps, step.Technique, e.Value, puzzle.Shape.CellName(e.Cell), n)
			}
		}
		if err := logic.ApplyStep(step); err != nil {
			t.Fatalf("step %d (%s): ApplyStep: %v", steps, step.Technique, err)
		}
	}
	if steps < 10 {
		t.Errorf("the solver took %d steps, want a real solve path", steps)
	}
}
