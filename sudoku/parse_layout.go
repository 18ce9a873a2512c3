package sudoku

// Shape detection: the ways a grid can lie in the text (one row a line, one
// line, a wrapped block), and the box shape its separators show.

import (
	"fmt"
	"strconv"
	"strings"
)

// gridReading is one way to see a grid in the text: its shape and its cells in
// row-major order.
type gridReading struct {
	shape      Shape
	cells      []cellTok
	first, end int // lines first..end hold it
}

type pasteParser struct {
	lines []*pline
	opts  ParseOptions
	ns    []int // candidateNs, computed once

	pm    []pmLine // the lines as pencil-mark rows, computed once
	pmAny bool     // some line holds a run of candidates

	counts []int // see lineCounts
}

// lineCounts returns, for each count of cells up to a 25x25's 625, how many
// text lines hold that many (lineCellCount), computed once.
func (p *pasteParser) lineCounts() []int {
	if p.counts == nil {
		p.counts = make([]int, MaxN*MaxN+1)
		for _, l := range p.lines {
			if c := lineCellCount(l); l.kind == lineText && c < len(p.counts) {
				p.counts[c]++
			}
		}
	}
	return p.counts
}

// candidateNs lists the sizes worth trying, most common first.
func (p *pasteParser) candidateNs() []int {
	if p.ns == nil {
		p.ns = p.sizes()
	}
	return p.ns
}

func (p *pasteParser) sizes() []int {
	if p.opts.Shape != (Shape{}) {
		return []int{p.opts.Shape.N()}
	}
	if p.opts.Alphabet != "" {
		return []int{p.opts.Alphabet.Len()}
	}
	ns := []int{9, 16, 25, 6, 4, 8, 12}
	for n := 4; n <= MaxN; n++ {
		if _, ok := ShapeFor(n); ok && !parseHasInt(ns, n) {
			ns = append(ns, n)
		}
	}
	return ns
}

func parseHasInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// sizeFor returns n when k cells make an n x n grid this parse allows.
func (p *pasteParser) sizeFor(k int) (int, bool) {
	for _, n := range p.candidateNs() {
		if n*n == k {
			return n, true
		}
	}
	return 0, false
}

func (p *pasteParser) shapeFor(n int) Shape {
	if p.opts.Shape != (Shape{}) {
		return p.opts.Shape
	}
	s, _ := ShapeFor(n)
	return s
}

func (p *pasteParser) run() (*Grid, *ParseError) {
	if g, perr, ok := p.libraryGrid(); ok {
		return g, perr
	}
	if g, ok := p.pencilGrid(); ok {
		return g, nil
	}
	var firstErr *ParseError
	tiers := []func() []gridReading{p.rowReadings, p.spacedReadings, p.lineReadings, p.blockReadings}
	for _, tier := range tiers {
		var grids []*Grid
		var from []gridReading
		for _, rd := range tier() {
			g, perr := p.resolve(rd)
			if perr != nil {
				if firstErr == nil {
					firstErr = perr
				}
				continue
			}
			dup := false
			for i, o := range grids {
				if o.String() == g.String() && o.Shape == g.Shape {
					dup = true
					break
				}
				if readingsOverlap(from[i], rd) {
					// Two readings of the same lines: keep the one with
					// fewer clashes (a header and row labels read as cells
					// make a bigger grid full of them), else the bigger.
					clashes, before := len(g.Clashes()), len(o.Clashes())
					if clashes < before || clashes == before && len(rd.cells) > len(from[i].cells) {
						grids[i], from[i] = g, rd
					}
					dup = true
					break
				}
			}
			if !dup {
				grids = append(grids, g)
				from = append(from, rd)
			}
		}
		switch len(grids) {
		case 0:
			continue
		case 1:
			return grids[0], nil
		default:
			return nil, &ParseError{Line: from[1].first, Msg: fmt.Sprintf(
				"found %d puzzles (at lines %d and %d); paste one puzzle at a time",
				len(grids), from[0].first, from[1].first)}
		}
	}
	if g, perr := p.linkedLine9(); g != nil || perr != nil {
		return g, perr
	}
	if p.looksPencil() {
		if perr := p.pencilDiagnose(); perr != nil {
			return nil, perr
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, p.diagnose()
}

func readingsOverlap(a, b gridReading) bool { return a.first <= b.end && b.first <= a.end }

// rowReadings finds grids written one row per line: for each size n, runs of
// lines that each read as n cells, with separator, blank and header lines
// between them allowed, and exactly n of them.
func (p *pasteParser) rowReadings() []gridReading {
	var out []gridReading
	for _, n := range p.candidateNs() {
		possible := 0
		for _, l := range p.lines {
			if l.mayFit(n) {
				possible++
			}
		}
		if possible < n {
			continue
		}
		var cur []rowCand
		sep := false
		flush := func() {
			if rd, ok := p.assemble(n, cur); ok {
				out = append(out, rd)
			}
			cur = cur[:0]
			sep = false
		}
		for _, l := range p.lines {
			switch l.kind {
			case lineBlank, lineRule:
				sep = true
				continue
			}
			cells, label, ok := l.fit(n)
			switch {
			case ok:
				cur = append(cur, rowCand{line: l, cells: cells, label: label, sepBefore: sep, maybe: l.kind == lineMaybe})
				sep = false
			case l.kind == lineMaybe:
				sep = true
			default:
				flush()
			}
		}
		flush()
	}
	return out
}

type rowCand struct {
	line      *pline
	cells     []cellTok
	label     string
	sepBefore bool // a separator or blank line comes before it
	maybe     bool // a line of dashes: a row of empty cells or a separator
}

// assemble picks n rows out of a run of lines that each read as n cells:
// lines of dashes count as rows only when the real rows are too few, a
// header of column names and chatter at either end are dropped, and labels
// must be on every row or none.
func (p *pasteParser) assemble(n int, run []rowCand) (gridReading, bool) {
	if len(run) < n {
		return gridReading{}, false
	}
	var rows []rowCand
	for _, r := range run {
		if !r.maybe {
			rows = append(rows, r)
		}
	}
	if len(rows) < n {
		// Dash lines are rows of empty cells only when that makes n rows.
		if len(run) != n {
			return gridReading{}, false
		}
		rows = append(rows[:0], run...)
	} else {
		// Unused dash lines are separators.
		prevMaybe := false
		for i := range run {
			if run[i].maybe {
				prevMaybe = true
				continue
			}
			if prevMaybe {
				for j := range rows {
					if rows[j].line == run[i].line {
						rows[j].sepBefore = true
					}
				}
			}
			prevMaybe = false
		}
	}
	rows = trimRows(n, rows)
	if len(rows) != n || p.embeddedRun(rows) {
		return gridReading{}, false
	}
	labelled := 0
	for _, r := range rows {
		if r.label != "" {
			labelled++
		}
	}
	if labelled != 0 && (labelled != n || !labelsInOrder(n, func(i int) string { return rows[i].label }, true)) {
		// Labels are on every row or none, and count up from the first
		// row: "6", "0", "8" down a grid's left edge are its first column.
		return gridReading{}, false
	}
	rd := gridReading{first: rows[0].line.no, end: rows[n-1].line.no, cells: make([]cellTok, 0, n*n)}
	for _, r := range rows {
		rd.cells = append(rd.cells, r.cells...)
	}
	rd.shape = p.inferShape(n, rows)
	return rd, true
}

// labelsInOrder reports whether the n labels label(0) … label(n-1) count
// up (A, B, C …; 1, 2, 3 …; "Row 1", "r1", "1."; a letter or number may be
// skipped), from the first (A, 0 or 1) when fromFirst; empty labels are
// passed over.
func labelsInOrder(n int, label func(i int) string, fromFirst bool) bool {
	prev := -1
	for i := 0; i < n; i++ {
		s := label(i)
		if s == "" {
			continue
		}
		k, ok := labelRank(s)
		if !ok || k <= prev || prev < 0 && fromFirst && k > 1 {
			return false
		}
		prev = k
	}
	return true
}

// labelRank is a row label's place: A is 1, "7" is 7, "Row 7", "r7" and
// "7." are 7.
func labelRank(label string) (int, bool) {
	s := strings.ToUpper(strings.TrimSuffix(label, "."))
	if len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z' {
		return int(s[0]-'A') + 1, true
	}
	if t, ok := strings.CutPrefix(s, "ROW"); ok {
		s = strings.TrimSpace(t)
	} else if t, ok := strings.CutPrefix(s, "R"); ok {
		s = t
	}
	if !allDigits(s) {
		return 0, false
	}
	k, err := strconv.Atoi(s)
	return k, err == nil
}

// trimRows drops chatter from the ends of rows, and then a header line of
// column names at the top (or bottom), until n remain, when it can.
func trimRows(n int, rows []rowCand) []rowCand {
	// A line of prose that is a row once the prose is off ("| 9 | … |
	// <- stuck here") is a row; one that fits only with its letters
	// taken for cells ("hmm 7") is not.
	prose := func(r rowCand) bool {
		if !r.line.chatter {
			return false
		}
		if b := r.line.bare; b != nil {
			_, _, ok := b.fit(n)
			return !ok
		}
		return true
	}
	for len(rows) > n && prose(rows[0]) {
		rows = rows[1:]
	}
	for len(rows) > n && prose(rows[len(rows)-1]) {
		rows = rows[:len(rows)-1]
	}
	if len(rows) > n && len(rows) <= n+2 && isColumnHeader(rows[0], n) && !isColumnHeader(rows[1], n) {
		rows = rows[1:]
	}
	if len(rows) == n+1 && isColumnHeader(rows[n], n) && !isColumnHeader(rows[n-1], n) {
		rows = rows[:n]
	}
	return rows
}

// isHeader reports a line of column names: 1 2 … n, A B C …, or the
// default alphabet in order.
func isColumnHeader(r rowCand, n int) bool {
	if r.label != "" || len(r.cells) != n {
		return false
	}
	def := []rune(string(DefaultAlphabet(n)))
	dec, alpha, sym := true, true, true
	for i, t := range r.cells {
		ts := t.str()
		dec = dec && ts == strconv.Itoa(i+1)
		alpha = alpha && strings.EqualFold(ts, string(rune('A'+i)))
		sym = sym && strings.EqualFold(ts, string(def[i]))
	}
	return dec || alpha || sym
}

// inferShape reads the box shape from the separators: which cells of a row
// follow its strongest gaps, and which rows follow separator lines. It falls
// back to the usual shape for n.
func (p *pasteParser) inferShape(n int, rows []rowCand) Shape {
	if p.opts.Shape != (Shape{}) {
		return p.opts.Shape
	}
	def, _ := ShapeFor(n)
	votes := make([]int, n)
	voters := 0
	for _, r := range rows {
		lo, hi := gapBar, gapNone
		for _, t := range r.cells[1:] {
			lo = min(lo, t.gap)
			hi = max(hi, t.gap)
		}
		if hi == lo {
			continue
		}
		voters++
		for i, t := range r.cells[1:] {
			if t.gap == hi {
				votes[i+1]++
			}
		}
	}
	colMarks := make([]bool, n)
	for i := range votes {
		colMarks[i] = voters > 0 && 2*votes[i] > voters
	}
	rowMarks := make([]bool, n)
	for i := 1; i < n; i++ {
		rowMarks[i] = rows[i].sepBefore
	}
	kc, kr := separatorStep(colMarks), separatorStep(rowMarks)
	var s Shape
	switch {
	case kc > 0 && kr > 0:
		s = Shape{kr, kc}
	case kc > 0:
		s = Shape{n / kc, kc}
	case kr > 0:
		s = Shape{kr, n / kr}
	default:
		return def
	}
	if s.N() != n || s.BoxRows < 2 || s.BoxCols < 2 {
		return def
	}
	return s
}

// boundaryStep returns k when marks[i] holds exactly for the multiples of k
// (0 < i < len), k dividing len, 1 < k < len; otherwise 0.
func separatorStep(marks []bool) int {
	n := len(marks)
	k := 0
	for i := 1; i < n; i++ {
		if marks[i] {
			k = i
			break
		}
	}
	if k < 2 || n%k != 0 || k == n {
		return 0
	}
	for i := 1; i < n; i++ {
		if marks[i] != (i%k == 0) {
			return 0
		}
	}
	return k
}

// lineReadings finds a whole grid on one line: all of the line, the line
// without words of prose, or one word of it ("solve 53..7....6..195...").
func (p *pasteParser) lineReadings() []gridReading {
	var out []gridReading
	// k lines of k cells each are rows of a k x k grid, one of them
	// broken, not k one-line puzzles ("1 2 3 … 16" is no 4x4).
	counts := p.lineCounts()
	for _, l := range p.lines {
		if l.kind != lineText && l.kind != lineMaybe {
			continue
		}
		add := func(cells []cellTok) bool {
			n, ok := p.sizeFor(len(cells))
			if !ok || len(cells) > 2 && counts[len(cells)] >= len(cells)-2 {
				return false
			}
			out = append(out, gridReading{shape: p.shapeFor(n), cells: cells, first: l.no, end: l.no})
			return true
		}
		if l.nums != nil && add(l.nums) {
			continue
		}
		if add(l.chars) {
			continue
		}
		if l.fields != nil && add(l.fields) {
			continue
		}
		kept, prose := 0, false
		for _, w := range l.words {
			if w.chatter {
				prose = true
			} else {
				kept += w.to - w.from
			}
		}
		if _, ok := p.sizeFor(kept); ok && prose {
			cells := make([]cellTok, 0, kept)
			for _, w := range l.words {
				if !w.chatter {
					cells = append(cells, l.chars[w.from:w.to]...)
				}
			}
			add(cells)
			continue
		}
		for _, w := range l.words {
			if w.hasMark && len(l.words) > 1 && add(l.chars[w.from:w.to]) {
				break
			}
		}
	}
	return out
}

// blockReadings finds a grid wrapped over several lines that are not rows
// (a one-line puzzle broken by the chat window, a JSON array with two rows
// a line): consecutive non-blank lines whose cells make a whole grid.
func (p *pasteParser) blockReadings() []gridReading {
	var out []gridReading
	var block []*pline
	flush := func() {
		defer func() { block = block[:0] }()
		if len(block) < 2 || p.rowLike(block) {
			return
		}
		// Count first: most blocks make no grid, and copying them all
		// would make a long paste slow.
		chars, nums, numeric := 0, 0, false
		for _, l := range block {
			chars += len(l.chars)
			nums += lineCellCount(l)
			numeric = numeric || l.nums != nil
		}
		for _, asNumbers := range []bool{true, false} {
			count := chars
			if asNumbers {
				if !numeric {
					continue
				}
				count = nums
			}
			n, ok := p.sizeFor(count)
			if !ok {
				continue
			}
			cells := make([]cellTok, 0, count)
			for _, l := range block {
				if asNumbers && l.nums != nil {
					cells = append(cells, l.nums...)
				} else {
					cells = append(cells, l.chars...)
				}
			}
			out = append(out, gridReading{shape: p.shapeFor(n), cells: cells, first: block[0].no, end: block[len(block)-1].no})
			return
		}
	}
	for _, l := range p.lines {
		switch {
		case l.kind == lineBlank || l.chatter:
			flush()
		case l.kind == lineRule:
		default:
			block = append(block, l)
		}
	}
	flush()
	return out
}

// rowLike reports whether most lines of a block have the same count of
// cells, a possible grid size, and there are about that many lines (in the
// block, or in the text): then the block is a grid with a broken row, not a
// wrapped one-line puzzle.
func (p *pasteParser) rowLike(block []*pline) bool {
	c, k := commonCellCount(block)
	if c < 4 || 2*k <= len(block) {
		return false
	}
	if _, ok := ShapeFor(c); !ok {
		return false
	}
	if len(block) >= c-2 {
		return true
	}
	// A block cut short by a line of prose ("4 0 0 8 0 3 0 0 1 hmm 7"):
	// the lines of the same count around it make the rows.
	return p.lineCounts()[c] >= c-2
}

func commonCellCount(block []*pline) (count, times int) {
	freq := map[int]int{}
	for _, l := range block {
		c := lineCellCount(l)
		freq[c]++
		if freq[c] > times || freq[c] == times && c > count {
			count, times = c, freq[c]
		}
	}
	return count, times
}

func lineCellCount(l *pline) int {
	if l.nums != nil {
		return len(l.nums)
	}
	return len(l.chars)
}

// linkedLine9 finds a 9x9 written as 81 digits and dots inside a link or an
// assignment ("sudoku.htm?bd=5300…", "puzzle=53..7…&level=3"), which the
// readings above take for part of one long word: a run of exactly 81 such
// characters with at least 17 givens, the fewest a proper 9x9 has, so that
// long numbers are not taken for puzzles. The same run again is no second
// puzzle; a different one is.
func (p *pasteParser) linkedLine9() (*Grid, *ParseError) {
	if p.opts.Alphabet != "" || p.opts.Shape != (Shape{}) && p.opts.Shape != Shape9 {
		return nil, nil
	}
	var found *Grid
	foundLine := 0
	for _, l := range p.lines {
		rs := l.runes
		for i := 0; i < len(rs); i++ {
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.') {
				j++
			}
			if j-i == 81 {
				g, ok := parsePlainLine9(string(rs[i:j]))
				givens := 0
				if ok {
					for _, v := range g.Cells {
						givens += parseB2I(v != 0)
					}
				}
				switch {
				case !ok || givens < 17:
				case found == nil:
					found, foundLine = g, l.no
				case found.String() != g.String():
					where := fmt.Sprintf("in the links on line %d", l.no)
					if l.no != foundLine {
						where = fmt.Sprintf("in links (at lines %d and %d)", foundLine, l.no)
					}
					return nil, &ParseError{Line: l.no, Msg: "found 2 puzzles " + where + "; paste one puzzle at a time"}
				}
			}
			i = j
		}
	}
	return found, nil
}
