package sudoku

// Prose on a row's own line: "help: 5 3 0 0 7 0 0 0 0",
// "0 0 0 0 8 0 0 7 9 <- stuck here", "000080079 thanks!!".

import "unicode"

// mayHaveAside reports, cheaply, a word of prose, an arrow or an emoji on
// the line, before looking further.
func (l *pline) mayHaveAside() bool {
	for _, w := range l.words {
		if w.chatter {
			return true
		}
	}
	for _, r := range l.runes {
		if r == '<' || r == '>' || r == '!' || r >= 0x2190 && isAside(r) {
			return true
		}
	}
	return false
}

// isAside reports an arrow or an emoji: no cell, even on a row's line.
func isAside(r rune) bool {
	return r >= 0x2190 && r <= 0x21FF || r >= 0x27F0 && r <= 0x27FF || r >= 0x2B05 && r <= 0x2B07 ||
		unicode.Is(unicode.So, r) && !isDefiniteBlank(r) && !isBoxDrawing(r)
}

// asRow is the line as a row of a pencil-mark grid is read: without the
// prose at its ends when it is prose ("thanks!! | 6 247 247 | …").
func (l *pline) asRow() *pline {
	if l.chatter && l.bare != nil {
		return l.bare
	}
	return l
}

// proseToken is a stretch of a line between spaces (or colons): runes[from:to].
type proseToken struct {
	from, to int
	kind     proseKind
}

type proseKind uint8

const (
	tokContent proseKind = iota // anything that may be cells
	tokProse                    // a word: letters, one of them lower case, with punctuation around
	tokAside                    // an arrow ("<-", "-->", "←") or an emoji, which go with prose
	tokLetter                   // a lone letter ("u" in "can u help"): prose only between prose
)

// withoutProseEnds returns the line with the prose, arrows and emoji at its
// start and end blanked, when there are some and what is left holds a digit
// or a blank marker and no other prose; nil otherwise. Whether that is a row is for
// the counting to say: such a line is read this way only when the line as
// written fits no grid and the lines around it make one with it.
func (l *pline) withoutProseEnds() *pline {
	toks := proseTokens(l.runes)
	// The prose at the start, then at the end: a run of prose, asides and
	// lone letters between prose, holding at least one word of prose.
	isEnd := func(k proseKind) bool { return k != tokContent }
	start := 0
	for start < len(toks) && isEnd(toks[start].kind) {
		start++
	}
	end := len(toks)
	for end > start && isEnd(toks[end-1].kind) {
		end--
	}
	// Prose, or an arrow or emoji, but not lone letters: "A" is a label.
	hasProse := func(ts []proseToken) bool {
		for _, t := range ts {
			if t.kind == tokProse || t.kind == tokAside {
				return true
			}
		}
		return false
	}
	if !hasProse(toks[:start]) {
		start = 0
	}
	if !hasProse(toks[end:]) {
		end = len(toks)
	}
	if start == 0 && end == len(toks) || start >= end {
		return nil
	}
	// A lone letter next to the kept cells is a cell ("help: A 5 3 …" keeps
	// its label).
	for start > 0 && toks[start-1].kind == tokLetter {
		start--
	}
	for end < len(toks) && toks[end].kind == tokLetter {
		end++
	}
	mark := false
	for _, t := range toks[start:end] {
		if t.kind == tokProse {
			return nil
		}
		lower := 0
		for _, r := range l.runes[t.from:t.to] {
			if unicode.IsDigit(r) || isDefiniteBlank(r) {
				mark = true
			}
			// Two lower-case letters together are code or prose ("int{"),
			// not cells.
			if lower = parseB2I(unicode.IsLower(r)) * (lower + 1); lower >= 2 {
				return nil
			}
		}
	}
	if !mark {
		return nil
	}
	rs := make([]rune, len(l.runes))
	for i := range rs {
		rs[i] = ' '
	}
	copy(rs[toks[start].from:toks[end-1].to], l.runes[toks[start].from:toks[end-1].to])
	b := readLine(l.no, rs)
	if b.kind != lineText {
		return nil
	}
	return b
}

// proseTokens splits runes at spaces and colons and says what each piece is.
func proseTokens(rs []rune) []proseToken {
	var out []proseToken
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) || rs[i] == ':' {
			i++
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != ':' {
			j++
		}
		out = append(out, proseToken{from: i, to: j, kind: proseKindOf(rs[i:j])})
		i = j
	}
	// A lone letter between two pieces of prose is prose too ("can u help").
	for i := range out {
		if out[i].kind == tokLetter && i > 0 && i+1 < len(out) &&
			out[i-1].kind == tokProse && out[i+1].kind == tokProse {
			out[i].kind = tokProse
		}
	}
	return out
}

func proseKindOf(w []rune) proseKind {
	// Punctuation around a word: "(thanks!)", "help,", "**pls**".
	i, j := 0, len(w)
	for i < j && proseTrim(w[i]) {
		i++
	}
	for j > i && proseTrim(w[j-1]) {
		j--
	}
	core := w[i:j]
	if len(core) == 0 {
		return asideOrContent(w)
	}
	letters, lower := 0, 0
	for k, r := range core {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsLower(r) {
				lower++
			}
		case r == '\'' || r == '’':
			// "don't", "I'm"
			if k == 0 || k == len(core)-1 {
				return tokContent
			}
		default:
			return asideOrContent(w)
		}
	}
	switch {
	case letters >= 2 && lower >= 1:
		return tokProse
	case letters == 1 && len(w) == 1:
		return tokLetter
	}
	return tokContent
}

// proseTrim reports punctuation that may stand around a word of prose.
func proseTrim(r rune) bool {
	switch r {
	case '.', ',', '!', '?', ';', '(', ')', '"', '\'', '*', '_', '’', '“', '”':
		return true
	}
	return false
}

// asideOrContent says whether a piece that is no word is an arrow or an
// emoji ("<-", "-->", "=>", "←", "🙏", "!!"), or may be cells ("?" and
// "-" are empty cells).
func asideOrContent(w []rune) proseKind {
	pointer := false
	for _, r := range w {
		switch {
		case r == '<' || r == '>' || isAside(r):
			pointer = true
		case r == '-' || r == '=' || r == '~' || r == '–' || r == '—':
		case r == '!' || r == '(' || r == ')':
		case unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Sk):
			// Emoji modifiers and joiners.
		default:
			return tokContent
		}
	}
	if pointer || allPunct(w) {
		return tokAside
	}
	return tokContent
}

func allPunct(w []rune) bool {
	for _, r := range w {
		if r != '!' {
			return false
		}
	}
	return len(w) > 0
}
