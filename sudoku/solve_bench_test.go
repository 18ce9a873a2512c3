package sudoku

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"
	"time"
)

// benchSet solves the puzzles of a set with limit 2 (the uniqueness check)
// and reports puzzles per second. Run with -cpu 1.
//
// It walks the set with a prime stride rather than in file order, so that a
// run too short to cover a big set still samples all of it (the sets are
// not in random order: the first puzzles of some are harder than the rest).
func benchSet(b *testing.B, set string) {
	puzzles := mustLoadPuzzleSet(b, set)
	ctx := context.Background()
	const stride = 7919
	if len(puzzles)%stride == 0 {
		b.Fatalf("%s: %d puzzles, a multiple of the stride", set, len(puzzles))
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		p := puzzles[n*stride%len(puzzles)]
		if res := Solve(ctx, p.Grid, 2); res.Status != Unique {
			b.Fatalf("line %d: status %v, want unique", p.Line, res.Status)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
}

// BenchmarkSolve17Clue: every known 17-clue puzzle (target ≥ 60,000/s).
func BenchmarkSolve17Clue(b *testing.B) { benchSet(b, "17clue.txt") }

// BenchmarkSolveTop1465: magictour's top 1465 (target ≥ 25,000/s).
func BenchmarkSolveTop1465(b *testing.B) { benchSet(b, "top1465.txt") }

// BenchmarkSolveForumHardest: the hardest known for search (target ≥ 2,500/s).
func BenchmarkSolveForumHardest(b *testing.B) { benchSet(b, "forum_hardest_1106.txt") }

// BenchmarkSolveForumHardest11Plus: 48,766 puzzles rated SE 11 and up.
func BenchmarkSolveForumHardest11Plus(b *testing.B) { benchSet(b, "forum_hardest_11plus.txt") }

// BenchmarkSolveWorstCase: the seeds' worst case for plain backtracking,
// famous_hardest.txt's first line (target < 200 µs).
func BenchmarkSolveWorstCase(b *testing.B) {
	g := mustLoadPuzzleSet(b, "famous_hardest.txt")[0].Grid
	ctx := context.Background()
	for b.Loop() {
		if res := Solve(ctx, g, 2); res.Status != Unique {
			b.Fatalf("status %v, want unique", res.Status)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/puzzle")
}

// BenchmarkSolve16x16 solves each Gecode 16x16 puzzle as a sub-benchmark
// (target: every one under 5 ms).
func BenchmarkSolve16x16(b *testing.B) {
	for _, set := range []string{"gecode_16x16.txt", "gecode_16x16_b.txt"} {
		for _, p := range mustLoadPuzzleSet(b, set) {
			b.Run(p.Name, func(b *testing.B) {
				ctx := context.Background()
				for b.Loop() {
					if res := Solve(ctx, p.Grid, 2); res.Status != Unique {
						b.Fatalf("status %v, want unique", res.Status)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/puzzle")
			})
		}
	}
}

// BenchmarkSolveRandomFill9 makes random full 9x9 grids (the generator's
// first step: limit 1 with a seeded Rand).
func BenchmarkSolveRandomFill9(b *testing.B) {
	benchRandomFill(b, Shape9)
}

// BenchmarkSolveRandomFill25 makes random full 25x25 grids.
func BenchmarkSolveRandomFill25(b *testing.B) {
	benchRandomFill(b, Shape25)
}

var big25 = flag.Duration("big25", 0, "with -run TestSolve25x25Report: time allowed per Gecode 25x25 puzzle (e.g. 10s)")

// TestSolve25x25Report tries the very hard Gecode 25x25 puzzles with a
// per-puzzle deadline and logs how many solve. It is a report, not a test:
// it runs only when -big25 is given.
func TestSolve25x25Report(t *testing.T) {
	if *big25 == 0 {
		t.Skip("set -big25=10s to run")
	}
	solved := 0
	total := 0
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set) {
			total++
			ctx, cancel := context.WithTimeout(context.Background(), *big25)
			res := Solve(ctx, p.Grid, 2)
			cancel()
			late := res.Stats.Elapsed - *big25
			switch res.Status {
			case Unique:
				solved++
				if err := checkSolvedGrid(p.Grid, res.Solutions[0]); err != nil {
					t.Errorf("%s %s: %v", set, p.Name, err)
				}
			case Cancelled:
				if late > 10*time.Millisecond {
					t.Errorf("%s %s: stopped %v after the deadline", set, p.Name, late)
				}
			default:
				t.Errorf("%s %s: status %v", set, p.Name, res.Status)
			}
			t.Logf("%s %s: %v in %v, %d nodes, %d guesses", set, p.Name, res.Status, res.Stats.Elapsed.Round(time.Millisecond), res.Stats.Nodes, res.Stats.Guesses)
		}
	}
	t.Logf("solved %d of %d within %v each", solved, total, *big25)
}

func benchRandomFill(b *testing.B, s Shape) {
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	empty := New(s)
	n := 0
	for b.Loop() {
		if res := SolveWith(ctx, empty, SolveOptions{Limit: 1, Rand: rng}); res.Status != Solved {
			b.Fatalf("status %v, want solved", res.Status)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "grids/s")
}

var solveStats = flag.Bool("solve.stats", false, "with -run TestSolveStatsReport: log nodes and guesses per puzzle of the 9x9 benchmark sets")

// TestSolveStatsReport logs the 9x9 search's nodes and guesses per puzzle
// (limit 2) on each benchmark set. The figures are deterministic, so they
// compare search changes where timings are noisy. It is a report, not a
// test: it runs only when -solve.stats is given.
func TestSolveStatsReport(t *testing.T) {
	if !*solveStats {
		t.Skip("set -solve.stats to run")
	}
	for _, set := range []string{"17clue.txt", "top1465.txt", "forum_hardest_1106.txt", "forum_hardest_11plus.txt", "multi_solution_10k.txt"} {
		var nodes, guesses int64
		want := Unique
		if set == "multi_solution_10k.txt" {
			want = Multiple
		}
		ps := mustLoadPuzzleSet(t, set)
		for _, p := range ps {
			res := Solve(context.Background(), p.Grid, 2)
			if res.Status != want {
				t.Fatalf("%s line %d: status %v, want %v", set, p.Line, res.Status, want)
			}
			nodes += res.Stats.Nodes
			guesses += res.Stats.Guesses
		}
		n := float64(len(ps))
		t.Logf("%-26s %6d puzzles %8.2f nodes/puzzle %8.2f guesses/puzzle", set, len(ps), float64(nodes)/n, float64(guesses)/n)
	}
}

// BenchmarkSolve25x25 proves unique each Gecode 25x25 puzzle that the
// learning search finishes well under a second (limit 2), as a
// sub-benchmark.
func BenchmarkSolve25x25(b *testing.B) {
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(b, set) {
			if p.Name != "gecode 89" && p.Name != "gecode 90" {
				continue
			}
			b.Run(p.Name, func(b *testing.B) {
				ctx := context.Background()
				for b.Loop() {
					if res := Solve(ctx, p.Grid, 2); res.Status != Unique {
						b.Fatalf("status %v, want unique", res.Status)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/puzzle")
			})
		}
	}
}
