package sudoku

import (
	"bufio"
	"flag"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateTechniques = flag.Bool("logic.update", false, "rewrite testdata/logic/techniques.txt from the puzzle sets")

const techniquesFile = "techniques.txt"

// techCase is one position where a technique is the easiest step: the
// placed values, the pencil marks of the empty cells (after earlier
// steps removed some), and the step expected there.
type techCase struct {
	technique   string
	shape       Shape
	grid        string   // one-line grid of placed values
	marks       []string // candidates of each empty cell, in reading order
	step        []string // "r1c1=5" placements, "r4c3-7" eliminations
	explanation string
}

// TestTechniques checks each technique on a position where it applies and
// every easier technique finds nothing: the solver's first step there is
// that technique, with exactly the recorded placements and eliminations,
// all of which agree with the solution. The positions come from real
// puzzles (see -logic.update); their explanations are golden text.
func TestTechniques(t *testing.T) {
	if *updateTechniques {
		writeTechniqueCases(t)
	}
	cases := readTechniqueCases(t)
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.technique] = true
		t.Run(tc.shape.String()+"/"+tc.technique, func(t *testing.T) {
			b := tc.board(t)
			sol := mustSolution(t, b.grid())
			for i := range ladder {
				st, ok := ladder[i].find(b)
				if !ok {
					continue
				}
				if st.Technique != tc.technique {
					t.Fatalf("first step is %s (%s), want %s", st.Technique, st.Explanation, tc.technique)
				}
				if got := stepTokens(b, &st); strings.Join(got, " ") != strings.Join(tc.step, " ") {
					t.Errorf("step = %v, want %v", got, tc.step)
				}
				if st.Explanation != tc.explanation {
					t.Errorf("explanation = %q\nwant %q", st.Explanation, tc.explanation)
				}
				for _, p := range st.Placements {
					if int(sol.Cells[p.Cell]) != p.Value {
						t.Errorf("places %d in %s; the solution has %d", p.Value, b.name(p.Cell), sol.Cells[p.Cell])
					}
				}
				for _, e := range st.Eliminations {
					if int(sol.Cells[e.Cell]) == e.Value {
						t.Errorf("removes %d from %s, which the solution has there", e.Value, b.name(e.Cell))
					}
				}
				return
			}
			t.Fatalf("no technique applies, want %s", tc.technique)
		})
	}
	// Every technique on the ladder has a case (the families with one
	// finder report several names; these are the ones that must appear).
	for _, name := range []string{
		techFullHouse, techHiddenSingleBox, techHiddenSingleLine, techDirectPointing, techDirectClaiming,
		techDirectHiddenPair, techNakedSingle, techDirectHiddenTriple, techPointing, techClaiming,
		techNakedPair, techXWing, techHiddenPair, techNakedTriple, techSwordfish, techHiddenTriple,
		techXYWing, techXYZWing, techUR1, techUR2, techUR4, techNakedQuad, techJellyfish, techHiddenQuad,
		techBUG, techTurbot, techXChain, techXYChain, techAIC, techWWing, techNishio, techContradiction,
		techCellForcing, techUnitForcing,
	} {
		if !seen[name] {
			t.Errorf("no position in %s for %s", techniquesFile, name)
		}
	}
}

// board builds the case's position: placed values, then the recorded marks.
func (tc techCase) board(t *testing.T) *board {
	t.Helper()
	g, err := ParseWith(tc.grid, ParseOptions{Shape: tc.shape})
	if err != nil {
		t.Fatalf("grid %q: %v", tc.grid, err)
	}
	b, err := newBoard(g)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for c, v := range b.vals {
		if v != 0 {
			continue
		}
		if i >= len(tc.marks) {
			t.Fatalf("%d marks for more empty cells", len(tc.marks))
		}
		var m uint32
		for _, r := range tc.marks[i] {
			d := b.alpha.Value(r)
			if d == 0 {
				t.Fatalf("mark %q: %q is not a symbol", tc.marks[i], r)
			}
			m |= 1 << (d - 1)
		}
		if m&^b.cand[c] != 0 {
			t.Fatalf("marks %q at %s include digits a peer holds", tc.marks[i], b.name(c))
		}
		b.cand[c] = m
		i++
	}
	if i != len(tc.marks) {
		t.Fatalf("%d marks for %d empty cells", len(tc.marks), i)
	}
	b.fresh = false
	b.refresh()
	return b
}

// stepTokens writes a step's placements and eliminations as tokens, cells
// in the forums' r#c# notation (r1c1 top left).
func stepTokens(b *board, st *Step) []string {
	n := b.g.shape.N()
	rc := func(cell int) string { return fmt.Sprintf("r%dc%d", cell/n+1, cell%n+1) }
	var out []string
	for _, p := range st.Placements {
		out = append(out, rc(p.Cell)+"="+b.sym(p.Value))
	}
	for _, e := range st.Eliminations {
		out = append(out, rc(e.Cell)+"-"+b.sym(e.Value))
	}
	return out
}

func readTechniqueCases(t *testing.T) []techCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "logic", techniquesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []techCase
	var cur *techCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, val, ok := strings.Cut(text, ": ")
		if !ok {
			t.Fatalf("%s line %d: want 'key: value', got %q", techniquesFile, line, text)
		}
		switch key {
		case "technique":
			out = append(out, techCase{technique: val, shape: Shape9})
			cur = &out[len(out)-1]
		case "shape":
			if _, err := fmt.Sscanf(val, "%dx%d", &cur.shape.BoxRows, &cur.shape.BoxCols); err != nil {
				t.Fatalf("%s line %d: shape %q: %v", techniquesFile, line, val, err)
			}
		case "grid":
			cur.grid = val
		case "marks":
			cur.marks = strings.Fields(val)
		case "step":
			cur.step = strings.Fields(val)
		case "explanation":
			cur.explanation = val
		default:
			t.Fatalf("%s line %d: unknown key %q", techniquesFile, line, key)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeTechniqueCases harvests, for each technique, the first position in
// the puzzle sets where the solver's easiest step uses it.
func writeTechniqueCases(t *testing.T) {
	t.Helper()
	type source struct {
		shape   Shape
		puzzles []*Grid
	}
	var sources []source
	for _, s := range []Shape{Shape4, Shape6, Shape8, Shape12} {
		var ps []*Grid
		for i := 0; i < 8; i++ {
			ps = append(ps, newTestPuzzle(t, s, uint64(1000*s.N()+i), 0))
		}
		sources = append(sources, source{s, ps})
	}
	var nine []*Grid
	for _, p := range append(sample(mustLoadPuzzles(t, "top1465.txt.gz"), 1465), sample(mustLoadPuzzles(t, "17clue.txt.gz"), 200)...) {
		nine = append(nine, mustParse(t, p))
	}
	sources = append([]source{{Shape9, nine}}, sources...)

	var sb strings.Builder
	sb.WriteString("# One position per technique (and per other shape where it occurs) where it is\n")
	sb.WriteString("# the easiest step. grid: placed values; marks: the candidates of each empty\n")
	sb.WriteString("# cell in reading order; step: placements (=) and eliminations (-).\n")
	sb.WriteString("# Harvested from top1465, the 17-clue set and small generated puzzles by\n")
	sb.WriteString("# go test ./sudoku -run TestTechniques -logic.update\n")
	for _, src := range sources {
		found := map[string]bool{}
		var names []string
		entries := map[string]string{}
		for _, g := range src.puzzles {
			b, err := newBoard(g)
			if err != nil {
				t.Fatal(err)
			}
			for {
				st, ok := b.next()
				if !ok {
					break
				}
				if !found[st.Technique] {
					found[st.Technique] = true
					names = append(names, st.Technique)
					entries[st.Technique] = techEntry(b, src.shape, &st)
				}
				if err := b.apply(&st); err != nil {
					t.Fatal(err)
				}
			}
		}
		sort.SliceStable(names, func(i, j int) bool { return techRank(names[i]) < techRank(names[j]) })
		for _, name := range names {
			sb.WriteString(entries[name])
		}
	}
	path := filepath.Join("testdata", "logic", techniquesFile)
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func techEntry(b *board, s Shape, st *Step) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\ntechnique: %s\n", st.Technique)
	if s != Shape9 {
		fmt.Fprintf(&sb, "shape: %dx%d\n", s.BoxRows, s.BoxCols)
	}
	fmt.Fprintf(&sb, "grid: %s\n", b.grid())
	var marks []string
	for c, v := range b.vals {
		if v == 0 {
			var w strings.Builder
			for m := b.cand[c]; m != 0; m &= m - 1 {
				w.WriteString(b.sym(bits.TrailingZeros32(m) + 1))
			}
			marks = append(marks, w.String())
		}
	}
	fmt.Fprintf(&sb, "marks: %s\n", strings.Join(marks, " "))
	fmt.Fprintf(&sb, "step: %s\n", strings.Join(stepTokens(b, st), " "))
	fmt.Fprintf(&sb, "explanation: %s\n", st.Explanation)
	return sb.String()
}

// techRank orders technique names by the ladder.
func techRank(name string) float64 {
	for i, tq := range ladder {
		if tq.name == name {
			return float64(i)
		}
	}
	switch name { // names found by a shared finder, next to it
	case techUR2, techUR4:
		return techRank(techUR1) + 0.1
	case techTurbot, techXYChain, techAIC, techWWing:
		return techRank(techXChain) - 0.1
	case techCellForcing, techUnitForcing:
		return techRank(techContradiction) + 0.1
	}
	return 1e9
}
