package sudoku

import (
	"context"
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

// String names the status in one lower-case word, as the CLI prints it:
// none, unique, multiple, solved or cancelled.
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
	Nodes   int64         // search nodes visited (states propagated)
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
	// The same seed gives the same search, hence the same solutions.
	Rand *rand.Rand
	// Deadline, when not zero, ends the search at that time as a deadline
	// on ctx would (status Cancelled). It spares a caller running many
	// short searches a context.WithTimeout (and its timer) per search.
	Deadline time.Time
}

// Solve searches g for up to limit solutions. It honours ctx: when ctx ends
// the search stops promptly and the result has status Cancelled (with any
// solutions found so far). g is not modified; solutions are copies of g (same
// shape and alphabet) with every cell filled.
//
// Givens that clash, and grids that are not well formed (an invalid shape,
// a cell count that does not match it, a value above N), give NoSolution.
// Pencil marks (g.Marks) restrict the empty cells they are on to the values
// marked: a solution then has one of them in each such cell.
func Solve(ctx context.Context, g *Grid, limit int) Result {
	return SolveWith(ctx, g, SolveOptions{Limit: limit})
}

// SolveWith is Solve with options.
//
// 9x9 grids take a specialised path (digit-major bitboards, band-wise
// propagation with table lookups, see solve9.go); every other shape takes
// the generic one (solve_generic.go).
func SolveWith(ctx context.Context, g *Grid, opts SolveOptions) Result {
	start := time.Now()
	limit := max(opts.Limit, 1)
	var res Result
	if !solvable(g) {
		res.Stats.Elapsed = time.Since(start)
		return res
	}
	var cancelled bool
	if g.Shape == Shape9 {
		res.Solutions, res.Stats, cancelled = solve9(ctx, g, opts, limit)
	} else {
		res.Solutions, res.Stats, cancelled = solveGeneric(ctx, g, opts, limit)
	}
	res.Status = statusOf(len(res.Solutions), cancelled, limit)
	res.Stats.Elapsed = time.Since(start)
	return res
}

// statusOf is the status of a search for up to limit solutions that found
// sols of them, or was cancelled.
func statusOf(sols int, cancelled bool, limit int) Status {
	switch {
	case cancelled:
		return Cancelled
	case sols == 0:
		return NoSolution
	case sols >= 2:
		return Multiple
	case limit == 1:
		return Solved
	}
	return Unique
}

// stopper tells a search when to stop. Besides ctx.Done it compares the
// clock with ctx's deadline itself: the timer that closes Done needs a
// processor, and with GOMAXPROCS=1 it would wait for the scheduler to
// preempt the search (10 ms or more) before it could run.
type stopper struct {
	done     <-chan struct{}
	deadline time.Time
	timed    bool
}

func newStopper(ctx context.Context, deadline time.Time) stopper {
	d, ok := ctx.Deadline()
	if !deadline.IsZero() && (!ok || deadline.Before(d)) {
		d, ok = deadline, true
	}
	return stopper{done: ctx.Done(), deadline: d, timed: ok}
}

// stopped reports whether the search should stop now.
func (s *stopper) stopped() bool {
	if s.timed && !time.Now().Before(s.deadline) {
		return true
	}
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// solvable reports whether g is well formed enough to search: a valid shape,
// one value per cell, values within 0..N.
func solvable(g *Grid) bool {
	if g == nil || !g.Shape.Valid() || len(g.Cells) != g.Shape.Size() {
		return false
	}
	n := uint8(g.N())
	for _, v := range g.Cells {
		if v > n {
			return false
		}
	}
	return true
}
