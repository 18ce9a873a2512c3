package sudoku

// Symbols: the alphabet a grid is written in, and each cell's value.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

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

// hexZero is the 16x16 alphabet that starts at 0.
const hexZero = Alphabet("0123456789ABCDEF")

// defaultAlphabets lists the usual alphabets for n, the likeliest first:
// a 16x16 with a few zeros and no G is in 0-9A-F; a 25x25 with digits is in
// 1-9A-P.
func defaultAlphabets(n int, cells []cellTok) []Alphabet {
	const hex0, hex1 = hexZero, Alphabet("123456789ABCDEFG")
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
				"the puzzle is written in %d different symbols (%s), but %s puzzle in its own letters needs all %d among its givens: write it in digits, or check for a wrong letter",
				len(seen), string(syms), aSquare(n), n)}
		}
		return "", &ParseError{Msg: fmt.Sprintf(
			"the puzzle uses %d different symbols (%s), but %s puzzle has only %d: check for a typo, and write empty cells as '.' or '0'",
			len(seen), string(syms), aSquare(n), n)}
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

// aSquare is squareName with its article, as it is read aloud: "a 9x9",
// "an 8x8", "an 11x11", "an 18x18".
func aSquare(n int) string {
	switch n {
	case 8, 11, 18:
		return "an " + squareName(n)
	}
	return "a " + squareName(n)
}

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
