// Package vision reads a Sudoku grid from a picture: a screenshot of an app
// or a photo of a printed puzzle. It finds the grid, straightens it, cuts it
// into cells, tells empty cells from filled ones and classifies each printed
// digit with a small embedded neural network, reporting a confidence per
// cell. It is pure Go and imports nothing else of sudokubot.
package vision

import (
	"context"
	"fmt"
	"image"
	"math"
	"sort"
	"strings"
)

// SureAt is the probability a cell's reading must reach for the cell to
// count as sure. It was set on held-out pictures so that a grid read with
// every cell sure is right at least 99.9 % of the time.
const SureAt = 0.995

// Cell is what was read in one cell.
type Cell struct {
	// Digit is 1-Size, or 0 for an empty cell; in a 16x16 grid 10-16 are
	// written A-G.
	Digit int `json:"digit"`
	// Confidence is the probability that Digit is right, 0-1.
	Confidence float64 `json:"confidence"`
	// Pencil is set for an empty cell with small pencil marks in it.
	Pencil bool `json:"pencil,omitempty"`
	// Candidates are the pencil marks of such a cell in a 9x9 grid, read
	// from where each sits in the cell (apps draw candidate d in the d-th
	// ninth of it, 1 top left, 9 bottom right); nil when not read.
	Candidates []int `json:"candidates,omitempty"`
}

// Result is a grid read from a picture.
type Result struct {
	// Size is the number of rows (and columns): 9, 6 (boxes of 2 rows by
	// 3 columns) or 16 (boxes of 4 by 4, symbols 1-9 and A-G).
	Size int `json:"size"`
	// Cells holds Size*Size cells, row by row.
	Cells []Cell `json:"cells"`
	// Corners are the grid's corners in the picture: top-left, top-right,
	// bottom-right, bottom-left.
	Corners [4]image.Point `json:"corners"`
	// Inverted is set when the grid is drawn light on dark.
	Inverted bool `json:"inverted,omitempty"`
}

// String returns the grid as one line: a digit per cell, '.' for empty
// (Size² characters, as sudoku.Parse reads them).
func (r *Result) String() string {
	var b strings.Builder
	for _, c := range r.Cells {
		switch {
		case c.Digit == 0:
			b.WriteByte('.')
		case c.Digit <= 9:
			b.WriteByte(byte('0' + c.Digit))
		default:
			b.WriteByte(byte('A' + c.Digit - 10))
		}
	}
	return b.String()
}

// Unsure lists the cells (row-major indexes) whose confidence is under
// SureAt.
func (r *Result) Unsure() []int {
	var out []int
	for i, c := range r.Cells {
		if c.Confidence < SureAt {
			out = append(out, i)
		}
	}
	return out
}

// Sure reports whether every cell is sure.
func (r *Result) Sure() bool { return len(r.Unsure()) == 0 }

// Confidence is the probability that the whole grid is right, taking the
// cells as independent: the product of their confidences.
func (r *Result) Confidence() float64 {
	p := 1.0
	for _, c := range r.Cells {
		p *= c.Confidence
	}
	return p
}

// ReadBytes decodes a PNG, JPEG or WebP picture (checking its size from the
// header first, see Decode) and reads the grid in it.
func ReadBytes(ctx context.Context, data []byte) (*Result, error) {
	img, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return Read(ctx, img)
}

// Read finds the Sudoku grid in img and reads it. It returns an error
// wrapping ErrNoGrid when there is none.
func Read(ctx context.Context, img image.Image) (*Result, error) {
	m, err := embedded()
	if err != nil {
		return nil, err
	}
	if b := img.Bounds(); b.Dx() < 2*9 || b.Dy() < 2*9 {
		return nil, fmt.Errorf("%w: picture only %dx%d", ErrNoGrid, b.Dx(), b.Dy())
	} else if int64(b.Dx())*int64(b.Dy()) > MaxPixels {
		return nil, fmt.Errorf("%w: %dx%d", ErrTooLarge, b.Dx(), b.Dy())
	}
	g := toGray(img)
	p := &picture{full: g, levels: map[int]*gray{1: g}}
	darkFirst := meanLum(g) < 100
	var best *located
	for _, inverted := range []bool{darkFirst, !darkFirst} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if loc := p.find(ctx, inverted); loc != nil && (best == nil || loc.score > best.score) {
			best = loc
		}
		if best != nil && best.score >= clearLattice {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if best == nil {
		return nil, ErrNoGrid
	}
	return best.read(m), nil
}

// clearLattice is a lattice score past which no smaller candidate is
// tried: candidates come largest first, and a page may hold a second,
// smaller grid (yesterday's solution) drawn more clearly.
const clearLattice = 0.7

// located is a grid found in a picture: its outline, straightened, and
// its lines.
type located struct {
	n          int // cells per side
	q          quad
	w          *gray
	rows, cols []int
	score      float64
	inverted   bool
}

func meanLum(g *gray) float64 {
	var s uint64
	step := max(1, len(g.pix)/100_000)
	n := 0
	for i := 0; i < len(g.pix); i += step {
		s += uint64(g.pix[i])
		n++
	}
	return float64(s) / float64(n)
}

// picture holds a picture's luminance at the scales the reader needs.
type picture struct {
	full   *gray
	levels map[int]*gray // shrunk by a factor, not inverted
}

func (p *picture) level(f int, inverted bool) *gray {
	g, ok := p.levels[f]
	if !ok {
		g = p.full.shrink(f)
		p.levels[f] = g
	}
	if inverted {
		c := &gray{w: g.w, h: g.h, pix: append([]uint8(nil), g.pix...)}
		c.invert()
		return c
	}
	return g
}

// debugWarp, when set (by tests), gets the straightened grid.
var debugWarp func(g *gray)

// debugf, when set (by tests), is told how the reader decides.
var debugf func(format string, args ...any)

func debug(format string, args ...any) {
	if debugf != nil {
		debugf(format, args...)
	}
}

// detectSide is the longest side of the picture the grid is looked for in.
const detectSide = 800

func (p *picture) find(ctx context.Context, inverted bool) *located {
	f := max(1, (max(p.full.w, p.full.h)+detectSide-1)/detectSide)
	small := p.level(f, inverted)
	r := max(5, min(small.w, small.h)/40)
	bin := adaptive(small, r, 8)
	comps, _ := components(bin)
	minSide := min(small.w, small.h) / 6
	tried := 0
	var best *located
	for _, i := range sortByArea(comps) {
		c := &comps[i]
		if c.bw() < minSide || c.bh() < minSide {
			break // sorted by area, but a long thin one may come before; stop at small ones
		}
		if c.bw() > 3*c.bh() || c.bh() > 3*c.bw() {
			continue
		}
		if tried++; tried > 6 || ctx.Err() != nil {
			break
		}
		var q quad
		for k, pt := range [4]point{c.tl, c.tr, c.br, c.bl} {
			q[k].X = (float64(pt.x) + 0.5) * float64(f)
			q[k].Y = (float64(pt.y) + 0.5) * float64(f)
		}
		if !q.convex() || q.area() < float64(minSide*minSide*f*f) {
			continue
		}
		debug("inverted %v: component %d px, box %dx%d, quad %v", inverted, c.n, c.bw(), c.bh(), q)
		loc := p.locate(q, inverted, 9)
		if loc == nil || loc.score < clearLattice {
			// Not clearly a 9x9: it may be a 6x6 or a 16x16, whose lines
			// a 9x9 lattice misses.
			if other := p.locateOther(q, inverted); other != nil && (loc == nil || other.score > loc.score) {
				loc = other
			}
		}
		if loc != nil && (best == nil || loc.score > best.score) {
			best = loc
			if best.score >= clearLattice {
				break
			}
		}
	}
	return best
}

// locateOther looks for a 6x6 and a 16x16 lattice in the quad. A 16x16
// grid has a line near each of a 6x6 lattice's, so it passes for one too;
// a 6x6 grid has too few lines to pass for a 16x16. So the 16x16 lattice
// wins when it fits about as well.
func (p *picture) locateOther(q quad, inverted bool) *located {
	l6 := p.locate(q, inverted, 6)
	l16 := p.locate(q, inverted, 16)
	if l16 != nil && (l6 == nil || l16.score >= l6.score-0.15) {
		return l16
	}
	return l6
}

// warpMargin is how much of the picture around the quad is straightened
// with it, so the outer lines are whole even when the quad cuts them.
const warpMargin = 6

// locate straightens the quad (and a refined outline of it) and checks
// that it holds an n×n lattice; nil if not.
func (p *picture) locate(q quad, inverted bool, n int) *located {
	side := 0.0
	for k := 0; k < 4; k++ {
		a, b := q[k], q[(k+1)%4]
		side = max(side, math.Hypot(b.X-a.X, b.Y-a.Y))
	}
	// Sample from a shrunk copy when the grid is much bigger than the
	// straightened one, so thin lines are averaged rather than skipped.
	f := max(1, int(side/float64(n*cellPx)))
	src := p.level(f, inverted)
	// Try the first guess and the refined outline; keep the one whose
	// lattice is clearer.
	var best *located
	for k := 0; k < 2; k++ {
		cand := q
		if k == 1 {
			if cand = refine(src, q, float64(f), n); cand == q {
				break
			}
		}
		cw, ok := warp(src, cand, n*cellPx, warpMargin, float64(f))
		if !ok {
			continue
		}
		r, c, score := lattice(cw, n)
		if score >= 0.5 && (best == nil || score > best.score) {
			best = &located{n: n, q: cand, w: cw, rows: r, cols: c, score: score, inverted: inverted}
		}
		if k == 0 && score == 0 && n != 9 {
			// Not a line of this lattice near where it belongs: the
			// grid is another size (refining is for a 9x9's photo, the
			// commonest picture, whose first outline is often a little off).
			break
		}
	}
	return best
}

// read reads the cells of a located grid.
func (l *located) read(m *MLP) *Result {
	n := l.n
	w, rows, cols, q := l.w, l.rows, l.cols, l.q
	if debugWarp != nil {
		debugWarp(w)
	}
	contrast := inkContrast(w)
	res := &Result{Size: n, Cells: make([]Cell, n*n), Inverted: l.inverted}
	for k := range q {
		res.Corners[k] = image.Pt(int(q[k].X+0.5), int(q[k].Y+0.5))
	}
	hidden := make([]float32, m.Hidden)
	var prob [NumClasses]float32
	probs := make([][NumClasses]float32, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cx := (cols[c] + cols[c+1]) / 2
			cy := (rows[r] + rows[r+1]) / 2
			ox := min(max(cx-cellPx/2, 0), w.w-cellPx)
			oy := min(max(cy-cellPx/2, 0), w.h-cellPx)
			v := analyzeCell(w, ox, oy, contrast)
			cell := &res.Cells[r*n+c]
			switch v.kind {
			case cellEmpty:
				cell.Confidence = 1
			case cellPencil:
				cell.Confidence, cell.Pencil = 1, true
				if n == 9 {
					for d := 1; d <= 9; d++ {
						if v.marks&(1<<(d-1)) != 0 {
							cell.Candidates = append(cell.Candidates, d)
						}
					}
				}
			case cellDoubtful:
				cell.Confidence = 0.5
			case cellFilled:
				m.Predict(v.feat[:], hidden, &prob)
				onlyDigitsUpTo(&prob, n)
				best := 0
				for k := range prob {
					if prob[k] > prob[best] {
						best = k
					}
				}
				cell.Digit = best
				cell.Confidence = float64(prob[best])
				probs[r*n+c] = prob
				debug("cell %d at %d,%d: %d (%.3f) size %.2fx%.2f", r*n+c, ox, oy, best, prob[best], v.feat[inputSide*inputSide], v.feat[inputSide*inputSide+1])
			}
		}
	}
	resolveClashes(res, probs)
	markClashes(res)
	return res
}

// boxShape is the rows and columns of a box in an n×n grid.
func boxShape(n int) (rows, cols int) {
	switch n {
	case 6:
		return 2, 3
	case 16:
		return 4, 4
	}
	return 3, 3
}

// unitsOf lists, for a cell of an n×n grid, the cells of its row, column
// and box.
func unitsOf(n, i int) [3][]int {
	br, bc := boxShape(n)
	var u [3][]int
	r, c := i/n, i%n
	r0, c0 := r/br*br, c/bc*bc
	for j := 0; j < n; j++ {
		u[0] = append(u[0], r*n+j)
		u[1] = append(u[1], j*n+c)
		u[2] = append(u[2], (r0+j/bc)*n+c0+j%bc)
	}
	return u
}

// onlyDigitsUpTo zeroes the classes past n (a 6x6 holds no 7, a 9x9 no
// letter) and scales
// the rest back to a distribution.
func onlyDigitsUpTo(p *[NumClasses]float32, n int) {
	if n >= NumClasses-1 {
		return
	}
	sum := float32(0)
	for k := range p {
		if k > n {
			p[k] = 0
		}
		sum += p[k]
	}
	if sum > 0 {
		for k := range p {
			p[k] /= sum
		}
	}
}

// clashes reports whether digit d in cell i repeats in one of its units.
func clashes(r *Result, i, d int) bool {
	for _, unit := range unitsOf(r.Size, i) {
		for _, j := range unit {
			if j != i && r.Cells[j].Digit == d {
				return true
			}
		}
	}
	return false
}

// resolveClashes uses the rules to settle a misread: when a digit repeats
// in a unit, the least confident of the cells involved takes its next most
// likely reading that fits (another digit, or empty). Such a cell stays
// unsure.
func resolveClashes(r *Result, probs [][NumClasses]float32) {
	changed := make([]bool, len(r.Cells))
	for range 10 {
		pick, alt, altP := -1, 0, float32(0)
		for i, c := range r.Cells {
			if c.Digit == 0 || changed[i] || !clashes(r, i, c.Digit) {
				continue
			}
			if pick >= 0 && c.Confidence >= r.Cells[pick].Confidence {
				continue
			}
			// The most likely other reading that fits: another digit, or
			// none (class 0: pencil marks or a smudge, not a digit).
			best, bestP := -1, float32(0.02)
			for d := 0; d < NumClasses; d++ {
				if d != c.Digit && probs[i][d] > bestP && (d == 0 || !clashes(r, i, d)) {
					best, bestP = d, probs[i][d]
				}
			}
			if best >= 0 {
				pick, alt, altP = i, best, bestP
			}
		}
		if pick < 0 {
			return
		}
		debug("clash: cell %d %d → %d (%.3f)", pick, r.Cells[pick].Digit, alt, altP)
		r.Cells[pick].Digit = alt
		r.Cells[pick].Confidence = min(float64(altP), 0.5)
		changed[pick] = true
	}
}

// markClashes lowers the confidence of digits that repeat in a row, column
// or box: at least one of them was misread.
func markClashes(r *Result) {
	for i := range r.Cells {
		d := r.Cells[i].Digit
		if d != 0 && clashes(r, i, d) {
			r.Cells[i].Confidence = min(r.Cells[i].Confidence, 0.5)
		}
	}
}

// lattice finds the n+1 row and column lines of a straightened grid and
// scores how much they look like a lattice (0-1; 0.5 and up is one). A pixel is on a line when it is
// darker than the pixels a little way off on both sides across the line;
// each line must be that along much of its length, near where an even
// lattice puts it.
func lattice(w *gray, n int) (rows, cols []int, score float64) {
	rows, rs := findLines(w, n, false)
	cols, cs := findLines(w, n, true)
	rs *= evenness(rows)
	cs *= evenness(cols)
	debug("lattice: rows %v (%.2f), cols %v (%.2f)", rows, rs, cols, cs)
	return rows, cols, min(rs, cs)
}

// evenness is 1 for lines evenly spaced (as they are once the outline is
// right) and less the further one gap strays from the usual one: an
// outline that took in a row of labels finds lines, but uneven ones.
func evenness(pos []int) float64 {
	gaps := make([]int, len(pos)-1)
	for i := range gaps {
		gaps[i] = pos[i+1] - pos[i]
	}
	sorted := append([]int(nil), gaps...)
	sort.Ints(sorted)
	med := float64(max(sorted[len(sorted)/2], 1))
	worst := 0.0
	for _, g := range gaps {
		worst = max(worst, math.Abs(float64(g)-med)/med)
	}
	return max(0, 1-2*max(0, worst-0.25))
}

// findLines finds the lines across (vertical: columns) the straightened
// grid and returns their places and the mean fraction of their length that
// is line. One inner line may be faint (a highlighted row, a shadow's
// edge): it is placed between its neighbours.
func findLines(w *gray, n int, vertical bool) ([]int, float64) {
	size := w.w
	span := size - 2*warpMargin
	at := func(along, across int) int {
		if vertical {
			return int(w.pix[along*size+across])
		}
		return int(w.pix[across*size+along])
	}
	// isLine reports whether the pixel at (a, pos) is darker than the
	// pixels d away across, on both sides that exist.
	isLine := func(a, pos, d int) bool {
		if pos < 0 || pos >= size {
			return false
		}
		v := at(a, pos) + 3
		lo, hi := pos-d, pos+d
		okLo := lo < 0 || v < at(a, lo)
		okHi := hi >= size || v < at(a, hi)
		return okLo && okHi && (lo >= 0 || hi < size)
	}
	frac := func(pos int) float64 {
		best := 0
		for _, d := range [...]int{2, 3, 5} {
			cnt := 0
			for a := 0; a < size; a++ {
				// A line a little off straight still counts.
				if isLine(a, pos, d) {
					cnt++
				}
			}
			best = max(best, cnt)
		}
		return float64(best) / float64(size)
	}
	step := float64(span) / float64(n)
	pos := make([]int, n+1)
	val := make([]float64, n+1)
	for k := 0; k <= n; k++ {
		centre := warpMargin + int(float64(k)*step)
		lo, hi := max(0, centre-int(step/3)), min(size-1, centre+int(step/3))
		best, bestV := centre, -1.0
		for i := lo; i <= hi; i++ {
			if v := frac(i); v > bestV {
				best, bestV = i, v
			}
		}
		pos[k], val[k] = best, bestV
	}
	weak := 0
	total := 0.0
	for _, v := range val {
		total += v
		if v < 0.25 {
			weak++
		}
	}
	switch {
	case weak == 0:
		return pos, total / float64(n+1)
	case weak == 1 && val[0] >= 0.25 && val[n] >= 0.25:
		for k := 1; k < n; k++ {
			if val[k] < 0.25 {
				pos[k] = (pos[k-1] + pos[k+1]) / 2
			}
		}
		return pos, total / float64(n+1)
	}
	// Thin lines too faint to see (a photo of a pale app grid): the box
	// lines alone, with the others placed evenly between them. It counts
	// for less than a whole lattice.
	if n != 9 {
		return pos, 0
	}
	boxTotal := 0.0
	for k := 0; k <= n; k += 3 {
		if val[k] < 0.4 {
			return pos, 0
		}
		boxTotal += val[k]
	}
	for k := 0; k < n; k += 3 {
		for j := 1; j < 3; j++ {
			if val[k+j] < 0.25 {
				pos[k+j] = pos[k] + (pos[k+3]-pos[k])*j/3
			}
		}
	}
	return pos, 0.7 * boxTotal / 4
}
