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
	cpu25      = flag.Duration("cpu25", 10*time.Second, "BenchmarkHard25x25CPU: CPU time allowed per Gecode 25x25 puzzle")
	cpu25Only  = flag.String("cpu25only", "", "BenchmarkHard25x25CPU: comma-separated puzzle numbers to try (default all)")
	cpu25Par   = flag.Int("cpu25par", 1, "BenchmarkHard25x25CPU: puzzles tried at once")
	cpu25Lim   = flag.Int("cpu25limit", 2, "BenchmarkHard25x25CPU: solutions to look for (1: time the first solution alone)")
	cpu25Seeds = flag.String("cpu25seeds", "", "BenchmarkHard25x25CPU: a range of seeds (e.g. 1-12) to run every puzzle with, counting the runs that find a first solution")
	learnFlag  = flag.String("learn.params", "", "BenchmarkHard25x25CPU: the learning search's tuning, name=value,... (see parseLearnParams)")
)

// parseLearnParams returns the default tuning of the learning search with
// the changes of spec, "name=value,...", for an experiment.
func parseLearnParams(spec string) (learnParams, error) {
	p := defaultLearnParams()
	for _, kv := range strings.Split(spec, ",") {
		if kv == "" {
			continue
		}
		name, val, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return p, fmt.Errorf("learning parameter %q: the value is not a number", kv)
		}
		switch name {
		case "stableluby":
			p.stableLuby = int64(f)
		case "ema":
			p.ema = f
		case "blockr":
			p.blockR = f
		case "rbase":
			p.reduceBase = int64(f)
		case "rinc":
			p.reduceInc = int64(f)
		case "decay":
			p.varDecay = f
		case "maxc":
			p.maxConflicts = int64(f)
		case "seed":
			p.seed = uint64(f)
		default:
			return p, fmt.Errorf("learning parameter %q: no such name (stableluby, ema, blockr, rbase, rinc, decay, maxc, seed)", kv)
		}
	}
	return p, nil
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

// BenchmarkHard25x25CPU is a report rather than a timing: it tries the 18
// Gecode 25x25 puzzles with a budget of CPU time each (-cpu25, 10 s by
// default) and reports how many it proves unique and how many first
// solutions it finds. The budget is CPU time rather than wall time, so that
// a loaded machine does not change the verdicts: each search runs on its own
// OS thread and a watcher cancels it once that thread has used the budget.
// With -cpu25seeds it runs every puzzle once per seed (the learning search's
// activities start from the seed) and counts the runs that find a first
// solution: the measure of docs/solver-experiments.md. Run it with
// -benchtime 1x; one pass takes up to 18 times the budget.
func BenchmarkHard25x25CPU(b *testing.B) {
	lp, err := parseLearnParams(*learnFlag)
	if err != nil {
		b.Fatal(err)
	}
	var jobs []setPuzzle
	for _, set := range []string{"gecode_25x25.txt", "gecode_25x25_b.txt"} {
		for _, p := range mustLoadPuzzleSet(b, set) {
			if *cpu25Only != "" && !strings.Contains(","+*cpu25Only+",", ","+strings.TrimPrefix(p.Name, "gecode ")+",") {
				continue
			}
			jobs = append(jobs, p)
		}
	}
	if len(jobs) == 0 {
		b.Fatalf("-cpu25only=%q names none of the Gecode 25x25 puzzles", *cpu25Only)
	}
	from, to := 0, 0 // seed 0: the activities start at 0, as in Solve
	if *cpu25Seeds != "" {
		if from, to, err = parseSeedRange(*cpu25Seeds); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		found := make([]int, len(jobs))
		total, unique := 0, 0
		var cpu time.Duration
		for seed := from; seed <= to; seed++ {
			lp.seed = uint64(seed)
			out := runCPU25(jobs, lp)
			var got []string
			for i, o := range out {
				checkCPU25(b, jobs[i], o)
				cpu += o.cpu
				if o.status == Unique {
					unique++
				}
				if len(o.sols) > 0 {
					found[i]++
					total++
					got = append(got, fmt.Sprintf("%s %.2fs", strings.TrimPrefix(jobs[i].Name, "gecode "), o.cpu.Seconds()))
				}
				if *cpu25Seeds == "" {
					b.Logf("%-10s %-9v cpu %6.2fs sols %d nodes %9d guesses %9d", jobs[i].Name, o.status, o.cpu.Seconds(), len(o.sols), o.stats.Nodes, o.stats.Guesses)
				}
			}
			if *cpu25Seeds != "" {
				b.Logf("seed %d: %d of %d found (%s)", seed, len(got), len(jobs), strings.Join(got, ", "))
			}
		}
		runs := (to - from + 1) * len(jobs)
		var per []string
		for i, j := range jobs {
			per = append(per, fmt.Sprintf("%s:%d", strings.TrimPrefix(j.Name, "gecode "), found[i]))
		}
		b.Logf("first solution within %v in %d of %d runs (%s); proven unique %d; CPU total %.3fs", *cpu25, total, runs, strings.Join(per, " "), unique, cpu.Seconds())
		b.ReportMetric(float64(total), "found")
		b.ReportMetric(float64(unique), "unique")
		b.ReportMetric(float64(runs), "runs")
		b.ReportMetric(cpu.Seconds()/float64(runs), "cpu-s/run")
	}
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
	status Status
	sols   []*Grid
	stats  Stats
	cpu    time.Duration
}

// runCPU25 solves each job within the CPU budget, -cpu25par at a time, with
// the learning search tuned by lp (handing over as Solve does).
func runCPU25(jobs []setPuzzle, lp learnParams) []cpu25Outcome {
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
				sols, st, cancelled := solveGenericLearn(ctx, jobs[i].Grid, SolveOptions{}, *cpu25Lim, learnAfterNodes, lp)
				close(done)
				cancel()
				out[i] = cpu25Outcome{statusOf(len(sols), cancelled, *cpu25Lim), sols, st, tidCPU(tid) - start}
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
func checkCPU25(b *testing.B, j setPuzzle, o cpu25Outcome) {
	b.Helper()
	switch o.status {
	case Solved, Unique, Cancelled:
	default:
		b.Errorf("%s: status %v", j.Name, o.status)
	}
	if len(o.sols) > 0 {
		if err := checkSolvedGrid(j.Grid, o.sols[0]); err != nil {
			b.Errorf("%s: %v", j.Name, err)
		}
	}
}
