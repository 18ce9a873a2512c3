package sudoku

// One line read as one row of n cells: by characters, numbers, fields, a
// label, pencil marks, or the slots between its bars.

import "strconv"

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
	if len(l.fields) == n {
		return l.fields, "", true
	}
	if len(l.fields) == n+1 && l.fieldsTrail {
		return l.fields[:n], "", true
	}
	if l.label != "" && len(l.fields) == n+1 {
		return l.fields[1:], l.label, true
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
		len(l.fields) == n || len(l.fields) == n+1 || w == n || w == n+1 || w == n+2 || len(l.bars) >= 2
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
