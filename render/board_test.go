package render

import (
	"fmt"
	"slices"
	"testing"

	"sudokubot/sudoku"
)

func TestCellName(t *testing.T) {
	tests := []struct {
		shape sudoku.Shape
		cell  int
		want  string
	}{
		{sudoku.Shape9, 0, "A1"},
		{sudoku.Shape9, 8, "A9"},
		{sudoku.Shape9, 9, "B1"},
		{sudoku.Shape9, 80, "I9"},
		{sudoku.Shape6, 35, "F6"},
		{sudoku.Shape16, 255, "P16"},
		{sudoku.Shape25, 624, "Y25"},
		{sudoku.Shape25, 34, "B10"},
	}
	for _, tt := range tests {
		if got := tt.shape.CellName(tt.cell); got != tt.want {
			t.Errorf("CellName(%s, %d) = %q, want %q", tt.shape, tt.cell, got, tt.want)
		}
		n := tt.shape.N()
		for _, name := range []string{tt.want, fmt.Sprintf("r%dc%d", tt.cell/n+1, tt.cell%n+1)} {
			if got, err := ParseCellName(tt.shape, name); err != nil || got != tt.cell {
				t.Errorf("ParseCellName(%s, %q) = %d, %v; want %d", tt.shape, name, got, err, tt.cell)
			}
		}
	}
}

func TestParseCellName(t *testing.T) {
	tests := []struct {
		shape   sudoku.Shape
		name    string
		want    int
		wantErr bool
	}{
		{sudoku.Shape9, "a1", 0, false},
		{sudoku.Shape9, " i9 ", 80, false},
		{sudoku.Shape9, "R9C9", 80, false},
		{sudoku.Shape9, "r2c1", 9, false},
		{sudoku.Shape25, "R5", 17*25 + 4, false}, // row R, column 5
		{sudoku.Shape9, "J1", 0, true},
		{sudoku.Shape9, "A10", 0, true},
		{sudoku.Shape9, "A0", 0, true},
		{sudoku.Shape9, "r0c1", 0, true},
		{sudoku.Shape9, "r1c", 0, true},
		{sudoku.Shape9, "", 0, true},
		{sudoku.Shape9, "1A", 0, true},
		{sudoku.Shape9, "A", 0, true},
		{sudoku.Shape9, "ÄÖ", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseCellName(tt.shape, tt.name)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("ParseCellName(%s, %q) = %d, %v; want %d, error %v", tt.shape, tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestWithStep(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	b := New(puzzle).WithStep(docsHintStep)
	// Box 8 and row I are tinted; the causes I4, I6 are green.
	for _, cell := range []int{57, 66, 72, 80} {
		if b.Marks[cell]&Tint == 0 {
			t.Errorf("%s is not tinted", puzzle.Shape.CellName(cell))
		}
	}
	if b.Marks[0] != 0 {
		t.Errorf("A1 has marks %b, want none", b.Marks[0])
	}
	for _, cell := range []int{75, 77} {
		if b.Marks[cell]&Cause == 0 || b.Green[cell] != 1<<1 {
			t.Errorf("%s: marks %b, green %b; want a cause with 2 green", puzzle.Shape.CellName(cell), b.Marks[cell], b.Green[cell])
		}
	}
	for _, cell := range []int{72, 73, 74} {
		if b.Red[cell] != 1<<1 {
			t.Errorf("%s: red %b, want 2", puzzle.Shape.CellName(cell), b.Red[cell])
		}
	}
	place := New(puzzle).WithStep(sudoku.Step{Placements: []sudoku.Candidate{{Cell: 40, Value: 5}}})
	if place.Marks[40] != Target || place.Green[40] != 1<<4 {
		t.Errorf("placement: marks %b, green %b; want target with 5 green", place.Marks[40], place.Green[40])
	}
	// Out-of-range data from a caller is ignored, not a panic.
	New(puzzle).WithStep(sudoku.Step{
		Placements: []sudoku.Candidate{{Cell: -1, Value: 5}, {Cell: 81, Value: 1}, {Cell: 3, Value: 10}, {Cell: 3, Value: 0}},
		Cells:      []int{-5, 1000},
		Units:      []sudoku.Unit{{Kind: sudoku.Box, Index: 9}, {Kind: 7, Index: 0}, {Kind: sudoku.Row, Index: -1}},
	})
}

func TestWithWrongAndDiff(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	solution := mustGrid(t, classicSolution)
	position := puzzle.Clone()
	position.Cells[2] = 4 // right
	position.Cells[3] = 5 // wrong: 6
	position.Cells[0] = 9 // a given's cell: the given wins, never "wrong"
	b := Playing(puzzle, position).WithWrong(solution)
	var wrong []int
	for i, m := range b.Marks {
		if m&Wrong != 0 {
			wrong = append(wrong, i)
		}
	}
	if !slices.Equal(wrong, []int{3}) {
		t.Errorf("WithWrong marked %v, want [3]", wrong)
	}
	if v, given := b.value(0); v != 5 || !given {
		t.Errorf("value(A1) = %d, %v; want the given 5", v, given)
	}

	other := solution.Clone()
	other.Cells[10], other.Cells[11] = other.Cells[11], other.Cells[10]
	d := Solved(puzzle, solution).WithDiff(other)
	var differ []int
	for i, m := range d.Marks {
		if m&Differ != 0 {
			differ = append(differ, i)
		}
	}
	if !slices.Equal(differ, []int{10, 11}) {
		t.Errorf("WithDiff marked %v, want [10 11]", differ)
	}
	// Grids of another size mark nothing.
	if New(puzzle).WithDiff(newTestSolution(sudoku.Shape4)).Marks != nil {
		t.Errorf("WithDiff of a 4x4 marked cells of a 9x9")
	}
}

func TestParseTheme(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Theme
		err  bool
	}{{"light", Light, false}, {"Dark", Dark, false}, {"", Light, false}, {"pink", 0, true}} {
		got, err := ParseTheme(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseTheme(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
