package render

import (
	"strings"
	"unicode/utf8"

	"sudokubot/sudoku"
)

// DiscordLimit is the most characters a Discord message may hold.
const DiscordLimit = 2000

// TextOptions choose how a board is written as text. The zero value is the
// roomiest layout: box-drawing lines, a space between cells, coordinates.
type TextOptions struct {
	// ASCII draws the lines with '+', '-' and '|' instead of box-drawing
	// characters, for clients whose fonts misalign those.
	ASCII bool
	// NoCoords leaves out the row letters and column numbers.
	NoCoords bool
	// Compact leaves out the space between cells. Coordinates are then shown
	// only up to 9x9, where every column number is one character, and there
	// is no room for markers.
	Compact bool
	// Markers writes a character after each marked cell's symbol: '!' for a
	// clash or a wrong entry, '*' for a cell that differs between two
	// solutions, '?' for a hint's target and '+' for a cell that justifies
	// it. Board.Legend explains the ones used. Text with markers is for
	// people: '*' is also a blank to sudoku.Parse.
	Markers bool
	// SideBySide puts the puzzle and the filled grid of a board with entries
	// next to each other instead of one above the other: shorter, but twice
	// as wide, which a phone may wrap.
	SideBySide bool
}

// lineChars are the characters of one line style, in the order
// top-left, top-middle, top-right, middle-left, cross, middle-right,
// bottom-left, bottom-middle, bottom-right, horizontal, vertical.
type lineChars [11]rune

var (
	boxLines   = lineChars{'┌', '┬', '┐', '├', '┼', '┤', '└', '┴', '┘', '─', '│'}
	asciiLines = lineChars{'+', '+', '+', '+', '+', '+', '+', '+', '+', '-', '|'}
)

// FormatGrid writes g as a text board: one line per row, lines between and
// around the boxes, '.' for an empty cell, and (unless opts.NoCoords) the
// row letters on the left and column numbers on top. The result reads back
// with sudoku.Parse.
func FormatGrid(g *sudoku.Grid, opts TextOptions) string {
	var b strings.Builder
	formatGrid(&b, g, nil, opts)
	return b.String()
}

// markerOf is the character written after a marked cell's symbol in the
// text form, or ' ' for none. Tint has no marker: a whole unit of markers
// would hide the ones that matter.
func markerOf(m Mark) byte {
	switch {
	case m&(Clash|Wrong) != 0:
		return '!'
	case m&Differ != 0:
		return '*'
	case m&Target != 0:
		return '?'
	case m&Cause != 0:
		return '+'
	}
	return ' '
}

// formatGrid writes g; when marks is not nil (and the layout has a space
// after each symbol) a marked cell's symbol is followed by its marker.
func formatGrid(w *strings.Builder, g *sudoku.Grid, marks []Mark, opts TextOptions) {
	n, br, bc := g.N(), g.Shape.BoxRows, g.Shape.BoxCols
	ch := boxLines
	if opts.ASCII {
		ch = asciiLines
	}
	coords := !opts.NoCoords && (n <= 9 || !opts.Compact)
	// A cell is lead spaces, its symbol and (unless compact) one trailing
	// character: a space or its marker; a box also starts with one space.
	lead, trail := 0, 1
	switch {
	case opts.Compact:
		trail = 0
	case coords && n > 9:
		// Two-digit column numbers need a wider cell to stay apart.
		lead = 1
	}
	cellW := lead + 1 + trail
	boxPad := trail // the space after a box's left line
	prefix := ""
	if coords {
		prefix = "  " // row letter and a space
	}
	segW := boxPad + bc*cellW
	boxesAcross := n / bc

	if coords {
		// Each column number ends where its column's symbols stand.
		width := len(prefix) + 1 + boxesAcross*(segW+1)
		head := []byte(strings.Repeat(" ", width))
		for c := 0; c < n; c++ {
			end := len(prefix) + 1 + (c/bc)*(segW+1) + boxPad + (c%bc)*cellW + lead
			name := ColName(c)
			copy(head[end-len(name)+1:], name)
		}
		w.WriteString(strings.TrimRight(string(head), " "))
		w.WriteByte('\n')
	}
	rule := func(left, mid, right rune) {
		w.WriteString(prefix)
		w.WriteRune(left)
		for box := 0; box < boxesAcross; box++ {
			if box > 0 {
				w.WriteRune(mid)
			}
			for i := 0; i < segW; i++ {
				w.WriteRune(ch[9])
			}
		}
		w.WriteRune(right)
		w.WriteByte('\n')
	}
	for r := 0; r < n; r++ {
		switch {
		case r == 0:
			rule(ch[0], ch[1], ch[2])
		case r%br == 0:
			rule(ch[3], ch[4], ch[5])
		}
		if coords {
			w.WriteString(RowName(r))
			w.WriteByte(' ')
		}
		for c := 0; c < n; c++ {
			if c%bc == 0 {
				w.WriteRune(ch[10])
				if boxPad == 1 {
					w.WriteByte(' ')
				}
			}
			if lead == 1 {
				w.WriteByte(' ')
			}
			w.WriteRune(g.Alphabet.Symbol(g.Get(r, c)))
			if trail == 1 {
				m := byte(' ')
				if marks != nil {
					m = markerOf(marks[r*n+c])
				}
				w.WriteByte(m)
			}
		}
		w.WriteRune(ch[10])
		w.WriteByte('\n')
	}
	rule(ch[6], ch[7], ch[8])
}

// Text writes the board in the layout opts asks for. A board with entries
// (or a solution) is written as two boards, the puzzle's givens and then the
// whole grid, each under a one-word label, so givens and the other digits
// can be told apart without colour; with opts.SideBySide they stand next to
// each other instead. Each board reads back with sudoku.Parse, except that
// opts.Markers adds characters after marked cells that a parser may take
// for cells. Pencil marks and the caption are not part of the text form.
func (b *Board) Text(opts TextOptions) (string, error) {
	if err := b.Check(); err != nil {
		return "", err
	}
	var marks []Mark
	if opts.Markers {
		marks = b.Marks
	}
	var w strings.Builder
	if !b.hasEntries() {
		formatGrid(&w, b.Puzzle, marks, opts)
		return w.String(), nil
	}
	label := "entries"
	if b.Solution {
		label = "solution"
	}
	var left, right strings.Builder
	formatGrid(&left, b.Puzzle, nil, opts)
	formatGrid(&right, b.valuesGrid(), marks, opts)
	if !opts.SideBySide {
		w.WriteString("puzzle\n")
		w.WriteString(left.String())
		w.WriteString("\n" + label + "\n")
		w.WriteString(right.String())
		return w.String(), nil
	}
	ll := strings.Split(strings.TrimSuffix(left.String(), "\n"), "\n")
	rl := strings.Split(strings.TrimSuffix(right.String(), "\n"), "\n")
	width := 0
	for _, l := range ll {
		width = max(width, utf8.RuneCountInString(l))
	}
	const gap = "   "
	ll = append([]string{"puzzle"}, ll...)
	rl = append([]string{label}, rl...)
	for i := range ll {
		w.WriteString(ll[i])
		w.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(ll[i])))
		w.WriteString(gap)
		w.WriteString(rl[i])
		w.WriteByte('\n')
	}
	return w.String(), nil
}

// Legend explains the markers that Text with Markers writes for this
// board's marks, e.g. "! clash · ? hint's cell", or "" when there are none.
func (b *Board) Legend() string {
	if b.Marks == nil {
		return ""
	}
	var seen [256]bool
	for _, m := range b.Marks {
		seen[markerOf(m)] = true
	}
	var parts []string
	for _, m := range []struct {
		c    byte
		text string
	}{{'!', "! clash or wrong"}, {'*', "* differs between solutions"}, {'?', "? hint's cell"}, {'+', "+ why"}} {
		if seen[m.c] {
			parts = append(parts, m.text)
		}
	}
	return strings.Join(parts, " · ")
}

// CodeBlock returns the board's text in a Markdown code block, in the
// roomiest layout no roomier than opts whose block holds at most limit
// characters (limit <= 0 means DiscordLimit, a message's; an embed's
// description holds 4096): first as asked, then without coordinates, then
// compact. It reports false when even the compact block is too long (a
// 25x25 with a solution, say); the caller then sends the one-line form or an
// image instead. Characters are counted as Discord counts them, a
// box-drawing character as one.
func (b *Board) CodeBlock(opts TextOptions, limit int) (string, bool) {
	if limit <= 0 {
		limit = DiscordLimit
	}
	tries := []TextOptions{opts}
	if !opts.NoCoords {
		o := opts
		o.NoCoords = true
		tries = append(tries, o)
	}
	if !opts.Compact {
		o := opts
		o.Compact = true
		tries = append(tries, o)
		o.NoCoords = true
		tries = append(tries, o)
	}
	for _, o := range tries {
		text, err := b.Text(o)
		if err != nil {
			return "", false
		}
		block := "```\n" + text + "```"
		if utf8.RuneCountInString(block) <= limit {
			return block, true
		}
	}
	return "", false
}
