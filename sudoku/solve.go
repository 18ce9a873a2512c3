package sudoku

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"time"
)

// Status is the outcome of a search.
type Status int

// Outcomes of Solve.
const (
	// NoSolution: the givens admit no solution (or clash).
	NoSolution Status = iota
	// Unique: exactly one solution exists (needs limit >= 2 to be known).
	Unique
	// Multiple: at least two solutions exist.
	Multiple
	// Solved: a solution was found with limit 1, so uniqueness is unknown.
	Solved
	// Cancelled: the context ended before the search did.
	Cancelled
)

func (s Status) String() string {
	switch s {
	case NoSolution:
		return "none"
	case Unique:
		return "unique"
	case Multiple:
		return "multiple"
	case Solved:
		return "solved"
	case Cancelled:
		return "cancelled"
	}
	return "unknown"
}

// Stats describes the work a search did.
type Stats struct {
	Nodes   int64         // search nodes visited
	Guesses int64         // branches taken on a guess
	Elapsed time.Duration // wall time of the search (informational only)
}

// Result is what Solve found.
type Result struct {
	Status    Status
	Solutions []*Grid // up to the limit, in the order found
	Stats     Stats
}

// SolveOptions tune a search.
type SolveOptions struct {
	// Limit is how many solutions to look for; 2 tells unique from multiple.
	// Values below 1 mean 1.
	Limit int
	// Rand, when set, randomises the order in which candidates are tried.
	Rand *rand.Rand
}

// Solve searches g for up to limit solutions. It honours ctx: when ctx ends
// the search stops promptly and the result has status Cancelled (with any
// solutions found so far). g is not modified.
func Solve(ctx context.Context, g *Grid, limit int) Result {
	return SolveWith(ctx, g, SolveOptions{Limit: limit})
}

// SolveWith is Solve with options.
func SolveWith(ctx context.Context, g *Grid, opts SolveOptions) Result {
	start := time.Now()
	if opts.Limit < 1 {
		opts.Limit = 1
	}
	s := newGenericSolver(ctx, g, opts)
	s.run()
	res := Result{Solutions: s.solutions, Stats: Stats{Nodes: s.nodes, Guesses: s.guesses}}
	switch {
	case s.cancelled:
		res.Status = Cancelled
	case len(s.solutions) == 0:
		res.Status = NoSolution
	case len(s.solutions) >= 2:
		res.Status = Multiple
	case opts.Limit == 1:
		res.Status = Solved
	default:
		res.Status = Unique
	}
	res.Stats.Elapsed = time.Since(start)
	return res
}

// genericSolver works on any shape: candidates as bitmasks, naked singles
// propagation, fewest-candidates branching.
type genericSolver struct {
	ctx       context.Context
	grid      *Grid
	geo       *Geometry
	opts      SolveOptions
	n         int
	solutions []*Grid
	nodes     int64
	guesses   int64
	cancelled bool
}

func newGenericSolver(ctx context.Context, g *Grid, opts SolveOptions) *genericSolver {
	return &genericSolver{ctx: ctx, grid: g, geo: g.Shape.Geometry(), opts: opts, n: g.N()}
}

func (s *genericSolver) run() {
	if len(s.grid.Clashes()) > 0 {
		return
	}
	all := uint32(1)<<s.n - 1
	cand := make([]uint32, len(s.grid.Cells))
	vals := make([]uint8, len(s.grid.Cells))
	for i := range cand {
		cand[i] = all
	}
	for i, v := range s.grid.Cells {
		if v != 0 && !s.assign(cand, vals, i, int(v)) {
			return
		}
	}
	s.search(cand, vals)
}

// assign places v in cell and removes it from the peers, propagating naked
// singles. It reports false on a contradiction.
func (s *genericSolver) assign(cand []uint32, vals []uint8, cell, v int) bool {
	bit := uint32(1) << (v - 1)
	if cand[cell]&bit == 0 {
		return false
	}
	cand[cell] = bit
	vals[cell] = uint8(v)
	for _, p := range s.geo.Peers[cell] {
		if cand[p]&bit == 0 {
			continue
		}
		cand[p] &^= bit
		switch bits.OnesCount32(cand[p]) {
		case 0:
			return false
		case 1:
			if vals[p] == 0 && !s.assign(cand, vals, p, bits.TrailingZeros32(cand[p])+1) {
				return false
			}
		}
	}
	return true
}

func (s *genericSolver) search(cand []uint32, vals []uint8) bool {
	s.nodes++
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.cancelled = true
		return true
	}
	best, bestCount := -1, 99
	for i, v := range vals {
		if v == 0 {
			if c := bits.OnesCount32(cand[i]); c < bestCount {
				best, bestCount = i, c
			}
		}
	}
	if best < 0 {
		sol := s.grid.Clone()
		copy(sol.Cells, vals)
		s.solutions = append(s.solutions, sol)
		return len(s.solutions) >= s.opts.Limit
	}
	order := make([]int, 0, bestCount)
	for m := cand[best]; m != 0; m &= m - 1 {
		order = append(order, bits.TrailingZeros32(m)+1)
	}
	if s.opts.Rand != nil {
		s.opts.Rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	for i, v := range order {
		if i > 0 {
			s.guesses++
		}
		c2 := append([]uint32(nil), cand...)
		v2 := append([]uint8(nil), vals...)
		if s.assign(c2, v2, best, v) && s.search(c2, v2) {
			return true
		}
	}
	return false
}
