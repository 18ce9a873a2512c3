package sudoku

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var genSeeds = flag.Int("gen.seeds", 0, "generate this many seeds per case in TestGenerateProperties instead of the few it checks by default")

func init() {
	// Golden files refresh with -update. Another test file of the package
	// may define the flag already; define it only if not.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "update golden files")
	}
}

func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkGolden compares got with testdata/name, or rewrites the file under
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updatingGolden() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update if the change is intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func mustGenerate(t testing.TB, opts GenerateOptions) Puzzle {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := Generate(ctx, opts)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", opts, err)
	}
	return p
}

// checkPuzzle checks everything Generate promises about p: the solution is
// the only one, the clues agree with it, the clue pattern has the symmetry,
// the rating is Rate's and in the band, and (when minimal is set) the puzzle
// is minimal for its symmetry, or above 9x9 for its level.
func checkPuzzle(t *testing.T, opts GenerateOptions, p Puzzle, minimal bool) {
	t.Helper()
	g := p.Grid
	if g == nil || p.Solution == nil {
		t.Fatalf("Generate(%+v) returned a nil grid", opts)
	}
	if g.Shape != opts.Shape || p.Solution.Shape != opts.Shape {
		t.Fatalf("Generate(%+v) made a %v puzzle", opts, g.Shape)
	}
	if sol := mustUniqueSolution(t, g); !sol.Equal(p.Solution) {
		t.Errorf("Generate(%+v).Solution = %s, want %s", opts, p.Solution, sol)
	}
	for i, v := range g.Cells {
		if v != 0 && v != p.Solution.Cells[i] {
			t.Errorf("clue %d at %s disagrees with the solution's %d", v, g.Shape.CellName(i), p.Solution.Cells[i])
		}
	}
	if !g.HasSymmetry(opts.Symmetry) {
		t.Errorf("Generate(%+v) = %s: clues lack symmetry %v", opts, g, opts.Symmetry)
	}
	if r := Rate(g); r != p.Rating {
		t.Errorf("Generate(%+v).Rating = %+v, but Rate says %+v", opts, p.Rating, r)
	}
	if p.Rating.Level != opts.Level || LevelFor(p.Rating.Score) != opts.Level {
		t.Errorf("Generate(%+v) = %s rated %.1f (%v), want level %v", opts, g, p.Rating.Score, p.Rating.Level, opts.Level)
	}
	if !minimal {
		return
	}
	_, hi := LevelBounds(opts.Level)
	for _, orbit := range opts.Symmetry.Orbits(opts.Shape) {
		if g.Cells[orbit[0]] == 0 {
			continue
		}
		h := g.Clone()
		for _, c := range orbit {
			h.Cells[c] = 0
		}
		if removalFor(opts) == removeMinimal {
			if res := Solve(context.Background(), h, 2); res.Status == Unique {
				t.Errorf("Generate(%+v) = %s is not minimal: without clues %v it has one solution", opts, g, cellNames(opts.Shape, orbit))
			}
			continue
		}
		if ok, _ := proveWithin(context.Background(), h, hi); ok {
			t.Errorf("Generate(%+v) = %s is not minimal for its level: without clues %v logic up to %.1f still finishes it", opts, g, cellNames(opts.Shape, orbit), hi)
		}
	}
}

// mustUniqueSolution returns g's solution and fails unless it is the only
// one. Grids above 9x9 are proved unique by the logical solver instead of
// search when it can: logic that fills every cell without assuming
// uniqueness leaves no room for a second solution, and it is much quicker
// than a search on a sparse 16x16.
func mustUniqueSolution(t *testing.T, g *Grid) *Grid {
	t.Helper()
	if g.N() > 9 {
		if ok, _ := proveWithin(context.Background(), g, 99); ok {
			l, err := NewLogic(g)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Run(context.Background()); err != nil || !l.Solved() {
				t.Fatalf("%s: the logical solver proved it unique but then did not solve it (%v)", g, err)
			}
			return l.Grid()
		}
	}
	res := Solve(context.Background(), g, 2)
	if res.Status != Unique {
		t.Fatalf("%s: solve status %v, want unique", g, res.Status)
	}
	return res.Solutions[0]
}

func cellNames(sh Shape, cells []int) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = sh.CellName(c)
	}
	return strings.Join(names, " ")
}

func TestGenerateProperties(t *testing.T) {
	t.Parallel()
	syms := Symmetries()
	tests := []struct {
		shape   Shape
		level   Level
		seeds   int
		minimal bool // check minimality (slow on big grids)
	}{
		{Shape4, Easy, 20, true},
		{Shape6, Easy, 10, true},
		{Shape6, Medium, 5, true},
		{Shape6, Hard, 5, true},
		{Shape8, Hard, 3, true},
		{Shape9, Easy, 15, true},
		{Shape9, Medium, 15, true},
		{Shape9, Hard, 15, true},
		{Shape9, Expert, 10, true},
		{Shape9, Extreme, 3, true},
		{Shape12, Medium, 2, true},
		{Shape12, Expert, 1, true},
		{Shape16, Easy, 2, true},
		{Shape16, Medium, 2, true},
		{Shape16, Hard, 1, true},
		{Shape16, Expert, 1, true},
		{Shape25, Easy, 1, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v/%v", tt.shape, tt.level), func(t *testing.T) {
			if testing.Short() && tt.shape.N() > 9 {
				t.Skip("big grids take a while")
			}
			seeds := tt.seeds
			if *genSeeds > 0 {
				seeds = *genSeeds
			}
			for seed := range seeds {
				// Every symmetry in turn, the last seeds with rot180.
				opts := GenerateOptions{Shape: tt.shape, Level: tt.level, Symmetry: syms[seed%len(syms)], Seed: uint64(seed)}
				checkPuzzle(t, opts, mustGenerate(t, opts), tt.minimal)
			}
		})
	}
}

func TestGenerateDeterministic(t *testing.T) {
	opts := []GenerateOptions{
		{Shape: Shape9, Level: Easy, Symmetry: Rotate180, Seed: 42},
		{Shape: Shape9, Level: Medium, Symmetry: Mirror, Seed: 42},
		{Shape: Shape9, Level: Hard, Symmetry: Rotate90, Seed: 42},
		{Shape: Shape9, Level: Expert, Symmetry: Diagonal, Seed: 42},
		{Shape: Shape9, Level: Extreme, Symmetry: NoSymmetry, Seed: 42},
		{Shape: Shape6, Level: Medium, Symmetry: Rotate180, Seed: 42},
		{Shape: Shape4, Level: Easy, Symmetry: Rotate90, Seed: 42},
		{Shape: Shape16, Level: Easy, Symmetry: Rotate180, Seed: 42},
	}
	// Make each puzzle twice, at the same time, under two GOMAXPROCS
	// settings: the results must agree with each other and with the golden
	// file.
	var b strings.Builder
	// (On a one-CPU machine, or under taskset, both runs use one.)
	for round, procs := range []int{1, runtime.NumCPU()} {
		old := runtime.GOMAXPROCS(procs)
		got := make([][2]Puzzle, len(opts))
		var wg sync.WaitGroup
		for i, o := range opts {
			for j := range 2 {
				wg.Go(func() { got[i][j] = mustGenerate(t, o) })
			}
		}
		wg.Wait()
		runtime.GOMAXPROCS(old)
		for i, o := range opts {
			a, c := got[i][0], got[i][1]
			if !a.Grid.Equal(c.Grid) || a.Rating != c.Rating {
				t.Errorf("Generate(%+v) twice gave %s and %s", o, a.Grid, c.Grid)
			}
			if round == 0 {
				fmt.Fprintf(&b, "%v %v %v seed=%d %.1f %s\n", o.Shape.N(), o.Level, o.Symmetry, o.Seed, a.Rating.Score, a.Grid)
			}
		}
	}
	checkGolden(t, "generate.golden", b.String())
}

func TestGenerateSeedsDiffer(t *testing.T) {
	seen := map[string]uint64{}
	for seed := range uint64(20) {
		p := mustGenerate(t, GenerateOptions{Shape: Shape9, Level: Easy, Symmetry: Rotate180, Seed: seed})
		if prev, ok := seen[p.Grid.String()]; ok {
			t.Errorf("seeds %d and %d gave the same puzzle %s", prev, seed, p.Grid)
		}
		seen[p.Grid.String()] = seed
	}
}

func TestGenerateErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel2()
	tests := []struct {
		name    string
		ctx     context.Context
		opts    GenerateOptions
		wantErr error  // errors.Is target, or nil for any error
		wantMsg string // part of the message
	}{
		{"bad shape", context.Background(), GenerateOptions{Shape: Shape{1, 3}}, nil, "not playable"},
		{"too big", context.Background(), GenerateOptions{Shape: Shape{6, 5}}, nil, "not playable"},
		{"bad level", context.Background(), GenerateOptions{Level: Level(9)}, nil, "unknown level"},
		{"bad symmetry", context.Background(), GenerateOptions{Symmetry: Symmetry(-1)}, nil, "unknown symmetry"},
		{"4x4 hard", context.Background(), GenerateOptions{Shape: Shape4, Level: Hard}, ErrLevelUnreachable, "4x4 puzzles go up to easy"},
		{"4x4 medium", context.Background(), GenerateOptions{Shape: Shape4, Level: Medium}, ErrLevelUnreachable, "up to easy"},
		{"6x6 extreme", context.Background(), GenerateOptions{Shape: Shape6, Level: Extreme}, ErrLevelUnreachable, "up to expert"},
		{"16x16 extreme", context.Background(), GenerateOptions{Shape: Shape16, Level: Extreme}, ErrLevelUnreachable, "16x16 puzzles go up to expert"},
		{"cancelled", cancelled, GenerateOptions{Level: Hard}, context.Canceled, "gave up"},
		{"deadline", expired, GenerateOptions{Shape: Shape16, Level: Medium}, context.DeadlineExceeded, "gave up"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "deadline" {
				<-tt.ctx.Done()
			}
			_, err := Generate(tt.ctx, tt.opts)
			if err == nil {
				t.Fatalf("Generate(%+v) succeeded, want an error", tt.opts)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Generate(%+v) = %v, want an error wrapping %v", tt.opts, err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Generate(%+v) = %q, want it to mention %q", tt.opts, err, tt.wantMsg)
			}
		})
	}
}

func TestGenerateZeroShapeIs9x9(t *testing.T) {
	p := mustGenerate(t, GenerateOptions{Seed: 3})
	if p.Grid.Shape != Shape9 {
		t.Errorf("Generate with no shape made a %v, want 9x9", p.Grid.Shape)
	}
}

func TestGenerateStopsAtDeadline(t *testing.T) {
	// A 16x16 medium takes longer than the deadline: the search must stop
	// promptly when it passes.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Generate(ctx, GenerateOptions{Shape: Shape16, Level: Medium, Seed: 1})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Generate ran %v past a 50ms deadline", took)
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Generate = %v, want nil or a deadline error", err)
	}
}

func TestFill(t *testing.T) {
	for _, sh := range []Shape{Shape4, Shape6, Shape8, Shape9, Shape12, Shape16, Shape25} {
		t.Run(sh.String(), func(t *testing.T) {
			var first string
			for i := range 2 {
				f := newFiller(sh, rand.New(rand.NewPCG(7, 7)))
				cells, err := f.fill(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				g := &Grid{Shape: sh, Alphabet: DefaultAlphabet(sh.N()), Cells: cells}
				if !g.Complete() || len(g.Clashes()) > 0 {
					t.Fatalf("fill made %s: not a complete valid grid", g)
				}
				if i == 0 {
					first = g.String()
				} else if g.String() != first {
					t.Errorf("fill with the same seed made %s, then %s", first, g)
				}
			}
		})
	}
}

// TestSinglesAgreesWithRate checks the generator's fast test against the
// logical solver: a puzzle falls to hidden singles exactly when it rates
// easy. The puzzles are random full grids with random cells emptied (40% to
// 80%), so they range from trivial to ones with many solutions.
func TestSinglesAgreesWithRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[bool]int{}
	defer func() {
		if seen[true] < 10 || seen[false] < 10 {
			t.Errorf("hidden singles solved %d puzzles and failed on %d; want at least 10 of each for a real check", seen[true], seen[false])
		}
	}()
	for _, sh := range []Shape{Shape6, Shape9} {
		s := newSingles(sh)
		for i := range 41 {
			cells, err := newFiller(sh, rng).fill(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			g := &Grid{Shape: sh, Alphabet: DefaultAlphabet(sh.N()), Cells: cells}
			for _, c := range rng.Perm(len(g.Cells))[:len(g.Cells)*(40+i)/100] {
				g.Cells[c] = 0
			}
			got := s.solves(g.Cells)
			seen[got]++
			score, done, _ := rateWithin(context.Background(), g, levelHi(Easy))
			if want := done && score <= 1.5; got != want {
				t.Errorf("singles.solves(%s) = %v, but rateWithin 1.5 says %v (score %.1f)", g, got, want, score)
			}
		}
	}
}

// levelHi is the top of a level's band.
func levelHi(l Level) float64 { _, hi := LevelBounds(l); return hi }

// TestProveWithinImpliesUnique checks the generator's search-free proof of
// uniqueness against the solver, on random grids with 40% to 70% of the
// cells emptied: some have one solution, many have more.
func TestProveWithinImpliesUnique(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	proved, multi := 0, 0
	for i := range 60 {
		cells, err := newFiller(Shape9, rng).fill(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		g := &Grid{Shape: Shape9, Alphabet: DefaultAlphabet(9), Cells: cells}
		for _, c := range rng.Perm(81)[:81*(40+i/2)/100] {
			g.Cells[c] = 0
		}
		ok, err := proveWithin(context.Background(), g, levelHi(Expert))
		if err != nil {
			t.Fatal(err)
		}
		status := Solve(context.Background(), g, 2).Status
		if ok && status != Unique {
			t.Errorf("proveWithin(%s) proved it unique, but Solve says %v", g, status)
		}
		if ok {
			proved++
		}
		if status == Multiple {
			multi++
		}
	}
	if proved < 10 || multi < 10 {
		t.Errorf("%d grids proved unique, %d with several solutions; want at least 10 of each for a real check", proved, multi)
	}
}

// TestRateWithinAgreesWithRate checks the cut-short rating against Rate.
func TestRateWithinAgreesWithRate(t *testing.T) {
	var ps []*Grid
	for i := range 30 {
		ps = append(ps, mustGenerate(t, GenerateOptions{Level: Level(i % 5), Seed: uint64(i)}).Grid)
	}
	for _, g := range ps {
		r := Rate(g)
		for _, l := range []Level{Easy, Medium, Hard, Expert} {
			hi := levelHi(l)
			score, done, err := rateWithin(context.Background(), g, hi)
			if err != nil {
				t.Fatal(err)
			}
			if want := r.Complete && r.Score <= hi+1e-9; done != want {
				t.Errorf("rateWithin(%s, %.1f) finished = %v, want %v (Rate %.1f)", g, hi, done, want, r.Score)
			}
			if done && score != r.Score {
				t.Errorf("rateWithin(%s, %.1f) = %.1f, Rate = %.1f", g, hi, score, r.Score)
			}
		}
	}
}

// generateBench generates puzzles at one setting with a fresh seed each
// time and reports the median wall and CPU time per puzzle and the mean
// number of candidates made. CPU time (of the benchmark's own thread) is the
// figure to trust on a loaded machine.
func generateBench(b *testing.B, opts GenerateOptions) {
	defer lockThread()()
	var wall, cpu []time.Duration
	attempts := 0
	for i := 0; b.Loop(); i++ {
		opts.Seed = uint64(i)
		c0, cok := threadCPU()
		start := time.Now()
		_, k, err := generate(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		wall = append(wall, time.Since(start))
		if c1, ok := threadCPU(); ok && cok {
			cpu = append(cpu, c1-c0)
		}
		attempts += k
	}
	b.ReportMetric(medianMS(wall), "ms/op-median")
	if len(cpu) > 0 {
		b.ReportMetric(medianMS(cpu), "cpu-ms/op-median")
	}
	b.ReportMetric(float64(attempts)/float64(len(wall)), "attempts/op")
}

// medianMS returns the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	s := append([]time.Duration(nil), ds...)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

func BenchmarkGenerate(b *testing.B) {
	for _, c := range []struct {
		shape Shape
		level Level
	}{
		{Shape9, Easy}, {Shape9, Medium}, {Shape9, Hard}, {Shape9, Expert}, {Shape9, Extreme},
		{Shape6, Medium}, {Shape16, Easy}, {Shape16, Medium}, {Shape16, Hard}, {Shape16, Expert},
	} {
		b.Run(fmt.Sprintf("%dx%d/%v", c.shape.N(), c.shape.N(), c.level), func(b *testing.B) {
			generateBench(b, GenerateOptions{Shape: c.shape, Level: c.level, Symmetry: Rotate180})
		})
	}
}
