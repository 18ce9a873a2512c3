package sudoku

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parseCase is one file of testdata/parse: a pasted text and the grid it
// must read as.
type parseCase struct {
	input    string
	shape    string // "3x3": box rows x box columns
	alphabet string
	grid     string // the one-line form
	marks    string // the candidates of each cell, see marksText; "" for none
}

func readParseCase(t *testing.T, path string) parseCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	const in, want = "-- input --\n", "\n-- want --\n"
	i, j := strings.Index(s, in), strings.LastIndex(s, want)
	if i != 0 || j < 0 {
		t.Fatalf("%s: want sections %q and %q", path, in, want)
	}
	c := parseCase{input: s[len(in) : j+1]}
	for _, line := range strings.Split(strings.TrimSpace(s[j+len(want):]), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "shape":
			c.shape = val
		case "alphabet":
			c.alphabet = val
		case "grid":
			c.grid = val
		case "marks":
			c.marks = val
		default:
			t.Fatalf("%s: unknown key %q in want section", path, key)
		}
	}
	return c
}

// marksText writes a grid's pencil marks as one word per cell, the
// candidates in order or '.' for none, and "" when the grid has none.
func marksText(g *Grid) string {
	if !hasMarks(g) {
		return ""
	}
	words := make([]string, len(g.Cells))
	for i, m := range g.Marks {
		words[i] = "."
		if g.Cells[i] == 0 && m != 0 {
			words[i] = sortedMarks(g.Alphabet, m, g.N())
		}
	}
	return strings.Join(words, " ")
}

func shapeText(s Shape) string { return fmt.Sprintf("%dx%d", s.BoxRows, s.BoxCols) }

// TestParseSamples reads every sample under testdata/parse: real-world
// layouts people paste, each with the grid it stands for.
func TestParseSamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found %d samples, want at least 50", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			c := readParseCase(t, f)
			g, err := Parse(c.input)
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", c.input, err)
			}
			if got := shapeText(g.Shape); got != c.shape {
				t.Errorf("Parse(%q).Shape = %s, want %s", c.input, got, c.shape)
			}
			if string(g.Alphabet) != c.alphabet {
				t.Errorf("Parse(%q).Alphabet = %q, want %q", c.input, g.Alphabet, c.alphabet)
			}
			if got := g.String(); got != c.grid {
				t.Errorf("Parse(%q) =\n%s\nwant\n%s", c.input, got, c.grid)
			}
			if got := marksText(g); got != c.marks {
				t.Errorf("Parse(%q) marks\n%s\nwant\n%s", c.input, got, c.marks)
			}
			// What Parse returns must read back to itself.
			back, err := Parse(g.String())
			if err != nil || back.String() != g.String() {
				t.Errorf("Parse(%q) = %v, %v; want the same grid back", g.String(), back, err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	rows := []string{
		"5 3 . | . 7 . | . . .",
		"6 . . | 1 9 5 | . . .",
		". 9 8 | . . . | . 6 .",
		"8 . . | . 6 . | . . 3",
		"4 . . | 8 . 3 | . . 1",
		"7 . . | . 2 . | . . 6",
		". 6 . | . . . | 2 8 .",
		". . . | 4 1 9 | . . 5",
		". . . | . 8 . | . 7 9",
	}
	with := func(i int, row string) string {
		r := append([]string(nil), rows...)
		r[i] = row
		return strings.Join(r, "\n")
	}
	labelled := func(i int, row string) string {
		r := make([]string, len(rows))
		for k := range rows {
			r[k] = string(rune('A'+k)) + " | " + rows[k]
		}
		r[i] = row
		return strings.Join(r, "\n")
	}
	tests := []struct {
		name      string
		input     string
		opts      ParseOptions
		line, col int
		want      []string // every one must appear in the message
	}{
		{"empty", "", ParseOptions{}, 0, 0, []string{"no puzzle", "81 characters"}},
		{"spaces only", "  \n\t\n ", ParseOptions{}, 0, 0, []string{"no puzzle"}},
		{"fence only", "```\n```", ParseOptions{}, 0, 0, []string{"no puzzle"}},
		{"prose only", "hello bot, how are you doing today?", ParseOptions{}, 0, 0, []string{"no puzzle"}},
		{"80 cells", p[:80], ParseOptions{}, 1, 0, []string{"found 80 cells; a 9x9 puzzle has 81"}},
		{"82 cells", p + "1", ParseOptions{}, 1, 0, []string{"found 82 cells; a 9x9 puzzle has 81"}},
		{"80 cells after prose", "solve this pls\n" + p[:80], ParseOptions{}, 2, 0, []string{"found 80 cells"}},
		{"80 cells on a line with prose", "solve this: " + p[:80], ParseOptions{}, 1, 0, []string{"found 80 cells"}},
		{"too many cells", strings.Repeat("1", 700), ParseOptions{}, 1, 0, []string{"found 700 cells", "25x25"}},
		{"short row", with(3, "8 . . | . 6 . | . 3"), ParseOptions{}, 4, 0, []string{"row 4 (line 4) has 8 cells, expected 9"}},
		{"long row", with(6, ". 6 . | . . . | 2 8 . 1"), ParseOptions{}, 7, 0, []string{"row 7 (line 7) has 10 cells, expected 9"}},
		{"spaces for blanks", with(0, "5 3   |   7   |"), ParseOptions{}, 1, 0, []string{"row 1 (line 1) has 3 cells, expected 9", "write them as '.' or '0'"}},
		{"short row of spaced digits", strings.Join([]string{"5 3 4 6 7 8 9 1 2", "6 7 2 1 9 5 3 4 8", "1 9 8 3 4 2 5 6 7", "8 5 9 7 6 1 4 2 3", "4 2 6 8 5 3 7 9", "7 1 3 9 2 4 8 5 6", "9 6 1 5 3 7 2 8 4", "2 8 7 4 1 9 6 3 5", "3 4 5 2 8 6 1 7 9"}, "\n"), ParseOptions{}, 5, 0, []string{"row 5 (line 5) has 8 cells, expected 9", "write every cell"}},
		{"short row of spaced dots", strings.Join(append([]string{"5 3 . . 7 . . ."}, rows2spaced()[1:]...), "\n"), ParseOptions{}, 1, 0, []string{"row 1 (line 1) has 8 cells, expected 9"}},
		{"newspaper rows out of line", "5 3     7\n6     1 9 5\n  9 8         6\n8       6       3\n4     8   3     1\n7       2       6\n  6         2 8\n       4 1 9     5\n        8     7 9", ParseOptions{}, 1, 0, []string{"row 1 (line 1) has 3 cells, expected 9", "don't line up in columns"}},
		{"short labelled row", "    1 2 3   4 5 6   7 8 9\n" + labelled(4, "E | 4 . . | 8 . 3 | . ."), ParseOptions{}, 6, 0, []string{"row 5 (line 6) has 8 cells, expected 9"}},
		{"eight rows", strings.Join(rows[:8], "\n"), ParseOptions{}, 1, 0, []string{"found 8 rows of 9 cells (lines 1 to 8); a 9x9 puzzle has 9 rows", "paste all of them"}},
		{"five cells", "12345", ParseOptions{}, 1, 0, []string{"found 5 cells, which is no puzzle's size", "16 (4x4)", "81 (9x9)", "625 (25x25)"}},
		{"one short of 8x8", strings.Repeat("12345678", 8)[:63], ParseOptions{}, 1, 0, []string{"found 63 cells; an 8x8 puzzle has 64, so one is missing"}},
		{"79 cells", p[:79], ParseOptions{}, 1, 0, []string{"found 79 cells; a 9x9 puzzle has 81, so some are missing"}},
		{"mixed labels", labelled(8, rows[8]), ParseOptions{}, 1, 0, []string{"found 9 rows of 9 cells (lines 1 to 9), but only 8 of them start with a row label", "label every row or none"}},
		{"pencil-mark row short", pmGrid(3, "| 8    125   1259  | 579   6   147  | 4579   2459  |"), ParseOptions{}, 6, 0, []string{"row 4 (line 6) of the pencil-mark grid has 8 cells, expected 9", "candidates run together"}},
		{"pencil-mark bad candidate", pmGrid(4, "| 4    25    2569  | 8     5   3    | 579    2x9   1     |"), ParseOptions{}, 7, 46, []string{`the cell "2x9" at line 7, column 46: 'x' is not a 9x9 symbol`, "candidates (1-9)"}},
		{"pencil-mark repeated candidate", pmGrid(4, "| 4    25    2569  | 8     5   3    | 579    299   1     |"), ParseOptions{}, 7, 46, []string{`the cell "299" at line 7, column 46: '9' is listed twice`}},
		{"library line short", ":0100:1:.+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.:811 515:193::", ParseOptions{}, 1, 9, []string{"HoDoKu library line at line 1 has 80 cells in its givens (from column 9), expected 81"}},
		{"emoji codes are no library line", ":wave: :wave: :wave: solve this\n" + p[:80], ParseOptions{}, 2, 0, []string{"found 80 cells; a 9x9 puzzle has 81"}},
		{"library line bad deletion", ":0100:1:.+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9:811 5150:193::", ParseOptions{}, 1, 112, []string{`"5150" at line 1, column 112 is no deleted candidate`, `"513": 5 out of r1c3`}},
		{"pencil-mark rows missing", strings.Join(strings.Split(pmGrid(-1, ""), "\n")[:8], "\n"), ParseOptions{}, 2, 0, []string{"pencil-mark grid of 6 rows of 9 cells", "paste all of them"}},
		{"bad symbol", with(1, "6 . . | 1 Z 5 | . . ."), ParseOptions{}, 2, 11, []string{"'Z' at line 2, column 11 is not a 9x9 symbol", "1-9"}},
		{"bad symbol one line", p[:10] + "#" + p[11:], ParseOptions{}, 1, 11, []string{"'#' at line 1, column 11 is not a 9x9 symbol"}},
		{"digit too big for 6x6", "123456\n456123\n231564\n564231\n312645\n645317", ParseOptions{}, 6, 6, []string{"'7' at line 6, column 6 is not a 6x6 symbol"}},
		{"number too big", strings.Repeat("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", 15) + "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 17", ParseOptions{}, 16, 37, []string{"17 at line 16", "not a 16x16 symbol"}},
		{"too few letters", strings.Repeat("AELMNOST-", 9), ParseOptions{}, 0, 0, []string{"8 different symbols", "all 9"}},
		{"too many letters", "ABCDEFGHJ" + strings.Repeat("-", 71) + "K", ParseOptions{}, 0, 0, []string{"10 different symbols", "only 9"}},
		{"two puzzles", p + "\n\n" + strings.ReplaceAll(p, "5", "."), ParseOptions{}, 3, 0, []string{"found 2 puzzles", "one puzzle at a time"}},
		{"forced shape", p, ParseOptions{Shape: Shape16}, 1, 0, []string{"found 81 cells; a 16x16 puzzle has 256"}},
		{"bad forced shape", p, ParseOptions{Shape: Shape{1, 1}}, 0, 0, []string{"not a playable"}},
		{"bad alphabet option", p, ParseOptions{Alphabet: "AAB"}, 0, 0, []string{"alphabet"}},
		{"too long", strings.Repeat(p+"\n", 300), ParseOptions{}, 0, 0, []string{"bytes long", "paste only the grid"}},
		{"two puzzles in links", "https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(p, ".", "0") + "\nor https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(strings.ReplaceAll(p, "5", "."), ".", "0"), ParseOptions{}, 2, 0, []string{"found 2 puzzles in links (at lines 1 and 2)", "one puzzle at a time"}},
		{"a long number is no puzzle", "https://example.com/?id=" + strings.Repeat("0", 70) + "12345678901", ParseOptions{}, 1, 1, nil}, // only 11 givens: an error, whatever it says
		{"no sudoku size", "12345\n12345\n12345\n12345\n12345", ParseOptions{}, 1, 0, []string{"5 lines", "25 cells", "9 rows of 9"}},
		// Prose on a row's line is left out of the count; the row is still
		// the one named.
		{"short row after prose", zeros(0, "help: 5 3 0 0 7 0 0 0"), ParseOptions{}, 1, 0, []string{"row 1 (line 1) has 8 cells, expected 9"}},
		{"long row before prose", zeros(8, "0 0 0 0 8 0 0 7 9 1 <- stuck here"), ParseOptions{}, 9, 0, []string{"row 9 (line 9) has 10 cells, expected 9", "remove the extra cells"}},
		{"word inside a row", zeros(4, "4 0 0 8 0 3 0 0 1 hmm 7"), ParseOptions{}, 5, 0, []string{"row 5 (line 5) has 10 cells, expected 9"}},
		{"short row of __ blanks", strings.Join([]string{"5 3 __ __ 7 __ __ __ __", "6 __ __ 1 9 5 __ __ __", "__ 9 8 __ __ __ __ 6 __", "8 __ __ __ 6 __ __ __", "4 __ __ 8 __ 3 __ __ 1", "7 __ __ __ 2 __ __ __ 6", "__ 6 __ __ __ __ 2 8 __", "__ __ __ 4 1 9 __ __ 5", "__ __ __ __ 8 __ __ 7 9"}, "\n"), ParseOptions{}, 4, 0, []string{"row 4 (line 4) has 8 cells, expected 9"}},
		{"short row of nulls", "[\n[5,3,null,null,7,null,null,null,null],\n[6,null,null,1,9,5,null,null,null],\n[null,9,8,null,null,null,6,null],\n[8,null,null,null,6,null,null,null,3],\n[4,null,null,8,null,3,null,null,1],\n[7,null,null,null,2,null,null,null,6],\n[null,6,null,null,null,null,2,8,null],\n[null,null,null,4,1,9,null,null,5],\n[null,null,null,null,8,null,null,7,9]\n]", ParseOptions{}, 4, 0, []string{"row 3 (line 4) has 8 cells, expected 9"}},
		{"short row of fields", "5;3;;;7;;;;\n6;;;1;9;5;;;\n;9;8;;;;;6;\n8;;;;6;;;;3\n4;;;8;;3;;\n7;;;;2;;;;6\n;6;;;;;2;8;\n;;;4;1;9;;;5\n;;;;8;;;7;9", ParseOptions{}, 5, 0, []string{"row 5 (line 5) has 8 cells, expected 9"}},
		{"short row of a 16x16 in numbers", strings.Replace(numbers16, "\n 6  0  0  0  0 11", "\n 6  0  0  0 11", 1), ParseOptions{}, 6, 0, []string{"row 6 (line 6) has 15 cells, expected 16"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseWith(tt.input, tt.opts)
			if err == nil {
				t.Fatalf("ParseWith(%q) = %v, want an error", tt.input, g)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseWith(%q) error %T %v, want *ParseError", tt.input, err, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(pe.Msg, w) {
					t.Errorf("ParseWith(%q) error %q, want it to contain %q", tt.input, pe.Msg, w)
				}
			}
			if pe.Line != tt.line || pe.Col != tt.col {
				t.Errorf("ParseWith(%q) error at line %d, column %d, want %d, %d (%s)", tt.input, pe.Line, pe.Col, tt.line, tt.col, pe.Msg)
			}
			if strings.Contains(strings.ToLower(pe.Msg), "invalid") {
				t.Errorf("ParseWith(%q) error %q says 'invalid'; say what is wrong instead", tt.input, pe.Msg)
			}
		})
	}
}

// zeros is the classic puzzle as 9 rows of digits and zeros between
// spaces, row i (0-based) replaced by row.
func zeros(i int, row string) string {
	rows := rows2spaced()
	for k := range rows {
		rows[k] = strings.ReplaceAll(rows[k], ".", "0")
	}
	rows[i] = row
	return strings.Join(rows, "\n")
}

// numbers16 is a 16x16 written in numbers, 0 for an empty cell.
const numbers16 = ` 1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16
 0  0  0  0  9  0  0  0  0 14  0  0  0  0  3  0
 0  0  0 12  0  0  0  0  1  0  0  0  0  6  0  0
13 14 15 16  1  2  3  4  5  6  7  8  9 10 11 12
 0  3  0  0  0  0  8  0  0  0  0 13  0  0  0  0
 6  0  0  0  0 11  0  0  0  0 16  0  0  0  0  5
10 11 12 13 14 15 16  1  2  3  4  5  6  7  8  9
 0  0  0  1  0  0  0  0  6  0  0  0  0 11  0  0
 0  0  5  0  0  0  0 10  0  0  0  0 15  0  0  0
 7  8  9 10 11 12 13 14 15 16  1  2  3  4  5  6
11  0  0  0  0 16  0  0  0  0  5  0  0  0  0 10
 0  0  0  0  3  0  0  0  0  8  0  0  0  0 13  0
 4  5  6  7  8  9 10 11 12 13 14 15 16  1  2  3
 0  0 10  0  0  0  0 15  0  0  0  0  4  0  0  0
 0 13  0  0  0  0  2  0  0  0  0  7  0  0  0  0
16  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15`

// rows2spaced is the classic puzzle as 9 rows of cells with one space
// between them.
func rows2spaced() []string {
	const p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	var out []string
	for r := 0; r < 9; r++ {
		out = append(out, strings.Join(strings.Split(p[r*9:r*9+9], ""), " "))
	}
	return out
}

// pmGrid is a HoDoKu pencil-mark grid with row i (0-based, frames not
// counted) replaced by row, or unchanged for i < 0.
func pmGrid(i int, row string) string {
	lines := []string{
		".------------------.----------------.---------------------.",
		"| 5    3     124   | 26    7   2468 | 1489   1249  248   |",
		"| 6    247   247   | 1     9   5    | 3478   234   2478  |",
		"| 12   9     8     | 23    34  24   | 13457  6     247   |",
		":------------------+----------------+---------------------:",
		"| 8    125   1259  | 579   6   147  | 4579   2459  3     |",
		"| 4    25    2569  | 8     5   3    | 579    259   1     |",
		"| 7    15    1359  | 59    2   14   | 4589   459   6     |",
		":------------------+----------------+---------------------:",
		"| 139  6     13457 | 357   35  7    | 2      8     4     |",
		"| 23   278   237   | 4     1   9    | 36     3     5     |",
		"| 123  1245  12345 | 2356  8   26   | 1346   7     9     |",
		"'------------------'----------------'---------------------'",
	}
	if i >= 0 {
		lines[1+i+i/3] = row
	}
	return strings.Join(lines, "\n")
}

func TestParseOptions(t *testing.T) {
	const p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	t.Run("forced shape", func(t *testing.T) {
		six := "123456\n456123\n231564\n564231\n312645\n645312"
		g, err := ParseWith(six, ParseOptions{Shape: Shape{3, 2}})
		if err != nil {
			t.Fatalf("ParseWith(%q, 3x2) error: %v", six, err)
		}
		if g.Shape != (Shape{3, 2}) {
			t.Errorf("ParseWith(%q, 3x2).Shape = %v, want 3x2 boxes", six, g.Shape)
		}
	})
	t.Run("alphabet with missing letter", func(t *testing.T) {
		// Only eight letters appear, so Parse can't know the ninth; the
		// option supplies it.
		in := strings.NewReplacer("1", "A", "2", "E", "3", "L", "4", "M", "5", "N", "6", "O", "7", "S", "8", "T", "9", ".").Replace(p)
		g, err := ParseWith(in, ParseOptions{Alphabet: "AELMNOSTW"})
		if err != nil {
			t.Fatalf("ParseWith(%q) error: %v", in, err)
		}
		if g.Alphabet != "AELMNOSTW" || g.String() != in {
			t.Errorf("ParseWith(%q) = %q in %q, want the same text in AELMNOSTW", in, g.String(), g.Alphabet)
		}
	})
	t.Run("unsorted alphabet", func(t *testing.T) {
		g, err := ParseWith(p, ParseOptions{Alphabet: "987654321"})
		if err != nil {
			t.Fatal(err)
		}
		if g.Get(0, 0) != 5 || g.Get(0, 1) != 7 {
			t.Errorf("ParseWith(%q, alphabet 987654321) starts %d %d, want 5 7", p, g.Get(0, 0), g.Get(0, 1))
		}
	})
}

// TestParseAmbiguity pins down how counting settles readings that could go
// either way.
func TestParseAmbiguity(t *testing.T) {
	const p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	tests := []struct {
		name, input, want string
	}{
		{"dash line is a separator when nine rows exist", "53.|.7.|...\n6..|195|...\n.98|...|.6.\n---|---|---\n8..|.6.|..3\n4..|8.3|..1\n7..|.2.|..6\n---|---|---\n.6.|...|28.\n...|419|..5\n...|.8.|.79", p},
		{"dash line is a row when eight rows exist", "53.|.7.|...\n6..|195|...\n.98|...|.6.\n---|---|---\n8..|.6.|..3\n4..|8.3|..1\n7..|.2.|..6\n.6.|...|28.\n...|419|..5\n", p[:27] + "........." + p[27:72]},
		{"header of 1-9 dropped when there are ten lines", "123456789\n" + strings.Join(splitN(p, 9), "\n"), p},
		{"first row 1-9 kept when there are nine lines", strings.Join(append([]string{"123456789"}, splitN(p, 9)[1:]...), "\n"), "123456789" + p[9:]},
		{"zeros in a 16x16 with G are blanks", strings.Repeat("0", 255) + "G", strings.Repeat(".", 255) + "G"},
		{"few zeros and no G make 0-9A-F", "0123456789ABCDEF" + strings.Repeat(".", 240), "0123456789ABCDEF" + strings.Repeat(".", 240)},
		{"fence and puzzle on one line", "```" + strings.ReplaceAll(p, ".", "0") + "```", p},
		{"opening fence then the puzzle", "```" + strings.ReplaceAll(p, ".", "0") + "\n```", p},
		{"fence with a tag", "```sudoku\n" + p + "\n```", p},
		{"fullwidth digits", strings.NewReplacer("5", "５", "3", "３", ".", "．").Replace(p), p},
		{"few zeros, no G, no other blanks: zeros are blanks", "123456789ABCDEF0" + strings.Repeat("1", 240), "123456789ABCDEF." + strings.Repeat("1", 240)},
		{"letters from A, one missing", "ABC.\n.CAB\nB...\nCBA.", "ABC..CABB...CBA."},
		{"x is blank in 9x9", strings.ReplaceAll(p, ".", "x"), p},
		{"x is a symbol in A-Y", "X" + strings.Repeat(".", 624), "X" + strings.Repeat(".", 624)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Parse(tt.input)
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tt.input, err)
			}
			if got := g.String(); got != tt.want {
				t.Errorf("Parse(%q) =\n%s\nwant\n%s", tt.input, got, tt.want)
			}
		})
	}
}

func splitN(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// BenchmarkParse measures Parse on typical pastes and on the largest input
// it accepts. Run: go test ./sudoku -run '^$' -bench Parse -cpu 1 -count 5
func BenchmarkParse(b *testing.B) {
	sample := func(name string) string {
		c := readParseCase(&testing.T{}, filepath.Join("testdata", "parse", name+".txt"))
		return c.input
	}
	inputs := []struct{ name, text string }{
		{"oneline9", sample("oneline_dots")},
		{"boxed9", sample("labels_letters_header_numbers")},
		{"chatter9", sample("chatter_around_fenced_grid")},
		{"pencilmarks9", sample("hodoku_pencilmarks")},
		{"numbers16", sample("numbers_16x16")},
		{"grid25", sample("grid_25x25")},
		{"junk20k", strings.Repeat("1 2 3 | 4 5\n", MaxInputBytes/12)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				Parse(in.text)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "parses/s")
		})
	}
}

// TestPlainLine9MatchesGeneralReader: the shortcut for 81-character lines
// reads them exactly as the general reader does, and leaves everything else
// to it.
func TestPlainLine9MatchesGeneralReader(t *testing.T) {
	const puz = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	lines := []string{
		puz,
		strings.ReplaceAll(puz, ".", "0"),
		"  " + puz + "\n",
		strings.Repeat(".", 81),
		strings.Repeat("1", 81),
		"417369825632158947958724316825437169791586432346912758289643571573291684164875293",
	}
	lines = append(lines, sample(mustLoadPuzzles(t, "top1465.txt.gz"), 300)...)
	for _, line := range lines {
		g, ok := parsePlainLine9(line)
		if !ok {
			t.Fatalf("parsePlainLine9(%q) refused a plain line", line)
		}
		want, perr := parsePaste(line, ParseOptions{})
		if perr != nil {
			t.Fatalf("parsePaste(%q): %v", line, perr)
		}
		if !g.Equal(want) || g.Alphabet != want.Alphabet || g.Shape != want.Shape {
			t.Errorf("parsePlainLine9(%q) = %v %q, the general reader gives %v %q", line, g, g.Alphabet, want, want.Alphabet)
		}
	}
	for _, line := range []string{puz[:80], puz + ".", "x" + puz[1:], "AELMNOSTW" + puz[9:], puz[:40] + " " + puz[40:]} {
		if _, ok := parsePlainLine9(line); ok {
			t.Errorf("parsePlainLine9(%q) accepted a line that is not 81 digits and dots", line)
		}
	}
}

// TestUnbold: Markdown's bold and underline marks around a word are
// blanked, at their columns; runs of '*' or '_' that stand for empty cells
// are not.
func TestUnbold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"| **A** | 5 |", "|   A   | 5 |"},
		{"**1** **2**", "  1     2  "},
		{"__7__ 3", "  7   3"},
		{"53**7****6", "53**7****6"},       // blanks among cells
		{"5 3 ** 7 **", "5 3 ** 7 **"},     // a blank cell written "**"
		{"**7** *", "  7   *"},             // closed, then a lone blank
		{"**7*", "**7*"},                   // not closed
		{"| __A_ |", "| __A_ |"},           // not closed either
		{"**7**6", "**7**6"},               // the closing marks touch a cell
		{"|**A**|**5**|", "|  A  |  5  |"}, // between bars
		{"__ __ 7 __", "__ __ 7 __"},       // blanks written "__"
		{"***7***", "***7***"},             // no word inside two marks
		{"5 **3** ⬛", "5   3   ⬛"},
	} {
		rs := []rune(c.in)
		unbold(rs)
		if got := string(rs); got != c.want {
			t.Errorf("unbold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestParseTableTypo: a table with numbered rows and a header whose grid has
// a typo is still read as the 9x9 it is, with the typo's clash, not as a
// 10x10 of its labels and header (more clashes).
func TestParseTableTypo(t *testing.T) {
	c := readParseCase(t, filepath.Join("testdata", "parse", "markdown_table_numbered_rows.txt"))
	in := strings.Replace(c.input, "| 1 | 5 | 3 |", "| 1 | 5 | 5 |", 1)
	g, err := Parse(in)
	if err != nil {
		t.Fatalf("Parse(%q) error: %v", in, err)
	}
	if g.Shape != Shape9 {
		t.Fatalf("Parse(%q) shape %v, want 9x9", in, g.Shape)
	}
	want := strings.Replace(c.grid, "53", "55", 1)
	if g.String() != want {
		t.Errorf("Parse(%q) = %s, want %s", in, g, want)
	}
	if cl := g.Clashes(); len(cl) != 2 {
		t.Errorf("Parse(%q) clashes %v, want the two of the typo (row A and box 1)", in, cl)
	}
}
