package sudoku

// Pencil-mark grids: rows whose empty cells list their candidates.

import "unicode/utf8"

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
