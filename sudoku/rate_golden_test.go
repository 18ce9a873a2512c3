package sudoku

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// rateGoldenFile holds the rater's own ratings of the SE oracle's puzzles
// and of top1465, with a hash of every step on the way, so that a change
// meant to make the rater faster can show it changed no rating and no
// step: "set index score steps complete hash" a line.
const rateGoldenFile = "rate_golden.txt"

var rateGoldenAll = flag.Bool("rate.golden", false, "TestRateGolden: rate every puzzle of the golden file (the oracle and top1465, about a minute), not a sample; with -update, rewrite the file")

// rateGoldenLine rates g and describes the rating and its path.
func rateGoldenLine(g *Grid) string {
	h := fnv.New64a()
	r, _ := rateSteps(context.Background(), g, true, func(st *Step) {
		fmt.Fprintf(h, "%s|%.1f|", st.Technique, st.Score)
		for _, cs := range [2][]Candidate{st.Placements, st.Eliminations} {
			cs = slices.Clone(cs)
			slices.SortFunc(cs, func(a, b Candidate) int { return (a.Cell*64 + a.Value) - (b.Cell*64 + b.Value) })
			for _, c := range cs {
				fmt.Fprintf(h, "%d:%d,", c.Cell, c.Value)
			}
			h.Write([]byte{';'})
		}
	})
	return fmt.Sprintf("%.1f %d %v %016x", r.Score, r.Steps, r.Complete, h.Sum64())
}

type rateGoldenCase struct {
	set   string
	index int
	grid  *Grid
}

func rateGoldenCases(t *testing.T) []rateGoldenCase {
	var out []rateGoldenCase
	for i, r := range mustLoadSERatings(t) {
		out = append(out, rateGoldenCase{"oracle", i, mustParse(t, r.puzzle)})
	}
	for i, p := range mustLoadPuzzles(t, "top1465.txt.gz") {
		out = append(out, rateGoldenCase{"top1465", i, mustParse(t, p)})
	}
	return out
}

// loadRateGolden reads the golden file: by "set index", the rest of the
// line.
func loadRateGolden() (map[string]string, error) {
	f, err := os.Open(filepath.Join("testdata", "logic", rateGoldenFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.SplitN(sc.Text(), " ", 3); len(f) == 3 {
			want[f[0]+" "+f[1]] = f[2]
		}
	}
	return want, sc.Err()
}

// rateEach runs rate on every case, two at a time, and returns the
// results in order.
func rateEach(cases []rateGoldenCase, rate func(*Grid) string) []string {
	got := make([]string, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				got[i] = rate(cases[i].grid)
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return got
}

// TestRateGolden: the rater's ratings and steps are those of the golden
// file. By default it rates a sample (every 16th puzzle, the slowest
// left out); -rate.golden rates all of them.
func TestRateGolden(t *testing.T) {
	t.Parallel()
	cases := rateGoldenCases(t)
	path := filepath.Join("testdata", "logic", rateGoldenFile)
	want, err := loadRateGolden()
	if err != nil && !updatingGolden() {
		t.Fatalf("%v (run go test -run TestRateGolden -rate.golden -update to create it)", err)
	}
	if updatingGolden() && !*rateGoldenAll {
		t.Skip("-update rewrites the file only with -rate.golden")
	}
	if !*rateGoldenAll {
		var s []rateGoldenCase
		for i, c := range cases {
			key := fmt.Sprintf("%s %d", c.set, c.index)
			if i%16 == 0 && !strings.HasPrefix(want[key], "1") { // not 10 and up: seconds each
				s = append(s, c)
			}
		}
		cases = s
	}
	got := rateEach(cases, rateGoldenLine)
	if updatingGolden() {
		var b strings.Builder
		for i, c := range cases {
			fmt.Fprintf(&b, "%s %d %s\n", c.set, c.index, got[i])
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	bad := 0
	for i, c := range cases {
		key := fmt.Sprintf("%s %d", c.set, c.index)
		if got[i] != want[key] {
			bad++
			if bad <= 20 {
				t.Errorf("%s %s: rated %q, golden %q", key, c.grid, got[i], want[key])
			}
		}
	}
	t.Logf("%d of %d ratings and paths as golden", len(cases)-bad, len(cases))
}

// rateShortcutLower lists the puzzles of the golden file that the rater's
// shortcut (rateSteps without sePath) rates lower than SE's path does, with
// the shortcut's score: its steps reached no position as hard as SE's path
// did.
var rateShortcutLower = map[string]string{
	"oracle 260":  "9.2",
	"top1465 202": "9.0",
	"top1465 273": "9.2",
	"top1465 278": "9.0",
	"top1465 574": "9.0",
	"top1465 701": "8.4",
}

// TestRateShortcutGolden: Rate, which takes the shortcut, gives the
// golden file's scores (SE's path) but for rateShortcutLower. By default
// it rates every fourth puzzle and those of the list; -rate.golden rates
// them all.
func TestRateShortcutGolden(t *testing.T) {
	t.Parallel()
	want, err := loadRateGolden()
	if err != nil {
		t.Fatal(err)
	}
	var cases []rateGoldenCase
	var keys []string
	for i, c := range rateGoldenCases(t) {
		key := fmt.Sprintf("%s %d", c.set, c.index)
		if _, listed := rateShortcutLower[key]; *rateGoldenAll || i%4 == 0 || listed {
			cases = append(cases, c)
			keys = append(keys, key)
		}
	}
	got := rateEach(cases, func(g *Grid) string { return fmt.Sprintf("%.1f", Rate(g).Score) })
	same := 0
	for i, key := range keys {
		line, ok := want[key]
		if !ok {
			t.Fatalf("%s: not in the golden file", key)
		}
		w, _, _ := strings.Cut(line, " ") // the score on SE's path
		if lower, listed := rateShortcutLower[key]; listed {
			if got[i] != lower {
				t.Errorf("%s: Rate %s, want %s (SE's path: %s); if it now agrees, take it off rateShortcutLower", key, got[i], lower, w)
			}
			continue
		}
		if got[i] != w {
			t.Errorf("%s %s: Rate %s, SE's path %s", key, cases[i].grid, got[i], w)
			continue
		}
		same++
	}
	t.Logf("%d of %d rated as on SE's path, %d listed lower", same, len(cases), len(rateShortcutLower))
}
