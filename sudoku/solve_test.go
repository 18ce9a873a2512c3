package sudoku

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// solveFunc is one of the two search paths, for tests that compare them.
type solveFunc func(ctx context.Context, g *Grid, opts SolveOptions, limit int) ([]*Grid, Stats, bool)

// TestSolveSets solves every puzzle of every 9x9 and 16x16 data set with
// limit 2 and checks the status, the solution, and the published solution
// where the set has one.
func TestSolveSets(t *testing.T) {
	tests := []struct {
		set  string
		want Status
	}{
		{"famous_hardest.txt", Unique},
		{"hard20.txt", Unique},
		{"gecode_9x9.txt", Unique},
		{"top1465.txt", Unique},
		{"forum_hardest_1106.txt", Unique},
		{"17clue.txt", Unique},
		{"forum_hardest_11plus.txt", Unique},
		{"hard10k_solved.txt", Unique},
		{"multi_solution_10k.txt", Multiple},
		{"gecode_16x16.txt", Unique},
		{"gecode_16x16_b.txt", Unique},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			t.Parallel()
			puzzles := mustLoadPuzzleSet(t, tt.set)
			var failures atomic.Int32
			parallelFor(len(puzzles), func(i int) {
				p := puzzles[i]
				before := p.Grid.String()
				res := Solve(context.Background(), p.Grid, 2)
				fail := func(format string, args ...any) {
					if failures.Add(1) <= 5 {
						t.Errorf("line %d %s: "+format, append([]any{p.Line, p.Grid}, args...)...)
					}
				}
				if res.Status != tt.want {
					fail("Solve(limit 2) status = %v, want %v", res.Status, tt.want)
					return
				}
				if p.Grid.String() != before {
					fail("Solve modified its input")
				}
				wantSols := 1
				if tt.want == Multiple {
					wantSols = 2
				}
				if len(res.Solutions) != wantSols {
					fail("got %d solutions, want %d", len(res.Solutions), wantSols)
					return
				}
				for _, sol := range res.Solutions {
					if err := checkSolvedGrid(p.Grid, sol); err != nil {
						fail("solution %s: %v", sol, err)
					}
				}
				if wantSols == 2 && res.Solutions[0].Equal(res.Solutions[1]) {
					fail("the two solutions are the same: %s", res.Solutions[0])
				}
				if p.Solution != nil && !res.Solutions[0].Equal(p.Solution) {
					fail("solution %s, published %s", res.Solutions[0], p.Solution)
				}
			})
		})
	}
}

// parallelFor calls f(0..n-1) on every core.
func parallelFor(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// TestSolvePathsAgree runs the 9x9 fast path and the generic path on a
// sample of 9x9 puzzles (unique, multiple, none) and compares their answers.
func TestSolvePathsAgree(t *testing.T) {
	t.Parallel()
	var sample []*Grid
	for _, set := range []string{"top1465.txt", "forum_hardest_1106.txt", "multi_solution_10k.txt", "17clue.txt"} {
		ps := mustLoadPuzzleSet(t, set)
		for i := 0; i < len(ps); i += len(ps)/150 + 1 {
			sample = append(sample, ps[i].Grid)
		}
	}
	// Puzzles without a solution: a unique puzzle with one more given that
	// is wrong but does not clash.
	ps := mustLoadPuzzleSet(t, "top1465.txt")
	for i := 0; i < 60; i++ {
		g := ps[i].Grid.Clone()
		res := Solve(context.Background(), g, 1)
		sol := res.Solutions[0]
		for c, v := range g.Cells {
			if v == 0 {
				g.Cells[c] = uint8(int(sol.Cells[c])%9 + 1)
				if len(g.Clashes()) == 0 {
					break
				}
				g.Cells[c] = 0
			}
		}
		sample = append(sample, g)
	}
	for _, limit := range []int{1, 2, 3} {
		for _, g := range sample {
			a, _, _ := solve9(context.Background(), g, SolveOptions{}, limit)
			b, _, _ := solveGeneric(context.Background(), g, SolveOptions{}, limit)
			if len(a) != len(b) {
				t.Errorf("%s limit %d: fast path found %d solutions, generic %d", g, limit, len(a), len(b))
				continue
			}
			for _, s := range append(a, b...) {
				if err := checkSolvedGrid(g, s); err != nil {
					t.Errorf("%s limit %d: %v", g, limit, err)
				}
			}
			if limit > 1 && len(a) == 1 && !a[0].Equal(b[0]) {
				t.Errorf("%s: fast path %s, generic %s", g, a[0], b[0])
			}
		}
	}
}

// TestSolveLearnAgrees runs the learning search (handing over after 1 or
// 30 backtracking nodes) on a sample of 9x9 and 16x16 puzzles with unique,
// several and no solutions, and on grids with rectangular boxes, and
// compares its answers with backtracking.
func TestSolveLearnAgrees(t *testing.T) {
	t.Parallel()
	var sample []*Grid
	for _, set := range []string{"top1465.txt", "forum_hardest_1106.txt", "multi_solution_10k.txt", "gecode_16x16.txt"} {
		ps := mustLoadPuzzleSet(t, set)
		for i := 0; i < len(ps); i += len(ps)/40 + 1 {
			sample = append(sample, ps[i].Grid)
		}
	}
	// No solution: a wrong given that does not clash.
	for _, p := range mustLoadPuzzleSet(t, "top1465.txt")[:20] {
		g := p.Grid.Clone()
		sol := Solve(context.Background(), g, 1).Solutions[0]
		for c, v := range g.Cells {
			if v == 0 {
				g.Cells[c] = uint8(int(sol.Cells[c])%9 + 1)
				if len(g.Clashes()) == 0 {
					break
				}
				g.Cells[c] = 0
			}
		}
		sample = append(sample, g)
	}
	// Rectangular boxes: random full grids with about a third of the
	// cells kept.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range []Shape{Shape6, Shape12, {4, 3}, {2, 5}, {4, 5}} {
		full := SolveWith(context.Background(), New(sh), SolveOptions{Limit: 1, Rand: rng}).Solutions[0]
		for keep := 2; keep <= 3; keep++ {
			g := full.Clone()
			for c := range g.Cells {
				if rng.IntN(keep+1) != 0 {
					g.Cells[c] = 0
				}
			}
			sample = append(sample, g)
		}
	}
	for _, after := range []int64{1, 30} {
		for _, limit := range []int{1, 2, 3} {
			for _, g := range sample {
				a, _, _ := solveGenericLearn(context.Background(), g, SolveOptions{}, limit, -1, defaultLearnParams())
				b, _, _ := solveGenericLearn(context.Background(), g, SolveOptions{}, limit, after, defaultLearnParams())
				if len(a) != len(b) {
					t.Errorf("%s limit %d after %d: backtracking found %d solutions, learning %d", g, limit, after, len(a), len(b))
					continue
				}
				for _, s := range b {
					if err := checkSolvedGrid(g, s); err != nil {
						t.Errorf("%s limit %d after %d: %v", g, limit, after, err)
					}
				}
				if len(b) == 2 && b[0].Equal(b[1]) {
					t.Errorf("%s limit %d after %d: the same solution twice", g, limit, after)
				}
				if limit > 1 && len(a) == 1 && !a[0].Equal(b[0]) {
					t.Errorf("%s: backtracking %s, learning %s", g, a[0], b[0])
				}
			}
		}
	}
}

// TestSolve25x25 solves the two Gecode 25x25 puzzles that take the learning
// search well under a second, and each with givens removed (several
// solutions). The two run at once, sharing the learning search's tables.
func TestSolve25x25(t *testing.T) {
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set) {
			if p.Name != "gecode 89" && p.Name != "gecode 90" {
				continue
			}
			t.Run(p.Name, func(t *testing.T) {
				t.Parallel()
				solve25(t, p)
			})
		}
	}
}

// solve25 checks one easy 25x25 puzzle: unique with a valid solution, and
// several solutions once 12 givens are gone.
func solve25(t *testing.T, p setPuzzle) {
	t.Helper()
	res := Solve(context.Background(), p.Grid, 2)
	if res.Status != Unique {
		t.Fatalf("%s: status %v, want unique", p.Name, res.Status)
	}
	if err := checkSolvedGrid(p.Grid, res.Solutions[0]); err != nil {
		t.Errorf("%s: %v", p.Name, err)
	}
	g := p.Grid.Clone()
	removed := 0
	for c := range g.Cells {
		if g.Cells[c] != 0 && removed < 12 {
			g.Cells[c] = 0
			removed++
		}
	}
	res = Solve(context.Background(), g, 2)
	if res.Status != Multiple || len(res.Solutions) != 2 || res.Solutions[0].Equal(res.Solutions[1]) {
		t.Fatalf("%s less 12 givens: status %v, %d solutions; want two different", p.Name, res.Status, len(res.Solutions))
	}
	for _, s := range res.Solutions {
		if err := checkSolvedGrid(g, s); err != nil {
			t.Errorf("%s less 12 givens: %v", p.Name, err)
		}
	}
}

// TestSolveMarks: pencil marks restrict the cells they are on, on the 9x9
// path and the generic one.
func TestSolveMarks(t *testing.T) {
	paths := []struct {
		name  string
		solve solveFunc
	}{{"fast", solve9}, {"generic", solveGeneric}}
	unique := mustLoadPuzzleSet(t, "top1465.txt")[0].Grid
	multi := mustLoadPuzzleSet(t, "multi_solution_10k.txt")[0].Grid
	for _, path := range paths {
		sol, _, _ := path.solve(context.Background(), unique, SolveOptions{}, 2)
		two, _, _ := path.solve(context.Background(), multi, SolveOptions{}, 2)
		if len(sol) != 1 || len(two) != 2 {
			t.Fatalf("%s: %d and %d solutions without marks, want 1 and 2", path.name, len(sol), len(two))
		}
		empty := slices.Index(unique.Cells, 0)
		// The solution's value left out of an empty cell's marks: none.
		g := unique.Clone()
		g.Marks = make([]uint32, 81)
		g.Marks[empty] = 0x1FF &^ (1 << (sol[0].Cells[empty] - 1))
		if got, _, _ := path.solve(context.Background(), g, SolveOptions{}, 2); len(got) != 0 {
			t.Errorf("%s: marks without the solution's value: %d solutions, want 0", path.name, len(got))
		}
		// Marks holding it: the same solution. Marks on givens and
		// zero marks change nothing.
		g.Marks[empty] = 1<<(sol[0].Cells[empty]-1) | 1<<(sol[0].Cells[empty]%9)
		g.Marks[slices.IndexFunc(unique.Cells, func(v uint8) bool { return v != 0 })] = 1
		if got, _, _ := path.solve(context.Background(), g, SolveOptions{}, 2); len(got) != 1 || !got[0].Equal(sol[0]) {
			t.Errorf("%s: marks holding the solution's value: %v, want %v", path.name, got, sol)
		}
		// A cell where the two solutions differ, marked with the second
		// one's value: every solution found has it.
		g = multi.Clone()
		g.Marks = make([]uint32, 81)
		diff := -1
		for c := range two[0].Cells {
			if two[0].Cells[c] != two[1].Cells[c] {
				diff = c
				break
			}
		}
		g.Marks[diff] = 1 << (two[1].Cells[diff] - 1)
		got, _, _ := path.solve(context.Background(), g, SolveOptions{}, 2)
		if len(got) == 0 {
			t.Fatalf("%s: marked multiple puzzle: no solution", path.name)
		}
		for _, s := range got {
			if s.Cells[diff] != two[1].Cells[diff] {
				t.Errorf("%s: solution %s has %d at the marked cell, want %d", path.name, s, s.Cells[diff], two[1].Cells[diff])
			}
			if err := checkSolvedGrid(multi, s); err != nil {
				t.Errorf("%s: %v", path.name, err)
			}
		}
	}
}

// TestSolveSmall covers outcomes and edge cases on every shape.
func TestSolveSmall(t *testing.T) {
	const p9 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	tests := []struct {
		name  string
		grid  *Grid
		limit int
		want  Status
	}{
		{"9x9 unique", mustDecodeSetGrid(t, p9), 2, Unique},
		{"9x9 limit 1", mustDecodeSetGrid(t, p9), 1, Solved},
		{"9x9 limit 0 means 1", mustDecodeSetGrid(t, p9), 0, Solved},
		{"9x9 empty", New(Shape9), 2, Multiple},
		{"9x9 row clash", gridWithCells(New(Shape9), 0, 5, 8, 5), 2, NoSolution},
		{"9x9 column clash", gridWithCells(New(Shape9), 0, 7, 72, 7), 2, NoSolution},
		{"9x9 box clash", gridWithCells(New(Shape9), 0, 3, 20, 3), 2, NoSolution},
		{"9x9 no solution without clash", gridWithCells(New(Shape9), 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9+8, 9), 2, NoSolution},
		{"4x4 empty", New(Shape4), 2, Multiple},
		{"4x4 clash", gridWithCells(New(Shape4), 0, 1, 5, 1), 2, NoSolution},
		{"6x6 empty", New(Shape6), 2, Multiple},
		{"8x8 empty", New(Shape8), 2, Multiple},
		{"12x12 empty", New(Shape12), 2, Multiple},
		{"16x16 empty", New(Shape16), 2, Multiple},
		{"25x25 empty", New(Shape25), 2, Multiple},
		{"25x25 clash", gridWithCells(New(Shape25), 0, 25, 624, 25, 24, 25), 2, NoSolution},
		{"nil grid", nil, 2, NoSolution},
		{"invalid shape", &Grid{Shape: Shape{1, 1}, Cells: make([]uint8, 1)}, 2, NoSolution},
		{"wrong cell count", &Grid{Shape: Shape9, Alphabet: DefaultAlphabet(9), Cells: make([]uint8, 80)}, 2, NoSolution},
		{"value out of range", gridWithCells(New(Shape4), 3, 5), 2, NoSolution},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Solve(context.Background(), tt.grid, tt.limit)
			if res.Status != tt.want {
				t.Fatalf("Solve(%v, %d) status = %v, want %v", tt.grid, tt.limit, res.Status, tt.want)
			}
			want := map[Status]int{Unique: 1, Solved: 1, Multiple: 2, NoSolution: 0}[tt.want]
			if len(res.Solutions) != want {
				t.Fatalf("Solve(%v, %d) gave %d solutions, want %d", tt.grid, tt.limit, len(res.Solutions), want)
			}
			for _, s := range res.Solutions {
				if err := checkSolvedGrid(tt.grid, s); err != nil {
					t.Errorf("Solve(%v): %v", tt.grid, err)
				}
			}
			if res.Status != NoSolution && res.Stats.Nodes == 0 {
				t.Errorf("Solve(%v): Stats.Nodes = 0", tt.grid)
			}
		})
	}
}

func mustDecodeSetGrid(t *testing.T, s string) *Grid {
	t.Helper()
	g, err := decodeSetGrid(s)
	if err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return g
}

// gridWithCells sets cell, value pairs.
func gridWithCells(g *Grid, cellValues ...int) *Grid {
	for i := 0; i+1 < len(cellValues); i += 2 {
		g.Cells[cellValues[i]] = uint8(cellValues[i+1])
	}
	return g
}

// TestSolveEveryShape makes a random full grid of every shape, blanks cells
// and solves again: the full grid's answer must come back with limit 2 when
// the givens still force it, and any answer must fit the givens.
func TestSolveEveryShape(t *testing.T) {
	shapes := []Shape{Shape4, Shape6, Shape8, Shape9, Shape12, Shape16, Shape25, {2, 5}, {3, 5}, {4, 5}, {2, 6}, {3, 2}, {4, 3}, {1, 6}, {1, 12}}
	for _, s := range shapes {
		t.Run(s.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(s.N())))
			res := SolveWith(context.Background(), New(s), SolveOptions{Limit: 1, Rand: rng})
			if res.Status != Solved {
				t.Fatalf("random fill of %v: status %v, want solved", s, res.Status)
			}
			full := res.Solutions[0]
			if err := checkSolvedGrid(New(s), full); err != nil {
				t.Fatalf("random fill of %v: %v", s, err)
			}
			if r := Solve(context.Background(), full, 2); r.Status != Unique || !r.Solutions[0].Equal(full) {
				t.Fatalf("full grid %s: status %v, want unique and itself", full, r.Status)
			}
			for _, keep := range []float64{0.7, 0.5, 0.35} {
				g := full.Clone()
				for i := range g.Cells {
					if rng.Float64() > keep {
						g.Cells[i] = 0
					}
				}
				r := Solve(context.Background(), g, 2)
				if r.Status != Unique && r.Status != Multiple {
					t.Fatalf("%s (keep %.2f): status %v, want unique or multiple", g, keep, r.Status)
				}
				for _, sol := range r.Solutions {
					if err := checkSolvedGrid(g, sol); err != nil {
						t.Fatalf("%s: %v", g, err)
					}
				}
			}
		})
	}
}

// TestSolveKeepsAlphabet: a puzzle written in its own letters is answered
// in them.
func TestSolveKeepsAlphabet(t *testing.T) {
	g := mustDecodeSetGrid(t, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	g.Alphabet = "AELMNOSTW"
	res := Solve(context.Background(), g, 2)
	if res.Status != Unique {
		t.Fatalf("status %v, want unique", res.Status)
	}
	sol := res.Solutions[0]
	if sol.Alphabet != g.Alphabet {
		t.Errorf("solution alphabet %q, want %q", sol.Alphabet, g.Alphabet)
	}
	if s := sol.String(); strings.Trim(s, "AELMNOSTW") != "" || s[0] != 'M' {
		t.Errorf("solution %q is not written in AELMNOSTW starting with the given M", s)
	}
}

// TestSolveRandomDeterministic: the same seed gives the same grids, on both
// paths; different seeds give different ones.
func TestSolveRandomDeterministic(t *testing.T) {
	for _, s := range []Shape{Shape9, Shape6, Shape16} {
		fill := func(seed uint64) *Grid {
			res := SolveWith(context.Background(), New(s), SolveOptions{Limit: 1, Rand: rand.New(rand.NewPCG(seed, 7))})
			if res.Status != Solved {
				t.Fatalf("%v seed %d: status %v", s, seed, res.Status)
			}
			return res.Solutions[0]
		}
		a, b := fill(42), fill(42)
		if !a.Equal(b) {
			t.Errorf("%v seed 42 gave %s then %s", s, a, b)
		}
		distinct := map[string]bool{}
		for seed := uint64(0); seed < 10; seed++ {
			distinct[fill(seed).String()] = true
		}
		if len(distinct) < 9 {
			t.Errorf("%v: 10 seeds gave only %d distinct grids", s, len(distinct))
		}
	}
	// A unique puzzle has the same answer in any order.
	g := mustLoadPuzzleSet(t, "forum_hardest_1106.txt")[0].Grid
	want := Solve(context.Background(), g, 2).Solutions[0]
	for seed := uint64(0); seed < 5; seed++ {
		res := SolveWith(context.Background(), g, SolveOptions{Limit: 2, Rand: rand.New(rand.NewPCG(seed, 1))})
		if res.Status != Unique || !res.Solutions[0].Equal(want) {
			t.Errorf("seed %d: status %v, solution %v; want unique %s", seed, res.Status, res.Solutions, want)
		}
	}
}

// TestSolveCancel: a very hard 25x25 stops within 10 ms of its deadline, and
// an already cancelled context stops searches that would take long.
//
// The machine running the tests may be busy, and a descheduled process can
// overshoot any deadline (go test runs packages side by side); each puzzle
// gets five tries and must stop in time in at least one.
func TestSolveCancel(t *testing.T) {
	ps := mustLoadPuzzleSet(t, "gecode_25x25.txt")
	const deadline = 50 * time.Millisecond
	const slack = 10 * time.Millisecond
	// The solver must stop within slack of the deadline. On a loaded
	// machine its thread may wait for a core after the deadline, so the
	// wall time alone can overrun through no fault of the solver: the
	// thread's own CPU time (Linux) tells the two apart. A solver that
	// polls its context too rarely overruns in both.
	defer lockThread()()
	for _, p := range ps[:3] {
		var best, bestCPU time.Duration
		for try := 0; try < 5; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			c0, cok := threadCPU()
			start := time.Now()
			res := Solve(ctx, p.Grid, 2)
			took := time.Since(start)
			c1, ok := threadCPU()
			cancel()
			if res.Status != Cancelled {
				// A fast machine might solve it: then there is nothing to check.
				t.Logf("%s: %v in %v, not cancelled", p.Name, res.Status, took)
				best, bestCPU = 0, 0
				break
			}
			cpu := took
			if ok && cok {
				cpu = c1 - c0
			}
			if try == 0 || took < best {
				best = took
			}
			if try == 0 || cpu < bestCPU {
				bestCPU = cpu
			}
			if best <= deadline+slack {
				break
			}
		}
		if best > deadline+slack && bestCPU > deadline+slack {
			t.Errorf("%s: cancelled after %v (%v of CPU) at best, deadline %v (+%v allowed)", p.Name, best, bestCPU, deadline, slack)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Solve(ctx, New(Shape16), 1<<30)
	if res.Status != Cancelled {
		t.Errorf("Solve(cancelled ctx, empty 16x16, huge limit) = %v, want cancelled", res.Status)
	}
	res = Solve(ctx, New(Shape9), 1<<30)
	if res.Status != Cancelled {
		t.Errorf("Solve(cancelled ctx, empty 9x9, huge limit) = %v, want cancelled", res.Status)
	}
}

// TestSolveLearnSound checks the clauses the learning search learns on the
// Gecode 25x25 puzzles whose solution is known (testdata), for its first
// 5000 conflicts, against that solution: a clause the solution falsifies
// would cut it off, and the search could answer "none" for a unique puzzle.
func TestSolveLearnSound(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "sets", "gecode_25x25_solutions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sols := map[string]*Grid{}
	for line := range strings.Lines(string(data)) {
		idx, cells, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || idx[0] == '#' {
			continue
		}
		sols["gecode "+idx] = mustDecodeSetGrid(t, cells)
	}
	checked := 0
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set) {
			sol := sols[p.Name]
			if sol == nil {
				continue
			}
			if err := checkSolvedGrid(p.Grid, sol); err != nil {
				t.Fatalf("%s: testdata solution: %v", p.Name, err)
			}
			checked++
			lp := defaultLearnParams()
			lp.maxConflicts = 5000
			learnt, unsound := 0, 0
			n := sol.N()
			lp.onLearn = func(ls []lit) {
				learnt++
				for _, q := range ls {
					v := int(q >> 1)
					if (int(sol.Cells[v/n])-1 == v%n) == (q&1 == 0) {
						return // the solution makes q true
					}
				}
				unsound++
			}
			found, _, _ := solveGenericLearn(context.Background(), p.Grid, SolveOptions{}, 1, 1, lp)
			if unsound > 0 {
				t.Errorf("%s: %d of %d learned clauses cut off the solution", p.Name, unsound, learnt)
			}
			if learnt == 0 {
				t.Errorf("%s: the learning search learned no clause: nothing was checked", p.Name)
			}
			if len(found) > 0 && !found[0].Equal(sol) {
				t.Errorf("%s: learning found %s, want %s", p.Name, found[0], sol)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("%d puzzles with a known solution, want at least 5", checked)
	}
}
