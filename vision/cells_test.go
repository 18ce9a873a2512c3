package vision

import (
	"math/rand/v2"
	"testing"
)

// closeNaive is closeGray by its definition: for each pixel the extreme
// over its window, cut at the edges.
func closeNaive(src []uint8, n, r int) []uint8 {
	pass := func(in []uint8, dx, dy int, isMax bool) []uint8 {
		out := make([]uint8, len(in))
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				v := in[y*n+x]
				for d := -r; d <= r; d++ {
					xx, yy := x+d*dx, y+d*dy
					if xx < 0 || yy < 0 || xx >= n || yy >= n {
						continue
					}
					if w := in[yy*n+xx]; (w > v) == isMax && w != v {
						v = w
					}
				}
				out[y*n+x] = v
			}
		}
		return out
	}
	return pass(pass(pass(pass(src, 1, 0, true), 0, 1, true), 1, 0, false), 0, 1, false)
}

func TestCloseGray(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct{ n, r int }{{40, 10}, {40, 1}, {7, 3}, {5, 9}, {1, 2}} {
		src := make([]uint8, tt.n*tt.n)
		for i := range src {
			src[i] = uint8(rng.IntN(256))
		}
		got := make([]uint8, len(src))
		closeGray(src, got, tt.n, tt.r)
		want := closeNaive(src, tt.n, tt.r)
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("closeGray(n %d, r %d): pixel %d = %d, want %d", tt.n, tt.r, i, got[i], want[i])
				break
			}
		}
	}
	// A dark stroke narrower than the window closes over; a step stays.
	const n = 20
	img := make([]uint8, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			img[y*n+x] = 200
			if x >= 15 {
				img[y*n+x] = 100 // a shadow
			}
			if x == 5 || x == 6 {
				img[y*n+x] = 20 // a stroke
			}
		}
	}
	out := make([]uint8, n*n)
	closeGray(img, out, n, 4)
	if out[10*n+5] != 200 || out[10*n+17] != 100 || out[10*n+12] != 200 {
		t.Errorf("closing: stroke %d (want 200), shadow %d (want 100), paper %d (want 200)", out[10*n+5], out[10*n+17], out[10*n+12])
	}
}

// TestTallOne: a thin stroke from the cell's top to its bottom edge is a 1
// written large when it runs down the middle (a hand's 1 reaches the
// edge), and a piece of a grid line that strayed inside when it runs near
// a side.
func TestTallOne(t *testing.T) {
	for _, tt := range []struct {
		name string
		x    int // the stroke's left column
		want cellKind
	}{
		{"a 1 down the middle", 19, cellFilled},
		{"a 1 a little off the middle", 14, cellFilled},
		{"a line near the left side", 6, cellEmpty},
		{"a line near the right side", 31, cellEmpty},
	} {
		g := &gray{w: cellPx, h: cellPx, pix: make([]uint8, cellPx*cellPx)}
		for i := range g.pix {
			g.pix[i] = 230
		}
		for y := 6; y < cellPx; y++ { // to the bottom edge
			for x := tt.x; x < tt.x+3; x++ {
				g.pix[y*cellPx+x] = 30
			}
		}
		if v := analyzeCell(g, 0, 0, 200, 9); v.kind != tt.want {
			t.Errorf("%s: kind %d, want %d", tt.name, v.kind, tt.want)
		}
	}
}

// TestLinePieceLeftOut draws a digit-sized ring in a cell with a shape
// beside it and checks the digit's box: a blurred line's corner along the
// window's edge is left out of it, a stroke of the digit that reaches the
// edge end on is not.
func TestLinePieceLeftOut(t *testing.T) {
	const n = cellPx
	fill := func(g *gray, x0, y0, x1, y1 int, v uint8) {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.pix[y*n+x] = v
			}
		}
	}
	for _, tt := range []struct {
		name  string
		shape func(g *gray)
		h, w  float32 // the digit's box, as fractions of the cell
	}{
		{"nothing beside", func(*gray) {}, 0.5, 0.25},
		{"a line's corner, top right", func(g *gray) {
			fill(g, 25, 4, 35, 5, 140)
			fill(g, 34, 4, 35, 18, 140)
		}, 0.5, 0.25},
		{"a sliver along the top", func(g *gray) { fill(g, 25, 5, 35, 8, 140) }, 0.5, 0.25},
		{"a tail to the left edge", func(g *gray) { fill(g, 2, 27, 14, 29, 40) }, 0.5, 0.525},
	} {
		g := &gray{w: n, h: n, pix: make([]uint8, n*n)}
		fill(g, 0, 0, n-1, n-1, 200)
		// The ring: 10 wide, 20 high, strokes 3 wide.
		fill(g, 15, 10, 24, 29, 40)
		fill(g, 18, 13, 21, 26, 200)
		tt.shape(g)
		v := analyzeCell(g, 0, 0, 100, 9)
		if v.kind != cellFilled {
			t.Errorf("%s: kind %d, want a digit", tt.name, v.kind)
			continue
		}
		if w := v.feat[inputSide*inputSide+1]; v.height() != tt.h || w != tt.w {
			t.Errorf("%s: digit %.3f high, %.3f wide, want %.3f and %.3f", tt.name, v.height(), w, tt.h, tt.w)
		}
	}
}

// TestFaintDigit draws shapes in ink fainter than the 40 % threshold (at
// a third of the contrast) and checks which are taken for a digit at the
// lower one: a digit's shape in the middle of the cell is, a smudge as
// wide as tall, a stroke near a side (a shadow's or a line's soft edge)
// and a mark too small for a digit are not. The digit in full ink is read
// as before.
func TestFaintDigit(t *testing.T) {
	const n = cellPx
	fill := func(g *gray, x0, y0, x1, y1 int, v uint8) {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.pix[y*n+x] = v
			}
		}
	}
	ring := func(v uint8) func(g *gray) {
		return func(g *gray) {
			fill(g, 15, 10, 24, 29, v)
			fill(g, 18, 13, 21, 26, 200)
		}
	}
	for _, tt := range []struct {
		name  string
		shape func(g *gray)
		size  int
		want  cellKind
		faint bool
	}{
		{"a faint digit", ring(167), 9, cellFilled, true},
		{"a faint digit in a 16x16", ring(167), 16, cellFilled, true},
		{"a faint digit in a 6x6", ring(167), 6, cellEmpty, false},
		{"a digit", ring(40), 9, cellFilled, false},
		{"a faint smudge", func(g *gray) { fill(g, 10, 12, 29, 27, 167) }, 9, cellEmpty, false},
		{"a faint stroke near the side", func(g *gray) { fill(g, 29, 8, 31, 30, 167) }, 9, cellEmpty, false},
		{"a faint mark", func(g *gray) { fill(g, 17, 15, 22, 24, 167) }, 9, cellEmpty, false},
	} {
		g := &gray{w: n, h: n, pix: make([]uint8, n*n)}
		fill(g, 0, 0, n-1, n-1, 200)
		tt.shape(g)
		v := analyzeCell(g, 0, 0, 100, tt.size)
		if v.kind != tt.want || v.faint != tt.faint {
			t.Errorf("%s: kind %d, faint %v; want %d, %v", tt.name, v.kind, v.faint, tt.want, tt.faint)
		}
	}
}
