package sudoku

import (
	"context"
	"reflect"
	"testing"
)

// TestSEIncremental follows the rater's path through puzzles that need
// chains and, at every position, asks for the aligned pair and triple
// exclusions and SE's static chains twice: with the board's memory of the
// last search that found nothing (only what touches a change is searched)
// and with a full search. Both must give the same step, or none.
func TestSEIncremental(t *testing.T) {
	t.Parallel()
	var puzzles []string
	for i, r := range mustLoadSERatings(t) {
		if r.score >= 6.5 && r.score < 9.5 && i%3 == 0 {
			puzzles = append(puzzles, r.puzzle)
		}
	}
	positions, incremental, found, chains, memo := 0, 0, 0, 0, 0
	for _, p := range puzzles {
		b, err := newBoard(mustParse(t, p))
		if err != nil {
			t.Fatal(err)
		}
		b.seRate = true
		for steps := 0; b.left > 0; steps++ {
			positions++
			for k := 2; k <= 3; k++ {
				if b.aligned != nil {
					if _, ok := b.aligned.changedSince(b, k); ok {
						incremental++
					}
				}
				got, gotOK := findSEAligned(b, k)
				want, wantOK, _ := findSEAlignedIn(b, k, seCells{}, seCells{}, false)
				if gotOK != wantOK || !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, step %d: degree %d: with the memory %v %q, full search %v %q",
						p, steps, k, gotOK, got.Explanation, wantOK, want.Explanation)
				}
				if gotOK {
					found++
				}
			}
			if b.se != nil && b.se.static != nil && b.se.static.prevOK {
				memo++
			}
			got, gotOK := staticStep(b, false)
			want, wantOK := staticStep(b, true)
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, step %d: static chains with the memory %v %q, full search %v %q",
					p, steps, gotOK, got.Explanation, wantOK, want.Explanation)
			}
			if gotOK {
				chains++
			}
			st, ok, err := b.nextRated(context.Background())
			if err != nil || !ok {
				t.Fatalf("%s: the rater stopped: %v", p, err)
			}
			if err := b.applyRated(&st); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		}
	}
	t.Logf("%d puzzles, %d positions: %d aligned searches from memory, %d exclusions found; %d static searches from memory, %d chains found",
		len(puzzles), positions, incremental, found, memo, chains)
	if incremental < positions || found == 0 || memo < positions/10 || chains == 0 {
		t.Errorf("the test saw %d aligned searches from memory at %d positions, %d exclusions, %d static searches from memory and %d chains: it checks too little",
			incremental, positions, found, memo, chains)
	}
}

// staticStep is the step SE's static chains find on b: with the memory of
// b's chaining engine, or, when fresh, with a new engine.
func staticStep(b *board, fresh bool) (Step, bool) {
	keep := b.se
	if fresh {
		b.se = nil
		defer func() { b.se = keep }()
	}
	return b.seStaticStep()
}

// TestSEStaticMemoSamePath rates puzzles whose steps nest static chains in
// dynamic ones (SE 9.5 and up) with the static chains' memory and without
// it: every step must be the same.
func TestSEStaticMemoSamePath(t *testing.T) {
	var puzzles []string
	for _, r := range mustLoadSERatings(t) {
		if r.score >= 9.5 && r.score < 10 {
			puzzles = append(puzzles, r.puzzle)
		}
	}
	if len(puzzles) == 0 {
		t.Fatal("no puzzle of SE 9.5 to 10 in the oracle file")
	}
	path := func(g *Grid) []Step {
		var out []Step
		if _, err := rateSteps(context.Background(), g, true, func(st *Step) { out = append(out, *st) }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, p := range puzzles {
		g := mustParse(t, p)
		with := path(g)
		seStaticMemo = false
		without := path(g)
		seStaticMemo = true
		if !reflect.DeepEqual(with, without) {
			for i := range min(len(with), len(without)) {
				if !reflect.DeepEqual(with[i], without[i]) {
					t.Fatalf("%s: step %d with the memory %q, without %q", p, i, with[i].Explanation, without[i].Explanation)
				}
			}
			t.Fatalf("%s: %d steps with the memory, %d without", p, len(with), len(without))
		}
	}
}
