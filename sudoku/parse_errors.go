package sudoku

// Errors: why no reading made a grid, said so a person can fix the paste.

import (
	"fmt"
	"strings"
)

// diagnose explains why no reading made a grid, looking at the block of
// lines most likely meant as the puzzle.
func (p *pasteParser) diagnose() *ParseError {
	block := p.bestBlock()
	if len(block) == 0 {
		return &ParseError{Msg: "found no puzzle, only text: paste the grid as 81 characters on one line " +
			"(digits, with '.' or '0' for empty cells) or as 9 rows of 9"}
	}
	if len(block) == 1 {
		l := block[0]
		count := lineCellCount(l)
		if len(l.words) > 1 {
			count = 0
			for _, w := range l.words {
				if !w.chatter {
					count += w.to - w.from
				}
			}
			if l.nums != nil {
				count = len(l.nums)
			}
		}
		return &ParseError{Line: l.no, Msg: p.countMessage(count)}
	}
	n := 0
	switch {
	case p.opts.Shape != (Shape{}):
		n = p.opts.Shape.N()
	case p.opts.Alphabet != "":
		n = p.opts.Alphabet.Len()
	default:
		n = p.guessSize(block)
	}
	if n == 0 {
		total := 0
		for _, l := range block {
			total += lineCellCount(l)
		}
		return &ParseError{Line: block[0].no, Msg: fmt.Sprintf(
			"found %d lines holding %d cells, which is no Sudoku: a 9x9 puzzle is 9 rows of 9 cells, or 81 characters on one line",
			len(block), total)}
	}
	rows := block
	if r, _, ok := rows[0].fit(n); ok && isColumnHeader(rowCand{cells: r, line: rows[0]}, n) && len(rows) > n {
		rows = rows[1:]
	}
	// In a grid whose rows are labelled, a row that fits only by taking
	// its label for a cell is a short row.
	labelled := 0
	for _, l := range rows {
		if _, label, ok := l.fit(n); ok && label != "" {
			labelled++
		}
	}
	for i, l := range rows {
		_, label, ok := l.fit(n)
		c := lineCellCount(l)
		if ok && (2*labelled <= len(rows) || label != "" || l.label == "") {
			continue
		}
		if ok {
			c -= l.labelChars
		}
		msg := fmt.Sprintf("row %d (line %d) has %d cells, expected %d", i+1, l.no, c, n)
		if c < n && strings.Contains(strings.TrimSpace(string(l.runes)), "  ") {
			msg += "; write empty cells as '.' or '0', not as spaces"
		}
		return &ParseError{Line: l.no, Msg: msg}
	}
	return &ParseError{Line: rows[0].no, Msg: fmt.Sprintf(
		"found %d rows of %d cells; a %s puzzle has %d rows", len(rows), n, squareName(n), n)}
}

// bestBlock returns the run of lines (blank and separator lines inside it
// allowed, prose lines not) that holds the most cells.
func (p *pasteParser) bestBlock() []*pline {
	var best, cur []*pline
	bestCells, curCells := 0, 0
	end := func() {
		if curCells > bestCells {
			best, bestCells = cur, curCells
		}
		cur, curCells = nil, 0
	}
	for _, l := range p.lines {
		switch {
		case l.kind == lineText && l.chatter:
			if len(l.words) > 1 && hasMarkWord(l) {
				// Prose around a one-line puzzle: judge the line alone.
				end()
				cur, curCells = []*pline{l}, lineCellCount(l)
				end()
				continue
			}
			end()
		case l.kind == lineText:
			cur = append(cur, l)
			curCells += lineCellCount(l)
		}
	}
	end()
	return best
}

func hasMarkWord(l *pline) bool {
	for _, w := range l.words {
		if w.hasMark && w.to-w.from >= 4 {
			return true
		}
	}
	return false
}

// guessSize picks the grid size a block of lines was meant to have: the
// size most of its lines read as a row of (common sizes first on a tie),
// else the number of lines.
func (p *pasteParser) guessSize(block []*pline) int {
	best, most := 0, 0
	for _, n := range p.candidateNs() {
		fits := 0
		for _, l := range block {
			if _, _, ok := l.fit(n); ok {
				fits++
			}
		}
		if fits > most {
			best, most = n, fits
		}
	}
	if best != 0 {
		return best
	}
	if _, ok := ShapeFor(len(block)); ok {
		return len(block)
	}
	return 0
}

// countMessage explains a count of cells that is no square of a size.
func (p *pasteParser) countMessage(count int) string {
	ns := p.candidateNs()
	if len(ns) == 1 {
		return fmt.Sprintf("found %d cells; a %s puzzle has %d", count, squareName(ns[0]), ns[0]*ns[0])
	}
	if count > MaxN*MaxN {
		return fmt.Sprintf("found %d cells; the largest puzzle, 25x25, has %d", count, MaxN*MaxN)
	}
	best := 9
	for _, n := range []int{4, 6, 8, 9, 12, 16, 25} {
		if parseAbs(n*n-count) < parseAbs(best*best-count) {
			best = n
		}
	}
	return fmt.Sprintf("found %d cells; a %s puzzle has %d", count, squareName(best), best*best)
}

func parseAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
