package sudoku

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxInputBytes is the longest text Parse reads. A 25x25 puzzle drawn with
// generous decoration fits several times over; the limit bounds the work one
// chat message can cause.
const MaxInputBytes = 20000

// ParseError says why pasted text is not a puzzle, and where. Line and Col
// are 1-based positions in the input (0 when the problem is not at one
// place; Col counts characters, not bytes); Msg is a sentence a person can act
// on, and it already names the place when there is one, so Error returns it
// unchanged.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return e.Msg }

// ParseOptions tune Parse.
type ParseOptions struct {
	// Shape, when not zero, is the shape the puzzle must have; otherwise it is
	// inferred from the text (cells per row, rows, box separators).
	Shape Shape
	// Alphabet, when not empty, is the set of symbols the puzzle is written
	// in (value v is the v-th rune); it fixes N as well. Without it the
	// alphabet is the usual one for the shape, or, for a puzzle written in
	// its own N letters, those letters in sorted order.
	Alphabet Alphabet
}

// Parse reads a puzzle from pasted text, inferring its shape and alphabet.
//
// It accepts what people paste into a chat:
//   - the one-line form (81 symbols; blanks '.', '0', '_', '-', '*', 'x' or
//     '?'), alone or inside a sentence, or wrapped over several lines;
//   - rows of cells with or without spaces, commas, brackets
//     ([[5,3,0,…],…]), quotes or C/Go initialisers (the dimensions in
//     "char p[9][9] =" are not cells), or tabs from a spreadsheet, where an
//     empty field is an empty cell;
//   - grids drawn with '|', '+', '-', '=', ':', '*' or box-drawing
//     characters (QQWing, Simple Sudoku .ss, .sdk, Markdown tables),
//     including grids whose empty cells are spaces between bars;
//   - rows labelled A–I, 1–9 or "Row 1:", under a header of column names;
//   - pencil-mark grids (HoDoKu, forum posts), where a cell of several
//     digits is an empty cell;
//   - code fences, Discord spoiler bars, keycap emoji, fullwidth digits,
//     and chatter above, below or around the grid;
//   - 4x4 to 25x25 (box shape from the separators, else the usual one);
//     16x16 in 1-9A-G or 0-9A-F, 25x25 in A-Y or 1-9A-P, and both written as
//     numbers (10 11 … 25, 0 for blank);
//   - a puzzle in its own N letters (AELMNOSTW), which keeps them, sorted,
//     as its alphabet.
//
// Where the text could be read in more than one way, the reading whose
// counts make a whole grid wins: a line of dashes is a row of blanks only if
// the grid is a row short, "1 2 3 4 5 6 7 8 9" is a header only if there is
// a row too many. Input longer than MaxInputBytes is refused.
//
// Every error is a *ParseError whose message says what is wrong, where, and
// what was expected.
func Parse(text string) (*Grid, error) {
	return ParseWith(text, ParseOptions{})
}

// ParseWith is Parse with options.
func ParseWith(text string, opts ParseOptions) (*Grid, error) {
	g, perr := parse(text, opts)
	if perr != nil {
		return nil, perr
	}
	return g, nil
}

func parse(text string, opts ParseOptions) (*Grid, *ParseError) {
	if opts == (ParseOptions{}) {
		if g, ok := parsePlainLine9(text); ok {
			return g, nil
		}
	}
	return parsePaste(text, opts)
}

// parsePlainLine9 reads the commonest input, a 9x9 as 81 characters of
// digits with '.' or '0' for blanks (surrounding spaces allowed), without
// the general reader, which costs several times more than solving such a
// puzzle. It gives the grid parsePaste would, and refuses anything else.
func parsePlainLine9(text string) (*Grid, bool) {
	text = strings.TrimSpace(text)
	if len(text) != 81 {
		return nil, false
	}
	g := New(Shape9)
	for i := 0; i < 81; i++ {
		switch c := text[i]; {
		case c >= '1' && c <= '9':
			g.Cells[i] = c - '0'
		case c == '.' || c == '0':
		default:
			return nil, false
		}
	}
	return g, true
}

// parsePaste is the general reader of pasted text.
func parsePaste(text string, opts ParseOptions) (*Grid, *ParseError) {
	if len(text) > MaxInputBytes {
		return nil, &ParseError{Msg: fmt.Sprintf(
			"the text is %d bytes long, more than the %d a puzzle needs; paste only the grid", len(text), MaxInputBytes)}
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	if perr := checkOptions(opts); perr != nil {
		return nil, perr
	}
	lines := splitPasteLines(text)
	hasCells := false
	for _, l := range lines {
		if len(l.chars) > 0 {
			hasCells = true
			break
		}
	}
	if !hasCells {
		return nil, &ParseError{Msg: emptyMessage}
	}
	p := pasteParser{lines: lines, opts: opts}
	return p.run()
}

const emptyMessage = "there is no puzzle in the text: paste the grid as 81 characters on one line " +
	"(digits, with '.' or '0' for empty cells) or as 9 rows of 9"

func checkOptions(opts ParseOptions) *ParseError {
	if opts.Shape != (Shape{}) && !opts.Shape.Valid() {
		return &ParseError{Msg: fmt.Sprintf("box shape %dx%d is not a playable Sudoku shape", opts.Shape.BoxRows, opts.Shape.BoxCols)}
	}
	if opts.Alphabet == "" {
		return nil
	}
	n := opts.Alphabet.Len()
	if opts.Shape != (Shape{}) && n != opts.Shape.N() {
		return &ParseError{Msg: fmt.Sprintf("the alphabet %q has %d symbols but a %s puzzle needs %d", string(opts.Alphabet), n, squareName(opts.Shape.N()), opts.Shape.N())}
	}
	if _, ok := ShapeFor(n); !ok && opts.Shape == (Shape{}) {
		return &ParseError{Msg: fmt.Sprintf("the alphabet %q has %d symbols; no Sudoku has that many", string(opts.Alphabet), n)}
	}
	seen := map[rune]bool{}
	for _, r := range string(opts.Alphabet) {
		u := unicode.ToUpper(r)
		if seen[u] || isDefiniteBlank(r) || isDecoration(r) {
			return &ParseError{Msg: fmt.Sprintf("the alphabet %q repeats %q or uses it although it marks an empty cell", string(opts.Alphabet), r)}
		}
		seen[u] = true
	}
	return nil
}

// ---------------------------------------------------------------------------
// Characters.

// isBar reports a vertical separator: between boxes, or between cells.
func isBar(r rune) bool {
	switch r {
	case '|', '¦', ':', '│', '┃', '║', '╎', '╏', '┆', '┇', '┊', '┋', '╽', '╿':
		return true
	}
	return false
}

func isBoxDrawing(r rune) bool { return r >= 0x2500 && r <= 0x257F }

// isDashLike reports the characters that draw horizontal lines in ASCII art
// but mark empty cells inside a row.
func isDashLike(r rune) bool {
	switch r {
	case '-', '_', '*', '–', '—', '−', '‐':
		return true
	}
	return false
}

// isDecoration reports characters that are never cells: spaces, separators,
// brackets, quotes, punctuation of code, and invisible marks (Discord keycap
// emoji are a digit followed by such marks).
func isDecoration(r rune) bool {
	if unicode.IsSpace(r) || isBar(r) || isBoxDrawing(r) {
		return true
	}
	switch r {
	case '+', '=', ';', ',', '[', ']', '{', '}', '(', ')', '\'', '"', '<', '>', '/', '\\', '~', '^', '`':
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Cc)
}

// isDefiniteBlank reports characters that always mark an empty cell.
func isDefiniteBlank(r rune) bool {
	if isDashLike(r) {
		return true
	}
	switch r {
	case '.', '?', '·', '•', '□', '◻', '⬜', '▫', '◽', '∙':
		return true
	}
	return false
}

// isSoftBlank reports characters that mark an empty cell unless the
// puzzle's alphabet uses them ('0' in 0-9A-F, 'X' in A-Y).
func isSoftBlank(r rune) bool { return r == '0' || r == 'x' || r == 'X' }

// ---------------------------------------------------------------------------
// Lines.

type gapKind uint8

// What separates a cell from the one before it on its line; the strongest
// gaps of a row show where its boxes end.
const (
	gapNone  gapKind = iota // written against the previous cell
	gapSpace                // one space, a comma, …
	gapWide                 // two or more spaces, or a tab
	gapBar                  // a vertical bar
)

// cellTok is one cell as written.
type cellTok struct {
	text      string // the cell as written when it is more than one character ("10"); see str
	r         rune   // its first character
	num       int    // the number written, for a cell read as a number; -1 otherwise
	line, col int    // 1-based position
	gap       gapKind
}

type lineKind uint8

const (
	lineBlank lineKind = iota // nothing but spaces (or a code fence)
	lineRule                  // a separator: '+', '=', box drawing …, and no cells
	lineMaybe                 // only '-', '_', '*' and bars: a separator, or a row of empty cells
	lineText                  // anything else: a row, a one-line puzzle, or chatter
)

// pasteWord is a run of a line's cells between spaces: chars[from:to].
type pasteWord struct {
	from, to int
	chatter  bool // only letters, two or more: a word of prose or code
	hasMark  bool // holds a digit or a blank marker
}

type pline struct {
	no    int
	kind  lineKind
	runes []rune
	chars []cellTok // every non-decoration character, one cell each
	nums  []cellTok // the line read as numbers; nil unless it holds a two-digit number
	bars  []int     // indexes in runes of vertical bars
	segs  []segment // see segments

	// A leading row label ("A", "1", "10"): its text, and how many entries
	// of chars and nums it takes.
	label                 string
	labelChars, labelNums int
	labelEnd              int // rune index just past the label

	wordToks []cellTok // each run of non-decoration characters as one entry
	tabs     []cellTok // the fields between tabs, "" read as an empty cell; nil without tabs

	words   []pasteWord
	chatter bool // reads like prose, not like a row
}

func splitPasteLines(text string) []*pline {
	raw := strings.Split(text, "\n")
	lines := make([]*pline, 0, len(raw))
	for i, s := range raw {
		lines = append(lines, newLine(i+1, strings.TrimRight(s, "\r")))
	}
	return lines
}

func newLine(no int, s string) *pline {
	l := &pline{no: no, runes: cleanRunes(s)}
	l.classify()
	if l.kind == lineBlank || l.kind == lineRule {
		return l
	}
	l.readChars()
	l.readNumbers()
	l.readTabs()
	l.findLabel()
	return l
}

// cleanRunes blanks what is wrapped around a grid rather than part of it:
// code fences, Discord spoiler bars, inline code ticks, and the dimensions
// of C arrays ("grid[9][9]"), keeping every other character at its column.
func cleanRunes(s string) []rune {
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			// Fullwidth forms, as CJK keyboards type them: "５３．．７".
			rs[i] = r - 0xFEE0
		case r == 0x3000:
			rs[i] = ' '
		}
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "```") {
		rest := strings.TrimSpace(strings.TrimLeft(t, "`"))
		if !strings.ContainsAny(rest, " \t") && fenceTag(rest) || rest == "" {
			// An opening fence with its language tag, or a closing fence.
			for i := range rs {
				rs[i] = ' '
			}
			return rs
		}
	}
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '`':
			rs[i] = ' '
		case rs[i] == '|' && i+1 < len(rs) && rs[i+1] == '|':
			rs[i], rs[i+1] = ' ', ' '
			i++
		}
	}
	// "name[9][9]": a bracketed number right after a name, or after such a
	// dimension, is a size, not a cell. "[5][3]" at the start stays.
	dim := false
	for i := 0; i < len(rs); i++ {
		if rs[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
			j++
		}
		isDim := j > i+1 && j < len(rs) && rs[j] == ']' && i > 0 &&
			(rs[i-1] == '_' || unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1]) || rs[i-1] == ']' && dim)
		if isDim {
			for k := i; k <= j; k++ {
				rs[k] = ' '
			}
			rs[j] = ']' // keep a ']' so a following dimension chains
			i = j
		}
		dim = isDim
	}
	// The kept ']' is decoration anyway.
	return rs
}

// fenceTag reports a code fence's language tag ("txt", "py", "c++"):
// short, with a letter, and nothing a puzzle would need.
func fenceTag(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r) || r == '-' || r == '+' || r == '#':
		default:
			return false
		}
	}
	return letter && len(s) <= 20
}

// classify decides whether the line is blank, a separator, maybe a
// separator, or text.
func (l *pline) classify() {
	hard, dashes, bars, text := 0, 0, 0, 0
	for i, r := range l.runes {
		switch {
		case isBar(r):
			bars++
			l.bars = append(l.bars, i)
		case isDashLike(r):
			dashes++
		case r == '+' || r == '=' || r == '~' || isBoxDrawing(r):
			hard++
		case isDecoration(r):
		default:
			text++
		}
	}
	switch {
	case text > 0:
		l.kind = lineText
	case hard > 0:
		l.kind = lineRule
	case dashes > 0 || bars > 1:
		l.kind = lineMaybe
	default:
		l.kind = lineBlank
	}
}

// readChars reads every non-decoration character as one cell, noting the
// gap before each, and splits the line into words at spaces and colons.
func (l *pline) readChars() {
	l.chars = make([]cellTok, 0, len(l.runes))
	gap := gapNone
	spaces := 0
	inWord := false
	var w pasteWord
	endWord := func() {
		if inWord {
			w.to = len(l.chars)
			l.words = append(l.words, w)
			inWord = false
		}
	}
	for i, r := range l.runes {
		if isDecoration(r) {
			switch {
			case isBar(r):
				gap = gapBar
			case r == '\t':
				spaces += 2
			case unicode.IsSpace(r):
				spaces++
			default:
				if gap < gapSpace {
					gap = gapSpace
				}
			}
			if unicode.IsSpace(r) || r == ':' {
				endWord()
			}
			continue
		}
		if gap < gapBar {
			switch {
			case spaces >= 2:
				gap = gapWide
			case spaces == 1 && gap < gapSpace:
				gap = gapSpace
			}
		}
		if !inWord {
			w = pasteWord{from: len(l.chars)}
			inWord = true
		}
		l.chars = append(l.chars, cellTok{r: r, num: -1, line: l.no, col: i + 1, gap: gap})
		gap, spaces = gapNone, 0
	}
	endWord()
	for i := range l.words {
		classifyWord(&l.words[i], l.chars)
	}
	l.chatter = isChatter(l)
}

// classifyWord decides whether a word is prose (letters, perhaps ending in
// '.', '?' or '!') and whether it holds a digit or a blank marker that is not
// such trailing punctuation.
func classifyWord(w *pasteWord, chars []cellTok) {
	cells := chars[w.from:w.to]
	end := len(cells)
	for end > 0 && strings.ContainsRune(".?!", cells[end-1].r) {
		end--
	}
	letters := end >= 2
	for _, t := range cells[:end] {
		if !unicode.IsLetter(t.r) {
			letters = false
		}
		if unicode.IsDigit(t.r) || isDefiniteBlank(t.r) {
			w.hasMark = true
		}
	}
	if end < len(cells)-1 {
		// Several trailing dots: blanks of a puzzle, not punctuation.
		w.hasMark = true
		letters = false
	}
	w.chatter = letters
}

// isChatter guesses whether a line is prose ("solve this pls:", "thanks!")
// rather than a row: it holds a word of three or more letters, two of them
// lower case, or it ends like a sentence.
func isChatter(l *pline) bool {
	for i, w := range l.words {
		if !w.chatter || w.to-w.from < 3 {
			continue
		}
		if i == 0 && w.to-w.from == 3 && strings.EqualFold(cellText(l.chars[w.from:w.to]), "row") {
			continue
		}
		lower := 0
		for _, t := range l.chars[w.from:w.to] {
			if unicode.IsLower(t.r) {
				lower++
			}
		}
		if lower >= 2 {
			return true
		}
	}
	t := strings.TrimSpace(string(l.runes))
	return strings.HasSuffix(t, ":") && len(l.words) > 0 && l.words[len(l.words)-1].chatter
}

// readNumbers reads the line as numbers separated by decoration: the way
// 16x16 and 25x25 puzzles are written when a cell may take two digits, and
// the way code writes any grid. Words of two or more letters ("int", "grid")
// are skipped as code or prose. The reading is kept only when it holds a
// two-digit number and every other word is one character.
func (l *pline) readNumbers() {
	var out []cellTok
	twoDigit, bad := false, false
	gap := gapNone
	spaces := 0
	rs := l.runes
	for i := 0; i < len(rs); {
		r := rs[i]
		if isDecoration(r) {
			switch {
			case isBar(r):
				gap = gapBar
			case unicode.IsSpace(r):
				spaces++
			default:
				if gap < gapSpace {
					gap = gapSpace
				}
			}
			i++
			continue
		}
		j := i
		for j < len(rs) && !isDecoration(rs[j]) {
			j++
		}
		w := string(rs[i:j])
		if gap < gapBar {
			switch {
			case spaces >= 2:
				gap = gapWide
			case spaces == 1 && gap < gapSpace:
				gap = gapSpace
			}
		}
		l.wordToks = append(l.wordToks, cellTok{text: w, r: rs[i], num: -1, line: l.no, col: i + 1, gap: gap})
		if bad {
			gap, spaces = gapNone, 0
			i = j
			continue
		}
		switch {
		case allDigits(w) && len(w) <= 2:
			v, _ := strconv.Atoi(w)
			if len(w) == 2 {
				twoDigit = true
			}
			out = append(out, cellTok{text: w, r: rs[i], num: v, line: l.no, col: i + 1, gap: gap})
		case j-i == 1:
			out = append(out, cellTok{text: w, r: rs[i], num: -1, line: l.no, col: i + 1, gap: gap})
		case allLetters(rs[i:j]):
			// A word of code or prose; not a cell.
		default:
			bad = true
		}
		gap, spaces = gapNone, 0
		i = j
	}
	if twoDigit && !bad {
		l.nums = out
	}
}

// readTabs reads a row copied from a spreadsheet: cells between tabs, an
// empty field being an empty cell.
func (l *pline) readTabs() {
	tabs := 0
	for _, r := range l.runes {
		if r == '\t' {
			tabs++
		}
	}
	if tabs < 3 {
		return
	}
	out := make([]cellTok, 0, tabs+1)
	start := 0
	for i := 0; i <= len(l.runes); i++ {
		if i < len(l.runes) && l.runes[i] != '\t' {
			continue
		}
		var field []rune
		col := start
		for k := start; k < i; k++ {
			if !isDecoration(l.runes[k]) {
				if field == nil {
					col = k
				}
				field = append(field, l.runes[k])
			}
		}
		t := cellTok{r: '.', num: -1, line: l.no, col: col + 1, gap: gapSpace}
		switch {
		case len(field) == 1:
			t.r = field[0]
		case len(field) == 2 && allDigits(string(field)):
			t.text, t.r = string(field), field[0]
			t.num, _ = strconv.Atoi(t.text)
		case len(field) > 2:
			return
		}
		out = append(out, t)
		start = i + 1
	}
	l.tabs = out
}

// str returns the cell as written.
func (t cellTok) str() string {
	if t.text != "" {
		return t.text
	}
	return string(t.r)
}

func cellText(cells []cellTok) string {
	var b strings.Builder
	for _, t := range cells {
		b.WriteString(t.str())
	}
	return b.String()
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func allLetters(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsLetter(r) && r != '_' {
			return false
		}
	}
	return true
}

// findLabel finds a row label: a first word of one letter or a number up to
// 25, set apart from the cells after it.
func (l *pline) findLabel() {
	rs := l.runes
	i := 0
	for i < len(rs) && isDecoration(rs[i]) {
		i++
	}
	j := i
	for j < len(rs) && !isDecoration(rs[j]) {
		j++
	}
	if j == i || j == len(rs) {
		return
	}
	w := string(rs[i:j])
	if strings.EqualFold(w, "row") {
		// "Row 1: …"
		k := j
		for k < len(rs) && rs[k] == ' ' {
			k++
		}
		m := k
		for m < len(rs) && rs[m] >= '0' && rs[m] <= '9' {
			m++
		}
		if m == k || m-k > 2 || m == len(rs) || !isDecoration(rs[m]) {
			return
		}
		j, w = m, string(rs[i:m])
	}
	switch {
	case len(w) > 3 && strings.EqualFold(w[:3], "row"):
	case j-i == 1 && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])):
	case allDigits(w) && len(w) <= 2:
	case len(w) >= 2 && len(w) <= 3 && (rs[i] == 'r' || rs[i] == 'R') && allDigits(string(rs[i+1:j])):
	default:
		return
	}
	l.label, l.labelEnd = w, j
	for _, t := range l.chars {
		if t.col-1 < j {
			l.labelChars++
		}
	}
	for _, t := range l.nums {
		if t.col-1 < j {
			l.labelNums++
		}
	}
}

// fit reads the line as a row of n cells, if it can be one: as numbers, as
// characters, either after a row label, or by the slots between its bars.
func (l *pline) fit(n int) (cells []cellTok, label string, ok bool) {
	if l.kind != lineText && l.kind != lineMaybe {
		return nil, "", false
	}
	// Up to 9x9 a two-digit word is no cell: it is pencil marks.
	nums := l.nums
	if n <= 9 {
		nums = nil
	}
	if nums != nil && len(nums) == n {
		return nums, "", true
	}
	if len(l.chars) == n {
		return l.chars, "", true
	}
	if l.label != "" {
		if nums != nil && len(nums)-l.labelNums == n {
			return nums[l.labelNums:], l.label, true
		}
		if len(l.chars)-l.labelChars == n {
			return l.chars[l.labelChars:], l.label, true
		}
	}
	if len(l.tabs) == n {
		return l.tabs, "", true
	}
	if l.label != "" && len(l.tabs) == n+1 {
		return l.tabs[1:], l.label, true
	}
	if cells, label, ok := l.pencilMarks(n); ok {
		return cells, label, true
	}
	return l.slots(n)
}

// mayFit is a quick test that fit(n) could succeed, to skip sizes no line
// has.
func (l *pline) mayFit(n int) bool {
	if l.kind != lineText && l.kind != lineMaybe {
		return false
	}
	c, w := len(l.chars), len(l.wordToks)
	return c == n || c-l.labelChars == n || len(l.nums) == n || len(l.nums)-l.labelNums == n ||
		len(l.tabs) == n || len(l.tabs) == n+1 || w == n || w == n+1 || w == n+2 || len(l.bars) >= 2
}

// pencilMarks reads a row of a grid with candidates (HoDoKu, forum posts):
// n words, a single digit being a given and several digits the candidates
// of an empty cell.
func (l *pline) pencilMarks(n int) ([]cellTok, string, bool) {
	ws, label := l.wordToks, ""
	if len(ws) > n && l.label != "" {
		k := 0
		for k < len(ws) && ws[k].col-1 < l.labelEnd {
			k++
		}
		ws, label = ws[k:], l.label
	}
	if n > 9 || len(ws) != n {
		return nil, "", false
	}
	out := make([]cellTok, n)
	multi := false
	for i, w := range ws {
		if utf8.RuneCountInString(w.text) == 1 {
			out[i] = w
			continue
		}
		seen := 0
		for _, r := range w.text {
			if r < '1' || r > rune('0'+n) || seen&(1<<(r-'0')) != 0 {
				return nil, "", false
			}
			seen |= 1 << (r - '0')
		}
		multi = true
		out[i] = cellTok{r: '.', num: -1, line: w.line, col: w.col, gap: w.gap}
	}
	return out, label, multi
}

// segment is the text between two bars: runes[from:to].
type segment struct{ from, to int }

// segments returns the non-empty stretches between the line's bars,
// computed once.
func (l *pline) segments() []segment {
	if l.segs == nil && len(l.bars) >= 2 {
		l.segs = []segment{}
		for i := 1; i < len(l.bars); i++ {
			if l.bars[i] > l.bars[i-1]+1 {
				l.segs = append(l.segs, segment{l.bars[i-1] + 1, l.bars[i]})
			}
		}
	}
	return l.segs
}

// slots reads a row drawn with bars whose empty cells are spaces
// ("| 5 3   |   7   |       |", "║ 5 │   │ 3 ║"): the bars cut the row into
// segments of equal cell counts, and a cell's place in its segment follows
// from its column.
func (l *pline) slots(n int) ([]cellTok, string, bool) {
	segs := l.segments()
	if len(segs) == 0 || n%len(segs) != 0 {
		return nil, "", false
	}
	first, last := l.bars[0], l.bars[len(l.bars)-1]
	label := ""
	var pre []cellTok
	for _, t := range l.chars {
		switch {
		case t.col-1 < first:
			pre = append(pre, t)
		case t.col-1 > last:
			return nil, "", false
		}
	}
	if len(pre) > 0 {
		if l.label == "" || len(pre) != l.labelChars {
			return nil, "", false
		}
		label = l.label
	}
	k := n / len(segs)
	out := make([]cellTok, 0, n)
	ci := len(pre)
	for _, s := range segs {
		var in []cellTok
		for ci < len(l.chars) && l.chars[ci].col-1 < s.to {
			in = append(in, l.chars[ci])
			ci++
		}
		if k == 1 && len(in) == 2 && in[1].gap == gapNone && allDigits(in[0].str()+in[1].str()) {
			// A two-digit number alone between bars: one cell.
			w := in[0].str() + in[1].str()
			v, _ := strconv.Atoi(w)
			in = []cellTok{{text: w, r: in[0].r, num: v, line: l.no, col: in[0].col}}
		}
		if len(in) > k {
			return nil, "", false
		}
		width := s.to - s.from
		slot := make([]cellTok, k)
		for j := range slot {
			slot[j] = cellTok{r: '.', num: -1, line: l.no, col: s.from + 1 + j*width/k, gap: gapSpace}
		}
		if len(in) == k {
			copy(slot, in)
		} else {
			prev := -1
			for _, t := range in {
				j := (t.col - 1 - s.from) * k / width
				if j <= prev || j >= k {
					return nil, "", false
				}
				slot[j] = t
				prev = j
			}
		}
		for j := range slot {
			slot[j].gap = gapSpace
		}
		slot[0].gap = gapBar
		out = append(out, slot...)
	}
	return out, label, true
}

// ---------------------------------------------------------------------------
// Readings of the whole text.

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
	var firstErr *ParseError
	tiers := []func() []gridReading{p.rowReadings, p.lineReadings, p.blockReadings}
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
					// Two readings of the same lines: keep the bigger grid.
					if len(rd.cells) > len(from[i].cells) {
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
	if len(rows) != n {
		return gridReading{}, false
	}
	labelled := 0
	for _, r := range rows {
		if r.label != "" {
			labelled++
		}
	}
	if labelled != 0 && labelled != n {
		return gridReading{}, false
	}
	rd := gridReading{first: rows[0].line.no, end: rows[n-1].line.no, cells: make([]cellTok, 0, n*n)}
	for _, r := range rows {
		rd.cells = append(rd.cells, r.cells...)
	}
	rd.shape = p.inferShape(n, rows)
	return rd, true
}

// trimRows drops chatter from the ends of rows, and then a header line of
// column names at the top (or bottom), until n remain, when it can.
func trimRows(n int, rows []rowCand) []rowCand {
	for len(rows) > n && rows[0].line.chatter {
		rows = rows[1:]
	}
	for len(rows) > n && rows[len(rows)-1].line.chatter {
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
	for _, l := range p.lines {
		if l.kind != lineText && l.kind != lineMaybe {
			continue
		}
		add := func(cells []cellTok) bool {
			n, ok := p.sizeFor(len(cells))
			if !ok {
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
// cells, a possible grid size, and there are about that many lines: then
// the block is a grid with a broken row, not a wrapped one-line puzzle.
func (p *pasteParser) rowLike(block []*pline) bool {
	c, k := commonCellCount(block)
	if c < 4 || 2*k <= len(block) || len(block) < c-2 {
		return false
	}
	_, ok := ShapeFor(c)
	return ok
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

// ---------------------------------------------------------------------------
// Symbols.

// resolve turns the cells of a reading into values, choosing the alphabet.
func (p *pasteParser) resolve(rd gridReading) (*Grid, *ParseError) {
	n := rd.shape.N()
	numeric := false
	for _, t := range rd.cells {
		if t.num >= 0 {
			numeric = true
			break
		}
	}
	var alphabets []Alphabet
	switch {
	case p.opts.Alphabet != "":
		alphabets = []Alphabet{p.opts.Alphabet}
	case numeric:
		alphabets = []Alphabet{numericAlphabet(n, rd.cells)}
	default:
		alphabets = defaultAlphabets(n, rd.cells)
	}
	var firstErr *ParseError
	for _, a := range alphabets {
		cells, perr := applyAlphabet(a, n, rd.cells)
		if perr == nil {
			return &Grid{Shape: rd.shape, Alphabet: a, Cells: cells}, nil
		}
		if firstErr == nil {
			firstErr = perr
		}
	}
	if p.opts.Alphabet == "" && !numeric {
		if a, perr := customAlphabet(n, rd.cells); perr != nil {
			if !hasDigitCell(rd.cells) {
				return nil, perr
			}
		} else if a != "" {
			if cells, perr := applyAlphabet(a, n, rd.cells); perr == nil {
				return &Grid{Shape: rd.shape, Alphabet: a, Cells: cells}, nil
			}
		}
	}
	return nil, firstErr
}

// numericAlphabet is the alphabet of a puzzle written in numbers: value v
// shows as v's digit, then A for 10, B for 11 and so on. A 25x25 whose
// numbers are all 10 or more keeps A-Y, so that its one-line form (all
// letters) reads back the same.
func numericAlphabet(n int, cells []cellTok) Alphabet {
	if n <= 9 || n == 25 && !hasDigitCell(cells) {
		return DefaultAlphabet(n)
	}
	return Alphabet("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n])
}

// defaultAlphabets lists the usual alphabets for n, the likeliest first:
// a 16x16 with a few zeros and no G is in 0-9A-F; a 25x25 with digits is in
// 1-9A-P.
func defaultAlphabets(n int, cells []cellTok) []Alphabet {
	const hex0, hex1 = Alphabet("0123456789ABCDEF"), Alphabet("123456789ABCDEFG")
	const y25, p25 = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXY"), Alphabet("123456789ABCDEFGHIJKLMNOP")
	switch n {
	case 16:
		zeros, blanks, g := 0, 0, false
		for _, t := range cells {
			zeros += parseB2I(t.r == '0')
			blanks += parseB2I(isDefiniteBlank(t.r))
			g = g || t.r == 'G' || t.r == 'g'
		}
		// '0' is a symbol when it appears at most 16 times, there is no G,
		// and something else marks the blanks (or there are none: a
		// solution grid has exactly 16 zeros).
		if zeros > 0 && zeros <= 16 && !g && (blanks > 0 || zeros == 16) {
			return []Alphabet{hex0, hex1}
		}
		return []Alphabet{hex1, hex0}
	case 25:
		if hasDigitCell(cells) {
			return []Alphabet{p25, y25}
		}
		return []Alphabet{y25, p25}
	}
	return []Alphabet{DefaultAlphabet(n)}
}

func parseB2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasDigit reports a digit 1-9 among the cells ('0' is often a blank).
func hasDigitCell(cells []cellTok) bool {
	for _, t := range cells {
		if t.r >= '1' && t.r <= '9' && t.num < 0 || t.num > 0 && t.num <= 9 {
			return true
		}
	}
	return false
}

// customAlphabet returns the alphabet of a puzzle written in its own
// symbols (AELMNOSTW): its n distinct non-digit symbols, sorted, in the case
// the text uses; or the first n letters when the symbols are among them. 'X' is taken as a blank when it is the one symbol too many.
// It returns "" without error when the cells hold digits (a typo in a digit
// puzzle is not an alphabet), and an error when the count is wrong.
func customAlphabet(n int, cells []cellTok) (Alphabet, *ParseError) {
	seen := map[rune]bool{}
	lower, upper := false, false
	for _, t := range cells {
		r := t.r
		if isDefiniteBlank(r) || r == '0' {
			continue
		}
		if unicode.IsDigit(r) {
			return "", nil
		}
		lower = lower || unicode.IsLower(r)
		upper = upper || unicode.IsUpper(r)
		seen[unicode.ToUpper(r)] = true
	}
	if len(seen) == n+1 && seen['X'] {
		delete(seen, 'X')
	}
	if len(seen) < n && firstLetters(seen, n) {
		// Letters from A on, not all given: the alphabet is A, B, C, …
		for r := 'A'; r < 'A'+rune(n); r++ {
			seen[r] = true
		}
	}
	if len(seen) != n {
		syms := sortedSymbols(seen)
		if len(seen) < n {
			return "", &ParseError{Msg: fmt.Sprintf(
				"the puzzle is written in %d different symbols (%s), but a %s puzzle in its own letters needs all %d among its givens",
				len(seen), string(syms), squareName(n), n)}
		}
		return "", &ParseError{Msg: fmt.Sprintf(
			"the puzzle uses %d different symbols (%s), but a %s puzzle has only %d",
			len(seen), string(syms), squareName(n), n)}
	}
	syms := sortedSymbols(seen)
	if lower && !upper {
		for i := range syms {
			syms[i] = unicode.ToLower(syms[i])
		}
	}
	return Alphabet(string(syms)), nil
}

// firstLetters reports whether every symbol is one of the first n capital
// letters.
func firstLetters(set map[rune]bool, n int) bool {
	for r := range set {
		if r < 'A' || r >= 'A'+rune(n) {
			return false
		}
	}
	return len(set) > 0
}

func sortedSymbols(set map[rune]bool) []rune {
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// apply reads every cell with alphabet a.
func applyAlphabet(a Alphabet, n int, cells []cellTok) ([]uint8, *ParseError) {
	out := make([]uint8, len(cells))
	for i, t := range cells {
		if t.num >= 0 {
			if t.num > n {
				return nil, &ParseError{Line: t.line, Col: t.col, Msg: fmt.Sprintf(
					"%s at line %d, column %d is not a %s symbol; write 1 to %d, and 0 or '.' for an empty cell",
					t.text, t.line, t.col, squareName(n), n)}
			}
			out[i] = uint8(t.num)
			continue
		}
		if isDefiniteBlank(t.r) {
			continue
		}
		if v := a.Value(t.r); v > 0 {
			out[i] = uint8(v)
			continue
		}
		if isSoftBlank(t.r) {
			continue
		}
		return nil, &ParseError{Line: t.line, Col: t.col, Msg: fmt.Sprintf(
			"%s at line %d, column %d is not a %s symbol; use %s, and '.' or '0' for an empty cell",
			quoteCell(t.r), t.line, t.col, squareName(n), describeAlphabet(a))}
	}
	return out, nil
}

func quoteCell(r rune) string {
	if unicode.IsPrint(r) && r != '\'' {
		return "'" + string(r) + "'"
	}
	return strconv.QuoteRune(r)
}

func squareName(n int) string { return fmt.Sprintf("%dx%d", n, n) }

// describeAlphabet names an alphabet compactly: "1-9", "1-9 and A-G", or the
// symbols themselves.
func describeAlphabet(a Alphabet) string {
	rs := []rune(string(a))
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, string(rs[i]))
		case j-i >= 2:
			parts = append(parts, string(rs[i])+"-"+string(rs[j]))
		default:
			parts = append(parts, string(rs[i:j+1]))
		}
		i = j + 1
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// ---------------------------------------------------------------------------
// Errors.

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
