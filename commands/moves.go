package commands

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// The moves a player types into the "Enter moves" box:
//
//	A1 5   a1=5   r1c1 5   r1c1=5   A1:5     put 5 in A1
//	A1 .   A1 0   A1 x                       clear A1 (value and pencil marks)
//	A1 p123                                  pencil marks 1, 2 and 3 in A1
//	A1 p                                     no pencil marks in A1
//
// Several moves go on one line separated by commas, semicolons or spaces
// ("A1 5, B2 3" or "A1 5 B2 3"), or on separate lines. A whole grid pasted
// instead replaces every entry at once. Rows are letters from the top and
// columns numbers from the left, as on the board's picture.
//
// movesHelp is the line under a game's board saying how to write them.
func movesHelp(puzzle *sudoku.Grid) string {
	x := samplesFor(puzzle)
	return fmt.Sprintf("Moves: `A1 %s` (or `r1c1=%[1]s`), `A1 .` to clear, `A1 p%s` for pencil marks; "+
		"several at once with commas, or paste a whole grid.", x.place, x.marks)
}

// moveSamples are the values shown in example moves, written in a puzzle's
// own symbols and held by its size: a 4x4 has no 5, a 16x16 in 0-F writes
// value 5 as 4, a puzzle in letters has no digits.
type moveSamples struct {
	place, other string // two values to place ("5", "7")
	marks        string // three pencil marks ("123")
	fewMarks     string // two pencil marks ("12")
}

func samplesFor(puzzle *sudoku.Grid) moveSamples {
	a, b := 5, 7
	if n := puzzle.N(); b > n {
		a, b = n-1, n-3 // 4x4: 3 and 1; 6x6: 5 and 3
	}
	sym := func(v int) string { return string(puzzle.Alphabet.Symbol(v)) }
	return moveSamples{
		place:    sym(a),
		other:    sym(b),
		marks:    sym(1) + sym(2) + sym(3),
		fewMarks: sym(1) + sym(2),
	}
}

// maxMoves bounds one batch: enough to fill a 25x25 twice over, and no more
// work than that for a pasted novel.
const maxMoves = 2 * 25 * 25

type moveKind uint8

const (
	movePlace  moveKind = iota // put Value in the cell
	moveClear                  // empty the cell: value and pencil marks
	movePencil                 // set the cell's pencil marks to Pencil
)

// move is one valid move of a batch.
type move struct {
	Text   string // as typed, for messages
	Cell   int
	Kind   moveKind
	Value  uint8
	Pencil uint32 // bit v-1 for value v
}

// moveError is a move that can't be played, and why.
type moveError struct {
	Text string
	Why  string
}

func (e moveError) String() string {
	if e.Text == "" {
		return e.Why
	}
	return fmt.Sprintf("`%s` — %s", e.Text, e.Why)
}

// parseMoves reads a batch of moves for a game of puzzle. It returns the
// valid moves in order and, separately, each bad one with the reason; a bad
// move never stops the others. pasted is true when text was a whole grid.
func parseMoves(text string, puzzle *sudoku.Grid) (moves []move, bad []moveError, pasted bool) {
	if ms, bs, ok := parsePastedGrid(text, puzzle); ok {
		return ms, bs, true
	}
	items := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' })
	for _, item := range items {
		fields := strings.FieldsFunc(item, func(r rune) bool { return r == ' ' || r == '\t' || r == '=' || r == ':' })
		for i := 0; i < len(fields); i++ {
			if len(moves)+len(bad) >= maxMoves {
				bad = append(bad, moveError{Why: fmt.Sprintf("only the first %d moves of a batch are read", maxMoves)})
				return moves, bad, false
			}
			cellText := fields[i]
			cell, err := render.ParseCellName(puzzle.Shape, cellText)
			if err != nil {
				bad = append(bad, moveError{Text: cellText, Why: cellError(puzzle.Shape)})
				// Skip what was probably this move's value.
				if i+1 < len(fields) && !looksLikeCell(fields[i+1]) {
					i++
				}
				continue
			}
			if i+1 >= len(fields) || isCell(fields[i+1], puzzle.Shape) && !isValueToken(fields[i+1], puzzle) {
				x := samplesFor(puzzle)
				bad = append(bad, moveError{Text: cellText, Why: fmt.Sprintf("no value: write `%s %s`, `%[1]s .` to clear or `%[1]s p%s` for pencil marks", cellText, x.place, x.fewMarks)})
				continue
			}
			i++
			m, why := readMoveValue(fields[i], puzzle)
			m.Text, m.Cell = cellText+" "+fields[i], cell
			// Pencil marks may go on with spaces: "B1 p4 8" is 4 and 8,
			// up to the next cell name.
			for m.Kind == movePencil && why == "" && i+1 < len(fields) && !isCell(fields[i+1], puzzle.Shape) {
				more, ok := pencilMarks(fields[i+1], puzzle)
				if !ok {
					break
				}
				i++
				m.Pencil |= more
				m.Text += " " + fields[i]
			}
			if why == "" && puzzle.Cells[cell] != 0 {
				why = fmt.Sprintf("%s is a given (%c) and can't be changed", puzzle.Shape.CellName(cell),
					puzzle.Alphabet.Symbol(int(puzzle.Cells[cell])))
			}
			if why != "" {
				bad = append(bad, moveError{Text: m.Text, Why: why})
				continue
			}
			moves = append(moves, m)
		}
	}
	return moves, bad, false
}

// looksLikeCell reports whether a token is shaped like a cell name (a letter
// then digits, or r#c#), whether or not it is on the board.
func looksLikeCell(tok string) bool {
	t := strings.ToUpper(tok)
	if len(t) >= 4 && t[0] == 'R' && strings.Contains(t, "C") {
		return true
	}
	if len(t) < 2 || t[0] < 'A' || t[0] > 'Z' {
		return false
	}
	_, err := strconv.Atoi(t[1:])
	return err == nil
}

// isCell reports whether tok names a cell of a board of shape s.
func isCell(tok string, s sudoku.Shape) bool {
	_, err := render.ParseCellName(s, tok)
	return err == nil
}

// isValueToken reports whether tok reads as a value for puzzle: it matters
// for 25x25 boards, whose letters are symbols too.
func isValueToken(tok string, puzzle *sudoku.Grid) bool {
	_, why := readMoveValue(tok, puzzle)
	return why == ""
}

func cellError(s sudoku.Shape) string {
	n := s.N()
	return fmt.Sprintf("not a cell: rows go A to %s, columns 1 to %d (A1 is the top left)", render.RowName(n-1), n)
}

// symbolsHelp lists puzzle's symbols for error messages: "1-9".
func symbolsHelp(puzzle *sudoku.Grid) string {
	a := []rune(string(puzzle.Alphabet))
	if len(a) == 0 {
		return "?"
	}
	return string(a[0]) + "-" + string(a[len(a)-1])
}

// readMoveValue reads the value part of a move: a symbol, a number, a clear
// marker, or p followed by pencil marks. why is empty when it reads.
func readMoveValue(tok string, puzzle *sudoku.Grid) (m move, why string) {
	if v, ok := symbolValue(tok, puzzle); ok {
		return move{Kind: movePlace, Value: uint8(v)}, ""
	}
	switch strings.ToLower(tok) {
	case ".", "0", "x", "-", "_", "clear":
		return move{Kind: moveClear}, ""
	}
	if tok[0] == 'p' || tok[0] == 'P' {
		for _, r := range tok[1:] {
			if r != '.' && puzzle.Alphabet.Value(r) == 0 {
				return m, fmt.Sprintf("%q is not a symbol of this %s board (use %s)", r, puzzle.Shape, symbolsHelp(puzzle))
			}
		}
		mask, _ := pencilMarks(tok[1:], puzzle)
		return move{Kind: movePencil, Pencil: mask}, ""
	}
	if d, err := strconv.Atoi(tok); err == nil {
		return m, fmt.Sprintf("%d is not a value here: a %s board takes %s", d, puzzle.Shape, symbolsHelp(puzzle))
	}
	return m, fmt.Sprintf("%q is not a symbol of this %s board: use %s, `.` to clear or `p%s` for pencil marks",
		tok, puzzle.Shape, symbolsHelp(puzzle), samplesFor(puzzle).fewMarks)
}

// pencilMarks reads pencil marks written as symbols ("48", "4.8"); ok is
// false when tok holds anything else.
func pencilMarks(tok string, puzzle *sudoku.Grid) (mask uint32, ok bool) {
	for _, r := range tok {
		if r == '.' {
			continue
		}
		v := puzzle.Alphabet.Value(r)
		if v == 0 {
			return 0, false
		}
		mask |= 1 << (v - 1)
	}
	return mask, true
}

// symbolValue reads a value: one symbol of the puzzle's alphabet, or a
// number 1..N (so "12" works on a 16x16 whose twelfth symbol is C).
func symbolValue(tok string, puzzle *sudoku.Grid) (int, bool) {
	if utf8.RuneCountInString(tok) == 1 {
		r, _ := utf8.DecodeRuneInString(tok)
		if v := puzzle.Alphabet.Value(r); v != 0 {
			return v, true
		}
		if v := puzzle.Alphabet.Value([]rune(strings.ToUpper(tok))[0]); v != 0 {
			return v, true
		}
		return 0, false
	}
	if v, err := strconv.Atoi(tok); err == nil && v >= 1 && v <= puzzle.N() && tok[0] != '0' {
		return v, true
	}
	return 0, false
}

// parsePastedGrid reads text as a whole grid of puzzle's shape. It reports
// false when text is not one (then it is read as moves). A pasted grid sets
// every non-given cell to the pasted value (a blank clears it); a given the
// paste contradicts is a bad move.
func parsePastedGrid(text string, puzzle *sudoku.Grid) ([]move, []moveError, bool) {
	// Moves are a few characters each; only a text that has at least a cell
	// per square can be a grid.
	if utf8.RuneCountInString(text) < len(puzzle.Cells) {
		return nil, nil, false
	}
	g, err := parseGridShape(text, puzzle.Shape)
	if err != nil || g.Shape != puzzle.Shape || len(g.Cells) != len(puzzle.Cells) {
		return nil, nil, false
	}
	var moves []move
	var bad []moveError
	for i, v := range g.Cells {
		name := puzzle.Shape.CellName(i)
		if given := puzzle.Cells[i]; given != 0 {
			if v != 0 && v != given {
				bad = append(bad, moveError{Text: name, Why: fmt.Sprintf("%s is a given (%c); the pasted grid has %c there",
					name, puzzle.Alphabet.Symbol(int(given)), puzzle.Alphabet.Symbol(int(v)))})
			}
			continue
		}
		if v == 0 {
			moves = append(moves, move{Text: name + " .", Cell: i, Kind: moveClear})
		} else {
			moves = append(moves, move{Text: fmt.Sprintf("%s %c", name, puzzle.Alphabet.Symbol(int(v))), Cell: i, Kind: movePlace, Value: v})
		}
	}
	return moves, bad, true
}

// parseGridShape calls the engine's parser for a grid of shape s, turning a
// panic in it into an error.
func parseGridShape(text string, s sudoku.Shape) (g *sudoku.Grid, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, fmt.Errorf("the parser failed on this text (%v)", p)
		}
	}()
	return sudoku.ParseWith(text, sudoku.ParseOptions{Shape: s})
}
