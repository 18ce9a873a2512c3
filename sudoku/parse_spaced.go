package sudoku

// Newspaper-style grids: rows whose empty cells are spaces, the cells lined
// up in columns ("5 3     7        "), padded or not.

import "sort"

// spacedRow reports a line that can be a row of such a grid: text, not
// prose, no bars.
func spacedRow(l *pline) bool {
	return l.kind == lineText && !l.chatter && len(l.bars) == 0 && len(l.chars) > 0
}

// spacedReadings finds grids whose blanks are spaces: a block of lines whose
// characters, taken together, stand in at most n columns. Blank lines
// inside the block are rows of empty cells when that makes n rows, and
// separators between bands otherwise; a line of spaces next to the block
// is a row of empty cells.
func (p *pasteParser) spacedReadings() []gridReading {
	var out []gridReading
	var block []*pline
	lead := 0 // blank lines before the block's first row
	flush := func() {
		if rd, ok := p.spacedBlock(block, lead); ok {
			out = append(out, rd)
		}
		block, lead = block[:0], 0
	}
	lines := p.lines
	if last := lines[len(lines)-1]; len(last.runes) == 0 {
		// The text's closing newline, not an empty row.
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		switch {
		case l.kind == lineBlank:
			block = append(block, l)
			if len(block) == lead+1 {
				lead++
			}
		case spacedRow(l):
			block = append(block, l)
		default:
			flush()
		}
	}
	flush()
	return out
}

// spacedBlock tries the ways a block's blank lines can be read: as
// separators between bands, as separators where bands end and empty rows
// elsewhere, or all as empty rows; blank lines before or after the rows are
// empty rows when that makes n (a line of spaces as wide as the rows always
// is one). The first reading whose symbols fit wins: an 8-line block of a
// 9x9 whose last row is empty may fit 8 columns too, but not its 9s.
func (p *pasteParser) spacedBlock(block []*pline, lead int) (gridReading, bool) {
	end := len(block)
	for end > lead && block[end-1].kind == lineBlank {
		end--
	}
	if end <= lead {
		return gridReading{}, false
	}
	inner := block[lead:end]
	wide := 0 // the longest row
	texts := 0
	for _, l := range inner {
		if l.kind != lineBlank {
			texts++
			wide = max(wide, len(l.runes))
		}
	}
	if texts < 2 {
		return gridReading{}, false
	}
	padded := func(l *pline) bool { return len(l.runes) >= wide }
	before, after := block[:lead], block[end:]
	padTop, padBottom := 0, 0
	for padTop < len(before) && padded(before[len(before)-1-padTop]) {
		padTop++
	}
	for padBottom < len(after) && padded(after[padBottom]) {
		padBottom++
	}
	// rowsOf reads the blank lines inside: as rows, or as separators where
	// a band of br rows ends (br 0: every one a separator), top empty rows
	// coming before them.
	rowsOf := func(br, top int, all bool) []*pline {
		var rows []*pline
		sep := map[int]bool{}
		for _, l := range inner {
			r := top + len(rows)
			blank := l.kind == lineBlank && !padded(l)
			switch {
			case !blank || all:
				rows = append(rows, l)
			case br == 0 || r%br == 0 && !sep[r]:
				sep[r] = true
			default:
				rows = append(rows, l)
			}
		}
		return rows
	}
	for _, kind := range []int{0, 1, 2} {
		for _, n := range p.candidateNs() {
			if n < texts || n > len(block) {
				continue
			}
			for top := min(len(before), n); top >= padTop; top-- {
				var base []*pline
				switch kind {
				case 0:
					base = rowsOf(0, top, false)
				case 1:
					base = rowsOf(p.shapeFor(n).BoxRows, top, false)
				case 2:
					base = rowsOf(0, top, true)
				}
				bottom := n - top - len(base)
				if bottom < padBottom || bottom > len(after) {
					continue
				}
				rs := make([]*pline, 0, n)
				rs = append(rs, before[len(before)-top:]...)
				rs = append(rs, base...)
				rs = append(rs, after[:bottom]...)
				if rd, ok := p.spacedGrid(n, rs); ok {
					if _, perr := p.resolve(rd); perr == nil {
						return rd, true
					}
				}
			}
		}
	}
	return gridReading{}, false
}

// spacedGrid places each character of n rows in its column. Columns are
// evenly spaced, with perhaps a wider gap between boxes; the spacing chosen
// is the one that leaves the fewest columns empty in every row.
func (p *pasteParser) spacedGrid(n int, rows []*pline) (gridReading, bool) {
	short := false
	seen := map[int]bool{}
	step := 0 // the smallest distance between two characters of a row
	for _, l := range rows {
		if len(l.chars) > n {
			return gridReading{}, false
		}
		short = short || len(l.chars) < n
		for i, t := range l.chars {
			seen[t.col-1] = true
			if i > 0 {
				if d := t.col - l.chars[i-1].col; step == 0 || d < step {
					step = d
				}
			}
		}
	}
	if !short || len(seen) > n {
		// Rows that each hold n cells are the row reader's.
		return gridReading{}, false
	}
	pos := make([]int, 0, len(seen))
	for c := range seen {
		pos = append(pos, c)
	}
	sort.Ints(pos)
	if step == 0 {
		// No row holds two cells: the columns' spacing is all there is.
		for _, c := range pos[1:] {
			step = gcd(step, c-pos[0])
		}
		if step == 0 {
			return gridReading{}, false
		}
	}
	// Rows padded with spaces to the grid's width show where it ends.
	width := 0
	for _, l := range rows {
		if k := len(l.runes); k > 0 && l.runes[k-1] == ' ' {
			width = max(width, k)
		}
	}
	bc := p.shapeFor(n).BoxCols
	// The spacing chosen: the one that matches the padded width, then
	// leaves the fewest columns empty, has the widest step, the narrowest
	// gap between boxes, and starts furthest left.
	var best map[int]int
	bestEmpty, bestGap, bestStep, bestFits := n+1, 0, 0, false
	for d := step; d >= 1; d-- {
		if step%d != 0 {
			continue
		}
		for g := 0; g <= 4; g++ {
			x := func(j int) int { return j*d + j/bc*g }
			for j0 := 0; j0 < n; j0++ {
				origin := pos[0] - x(j0)
				if origin < 0 {
					break
				}
				column := map[int]int{}
				for j := 0; j < n; j++ {
					column[origin+x(j)] = j
				}
				ok := true
				for _, c := range pos {
					if _, in := column[c]; !in {
						ok = false
						break
					}
				}
				fits := width > 0 && origin+x(n-1)+1 == width
				better := fits && !bestFits || fits == bestFits && n-len(pos) < bestEmpty
				if ok && (better || best != nil && fits == bestFits && n-len(pos) == bestEmpty && d == bestStep && g == bestGap) {
					// Equal: a later j0 starts further left.
					best, bestEmpty, bestGap, bestFits, bestStep = column, n-len(pos), g, fits, d
				}
			}
		}
	}
	if best == nil {
		return gridReading{}, false
	}
	// Spaces stand for empty cells only where no cell is written as a
	// blank ('.', '0'), and where some row shows a space inside it: a row
	// of digits one short is a cell missing, not a blank at its end.
	inside := false
	for _, l := range rows {
		prev := -1
		for _, t := range l.chars {
			if isDefiniteBlank(t.r) || t.r == '0' && n < 16 {
				return gridReading{}, false
			}
			j := best[t.col-1]
			inside = inside || j > prev+1
			prev = j
		}
	}
	if !inside && !bestFits {
		// (Rows padded to the grid's width show their blanks too.)
		return gridReading{}, false
	}
	rd := gridReading{first: rows[0].no, end: rows[len(rows)-1].no, cells: make([]cellTok, n*n)}
	cands := make([]rowCand, n)
	for r, l := range rows {
		row := rd.cells[r*n : (r+1)*n]
		for j := range row {
			gap := gapSpace
			if bestGap > 0 && j%bc == 0 {
				gap = gapWide
			}
			row[j] = cellTok{r: '.', num: -1, line: l.no, col: 1, gap: gap}
		}
		for _, t := range l.chars {
			j := best[t.col-1]
			t.gap = row[j].gap
			row[j] = t
		}
		cands[r] = rowCand{line: l, cells: row, sepBefore: r > 0 && rows[r-1].no != l.no-1}
	}
	rd.shape = p.inferShape(n, cands)
	return rd, true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// embeddedRun reports rows that are part of a bigger block of rows written
// with spaces between single cells: a run of 4 such rows of a 9x9 whose
// blanks are spaces is no 4x4. A line next to them with as many cells (a
// header of column names) does not count.
func (p *pasteParser) embeddedRun(rows []rowCand) bool {
	for _, r := range rows {
		if !singleCells(r.line) {
			return false
		}
	}
	for _, no := range []int{rows[0].line.no - 1, rows[len(rows)-1].line.no + 1} {
		if no < 1 || no > len(p.lines) {
			continue
		}
		if l := p.lines[no-1]; spacedRow(l) && singleCells(l) && len(l.chars) != len(rows) {
			return true
		}
	}
	return false
}

// singleCells reports a line whose words are single characters.
func singleCells(l *pline) bool {
	for _, w := range l.words {
		if w.to-w.from != 1 {
			return false
		}
	}
	return len(l.words) > 0
}
