package sudoku

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var logicFull = flag.Bool("logic.full", false, "check the logical solver on the full 17-clue and top1465 sets, not a sample")

// mustLoadPuzzles reads a puzzle set from testdata/logic, or from
// testdata/sets for the sets the solver's tests read too (17clue.txt.gz,
// top1465.txt.gz, kept once): one puzzle per line, '#' comments, anything
// after the first blank ignored.
func mustLoadPuzzles(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "logic", name))
	if errors.Is(err, fs.ErrNotExist) {
		f, err = os.Open(filepath.Join("testdata", "sets", name))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r interface {
		Read([]byte) (int, error)
	} = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	}
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			line = line[:i]
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustParse(t testing.TB, s string) *Grid {
	t.Helper()
	g, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return g
}

func mustSolution(t testing.TB, g *Grid) *Grid {
	t.Helper()
	res := Solve(context.Background(), g, 2)
	if res.Status != Unique {
		t.Fatalf("Solve(%s) = %v, want a unique solution", g, res.Status)
	}
	return res.Solutions[0]
}

// sample picks every k-th puzzle so that about want remain: a fixed,
// deterministic sample.
func sample(ps []string, want int) []string {
	if *logicFull || len(ps) <= want {
		return ps
	}
	k := len(ps) / want
	var out []string
	for i := 0; i < len(ps); i += k {
		out = append(out, ps[i])
	}
	return out
}

// checkStepsAgree runs the logical solver on g and fails the test on any
// placement or elimination the solution contradicts. It returns the
// rating-relevant facts: whether the solver finished, and its steps.
func checkStepsAgree(t *testing.T, g *Grid) (bool, []Step) {
	t.Helper()
	solved, steps, err := stepsAgree(g)
	if err != nil {
		t.Fatal(err)
	}
	return solved, steps
}

// stepsAgree is checkStepsAgree's work, safe to run on several goroutines:
// it reports the first step the solution contradicts as an error.
func stepsAgree(g *Grid) (bool, []Step, error) {
	res := Solve(context.Background(), g, 2)
	if res.Status != Unique {
		return false, nil, fmt.Errorf("Solve(%s) = %v, want a unique solution", g, res.Status)
	}
	sol := res.Solutions[0]
	l, err := NewLogic(g)
	if err != nil {
		return false, nil, fmt.Errorf("NewLogic(%s): %v", g, err)
	}
	var steps []Step
	for {
		st, ok := l.NextStep()
		if !ok {
			break
		}
		if len(st.Placements) == 0 && len(st.Eliminations) == 0 {
			return false, nil, fmt.Errorf("%s: step %q changes nothing: %s", g, st.Technique, st.Explanation)
		}
		for _, p := range st.Placements {
			if want := int(sol.Cells[p.Cell]); p.Value != want {
				return false, nil, fmt.Errorf("%s: %s places %d in %s, the solution has %d\nstep: %s",
					g, st.Technique, p.Value, g.Shape.CellName(p.Cell), want, st.Explanation)
			}
		}
		for _, e := range st.Eliminations {
			if int(sol.Cells[e.Cell]) == e.Value {
				return false, nil, fmt.Errorf("%s: %s removes %d from %s, which the solution has there\nstep: %s",
					g, st.Technique, e.Value, g.Shape.CellName(e.Cell), st.Explanation)
			}
			if l.b.vals[e.Cell] != 0 || !l.b.has(e.Cell, e.Value) {
				return false, nil, fmt.Errorf("%s: %s removes %d from %s, which is not a candidate there", g, st.Technique, e.Value, g.Shape.CellName(e.Cell))
			}
		}
		if st.Explanation == "" || st.Technique == "" {
			return false, nil, fmt.Errorf("%s: step without technique or explanation: %+v", g, st)
		}
		if err := l.ApplyStep(st); err != nil {
			return false, nil, fmt.Errorf("%s: ApplyStep(%s): %v", g, st.Technique, err)
		}
		steps = append(steps, st)
	}
	if l.Solved() && !l.Grid().Equal(sol) {
		return false, nil, fmt.Errorf("%s: the logical solver finished at %s, the solution is %s", g, l.Grid(), sol)
	}
	return l.Solved(), steps, nil
}

// TestStepsAgreeWithSolution is the guarantee that a step is never wrong:
// over every puzzle of the 17-clue set and top1465 (a fixed sample with
// -short), every placement and elimination agrees with the backtracking
// solution. The puzzles are shared out over every core.
func TestStepsAgreeWithSolution(t *testing.T) {
	t.Parallel()
	sets := []struct {
		file string
		want int
	}{
		{"17clue.txt.gz", 2000},
		{"top1465.txt.gz", 500},
	}
	for _, set := range sets {
		t.Run(set.file, func(t *testing.T) {
			ps := mustLoadPuzzles(t, set.file)
			if testing.Short() {
				ps = sample(ps, set.want)
			}
			var mu sync.Mutex
			solved, failed := 0, 0
			used := map[string]int{}
			parallelFor(len(ps), func(i int) {
				g, err := Parse(ps[i])
				var done bool
				var steps []Step
				if err == nil {
					done, steps, err = stepsAgree(g)
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if failed++; failed <= 5 {
						t.Errorf("puzzle %d: %v", i+1, err)
					}
					return
				}
				if done {
					solved++
				}
				for _, st := range steps {
					used[st.Technique]++
				}
			})
			t.Logf("%d puzzles, %d solved by logic; steps by technique: %v", len(ps), solved, used)
		})
	}
}

// TestPositionsStayFresh checks that place and eliminate keep the per-unit
// positions exactly as a full refresh would compute them, step after step,
// on a sample of top1465.
func TestPositionsStayFresh(t *testing.T) {
	check := func(t *testing.T, b *board, after string) {
		t.Helper()
		pos := append([]uint32(nil), b.pos...)
		placed := append([]uint32(nil), b.placed...)
		empties := append([]int(nil), b.empties...)
		b.fresh = false
		b.refresh()
		if !slices.Equal(pos, b.pos) || !slices.Equal(placed, b.placed) || !slices.Equal(empties, b.empties) {
			t.Fatalf("after %s the kept positions differ from a full refresh:\nkept  %v %v %v\nfresh %v %v %v",
				after, pos, placed, empties, b.pos, b.placed, b.empties)
		}
	}
	for _, p := range sample(mustLoadPuzzles(t, "top1465.txt.gz"), 50) {
		g, err := Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLogic(g)
		if err != nil {
			t.Fatal(err)
		}
		for steps := 0; ; steps++ {
			st, ok := l.NextStep()
			if !ok {
				break
			}
			if err := l.ApplyStep(st); err != nil {
				t.Fatal(err)
			}
			check(t, l.b, fmt.Sprintf("step %d (%s) of %s", steps+1, st.Technique, p))
		}
	}
}

// BenchmarkLogicTop1465 runs the logical solver, step by step with every
// explanation, to its end on each top1465 puzzle, as hints and the
// step-agreement test do, and reports the CPU time of the benchmark's
// thread for the whole set (on Linux), which other work on a busy machine
// inflates far less than wall time.
func BenchmarkLogicTop1465(b *testing.B) {
	defer lockThread()()
	ps := mustLoadPuzzles(b, "top1465.txt.gz")
	grids := make([]*Grid, len(ps))
	for i, p := range ps {
		grids[i] = mustParse(b, p)
	}
	ctx := context.Background()
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		c0, ok0 := threadCPU()
		for _, g := range grids {
			l, err := NewLogic(g)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.Run(ctx); err != nil {
				b.Fatal(err)
			}
		}
		if c1, ok := threadCPU(); ok && ok0 {
			cpu += c1 - c0
		}
	}
	if cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/set")
	}
}
