package vision

import (
	"image"
	"math"
	"math/bits"
	"slices"
	"sort"
)

// cellPx is the side of one cell in the straightened grid the cells are read
// from.
const cellPx = 40

// inputSide is the side of the square the classifier sees a digit in.
const inputSide = 20

// NumFeatures is the length of the classifier's input: the digit scaled into
// an inputSide² square, then its height and width as fractions of the cell.
const NumFeatures = inputSide*inputSide + 2

// cellKind is what a cell holds before the classifier looks at it.
type cellKind uint8

const (
	cellEmpty    cellKind = iota
	cellDoubtful          // something small in the middle: empty, but not sure
	cellPencil            // only small marks: pencil candidates
	cellFilled            // one big shape in the middle: a digit for the classifier
)

// cellView is one analysed cell.
type cellView struct {
	kind cellKind
	feat [NumFeatures]float32
	// marks holds, for a pencil cell, bit d-1 for each candidate d, read
	// from where its mark sits: apps lay the marks out like a box of the
	// grid, candidate 1 top left (in a 9x9, d in the d-th ninth of the
	// cell).
	marks uint16
	// beside counts, in a filled cell, the shapes the size of a pencil
	// mark that are apart from the digit.
	beside int
	// pair is set for a number of two figures: feat is the first's
	// input, right the second's.
	pair  bool
	right [NumFeatures]float32
	// strength is how dark a filled cell's ink is (see inkStrength).
	strength float32
	// shape is how a filled cell's ink is laid out (see glyphShape): what
	// tells a hand's digits from print's when their ink is as dark.
	shape glyphShape
	// faint is set for a digit found only at the lower threshold in a
	// cell that looked empty or held marks (its strength is 0).
	faint bool
	// box is a filled cell's ink box: x0, y0, x1, y1 in the cell.
	box [4]uint8
}

// CellFeatures returns the classifier's input for one cell image (a square
// cell, its lines at the edges, dark ink on light paper) and whether the
// cell holds a shape big enough to be a digit. contrast is how much darker
// the picture's ink is than its paper (0-255). The trainer uses it to see
// cells exactly as the reader does.
func CellFeatures(cell *image.Gray, contrast float64) ([]float32, bool) {
	g := toGray(cell)
	if g.w != cellPx || g.h != cellPx {
		return nil, false
	}
	v := analyzeCell(g, 0, 0, contrast, 9)
	return v.feat[:], v.kind == cellFilled
}

// analyzeCell looks at the cellPx² square of g whose top-left is (ox, oy).
// Ink is what is darker than the paper by 40 % of the contrast; when that
// leaves only a small shape in the middle (a thin digit whose strokes the
// threshold broke), it looks again at 25 %, joining pieces a pixel apart.
// In a grid of 9x9 or more it looks again at 25 % (not joining: that
// would join a noisy photo's grain) at a cell it found empty or holding
// marks, for a digit printed fainter than the grid's lines (a blurred
// photo spreads a thin stroke's ink wider and paler than a thick line's),
// and takes one shaped and placed like a digit (faintDigit).
func analyzeCell(g *gray, ox, oy int, contrast float64, size int) cellView {
	ink, paper := cellInk(g, ox, oy)
	v := analyzeInk(&ink, paper, contrast, 0.4, size, oneFigure)
	switch {
	case v.kind == cellDoubtful:
		if w := analyzeInk(&ink, paper, contrast, -0.25, size, oneFigure); w.kind == cellFilled {
			return w
		}
	case v.kind != cellFilled && size >= 9 && inkAbove(&ink, max(0.25*contrast, 14)):
		if w := analyzeInk(&ink, paper, contrast, 0.25, size, oneFigure); w.kind == cellFilled && w.faintDigit() {
			// Its ink says nothing of whether it is a player's entry
			// (fainter): blur paled it. No strength keeps it out of
			// that count.
			w.faint, w.strength = true, 0
			return w
		}
	}
	return v
}

// inkAbove reports whether any pixel inside the cell's inset is inkier
// than thr.
func inkAbove(ink *[cellPx * cellPx]float32, thr float64) bool {
	const n = cellPx
	const inset = n / 10
	for y := inset; y < n-inset; y++ {
		for _, v := range ink[y*n+inset : y*n+n-inset] {
			if float64(v) > thr {
				return true
			}
		}
	}
	return false
}

// faintDigit reports whether a filled cell found only at the lower
// threshold, in a cell that looked empty or held marks, is shaped like a
// digit: one shape, alone, taller than wide, as tall as a digit, its
// centre in the middle of the cell across (as a 1's, see analyzeInk) and
// in its middle half down. A 9x9's pencil mark, joined at that threshold,
// stays shorter; a smudge is about as wide as tall; the soft edge of a
// shadow or of a line sits near a side or runs taller.
func (v *cellView) faintDigit() bool {
	const n = cellPx
	h, w := v.height(), v.feat[inputSide*inputSide+1]
	cx, cy := int(v.box[0])+int(v.box[2]), int(v.box[1])+int(v.box[3]) // twice the centre
	across := cx*10 >= 2*n*3 && cx*10 <= 2*n*7
	down := cy*4 >= 2*n && cy*4 <= 2*n*3
	return v.beside == 0 && !v.pair && h >= 0.35 && h <= 0.7 && w <= 0.8*h && across && down
}

// analyzeCellAt is analyzeCell with ink at ratio of the contrast; a
// negative ratio also joins pieces of ink a pixel apart.
func analyzeCellAt(g *gray, ox, oy int, contrast, ratio float64, size, widest int) cellView {
	ink, paper := cellInk(g, ox, oy)
	return analyzeInk(&ink, paper, contrast, ratio, size, widest)
}

// analyzeInk is analyzeCellAt on the cell's ink (as cellInk gives it).
func analyzeInk(ink *[cellPx * cellPx]float32, paper int, contrast, ratio float64, size, widest int) cellView {
	join := ratio < 0
	ratio = math.Abs(ratio)
	const n = cellPx
	const inset = n / 10
	thr := max(ratio*contrast, 14)
	b := &bitmap{w: n, h: n, pix: make([]uint8, n*n)}
	for y := inset; y < n-inset; y++ {
		for x := inset; x < n-inset; x++ {
			if float64(ink[y*n+x]) > thr {
				b.pix[y*n+x] = 1
			}
		}
	}
	clearLines(b, inset)
	if join {
		b = dilate(b)
	}
	comps, labels := components(b)
	lo, hi := inset, n-inset-1
	// How many pixels of each shape lie on the window's edge.
	edge := make([]int, len(comps))
	for y := lo; y <= hi; y++ {
		for x := lo; x <= hi; x++ {
			if l := labels[y*n+x]; l != 0 && (x == lo || x == hi || y == lo || y == hi) {
				edge[l-1]++
			}
		}
	}
	keep := comps[:0]
	keepEdge := edge[:0]
	for k, c := range comps {
		if c.n < 3 {
			continue
		}
		touches := c.minX <= lo || c.minY <= lo || c.maxX >= hi || c.maxY >= hi
		// A tall thin stroke down the middle is a 1 written large (a
		// hand's reaches the cell's edge), not a piece of a grid line.
		middle := (c.minX+c.maxX)/2 >= n*3/10 && (c.minX+c.maxX)/2 <= n*7/10
		if touches && ((c.bw() >= n/2 && c.bh() <= n*3/20) || (c.bh() >= n/2 && c.bw() <= n*3/20 && !middle)) {
			continue // a piece of a grid line
		}
		if touches && c.bh() <= n/8 && c.bw() <= n/8 {
			continue // a corner or a crossing of lines
		}
		keep = append(keep, c)
		keepEdge = append(keepEdge, edge[k])
	}
	var v cellView
	main := -1
	small := 0
	for i, c := range keep {
		cx, cy := (c.minX+c.maxX)/2, (c.minY+c.maxY)/2
		centred := cx >= n/4 && cx <= n*3/4 && cy >= n/4 && cy <= n*3/4
		switch {
		case centred && c.bh() >= n*3/10:
			if main < 0 || c.bh() > keep[main].bh() || (c.bh() == keep[main].bh() && c.n > keep[main].n) {
				main = i
			}
		case centred && c.bh() >= n/5:
			if v.kind < cellDoubtful {
				v.kind = cellDoubtful
			}
			small++
		case c.bh() >= n/10:
			small++
		}
	}
	if main < 0 {
		if small >= 2 && v.kind == cellEmpty {
			v.kind = cellPencil
		} else if small >= 3 {
			v.kind = cellPencil
		}
		if v.kind == cellPencil || v.kind == cellEmpty {
			// Marks in the outer row or column sit where the search for a
			// digit does not look: an empty cell may hold some too.
			v.marks = readMarks(ink[:], max(0.25*contrast, 14), size)
			if v.kind == cellEmpty && bits.OnesCount16(v.marks) >= 2 {
				v.kind = cellPencil
			}
			if v.kind != cellPencil {
				v.marks = 0
			}
		}
		return v
	}
	v.kind = cellFilled
	m := keep[main]
	// In a 12x12 or 16x16 that apps write in numbers, 10 and on are two
	// figures side by side.
	numbers := size >= 10 && size <= 16
	x0, y0, x1, y1 := m.minX, m.minY, m.maxX, m.maxY
	margin := n / 16
	// Strokes a threshold broke apart belong to the digit when they sit
	// inside or touch its box.
	for i, c := range keep {
		if i == main {
			continue
		}
		if edgePiece(c, m, keepEdge[i]) {
			continue
		}
		if c.maxX >= m.minX-margin && c.minX <= m.maxX+margin && c.maxY >= m.minY-margin && c.minY <= m.maxY+margin &&
			c.bh() < n*6/10 && c.bw() < n*6/10 || numbers && figurePair(m, c) {
			x0, y0, x1, y1 = min(x0, c.minX), min(y0, c.minY), max(x1, c.maxX), max(y1, c.maxY)
		} else if c.bh() >= n/10 {
			v.beside++
		}
	}
	if numbers {
		if gs, ge, ok := splitColumn(b, x0, y0, x1, y1, widest); ok {
			lx0, ly0, lx1, ly1 := inkBox(b, x0, y0, gs-1, y1)
			rx0, ry0, rx1, ry1 := inkBox(b, ge+1, y0, x1, y1)
			if ly1-ly0+1 >= (y1-y0+1)/2 && ry1-ry0+1 >= (y1-y0+1)/2 {
				v.pair = true
				v.strength = inkStrength(ink, b, x0, y0, x1, y1, paper)
				glyphFeatures(ink, lx0, ly0, lx1, ly1, contrast, &v.feat)
				glyphFeatures(ink, rx0, ry0, rx1, ry1, contrast, &v.right)
				return v
			}
		}
	}
	v.box = [4]uint8{uint8(x0), uint8(y0), uint8(x1), uint8(y1)}
	v.strength = inkStrength(ink, b, x0, y0, x1, y1, paper)
	v.shape = shapeOf(b, x0, y0, x1, y1)
	glyphFeatures(ink, x0, y0, x1, y1, contrast, &v.feat)
	return v
}

// edgePiece reports whether shape c, beside the digit m, is a piece of a
// grid line rather than of the digit: it touches the cell window's edge
// (edge of its pixels lie on it), lies mostly outside the digit's box,
// and runs along the edge (n/8 pixels on it) or is a sliver lying along
// it. A blurred photo's line spreads its edge into the cell, and a corner
// of it left by the threshold would otherwise stretch the digit's box to
// the window's edge. A pen stroke that reaches the edge meets it end on.
func edgePiece(c, m component, edge int) bool {
	const n = cellPx
	const lo, hi = n / 10, n - n/10 - 1
	if edge == 0 {
		return false
	}
	ow := min(c.maxX, m.maxX) - max(c.minX, m.minX) + 1
	oh := min(c.maxY, m.maxY) - max(c.minY, m.minY) + 1
	if ow > 0 && oh > 0 && ow*oh*2 >= c.bw()*c.bh() {
		return false
	}
	return edge >= n/8 ||
		c.bh() <= n/8 && (c.minY <= lo+2 || c.maxY >= hi-2) ||
		c.bw() <= n/8 && (c.minX <= lo+2 || c.maxX >= hi-2)
}

// inkStrength is how dark a glyph's ink is, as a fraction of its cell's
// paper: the 95th percentile of the ink of its pixels (those set in b in
// its box; the 90th read a thin given as faint as the entries of a 16x16
// in numbers). Black print on white is near 1, a blue entry near 0.7.
func inkStrength(ink *[cellPx * cellPx]float32, b *bitmap, x0, y0, x1, y1, paper int) float32 {
	var vals []float32
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if b.pix[y*b.w+x] != 0 {
				vals = append(vals, ink[y*b.w+x])
			}
		}
	}
	if len(vals) == 0 || paper <= 0 {
		return 0
	}
	slices.Sort(vals)
	return vals[min(len(vals)*95/100, len(vals)-1)] / float32(paper)
}

// The widest a single symbol's box is, in per cent of its height: any
// letter (A-G, bold) in a grid not known to be written in numbers; any
// figure in one that is (a cell elsewhere in it held a number).
const (
	oneFigure  = 115
	oneFigureN = 95
)

// analyzeNumber looks again at a filled cell of a grid written in numbers
// (other cells held two figures), whose box is too wide for one figure:
// two that touch.
func analyzeNumber(g *gray, ox, oy int, contrast float64, size int) cellView {
	return analyzeCellAt(g, ox, oy, contrast, 0.4, size, oneFigureN)
}

// figurePair reports whether shape c is the other figure of a number
// whose first or second figure is m: as tall, level with it, and close.
func figurePair(m, c component) bool {
	const n = cellPx
	lo, hi := min(m.bh(), c.bh()), max(m.bh(), c.bh())
	overlap := min(m.maxY, c.maxY) - max(m.minY, c.minY) + 1
	gap := max(c.minX-m.maxX, m.minX-c.maxX)
	return lo*10 >= hi*6 && overlap*10 >= lo*6 && gap <= n/6
}

// splitColumn finds, strictly inside the box, columns with no ink between
// two inked parts of it: the gap between the figures of a number. It
// returns the gap's first and last column.
func splitColumn(b *bitmap, x0, y0, x1, y1, widest int) (gs, ge int, ok bool) {
	empty := func(x int) bool {
		for y := y0; y <= y1; y++ {
			if b.pix[y*b.w+x] != 0 {
				return false
			}
		}
		return true
	}
	for x := x0 + 1; x < x1; x++ {
		if empty(x) {
			e := x
			for e+1 < x1 && empty(e+1) {
				e++
			}
			return x, e, true
		}
	}
	// Bold figures may touch: a box wider than any one figure (widest per
	// cent of its height) is cut at its thinnest column in the middle
	// third.
	bw, bh := x1-x0+1, y1-y0+1
	if bw*100 <= bh*widest {
		return 0, 0, false
	}
	best, least := 0, bh+1
	for x := x0 + bw/3; x <= x1-bw/3; x++ {
		cnt := 0
		for y := y0; y <= y1; y++ {
			cnt += int(b.pix[y*b.w+x])
		}
		if cnt < least {
			best, least = x, cnt
		}
	}
	return best, best, true
}

// inkBox is the smallest box inside the given one that holds all its ink.
func inkBox(b *bitmap, x0, y0, x1, y1 int) (int, int, int, int) {
	bx0, by0, bx1, by1 := x1, y1, x0, y0
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if b.pix[y*b.w+x] != 0 {
				bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
			}
		}
	}
	if bx1 < bx0 {
		return x0, y0, x0, y0
	}
	return bx0, by0, bx1, by1
}

// glyphFeatures writes the classifier's input for the glyph whose box in
// the cell's ink is (x0, y0)-(x1, y1): the box scaled into an inputSide²
// square, centred, then its height and width as fractions of the cell.
func glyphFeatures(ink *[cellPx * cellPx]float32, x0, y0, x1, y1 int, contrast float64, feat *[NumFeatures]float32) {
	const n = cellPx
	bw, bh := x1-x0+1, y1-y0+1
	scale := float64(inputSide-2) / float64(max(bw, bh))
	// Place the box centred in the input square.
	offX := (float64(inputSide) - float64(bw)*scale) / 2
	offY := (float64(inputSide) - float64(bh)*scale) / 2
	inv := 1 / contrastOr(contrast)
	for j := 0; j < inputSide; j++ {
		for i := 0; i < inputSide; i++ {
			s := 0.0
			// 2x2 samples per input pixel.
			for sj := 0; sj < 2; sj++ {
				for si := 0; si < 2; si++ {
					px := (float64(i)+0.25+0.5*float64(si)-offX)/scale + float64(x0) - 0.5
					py := (float64(j)+0.25+0.5*float64(sj)-offY)/scale + float64(y0) - 0.5
					if px < float64(x0)-1 || py < float64(y0)-1 || px > float64(x1)+1 || py > float64(y1)+1 {
						continue
					}
					v := samplePatch(ink[:], n, px, py) * inv
					s += min(max(v, 0), 1)
				}
			}
			feat[j*inputSide+i] = float32(s / 4)
		}
	}
	feat[inputSide*inputSide] = float32(bh) / n
	feat[inputSide*inputSide+1] = float32(bw) / n
}

// cellInk returns how much darker each pixel of the cellPx² square of g at
// (ox, oy) is than the paper under it, and the cell's paper level.
func cellInk(g *gray, ox, oy int) (ink [cellPx * cellPx]float32, paper int) {
	const n = cellPx
	const inset = n / 10
	var patch [n * n]uint8
	for y := 0; y < n; y++ {
		copy(patch[y*n:(y+1)*n], g.pix[(oy+y)*g.w+ox:])
	}
	// Paper, pixel by pixel: the picture with every dark shape thinner
	// than a stroke closed over (a morphological closing). A shadow's edge
	// or a highlighted cell's border is a step, which closing keeps, so
	// neither reads as ink; strokes and grid lines, which are thin, do.
	var paperMap [n * n]uint8
	closeGray(patch[:], paperMap[:], n, closeRadius)
	// The cell's paper level: a high percentile of the inner part.
	var hist [256]int
	total := 0
	for y := inset; y < n-inset; y++ {
		for x := inset; x < n-inset; x++ {
			hist[paperMap[y*n+x]]++
			total++
		}
	}
	bg, acc := 255, 0
	for v := 255; v >= 0; v-- {
		acc += hist[v]
		if acc*100 >= total*25 {
			bg = v
			break
		}
	}
	// Ink is how much darker a pixel is than the paper under it, scaled
	// as if that paper were lit as the cell's paper is (light multiplies).
	for i := range ink {
		p := float64(max(paperMap[i], 16))
		ink[i] = float32((p - float64(patch[i])) * float64(bg) / p)
	}
	return ink, bg
}

// cellMarks reads the pencil marks of the cell of g at (ox, oy), one
// that looked like a digit until it proved smaller than the grid's digits.
func cellMarks(g *gray, ox, oy int, contrast float64, size int) uint16 {
	ink, _ := cellInk(g, ox, oy)
	return readMarks(ink[:], max(0.25*contrast, 14), size)
}

// height is the height of a filled cell's digit, as a fraction of the
// cell.
func (v *cellView) height() float32 { return v.feat[inputSide*inputSide] }

func contrastOr(c float64) float64 {
	if c < 20 {
		return 20
	}
	return c
}

func samplePatch(p []float32, n int, x, y float64) float64 {
	x = min(max(x, 0), float64(n-1))
	y = min(max(y, 0), float64(n-1))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, n-1), min(y0+1, n-1)
	fx, fy := x-float64(x0), y-float64(y0)
	a, b := float64(p[y0*n+x0]), float64(p[y0*n+x1])
	c, d := float64(p[y1*n+x0]), float64(p[y1*n+x1])
	return (a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy
}

// inkContrast estimates how much darker ink is than paper in a straightened
// grid: the spread between its paper and its darkest few per cent.
func inkContrast(g *gray) float64 {
	var hist [256]int
	for _, v := range g.pix {
		hist[v]++
	}
	pct := func(p int) int {
		acc := 0
		for v := 0; v < 256; v++ {
			acc += hist[v]
			if acc*100 >= len(g.pix)*p {
				return v
			}
		}
		return 255
	}
	return float64(pct(60) - pct(3))
}

// sortByArea orders component indexes by bounding-box area, largest first.
func sortByArea(comps []component) []int {
	idx := make([]int, len(comps))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		ca, cb := &comps[idx[a]], &comps[idx[b]]
		return ca.bw()*ca.bh() > cb.bw()*cb.bh()
	})
	return idx
}

// clearLines erases rows and columns near the cell's edges that are ink
// across most of the cell: grid lines the cell window caught, which would
// otherwise join into an L or a frame around the digit.
func clearLines(b *bitmap, inset int) {
	n := b.w
	span := n - 2*inset
	band := n / 4
	for y := inset; y < n-inset; y++ {
		if y >= band && y < n-band {
			continue
		}
		cnt := 0
		for x := inset; x < n-inset; x++ {
			cnt += int(b.pix[y*n+x])
		}
		if cnt*10 >= span*6 {
			clear(b.pix[y*n+inset : y*n+n-inset])
		}
	}
	for x := inset; x < n-inset; x++ {
		if x >= band && x < n-band {
			continue
		}
		cnt := 0
		for y := inset; y < n-inset; y++ {
			cnt += int(b.pix[y*n+x])
		}
		if cnt*10 >= span*6 {
			for y := inset; y < n-inset; y++ {
				b.pix[y*n+x] = 0
			}
		}
	}
}

// dilate grows ink by one pixel in every direction (3x3).
func dilate(b *bitmap) *bitmap {
	out := &bitmap{w: b.w, h: b.h, pix: make([]uint8, len(b.pix))}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if b.pix[y*b.w+x] == 0 {
				continue
			}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < b.w && yy < b.h {
						out.pix[yy*b.w+xx] = 1
					}
				}
			}
		}
	}
	return out
}

// closeRadius is the half-width of the square the cell's paper is closed
// over: wider than the boldest stroke's half-width, narrower than a cell.
const closeRadius = cellPx / 4

// closeGray writes to dst the grey closing of src (n×n): the maximum over
// a (2r+1)² square, then the minimum over the same square, one axis at a
// time. Dark shapes narrower than the square vanish; wider ones and steps
// between light and dark stay where they are. Windows are cut at the
// edges. Each pass is van Herk's: a running extreme forward and backward
// within blocks of 2r+1, so a pixel costs the same whatever r is.
func closeGray(src, dst []uint8, n, r int) {
	tmp := make([]uint8, n*n)
	k := 2*r + 1
	L := n + 2*r
	line := make([]uint8, L)
	g := make([]uint8, L)
	h := make([]uint8, L)
	filter := func(in, out []uint8, stride, step int, isMax bool) {
		pad := uint8(255) // nothing beyond the edge: the identity of min
		better := func(a, b uint8) uint8 {
			if (a > b) == isMax {
				return a
			}
			return b
		}
		if isMax {
			pad = 0
		}
		for l := 0; l < n; l++ {
			base := l * stride
			for i := range line {
				line[i] = pad
			}
			for i := 0; i < n; i++ {
				line[r+i] = in[base+i*step]
			}
			for b := 0; b < L; b += k {
				end := min(b+k, L)
				g[b] = line[b]
				for i := b + 1; i < end; i++ {
					g[i] = better(g[i-1], line[i])
				}
				h[end-1] = line[end-1]
				for i := end - 2; i >= b; i-- {
					h[i] = better(h[i+1], line[i])
				}
			}
			for i := 0; i < n; i++ {
				// The window of pixel i is line[i : i+k].
				out[base+i*step] = better(h[i], g[i+k-1])
			}
		}
	}
	filter(src, tmp, n, 1, true)
	filter(tmp, dst, 1, n, true)
	filter(dst, tmp, n, 1, false)
	filter(tmp, dst, 1, n, false)
}

// readMarks reads the pencil marks of a cell from its ink (cellPx², as
// analyzeCellAt makes it): each small shape is a candidate, told by where
// it sits in the cell's layout, shaped like a box of a size×size grid. It looks closer to the cell's edges
// than the digit search does, since the marks of the outer row and column
// sit near them, and with a lower threshold, since marks are often grey.
func readMarks(ink []float32, thr float64, size int) uint16 {
	rows, cols := boxShape(size)
	const n = cellPx
	// A mark fits its place in the layout: at most three quarters of it
	// (n/4 in a 9x9), and 2 pixels more for the join.
	maxH, maxW := n*3/(4*rows)+2, n*3/(4*cols)+2
	maxW = max(maxW, n/4+2)
	var marks uint16
	for _, c := range markShapes(ink, thr, maxH, maxW) {
		cx, cy := (c.minX+c.maxX)/2, (c.minY+c.maxY)/2
		col, row := min(cx*cols/n, cols-1), min(cy*rows/n, rows-1)
		marks |= 1 << (row*cols + col)
	}
	return marks
}

// markShapes finds the pencil marks in a cell's ink (cellPx²): small
// shapes at most maxH high and maxW wide, in the dilated bitmap (2 pixels
// taller and wider than their ink).
func markShapes(ink []float32, thr float64, maxH, maxW int) []component {
	const n = cellPx
	const inset = n / 20
	b := &bitmap{w: n, h: n, pix: make([]uint8, n*n)}
	for y := inset; y < n-inset; y++ {
		for x := inset; x < n-inset; x++ {
			if float64(ink[y*n+x]) > thr {
				b.pix[y*n+x] = 1
			}
		}
	}
	clearLines(b, inset)
	// Small thin marks break apart at a threshold: join pieces a pixel
	// apart (which makes every shape 2 pixels taller and wider).
	comps, _ := components(dilate(b))
	keep := comps[:0]
	for _, c := range comps {
		if c.n < 12 || c.bh() < n/10+2 || c.bh() > maxH || c.bw() > maxW {
			continue
		}
		// A sliver along the window's edge is a piece of a blurred grid
		// line (a photo's box line spreads a few pixels into the cell),
		// not a mark, which has paper all round it.
		if edgeSliver(ink, c, inset+2) {
			continue
		}
		keep = append(keep, c)
	}
	return keep
}

// markFeatures returns the classifier's input for each pencil mark of the
// cell of g at (ox, oy), for grids whose apps pack a cell's marks, where
// only reading a mark tells which it is. A mark's size is given as a
// digit's (its shape is scaled to the input square either way), since
// the classifier learned digits half a cell high.
func markFeatures(g *gray, ox, oy int, contrast float64) [][NumFeatures]float32 {
	const n = cellPx
	ink, _ := cellInk(g, ox, oy)
	shapes := markShapes(ink[:], max(0.25*contrast, 14), n/2, n/2)
	out := make([][NumFeatures]float32, len(shapes))
	for k, c := range shapes {
		glyphFeatures(&ink, c.minX+1, c.minY+1, c.maxX-1, c.maxY-1, contrast, &out[k])
		h := &out[k][inputSide*inputSide]
		f := 0.55 / max(*h, 0.05)
		*h *= f
		out[k][inputSide*inputSide+1] *= f
	}
	return out
}

// edgeSliver reports whether a shape the mark search found (in the dilated
// bitmap) is a thin sliver near the cell's edge whose ink keeps rising
// toward the edge: the blurred side of a grid line in a photo, not a mark,
// which is a ridge with paper on both sides.
func edgeSliver(ink []float32, c component, edge int) bool {
	const n = cellPx
	// mean ink along the shape at column (or row) k.
	along := func(vertical bool, k int) float32 {
		k = min(max(k, 0), n-1)
		var s float32
		if vertical {
			for y := c.minY; y <= c.maxY; y++ {
				s += ink[y*n+k]
			}
			return s / float32(c.bh())
		}
		for x := c.minX; x <= c.maxX; x++ {
			s += ink[k*n+x]
		}
		return s / float32(c.bw())
	}
	check := func(vertical bool, lo, hi, outward int) bool {
		if lo <= edge-2 || hi >= n-edge+1 {
			return true // cut by the window: the line itself
		}
		mid := (lo + hi) / 2
		out := lo - 1
		if outward > 0 {
			out = hi + 1
		}
		return along(vertical, out) >= 0.7*along(vertical, mid)
	}
	if c.bw() <= n/8 {
		if c.minX <= edge && check(true, c.minX, c.maxX, -1) {
			return true
		}
		if c.maxX >= n-edge-1 && check(true, c.minX, c.maxX, 1) {
			return true
		}
	}
	if c.bh() <= n/8 {
		if c.minY <= edge && check(false, c.minY, c.maxY, -1) {
			return true
		}
		if c.maxY >= n-edge-1 && check(false, c.minY, c.maxY, 1) {
			return true
		}
	}
	return false
}
