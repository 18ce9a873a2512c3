package sudoku

import (
	"context"
	"fmt"
	"strings"
)

// Level is a difficulty level people understand.
type Level int

// The levels, easiest first.
const (
	Easy Level = iota
	Medium
	Hard
	Expert
	Extreme
)

var levelNames = [...]string{"easy", "medium", "hard", "expert", "extreme"}

// String returns the level's name: "easy", "medium", "hard", "expert" or
// "extreme".
func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level name, ignoring case.
func ParseLevel(s string) (Level, error) {
	for i, name := range levelNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown level %q: want one of %s", s, strings.Join(levelNames[:], ", "))
}

// Rating is a puzzle's difficulty on the Sudoku Explainer scale.
type Rating struct {
	// Score is the SE score of the hardest step needed when always taking the
	// easiest available step (1.0 … 10+). It is reached by a shortcut (see
	// rateSteps) that gives SE's number but on rare puzzles, nearly always
	// 0.1 lower.
	Score float64
	// Level is the band Score falls in.
	Level Level
	// Hardest names the technique of the hardest step.
	Hardest string
	// Complete is false when the logical solver could not finish the puzzle;
	// Score is then a lower bound (see ScoreBeyond).
	Complete bool
	// Steps counts the steps the logical solver took (the chain hints found
	// by one search count as one step).
	Steps int
}

// ScoreBeyond is the least score of a puzzle the logical solver can't
// finish on grids other than 9x9, where it uses its own ladder (chains up
// to dynamic forcing chains, 8.5 plus length): a floor above every step
// it can take there. On 9x9 grids it follows Sudoku Explainer to its
// deepest chains, and an unfinished rating is at least 10.5 (see
// seBeyond). Either way the score of an unfinished rating is a lower
// bound.
const ScoreBeyond = 10.0

// seBeyond is the floor of an unfinished 9x9 rating: the solver tries
// every rung of Sudoku Explainer's chains, up to dynamic chains nested in
// dynamic chains, whose scores start at 10.5; a puzzle none of them
// finishes is beyond SE too (no known puzzle is).
const seBeyond = 10.5

// unfinishedFloor is the least score of a puzzle of n×n cells the solver
// can't finish.
func unfinishedFloor(n int) float64 {
	if n == 9 {
		return seBeyond
	}
	return ScoreBeyond
}

// The level bands, in one place: a score up to and including the bound
// belongs to the level. Easy needs only hidden singles; medium adds naked
// singles and locked candidates (pointing); hard adds subsets, X-Wing,
// Swordfish and the short wings; expert adds unique rectangles, quads,
// Jellyfish, BUG and chains up to 7.0; extreme is everything above, and
// puzzles the logical solver can't finish.
var levelBounds = [...]float64{
	Easy:   1.5,
	Medium: 2.6,
	Hard:   4.4,
	Expert: 7.0,
}

// LevelFor returns the level whose band holds an SE score.
func LevelFor(score float64) Level {
	const eps = 1e-9 // scores are tenths; forgive float rounding
	for l, bound := range levelBounds {
		if score <= bound+eps {
			return Level(l)
		}
	}
	return Extreme
}

// LevelBounds returns the lowest and highest score of level l: the band
// (lo, hi], with lo 0 for Easy and hi +Inf-like 99 for Extreme.
func LevelBounds(l Level) (lo, hi float64) {
	switch {
	case l <= Easy:
		return 0, levelBounds[Easy]
	case l >= Extreme:
		return levelBounds[Expert], 99
	}
	return levelBounds[l-1], levelBounds[l]
}

// Rate rates puzzle g (which should have a unique solution): it solves g
// step by step with the logical solver, always taking the easiest step,
// and scores the hardest step taken. A grid that breaks the rules, or
// holds no solution, rates as not complete.
func Rate(g *Grid) Rating {
	r, _ := rate(context.Background(), g)
	return r
}

// RateContext is Rate that gives up when ctx ends, with ctx's error and
// the rating so far: not complete, its Score the hardest step taken, a
// lower bound (nested chains can take seconds on the hardest puzzles).
func RateContext(ctx context.Context, g *Grid) (Rating, error) {
	return rate(ctx, g)
}

// applyRated carries out a step as Sudoku Explainer does when it rates: a
// "direct" step (pointing, claiming or a hidden pair or triple that leaves a
// hidden single) only places its single; the candidates it removed on the
// way stay, so later steps see them as SE does.
func (b *board) applyRated(st *Step) error {
	switch st.Technique {
	case techDirectPointing, techDirectClaiming, techDirectHiddenPair, techDirectHiddenTriple:
		placeOnly := Step{Technique: st.Technique, Placements: st.Placements}
		return b.apply(&placeOnly)
	}
	return b.apply(st)
}

// nextRated is next as Sudoku Explainer rates: the ladder up to the
// chains, SE's aligned pair exclusion (tech_sealigned.go), then SE's own
// chaining rules (tech_sechain.go), whose scores are SE's to the tenth.
// SE rates 9x9 puzzles only: other shapes, and grids without exactly one
// solution, keep the ladder's own chains (see board.seRate).
func (b *board) nextRated(ctx context.Context) (Step, bool, error) {
	if b.left == 0 {
		return Step{}, false, nil
	}
	if !b.seRate {
		st, ok := b.next()
		return st, ok, nil
	}
	b.refresh()
	for i := range ladder {
		if ladder[i].score >= 6.5 {
			break
		}
		if st, ok := ladder[i].find(b); ok {
			return st, true, nil
		}
	}
	if st, ok := findSEAligned(b, 2); ok {
		return st, true, nil
	}
	return findSEChain(ctx, b, seMaxLevel)
}

// cutShort is a rating stopped by its deadline.
func cutShort(r Rating) Rating {
	r.Complete = false
	r.Level = LevelFor(r.Score)
	return r
}

func rate(ctx context.Context, g *Grid) (Rating, error) {
	return rateSteps(ctx, g, false, nil)
}

// rateSteps is rate that shows each step to onStep (when not nil) before
// carrying it out: the tests follow the whole path, not just its score.
//
// With sePath it takes Sudoku Explainer's path: always the easiest step.
// Without, it takes a shortcut to the same score. Nearly all of SE's steps
// make no candidate harder to remove later (fewer candidates give more
// and shorter chains), so the score is the least threshold under which
// steps finish the puzzle, in whatever order they come. Once a step of
// score S has been needed, any chain step scoring no more than S will do:
// a static chain search stops at the first, and the multiple-chains
// searches apply every such hint they find at once instead of their
// easiest alone; once S is at least dynamic forcing chains' score, their
// search goes first (findSEChain). Only when none is that easy does the
// search go on to the easiest, as SE's does. The exceptions are rare: of
// the 1751 puzzles of the golden file (SE's oracle and top1465), 6 rate
// 0.1 lower this way (SE's path reached a position needing more); of the
// 375 of forum_hardest_1106 (SE 10 to 11.9), 8 differ: 6 by 0.1 lower,
// one 0.2 lower, one 0.1 higher. Those take 1.7x less time (SE's path
// 393 s, the shortcut 233 s); keeping SE's path from 10 up matched all
// 375 but saved nothing there.
func rateSteps(ctx context.Context, g *Grid, sePath bool, onStep func(*Step)) (Rating, error) {
	b, err := newBoard(g)
	if err != nil {
		return Rating{Score: ScoreBeyond, Level: LevelFor(ScoreBeyond)}, err
	}
	b.batch, b.untold = true, onStep == nil
	b.seRate = b.n == 9 && Solve(ctx, g, 2).Status == Unique
	defer func() {
		if b.se != nil {
			b.se.releaseFlat()
		}
	}()
	var r Rating
	for b.left > 0 {
		if err := ctx.Err(); err != nil {
			return cutShort(r), err
		}
		if !sePath {
			b.seCap = r.Score
		}
		st, ok, err := b.nextRated(ctx)
		if err != nil {
			return cutShort(r), err
		}
		if !ok {
			break
		}
		if st.Score > r.Score {
			r.Score, r.Hardest = st.Score, st.Technique
		}
		if onStep != nil {
			onStep(&st)
		}
		if err := b.applyRated(&st); err != nil {
			break // a position with no solution; the rating stays unfinished
		}
		r.Steps++
	}
	r.Complete = b.left == 0 && !b.broken()
	if floor := unfinishedFloor(b.n); !r.Complete && r.Score < floor {
		r.Score = floor
	}
	r.Level = LevelFor(r.Score)
	return r, nil
}
