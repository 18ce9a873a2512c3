package sudoku

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestLevelFor(t *testing.T) {
	tests := []struct {
		score float64
		want  Level
	}{
		{0, Easy}, {1.0, Easy}, {1.2, Easy}, {1.5, Easy},
		{1.7, Medium}, {2.3, Medium}, {2.6, Medium},
		{2.8, Hard}, {3.2, Hard}, {4.2, Hard}, {4.4, Hard},
		{4.5, Expert}, {5.4, Expert}, {6.6, Expert}, {7.0, Expert},
		{7.1, Extreme}, {ScoreBeyond, Extreme}, {11.0, Extreme},
	}
	for _, tt := range tests {
		if got := LevelFor(tt.score); got != tt.want {
			t.Errorf("LevelFor(%v) = %v, want %v", tt.score, got, tt.want)
		}
	}
	for l := Easy; l <= Extreme; l++ {
		lo, hi := LevelBounds(l)
		if lo >= hi {
			t.Errorf("LevelBounds(%v) = %v, %v: empty band", l, lo, hi)
		}
		if got := LevelFor(hi); got != l {
			t.Errorf("LevelFor(top of %v = %v) = %v", l, hi, got)
		}
		if got := LevelFor(lo + 0.05); got != l {
			t.Errorf("LevelFor(bottom of %v = %v) = %v", l, lo+0.05, got)
		}
	}
}

func TestParseLevel(t *testing.T) {
	for l := Easy; l <= Extreme; l++ {
		got, err := ParseLevel(" " + l.String() + " ")
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	if _, err := ParseLevel("impossible"); err == nil {
		t.Errorf("ParseLevel(%q) succeeded, want an error", "impossible")
	}
}

// TestRateKnown rates puzzles whose hardest technique is known.
func TestRateKnown(t *testing.T) {
	tests := []struct {
		name     string
		puzzle   string
		score    float64
		level    Level
		complete bool
	}{
		// Solved puzzle: nothing to do.
		{"solved", "534678912672195348198342567859761423426853791713924856961537284287419635345286179", 0, Easy, true},
		// Hidden singles in boxes and lines, no more (the classic Wikipedia puzzle).
		{"wikipedia", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", 1.2, Easy, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rate(mustParse(t, tt.puzzle))
			if r.Score != tt.score || r.Level != tt.level || r.Complete != tt.complete {
				t.Errorf("Rate(%s) = %+v, want score %v level %v complete %v", tt.puzzle, r, tt.score, tt.level, tt.complete)
			}
		})
	}
}

func TestRateUnfinished(t *testing.T) {
	// On 9x9 grids the rater climbs every rung of Sudoku Explainer's, up to
	// dynamic chains nested in dynamic chains (golden nugget now rates
	// 11.9 as SE does: TestRateDeepAgreesWithSE); a puzzle none of them
	// finishes would be beyond SE too, at least 10.5.
	if f := unfinishedFloor(9); f != 10.5 {
		t.Errorf("unfinishedFloor(9) = %v, want 10.5 (SE's dynamic chains nested in dynamic chains)", f)
	}
	// A 16x16 grid the ladder can't finish rates ScoreBeyond.
	if f := unfinishedFloor(16); f != ScoreBeyond {
		t.Errorf("unfinishedFloor(16) = %v, want %v", f, ScoreBeyond)
	}
}

// TestRateDeadline: nested chains take seconds; RateContext stops inside
// a step when the deadline passes, with the context's error.
func TestRateDeadline(t *testing.T) {
	g := mustParse(t, ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...") // platinum blonde, SE 10.6
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := RateContext(ctx, g)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RateContext(platinum blonde, 100ms) error = %v, want %v", err, context.DeadlineExceeded)
	}
	if r.Complete || r.Level != LevelFor(r.Score) || r.Score > 10.6 {
		t.Errorf("RateContext(platinum blonde, 100ms) = %+v, want the rating so far: incomplete, its level, at most SE's 10.6", r)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("RateContext(platinum blonde, 100ms) took %v, want it to stop soon after the deadline", took)
	}
}

func TestRateBadGrids(t *testing.T) {
	clash := mustParse(t, "11"+strings.Repeat(".", 79))
	if r := Rate(clash); r.Complete {
		t.Errorf("Rate(clashing grid) = %+v, want incomplete", r)
	}
	// No solution, though no clash: r1c9 can be nothing.
	none := mustParse(t, "12345678."+"........9"+strings.Repeat(".", 63))
	if r := Rate(none); r.Complete {
		t.Errorf("Rate(unsolvable grid) = %+v, want incomplete", r)
	}
	empty := New(Shape9)
	if r := Rate(empty); r.Complete {
		t.Logf("Rate(empty grid) = %+v", r)
	}
}

func TestRateContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := mustParse(t, "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	if _, err := RateContext(ctx, g); err == nil {
		t.Errorf("RateContext(cancelled) succeeded, want the context's error")
	}
}

// BenchmarkRateTop1465 rates every top1465 puzzle and reports the median
// time per puzzle: wall time, and the CPU time of the benchmark's thread
// (on Linux), which a machine busy with other work inflates far less.
func BenchmarkRateTop1465(b *testing.B) {
	ps := mustLoadPuzzles(b, "top1465.txt.gz")
	grids := make([]*Grid, len(ps))
	for i, p := range ps {
		grids[i] = mustParse(b, p)
	}
	benchmarkRate(b, grids)
}

func benchmarkRate(b *testing.B, grids []*Grid) {
	defer lockThread()()
	var wall, cpu []time.Duration
	b.ResetTimer()
	for range b.N {
		wall, cpu = wall[:0], cpu[:0]
		for _, g := range grids {
			c0, cok := threadCPU()
			start := time.Now()
			Rate(g)
			wall = append(wall, time.Since(start))
			if c1, ok := threadCPU(); ok && cok {
				cpu = append(cpu, c1-c0)
			}
		}
	}
	b.ReportMetric(median(wall), "ms/puzzle-median")
	if len(cpu) > 0 {
		b.ReportMetric(median(cpu), "cpu-ms/puzzle-median")
		var total time.Duration
		for _, d := range cpu {
			total += d
		}
		b.ReportMetric(total.Seconds(), "cpu-s/set")
	}
	b.ReportMetric(float64(len(grids)*b.N)/b.Elapsed().Seconds(), "puzzles/s")
}

// median returns the median of ds in milliseconds.
func median(ds []time.Duration) float64 {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// TestRateConcurrent rates puzzles from several goroutines at once: the
// solver's shared tables are read-only and its scratch memory per board
// (run with -race to check).
func TestRateConcurrent(t *testing.T) {
	ps := sample(mustLoadPuzzles(t, "top1465.txt.gz"), 24)[:24]
	want := make([]Rating, len(ps))
	for i, p := range ps {
		want[i] = Rate(mustParse(t, p))
	}
	errs := make(chan string, len(ps))
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func(w int) {
			defer func() { done <- true }()
			for i := w; i < len(ps); i += 4 {
				g, err := Parse(ps[i])
				if err != nil {
					errs <- err.Error()
					continue
				}
				if got := Rate(g); got != want[i] {
					errs <- fmt.Sprintf("Rate(%s) = %+v concurrently, %+v alone", ps[i], got, want[i])
				}
			}
		}(w)
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// FuzzRate: no grid makes the logical solver panic or loop, and when it
// says it finished, the result is a valid solution of the grid.
func FuzzRate(f *testing.F) {
	f.Add(wikiPuzzle)
	f.Add("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	f.Add("12..34..........")
	f.Add(strings.Repeat(".", 81))
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil || g.N() > 9 {
			return
		}
		l, err := NewLogic(g)
		if err != nil {
			return
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatalf("Run(%s): %v", g, err)
		}
		if l.Solved() {
			out := l.Grid()
			if len(out.Clashes()) != 0 {
				t.Fatalf("logic finished %s with clashes: %s", g, out)
			}
			for i, v := range g.Cells {
				if v != 0 && out.Cells[i] != v {
					t.Fatalf("logic changed a given of %s", g)
				}
			}
		}
		Rate(g)
	})
}
