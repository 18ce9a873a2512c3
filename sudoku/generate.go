package sudoku

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// GenerateOptions say what puzzle to make.
type GenerateOptions struct {
	// Shape is the box shape; the zero Shape means 9x9.
	Shape Shape
	// Level is the difficulty band the puzzle's rating must fall in.
	Level Level
	// Symmetry is the pattern of the clues.
	Symmetry Symmetry
	// Seed picks the puzzle: the same options give the same puzzle on every
	// machine.
	Seed uint64
}

// Puzzle is a generated puzzle with its solution and rating.
type Puzzle struct {
	Grid     *Grid
	Solution *Grid
	Rating   Rating
}

// ErrLevelUnreachable is wrapped by Generate's error when no puzzle of the
// asked shape can rate at the asked level (a 4x4 is never hard), or when none
// turned up within the generator's attempt budget.
var ErrLevelUnreachable = errors.New("level unreachable")

// maxAttempts bounds the candidate puzzles Generate makes for one request, so
// that a request that cannot be met ends with an error even without a
// deadline.
const maxAttempts = 20000

// Generate makes a puzzle with exactly one solution, the asked symmetry and a
// rating (Rate) in the asked level's band.
//
// Up to 9x9 the puzzle is minimal for its symmetry: taking out any orbit of
// clues (the cells the symmetry keeps together) leaves more than one
// solution. Above 9x9 it is minimal for its level: without any one orbit,
// the logical solver can no longer finish it with steps of the level or
// easier (not counting the techniques that assume a unique solution).
//
// How: fill a random grid, then take out orbits in random order while the
// puzzle keeps one solution, and keep the minimal puzzle if its rating falls
// in the band; else try again. Each try is an attempt with its own random
// stream derived from the seed, and Generate returns the first that
// succeeds. Above 9x9 an orbit stays out only while hidden singles (easy)
// or the logical solver with steps up to the band's top (medium and up)
// still finish the puzzle, which proves it unique without a search.
//
// The result is a pure function of opts: every machine, GOMAXPROCS and run
// gives the same puzzle. ctx only decides when to give up; the error then
// wraps ctx.Err(). Levels a shape cannot reach (see MaxLevel) fail at once
// with an error wrapping ErrLevelUnreachable.
func Generate(ctx context.Context, opts GenerateOptions) (Puzzle, error) {
	p, _, err := generate(ctx, opts)
	return p, err
}

// generate is Generate that also reports how many candidate puzzles it made,
// for tests and benchmarks.
func generate(ctx context.Context, opts GenerateOptions) (Puzzle, int, error) {
	if opts.Shape == (Shape{}) {
		opts.Shape = Shape9
	}
	if err := checkGenerateOptions(opts); err != nil {
		return Puzzle{}, 0, err
	}
	g := newGenerator(opts)
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err := ctx.Err(); err != nil {
			return Puzzle{}, attempt, g.giveUp(attempt, err)
		}
		p, ok, err := g.attempt(ctx, attempt)
		if err != nil {
			return Puzzle{}, attempt + 1, g.giveUp(attempt+1, err)
		}
		if ok {
			return p, attempt + 1, nil
		}
	}
	return Puzzle{}, maxAttempts, fmt.Errorf("generate %s: no puzzle in %d attempts: %w",
		describe(opts), maxAttempts, ErrLevelUnreachable)
}

func checkGenerateOptions(opts GenerateOptions) error {
	if !opts.Shape.Valid() {
		return fmt.Errorf("generate: box shape %dx%d is not playable: want N = rows×cols between 4 and %d", opts.Shape.BoxRows, opts.Shape.BoxCols, MaxN)
	}
	if opts.Level < Easy || opts.Level > Extreme {
		return fmt.Errorf("generate: unknown level %v: want one of easy, medium, hard, expert, extreme", opts.Level)
	}
	if !opts.Symmetry.Valid() {
		return fmt.Errorf("generate: unknown symmetry %v: want one of none, rot180, rot90, mirror, diagonal", opts.Symmetry)
	}
	if top := MaxLevel(opts.Shape); opts.Level > top {
		return fmt.Errorf("generate %s: %s puzzles go up to %s: %w", describe(opts), opts.Shape, top, ErrLevelUnreachable)
	}
	return nil
}

// MaxLevel is the hardest level Generate accepts for shape sh. Small grids
// leave too little room for hard techniques: every minimal 4x4 falls to
// hidden singles, and a 6x6 that needs more than 7.0 turns up about once in
// a thousand candidates, too rarely to wait for. Above 9x9, extreme puzzles
// (forcing chains on a big grid) take seconds to make and to rate, so the
// generator stops at expert.
func MaxLevel(sh Shape) Level {
	switch n := sh.N(); {
	case n <= 4:
		return Easy
	case n <= 6, n > 9:
		return Expert
	}
	return Extreme
}

func describe(opts GenerateOptions) string {
	return fmt.Sprintf("%s %s puzzle (symmetry %s, seed %d)", opts.Level, opts.Shape, opts.Symmetry, opts.Seed)
}

// removal is how an attempt takes clues out.
type removal int

const (
	// removeMinimal keeps only uniqueness: the puzzle ends minimal, and the
	// attempt succeeds when its rating falls in the band.
	removeMinimal removal = iota
	// removeSingles keeps the puzzle within hidden singles: always easy.
	removeSingles
	// removeBounded keeps the puzzle within the logical solver's steps up
	// to the band's top, without the techniques that assume uniqueness:
	// always unique, at most the level, usually in it.
	removeBounded
)

// removalFor picks the removal for a request. Grids up to 9x9 are always
// made minimal. Above 9x9 a search for uniqueness on a sparse grid takes
// long and random minimal puzzles rarely rate in a given band, so the
// logical solver proves uniqueness as clues go, which also keeps the rating
// within the band's top.
func removalFor(opts GenerateOptions) removal {
	if opts.Shape.N() > 9 {
		switch opts.Level {
		case Easy:
			return removeSingles
		case Medium, Hard, Expert:
			return removeBounded
		}
	}
	return removeMinimal
}

// generator holds what one Generate call reuses between attempts.
type generator struct {
	opts    GenerateOptions
	removal removal
	orbits  [][]int
	singles *singles
	fill    *filler
	rng     *rand.Rand
	pcg     *rand.PCG
}

func newGenerator(opts GenerateOptions) *generator {
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	return &generator{
		opts:    opts,
		removal: removalFor(opts),
		orbits:  opts.Symmetry.Orbits(opts.Shape),
		singles: newSingles(opts.Shape),
		fill:    newFiller(opts.Shape, rng),
		rng:     rng,
		pcg:     pcg,
	}
}

func (g *generator) giveUp(attempts int, err error) error {
	return fmt.Errorf("generate %s: gave up after %d attempts: %w", describe(g.opts), attempts, err)
}

// attempt makes one candidate puzzle from its own random stream, so that an
// attempt depends only on the seed and its number. It reports false when the
// candidate's rating misses the asked level.
func (g *generator) attempt(ctx context.Context, k int) (Puzzle, bool, error) {
	g.pcg.Seed(g.opts.Seed, mix64(uint64(k)^0x5eed_9e3779b97f4a))
	sol, err := g.fill.fill(ctx)
	if err != nil {
		return Puzzle{}, false, err
	}
	cells := append([]uint8(nil), sol...)
	puzzle := &Grid{Shape: g.opts.Shape, Alphabet: DefaultAlphabet(g.opts.Shape.N()), Cells: cells}
	order := g.rng.Perm(len(g.orbits))
	level := g.opts.Level
	lo, hi := LevelBounds(level)

	switch g.removal {
	case removeSingles:
		// Take out every orbit that keeps the puzzle within hidden singles.
		// No search is needed, since such a puzzle is unique by
		// construction, and because an orbit that cannot go now cannot go
		// later either (fewer clues never help), one pass finds them all.
		g.removeWhile(cells, sol, order, func() bool { return g.singles.solves(cells) })
	case removeBounded:
		// Take out every orbit whose loss the logical solver absorbs with
		// steps up to the band's top; the puzzle stays unique because the
		// solver forces every value. Hidden singles settle most removals at
		// once; the solver starts from where they got stuck. As with
		// singles, one pass is enough, since fewer clues do not help the
		// solver (chains aside, whose scores grow with their length).
		var cut error
		g.removeWhile(cells, sol, order, func() bool {
			if cut != nil || g.singles.solves(cells) {
				return cut == nil
			}
			stuck := &Grid{Shape: puzzle.Shape, Alphabet: puzzle.Alphabet, Cells: g.singles.vals}
			ok, err := proveWithin(ctx, stuck, hi)
			cut = err
			return ok
		})
		if cut != nil {
			return Puzzle{}, false, cut
		}
		if g.opts.Shape.N() <= 16 {
			// Belt and braces: the logic proved the puzzle unique, and a
			// search agrees within milliseconds up to 16x16 (on a 25x25
			// it can take seconds, so there the proof stands alone).
			switch Solve(ctx, puzzle, 2).Status {
			case Unique:
			case Cancelled:
				return Puzzle{}, false, ctx.Err()
			default:
				return Puzzle{}, false, nil
			}
		}
	default:
		// A random minimal puzzle. Uniqueness only gets lost as clues
		// leave, so one pass in random order finds every orbit that can
		// go. Hidden singles prove most early removals unique without a
		// search.
		var cut error
		g.removeWhile(cells, sol, order, func() bool {
			if cut != nil || g.singles.solves(cells) {
				return cut == nil
			}
			switch res := Solve(ctx, puzzle, 2); res.Status {
			case Unique:
				return true
			case Cancelled:
				cut = ctx.Err()
			}
			return false
		})
		if cut != nil {
			return Puzzle{}, false, cut
		}
	}
	if level < Extreme {
		// Most candidates miss the band; rating only up to its top
		// throws the too-hard ones out before the costly chain search.
		score, ok, err := rateWithin(ctx, puzzle, hi)
		if err != nil {
			return Puzzle{}, false, err
		}
		if !ok || score <= lo {
			return Puzzle{}, false, nil
		}
	}
	rating, err := RateContext(ctx, puzzle)
	if err != nil {
		return Puzzle{}, false, err
	}
	solution := &Grid{Shape: g.opts.Shape, Alphabet: puzzle.Alphabet, Cells: sol}
	return Puzzle{Grid: puzzle, Solution: solution, Rating: rating}, rating.Level == level, nil
}

// removeWhile takes out, in turn, each orbit of order whose removal keeps
// ok() true, puts back the others, and returns those it put back.
func (g *generator) removeWhile(cells, sol []uint8, order []int, ok func() bool) []int {
	var keep []int
	for _, o := range order {
		clearOrbit(cells, g.orbits[o])
		if ok() {
			continue
		}
		restoreOrbit(cells, sol, g.orbits[o])
		keep = append(keep, o)
	}
	return keep
}

func clearOrbit(cells []uint8, orbit []int) {
	for _, c := range orbit {
		cells[c] = 0
	}
}

func restoreOrbit(cells, sol []uint8, orbit []int) {
	for _, c := range orbit {
		cells[c] = sol[c]
	}
}

// mix64 is the SplitMix64 finaliser: it spreads nearby inputs (attempt
// numbers, dates) over the whole 64-bit range before they seed a PCG.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
