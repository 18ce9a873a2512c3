package render

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sudokubot/sudoku"
)

var docs = flag.Bool("docs", false, "write the README's pictures to ../docs/")

// docsHintStep is a real step of the classic puzzle, built by hand in the
// shape the hint engine returns: in box 8, 2 fits only in row I (I4, I6),
// so 2 leaves the rest of row I.
var docsHintStep = sudoku.Step{
	Technique:    "Pointing",
	Causes:       []sudoku.Candidate{{Cell: 75, Value: 2}, {Cell: 77, Value: 2}},
	Cells:        []int{75, 77},
	Eliminations: []sudoku.Candidate{{Cell: 72, Value: 2}, {Cell: 73, Value: 2}, {Cell: 74, Value: 2}},
	Units:        []sudoku.Unit{{Kind: sudoku.Box, Index: 7}, {Kind: sudoku.Row, Index: 8}},
	Explanation:  "In box 8, 2 fits only in row I (I4, I6), so 2 can go nowhere else in row I: remove it from I1, I2 and I3.",
}

// TestDocsPictures checks the README's pictures still draw, and with -docs
// writes them: go test ./render -run DocsPictures -docs
func TestDocsPictures(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	solution := mustGrid(t, classicSolution)
	// The step must be true of the puzzle: the causes and eliminations are
	// candidates, and 2 is in none of box 8's other empty cells.
	pencil := puzzle.Candidates()
	for _, c := range append(append([]sudoku.Candidate(nil), docsHintStep.Causes...), docsHintStep.Eliminations...) {
		if pencil[c.Cell]&(1<<(c.Value-1)) == 0 {
			t.Fatalf("%s is not a candidate of %s", puzzle.Shape.CellName(c.Cell), string(puzzle.Alphabet.Symbol(c.Value)))
		}
	}
	for _, cell := range puzzle.Shape.Geometry().UnitCells[2*9+7] {
		if pencil[cell]&2 != 0 && cell != 75 && cell != 77 {
			t.Fatalf("2 is also a candidate of %s: the step is wrong", puzzle.Shape.CellName(cell))
		}
	}
	// Drawn as the bot sends them: the dark theme, no caption (/solve and
	// /hint put their words in the embed), the hint over every candidate.
	solved := Solved(puzzle, solution)
	hint := New(puzzle).WithStep(docsHintStep)
	hint.Pencil = pencil
	generated := New(puzzle)
	generated.Caption = "9x9 · easy · 1.2"
	pictures := []struct {
		file  string
		board *Board
	}{
		{"solved.png", solved},
		{"hint.png", hint},
		{"generated.png", generated},
		{"hint25.png", docsCloseUp(t)},
	}
	for _, p := range pictures {
		data, err := p.board.PNG(ImageOptions{Theme: Dark})
		if err != nil {
			t.Fatalf("%s: %v", p.file, err)
		}
		if *docs {
			if err := os.WriteFile(filepath.Join("..", "docs", p.file), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// docsCloseUp is a hint's picture on a 25x25 as the bot draws it: the
// first step of hard25 that removes candidates from cells outside its box,
// zoomed to nine rows and columns.
func docsCloseUp(t *testing.T) *Board {
	t.Helper()
	puzzle := mustGrid(t, hard25)
	logic, err := sudoku.NewLogic(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	for {
		step, ok := logic.NextStep()
		if !ok {
			t.Fatal("hard25 has no pointing step")
		}
		if step.Technique == "Pointing" {
			b := Playing(puzzle, logic.Grid())
			b.Pencil = logic.Candidates()
			b.WithStep(step)
			if !b.Zoom(9) {
				t.Fatalf("%s: no close-up", step.Explanation)
			}
			return b
		}
		if err := logic.ApplyStep(step); err != nil {
			t.Fatal(err)
		}
	}
}
