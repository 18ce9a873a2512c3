// Package vision reads a Sudoku grid from a picture: a screenshot of an app
// or a photo of a printed puzzle. It finds the grid, straightens it, cuts it
// into cells, tells empty cells from filled ones and classifies each printed
// digit with a small embedded neural network, reporting a confidence per
// cell. It is pure Go and imports nothing else of sudokubot.
package vision

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"sort"
	"strings"
)

// SureAt is the probability a cell's reading must reach for the cell to
// count as sure. It was set on held-out pictures so that a grid read with
// every cell sure is right at least 99.9 % of the time.
const SureAt = 0.995

// Cell is what was read in one cell.
type Cell struct {
	// Digit is the cell's value, 1-Size, or 0 for an empty cell (String
	// shows how each is written).
	Digit int `json:"digit"`
	// Confidence is the probability that Digit is right, 0-1.
	Confidence float64 `json:"confidence"`
	// Entry is set for a filled cell whose ink is clearly fainter than
	// the givens' (another colour or a lighter weight), as apps draw the
	// player's entries.
	Entry bool `json:"entry,omitempty"`
	// Pencil is set for an empty cell with small pencil marks in it.
	Pencil bool `json:"pencil,omitempty"`
	// Candidates are the pencil marks of such a cell. Up to 9x9 they are
	// read from where each sits in the cell: apps lay a cell's marks out
	// like a box (3x3 in a 9x9, 2 rows of 3 in a 6x6, 2 of 4 in an 8x8,
	// 2 of 2 in a 4x4), candidate 1 top left. In bigger grids apps pack
	// the marks a cell holds, so each is read by the classifier. Nil when
	// not read (in a bigger grid, when one of them is not sure).
	Candidates []int `json:"candidates,omitempty"`
}

// Result is a grid read from a picture.
type Result struct {
	// Size is the number of rows (and columns): 4, 6, 8, 9, 12, 16 or 25,
	// in boxes as the engine plays them (2x2, 2x3, 2x4, 3x3, 3x4, 4x4, 5x5
	// rows by columns).
	Size int `json:"size"`
	// Cells holds Size*Size cells, row by row.
	Cells []Cell `json:"cells"`
	// Corners are the grid's corners in the picture: top-left, top-right,
	// bottom-right, bottom-left.
	Corners [4]image.Point `json:"corners"`
	// Inverted is set when the grid is drawn light on dark.
	Inverted bool `json:"inverted,omitempty"`
	// letters is set for a 25x25 written A-Y (A is 1), as sudokubot draws
	// them, rather than 1-9 then A-P.
	letters bool
}

// String returns the grid as one line: a symbol per cell (1-9 then A for
// 10 and on, or A-Y in a 25x25 drawn in letters), '.' for empty (Size²
// characters, as sudoku.Parse reads them).
func (r *Result) String() string {
	var b strings.Builder
	for _, c := range r.Cells {
		switch {
		case c.Digit == 0:
			b.WriteByte('.')
		case r.letters:
			b.WriteByte(byte('A' + c.Digit - 1))
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
	best, err := locateGrid(ctx, img)
	if err != nil {
		return nil, err
	}
	if solid := best.solidCells(); solid >= max(minSolid, best.n*best.n/25) {
		// A crossword's black squares: no Sudoku has a cell filled
		// with ink.
		debug("%d of %d cells filled with ink", solid, best.n*best.n)
		return nil, fmt.Errorf("%w: a %dx%d grid with %d cells filled with ink", ErrNoGrid, best.n, best.n, solid)
	}
	// Up to 9x9, where people write digits in by hand, a second
	// classifier that also learnt handwriting reads the player's entries
	// (see located.read); bigger grids are apps' screens.
	var hand *MLP
	switch {
	case best.n == 25:
		// Its letters run to Y: the classifier that knows them.
		if m, err = embedded25(); err != nil {
			return nil, err
		}
	case best.n <= 9:
		if hand, err = embeddedHand(); err != nil {
			return nil, err
		}
	}
	res, foreign := best.read(m, hand)
	if filled := len(res.Cells) - res.empty(); foreign >= max(2, filled/10) {
		// Keys of a calculator, letters of a crossword, figures of a
		// table: symbols no Sudoku of this size holds.
		debug("%d of %d filled cells hold symbols no %dx%d Sudoku has", foreign, filled, res.Size, res.Size)
		return nil, fmt.Errorf("%w: a %dx%d grid holding %d symbols no Sudoku has", ErrNoGrid, res.Size, res.Size, foreign)
	}
	return res, nil
}

// locateGrid finds the grid in img and straightens it, ready to be read
// (its straightened picture is the located's w).
func locateGrid(ctx context.Context, img image.Image) (*located, error) {
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
		if loc := p.find(ctx, inverted, plainPass); loc != nil && (best == nil || loc.score > best.score) {
			best = loc
		}
		if best != nil && best.score >= clearLattice {
			break
		}
	}
	// No grid found: look again in the ways that find the grids the
	// first pass misses (see againPass).
	for _, inverted := range []bool{darkFirst, !darkFirst} {
		if best != nil || ctx.Err() != nil {
			break
		}
		best = p.find(ctx, inverted, againPass)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if best == nil {
		return nil, ErrNoGrid
	}
	return best, nil
}

// minSolid is the fewest cells filled with ink (a crossword's black
// squares; a crossword has a sixth of its cells so or more) that make a
// grid no Sudoku, however big; a grid needs a 25th of its cells so too.
const minSolid = 3

// solidCells counts the cells of the located grid filled with ink: nine
// tenths of the middle three fifths of the cell as dark as a quarter of
// the way from the ink (the grid's darkest 3 %) to the paper around it
// (the lightest median of the cells beside it), so a shadow or a dim
// photo's paper is no solid cell.
func (l *located) solidCells() int {
	w, n := l.w, l.n
	hist := [256]int{}
	for _, v := range w.pix {
		hist[v]++
	}
	ink, acc := 0, 0
	for v := range hist {
		if acc += hist[v]; acc*100 >= len(w.pix)*3 {
			ink = v
			break
		}
	}
	// Per cell: the median and the 90th percentile of its middle.
	med := make([]int, n*n)
	p90 := make([]int, n*n)
	var cell [256]int
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			x0, x1 := l.cols[c], l.cols[c+1]
			y0, y1 := l.rows[r], l.rows[r+1]
			dx, dy := (x1-x0)/5, (y1-y0)/5
			clear(cell[:])
			count := 0
			for y := y0 + dy; y < y1-dy; y++ {
				for x := x0 + dx; x < x1-dx; x++ {
					cell[w.pix[y*w.w+x]]++
					count++
				}
			}
			i := r*n + c
			med[i], p90[i] = 255, 255
			acc := 0
			for v := range cell {
				acc += cell[v]
				if acc*2 > count && med[i] == 255 {
					med[i] = v
				}
				if acc*10 > count*9 {
					p90[i] = v
					break
				}
			}
		}
	}
	solid := 0
	for i := range med {
		r, c := i/n, i%n
		paper := 0
		for _, d := range [...][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			if rr, cc := r+d[0], c+d[1]; rr >= 0 && rr < n && cc >= 0 && cc < n {
				paper = max(paper, med[rr*n+cc])
			}
		}
		if paper-ink >= 40 && p90[i] <= ink+(paper-ink)/4 && l.sharpSolid(r, c, ink, paper) {
			solid++
		}
	}
	return solid
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
	// even is set when the lines are evenly spaced (each gap within a
	// quarter of the usual one), as a grid of this size has them.
	even bool
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
	ink    map[inkKey]*gray
	// tried holds the outlines looked at, by polarity (inverted or not).
	tried map[bool][]quad
}

// inkLevel is the picture shrunk by f keeping each block's ink (its
// darkest pixel, its lightest when inverted), then inverted if asked.
func (p *picture) inkLevel(f int, inverted bool) *gray {
	key := inkKey{f, inverted}
	if g, ok := p.ink[key]; ok {
		return g
	}
	g := p.full
	if f > 1 {
		g = g.shrinkInk(f, inverted)
	}
	if inverted {
		g = &gray{w: g.w, h: g.h, pix: append([]uint8(nil), g.pix...)}
		g.invert()
	}
	if p.ink == nil {
		p.ink = map[inkKey]*gray{}
	}
	p.ink[key] = g
	return g
}

type inkKey struct {
	f        int
	inverted bool
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

// debugf, when set (by tests), is told how the reader decides.
var debugf func(format string, args ...any)

func debug(format string, args ...any) {
	if debugf != nil {
		debugf(format, args...)
	}
}

// detectSide is the longest side of the picture the grid is looked for in.
const detectSide = 800

// A pass is a way of looking for the grid's outline. The plain one finds
// nearly every grid; the others are tried when it finds none.
type pass int

const (
	plainPass pass = iota
	// againPass looks again where the plain pass found no grid: in a
	// copy of the picture shrunk keeping its ink, for lines one pixel
	// wide and faint (an app's night theme), which shrinking averages
	// away (the lattice is looked for in such a copy too); and marking
	// ink against a smaller neighbourhood, for a grid whose outer lines
	// run near something much darker (a photo of a screen in a dim room:
	// the bezel darkens the neighbourhood of the grid's border until the
	// border is no darker than it).
	againPass
)

// seen reports whether an outline within a cell's width of q (a 25x25's,
// at most 1/25 of its side; the usual) was tried already in this
// polarity, and notes q as tried.
func (p *picture) seen(q quad, inverted bool) bool {
	side := math.Sqrt(math.Abs(q.area()))
	for _, o := range p.tried[inverted] {
		near := true
		for k := range q {
			if math.Hypot(q[k].X-o[k].X, q[k].Y-o[k].Y) > side/25 {
				near = false
			}
		}
		if near {
			return true
		}
	}
	if p.tried == nil {
		p.tried = map[bool][]quad{}
	}
	p.tried[inverted] = append(p.tried[inverted], q)
	return false
}

// detectShrink is the factor the picture is shrunk by to look for the
// grid in.
func (p *picture) detectShrink() int {
	return max(1, (max(p.full.w, p.full.h)+detectSide-1)/detectSide)
}

// maxTries is how many of the largest near-square shapes each pass tries
// as the grid's outline: the plain pass six; looking again costs no more
// than half as much (the grids it finds were among the largest three).
var maxTries = [...]int{plainPass: 6, againPass: 3}

func (p *picture) find(ctx context.Context, inverted bool, pass pass) *located {
	f := p.detectShrink()
	small := p.level(f, inverted)
	thin := pass == againPass && f > 1
	if thin {
		small = p.inkLevel(f, inverted)
	}
	r := max(5, min(small.w, small.h)/40)
	if pass == againPass {
		r = max(3, r/2)
	}
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
		if tried++; tried > maxTries[pass] || ctx.Err() != nil {
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
		if !thin && p.seen(q, inverted) {
			continue // an outline an earlier pass tried already
		}
		debug("inverted %v: component %d px, box %dx%d, quad %v", inverted, c.n, c.bw(), c.bh(), q)
		loc := p.locate(q, inverted, 9, thin)
		if loc == nil || loc.score < clearLattice || !loc.even {
			// Not clearly a 9x9: it may be another size, whose lines a
			// 9x9 lattice misses or, in a finer grid, finds unevenly.
			loc = p.locateOther(q, inverted, loc, thin)
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

// maxInnerLine is the most of its length a line inside a lattice's cells
// may run: rows of pencil marks or of digits' tops reach 0.4 in a real
// lattice, the lines of a finer grid crossing a coarser lattice's cells
// 0.5 and more (the committed test pictures and the Wicht train photos).
const maxInnerLine = 0.45

// sizes are the grid sizes the reader knows, finest first.
var sizes = [...]int{25, 16, 12, 9, 8, 6, 4}

// sizeTolerance is how much less clear a finer lattice may be than the
// clearest one and still win.
const sizeTolerance = 0.15

// locateOther looks for a lattice of every size in the quad and keeps the
// finest that fits about as well as the best (nine9 is the 9x9 one, or
// nil). A grid has a line near each line of a coarser lattice whose lines
// are a subset of its own (a 12x12 passes for a 6x6 and a 4x4), and near
// most lines of any much coarser one (a 25x25 passes, unevenly, for a
// 9x9); a coarse grid lacks most of a finer lattice's lines.
func (p *picture) locateOther(q quad, inverted bool, nine *located, thin bool) *located {
	found := make([]*located, 0, len(sizes))
	best := 0.0
	for _, n := range sizes {
		l := nine
		if n != 9 {
			l = p.locate(q, inverted, n, thin)
		}
		if l == nil {
			continue
		}
		// Lines crossing the cells: the grid is finer than this lattice.
		inner := max(innerLine(l.w, l.rows, false), innerLine(l.w, l.cols, true))
		debug("%dx%d lattice: score %.2f, longest line inside its cells %.2f", n, n, l.score, inner)
		if inner > maxInnerLine {
			continue
		}
		found = append(found, l)
		best = max(best, l.score)
	}
	for _, l := range found {
		if l.score >= best-sizeTolerance {
			return l
		}
	}
	return nil
}

// warpMargin is how much of the picture around the quad is straightened
// with it, so the outer lines are whole even when the quad cuts them.
const warpMargin = 6

// locate straightens the quad (and a refined outline of it) and checks
// that it holds an n×n lattice; nil if not.
func (p *picture) locate(q quad, inverted bool, n int, thin bool) *located {
	side := 0.0
	for k := 0; k < 4; k++ {
		a, b := q[k], q[(k+1)%4]
		side = max(side, math.Hypot(b.X-a.X, b.Y-a.Y))
	}
	// Sample from a shrunk copy when the grid is much bigger than the
	// straightened one, so thin lines are averaged rather than skipped.
	f := max(1, int(side/float64(n*cellPx)))
	src := p.level(f, inverted)
	if thin {
		// Lines a pixel wide and faint: look for them where shrinking
		// kept the ink; the cells are read from the usual copy.
		src = p.inkLevel(f, inverted)
	}
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
			even := evenness(r) == 1 && evenness(c) == 1
			best = &located{n: n, q: cand, w: cw, rows: r, cols: c, score: score, inverted: inverted, even: even}
		}
		if k == 0 && score == 0 && n != 9 {
			// Not a line of this lattice near where it belongs: the
			// grid is another size (refining is for a 9x9's photo, the
			// commonest picture, whose first outline is often a little off).
			break
		}
	}
	if best != nil && thin {
		if cw, ok := warp(p.level(f, inverted), best.q, n*cellPx, warpMargin, float64(f)); ok {
			best.w = cw
		}
	}
	return best
}

// read reads the cells of a located grid with the print classifier m
// and the one that learnt handwriting too, hand (nil for none): the cells
// in fainter ink than the rest (the player's entries: in a newspaper
// puzzle filled in by pen, or an app's entries in a handwritten face) are
// read by hand, or by the average of both where hand is not sure; the
// others by m alone, unless m is unsure of many of them (handFace): then
// by hand alone. The print classifier alone reads print better (on the
// test pictures and the Wicht photos); the other reads handwriting far
// better.
func (l *located) read(m, hand *MLP) (res *Result, foreign int) {
	n := l.n
	w, rows, cols, q := l.w, l.rows, l.cols, l.q
	contrast := inkContrast(w)
	w = smoothGrain(w, contrast)
	res = &Result{Size: n, Cells: make([]Cell, n*n), Inverted: l.inverted}
	for k := range q {
		res.Corners[k] = image.Pt(int(q[k].X+0.5), int(q[k].Y+0.5))
	}
	hidden := make([]float32, m.Hidden)
	var handHidden []float32
	probs := make([][NumClasses]float32, n*n)
	views := make([]cellView, n*n)
	at := make([]image.Point, n*n)
	var heights []float32
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cx := (cols[c] + cols[c+1]) / 2
			cy := (rows[r] + rows[r+1]) / 2
			i := r*n + c
			at[i].X = min(max(cx-cellPx/2, 0), w.w-cellPx)
			at[i].Y = min(max(cy-cellPx/2, 0), w.h-cellPx)
			views[i] = analyzeCell(w, at[i].X, at[i].Y, contrast, n)
			if views[i].kind == cellFilled {
				heights = append(heights, views[i].height())
			}
		}
	}
	// In a grid written in numbers (a cell held two figures apart), two
	// figures that touch are a box wider than one.
	if n >= 10 && n <= 16 && slices.ContainsFunc(views, func(v cellView) bool { return v.pair }) {
		for i := range views {
			if v := &views[i]; v.kind == cellFilled && !v.pair && v.feat[inputSide*inputSide+1]*100 > v.height()*oneFigureN {
				if w := analyzeNumber(w, at[i].X, at[i].Y, contrast, n); w.pair {
					*v = w
				}
			}
		}
	}
	// A lone pencil mark in the middle of a cell (apps centre a cell's
	// only mark when they pack marks, in grids over 9x9) or a big one near
	// it (a 4x4's marks, two rows of two) passes for a digit by its shape;
	// it is smaller than the grid's digits. A 9x9's marks, three rows of
	// three, are too small to pass, and some fonts' digits differ in
	// height as much (old-style figures), so a 9x9 is left alone.
	tallest := float32(0)
	if len(heights) >= 3 && n != 9 {
		slices.Sort(heights)
		tallest = heights[len(heights)*3/4]
	}
	for i := range views {
		v := &views[i]
		// Beside other marks, a mark a little smaller than the digits
		// is one of several (a digit stands alone in its cell).
		if v.kind == cellFilled && (v.height() < loneMark*tallest || v.beside > 0 && v.height() < 0.9*tallest) {
			debug("cell %d: %.2f high, the grid's digits %.2f, %d marks beside: a pencil mark", i, v.height(), tallest, v.beside)
			v.kind = cellPencil
			v.marks = cellMarks(w, at[i].X, at[i].Y, contrast, n)
		}
	}
	dropTallFaint(views)
	faint := map[int]bool{}
	// The cells already read (written entries, and the givens
	// writtenEntries looked at).
	done := map[int]bool{}
	var written []int
	if hand != nil {
		handHidden = make([]float32, hand.Hidden)
		for _, i := range fainter(views, func(int) bool { return true }) {
			faint[i] = true
		}
		written = writtenEntries(views, faint, m, hand, probs, done)
		for _, i := range written {
			faint[i] = true
		}
	}
	for i := range views {
		v := &views[i]
		if v.kind != cellFilled || done[i] {
			continue
		}
		if !faint[i] {
			m.Predict(v.feat[:], hidden, &probs[i])
			continue
		}
		hand.Predict(v.feat[:], handHidden, &probs[i])
		if slices.Max(probs[i][:]) < SureAt {
			var q [NumClasses]float32
			m.Predict(v.feat[:], hidden, &q)
			for k := range q {
				probs[i][k] = (probs[i][k] + q[k]) / 2
			}
		}
	}
	// A grid whose print is read unsure in many cells is likely written
	// in a handwritten face, givens too (their ink is not fainter): hand
	// reads all its cells then.
	if hand != nil {
		unsure, filled := 0, 0
		for i := range views {
			if views[i].kind == cellFilled && !faint[i] {
				filled++
				if slices.Max(probs[i][:]) < SureAt {
					unsure++
				}
			}
		}
		if unsure > 0 && float64(unsure) >= handFace*float64(filled) {
			debug("%d of %d cells unsure in print: read by the handwriting classifier", unsure, filled)
			for i := range views {
				if v := &views[i]; v.kind == cellFilled && !faint[i] {
					readByHand(hand, v, handHidden, &probs[i])
				}
			}
		}
	}
	if n == 25 {
		res.letters = lettersOnly(views, probs)
	}
	for i := range views {
		v := &views[i]
		cell := &res.Cells[i]
		switch {
		case v.kind == cellEmpty:
			cell.Confidence = 1
		case v.kind == cellPencil:
			cell.Confidence, cell.Pencil = 1, true
			if n <= 9 {
				for d := 1; d <= n; d++ {
					if v.marks&(1<<(d-1)) != 0 {
						cell.Candidates = append(cell.Candidates, d)
					}
				}
			} else {
				cell.Candidates = readPacked(w, at[i], contrast, n, res.letters, m, hidden)
			}
		case v.kind == cellDoubtful:
			cell.Confidence = 0.5
		case v.kind == cellFilled && v.pair:
			cell.Digit, cell.Confidence = readNumber(v, n, hidden, &probs[i])
			debug("cell %d at %v: number %d (%.3f)", i, at[i], cell.Digit, cell.Confidence)
		case v.kind == cellFilled:
			prob := &probs[i]
			if k := argmax(prob); prob[k] >= foreignAt && (k == 0 || k > n && n < 25) {
				foreign++ // not a symbol, or one past this size's
			}
			toValues(prob, n, res.letters)
			best := argmax(prob)
			cell.Digit = best
			cell.Confidence = float64(prob[best])
			debug("cell %d at %v: %d (%.3f) size %.2fx%.2f", i, at[i], best, prob[best], v.height(), v.feat[inputSide*inputSide+1])
		}
	}
	resolveClashes(res, probs)
	markClashes(res)
	markEntries(res, views, written)
	return res, foreign
}

// readByHand reads a cell of a grid in a handwritten face, whose print
// reading is in p: by hand, unless hand takes for no symbol what print
// reads as one (blurred print, which passes the handFace bar too, can
// look like a smudge to a model that learnt smudges): then by print.
func readByHand(hand *MLP, v *cellView, hidden []float32, p *[NumClasses]float32) {
	printed := *p
	hand.Predict(v.feat[:], hidden, p)
	if argmax(p) == 0 && argmax(&printed) != 0 {
		*p = printed
	}
}

// handFace is the share of a grid's filled cells (those not fainter) that
// the print classifier must read unsure for the handwriting classifier to
// read them all instead. Set on a tuning handwriting set (vision/gen
// -handwriting -seed 23) and the train splits: printed screenshots reach
// 0.26 (at 0.2 two read worse), grids in a handwritten face mostly over
// 0.5; blurred photos of print pass it too, and hand reads them as well or
// better (the Wicht train split).
const handFace = 0.35

// Entries are told from givens by their ink: a filled cell is an entry
// when its ink is fainter than the givens' (another colour or weight) by
// a clear gap. The gap is the largest step between the sorted strengths;
// it must make the fainter side at most entryRatio of the darker, which
// must hold at least minGivens cells.
const (
	entryRatio = 0.8
	// entryEdge is the most the darkest entry's ink may be of the
	// faintest given's when there are two entries or more: a photo's blur
	// brings the two sides' edges closer than their means (16x16 photos'
	// entries at 0.88 of the next given). One faint cell must stand
	// entryRatio apart: a lone given printed or lit fainter than the rest
	// reaches 0.82-0.94 in Wicht train photos.
	entryEdge = 0.88
	minGivens = 3
)

// markEntries sets Entry on the cells whose ink is clearly fainter than
// the givens', and on those written (by hand, among print: see
// writtenEntries).
func markEntries(res *Result, views []cellView, written []int) {
	for _, i := range fainter(views, func(i int) bool { return res.Cells[i].Digit != 0 }) {
		res.Cells[i].Entry = true
	}
	for _, i := range written {
		if res.Cells[i].Digit != 0 {
			res.Cells[i].Entry = true
		}
	}
}

// fainter lists the filled cells (those views holds as filled and filled
// reports) whose ink is clearly fainter than the rest's.
func fainter(views []cellView, filled func(i int) bool) []int {
	type cellInk struct {
		i int
		s float32
	}
	var cells []cellInk
	for i, v := range views {
		if v.kind == cellFilled && v.strength > 0 && filled(i) {
			cells = append(cells, cellInk{i, v.strength})
		}
	}
	if len(cells) < minGivens+1 {
		return nil
	}
	slices.SortFunc(cells, func(a, b cellInk) int { return cmp.Compare(a.s, b.s) })
	cut, best := -1, float32(0)
	for k := 0; k+1 < len(cells); k++ {
		if r := cells[k+1].s / max(cells[k].s, 1e-6); r > best {
			cut, best = k, r
		}
	}
	if len(cells)-cut-1 < minGivens {
		return nil
	}
	mean := func(fs []cellInk) float32 {
		var t float32
		for _, f := range fs {
			t += f.s
		}
		return t / float32(len(fs))
	}
	faint, dark := cells[:cut+1], cells[cut+1:]
	debug("entries: %d cells at %.2f, givens %d at %.2f: %v", len(faint), mean(faint), len(dark), mean(dark), cells[:min(len(cells), cut+4)])
	edge := float32(entryRatio)
	if len(faint) >= 2 {
		edge = entryEdge
	}
	if mean(faint) > entryRatio*mean(dark) || cells[cut].s > edge*dark[0].s {
		return nil
	}
	out := make([]int, len(faint))
	for k, f := range faint {
		out[k] = f.i
	}
	return out
}

// foreignAt is how sure the classifier must be that a filled cell holds
// something no Sudoku of the grid's size has (a 7 in a 4x4, a letter in a
// 9x9, a sign) for the cell to count against the grid being a Sudoku.
const foreignAt = 0.9

func argmax(p *[NumClasses]float32) int {
	best := 0
	for k := range p {
		if p[k] > p[best] {
			best = k
		}
	}
	return best
}

// empty counts the cells read as empty.
func (r *Result) empty() int {
	n := 0
	for _, c := range r.Cells {
		if c.Digit == 0 {
			n++
		}
	}
	return n
}

// loneMark is how much shorter than the grid's digits (the upper quartile
// of their heights) a shape must be to be taken for a pencil mark.
const loneMark = 0.8

// boxShape is the rows and columns of a box in an n×n grid.
func boxShape(n int) (rows, cols int) {
	switch n {
	case 4:
		return 2, 2
	case 6:
		return 2, 3
	case 8:
		return 2, 4
	case 12:
		return 3, 4
	case 16:
		return 4, 4
	case 25:
		return 5, 5
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

// toValues turns class probabilities into value probabilities for an n×n
// grid, in place: value v's is at v, and a value past n has none. Up to
// 16x16 a class is its value (A-G are 10-16); a 25x25 is written either
// A-Y (letters: A is 1) or 1-9 then A-P (A is 10). Then the rest is
// scaled back to a distribution.
func toValues(p *[NumClasses]float32, n int, letters bool) {
	if letters {
		for v := 1; v <= 25; v++ {
			p[v] = p[v+9]
		}
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

// markSureAt is how sure the classifier must be of each of a cell's
// packed pencil marks for the marks to be given.
const markSureAt = 0.9

// readPacked reads the pencil marks of the cell of w at at in an n×n grid
// over 9x9, where apps pack a cell's marks in reading order, so each is
// read by the classifier m rather than told by its place. It returns
// them in order, or nil when one of them is not sure.
func readPacked(w *gray, at image.Point, contrast float64, n int, letters bool, m *MLP, hidden []float32) []int {
	var out []int
	var p [NumClasses]float32
	for _, f := range markFeatures(w, at.X, at.Y, contrast) {
		m.Predict(f[:], hidden, &p)
		toValues(&p, n, letters)
		d := argmax(&p)
		if d == 0 || p[d] < markSureAt {
			return nil
		}
		out = append(out, d)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// readNumber reads a cell of an n×n grid written in numbers that holds two
// figures (v.pair), with the classifier that knows the figure 0: the
// first must be 1, the second 0 to n-10. It returns the value, 10 and on,
// and the probability that it is right; 0 and no confidence when the
// classifier can't be had. It leaves in p the value probabilities, for
// resolveClashes.
func readNumber(v *cellView, n int, hidden []float32, p *[NumClasses]float32) (int, float64) {
	m, err := embedded25()
	if err != nil || m.Classes <= classZero {
		return 0, 0
	}
	if len(hidden) < m.Hidden {
		hidden = make([]float32, m.Hidden)
	}
	var left, right [NumClasses]float32
	m.Predict(v.feat[:], hidden, &left)
	m.Predict(v.right[:], hidden, &right)
	// figure is the probability of figure d (0-9) among the figures.
	figure := func(q *[NumClasses]float32, d int) float32 {
		sum := q[classZero]
		for k := 1; k <= 9; k++ {
			sum += q[k]
		}
		k := d
		if d == 0 {
			k = classZero
		}
		return q[k] / max(sum, 1e-9)
	}
	one := figure(&left, 1)
	clear(p[:])
	best := 0
	for d := 0; d <= n-10; d++ {
		p[10+d] = one * figure(&right, d)
		if p[10+d] > p[best] {
			best = 10 + d
		}
	}
	return best, float64(p[best])
}

// lettersOnly reports whether a 25x25's filled cells (views, with their
// class probabilities) are written A-Y rather than 1-9 then A-P: when
// hardly any of them holds a digit, or a letter past P.
func lettersOnly(views []cellView, probs [][NumClasses]float32) bool {
	digits, late := 0, 0
	for i := range views {
		if views[i].kind != cellFilled {
			continue
		}
		switch k := argmax(&probs[i]); {
		case k >= 1 && k <= 9 && probs[i][k] >= 0.5:
			digits++
		case k >= 26 && k <= 34 && probs[i][k] >= 0.5: // Q-Y
			late++
		}
	}
	return late >= digits
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
	frac := func(pos int) float64 { return lineFrac(w, vertical, pos) }
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
	// An inner line found far from where the outer two put it is likely
	// something else (a digit's stroke, a highlight's edge, moiré) beside
	// a fainter real line: look for one near its place.
	if outer := float64(pos[n]-pos[0]) / float64(n); outer > 0 {
		for k := 1; k < n; k++ {
			want := float64(pos[0]) + float64(k)*outer
			if math.Abs(float64(pos[k])-want) <= outer/4 {
				continue
			}
			lo, hi := max(0, int(want-outer/6)), min(size-1, int(want+outer/6))
			best, bestV := -1, 0.25
			for i := lo; i <= hi; i++ {
				if v := frac(i); v > bestV {
					best, bestV = i, v
				}
			}
			if best >= 0 {
				pos[k], val[k] = best, bestV
			}
		}
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

// lineFrac is the fraction of the length of the straightened grid w, across
// it at pos (a column when vertical), where a pixel is darker than the
// pixels a little way off on both sides: 1 along a whole grid line.
func lineFrac(w *gray, vertical bool, pos int) float64 {
	size := w.w
	at := func(along, across int) int {
		if vertical {
			return int(w.pix[along*size+across])
		}
		return int(w.pix[across*size+along])
	}
	// isLine reports whether the pixel at (a, pos) is darker than the
	// pixels d away across, on both sides that exist.
	isLine := func(a, d int) bool {
		if pos < 0 || pos >= size {
			return false
		}
		v := at(a, pos) + 3
		lo, hi := pos-d, pos+d
		okLo := lo < 0 || v < at(a, lo)
		okHi := hi >= size || v < at(a, hi)
		return okLo && okHi && (lo >= 0 || hi < size)
	}
	best := 0
	for _, d := range [...]int{2, 3, 5} {
		cnt := 0
		for a := 0; a < size; a++ {
			// A line a little off straight still counts.
			if isLine(a, d) {
				cnt++
			}
		}
		best = max(best, cnt)
	}
	return float64(best) / float64(size)
}

// innerLine is the most of its length that a line inside the cells of a
// lattice (lines at pos) is: high when the lattice is coarser than the
// grid, whose other lines cross its cells. The middle three fifths of each
// gap are looked at, since the lattice's own lines spread a little.
func innerLine(w *gray, pos []int, vertical bool) float64 {
	worst := 0.0
	for k := 0; k+1 < len(pos); k++ {
		gap := pos[k+1] - pos[k]
		for i := pos[k] + gap/5; i <= pos[k+1]-gap/5; i++ {
			worst = max(worst, lineFrac(w, vertical, i))
		}
	}
	return worst
}
