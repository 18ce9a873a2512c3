package sudoku

// Pencil-mark grids: rows whose empty cells list their candidates, as
// HoDoKu, Sudoku Explainer, Simple Sudoku, SudokuWiki and forum posts write
// them. A cell is a symbol (a given or a placed digit: both are digits) or a
// run of candidates; cells are set apart by spaces or bars.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pmWord is one cell of a pencil-mark row as written, markers removed.
type pmWord struct {
	tok   cellTok
	text  string // the symbols: one for a digit, several for candidates
	paren bool   // written "(5)": candidates even when there is one
	fixed bool   // written "[5]": a placed digit even when a peer lists it
}

// pmLine is a line read as the words of a pencil-mark row.
type pmLine struct {
	line  *pline
	words []pmWord
	multi bool // holds a run of candidates, or a "(5)"
	frame bool // no symbol at all: a frame or separator line
}

// hodokuMarker reports the characters HoDoKu's "PM grid with step" puts
// before a cell or a candidate: '*' a cell of the step, '#' a fin, '@' an
// endo-fin, '-' a candidate the step removes.
func hodokuMarker(r rune) bool { return r == '*' || r == '#' || r == '@' || r == '-' }

// pencilLines reads every line as words for the pencil-mark reader, and
// reports whether any line holds a run of candidates: without one the text
// is no pencil-mark grid and the reader is skipped.
func (p *pasteParser) pencilLines() ([]pmLine, bool) {
	if p.pm != nil {
		return p.pm, p.pmAny
	}
	if !p.maybePencil() {
		p.pm = []pmLine{}
		return p.pm, false
	}
	out := make([]pmLine, len(p.lines))
	for i, l := range p.lines {
		l = l.asRow()
		pl := pmLine{line: l, frame: true}
		if l.kind == lineText || l.kind == lineMaybe {
			pl.words = make([]pmWord, 0, len(l.wordToks))
			for _, t := range l.wordToks {
				w := pmWordOf(l, t)
				pl.words = append(pl.words, w)
				if strings.IndexFunc(w.text, isSymbolRune) >= 0 {
					pl.frame = false
				}
				if w.paren || utf8.RuneCountInString(w.text) > 1 && strings.IndexFunc(w.text, isSymbolRune) >= 0 && !isNullWord(w.text) {
					pl.multi = true
				}
			}
		}
		if pl.multi && !p.pmAny {
			p.pmAny = true
		}
		out[i] = pl
	}
	p.pm = out
	return out, p.pmAny
}

// maybePencil is a quick look for what a pencil-mark grid must have, a word
// of several symbols or a "(5)", before the words are read. Numbers up to
// 25 count only on a line short enough for a row of a 9x9 (or long enough
// for all of a small grid): else they are a grid written in numbers.
func (p *pasteParser) maybePencil() bool {
	lengths := map[int]int{}
	for _, l := range p.lines {
		lengths[len(l.wordToks)]++
	}
	for _, l := range p.lines {
		l = l.asRow()
		if l.kind != lineText && l.kind != lineMaybe || l.chatter {
			continue
		}
		k := len(l.wordToks)
		small := k <= 10 || (k == 16 || k == 36 || k == 64 || k == 81) && lengths[k] == 1
		for _, t := range l.wordToks {
			if len(t.text) > 1 && strings.IndexFunc(t.text, isSymbolRune) >= 0 && (small || !isNumberCell(t.text, MaxN)) && !isNullWord(t.text) {
				return true
			}
			if i := t.col - 1; i > 0 && l.runes[i-1] == '(' {
				return true
			}
		}
	}
	return false
}

func isSymbolRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// pmWordOf strips the step markers from a word and notes "(…)" or "[…]"
// around it.
func pmWordOf(l *pline, t cellTok) pmWord {
	w := pmWord{tok: t, text: t.text}
	n := utf8.RuneCountInString(t.text)
	start := t.col - 1
	if start > 0 && start+n < len(l.runes) {
		open, close := l.runes[start-1], l.runes[start+n]
		w.paren = open == '(' && close == ')'
		w.fixed = open == '[' && close == ']' && n == 1
	}
	if n < 2 || !strings.ContainsFunc(t.text, isSymbolRune) || allDigits(t.text) {
		return w
	}
	rs := []rune(t.text)
	// A leading marker: '*', '#', '@', or an ALS letter before digits.
	if hodokuMarker(rs[0]) && rs[0] != '-' || unicode.IsLetter(rs[0]) && len(rs) > 1 && allDigits(strings.Map(dropMinus, string(rs[1:]))) {
		rs = rs[1:]
	}
	w.text = strings.Map(dropMinus, string(rs))
	return w
}

func dropMinus(r rune) rune {
	if r == '-' {
		return -1
	}
	return r
}

// pencilGrid reads the text as a pencil-mark grid: n rows of n cells, at
// least one cell a run of candidates. It reports false when the text is
// not one, leaving it to the other readers.
func (p *pasteParser) pencilGrid() (*Grid, bool) {
	lines, any := p.pencilLines()
	if !any {
		return nil, false
	}
	// Above 9x9, a grid whose runs are all numbers up to 25 is written in
	// numbers ("10 16 0 3"), not candidates.
	strong := p.looksPencil()
	for _, n := range p.candidateNs() {
		if n > 9 && !strong {
			continue
		}
		for _, rows := range pencilRuns(lines, n) {
			if g, ok := p.pencilRead(n, rows); ok {
				return g, true
			}
		}
	}
	// All n*n cells on one line, when no other line looks like it (a row
	// of a bigger grid may hold n*n cells too).
	for _, pl := range lines {
		if !pl.multi || !aloneOfItsLength(lines, pl) {
			continue
		}
		if n, ok := p.sizeFor(len(pl.words)); ok {
			rows := make([]pmRow, n)
			for r := range rows {
				rows[r] = pmRow{words: pl.words[r*n : (r+1)*n]}
			}
			if g, ok := p.pencilRead(n, rows); ok {
				return g, true
			}
		}
	}
	return nil, false
}

// aloneOfItsLength reports whether pl is the only line of text with its
// count of words.
func aloneOfItsLength(lines []pmLine, pl pmLine) bool {
	for _, o := range lines {
		if o.line != pl.line && !o.frame && len(o.words) == len(pl.words) {
			return false
		}
	}
	return true
}

// pmRow is one row of a pencil-mark grid: its n cells, and whether a frame
// or blank line comes before it.
type pmRow struct {
	line      *pline
	words     []pmWord
	sepBefore bool
}

// pencilRuns finds runs of lines with n cells each (n+1 with row labels),
// frame and blank lines allowed between them, and returns those that make
// n rows once a header of column names is dropped.
func pencilRuns(lines []pmLine, n int) [][]pmRow {
	var out [][]pmRow
	var cur []pmRow
	sep := false
	flush := func() {
		// A line of text next to the rows that happens to have n words
		// ("ur: => r2c2<>1, r3c4<>1") is no row of a grid in digits.
		for len(cur) > n && n <= 9 && hasLetterWord(cur[len(cur)-1]) {
			cur = cur[:len(cur)-1]
		}
		for len(cur) > n && n <= 9 && hasLetterWord(cur[0]) {
			cur = cur[1:]
		}
		if rows, ok := pencilRows(cur, n); ok {
			out = append(out, rows)
		}
		cur, sep = nil, false
	}
	for _, pl := range lines {
		k := len(pl.words)
		switch {
		case pl.line.chatter:
			flush()
		case k == n || k == n+1:
			cur = append(cur, pmRow{line: pl.line, words: pl.words, sepBefore: sep})
			sep = false
		case pl.frame:
			sep = true
		default:
			flush()
		}
	}
	flush()
	return out
}

// hasLetterWord reports a row with a word of more than one character that
// holds a letter: prose or cell names, not a cell of a grid in digits.
func hasLetterWord(r pmRow) bool {
	for _, w := range r.words {
		if utf8.RuneCountInString(w.text) > 1 && strings.ContainsFunc(w.text, unicode.IsLetter) {
			return true
		}
	}
	return false
}

// pencilRows picks the n rows out of a run: a header of column names at the
// top is dropped, and row labels are taken off when every row has one.
func pencilRows(run []pmRow, n int) ([]pmRow, bool) {
	if len(run) == n+1 && len(run[0].words) == n && isHeaderWords(run[0].words) {
		run = run[1:]
		run[0].sepBefore = false
	}
	if len(run) != n {
		return nil, false
	}
	labelled := 0
	for _, r := range run {
		if len(r.words) == n+1 {
			labelled++
		}
	}
	switch labelled {
	case 0:
		return run, true
	case n:
		labels := make([]string, n)
		rows := make([]pmRow, n)
		for i, r := range run {
			labels[i] = r.words[0].tok.text
			rows[i] = pmRow{line: r.line, words: r.words[1:], sepBefore: r.sepBefore}
		}
		return rows, isLabelSequence(labels)
	}
	return nil, false
}

// isHeaderWords reports a line of column names: 1 2 3 …, or A B C ….
func isHeaderWords(ws []pmWord) bool {
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = w.tok.text
	}
	return isLabelSequence(names)
}

// isLabelSequence reports row or column names in order: 1, 2, 3 …;
// A, B, C … (SudokuWiki skips I); or r1, r2 … / c1, c2 ….
func isLabelSequence(labels []string) bool {
	var num, rc, letters strings.Builder
	for i, s := range labels {
		num.WriteString(strconv.Itoa(i+1) + " ")
		rc.WriteString("R" + strconv.Itoa(i+1) + " ")
		letters.WriteString(s)
	}
	all := strings.ToUpper(strings.Join(labels, " ") + " ")
	up := strings.ToUpper(letters.String())
	const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	k := len(labels)
	return all == num.String() || all == rc.String() || strings.Replace(all, "C", "R", -1) == rc.String() ||
		k <= len(abc) && up == abc[:k] || k <= len(abc)-1 && k > 8 && up == abc[:8]+abc[9:k+1]
}

// pencilRead turns n rows of words into a grid with marks, choosing the
// alphabet; it reports false when a word is no cell of that alphabet or no
// cell lists candidates.
func (p *pasteParser) pencilRead(n int, rows []pmRow) (*Grid, bool) {
	var syms []rune
	for _, r := range rows {
		for _, w := range r.words {
			syms = append(syms, []rune(w.text)...)
		}
	}
	var alphabets []Alphabet
	custom := Alphabet("")
	switch {
	case p.opts.Alphabet != "":
		alphabets = []Alphabet{p.opts.Alphabet}
	default:
		toks := make([]cellTok, len(syms))
		for i, r := range syms {
			toks[i] = cellTok{r: r, num: -1}
		}
		alphabets = defaultAlphabets(n, toks)
		if a, perr := customAlphabet(n, toks); perr == nil && a != "" {
			alphabets = append(alphabets, a)
			custom = a
		}
	}
	for _, a := range alphabets {
		g, ok := p.pencilCells(n, rows, a)
		if ok && a == custom && !ownLetters(g) {
			continue
		}
		if ok {
			return g, true
		}
	}
	return nil, false
}

// ownLetters reports whether g's placed symbols alone name its alphabet, as
// a puzzle in its own letters needs (see customAlphabet): a grid whose
// letters only show in full among the candidates would read back, from
// its one-line form, in other letters.
func ownLetters(g *Grid) bool {
	var toks []cellTok
	for _, v := range g.Cells {
		if v != 0 {
			toks = append(toks, cellTok{r: g.Alphabet.Symbol(int(v)), num: -1})
		}
	}
	a, perr := customAlphabet(g.N(), toks)
	return perr == nil && a == g.Alphabet
}

func (p *pasteParser) pencilCells(n int, rows []pmRow, a Alphabet) (*Grid, bool) {
	shape := p.shapeFor(n)
	if p.opts.Shape == (Shape{}) {
		rc := make([]rowCand, n)
		for i, r := range rows {
			toks := make([]cellTok, n)
			for j, w := range r.words {
				toks[j] = w.tok
			}
			rc[i] = rowCand{cells: toks, sepBefore: r.sepBefore}
		}
		shape = p.inferShape(n, rc)
	}
	g := &Grid{Shape: shape, Alphabet: a, Cells: make([]uint8, n*n), Marks: make([]uint32, n*n)}
	single := make([]bool, n*n) // a lone symbol, not in "(…)"
	multi, numbers := false, true
	marked, blank := 0, 0
	for r, row := range rows {
		for c, w := range row.words {
			i := r*n + c
			rs := []rune(w.text)
			if len(rs) > 1 && !isNumberCell(w.text, n) {
				numbers = false
			}
			if len(rs) == 1 && !w.paren {
				v := a.Value(rs[0])
				switch {
				case v > 0:
					g.Cells[i] = uint8(v)
					single[i] = !w.fixed
				case isDefiniteBlank(rs[0]) || isSoftBlank(rs[0]):
					blank++
				default:
					return nil, false
				}
				continue
			}
			var m uint32
			for _, s := range rs {
				v := a.Value(s)
				if v == 0 || m&(1<<(v-1)) != 0 {
					return nil, false
				}
				m |= 1 << (v - 1)
			}
			g.Marks[i] = m
			multi = true
			marked++
		}
	}
	if !multi || n > 9 && numbers {
		// Without candidates this is an ordinary grid; a 16x16 whose long
		// words are all numbers up to 16 is written in numbers.
		return nil, false
	}
	// A lone symbol is a placed digit, unless a peer still lists it as a
	// candidate: every program that writes these grids removes a placed
	// digit from its peers' candidates, so it is a cell whose one
	// candidate is left. That holds in a grid of candidates, not in one
	// of blanks with a few marks (or a typo: "12" for "1 2"), where the
	// marks are the player's notes and a digit is a digit.
	geo := shape.Geometry()
	var lone []int
	for i, s := range single {
		if !s || marked < blank {
			continue
		}
		bit := uint32(1) << (g.Cells[i] - 1)
		for _, q := range geo.Peers[i] {
			if g.Cells[q] == 0 && g.Marks[q]&bit != 0 {
				lone = append(lone, i)
				break
			}
		}
	}
	for _, i := range lone {
		g.Cells[i], g.Marks[i] = 0, 1<<(g.Cells[i]-1)
	}
	if a == hexZero && n == 16 {
		// More than 16 zeros placed can't be a 16x16 in 0-F (each row
		// holds one), and the grid's one-line form would read them as
		// blanks.
		zeros := 0
		for _, v := range g.Cells {
			zeros += parseB2I(v == 1)
		}
		if zeros > 16 {
			return nil, false
		}
	}
	return g, true
}

// isNumberCell reports a word that reads as one number 10..n (a cell of a
// grid written in numbers).
func isNumberCell(s string, n int) bool {
	if !allDigits(s) || len(s) != 2 {
		return false
	}
	v := int(s[0]-'0')*10 + int(s[1]-'0')
	return v >= 10 && v <= n
}

// looksPencil reports text that is meant as a pencil-mark grid: some cell
// lists candidates that can't be a number of a 16x16 or 25x25 grid.
func (p *pasteParser) looksPencil() bool {
	lines, any := p.pencilLines()
	if !any {
		return false
	}
	for _, pl := range lines {
		if !pl.multi || pl.line.chatter {
			continue
		}
		for _, w := range pl.words {
			k := utf8.RuneCountInString(w.text)
			if k >= 3 || k == 2 && !isNumberCell(w.text, MaxN) {
				return true
			}
		}
	}
	return false
}

// pencilDiagnose explains why text with runs of candidates read as no grid:
// the rows whose count of cells is off.
func (p *pasteParser) pencilDiagnose() *ParseError {
	lines, any := p.pencilLines()
	if !any {
		return nil
	}
	var block []pmLine
	for _, pl := range lines {
		if pl.multi || len(block) > 0 && !pl.frame && !pl.line.chatter {
			block = append(block, pl)
		} else if len(block) > 0 && pl.line.chatter {
			break
		}
	}
	if len(block) < 2 {
		return nil
	}
	counts := map[int]int{}
	for _, pl := range block {
		counts[len(pl.words)]++
	}
	n, most := 0, 0
	for c, k := range counts {
		if _, ok := ShapeFor(c); ok && (k > most || k == most && c > n) {
			n, most = c, k
		}
	}
	if n == 0 {
		return nil
	}
	for i, pl := range block {
		if k := len(pl.words); k != n && k != n+1 {
			return &ParseError{Line: pl.line.no, Msg: fmt.Sprintf(
				"row %d (line %d) of the pencil-mark grid has %d cells, expected %d; write each cell as one digit or its candidates run together (\"158\"), with spaces or bars between cells",
				i+1, pl.line.no, k, n)}
		}
	}
	if len(block) != n {
		return &ParseError{Line: block[0].line.no, Msg: fmt.Sprintf(
			"found a pencil-mark grid of %d rows of %d cells; %s puzzle has %d rows: paste all of them",
			len(block), n, aSquare(n), n)}
	}
	a := DefaultAlphabet(n)
	for _, pl := range block {
		for _, w := range pl.words {
			seen := map[int]bool{}
			for _, r := range w.text {
				v := a.Value(r)
				bad := ""
				switch {
				case v == 0 && (utf8.RuneCountInString(w.text) > 1 || !isDefiniteBlank(r) && !isSoftBlank(r)):
					bad = fmt.Sprintf("%s is not a %s symbol", quoteCell(r), squareName(n))
				case seen[v]:
					bad = fmt.Sprintf("%s is listed twice", quoteCell(r))
				}
				if bad != "" {
					return &ParseError{Line: pl.line.no, Col: w.tok.col, Msg: fmt.Sprintf(
						"in the pencil-mark grid, the cell %q at line %d, column %d: %s; write a cell as one symbol or its candidates (%s) once each",
						w.text, pl.line.no, w.tok.col, bad, describeAlphabet(a))}
				}
				seen[v] = true
			}
		}
	}
	return &ParseError{Line: block[0].line.no, Msg: fmt.Sprintf(
		"the pencil-mark grid at line %d reads as no %s grid: write each cell as one symbol or its candidates (%s), with spaces or bars between cells",
		block[0].line.no, squareName(n), describeAlphabet(a))}
}

// sortedMarks returns the symbols of a candidate mask in order.
func sortedMarks(a Alphabet, m uint32, n int) string {
	var b strings.Builder
	for _, v := range MaskValues(m) {
		if v <= n {
			b.WriteRune(a.Symbol(v))
		}
	}
	return b.String()
}
