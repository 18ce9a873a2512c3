package sudoku

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hodokuCase is one position of HoDoKu's technique library: the digits,
// the candidates left after HoDoKu's deletions, and the step its technique
// must find there.
type hodokuCase struct {
	line, family, label string
	grid                *Grid
	want                []string // "r1c2=3" and "r4c5-6", sorted
}

func mustLoadHodoku(t testing.TB) []hodokuCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "logic", "hodoku_reglib.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []hodokuCase
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			t.Fatalf("hodoku line %q: %d fields, want 6", line, len(f))
		}
		g := mustParse(t, f[3])
		g.Marks = make([]uint32, 81)
		for c, word := range strings.Fields(f[4]) {
			for _, r := range word {
				if r >= '1' && r <= '9' {
					g.Marks[c] |= 1 << (r - '1')
				}
			}
		}
		want := strings.Fields(f[5])
		sort.Strings(want)
		out = append(out, hodokuCase{line: f[0], family: f[1], label: f[2], grid: g, want: want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// stepKey writes a step's conclusions as HoDoKu's library does, sorted.
func stepKey(st Step) []string {
	var out []string
	for _, p := range st.Placements {
		out = append(out, fmt.Sprintf("r%dc%d=%d", p.Cell/9+1, p.Cell%9+1, p.Value))
	}
	for _, e := range st.Eliminations {
		out = append(out, fmt.Sprintf("r%dc%d-%d", e.Cell/9+1, e.Cell%9+1, e.Value))
	}
	sort.Strings(out)
	return out
}

// hodokuFamily maps a technique to the family HoDoKu's library files it
// under.
func hodokuFamily(technique string) string {
	switch technique {
	case techFullHouse:
		return "fullhouse"
	case techHiddenSingleBox, techHiddenSingleLine:
		return "hiddensingle"
	case techNakedSingle:
		return "nakedsingle"
	case techPointing, techDirectPointing:
		return "pointing"
	case techClaiming, techDirectClaiming:
		return "claiming"
	case techNakedPair:
		return "nakedpair"
	case techNakedTriple:
		return "nakedtriple"
	case techNakedQuad:
		return "nakedquad"
	case techHiddenPair, techDirectHiddenPair:
		return "hiddenpair"
	case techHiddenTriple, techDirectHiddenTriple:
		return "hiddentriple"
	case techHiddenQuad:
		return "hiddenquad"
	case techXWing:
		return "xwing"
	case techSwordfish:
		return "swordfish"
	case techJellyfish:
		return "jellyfish"
	case techXYWing:
		return "xywing"
	case techXYZWing:
		return "xyzwing"
	case techUR1, techUR2, techUR4:
		return "ur"
	case techBUG:
		return "bug"
	}
	return "chains"
}

// familyScore is the Sudoku Explainer score of each HoDoKu family (their
// steps remove candidates, so the scores of the plain, not "direct" forms):
// a first hint scoring below it is an easier step than the library's.
var familyScore = map[string]float64{
	"fullhouse": 1.0, "hiddensingle": 1.2, "nakedsingle": 2.3, "pointing": 2.6, "claiming": 2.8,
	"hiddenpair": 3.4, "hiddentriple": 4.0, "nakedpair": 3.0, "xwing": 3.2, "nakedtriple": 3.6,
	"swordfish": 3.8, "xywing": 4.2, "xyzwing": 4.4, "ur": 4.5, "nakedquad": 5.0, "jellyfish": 5.2,
	"hiddenquad": 5.4, "bug": 5.6, "chains": 6.6,
}

// TestHintHodoku asks for a hint on each of HoDoKu's 775 technique
// positions, pasted with their pencil marks. Every step the hint walks
// through must be right (it removes only candidates still there and not
// the solution's, it places only the solution's values), the marks must
// pass the player check, and most first hints must be HoDoKu's own step or
// one of the same family.
func TestHintHodoku(t *testing.T) {
	ctx := context.Background()
	cases := mustLoadHodoku(t)
	same, family, easier := 0, 0, 0
	byFamily := map[string][3]int{}
	for _, c := range cases {
		h, err := Hint(ctx, c.grid, c.grid, HintStep)
		if err != nil {
			t.Fatalf("line %s (%s): %v", c.line, c.label, err)
		}
		if len(h.Wrong) > 0 || len(h.WrongMarks) > 0 || len(h.Steps) == 0 {
			t.Fatalf("line %s (%s): hint %q, want a step", c.line, c.label, h.Text)
		}
		sol := mustSolution(t, c.grid)
		pos := c.grid
		for _, st := range h.Steps {
			b, err := newBoard(pos)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range st.Eliminations {
				if !b.has(e.Cell, e.Value) || int(sol.Cells[e.Cell]) == e.Value {
					t.Fatalf("line %s (%s): %s removes %d from %s: not a candidate left, or the solution\n%s",
						c.line, c.label, st.Technique, e.Value, b.name(e.Cell), st.Explanation)
				}
			}
			for _, p := range st.Placements {
				if int(sol.Cells[p.Cell]) != p.Value {
					t.Fatalf("line %s (%s): %s places %d at %s, the solution has %d",
						c.line, c.label, st.Technique, p.Value, b.name(p.Cell), sol.Cells[p.Cell])
				}
			}
			if pos, err = ApplyStep(pos, st); err != nil {
				t.Fatalf("line %s (%s): %v", c.line, c.label, err)
			}
		}
		f := byFamily[c.family]
		switch {
		case strings.Join(stepKey(h.Step), " ") == strings.Join(c.want, " "):
			same++
			f[0]++
		case hodokuFamily(h.Step.Technique) == c.family:
			family++
			f[1]++
		case h.Step.Score < familyScore[c.family]:
			easier++
			f[2]++
		default:
			if testing.Verbose() {
				t.Logf("line %s %s: got %s %v, want %v", c.line, c.label, h.Step.Technique, stepKey(h.Step), c.want)
			}
		}
		byFamily[c.family] = f
	}
	var fams []string
	for k := range byFamily {
		fams = append(fams, k)
	}
	sort.Strings(fams)
	for _, k := range fams {
		t.Logf("%-13s HoDoKu's step %3d, same family %3d, an easier technique %3d", k, byFamily[k][0], byFamily[k][1], byFamily[k][2])
	}
	t.Logf("%d positions: first hint is HoDoKu's own step in %d, another step of the same family in %d, an easier technique in %d",
		len(cases), same, family, easier)
	if same+family+easier < len(cases)*9/10 {
		t.Errorf("only %d of %d first hints are HoDoKu's step, its family or easier", same+family+easier, len(cases))
	}
	if len(cases) != 775 {
		t.Errorf("read %d HoDoKu positions, want 775", len(cases))
	}
}
