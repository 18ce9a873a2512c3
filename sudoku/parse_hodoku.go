package sudoku

// HoDoKu's library format, one line that holds a position with its
// candidates: ":code:candidates:givens:deleted candidates:eliminations:
// placements:extra". HoDoKu copies a position this way ("Copy library
// format"), and its regression library of techniques is written in it.

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// libraryGrid reads the first line of the text in HoDoKu's library format:
// the givens ('+' before a digit placed by the player), and as candidates
// of each empty cell the values its peers allow less the deleted ones. It
// reports false when no line is in that format.
func (p *pasteParser) libraryGrid() (*Grid, *ParseError, bool) {
	if p.opts.Shape != (Shape{}) && p.opts.Shape != Shape9 || p.opts.Alphabet != "" && p.opts.Alphabet != DefaultAlphabet(9) {
		return nil, nil, false
	}
	for _, l := range p.lines {
		s := strings.TrimSpace(string(l.runes))
		if !strings.HasPrefix(s, ":") || strings.Count(s, ":") < 5 {
			continue
		}
		fields := strings.Split(s, ":")
		if !isLibraryCode(fields[1]) || !isLibraryGivens(fields[3]) {
			continue
		}
		lead := utf8.RuneCountInString(string(l.runes)) - utf8.RuneCountInString(strings.TrimLeft(string(l.runes), " \t"))
		col := lead + 1 + len(fields[0]) + 1 + len(fields[1]) + 1 + len(fields[2]) + 1 // first rune of the givens
		g, perr := readLibrary(l.no, col, fields[3], fields[4])
		return g, perr, true
	}
	return nil, nil, false
}

// isLibraryCode reports a technique code of the format: "0100", "0610-1".
func isLibraryCode(s string) bool {
	if s == "" || len(s) > 12 || s[0] < '0' || s[0] > '9' {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
			return false
		}
	}
	return true
}

// isLibraryGivens reports a field that can be the givens: digits, '.' and
// '+' only, most of 81 cells (":wave: :wave:" is no library line).
func isLibraryGivens(s string) bool {
	cells := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9' || r == '.':
			cells++
		case r == '+':
		default:
			return false
		}
	}
	return cells >= 60
}

// readLibrary reads the givens and deleted candidates of a library line;
// col is the column where the givens start.
func readLibrary(line, col int, givens, deleted string) (*Grid, *ParseError) {
	// isLibraryGivens let through only digits, '.' and '+'.
	g := New(Shape9)
	i := 0
	for _, r := range givens {
		switch {
		case r == '+':
			continue
		case i < 81 && r >= '1' && r <= '9':
			g.Cells[i] = uint8(r - '0')
		}
		i++
	}
	if i != 81 {
		return nil, &ParseError{Line: line, Col: col, Msg: fmt.Sprintf(
			"the HoDoKu library line at line %d has %d cells in its givens (from column %d), expected 81: copy the whole line",
			line, i, col)}
	}
	g.Marks = g.Candidates()
	at := col + len(givens) + 1
	for _, w := range strings.Split(deleted, " ") {
		if w == "" {
			at++
			continue
		}
		if len(w) != 3 || !allDigits(w) || w[0] == '0' || w[1] == '0' || w[2] == '0' {
			return nil, &ParseError{Line: line, Col: at, Msg: fmt.Sprintf(
				"%q at line %d, column %d is no deleted candidate of a HoDoKu library line; write each as digit, row and column (\"513\": 5 out of r1c3), with spaces between",
				w, line, at)}
		}
		cell := int(w[1]-'1')*9 + int(w[2]-'1')
		g.Marks[cell] &^= 1 << (w[0] - '1')
		at += len(w) + 1
	}
	return g, nil
}
