package sudoku

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// seRatingsFile holds Sudoku Explainer's ratings of sample puzzles (17-clue,
// top1465 and a nested-chains one), one "puzzle rating technique" a line, as rated by serate
// (SukakuExplainer, github SudokuMonster/SukakuExplainer @ 362854e) with
// only the techniques of SE 1.2.1 switched on:
// --techs=1111000011010111011011011011000010100010111111.
const seRatingsFile = "se_ratings.txt"

type seRating struct {
	puzzle    string
	score     float64
	technique string
}

func mustLoadSERatings(t testing.TB) []seRating {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "logic", seRatingsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []seRating
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) < 2 {
			t.Fatalf("%s: bad line %q", seRatingsFile, line)
		}
		score, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			t.Fatalf("%s: bad line %q: %v", seRatingsFile, line, err)
		}
		r := seRating{puzzle: f[0], score: score}
		if len(f) == 3 {
			r.technique = f[2]
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var seFull = flag.Bool("se.full", false, "TestRateAgreesWithSE: rate every oracle puzzle, the slow ones too")

// TestRateAgreesWithSE compares Rate with Sudoku Explainer's ratings, band
// by band, and logs the agreement (go test -run TestRateAgreesWithSE -v).
// The rater's steps on every chain puzzle (SE 6.5 and up) are checked
// against the solution on the way: no step may be wrong.
//
// By default it rates every puzzle below 9 and every third from 9 to 10
// (a few seconds); -se.full rates them all, 10 and up too (a minute).
func TestRateAgreesWithSE(t *testing.T) {
	t.Parallel()
	rs := mustLoadSERatings(t)
	type band struct{ n, exact, near int }
	bands := map[int]*band{}
	exact, below10, exactBelow10, nines, n := 0, 0, 0, 0, 0
	// Rate takes a shortcut to SE's score (see rateSteps): how often it
	// gives SE's number, below 10 and from 10.
	rateBelow10, rateFrom10 := 0, 0
	for _, r := range rs {
		if !*seFull && r.score >= 9 {
			nines++
			if r.score >= 10 || nines%3 != 1 {
				continue
			}
		}
		n++
		var got float64
		var hardest string
		if r.score < 6.5 {
			rt := Rate(mustParse(t, r.puzzle))
			got, hardest = rt.Score, rt.Hardest
		} else {
			score, done := checkRatedSteps(t, mustParse(t, r.puzzle))
			if !done {
				t.Errorf("%s: the rater did not finish (SE %.1f)", r.puzzle, r.score)
			}
			got, hardest = score, "checked steps"
		}
		if fast := Rate(mustParse(t, r.puzzle)).Score; math.Abs(fast-r.score) < 0.05 {
			if r.score < 10 {
				rateBelow10++
			} else {
				rateFrom10++
			}
		} else if testing.Verbose() {
			t.Logf("%s: SE %.1f, Rate %.1f", r.puzzle, r.score, fast)
		}
		key := int(r.score)
		if key > 10 {
			key = 10
		}
		bd := bands[key]
		if bd == nil {
			bd = &band{}
			bands[key] = bd
		}
		bd.n++
		same := math.Abs(got-r.score) < 0.05
		if same {
			bd.exact++
			exact++
		} else if testing.Verbose() {
			t.Logf("%s: SE %.1f (%s), Rate %.1f (%s)", r.puzzle, r.score, r.technique, got, hardest)
		}
		if math.Abs(got-r.score) <= 0.5+1e-9 {
			bd.near++
		}
		if r.score < 10 {
			below10++
			if same {
				exactBelow10++
			}
		}
	}
	for k := 1; k <= 10; k++ {
		if bd := bands[k]; bd != nil {
			label := fmt.Sprintf("%d.0-%d.9", k, k)
			if k == 10 {
				label = "10.0+"
			}
			t.Logf("SE %-8s %3d puzzles: %3d exact (%3.0f %%), %3d within 0.5", label, bd.n, bd.exact, 100*float64(bd.exact)/float64(bd.n), bd.near)
		}
	}
	t.Logf("all: %d of %d exact; below 10: %d of %d (%.1f %%)", exact, n, exactBelow10, below10, 100*float64(exactBelow10)/float64(max(below10, 1)))
	t.Logf("Rate (the shortcut): below 10: %d of %d exact; 10 and up: %d of %d", rateBelow10, below10, rateFrom10, n-below10)
	if below10 > 0 && float64(rateBelow10) < 0.99*float64(below10) {
		t.Errorf("Rate gives SE's number on only %d of %d puzzles below 10, want 99 %%", rateBelow10, below10)
	}
	if rateFrom10 != n-below10 {
		t.Errorf("Rate gives SE's number on %d of %d puzzles of 10 and up, want all", rateFrom10, n-below10)
	}
	// With -se.full, 285 of 286 below 10 match: the one left needs SE's
	// unique loops (rectangle type 3), which the ladder lacks. Every rating
	// of 10 and up must match.
	if below10 > 0 && float64(exactBelow10) < 0.99*float64(below10) {
		t.Errorf("only %d of %d ratings below 10 match SE exactly, want 99 %%", exactBelow10, below10)
	}
	if exact-exactBelow10 != n-below10 {
		t.Errorf("%d of %d ratings of 10 and up match SE exactly, want all", exact-exactBelow10, n-below10)
	}
}

// BenchmarkRateSEOracle rates the puzzles of the SE oracle file.
func BenchmarkRateSEOracle(b *testing.B) {
	rs := mustLoadSERatings(b)
	grids := make([]*Grid, len(rs))
	for i, r := range rs {
		grids[i] = mustParse(b, r.puzzle)
	}
	benchmarkRate(b, grids)
}

// checkRatedSteps runs the rater's steps (Sudoku Explainer's chains from
// 6.5 on) on g and fails on any step that removes a value of the solution
// or places a wrong one. It returns the hardest score and whether the
// steps finished the grid.
func checkRatedSteps(t *testing.T, g *Grid) (float64, bool) {
	t.Helper()
	return checkRatedStepsFunc(t, g, nil)
}

// checkRatedStepsFunc is checkRatedSteps that shows each step to onStep
// (when not nil).
func checkRatedStepsFunc(t *testing.T, g *Grid, onStep func(*Step)) (float64, bool) {
	t.Helper()
	sol := mustSolution(t, g)
	b, err := newBoard(g)
	if err != nil {
		t.Fatalf("newBoard(%s): %v", g, err)
	}
	b.seRate = true
	hardest := 0.0
	for b.left > 0 {
		st, ok, err := b.nextRated(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if !ok {
			return hardest, false
		}
		if len(st.Placements) == 0 && len(st.Eliminations) == 0 {
			t.Fatalf("%s: step %q changes nothing", g, st.Technique)
		}
		for _, p := range st.Placements {
			if want := int(sol.Cells[p.Cell]); p.Value != want {
				t.Fatalf("%s: %s places %d in %s, the solution has %d", g, st.Technique, p.Value, g.Shape.CellName(p.Cell), want)
			}
		}
		for _, e := range st.Eliminations {
			if int(sol.Cells[e.Cell]) == e.Value {
				t.Fatalf("%s: %s removes %d from %s, which the solution has there\nstep: %s", g, st.Technique, e.Value, g.Shape.CellName(e.Cell), st.Explanation)
			}
		}
		hardest = max(hardest, st.Score)
		if onStep != nil {
			onStep(&st)
		}
		if err := b.applyRated(&st); err != nil {
			t.Fatalf("%s: applying %s: %v", g, st.Technique, err)
		}
	}
	if !b.grid().Equal(sol) {
		t.Fatalf("%s: the rater finished at %s, the solution is %s", g, b.grid(), sol)
	}
	return hardest, true
}

var seDeep = flag.Bool("se.deep", false, "TestRateDeepAgreesWithSE: rate the puzzles of se_deep.txt (SE's deepest chains; tens of seconds)")

// TestRateDeepAgreesWithSE rates the puzzles that need SE's deepest rung
// (dynamic chains nested in dynamic chains) and compares the score of
// every chain step, in order, with SE's; every step is checked against
// the solution. Behind -se.deep: tens of seconds.
func TestRateDeepAgreesWithSE(t *testing.T) {
	if !*seDeep {
		t.Skip("-se.deep rates golden nugget and another puzzle of SE 11.9 step by step")
	}
	f, err := os.Open(filepath.Join("testdata", "logic", "se_deep.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		puzzle, want, name, steps := fs[0], fs[1], fs[2], strings.Join(fs[3:], " ")
		t.Run(name, func(t *testing.T) {
			var got []string
			score, done := checkRatedStepsFunc(t, mustParse(t, puzzle), func(st *Step) {
				if st.Score >= 6.5 {
					got = append(got, fmt.Sprintf("%.1f", st.Score))
				}
			})
			if !done || fmt.Sprintf("%.1f", score) != want {
				t.Errorf("rated %.1f (finished %v), SE %s", score, done, want)
			}
			if g := strings.Join(got, " "); g != steps {
				t.Errorf("chain steps\n%s\nSE's\n%s", g, steps)
			}
		})
	}
}

// TestSELevel4: on the forum puzzle 98.7.....7, nothing below SE's
// deepest rung applies at the start; SE's first step is a contradiction
// from r9c5 = 4 found with dynamic chains nested in dynamic chains, 11.8.
func TestSELevel4(t *testing.T) {
	t.Parallel()
	g := mustParse(t, "98.7.....7.....6....6.5.....4...5.3...79..5......2...1..85..9......1...4.....3.2.")
	b, err := newBoard(g)
	if err != nil {
		t.Fatal(err)
	}
	b.seRate, b.batch = true, true
	st, ok, err := b.nextRated(context.Background())
	if err != nil || !ok {
		t.Fatalf("nextRated: %v, %v", ok, err)
	}
	r9c5 := 8*9 + 4
	want := []Candidate{{Cell: r9c5, Value: 4}}
	if st.Technique != "Dynamic contradiction forcing chain (+ dynamic forcing chains)" || st.Score != 11.8 ||
		len(st.Placements) != 0 || !slices.Equal(st.Eliminations, want) {
		t.Errorf("first step %q %.1f places %v removes %v; want SE's: a dynamic contradiction forcing chain (+ dynamic forcing chains), 11.8, removing 4 from r9c5",
			st.Technique, st.Score, st.Placements, st.Eliminations)
	}
}

// TestSEDynamicFirst: once a rating has needed a step of dynamic forcing
// chains' score, findSEChain searches them first and takes their hints
// that score no more than the rating so far, even where SE's own next
// step would be an easier chain. Positions are taken from SE's path on
// the oracle's puzzles, where its next step is a chain below 8.5.
func TestSEDynamicFirst(t *testing.T) {
	if got := seProducers[seDynamicRung]; got != (seProducer{dynamic: true, multiple: true}) {
		t.Fatalf("seProducers[seDynamicRung] = %+v, want the dynamic forcing chains without nesting", got)
	}
	const limit = 9.5
	checked := 0
	for _, r := range mustLoadSERatings(t) {
		if r.score < 8.5 || checked == 5 {
			continue
		}
		g := mustParse(t, r.puzzle)
		sol := mustSolution(t, g)
		b, err := newBoard(g)
		if err != nil {
			t.Fatal(err)
		}
		b.seRate, b.batch = true, true
		for b.left > 0 {
			st, ok, err := b.nextRated(context.Background())
			if err != nil || !ok {
				t.Fatalf("%s: nextRated: %v, %v", g, ok, err)
			}
			if st.Score >= 6.5 && st.Score < seDynamicBase {
				// A chain position: SE takes st. With a cap of 9.5 the
				// dynamic chains go first.
				b.seCap = limit
				fast, ok, err := findSEChain(context.Background(), b, seMaxLevel)
				b.seCap = 0
				if err != nil || !ok {
					t.Fatalf("%s: findSEChain with a cap: %v, %v", g, ok, err)
				}
				if !strings.HasPrefix(fast.Technique, "Dynamic ") || fast.Score < seDynamicBase || fast.Score > limit {
					t.Errorf("%s: with a cap of %.1f the step is %q %.1f, want dynamic forcing chains of %.1f to %.1f (SE's: %q %.1f)",
						g, limit, fast.Technique, fast.Score, seDynamicBase, limit, st.Technique, st.Score)
				}
				for _, e := range fast.Eliminations {
					if int(sol.Cells[e.Cell]) == e.Value {
						t.Fatalf("%s: %s removes %d from %s, the solution's", g, fast.Technique, e.Value, g.Shape.CellName(e.Cell))
					}
				}
				checked++
				break
			}
			if err := b.applyRated(&st); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("found %d positions where SE's next step is a chain below %.1f, want 5", checked, seDynamicBase)
	}
}
