package vision

import "slices"

// A photo of a screen in a dim room is grainy: the camera's noise, and
// the moiré of the screen's pixels against the sensor's, spread over the
// paper in specks and bands. Against its digits' contrast that grain
// reaches the ink threshold: specks join a digit's box (a 9 read as a 7)
// or pass for marks and digits in empty cells. Such a grid is smoothed
// before its cells are cut.

// grainOf is how grainy the straightened grid g is: the median absolute
// difference between pixels side by side (on clean paper and flat
// screenshots 0; a step at a stroke's edge is too rare to move it).
func grainOf(g *gray) int {
	var hist [256]int
	total := 0
	for y := 0; y < g.h; y += 2 {
		row := g.pix[y*g.w : (y+1)*g.w]
		for x := 1; x < len(row); x++ {
			d := int(row[x]) - int(row[x-1])
			if d < 0 {
				d = -d
			}
			hist[d]++
			total++
		}
	}
	acc := 0
	for d, k := range hist {
		acc += k
		if acc*2 >= total {
			return d
		}
	}
	return 255
}

// grainy is how grainy a grid must be, as a fraction of its ink's
// contrast, to be smoothed. Photos of screens in a dim room (vision/gen
// -kinds) reach 0.02-0.09; the Wicht train split's newspaper photos at
// most 0.032, the main, size and handwriting sets' photos 0.043, and
// screenshots 0, none of which is smoothed.
const grainy = 0.05

// smoothGrain returns g, or a copy smoothed by a 3x3 binomial filter
// (1 2 1 by 1 2 1) when g's grain is at least grainy of contrast.
func smoothGrain(g *gray, contrast float64) *gray {
	grain := grainOf(g)
	if float64(grain) < grainy*contrastOr(contrast) {
		return g
	}
	debug("grain %d at contrast %.0f: smoothed", grain, contrast)
	return blur121(g)
}

// blur121 is g filtered by 1 2 1 across and down (edges repeated).
func blur121(g *gray) *gray {
	w, h := g.w, g.h
	tmp := make([]uint16, w*h)
	for y := 0; y < h; y++ {
		row := g.pix[y*w : (y+1)*w]
		for x := 0; x < w; x++ {
			l, r := row[max(x-1, 0)], row[min(x+1, w-1)]
			tmp[y*w+x] = uint16(l) + 2*uint16(row[x]) + uint16(r)
		}
	}
	out := newGray(w, h)
	for y := 0; y < h; y++ {
		u, d := max(y-1, 0), min(y+1, h-1)
		for x := 0; x < w; x++ {
			s := uint32(tmp[u*w+x]) + 2*uint32(tmp[y*w+x]) + uint32(tmp[d*w+x])
			out.pix[y*w+x] = uint8((s + 8) / 16)
		}
	}
	return out
}

// tallFaint is how much taller than the grid's digits a faint digit may
// be. In every set and the Wicht train split faint digits stand 0.68 to
// 1.13 times as tall as the grid's others; a moiré shape in a photo of a
// screen (vision/gen -kinds -seed 7) 1.47.
const tallFaint = 1.25

// dropTallFaint empties the cells holding a faint digit (one found only
// at the lower threshold, see faintDigit) much taller than the grid's
// digits found at the usual one: the arcs of a photo's moiré, joined at
// that threshold into one tall shape, not a digit printed fainter, which
// is as tall as the others.
func dropTallFaint(views []cellView) {
	var heights []float32
	for i := range views {
		if v := &views[i]; v.kind == cellFilled && !v.faint {
			heights = append(heights, v.height())
		}
	}
	if len(heights) < 5 {
		return
	}
	slices.Sort(heights)
	typical := heights[len(heights)/2]
	for i := range views {
		v := &views[i]
		if v.kind == cellFilled && v.faint && v.height() > tallFaint*typical {
			debug("cell %d: a faint shape %.2f high, the grid's digits %.2f: moiré, empty", i, v.height(), typical)
			*v = cellView{}
		}
	}
}

// solidEdge is how far from the ink to the paper (as a fraction) the
// strip just past one of a solid cell's lines must be: the negatives'
// black squares reach 0.98 or more (or 0, surrounded by black squares);
// a glare's shadow in a photo of a screen (vision/gen -kinds -seed 8)
// 0.69-0.86.
const solidEdge = 0.9

// sharpSolid reports whether the cell at row r, column c of l, dark as a
// crossword's black square, ends at one of its lines at least: the strip
// of the cell beside it just past the line (a tenth to a quarter of a
// cell in) is nearly paper (solidEdge of the way from ink to paper). A
// black square is drawn to its lines; a glare's shadow in a photo of a
// screen in a night theme (dark on the inverted picture) fades over a
// cell or more, and darkens the cells beside it too.
func (l *located) sharpSolid(r, c, ink, paper int) bool {
	w, n := l.w, l.n
	x0, x1 := l.cols[c], l.cols[c+1]
	y0, y1 := l.rows[r], l.rows[r+1]
	sx, sy := x1-x0, y1-y0
	best := 0.0
	strip := func(ax, ay, bx, by int) {
		ax, ay = max(ax, 0), max(ay, 0)
		bx, by = min(bx, w.w), min(by, w.h)
		var hist [256]int
		count := 0
		for y := ay; y < by; y++ {
			for x := ax; x < bx; x++ {
				hist[w.pix[y*w.w+x]]++
				count++
			}
		}
		if count == 0 {
			return
		}
		acc := 0
		for v := range hist {
			if acc += hist[v]; acc*2 > count {
				best = max(best, float64(v-ink)/float64(max(paper-ink, 1)))
				return
			}
		}
	}
	if c+1 < n {
		strip(x1+sx/10, y0+sy/5, x1+sx/4, y1-sy/5)
	}
	if c > 0 {
		strip(x0-sx/4, y0+sy/5, x0-sx/10, y1-sy/5)
	}
	if r+1 < n {
		strip(x0+sx/5, y1+sy/10, x1-sx/5, y1+sy/4)
	}
	if r > 0 {
		strip(x0+sx/5, y0-sy/4, x1-sx/5, y0-sy/10)
	}
	return best >= solidEdge
}
