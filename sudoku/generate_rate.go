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
		if !found {
			return score, false, nil
		}
	}
	return score, !b.broken(), nil
}
