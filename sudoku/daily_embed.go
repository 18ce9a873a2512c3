package sudoku

import "context"

// A player's position with a wrong entry has no solution, so Copies can't
// recognise it by its solution; it still holds the puzzle's givens. embeds
// looks for them: a symmetry of Sudoku (rows within bands and bands,
// columns within stacks and stacks, transposition, relabelling) that puts
// every given of p on a filled cell of x holding the same (relabelled)
// value. A puzzle with one solution is in no other valid grid, and a
// random grid holds some 25 givens of p in the right pattern with the
// right values by chance essentially never.

// maxEmbedSteps bounds one embeds search (a step is a given placed or a
// column tried): positions with wrong entries of 185 9x9 puzzles with 17
// to 23 givens were found in 3,600 steps (median), 12,800 (95 %), 33,000
// at most; grids that are no such position fail in a few thousand, dense
// ones (a full grid with two cells swapped) in up to 160,000. Past the
// bound, or when ctx ends, the answer is "not found".
const maxEmbedSteps = 100_000

// embedder is the state of one embeds search.
type embedder struct {
	ctx              context.Context
	n, height, width int
	clues            []embedClue
	x                [MaxN * MaxN]uint8 // x in the current orientation

	rowMap, colMap    [MaxN]int // p's row (column) → x's, -1 unset
	bandMap, stackMap [MaxN]int // p's band (stack) → x's, -1 unset
	usedRow, usedCol  [MaxN]bool
	usedBand, usedStk [MaxN]bool
	sigma, sigmaInv   [MaxN + 1]uint8 // p's value → x's and back, 0 unset
	steps             int

	// Counts that prune: a p row (column, value) can only go to an x row
	// (column, value) with at least as many filled cells.
	pRow, pCol, xRow, xCol [MaxN]int
	pVal, xVal             [MaxN + 1]int
}

type embedClue struct {
	r, c int
	v    uint8
}

// embeds reports whether p's givens sit in x under some symmetry (see
// above). p and x must have the same shape.
func embeds(ctx context.Context, p, x *Grid) bool {
	if p.Shape != x.Shape || !p.Shape.Valid() {
		return false
	}
	e := &embedder{n: p.N(), height: p.Shape.BoxRows, width: p.Shape.BoxCols, ctx: ctx}
	if p.Clues() > x.Clues() || p.Clues() == 0 {
		return false
	}
	// Givens row by row, the rows with most givens first: they pin the
	// most down early.
	n := e.n
	counts := make([]int, n)
	for i, v := range p.Cells {
		if v != 0 {
			counts[i/n]++
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < n; i++ { // insertion sort by count, descending, stable
		for j := i; j > 0 && counts[order[j]] > counts[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for i, v := range p.Cells {
		if v != 0 {
			e.pRow[i/n]++
			e.pCol[i%n]++
			e.pVal[v]++
		}
	}
	for _, r := range order {
		for c := 0; c < n; c++ {
			if v := p.Cells[r*n+c]; v != 0 {
				e.clues = append(e.clues, embedClue{r, c, v})
			}
		}
	}
	orientations := 1
	if e.height == e.width {
		orientations = 2
	}
	for t := 0; t < orientations; t++ {
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if t == 0 {
					e.x[r*n+c] = x.Cells[r*n+c]
				} else {
					e.x[r*n+c] = x.Cells[c*n+r]
				}
			}
		}
		for i := 0; i < n; i++ {
			e.rowMap[i], e.colMap[i], e.bandMap[i], e.stackMap[i] = -1, -1, -1, -1
			e.xRow[i], e.xCol[i] = 0, 0
		}
		e.xVal = [MaxN + 1]int{}
		for i, v := range e.x[:n*n] {
			if v != 0 {
				e.xRow[i/n]++
				e.xCol[i%n]++
				e.xVal[v]++
			}
		}
		if e.place(0) {
			return true
		}
		if e.steps > maxEmbedSteps {
			return false
		}
	}
	return false
}

// place maps given k onwards; it reports whether all of them fit.
func (e *embedder) place(k int) bool {
	if k == len(e.clues) {
		return true
	}
	e.steps++
	if e.steps > maxEmbedSteps || (e.steps%1024 == 0 && e.ctx.Err() != nil) {
		e.steps = maxEmbedSteps + 1
		return false
	}
	cl := e.clues[k]
	if xr := e.rowMap[cl.r]; xr >= 0 {
		return e.placeColumn(k, xr)
	}
	pb := cl.r / e.height
	for xr := 0; xr < e.n; xr++ {
		xb := xr / e.height
		if e.usedRow[xr] || e.xRow[xr] < e.pRow[cl.r] || (e.bandMap[pb] >= 0 && e.bandMap[pb] != xb) || (e.bandMap[pb] < 0 && e.usedBand[xb]) {
			continue
		}
		newBand := e.bandMap[pb] < 0
		if newBand {
			e.bandMap[pb], e.usedBand[xb] = xb, true
		}
		e.rowMap[cl.r], e.usedRow[xr] = xr, true
		if e.placeColumn(k, xr) {
			return true
		}
		e.rowMap[cl.r], e.usedRow[xr] = -1, false
		if newBand {
			e.bandMap[pb], e.usedBand[xb] = -1, false
		}
		if e.steps > maxEmbedSteps {
			return false
		}
	}
	return false
}

// placeColumn maps given k's column (its row already sits on x's row xr)
// and its value, then goes on to the next given.
func (e *embedder) placeColumn(k, xr int) bool {
	cl := e.clues[k]
	if xc := e.colMap[cl.c]; xc >= 0 {
		return e.placeValue(k, xr, xc)
	}
	ps := cl.c / e.width
	for xc := 0; xc < e.n; xc++ {
		xs := xc / e.width
		if e.usedCol[xc] || e.xCol[xc] < e.pCol[cl.c] || (e.stackMap[ps] >= 0 && e.stackMap[ps] != xs) || (e.stackMap[ps] < 0 && e.usedStk[xs]) {
			continue
		}
		if e.x[xr*e.n+xc] == 0 {
			continue // cheap test before the bookkeeping
		}
		e.steps++
		newStack := e.stackMap[ps] < 0
		if newStack {
			e.stackMap[ps], e.usedStk[xs] = xs, true
		}
		e.colMap[cl.c], e.usedCol[xc] = xc, true
		if e.placeValue(k, xr, xc) {
			return true
		}
		e.colMap[cl.c], e.usedCol[xc] = -1, false
		if newStack {
			e.stackMap[ps], e.usedStk[xs] = -1, false
		}
		if e.steps > maxEmbedSteps {
			return false
		}
	}
	return false
}

// placeValue checks given k against x's cell (xr, xc), relabelling its
// value if it is the first of its kind, then goes on.
func (e *embedder) placeValue(k, xr, xc int) bool {
	v, w := e.clues[k].v, e.x[xr*e.n+xc]
	if w == 0 {
		return false
	}
	switch {
	case e.sigma[v] == w:
		return e.place(k + 1)
	case e.sigma[v] != 0 || e.sigmaInv[w] != 0 || e.xVal[w] < e.pVal[v]:
		return false
	}
	e.sigma[v], e.sigmaInv[w] = w, v
	if e.place(k + 1) {
		return true
	}
	e.sigma[v], e.sigmaInv[w] = 0, 0
	return false
}
