package sudoku

import "context"

// rateWithin runs the logical solver on g, always taking the easiest step as
// Rate does, but tries no technique that scores above max. It reports the
// score of the hardest step taken and whether the solver finished g; a
// puzzle it finishes rates exactly that score, and one it does not finish
// rates above max (or is broken). Stopping at max spares the generator the
// costly techniques (chains) on the many candidates that are too hard.
//
// When ctx ends, rateWithin stops with its error.
func rateWithin(ctx context.Context, g *Grid, max float64) (score float64, finished bool, err error) {
	return logicWithin(ctx, g, max, false)
}

// proveWithin is rateWithin without the techniques that take uniqueness for
// granted (unique rectangles, BUG+1). When it finishes g, every value was
// forced, so g has exactly one solution: a proof of uniqueness that needs no
// search.
func proveWithin(ctx context.Context, g *Grid, max float64) (finished bool, err error) {
	_, finished, err = logicWithin(ctx, g, max, true)
	return finished, err
}

func logicWithin(ctx context.Context, g *Grid, max float64, proof bool) (score float64, finished bool, err error) {
	const eps = 1e-9 // scores are tenths; forgive float rounding
	b, err := newBoard(g)
	if err != nil {
		return 0, false, nil
	}
	for b.left > 0 {
		if err := ctx.Err(); err != nil {
			return score, false, err
		}
		b.refresh()
		found := false
		for i := range ladder {
			if ladder[i].score > max+eps {
				break
			}
			if b.n == 9 && !proof && ladder[i].score >= 6.5 {
				break // SE's steps, tried by seWithin
			}
			if proof && ladder[i].assumesUnique {
				continue
			}
			st, ok := ladder[i].find(b)
			if !ok {
				continue
			}
			if st.Score > max+eps || b.applyRated(&st) != nil {
				return score, false, nil
			}
			if st.Score > score {
				score = st.Score
			}
			found = true
			break
		}
		// On 9x9 grids Rate follows Sudoku Explainer from 6.2 on (see
		// nextRated); so does this, as far as SE's static chains.
		if !found && b.n == 9 && !proof {
			st, ok := b.seWithin(max)
			if !ok || st.Score > max+eps || b.applyRated(&st) != nil {
				return score, false, nil
			}
			score = max2(score, st.Score)
			found = true
		}
		if !found {
			return score, false, nil
		}
	}
	return score, !b.broken(), nil
}

// seWithin is the step Rate takes on a 9x9 grid when no technique of the
// ladder below 6.5 applies, if not above max: SE's aligned pair exclusion
// (6.2) or the easiest of SE's static chains (6.5 and up; the first of
// SE's chain rungs, so Rate's step whenever it finds one).
func (b *board) seWithin(max float64) (Step, bool) {
	if max < 6.2-1e-9 {
		return Step{}, false
	}
	if st, ok := findSEAligned(b, 2); ok {
		return st, true
	}
	if max < 6.5-1e-9 {
		return Step{}, false
	}
	return b.seStaticStep()
}

// seStaticStep is the easiest of SE's static chains on b, if any.
func (b *board) seStaticStep() (Step, bool) {
	e := newSEEngine(b, false, false, 0)
	var best seBest
	e.staticChains(&best)
	if !best.ok {
		return Step{}, false
	}
	return e.step(best.h, seProducers[0]), true
}

func max2(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
