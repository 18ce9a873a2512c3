package sudoku

// One line read as one row of n cells: by characters, numbers, fields, a
// label, pencil marks, or the slots between its bars.

import (
	"strconv"
	"unicode"
)

// fit reads the line as a row of n cells, if it can be one: as numbers, as
// characters, either after a row label, or by the slots between its bars.
func (l *pline) fit(n int) (cells []cellTok, label string, ok bool) {
	if l.kind != lineText && l.kind != lineMaybe {
		return nil, "", false
	}
	if l.chatter && l.bare != nil {
		// "help | 2 | 6 | …": the prose is no cells, even when its letters
		// would make the count.
		if cells, label, ok := l.bare.fit(n); ok {
			return cells, label, true
		}
	}
	// Up to 9x9 a two-digit word is no cell: it is pencil marks.
	nums := l.nums
	if n <= 9 {
		nums = nil
	}
	if nums != nil && len(nums) == n {
		return nums, "", true
	}
	// A line holding numbers such as "11" in a grid above 9x9 is no row of
	// characters: reading "11" as two cells would make a short row fit.
	if len(l.chars) == n && nums == nil {
		return l.chars, "", true
	}
	if l.label != "" {
		if nums != nil && len(nums)-l.labelNums == n {
			return nums[l.labelNums:], l.label, true
		}
		if len(l.chars)-l.labelChars == n && nums == nil {
			return l.chars[l.labelChars:], l.label, true
		}
	}
	if len(l.fields) == n {
		return l.fields, "", true
	}
	if len(l.fields) == n+1 {
		// One field too many: an empty field at the end the other lines
		// show to be a separator, or at the only end that is empty.
		first := l.fieldsLead && (l.fieldsEnds == endsFirst || l.fieldsEnds == endsEither && !l.fieldsTrail)
		last := l.fieldsTrail && (l.fieldsEnds == endsLast || l.fieldsEnds == endsEither)
		switch {
		case first:
			return l.fields[1:], "", true
		case last:
			return l.fields[:n], "", true
		}
	}
	if len(l.fields) == n+2 && l.fieldsLead && l.fieldsTrail {
		return l.fields[1 : n+1], "", true
	}
	if len(l.fields) == n+3 && l.fieldsLead && l.fieldsTrail && isFieldLabel(l.fields[1]) {
		// "; A ; 5 ; 3 ; … ;": a table's first column holds the label.
		return l.fields[2 : n+2], l.fields[1].str(), true
	}
	if l.label != "" && len(l.fields) == n+1 {
		return l.fields[1:], l.label, true
	}
	if l.blankWords != nil && (n > 9 || !l.blankWordsNum) {
		if len(l.blankWords) == n {
			return l.blankWords, "", true
		}
		if l.label != "" && len(l.blankWords)-l.labelWords == n {
			return l.blankWords[l.labelWords:], l.label, true
		}
	}
	if cells, label, ok := l.slots(n); ok {
		return cells, label, true
	}
	if l.bare != nil {
		// "help: 5 3 0 0 7 0 0 0 0": prose on the row's own line.
		return l.bare.fit(n)
	}
	return nil, "", false
}

// mayFit is a quick test that fit(n) could succeed, to skip sizes no line
// has.
func (l *pline) mayFit(n int) bool {
	if l.kind != lineText && l.kind != lineMaybe {
		return false
	}
	c, w := len(l.chars), len(l.wordToks)
	return c == n || c-l.labelChars == n || len(l.nums) == n || len(l.nums)-l.labelNums == n ||
		len(l.fields) == n || len(l.fields) == n+1 || len(l.fields) == n+2 || len(l.fields) == n+3 || w == n || w == n+1 || w == n+2 || len(l.bars) >= 2 ||
		l.bare != nil && l.bare.mayFit(n)
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
	if len(segs) == 0 || n%len(segs) != 0 && (len(segs) != n+1 || l.label == "") {
		return nil, "", false
	}
	first, last := l.bars[0], l.bars[len(l.bars)-1]
	label := ""
	var pre []cellTok
	inFirst := 0 // chars in the first segment
	for _, t := range l.chars {
		switch {
		case t.col-1 < first:
			pre = append(pre, t)
		case t.col-1 > last:
			return nil, "", false
		case t.col-1 < segs[0].to:
			inFirst++
		}
	}
	skip := len(pre)
	switch {
	case len(pre) > 0:
		if l.label == "" || len(pre) != l.labelChars {
			return nil, "", false
		}
		label = l.label
	case len(segs) == n+1 && l.label != "" && inFirst == l.labelChars:
		// A table with the row's label in its first column
		// ("| A | 5 | 3 |   | …", as Markdown tables are written).
		label, segs, skip = l.label, segs[1:], inFirst
	}
	if n%len(segs) != 0 {
		return nil, "", false
	}
	k := n / len(segs)
	out := make([]cellTok, 0, n)
	ci := skip
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
		if k == 1 && len(in) >= 2 && l.kind == lineText && blankRunOf(cellText(in)) != 0 && in[len(in)-1].col-in[0].col == len(in)-1 {
			// "| __ |" in a row: one empty cell ("|---|" is a rule).
			in = in[:1]
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

// isFieldLabel reports a field that can be a row label: a letter, or a
// number up to 25.
func isFieldLabel(t cellTok) bool {
	if t.num > 0 {
		return t.num <= MaxN
	}
	return unicode.IsLetter(t.r) || t.r >= '1' && t.r <= '9'
}
