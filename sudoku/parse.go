package sudoku

import (
	"fmt"
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
//     '?'), alone or inside a sentence, or wrapped over several lines, or
//     as 81 digits and dots inside a link ("sudoku.htm?bd=5300…");
//   - rows of cells with or without spaces, commas, brackets
//     ([[5,3,0,…],…]), quotes or C/Go initialisers (the dimensions in
//     "char p[9][9] =" are not cells);
//   - spreadsheet exports: cells between tabs, semicolons or commas, an
//     empty field being an empty cell ("5,3,,,7,,,,", a line of only
//     separators a row of empty cells), with or without a separator
//     opening or closing every line (";5;3;;;7;;;;");
//   - null, None or nil for an empty cell, as code writes a grid
//     ([[5,3,null,…],…]), and a run of one blank marker for one empty cell
//     ("5 3 __ __ 7 __ __ __ __");
//   - newspaper grids whose empty cells are spaces, the cells lined up in
//     columns ("5 3     7"), padded or not, with wider gaps or blank lines
//     between boxes;
//   - grids drawn with '|', '+', '-', '=', ':', '*' or box-drawing
//     characters (QQWing, Simple Sudoku .ss, .sdk, Markdown tables),
//     including grids whose empty cells are spaces between bars;
//   - rows written as a bulleted list ("- 5 3 . | …", '*', '•', '+');
//   - rows labelled A–I, 1–9, "1." (a numbered list) or "Row 1:", the
//     label before the row or in a table's first column ("| A | 5 | 3 |   |"),
//     under a header of column names;
//   - pencil-mark grids as HoDoKu, Sudoku Explainer, Simple Sudoku,
//     SudokuWiki and forum posts write them: a cell is a symbol or a run of
//     candidates ("158"), written "(5)" when one is left; frames of dots,
//     colons, apostrophes, '*', '+', '-' and bars, row and column labels,
//     and HoDoKu's step markers ('*', '-') are read past. The grid's Marks then hold the
//     candidates of each empty cell, and a lone symbol is a placed digit
//     unless a peer still lists it as a candidate (then it is an empty cell
//     with one candidate left) or it is written "[5]";
//   - HoDoKu's library format (":0100:1:<givens, '+' before a placed
//     digit>:<deleted candidates>:…"), candidates into Marks;
//   - code fences, Discord spoiler bars, Markdown bold around a label
//     ("**A**"), keycap emoji with white, black or coloured squares for
//     blanks, fullwidth digits, and chatter above, below or around the grid,
//     or on a row's own line ("help: 5 3 0 …", "… 7 9 <- stuck here",
//     "000080079 thanks!!"), where words, arrows and emoji at either end
//     are left out when what remains makes a row of the grid;
//   - 4x4 to 25x25 (box shape from the separators, else the usual one);
//     16x16 in 1-9A-G or 0-9A-F, 25x25 in A-Y or 1-9A-P, and both written as
//     numbers (10 11 … 25, 0 for blank);
//   - a puzzle in its own N letters (AELMNOSTW), which keeps them, sorted,
//     as its alphabet.
//
// Where the text could be read in more than one way, the reading whose
// counts make a whole grid wins: a line of dashes is a row of blanks only if
// the grid is a row short, "1 2 3 4 5 6 7 8 9" is a header only if there is
// a row too many; when two readings of the same lines make grids, the one
// with fewer clashes wins (a header and numbered rows read as a 10x10 make
// many). Input longer than MaxInputBytes is refused.
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
	g, perr := p.run()
	if perr != nil {
		// Rows written as a bulleted list ("- 5 3 . | . 7 . | …"): the
		// marks read as cells at first, since '-' and '*' mark blanks.
		if rest, ok := unbullet(text); ok {
			q := pasteParser{lines: splitPasteLines(rest), opts: opts}
			if g, err := q.run(); err == nil {
				return g, nil
			}
		}
	}
	return g, perr
}

// unbullet takes the list marks ("- ", "* ", "• ", "+ ") off the start of
// every line that is not blank, when every such line has one.
func unbullet(text string) (string, bool) {
	lines := strings.Split(text, "\n")
	n := 0
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.TrimSpace(t) == "" {
			continue
		}
		rest, ok := "", false
		for _, m := range []string{"- ", "* ", "• ", "+ "} {
			if r, found := strings.CutPrefix(t, m); found {
				rest, ok = r, true
				break
			}
		}
		if !ok {
			return "", false
		}
		lines[i] = strings.Repeat(" ", len(l)-len(t)+2) + rest
		n++
	}
	return strings.Join(lines, "\n"), n > 0
}

const emptyMessage = "there is no puzzle in the text: paste the grid as 81 characters on one line " +
	"(digits, with '.' or '0' for empty cells) or as 9 rows of 9"

func checkOptions(opts ParseOptions) *ParseError {
	if opts.Shape != (Shape{}) && !opts.Shape.Valid() {
		return &ParseError{Msg: fmt.Sprintf("box shape %dx%d is not a playable Sudoku shape: boxes hold 4 to 25 cells and are at least 2 wide or tall (2x2, 2x3, 3x3 …)", opts.Shape.BoxRows, opts.Shape.BoxCols)}
	}
	if opts.Alphabet == "" {
		return nil
	}
	n := opts.Alphabet.Len()
	if opts.Shape != (Shape{}) && n != opts.Shape.N() {
		return &ParseError{Msg: fmt.Sprintf("the alphabet %q has %d symbols but %s puzzle needs %d: give one symbol per value", string(opts.Alphabet), n, aSquare(opts.Shape.N()), opts.Shape.N())}
	}
	if _, ok := ShapeFor(n); !ok && opts.Shape == (Shape{}) {
		return &ParseError{Msg: fmt.Sprintf("the alphabet %q has %d symbols; no Sudoku has that many: give 4 to 25 symbols", string(opts.Alphabet), n)}
	}
	seen := map[rune]bool{}
	for _, r := range string(opts.Alphabet) {
		u := unicode.ToUpper(r)
		if seen[u] || isDefiniteBlank(r) || isDecoration(r) {
			return &ParseError{Msg: fmt.Sprintf("the alphabet %q repeats %q or uses it although it marks an empty cell: give each symbol once, and none of . - _ * ?", string(opts.Alphabet), r)}
		}
		seen[u] = true
	}
	return nil
}
