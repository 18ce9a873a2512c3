package sudoku

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

var (
	cpu25      = flag.Duration("cpu25", 0, "with -run TestSolve25x25CPU: CPU time allowed per Gecode 25x25 puzzle (e.g. 10s)")
	cpu25Only  = flag.String("cpu25only", "", "with -cpu25: comma-separated puzzle numbers to try (default all)")
	cpu25Par   = flag.Int("cpu25par", 1, "with -cpu25: puzzles tried at once")
	cpu25Lim   = flag.Int("cpu25limit", 2, "with -cpu25: solutions to look for (1: time the first solution alone)")
	knobsFlag  = flag.String("knobs", "", "with -cpu25: tuning of the learning search, name=value,... (see setKnobs)")
	cpu25Seeds = flag.String("cpu25seeds", "", "with -cpu25: a range of seeds (e.g. 1-12) to run every puzzle with, counting the runs that find a first solution")
)

// setKnobs sets the learning search's tuning from "name=value,..." for an
// experiment.
func setKnobs(t *testing.T, spec string) {
	for _, kv := range strings.Split(spec, ",") {
		if kv == "" {
			continue
		}
		name, val, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("knob %q: %v", kv, err)
		}
		switch name {
		case "modeinit":
			knobModeInit = int64(f)
		case "stableluby":
			knobStableLuby = int64(f)
		case "luby":
			knobLuby = int64(f)
		case "ema":
			knobEMA = f
		case "rbase":
			knobReduceBase = int64(f)
		case "rinc":
			knobReduceInc = int64(f)
		case "decay":
			knobVarDecay = f
		case "shrink":
			knobShrink = f != 0
		case "shrinkmin":
			knobShrinkMin = f != 0
		case "vivify":
			knobVivify = int(f)
		case "vivifylbd":
			knobVivifyLBD = int32(f)
		case "blockr":
			knobBlockR = f
		case "targetkeep":
			knobTargetKeep = f != 0
		case "seed":
			knobSeed = uint64(f)
		case "stablefirst":
			knobStableFirst = f != 0
		case "maxc":
			knobMaxC = int64(f)
		case "phasetrue":
			knobPhaseTrue = f != 0
		case "sides":
			// Only shapes not built yet take it (learnShapes keeps
			// them): run TestSolve25x25CPU alone.
			knobSides = f != 0
		default:
			t.Fatalf("no knob %q", name)
		}
	}
}

// tidCPU returns the CPU time used so far by thread tid (Linux's clock id
// for another thread's CPU time).
func tidCPU(tid int) time.Duration {
	clock := uintptr((^tid)<<3 | 6)
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clock, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// TestSolve25x25CPU tries the Gecode 25x25 puzzles with a budget of CPU
// time rather than wall time, so that a loaded machine does not change the
// verdicts: each search runs on its own OS thread and a watcher cancels it
// once that thread has used the budget. It is a report, not a test: it runs
// only when -cpu25 is given.
func TestSolve25x25CPU(t *testing.T) {
	if *cpu25 == 0 {
		t.Skip("set -cpu25=10s to run")
	}
	setKnobs(t, *knobsFlag)
	var jobs []setPuzzle
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(t, set) {
			if *cpu25Only != "" && !strings.Contains(","+*cpu25Only+",", ","+strings.TrimPrefix(p.Name, "gecode ")+",") {
				continue
			}
			jobs = append(jobs, p)
		}
	}
	if *cpu25Seeds == "" {
		reportCPU25(t, jobs, runCPU25(jobs))
		return
	}
	from, to, err := parseSeedRange(*cpu25Seeds)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { knobSeed = 0 })
	found := make([]int, len(jobs))
	total := 0
	for seed := from; seed <= to; seed++ {
		knobSeed = uint64(seed)
		out := runCPU25(jobs)
		var got []string
		for i, o := range out {
			checkCPU25(t, jobs[i], o)
			if len(o.res.Solutions) > 0 {
				found[i]++
				total++
				got = append(got, fmt.Sprintf("%s %.2fs", strings.TrimPrefix(jobs[i].Name, "gecode "), o.cpu.Seconds()))
			}
		}
		t.Logf("seed %d: %d of %d found (%s)", seed, len(got), len(jobs), strings.Join(got, ", "))
	}
	var per []string
	for i, j := range jobs {
		per = append(per, fmt.Sprintf("%s:%d", strings.TrimPrefix(j.Name, "gecode "), found[i]))
	}
	t.Logf("seeds %d-%d: first solution within %v in %d of %d runs (%s)", from, to, *cpu25, total, (to-from+1)*len(jobs), strings.Join(per, " "))
}

// parseSeedRange reads "a-b" (or "a") as a range of seeds from 1 up.
func parseSeedRange(spec string) (from, to int, err error) {
	a, b, ok := strings.Cut(spec, "-")
	if !ok {
		b = a
	}
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || from < 1 || to < from {
		return 0, 0, fmt.Errorf("-cpu25seeds=%q: want a range of seeds such as 1-12", spec)
	}
	return from, to, nil
}

type cpu25Outcome struct {
	res Result
	cpu time.Duration
}

// runCPU25 solves each job within the CPU budget, -cpu25par at a time.
func runCPU25(jobs []setPuzzle) []cpu25Outcome {
	out := make([]cpu25Outcome, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(*cpu25Par, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tid := syscall.Gettid()
			for i := range next {
				ctx, cancel := context.WithCancel(context.Background())
				start := tidCPU(tid)
				done := make(chan struct{})
				go func() {
					for {
						select {
						case <-done:
							return
						case <-time.After(2 * time.Millisecond):
						}
						if tidCPU(tid)-start >= *cpu25 {
							cancel()
							return
						}
					}
				}()
				res := Solve(ctx, jobs[i].Grid, *cpu25Lim)
				close(done)
				cancel()
				out[i] = cpu25Outcome{res, tidCPU(tid) - start}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// checkCPU25 fails on a wrong solution or a status a search must not end in.
func checkCPU25(t *testing.T, j setPuzzle, o cpu25Outcome) {
	t.Helper()
	switch o.res.Status {
	case Solved, Unique, Cancelled:
	default:
		t.Errorf("%s: status %v", j.Name, o.res.Status)
	}
	if len(o.res.Solutions) > 0 {
		if err := checkSolvedGrid(j.Grid, o.res.Solutions[0]); err != nil {
			t.Errorf("%s: %v", j.Name, err)
		}
	}
}

// reportCPU25 logs each outcome and the counts.
func reportCPU25(t *testing.T, jobs []setPuzzle, out []cpu25Outcome) {
	t.Helper()
	unique, first := 0, 0
	var total time.Duration
	for i, o := range out {
		j := jobs[i]
		checkCPU25(t, j, o)
		if o.res.Status == Unique {
			unique++
		}
		if len(o.res.Solutions) > 0 {
			first++
		}
		total += o.cpu
		t.Logf("%-10s %-9v cpu %6.2fs wall %6.2fs sols %d nodes %9d guesses %9d", j.Name, o.res.Status, o.cpu.Seconds(), o.res.Stats.Elapsed.Seconds(), len(o.res.Solutions), o.res.Stats.Nodes, o.res.Stats.Guesses)
	}
	t.Logf("unique %d, first solution %d, of %d within %v CPU each; CPU total %.3fs", unique, first, len(jobs), *cpu25, total.Seconds())
}
