// Package render draws Sudoku boards for people: as monospace text for a
// Discord code block and as PNG images, with the highlights a reply needs
// (clashing cells, a hint's cells and candidates, wrong entries, the cells
// where two solutions differ).
//
// A Board is plain data built from sudoku grids; drawing it never changes
// it, so one Board may be drawn by many goroutines at once.
//
// Cells are named the way the bot names them in its messages: rows are
// letters from the top (A, B, … up to Y for 25x25) and columns are numbers
// from the left (1 … N), so the top-left cell is A1 and the bottom-right cell
// of a 9x9 is I9. See CellName.
package render

import (
	"fmt"
	"strconv"
	"strings"

	"sudokubot/sudoku"
)

// Mark is a set of highlights on one cell. When a cell has several, the
// strongest decides its fill colour, in the order the constants are listed.
type Mark uint8

// The cell highlights. Their colours come from the Theme.
const (
	// Clash: the cell's value breaks a rule (red fill).
	Clash Mark = 1 << iota
	// Wrong: the player's entry disagrees with the solution (red fill, red
	// digit).
	Wrong
	// Differ: the cell differs between two solutions of a puzzle that has
	// several (amber fill).
	Differ
	// Target: the cell a hint places a value in (blue fill).
	Target
	// Cause: a cell that justifies a hint (green fill).
	Cause
	// Tint: the cell lies in the unit a hint looks at (pale tint).
	Tint
)

// Board is what to draw: the givens, the values in the other cells, pencil
// marks and highlights. Construct it with New, Solved or Playing and add
// highlights with the Mark* and With* methods; the fields are exported so a
// caller can also fill them directly. Slices indexed by cell are either nil
// or hold one entry per cell in row-major order.
type Board struct {
	// Puzzle holds the givens; it sets the shape and the alphabet. Required.
	Puzzle *sudoku.Grid
	// Values holds every filled cell: the givens plus the player's entries
	// or the solver's digits. Nil means only the givens. A value in a cell
	// that is a given in Puzzle is ignored (the given is drawn).
	Values *sudoku.Grid
	// Solution says that the non-given Values are the solver's answer rather
	// than a player's entries; the text form then labels them "solution".
	Solution bool
	// Pencil holds each empty cell's candidates (pencil marks) as a bit set:
	// bit v-1 for value v. Nil draws no pencil marks. Grid.Candidates
	// gives the plain ones; a sudoku.Logic keeps the refined ones.
	Pencil []uint32
	// Marks holds each cell's highlights.
	Marks []Mark
	// Green holds candidates drawn on a green disc: the causes of a hint and
	// the value it places. They are drawn even when Pencil lacks them.
	Green []uint32
	// Red holds candidates drawn on a red disc: the ones a hint removes.
	Red []uint32
	// Caption is a line drawn above the image's board, e.g.
	// "Daily #325 · hard · 3.4". The text form leaves it out, since a
	// message carries its own words.
	Caption string
	// Rows and Cols, when not empty, are the only rows and columns the
	// image draws (0-based, increasing), each labelled with its own name
	// and a gap where some are skipped: a close-up of part of a big board.
	// Zoom fills them in. The text form draws the whole board.
	Rows, Cols []int
}

// New returns a board that shows the givens of puzzle.
func New(puzzle *sudoku.Grid) *Board {
	return &Board{Puzzle: puzzle}
}

// Solved returns a board that shows puzzle's givens and, in the entry colour,
// the rest of solution.
func Solved(puzzle, solution *sudoku.Grid) *Board {
	return &Board{Puzzle: puzzle, Values: solution, Solution: true}
}

// Playing returns a board that shows puzzle's givens and the player's entries
// in position (a grid holding the givens and the entries).
func Playing(puzzle, position *sudoku.Grid) *Board {
	return &Board{Puzzle: puzzle, Values: position}
}

// Check reports whether the board can be drawn: a valid puzzle, and every
// other grid and per-cell slice of the same shape and size. Text and Image
// call it; it is exported so callers can check a board they built by hand.
func (b *Board) Check() error {
	if b == nil || b.Puzzle == nil {
		return fmt.Errorf("render: board has no puzzle")
	}
	p := b.Puzzle
	if !p.Shape.Valid() {
		return fmt.Errorf("render: puzzle shape %dx%d boxes is not playable", p.Shape.BoxRows, p.Shape.BoxCols)
	}
	size := p.Shape.Size()
	if len(p.Cells) != size {
		return fmt.Errorf("render: puzzle has %d cells, a %s has %d", len(p.Cells), p.Shape, size)
	}
	if p.Alphabet.Len() < p.N() {
		return fmt.Errorf("render: puzzle alphabet %q has %d symbols, a %s needs %d", p.Alphabet, p.Alphabet.Len(), p.Shape, p.N())
	}
	if err := checkValues("puzzle", p.Cells, p.N()); err != nil {
		return err
	}
	if v := b.Values; v != nil {
		if v.Shape != p.Shape || len(v.Cells) != size {
			return fmt.Errorf("render: values grid is %s with %d cells, the puzzle is %s", v.Shape, len(v.Cells), p.Shape)
		}
		if err := checkValues("values", v.Cells, p.N()); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		name string
		n    int
	}{{"pencil", len(b.Pencil)}, {"marks", len(b.Marks)}, {"green", len(b.Green)}, {"red", len(b.Red)}} {
		if s.n != 0 && s.n != size {
			return fmt.Errorf("render: %s has %d cells, the puzzle has %d", s.name, s.n, size)
		}
	}
	for _, s := range []struct {
		name string
		idx  []int
	}{{"rows", b.Rows}, {"columns", b.Cols}} {
		for k, i := range s.idx {
			if i < 0 || i >= p.N() || k > 0 && i <= s.idx[k-1] {
				return fmt.Errorf("render: %s %v are not increasing indexes below %d", s.name, s.idx, p.N())
			}
		}
	}
	return nil
}

func checkValues(name string, cells []uint8, n int) error {
	for i, v := range cells {
		if int(v) > n {
			return fmt.Errorf("render: %s cell %d holds %d, more than the %d symbols", name, i, v, n)
		}
	}
	return nil
}

// value returns the value drawn in cell i and whether it is a given.
func (b *Board) value(i int) (v int, given bool) {
	if g := b.Puzzle.Cells[i]; g != 0 {
		return int(g), true
	}
	if b.Values != nil {
		return int(b.Values.Cells[i]), false
	}
	return 0, false
}

// hasEntries reports whether Values fills any cell that is not a given.
func (b *Board) hasEntries() bool {
	if b.Values == nil {
		return false
	}
	for i, v := range b.Values.Cells {
		if v != 0 && b.Puzzle.Cells[i] == 0 {
			return true
		}
	}
	return false
}

// valuesGrid returns the grid of everything drawn: givens plus entries.
func (b *Board) valuesGrid() *sudoku.Grid {
	g := b.Puzzle.Clone()
	for i := range g.Cells {
		v, _ := b.value(i)
		g.Cells[i] = uint8(v)
	}
	return g
}

func (b *Board) size() int { return b.Puzzle.Shape.Size() }

func (b *Board) marks() []Mark {
	if b.Marks == nil {
		b.Marks = make([]Mark, b.size())
	}
	return b.Marks
}

// MarkCells adds mark m to each cell (cell indexes in row-major order);
// indexes outside the grid are ignored. It returns b for chaining.
func (b *Board) MarkCells(m Mark, cells ...int) *Board {
	marks := b.marks()
	for _, c := range cells {
		if c >= 0 && c < len(marks) {
			marks[c] |= m
		}
	}
	return b
}

// MarkUnit adds mark m to every cell of unit u.
func (b *Board) MarkUnit(m Mark, u sudoku.Unit) *Board {
	geo := b.Puzzle.Shape.Geometry()
	n := b.Puzzle.N()
	if u.Index < 0 || u.Index >= n || u.Kind > sudoku.Box {
		return b
	}
	return b.MarkCells(m, geo.UnitCells[int(u.Kind)*n+u.Index]...)
}

// MarkCandidates draws each candidate on a disc: green (causes, placements)
// when green is true, red (eliminations) otherwise.
func (b *Board) MarkCandidates(green bool, cands ...sudoku.Candidate) *Board {
	dst := &b.Red
	if green {
		dst = &b.Green
	}
	if *dst == nil {
		*dst = make([]uint32, b.size())
	}
	n := b.Puzzle.N()
	for _, c := range cands {
		if c.Cell >= 0 && c.Cell < len(*dst) && c.Value >= 1 && c.Value <= n {
			(*dst)[c.Cell] |= 1 << (c.Value - 1)
		}
	}
	return b
}

// WithStep highlights a hint's step the way Sudoku Explainer does: the
// units it looks at tinted, the cells that justify it (its Cells and the
// cells of its Causes) green, the cells it places a value in blue with the
// value drawn large as an entry (readable at Discord's preview size), the
// candidates that justify it on green discs and the ones it removes on red
// discs. The board's Values are copied, never changed in place.
func (b *Board) WithStep(step sudoku.Step) *Board {
	if len(step.Placements) > 0 {
		v := b.Values
		if v == nil {
			v = b.Puzzle
		}
		v = v.Clone()
		for _, p := range step.Placements {
			if p.Cell >= 0 && p.Cell < len(v.Cells) && p.Value >= 1 && p.Value <= v.N() && v.Cells[p.Cell] == 0 {
				v.Cells[p.Cell] = uint8(p.Value)
			}
		}
		b.Values = v
	}
	for _, u := range step.Units {
		b.MarkUnit(Tint, u)
	}
	b.MarkCells(Cause, step.Cells...)
	for _, c := range step.Causes {
		b.MarkCells(Cause, c.Cell)
	}
	for _, p := range step.Placements {
		b.MarkCells(Target, p.Cell)
	}
	b.MarkCandidates(true, step.Placements...)
	b.MarkCandidates(true, step.Causes...)
	b.MarkCandidates(false, step.Eliminations...)
	return b
}

// WithClashes marks every cell of every clash.
func (b *Board) WithClashes(clashes []sudoku.Clash) *Board {
	for _, c := range clashes {
		b.MarkCells(Clash, c.Cells...)
	}
	return b
}

// WithWrong marks the entries (filled cells that are not givens) that
// disagree with solution. A solution of another shape marks nothing.
func (b *Board) WithWrong(solution *sudoku.Grid) *Board {
	if b.Values == nil || solution == nil || len(solution.Cells) != b.size() {
		return b
	}
	for i, v := range b.Values.Cells {
		if v != 0 && b.Puzzle.Cells[i] == 0 && v != solution.Cells[i] {
			b.MarkCells(Wrong, i)
		}
	}
	return b
}

// WithDiff marks the cells where the drawn values differ from other, such as
// a second solution of a puzzle that has several.
func (b *Board) WithDiff(other *sudoku.Grid) *Board {
	if other == nil || len(other.Cells) != b.size() {
		return b
	}
	for i := range other.Cells {
		if v, _ := b.value(i); v != int(other.Cells[i]) {
			b.MarkCells(Differ, i)
		}
	}
	return b
}

// RowName returns the name of row r (0-based): "A" for the top row.
func RowName(r int) string { return sudoku.RowName(r) }

// ColName returns the name of column c (0-based): "1" for the left column.
func ColName(c int) string { return strconv.Itoa(c + 1) }

// ParseCellName reads a cell name such as "A1", "i9" or "r1c1" (both
// schemes the bot accepts) and returns the cell index in a grid of shape s.
func ParseCellName(s sudoku.Shape, name string) (int, error) {
	n := s.N()
	t := strings.ToUpper(strings.TrimSpace(name))
	var r, c int
	if rs, cs, ok := strings.Cut(strings.TrimPrefix(t, "R"), "C"); ok && strings.HasPrefix(t, "R") {
		ri, err1 := strconv.Atoi(rs)
		ci, err2 := strconv.Atoi(cs)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("%q is not a cell: write it as a row letter and a column number (A1) or as r1c1", name)
		}
		r, c = ri-1, ci-1
	} else {
		if len(t) < 2 || t[0] < 'A' || t[0] > 'Z' {
			return 0, fmt.Errorf("%q is not a cell: write it as a row letter and a column number (A1) or as r1c1", name)
		}
		ci, err := strconv.Atoi(t[1:])
		if err != nil {
			return 0, fmt.Errorf("%q is not a cell: write it as a row letter and a column number (A1) or as r1c1", name)
		}
		r, c = int(t[0]-'A'), ci-1
	}
	if r < 0 || r >= n || c < 0 || c >= n {
		return 0, fmt.Errorf("%q is not on a %s board: rows go A to %s, columns 1 to %d", name, s, RowName(n-1), n)
	}
	return r*n + c, nil
}
