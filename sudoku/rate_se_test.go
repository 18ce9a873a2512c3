package sudoku

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// seRatingsFile holds Sudoku Explainer's ratings of sample puzzles (17-clue
// and top1465), one "puzzle rating technique" a line, as rated by serate
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

// TestRateAgreesWithSE compares Rate with Sudoku Explainer's ratings, band
// by band, and logs the agreement (go test -run TestRateAgreesWithSE -v).
func TestRateAgreesWithSE(t *testing.T) {
	rs := mustLoadSERatings(t)
	type band struct{ n, exact, near int }
	bands := map[int]*band{}
	exact, below10, exactBelow10 := 0, 0, 0
	for _, r := range rs {
		got := Rate(mustParse(t, r.puzzle))
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
		same := math.Abs(got.Score-r.score) < 0.05
		if same {
			bd.exact++
			exact++
		} else if testing.Verbose() {
			t.Logf("%s: SE %.1f (%s), Rate %.1f (%s)", r.puzzle, r.score, r.technique, got.Score, got.Hardest)
		}
		if math.Abs(got.Score-r.score) <= 0.5+1e-9 {
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
	t.Logf("all: %d of %d exact; below 10: %d of %d (%.1f %%)", exact, len(rs), exactBelow10, below10, 100*float64(exactBelow10)/float64(max(below10, 1)))
	if below10 > 0 && float64(exactBelow10) < 0.80*float64(below10) {
		t.Errorf("only %d of %d ratings below 10 match SE exactly", exactBelow10, below10)
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
