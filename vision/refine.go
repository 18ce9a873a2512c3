package vision

import (
	"math"
	"sort"
)

// refineMargin is how far outside the first guess of the grid's outline
// the refinement looks for its outer lines, in straightened pixels.
const refineMargin = cellPx

// refine moves the corners of q onto the grid's outer lines. The first
// guess comes from the extreme pixels of a blob, which text or a shadow
// touching the grid pulls out of place; here each side's line is traced
// cell by cell in a straightened picture and fitted with a straight line,
// and the corners are where those lines cross. It returns q unchanged when
// a side can't be traced.
func refine(src *gray, q quad, scale float64, n int) quad {
	span := n * cellPx
	w, ok := warp(src, q, span, refineMargin, scale)
	if !ok {
		return q
	}
	size := w.w
	// lineAt counts, along [a0, a1) at offset pos across, pixels darker
	// than both pixels d away across.
	lineAt := func(vertical bool, pos, a0, a1 int) int {
		best := 0
		for _, d := range [...]int{2, 3, 5} {
			if pos-d < 0 || pos+d >= size {
				continue
			}
			cnt := 0
			for a := a0; a < a1; a++ {
				var v, lo, hi int
				if vertical {
					v, lo, hi = int(w.pix[a*size+pos]), int(w.pix[a*size+pos-d]), int(w.pix[a*size+pos+d])
				} else {
					v, lo, hi = int(w.pix[pos*size+a]), int(w.pix[(pos-d)*size+a]), int(w.pix[(pos+d)*size+a])
				}
				if v+3 < lo && v+3 < hi {
					cnt++
				}
			}
			best = max(best, cnt)
		}
		return best
	}
	// The four sides as lines across = a + b*along, in straightened pixels.
	type line struct{ a, b float64 }
	var sides [4]line // top, right, bottom, left
	for s := 0; s < 4; s++ {
		vertical := s == 1 || s == 3
		expect := refineMargin
		if s == 1 || s == 2 {
			expect = refineMargin + span
		}
		var xs, ys []float64
		for seg := 0; seg < n; seg++ {
			a0 := refineMargin + seg*cellPx + cellPx/5
			a1 := refineMargin + (seg+1)*cellPx - cellPx/5
			bestPos, bestCnt := -1, (a1-a0)*2/3
			// Outermost strong line wins: the border, not the first inner line.
			for off := -refineMargin * 3 / 4; off <= cellPx/2; off++ {
				pos := expect + off
				if s == 1 || s == 2 {
					pos = expect - off
				}
				if c := lineAt(vertical, pos, a0, a1); c > bestCnt {
					bestPos, bestCnt = pos, c
				}
			}
			if bestPos >= 0 {
				xs = append(xs, float64(a0+a1)/2)
				ys = append(ys, float64(bestPos))
			}
		}
		a, b, ok := fitLine(xs, ys)
		if !ok {
			debug("refine: side %d: %d points, no line", s, len(xs))
			return q
		}
		sides[s] = line{a, b}
	}
	// Corners: top∩left, top∩right, bottom∩right, bottom∩left. A horizontal
	// side gives y = a + b*x, a vertical one x = a + b*y.
	cross := func(h, v line) (x, y float64) {
		// y = h.a + h.b*x, x = v.a + v.b*y
		y = (h.a + h.b*v.a) / (1 - h.b*v.b)
		x = v.a + v.b*y
		return x, y
	}
	m, ok := squareToQuad(scaled(q, 1/scale))
	if !ok {
		return q
	}
	var out quad
	for k, pair := range [4][2]int{{0, 3}, {0, 1}, {2, 1}, {2, 3}} {
		x, y := cross(sides[pair[0]], sides[pair[1]])
		// Straightened pixel → unit square → picture.
		u := (x + 0.5 - refineMargin) / float64(span)
		v := (y + 0.5 - refineMargin) / float64(span)
		px, py := m.apply(u, v)
		out[k].X, out[k].Y = px*scale, py*scale
	}
	if !out.convex() || math.Abs(out.area()) < math.Abs(q.area())/3 {
		return q
	}
	debug("refine: %v → %v", q, out)
	return out
}

func scaled(q quad, f float64) quad {
	for i := range q {
		q[i].X *= f
		q[i].Y *= f
	}
	return q
}

// fitLine fits y = a + b*x to the points, dropping those far from a first
// fit; it needs five points that agree.
func fitLine(xs, ys []float64) (a, b float64, ok bool) {
	if len(xs) < 5 {
		return 0, 0, false
	}
	fit := func(keep []bool) (float64, float64, int) {
		var n, sx, sy, sxx, sxy float64
		for i := range xs {
			if keep[i] {
				n++
				sx += xs[i]
				sy += ys[i]
				sxx += xs[i] * xs[i]
				sxy += xs[i] * ys[i]
			}
		}
		den := n*sxx - sx*sx
		if n < 2 || den == 0 {
			return 0, 0, 0
		}
		b := (n*sxy - sx*sy) / den
		return (sy - b*sx) / n, b, int(n)
	}
	keep := make([]bool, len(xs))
	for i := range keep {
		keep[i] = true
	}
	a, b, _ = fit(keep)
	// Drop points over 3 px from the fit, or beyond the median residual
	// twice, whichever is larger.
	res := make([]float64, len(xs))
	for i := range xs {
		res[i] = math.Abs(ys[i] - a - b*xs[i])
	}
	sorted := append([]float64(nil), res...)
	sort.Float64s(sorted)
	lim := max(3, 2*sorted[len(sorted)/2])
	for i := range keep {
		keep[i] = res[i] <= lim
	}
	a, b, cnt := fit(keep)
	return a, b, cnt >= 5
}
