package cli

import (
	"strings"
	"testing"
)

func TestRateCommand(t *testing.T) {
	code, out, errOut := runLogicCmd(t, cliWiki, "rate")
	if code != 0 {
		t.Fatalf("rate = %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"score:   1.2", "level:   easy", "hardest: Hidden single"} {
		if !strings.Contains(out, want) {
			t.Errorf("rate printed %q, want %q in it", out, want)
		}
	}
}

func TestRateCommandBatch(t *testing.T) {
	in := strings.Join([]string{
		"# a comment",
		cliWiki + "\tthe wikipedia puzzle",
		"",
		"not-a-puzzle",
		".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6... platinum blonde",
	}, "\n")
	code, out, errOut := runLogicCmd(t, in, "rate", "-batch")
	if code != 1 || !strings.Contains(errOut, "line 4") {
		t.Errorf("rate -batch = %d, stderr %q; want 1 and an error for line 4", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("rate -batch printed %d lines, want 2:\n%s", len(lines), out)
	}
	want := []string{
		"1.2\teasy\tHidden single\t" + cliWiki + "\tthe wikipedia puzzle",
		"extreme",
	}
	if lines[0] != want[0] {
		t.Errorf("line 1 = %q, want %q", lines[0], want[0])
	}
	// Sudoku Explainer rates platinum blonde 10.6 (nested forcing chains).
	if f := strings.Split(lines[1], "\t"); len(f) != 5 || f[0] != "10.6" || f[1] != want[1] || !strings.Contains(f[2], "(+ forcing chains)") || f[4] != "platinum blonde" {
		t.Errorf("line 2 = %q, want platinum blonde rated 10.6, extreme, with nested forcing chains", lines[1])
	}
}

func TestRateCommandUnfinished(t *testing.T) {
	// Every 9x9 puzzle known gets a number now (Sudoku Explainer's deepest
	// chains); on other sizes the solver has its own, shorter ladder, and
	// this 25x25 (Gecode's examples) is beyond it.
	code, out, errOut := runLogicCmd(t, gecode25Unfinished, "rate")
	if code != 0 {
		t.Fatalf("rate = %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"score:   10.0+", "level:   extreme", "hardest: unfinished"} {
		if !strings.Contains(out, want) {
			t.Errorf("rate printed %q, want %q in it", out, want)
		}
	}
}

// gecode25Unfinished is a 25x25 puzzle (Gecode's sudoku examples) the
// logical solver takes 65 steps into and no further.
const gecode25Unfinished = ".N..JG..O7591...8I....L..FG.M.B8...P.E...CJ..H...............G.4.H.D.O.NJA2.....J.EN4.L6MA.B.2......HE..2..DC.....F4KMA.B.9O8M....62...47C19......E5...I2.8M.JGL...ADN..K..3.F7..H3.5..89....I.J.....NL.1B..9.FAP.6.N....537.H..O......1..N...O...LC.68.PGKOA.FNBH.....7.C.....M..645.ECP.I..N.F.J1...MK.79.I.L..8.O..9.P...A...2.1J...621.D.M.....B8LG..P..CH.HP.N7E.L1....3..B..O.G45....BIO....5.C.P...FN48E....FL.....2.DH..17..59O....I.MF..2G.N...A6O.HC.PB.72.1..L...IM.96E.45G.......9...7M..A.O...I...L.....C.JA.........1.....E.48.O.BI.......PHL.6..1....5CG6M...N4FI8...K..H.E......L..4.917....BE.G8F.M.I..8F......5.O3..4...9.....K"

func TestRateRefusesImproperPuzzles(t *testing.T) {
	clash := "55" + cliWiki[2:]
	noSolution := "12345678........9" + strings.Repeat(".", 64)
	several := "........." + cliWiki[9:]
	for _, tt := range []struct{ name, puzzle, want string }{
		{"clash", clash, "no solution: "},
		{"no solution", noSolution, "no solution: no way to fill the grid keeps every rule"},
		{"several", several, "several solutions: not a proper Sudoku"},
		{"empty", strings.Repeat(".", 81), "several solutions: the grid is empty"},
		{"few clues", "5" + strings.Repeat(".", 79) + "1", "several solutions: 2 clues are too few for one solution"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, _ := runLogicCmd(t, tt.puzzle, "rate")
			if code == 0 || !strings.HasPrefix(out, tt.want) || strings.Contains(out, "score") {
				t.Errorf("rate = %d, %q; want non-zero and %q", code, out, tt.want)
			}
			code, out, _ = runLogicCmd(t, tt.puzzle+" "+tt.name+"\n"+cliWiki, "rate", "-batch")
			lines := strings.Split(strings.TrimSpace(out), "\n")
			level, _, _ := strings.Cut(tt.want, ":")
			if code == 0 || len(lines) != 2 || lines[0] != "-\t"+level+"\t-\t"+tt.puzzle+"\t"+tt.name || !strings.HasPrefix(lines[1], "1.2\teasy") {
				t.Errorf("rate -batch = %d, %q; want non-zero, a %q line, then the good puzzle rated", code, out, level)
			}
		})
	}
}

// TestRateTimeout: past -timeout, rate prints the score so far as a lower
// bound and exits 1, alone and in -batch.
func TestRateTimeout(t *testing.T) {
	const hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
	code, out, errOut := runCmd(t, hard, "rate", "-timeout", "20ms")
	if code != 1 || !strings.Contains(out, "+\nlevel:   at least ") || !strings.Contains(out, "hardest: timeout: stopped after 20ms (-timeout)") {
		t.Errorf("rate -timeout 20ms = %d, %q (stderr %q); want 1, a score with +, and the timeout said", code, out, errOut)
	}
	code, out, errOut = runCmd(t, hard, "rate", "-batch", "-timeout", "20ms")
	if f := strings.Split(strings.TrimSpace(out), "\t"); code != 1 || len(f) != 4 || !strings.HasSuffix(f[0], "+") || f[2] != "timeout" {
		t.Errorf("rate -batch -timeout 20ms = %d, %q (stderr %q); want 1 and a line score+, level, timeout, puzzle", code, out, errOut)
	}
}
