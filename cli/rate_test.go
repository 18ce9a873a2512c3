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
	// Golden nugget (SE 11.9) needs dynamic chains nested in dynamic
	// chains; the solver stops after nested multiple forcing chains (11.4).
	code, out, errOut := runLogicCmd(t, ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....", "rate")
	if code != 0 {
		t.Fatalf("rate = %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"score:   11.4+", "level:   extreme", "hardest: unfinished"} {
		if !strings.Contains(out, want) {
			t.Errorf("rate printed %q, want %q in it", out, want)
		}
	}
}

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
