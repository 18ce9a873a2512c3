package sudoku

// Tokenising: each line of a paste read as characters, words, numbers,
// tab-separated fields, and a row label.

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	fields   []cellTok // the fields between tabs, ';' or ',', "" read as an empty cell; nil without them

	fieldsTrail bool      // the line ends with the separator: one field too many, or an empty last cell
	fieldsLead  bool      // the line starts with the separator: one field too many, or an empty first cell
	fieldsEnds  fieldEnds // which end of a line of fields the paste's lines show to be a separator

	// blankWords reads every word as one cell, a run of one blank marker
	// ("__", "--") being one empty cell; nil unless the line has such runs.
	blankWords    []cellTok
	labelWords    int  // how many entries of blankWords the label takes
	blankWordsNum bool // blankWords holds a two-digit number

	bare *pline // the line without the prose at its ends; nil when it has none

	words   []pasteWord
	chatter bool // reads like prose, not like a row
}

func splitPasteLines(text string) []*pline {
	raw := strings.Split(text, "\n")
	lines := make([]*pline, 0, len(raw))
	for i, s := range raw {
		lines = append(lines, newLine(i+1, strings.TrimRight(s, "\r")))
	}
	settleFieldEnds(lines)
	return lines
}

func newLine(no int, s string) *pline {
	l := readLine(no, cleanRunes(s))
	if l.kind == lineText && l.mayHaveAside() {
		l.bare = l.withoutProseEnds()
	}
	return l
}

// readLine reads a line whose runes are already cleaned.
func readLine(no int, rs []rune) *pline {
	l := &pline{no: no, runes: rs}
	l.classify()
	if l.kind == lineBlank || l.kind == lineRule {
		return l
	}
	l.readChars()
	l.readNumbers()
	l.readFields()
	l.findLabel()
	l.readBlankWords()
	return l
}

// fieldEnds says which end of a line of fields holds no cell when the line
// has one field too many.
type fieldEnds uint8

const (
	endsEither fieldEnds = iota // the lines don't say: the empty end, the last if both are
	endsFirst                   // ";5;3;;;7;;;;": a separator opens every line
	endsLast                    // "5;3;;;7;;;;;": a separator closes every line
)

// settleFieldEnds decides which end of the lines of fields is a separator,
// by the lines that show it (an empty field at one end only, the other a
// cell), the most of them winning. A line whose ends are both empty follows
// them, and a line that shows the other end is taken as it is written.
func settleFieldEnds(lines []*pline) {
	lead, trail := 0, 0
	for _, l := range lines {
		switch {
		case l.fieldsLead && !l.fieldsTrail:
			lead++
		case l.fieldsTrail && !l.fieldsLead:
			trail++
		}
	}
	ends := endsEither
	switch {
	case lead > trail:
		ends = endsFirst
	case trail > lead:
		ends = endsLast
	}
	for _, l := range lines {
		l.fieldsEnds = ends
		if l.bare != nil {
			l.bare.fieldsEnds = ends
		}
	}
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
	unbold(rs)
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

// unbold blanks Markdown's bold and underline marks around a word
// ("| **A** | 5 |", "__7__"): two '*' or '_' between a space, a bar or the
// line's end and a word without spaces, bars or marks, and two more after
// it. Runs of '*' or '_' standing for empty cells ("53**7****") are left
// alone, being next to other cells.
func unbold(rs []rune) {
	edge := func(i int) bool { return i < 0 || i >= len(rs) || rs[i] == ' ' || rs[i] == '|' }
	for i := 0; i+1 < len(rs); i++ {
		m := rs[i]
		if m != '*' && m != '_' || rs[i+1] != m || !edge(i-1) {
			continue
		}
		j := i + 2
		for j < len(rs) && !edge(j) && rs[j] != m {
			j++
		}
		if j == i+2 || j+1 >= len(rs) || rs[j] != m || rs[j+1] != m || !edge(j+2) {
			continue
		}
		rs[i], rs[i+1], rs[j], rs[j+1] = ' ', ' ', ' ', ' '
		i = j + 1
	}
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
	var seps [3]int // tabs, semicolons, commas
	for i, r := range l.runes {
		switch r {
		case '\t':
			seps[0]++
		case ';':
			seps[1]++
		case ',':
			seps[2]++
		}
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
	case dashes > 0 || bars > 1 || max(seps[0], seps[1], seps[2]) >= 3:
		// A row of empty fields (";;;;;;;;") is a row of empty cells.
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
	if end < len(cells)-1 && cellText(cells[end:]) != strings.Repeat("!", len(cells)-end) {
		// Several trailing dots: blanks of a puzzle, not punctuation
		// ("thanks!!" is prose).
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

// readFields reads a row exported from a spreadsheet: cells between tabs,
// semicolons or commas (the first of them the line has three of), an empty
// field being an empty cell ("5,3,,,7,,,,").
func (l *pline) readFields() {
	tabs, semis, commas := 0, 0, 0
	for _, r := range l.runes {
		switch r {
		case '\t':
			tabs++
		case ';':
			semis++
		case ',':
			commas++
		}
	}
	var sep rune
	switch {
	case tabs >= 3:
		sep = '\t'
	case semis >= 3:
		sep = ';'
	case commas >= 3:
		sep = ','
	default:
		return
	}
	end := len(l.runes)
	for end > 0 && unicode.IsSpace(l.runes[end-1]) && l.runes[end-1] != sep {
		end--
	}
	// A separator after a closing bracket ("[5,3,null,…],") is between
	// rows, not before an empty cell.
	for k := end; k > 0; k-- {
		r := l.runes[k-1]
		if r == ']' || r == '}' || r == ')' {
			end = k
			break
		}
		if r != sep && !unicode.IsSpace(r) {
			break
		}
	}
	trail := end > 0 && l.runes[end-1] == sep
	begin := 0
	for begin < end && unicode.IsSpace(l.runes[begin]) && l.runes[begin] != sep {
		begin++
	}
	lead := begin < end && l.runes[begin] == sep
	out := make([]cellTok, 0, 16)
	start := 0
	for i := 0; i <= end; i++ {
		if i < end && l.runes[i] != sep {
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
		case len(field) == 0 || isNullWord(string(field)) || isBlankRun(field):
			// An empty cell: nothing, null, None, "__".
		case len(field) == 1:
			t.r = field[0]
		case len(field) == 2 && allDigits(string(field)):
			t.text, t.r = string(field), field[0]
			t.num, _ = strconv.Atoi(t.text)
		default:
			return
		}
		out = append(out, t)
		start = i + 1
	}
	l.fields, l.fieldsLead, l.fieldsTrail = out, lead, trail
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
	if l.fieldsLead {
		// ";5;3;;;7": the first cell, after an opening separator.
		return
	}
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
	case len(w) >= 2 && len(w) <= 3 && w[len(w)-1] == '.' && allDigits(w[:len(w)-1]):
		// "1. 5 3 . | …": a numbered list, as Markdown writes one.
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

// isNullWord reports how code writes a missing value, which a grid exported
// from a program uses for an empty cell: JSON's null, Python's None, Go's nil.
func isNullWord(w string) bool {
	switch w {
	case "null", "NULL", "Null", "None", "nil":
		return true
	}
	return false
}

// isBlankRun reports a run of two or more of one blank marker ("__", "--",
// ".."), written for one empty cell.
func isBlankRun(w []rune) bool {
	if len(w) < 2 || !isDefiniteBlank(w[0]) {
		return false
	}
	for _, r := range w[1:] {
		if r != w[0] {
			return false
		}
	}
	return true
}

// blankRunOf returns the marker of a word that is a run of one blank marker
// ("__"), and 0 for any other word.
func blankRunOf(w string) rune {
	first, size := utf8.DecodeRuneInString(w)
	if len(w) == size || !isDefiniteBlank(first) {
		return 0
	}
	for _, r := range w[size:] {
		if r != first {
			return 0
		}
	}
	return first
}

// readBlankWords reads a row whose empty cells are written as runs of one
// blank marker ("5 3 __ __ 7 __ __ __ __"), every word one cell: when the
// line has such runs, all of the same length and marker, and that marker
// stands nowhere alone ("5 3 .. . 7" is a typo, not this).
func (l *pline) readBlankWords() {
	if l.kind == lineMaybe && len(l.bars) > 0 {
		// "|---|---|---|": a table's rule, not blank cells.
		return
	}
	run := ""
	for _, t := range l.wordToks {
		if len(t.text) < 2 || blankRunOf(t.text) == 0 {
			continue
		}
		if run == "" {
			run = t.text
		} else if t.text != run {
			return
		}
	}
	if run == "" {
		return
	}
	marker, _ := utf8.DecodeRuneInString(run)
	out := make([]cellTok, 0, len(l.wordToks))
	labelWords := 0
	for _, t := range l.wordToks {
		label := t.col-1 < l.labelEnd // "A", "11", "Row 1"
		switch {
		case t.text == run:
			t.text, t.r = "", marker
		case utf8.RuneCountInString(t.text) == 1 && t.r != marker:
			t.text = ""
		case len(t.text) == 2 && allDigits(t.text):
			t.num, _ = strconv.Atoi(t.text) // "10" in a 16x16
			l.blankWordsNum = true
		case !label:
			return
		}
		if label {
			labelWords++
		}
		out = append(out, t)
	}
	l.blankWords, l.labelWords = out, labelWords
}
