package vision

import (
	"math/rand/v2"
	"testing"
)

// grainyGrid is a 120x120 grid of paper at 200 with dark strokes (ink at
// 100) every 40 pixels and uniform noise of ±noise on every pixel.
func grainyGrid(noise int) *gray {
	rng := rand.New(rand.NewPCG(3, 4))
	g := newGray(120, 120)
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			v := 200
			if x%40 >= 18 && x%40 < 22 && y%40 >= 10 && y%40 < 30 {
				v = 100
			}
			if noise > 0 {
				v += rng.IntN(2*noise+1) - noise
			}
			g.pix[y*g.w+x] = uint8(v)
		}
	}
	return g
}

func TestSmoothGrain(t *testing.T) {
	for _, tt := range []struct {
		name   string
		noise  int
		smooth bool
	}{
		{"clean", 0, false},
		{"a newspaper photo's grain", 3, false},
		{"a screen photo's grain", 12, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := grainyGrid(tt.noise)
			got := smoothGrain(g, 100)
			if smoothed := got != g; smoothed != tt.smooth {
				t.Fatalf("grain %d at contrast 100: smoothed %v, want %v", grainOf(g), smoothed, tt.smooth)
			}
			if !tt.smooth {
				return
			}
			if before, after := grainOf(g), grainOf(got); after*2 > before {
				t.Errorf("grain %d before smoothing, %d after; want at most half", before, after)
			}
			// The strokes stay ink: their middle is still far darker
			// than the paper.
			if v := got.pix[20*got.w+20]; v > 140 {
				t.Errorf("a stroke's middle is %d after smoothing, want ≤ 140 (paper 200, ink 100)", v)
			}
		})
	}
}

func TestBlur121KeepsFlat(t *testing.T) {
	g := newGray(7, 5)
	for i := range g.pix {
		g.pix[i] = 137
	}
	for i, v := range blur121(g).pix {
		if v != 137 {
			t.Fatalf("pixel %d: %d after blurring a flat 137, want 137", i, v)
		}
	}
}

func TestDropTallFaint(t *testing.T) {
	filled := func(h float32, faint bool) cellView {
		v := cellView{kind: cellFilled, faint: faint}
		v.feat[inputSide*inputSide] = h
		return v
	}
	for _, tt := range []struct {
		name  string
		h     float32
		print int // cells of print at 0.5 beside it
		keep  bool
	}{
		{"a faint digit as tall as the print", 0.52, 6, true},
		{"a faint shape half again as tall: moiré", 0.72, 6, false},
		{"too little print to compare", 0.72, 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var views []cellView
			for range tt.print {
				views = append(views, filled(0.5, false))
			}
			views = append(views, filled(tt.h, true), filled(0.8, false))
			dropTallFaint(views)
			if kept := views[tt.print].kind == cellFilled; kept != tt.keep {
				t.Errorf("faint shape %.2f high beside %d digits 0.5 high: kept %v, want %v", tt.h, tt.print, kept, tt.keep)
			}
			if views[tt.print+1].kind != cellFilled {
				t.Error("a tall digit of print was emptied; only faint ones may be")
			}
		})
	}
}

// solidGrid is a located 9x9 of 40-pixel cells, paper 200, whose cells
// (4, 3) and (4, 4) are ink (20) and, when fade is set, fade back to
// paper over a cell beyond their lines, as a glare's shadow does.
func solidGrid(fade bool) *located {
	const n, s = 9, 40
	g := newGray(n*s, n*s)
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			// Distance outside the dark box, in pixels.
			dx := max(3*s-x, x-(5*s-1), 0)
			dy := max(4*s-y, y-(5*s-1), 0)
			d := max(dx, dy)
			v := 200
			switch {
			case d == 0:
				v = 20
			case fade && d < s:
				v = 20 + 180*d/s
			}
			g.pix[y*g.w+x] = uint8(v)
		}
	}
	l := &located{n: n, w: g}
	for i := 0; i <= n; i++ {
		l.rows = append(l.rows, i*s)
		l.cols = append(l.cols, i*s)
	}
	return l
}

func TestSharpSolid(t *testing.T) {
	for _, tt := range []struct {
		name string
		fade bool
		want bool
	}{
		{"a crossword's black squares", false, true},
		{"a glare's shadow fading past the lines", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := solidGrid(tt.fade).sharpSolid(4, 3, 20, 200); got != tt.want {
				t.Errorf("sharpSolid(4, 3) = %v, want %v", got, tt.want)
			}
		})
	}
}
