package sudoku

import (
	"context"
	"math/rand/v2"
	"testing"
)

// solutionMask returns, for a solved 9x9 grid, the cells of band b that
// hold digit d+1: what cand[d*3+b] must keep while the solution is open.
func solutionMask(sol *Grid, d, b int) uint32 {
	var m uint32
	for p := 0; p < 27; p++ {
		if int(sol.Cells[b*27+p]) == d+1 {
			m |= 1 << p
		}
	}
	return m
}

// TestSolve9KeepsSolution follows the 9x9 search down the branch that holds
// the known solution of each puzzle: propagation (singles, permutations,
// columns, triads) must never remove one of the solution's candidates nor
// report a contradiction, and every guess must split the candidates so
// that exactly one of its two branches holds the solution.
func TestSolve9KeepsSolution(t *testing.T) {
	var sample []setPuzzle
	for _, set := range []string{"hard10k_solved.txt", "top1465.txt", "forum_hardest_1106.txt"} {
		ps := mustLoadPuzzleSet(t, set)
		for i := 0; i < len(ps); i += len(ps)/120 + 1 {
			sample = append(sample, ps[i])
		}
	}
	guesses := 0
	for _, p := range sample {
		sol := p.Solution
		if sol == nil {
			sol = Solve(context.Background(), p.Grid, 1).Solutions[0]
		}
		var want [27]uint32
		for i := range want {
			want[i] = solutionMask(sol, i/3, i%3)
		}
		var s state9
		if !s.init(p.Grid) {
			t.Fatalf("line %d: init reports clashing givens", p.Line)
		}
		for depth := 0; ; depth++ {
			if !s.propagate() {
				t.Errorf("line %d depth %d: propagate finds a contradiction on the solution's branch", p.Line, depth)
				break
			}
			lost := false
			for i, w := range want {
				if s.cand[i]&w != w {
					t.Errorf("line %d depth %d: digit %d band %d lost solution cells %027b", p.Line, depth, i/3+1, i%3, w&^s.cand[i])
					lost = true
				}
			}
			if lost {
				break
			}
			if s.unsolved[0]|s.unsolved[1]|s.unsolved[2] == 0 {
				if got := s.grid(p.Grid); !got.Equal(sol) {
					t.Errorf("line %d: solved to %s, want %s", p.Line, got, sol)
				}
				break
			}
			i, keep, clear := s.pick()
			if keep&clear != clear || s.cand[i]&clear == 0 || s.cand[i]&^keep == 0 {
				t.Errorf("line %d depth %d: guess on cand %d keeps %027b, clears %027b of %027b: not two real branches", p.Line, depth, i, keep, clear, s.cand[i])
				break
			}
			w := want[i]
			inKeep, inClear := s.cand[i]&keep&w == w, s.cand[i]&^clear&w == w
			if inKeep == inClear {
				t.Errorf("line %d depth %d: guess on cand %d: solution in keep %v, in clear %v; want exactly one", p.Line, depth, i, inKeep, inClear)
				break
			}
			if inKeep {
				s.cand[i] &= keep
			} else {
				s.cand[i] &^= clear
			}
			s.dirty |= 1 << i
			guesses++
		}
	}
	if guesses < len(sample) {
		t.Errorf("%d guesses over %d puzzles: the test did not reach the guessing code", guesses, len(sample))
	}
}

// randomPartial returns 9x9 grids made from random solutions: some keep
// few givens (many solutions), some gain a wrong given that does not clash
// (often none), some carry pencil marks. They exercise the 9x9 search
// where the benchmark sets (all unique) do not.
func randomPartial(rng *rand.Rand, n int) []*Grid {
	var out []*Grid
	for len(out) < n {
		full := SolveWith(context.Background(), New(Shape9), SolveOptions{Limit: 1, Rand: rng}).Solutions[0]
		g := full.Clone()
		keep := 20 + rng.IntN(30)
		for _, c := range rng.Perm(81)[keep:] {
			g.Cells[c] = 0
		}
		switch len(out) % 3 {
		case 1:
			for _, c := range rng.Perm(81) {
				if g.Cells[c] != 0 {
					continue
				}
				g.Cells[c] = uint8(int(full.Cells[c])%9 + 1)
				if len(g.Clashes()) == 0 {
					break
				}
				g.Cells[c] = 0
			}
		case 2:
			g.Marks = make([]uint32, 81)
			for _, c := range rng.Perm(81)[:20] {
				if g.Cells[c] == 0 {
					g.Marks[c] = uint32(rng.IntN(0x1FF)) + 1
				}
			}
		}
		out = append(out, g)
	}
	return out
}

// TestSolve9CountsAgree counts, up to 40, the solutions of random partial
// grids with the 9x9 path and the generic one: a guess that lost solutions,
// or let one branch repeat the other's, would change a count.
func TestSolve9CountsAgree(t *testing.T) {
	const limit = 40
	counts := map[string]int{}
	for _, g := range randomPartial(rand.New(rand.NewPCG(9, 9)), 240) {
		a, _, _ := solve9(context.Background(), g, SolveOptions{}, limit)
		b, _, _ := solveGeneric(context.Background(), g, SolveOptions{}, limit)
		if len(a) != len(b) {
			t.Errorf("%s (marks %v): fast path found %d solutions, generic %d", g, g.Marks != nil, len(a), len(b))
			continue
		}
		seen := map[string]bool{}
		for _, s := range a {
			if err := checkSolvedGrid(g, s); err != nil {
				t.Errorf("%s: %v", g, err)
			}
			for c, m := range g.Marks {
				if m != 0 && g.Cells[c] == 0 && m>>(s.Cells[c]-1)&1 == 0 {
					t.Errorf("%s: solution %s breaks the marks of cell %d", g, s, c)
				}
			}
			if seen[s.String()] {
				t.Errorf("%s: solution %s found twice", g, s)
			}
			seen[s.String()] = true
		}
		switch {
		case len(a) == 0:
			counts["none"]++
		case len(a) == 1:
			counts["unique"]++
		case len(a) < limit:
			counts["several"]++
		default:
			counts["limit"]++
		}
	}
	// The sample must cover every outcome for the comparison to mean much.
	for _, k := range []string{"none", "unique", "several", "limit"} {
		if counts[k] < 10 {
			t.Errorf("only %d grids with outcome %q (all: %v)", counts[k], k, counts)
		}
	}
}

// TestSolve9Independent: a 9x9 search does not depend on the searches run
// before it (the solver's stack is pooled): each puzzle gives the same
// status, solutions, nodes and guesses whether solved first or after
// others, including ones that were cut short.
func TestSolve9Independent(t *testing.T) {
	var grids []*Grid
	for _, set := range []string{"top1465.txt", "forum_hardest_1106.txt", "multi_solution_10k.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set)[:8] {
			grids = append(grids, p.Grid)
		}
	}
	grids = append(grids, randomPartial(rand.New(rand.NewPCG(3, 4)), 12)...)
	type outcome struct {
		status         Status
		sols           string
		nodes, guesses int64
	}
	run := func(g *Grid) outcome {
		res := Solve(context.Background(), g, 2)
		o := outcome{status: res.Status, nodes: res.Stats.Nodes, guesses: res.Stats.Guesses}
		for _, s := range res.Solutions {
			o.sols += s.String()
		}
		return o
	}
	first := make([]outcome, len(grids))
	for i, g := range grids {
		first[i] = run(g)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for i := len(grids) - 1; i >= 0; i-- {
		// A search stopped early and one with limit 1 leave a partly
		// used stack behind.
		Solve(cancelled, New(Shape9), 1<<20)
		Solve(context.Background(), grids[(i+5)%len(grids)], 1)
		if got := run(grids[i]); got != first[i] {
			t.Errorf("%s: %+v after other searches, %+v first", grids[i], got, first[i])
		}
	}
}
