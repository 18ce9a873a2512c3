package commands

import (
	"testing"

	"sudokubot/sudoku"
)

func TestClashSentences(t *testing.T) {
	row := func(r int) sudoku.Unit { return sudoku.Unit{Kind: sudoku.Row, Index: r} }
	col := func(c int) sudoku.Unit { return sudoku.Unit{Kind: sudoku.Column, Index: c} }
	box := func(b int) sudoku.Unit { return sudoku.Unit{Kind: sudoku.Box, Index: b} }
	g := sudoku.New(sudoku.Shape9)
	for _, tc := range []struct {
		name    string
		clashes []sudoku.Clash
		want    string
	}{
		{"two cells in a row", []sudoku.Clash{{Unit: row(1), Value: 3, Cells: []int{10, 15}}},
			"B2 and B7 both hold 3 in row B"},
		{"three cells", []sudoku.Clash{{Unit: row(1), Value: 3, Cells: []int{10, 13, 15}}},
			"B2, B5 and B7 all hold 3 in row B"},
		{"the same cells in a column and a box", []sudoku.Clash{
			{Unit: row(0), Value: 5, Cells: []int{1, 3}},
			{Unit: col(1), Value: 5, Cells: []int{1, 19}},
			{Unit: box(0), Value: 5, Cells: []int{1, 19}},
		}, "A2 and A4 both hold 5 in row A; A2 and C2 both hold 5 in column 2 and box 1"},
		{"more than three", []sudoku.Clash{
			{Unit: row(0), Value: 1, Cells: []int{0, 1}},
			{Unit: row(1), Value: 1, Cells: []int{9, 10}},
			{Unit: row(2), Value: 1, Cells: []int{18, 19}},
			{Unit: row(3), Value: 1, Cells: []int{27, 28}},
			{Unit: row(4), Value: 1, Cells: []int{36, 37}},
		}, "A1 and A2 both hold 1 in row A; B1 and B2 both hold 1 in row B; C1 and C2 both hold 1 in row C; and 2 more"},
	} {
		if got := clashSentences(tc.clashes, g); got != tc.want {
			t.Errorf("%s: clashSentences = %q, want %q", tc.name, got, tc.want)
		}
	}
}
