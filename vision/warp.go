package vision

import "math"

// quad is four corners in picture coordinates: top-left, top-right,
// bottom-right, bottom-left.
type quad [4]struct{ X, Y float64 }

// homography maps the unit square onto a quad (Heckbert's square-to-quad).
type homography struct{ a, b, c, d, e, f, g, h float64 }

func squareToQuad(q quad) (homography, bool) {
	x0, y0 := q[0].X, q[0].Y
	x1, y1 := q[1].X, q[1].Y
	x2, y2 := q[2].X, q[2].Y
	x3, y3 := q[3].X, q[3].Y
	dx1, dx2, dx3 := x1-x2, x3-x2, x0-x1+x2-x3
	dy1, dy2, dy3 := y1-y2, y3-y2, y0-y1+y2-y3
	var m homography
	den := dx1*dy2 - dx2*dy1
	if math.Abs(den) < 1e-9 {
		return m, false
	}
	m.g = (dx3*dy2 - dx2*dy3) / den
	m.h = (dx1*dy3 - dx3*dy1) / den
	m.a = x1 - x0 + m.g*x1
	m.b = x3 - x0 + m.h*x3
	m.c = x0
	m.d = y1 - y0 + m.g*y1
	m.e = y3 - y0 + m.h*y3
	m.f = y0
	return m, true
}

func (m homography) apply(u, v float64) (x, y float64) {
	w := m.g*u + m.h*v + 1
	if w == 0 {
		w = 1e-12
	}
	return (m.a*u + m.b*v + m.c) / w, (m.d*u + m.e*v + m.f) / w
}

// warp samples src over the quad into an n×n square with margin pixels
// more on each side (the picture just outside the quad). scale divides the
// quad's coordinates first (when src is a shrunk copy of the picture).
func warp(src *gray, q quad, n, margin int, scale float64) (*gray, bool) {
	for i := range q {
		q[i].X /= scale
		q[i].Y /= scale
	}
	m, ok := squareToQuad(q)
	if !ok {
		return nil, false
	}
	side := n + 2*margin
	out := newGray(side, side)
	inv := 1 / float64(n)
	for j := 0; j < side; j++ {
		v := (float64(j-margin) + 0.5) * inv
		for i := 0; i < side; i++ {
			u := (float64(i-margin) + 0.5) * inv
			x, y := m.apply(u, v)
			out.pix[j*side+i] = uint8(src.sample(x-0.5, y-0.5) + 0.5)
		}
	}
	return out, true
}

// area is the quad's area (shoelace), positive when its corners run
// clockwise on screen.
func (q quad) area() float64 {
	s := 0.0
	for i := 0; i < 4; i++ {
		j := (i + 1) % 4
		s += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	return s / 2
}

// convex reports whether the quad turns the same way at every corner.
func (q quad) convex() bool {
	sign := 0
	for i := 0; i < 4; i++ {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		s := 1
		if cross < 0 {
			s = -1
		}
		if sign == 0 {
			sign = s
		} else if s != sign {
			return false
		}
	}
	return true
}
