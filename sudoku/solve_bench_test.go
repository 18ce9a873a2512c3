package sudoku

import (
	"context"
	"math/rand/v2"
	"testing"
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

// BenchmarkSearchNodes solves every puzzle of each 9x9 benchmark set once
// per op (limit 2) and reports the search's nodes and guesses per puzzle.
// The figures are deterministic, so they compare search changes where
// timings are noisy: run it with -benchtime 1x.
func BenchmarkSearchNodes(b *testing.B) {
	for _, set := range []string{"17clue.txt", "top1465.txt", "forum_hardest_1106.txt", "forum_hardest_11plus.txt", "multi_solution_10k.txt"} {
		b.Run(set, func(b *testing.B) {
			want := Unique
			if set == "multi_solution_10k.txt" {
				want = Multiple
			}
			ps := mustLoadPuzzleSet(b, set)
			ctx := context.Background()
			var nodes, guesses int64
			for b.Loop() {
				nodes, guesses = 0, 0
				for _, p := range ps {
					res := Solve(ctx, p.Grid, 2)
					if res.Status != want {
						b.Fatalf("line %d: status %v, want %v", p.Line, res.Status, want)
					}
					nodes += res.Stats.Nodes
					guesses += res.Stats.Guesses
				}
			}
			n := float64(len(ps))
			b.ReportMetric(float64(nodes)/n, "nodes/puzzle")
			b.ReportMetric(float64(guesses)/n, "guesses/puzzle")
		})
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
