package glicko

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestPaperExample is the worked example of Glickman's paper: a player at
// 1500 (deviation 200, volatility 0.06) beats a 1400/30 and loses to a
// 1550/100 and a 1700/300, with tau 0.5.
func TestPaperExample(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	results := []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}
	got := Update(p, results, 0.5)
	// The paper works with rounded intermediates (μ' = −0.2069, φ' =
	// 0.8722), so its figures match the exact ones to about 0.01 (exact:
	// 1464.0507, 151.5165, 0.0599960).
	if !near(got.Rating, 1464.06, 0.01) || !near(got.Deviation, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("Update(paper example) = %.4f / %.4f / %.6f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.Deviation, got.Volatility)
	}
}

func TestUpdate(t *testing.T) {
	newcomer := New()
	puzzle := Rating{1500, 150, 0.06}
	for _, c := range []struct {
		name        string
		p           Rating
		results     []Result
		up, down    bool // the rating must move this way
		sureOrEqual bool // the deviation must not grow (else: must grow)
	}{
		{"a win lifts", newcomer, []Result{{puzzle, 1}}, true, false, true},
		{"a loss lowers", newcomer, []Result{{puzzle, 0}}, false, true, true},
		{"more than expected lifts", newcomer, []Result{{Rating{1300, 150, 0.06}, 0.9}}, true, false, true},
		{"less than expected lowers", newcomer, []Result{{Rating{1300, 150, 0.06}, 0.5}}, false, true, true},
		{"a score above 1 counts as 1", newcomer, []Result{{puzzle, 7}}, true, false, true},
		{"an idle period changes no rating", Rating{1600, 80, 0.06}, nil, false, false, false},
		// Far above what was expected: delta² > φ² + v, the other start of
		// the volatility's iteration; the volatility jumps, and with it the
		// deviation of a settled rating.
		{"a huge upset", Rating{1500, 50, 0.06}, []Result{{Rating{2500, 30, 0.06}, 1}, {Rating{2500, 30, 0.06}, 1}, {Rating{2500, 30, 0.06}, 1}}, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Update(c.p, c.results, Tau)
			switch {
			case c.up && !(got.Rating > c.p.Rating):
				t.Errorf("rating %.2f → %.2f, want it up", c.p.Rating, got.Rating)
			case c.down && !(got.Rating < c.p.Rating):
				t.Errorf("rating %.2f → %.2f, want it down", c.p.Rating, got.Rating)
			case !c.up && !c.down && got.Rating != c.p.Rating:
				t.Errorf("rating %.2f → %.2f, want it unchanged", c.p.Rating, got.Rating)
			}
			if c.sureOrEqual && got.Deviation > c.p.Deviation {
				t.Errorf("deviation %.2f → %.2f after a game, want it no wider", c.p.Deviation, got.Deviation)
			}
			if !c.sureOrEqual && !(got.Deviation > c.p.Deviation) {
				t.Errorf("deviation %.2f → %.2f, want it wider", c.p.Deviation, got.Deviation)
			}
			if c.results != nil && !c.sureOrEqual && !(got.Volatility > c.p.Volatility) {
				t.Errorf("volatility %.5f → %.5f after an upset, want it up", c.p.Volatility, got.Volatility)
			}
			if math.IsNaN(got.Rating) || math.IsNaN(got.Deviation) || math.IsNaN(got.Volatility) {
				t.Errorf("Update = %+v: NaN", got)
			}
		})
	}
	// The 1400/30 example: idle, the paper's deviation grows to
	// sqrt(φ²+σ²).
	if got := Update(Rating{1400, 30, 0.06}, nil, Tau); !near(got.Deviation, math.Sqrt(30*30/(scale*scale)+0.06*0.06)*scale, 1e-9) {
		t.Errorf("idle deviation = %v", got.Deviation)
	}
}

func TestExpected(t *testing.T) {
	for _, c := range []struct {
		p, opp Rating
		lo, hi float64
	}{
		{New(), New(), 0.5, 0.5},
		{Rating{1700, 50, 0.06}, Rating{1500, 50, 0.06}, 0.75, 0.77},
		{Rating{1300, 50, 0.06}, Rating{1500, 50, 0.06}, 0.23, 0.25},
	} {
		if got := Expected(c.p, c.opp); got < c.lo-1e-9 || got > c.hi+1e-9 {
			t.Errorf("Expected(%v, %v) = %.4f, want %.2f to %.2f", c.p, c.opp, got, c.lo, c.hi)
		}
	}
}
