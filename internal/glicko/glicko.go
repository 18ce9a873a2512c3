// Package glicko rates players by Mark Glickman's Glicko-2 system
// ("Example of the Glicko-2 system", Boston University, 2022): a rating, a
// deviation saying how sure the rating is, and a volatility saying how
// erratic the player's results are. A game is scored from 0 (a loss) to 1
// (a win); any score between is taken as a partial win, as a draw is 0.5.
//
// sudokubot rates a puzzle solve as a game between the player and the
// puzzle, as lichess rates its puzzle solvers: each solve is one rating
// period of one game, so Update is called with one result.
//
// The package is pure: no clock, no randomness, no I/O.
package glicko

import (
	"math"
)

// scale converts between the Glicko scale (1500 ± 350) and Glicko-2's
// (0 ± 2.01).
const scale = 173.7178

// Defaults for a player never rated, as the paper suggests.
const (
	DefaultRating     = 1500
	DefaultDeviation  = 350
	DefaultVolatility = 0.06
)

// Tau constrains how fast the volatility changes; the paper suggests 0.3 to
// 1.2. Puzzle scores are noisy (a slow day, a hard puzzle for its level), so
// a middling value.
const Tau = 0.5

// epsilon is the convergence tolerance of the volatility's iteration.
const epsilon = 0.000001

// Rating is a player's (or a puzzle's) standing on the Glicko scale.
type Rating struct {
	Rating     float64 // 1500 for a newcomer
	Deviation  float64 // the rating's uncertainty (one standard deviation); 350 for a newcomer
	Volatility float64 // how erratic the results are; 0.06 for a newcomer
}

// New is the rating of someone never rated.
func New() Rating {
	return Rating{DefaultRating, DefaultDeviation, DefaultVolatility}
}

// Result is one game of a rating period: the opponent as rated before the
// period, and the score against them from 0 to 1.
type Result struct {
	Opponent Rating
	Score    float64
}

// g lowers the weight of an opponent whose rating is uncertain.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// e is the expected score of a player at mu against an opponent at muJ
// with deviation phiJ (all on the Glicko-2 scale).
func e(mu, muJ, phiJ float64) float64 {
	return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ)))
}

// Expected is the score p is expected to make against opp.
func Expected(p, opp Rating) float64 {
	return e((p.Rating-DefaultRating)/scale, (opp.Rating-DefaultRating)/scale, opp.Deviation/scale)
}

// Update is p after a rating period with results, with tau as the
// volatility constraint. A period with no games only widens the deviation.
// Scores are clamped to [0, 1].
func Update(p Rating, results []Result, tau float64) Rating {
	mu := (p.Rating - DefaultRating) / scale
	phi := p.Deviation / scale
	sigma := p.Volatility
	if len(results) == 0 {
		return Rating{p.Rating, math.Sqrt(phi*phi+sigma*sigma) * scale, sigma}
	}
	// Step 3 and 4: the estimated variance v of the rating from the game
	// outcomes alone, and the estimated improvement delta.
	var vInv, sum float64
	for _, r := range results {
		muJ := (r.Opponent.Rating - DefaultRating) / scale
		phiJ := r.Opponent.Deviation / scale
		gj := g(phiJ)
		ej := e(mu, muJ, phiJ)
		vInv += gj * gj * ej * (1 - ej)
		sum += gj * (min(max(r.Score, 0), 1) - ej)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = volatility(delta, phi, v, sigma, tau)
	// Step 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{muNew*scale + DefaultRating, phiNew * scale, sigma}
}

// volatility solves step 5 of the paper by the Illinois algorithm (a
// regula falsi that halves the stale end's value).
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
