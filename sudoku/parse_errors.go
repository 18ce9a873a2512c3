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
			"found %d lines holding %d cells (lines %d to %d), which is no Sudoku: a puzzle is 4 rows of 4 cells, 6 rows of 6, 8 rows of 8, 9 rows of 9, 12 rows of 12, 16 rows of 16 or 25 rows of 25, or all its cells on one line",
			len(block), total, block[0].no, block[len(block)-1].no)}
	}
	rows := block
	if r, _, ok := rows[0].fit(n); ok && isColumnHeader(rowCand{cells: r, line: rows[0]}, n) && len(rows) > n {
		rows = rows[1:]
	}
	// In a grid whose rows are labelled, a row that fits only by taking
	// its label for a cell is a short row.
	labelled := 0
	labels := make([]string, len(rows))
	for i, l := range rows {
		if _, label, ok := l.fit(n); ok && label != "" {
			labelled++
			labels[i] = label
		}
	}
	if !labelsInOrder(len(labels), func(i int) string { return labels[i] }, false) {
		// Not labels: the first cells of rows that fit with them.
		labelled = 0
	}
	for i, l := range rows {
		cells, label, ok := l.fit(n)
		c, lc := l.rowCount()
		if ok && label != "" {
			c, lc = len(cells)+1, 1
		}
		// Where few rows have a label, a row that fits only by taking its
		// first cell for one is a row with a cell too many.
		few := 2*labelled <= len(rows)
		if ok && (few && label == "" || !few && (label != "" || l.label == "")) {
			continue
		}
		if ok && !few {
			c -= lc
		}
		msg := fmt.Sprintf("row %d (line %d) has %d cells, expected %d", i+1, l.no, c, n)
		switch {
		case c < n && strings.Contains(strings.TrimSpace(string(l.runes)), "  "):
			msg += "; the rows' cells don't line up in columns, so spaces can't stand for empty cells: write them as '.' or '0'"
		case c < n:
			msg += "; write every cell, with '.' or '0' for an empty one"
		default:
			msg += "; remove the extra cells (a stray character, or two rows on one line?)"
		}
		return &ParseError{Line: l.no, Msg: msg}
	}
	first, last := rows[0].no, rows[len(rows)-1].no
	switch {
	case len(rows) < n:
		return &ParseError{Line: first, Msg: fmt.Sprintf(
			"found %d rows of %d cells (lines %d to %d); %s puzzle has %d rows: paste all of them, a row of empty cells as %s",
			len(rows), n, first, last, aSquare(n), n, strings.Repeat(".", n))}
	case len(rows) > n:
		return &ParseError{Line: first, Msg: fmt.Sprintf(
			"found %d rows of %d cells (lines %d to %d); %s puzzle has %d rows: paste one puzzle at a time",
			len(rows), n, first, last, aSquare(n), n)}
	}
	if 0 < labelled && labelled < len(rows) {
		return &ParseError{Line: first, Msg: fmt.Sprintf(
			"found %d rows of %d cells (lines %d to %d), but only %d of them start with a row label: label every row or none",
			len(rows), n, first, last, labelled)}
	}
	return &ParseError{Line: first, Msg: fmt.Sprintf(
		"found %d rows of %d cells (lines %d to %d), but the lines between them are no part of a grid: keep only the rows, with separator or blank lines between them",
		len(rows), n, first, last)}
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
		case l.kind == lineText && l.chatter && l.bare != nil && len(cur) > 0:
			// "0 0 0 0 8 0 0 7 9 <- stuck here": a row with prose, after rows.
			cur = append(cur, l)
			curCells += lineCellCount(l.bare)
			end()
		case l.kind == lineText && l.chatter && l.bare != nil && lineCellCount(l.bare) >= 4:
			// "help: 5 3 0 0 7 0 0 0 0": a row with prose, before rows.
			end()
			cur, curCells = []*pline{l}, lineCellCount(l.bare)
		case l.kind == lineText && l.chatter:
			if len(l.words) > 1 && hasMarkWord(l) {
				// Prose around a one-line puzzle: judge the line alone.
				end()
				cur, curCells = []*pline{l}, lineCellCount(l)
				end()
				continue
			}
			if c, ok := mostlyCells(l); ok && len(cur) > 0 {
				// "4 0 0 8 0 3 0 0 1 hmm 7": a row with a word in it.
				cur = append(cur, l)
				curCells += c
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
// number of lines when no line has more cells, else the size most of its
// lines read as a row of (common sizes first on a tie), else the number of
// lines.
func (p *pasteParser) guessSize(block []*pline) int {
	// As many lines as a size, none longer: rows, some short.
	header := len(block[0].chars) <= MaxN && isColumnHeader(rowCand{cells: block[0].chars, line: block[0]}, len(block[0].chars))
	if parseHasInt(p.candidateNs(), len(block)) && !header {
		// Row labels count up; first cells that look like labels don't.
		labelled := labelsInOrder(len(block), func(i int) string { return block[i].label }, false)
		longest := 0
		for _, l := range block {
			c, lc := l.rowCount()
			if labelled {
				c -= lc
			}
			longest = max(longest, c)
		}
		if longest <= len(block) {
			return len(block)
		}
	}
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

// countMessage explains a count of cells, found on one line, that is no
// square of a size: the size it nearly is, or else every size there is.
func (p *pasteParser) countMessage(count int) string {
	ns := p.candidateNs()
	if len(ns) == 1 {
		return fmt.Sprintf("found %d cells; %s puzzle has %d: write every cell, with '.' or '0' for an empty one", count, aSquare(ns[0]), ns[0]*ns[0])
	}
	if count > MaxN*MaxN {
		return fmt.Sprintf("found %d cells; the largest puzzle, 25x25, has %d: paste one puzzle at a time", count, MaxN*MaxN)
	}
	sizes := []int{4, 6, 8, 9, 12, 16, 25}
	for _, n := range sizes {
		if d := parseAbs(n*n - count); d <= max(2, n*n/20) {
			what := "one is missing"
			switch {
			case count > n*n+1:
				what = "some are extra"
			case count > n*n:
				what = "one is extra"
			case count < n*n-1:
				what = "some are missing"
			}
			return fmt.Sprintf("found %d cells; %s puzzle has %d, so %s: write every cell once, with '.' or '0' for an empty one", count, aSquare(n), n*n, what)
		}
	}
	var list []string
	for _, n := range sizes {
		list = append(list, fmt.Sprintf("%d (%s)", n*n, squareName(n)))
	}
	return fmt.Sprintf("found %d cells, which is no puzzle's size: a puzzle has %s or %s cells; paste every cell, with '.' or '0' for the empty ones",
		count, strings.Join(list[:len(list)-1], ", "), list[len(list)-1])
}

func parseAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mostlyCells reports a line of prose whose words are mostly cells, three
// or more, and how many cells those words hold.
func mostlyCells(l *pline) (int, bool) {
	cells, marks, prose := 0, 0, 0
	for _, w := range l.words {
		switch {
		case w.chatter:
			prose++
		case w.hasMark:
			marks++
			cells += w.to - w.from
		default:
			cells += w.to - w.from
		}
	}
	return cells, marks >= 3 && marks > prose
}

// rowCount is how many cells the line holds read as a row, for messages:
// without the prose at its ends, a run of blank markers ("__") one cell,
// its fields when it has them; and how many of those its label takes.
func (l *pline) rowCount() (cells, label int) {
	switch {
	case l.bare != nil:
		return l.bare.rowCount()
	case l.fields != nil:
		return len(l.fields), parseB2I(l.label != "")
	case l.blankWords != nil:
		return len(l.blankWords), l.labelWords
	case l.nums != nil:
		return len(l.nums), l.labelNums
	case l.chatter:
		if c, ok := mostlyCells(l); ok {
			return c, l.labelChars
		}
	}
	return len(l.chars), l.labelChars
}
