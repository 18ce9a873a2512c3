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
