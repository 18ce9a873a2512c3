package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubot/sudoku"
)

// runSolveCmd runs `sudokubot solve ARGS` with stdin and returns the exit
// code, stdout and stderr.
func runSolveCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"solve"}, args...), IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

const (
	// A unique puzzle and its solution.
	solvePuz = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	solveSol = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
	// Many solutions: one given.
	solveMulti = "1................................................................................"
	// No solution and no clash: r1c9 can only be 9, which its column
	// already holds.
	solveNone = "12345678.........9..............................................................."
	// Two 5s in row 1.
	solveClash = "5.......5........................................................................"
)

// TestSolveCommandLine covers -line on every kind of answer.
func TestSolveCommandLine(t *testing.T) {
	tests := []struct {
		name     string
		stdin    string
		wantOut  string // exact line, or a prefix ending in ':' for errors
		wantCode int
	}{
		{"unique", solvePuz, solveSol, 0},
		{"unique, grid layout", "```\n" + rowsOf(solvePuz, 9) + "```\n", solveSol, 0},
		{"multiple", solveMulti, "multiple", 1},
		{"none", solveNone, "none", 1},
		{"clash", solveClash, "error: the givens clash: 5 is twice in row A (A1, A9)", 1},
		{"many clashes, five told", strings.Repeat("12345678", 8), "error: the givens clash: 1 is 8 times in column 1 (A1, B1, C1, D1, E1, F1, G1, H1); " +
			"2 is 8 times in column 2 (A2, B2, C2, D2, E2, F2, G2, H2); 3 is 8 times in column 3 (A3, B3, C3, D3, E3, F3, G3, H3); " +
			"4 is 8 times in column 4 (A4, B4, C4, D4, E4, F4, G4, H4); 5 is 8 times in column 5 (A5, B5, C5, D5, E5, F5, G5, H5); and 35 more", 1},
		{"unreadable", "hello there", "error:", 1},
		{"wrong count", solvePuz[:80], "error:", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, _ := runSolveCmd(t, tt.stdin, "-line")
			if code != tt.wantCode {
				t.Errorf("solve -line exit code = %d, want %d", code, tt.wantCode)
			}
			if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
				t.Fatalf("solve -line printed %q, want exactly one line", out)
			}
			got := strings.TrimSuffix(out, "\n")
			if strings.HasSuffix(tt.wantOut, ":") {
				if !strings.HasPrefix(got, tt.wantOut+" ") || len(got) < len(tt.wantOut)+10 {
					t.Errorf("solve -line = %q, want %q followed by a message", got, tt.wantOut)
				}
			} else if got != tt.wantOut {
				t.Errorf("solve -line = %q, want %q", got, tt.wantOut)
			}
		})
	}
}

// rowsOf splits a one-line grid into rows of n.
func rowsOf(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		b.WriteString(s[i:i+n] + "\n")
	}
	return b.String()
}

// TestSolveCommandOwnAlphabet: a puzzle written in its own letters is
// answered in them.
func TestSolveCommandOwnAlphabet(t *testing.T) {
	const letters = "AELMNOSTW"
	toLetters := func(s string, blank rune) string {
		return strings.Map(func(r rune) rune {
			if r >= '1' && r <= '9' {
				return rune(letters[r-'1'])
			}
			return blank
		}, s)
	}
	// Every letter must appear among the givens for the parser to know the
	// alphabet: add the solution's first row to the puzzle.
	puz := []byte(solvePuz)
	copy(puz, solveSol[:9])
	code, out, errOut := runSolveCmd(t, toLetters(string(puz), '-'), "-line")
	if want := toLetters(solveSol, '?') + "\n"; code != 0 || out != want {
		t.Errorf("solve -line on a lettered puzzle = %d, %q (stderr %q); want 0, %q", code, out, errOut, want)
	}
}

// TestSolveCommandBoard: without -line the solved board and a status line
// are printed.
func TestSolveCommandBoard(t *testing.T) {
	sol, err := sudoku.Parse(solveSol)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		stdin     string
		wantBoard bool
		wantLine  string
		wantCode  int
	}{
		{"unique", solvePuz, true, "unique solution (", 0},
		{"multiple", solveMulti, true, "multiple solutions", 1},
		{"none", solveNone, false, "no solution", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runSolveCmd(t, tt.stdin)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d (stderr %q)", code, tt.wantCode, errOut)
			}
			if tt.wantBoard && tt.name == "unique" && !strings.HasPrefix(out, sudoku.Format(sol)) {
				t.Errorf("output does not start with the solved board:\n%s\nwant:\n%s", out, sudoku.Format(sol))
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, tt.wantLine) || !strings.Contains(last, "guess") {
				t.Errorf("status line = %q, want it to start with %q and give the guesses", last, tt.wantLine)
			}
			if got := len(lines) > 1; got != tt.wantBoard {
				t.Errorf("board printed = %v, want %v:\n%s", got, tt.wantBoard, out)
			}
		})
	}
	code, out, errOut := runSolveCmd(t, solveClash)
	if code != 1 || out != "" || !strings.Contains(errOut, "5 is twice in row A") {
		t.Errorf("clash: exit %d, stdout %q, stderr %q; want 1, nothing, the clash explained", code, out, errOut)
	}
}

// TestSolveCommandFileAndTimeout reads a 25x25 from a file and gives up at
// the deadline.
func TestSolveCommandFileAndTimeout(t *testing.T) {
	// Gecode's 25x25 number 18 (1-9 then A=10 … P=25): far too hard for 50 ms.
	const hard = "...G...9..4.....6F..L8...CEIN.HDM.OF.1L..A..9PJ.4......A...L..JBN.2.D.1...HP49...JB23.AD..7E..C5F...A1H....F.N5....I.BL...26.....7..C.6...H4B..1....I5.F.P...I..B..7.5.L...9....L6A...5OF.8P...K.NE..734B2.E..L...1J.5....O7.K.APO.5.CB1.P....3EM....2L.H.2..MJ.A...9.3.7......P.8C.....CF.DPG62N.E...OH.M.J.DL..OM..IE.B8..NH...3..K.CO1F.B.N.AH..P.78.JE...DE..6.....H......4M.KIB9..N.J..6......C..1.5.G..H.....75LG...6..1..CI..4.E..9K..6.....HGN.O2P.4.......OA..IP849...2.K3...7GN....G....N...P.D9....A...C1J...M.NAFE.4..23.7....8L......J.H9CD1LP..GO....4ME48NK..5.M......JL.......9.I.OG....835.A.DH..P.....35......L.J..E....8IG.67B"
	dir := t.TempDir()
	path := filepath.Join(dir, "hard25.txt")
	if err := os.WriteFile(path, []byte(hard+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runSolveCmd(t, "", "-line", "-timeout", "50ms", path)
	if code != 1 || out != "timeout\n" {
		t.Errorf("solve -line -timeout 50ms on a very hard 25x25 = %d, %q (stderr %q); want 1, \"timeout\"", code, out, errOut)
	}
	code, out, _ = runSolveCmd(t, "", "-timeout", "50ms", path)
	if code != 1 || !strings.HasPrefix(out, "timeout: no answer after") {
		t.Errorf("solve -timeout 50ms = %d, %q; want 1 and a timeout line", code, out)
	}
	code, _, errOut = runSolveCmd(t, "", filepath.Join(dir, "missing.txt"))
	if code != 1 || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("solve on a missing file = %d, stderr %q; want 1 and the file named", code, errOut)
	}
}

// TestSolveCommandBatch answers many puzzles in input order.
func TestSolveCommandBatch(t *testing.T) {
	// Relabel the digits of the unique puzzle in many ways: each line's
	// answer is the same relabelling of the known solution.
	var in, want strings.Builder
	in.WriteString("# a comment\n\n")
	perm := []byte("123456789")
	for i := range 300 {
		// Next permutation-ish: rotate and swap so lines differ.
		perm = append(perm[1:], perm[0])
		perm[i%8], perm[i%8+1] = perm[i%8+1], perm[i%8]
		relabel := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r >= '1' && r <= '9' {
					return rune(perm[r-'1'])
				}
				return r
			}, s)
		}
		switch i {
		case 100:
			in.WriteString(solveMulti + "\n")
			want.WriteString("multiple\n")
		case 150:
			in.WriteString(solveNone + "\n")
			want.WriteString("none\n")
		case 200:
			in.WriteString(solveClash + "\n")
			want.WriteString("error: the givens clash: 5 is twice in row A (A1, A9)\n")
		case 250:
			in.WriteString("   # indented comment\n")
			in.WriteString(relabel(solvePuz) + "\n")
			want.WriteString(relabel(solveSol) + "\n")
		default:
			in.WriteString(relabel(solvePuz) + "\n")
			want.WriteString(relabel(solveSol) + "\n")
		}
	}
	code, out, errOut := runSolveCmd(t, in.String(), "-batch")
	if code != 1 {
		t.Errorf("solve -batch with bad lines: exit %d, want 1", code)
	}
	if out != want.String() {
		gotLines, wantLines := strings.Split(out, "\n"), strings.Split(want.String(), "\n")
		for i := range min(len(gotLines), len(wantLines)) {
			if gotLines[i] != wantLines[i] {
				t.Fatalf("solve -batch line %d = %q, want %q (%d lines, want %d)", i+1, gotLines[i], wantLines[i], len(gotLines), len(wantLines))
			}
		}
		t.Fatalf("solve -batch printed %d lines, want %d", len(gotLines), len(wantLines))
	}
	for _, part := range []string{"300 puzzles", "puzzles/s", "297 unique", "1 multiple", "1 none", "0 timeout", "1 error"} {
		if !strings.Contains(errOut, part) {
			t.Errorf("solve -batch summary %q lacks %q", errOut, part)
		}
	}
	code, out, _ = runSolveCmd(t, solvePuz+"\n"+solvePuz+"\n", "-batch")
	if code != 0 || out != solveSol+"\n"+solveSol+"\n" {
		t.Errorf("solve -batch on two unique puzzles = %d, %q; want 0 and two solutions", code, out)
	}
}

// TestSolveCommandUsage: bad flags and arguments exit 2 with a message.
func TestSolveCommandUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-nope"}, "sudokubot solve: -nope: no such flag\n"},
		{[]string{"a.txt", "b.txt"}, "one puzzle file at most"},
		{[]string{"-timeout", "-1s"}, "-timeout"},
	}
	for _, tt := range tests {
		code, _, errOut := runSolveCmd(t, "", tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("solve %v = %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	if code, out, _ := runSolveCmd(t, "", "-h"); code != 0 || !strings.HasPrefix(out, "usage: sudokubot solve") {
		t.Errorf("solve -h = %d, %q; want 0 and the usage", code, out)
	}
}

// TestSolveReportTimeoutWithSolution: a search stopped after finding one
// solution still shows it, and says uniqueness is unknown.
func TestSolveReportTimeoutWithSolution(t *testing.T) {
	puz, err := sudoku.Parse(solvePuz)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sudoku.Parse(solveSol)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		res       sudoku.Result
		wantBoard bool
		wantLast  string
		wantLine  string
	}{
		{"timeout with a solution", sudoku.Result{Status: sudoku.Cancelled, Solutions: []*sudoku.Grid{sol}}, true, "timeout: found this solution, but not whether it is the only one", "timeout"},
		{"timeout without", sudoku.Result{Status: sudoku.Cancelled}, false, "timeout: no answer after", "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := solveAnswer{puzzle: puz, res: tt.res}
			var out, errb bytes.Buffer
			a.report(IO{Stdout: &out, Stderr: &errb}, "test")
			text := out.String()
			if got := strings.HasPrefix(text, sudoku.Format(sol)); got != tt.wantBoard {
				t.Errorf("board shown = %v, want %v:\n%s", got, tt.wantBoard, text)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, tt.wantLast) {
				t.Errorf("status line = %q, want prefix %q", last, tt.wantLast)
			}
			if got := a.line(); got != tt.wantLine {
				t.Errorf("line() = %q, want %q", got, tt.wantLine)
			}
		})
	}
}

// BenchmarkSolveBatch measures what solve -batch costs a line beyond the
// solver: each round answers every 17-clue puzzle through solveBatch, then
// solves the same (already parsed) puzzles directly, and the difference
// per line is reported as overhead-ns/line (wall time) and
// overhead-cpu-ns/line (the process's CPU time). Run with -cpu 1.
func BenchmarkSolveBatch(b *testing.B) {
	f, err := os.Open(filepath.Join("..", "sudoku", "testdata", "sets", "17clue.txt.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	var grids []*sudoku.Grid
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSpace(line); line == "" || line[0] == '#' {
			continue
		}
		g, err := sudoku.Parse(line)
		if err != nil {
			b.Fatal(err)
		}
		grids = append(grids, g)
	}
	ctx := context.Background()
	var batch, direct, batchCPU, directCPU time.Duration
	for b.Loop() {
		start := time.Now()
		c0, okCPU := processCPU()
		if code := solveBatch(ctx, bytes.NewReader(data), "17clue", 10*time.Second, IO{Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
			b.Fatalf("solveBatch = %d, want 0", code)
		}
		batch += time.Since(start)
		c1, _ := processCPU()
		start = time.Now()
		for _, g := range grids {
			if res := sudoku.Solve(ctx, g, 2); res.Status != sudoku.Unique {
				b.Fatalf("%s: %v", g, res.Status)
			}
		}
		direct += time.Since(start)
		c2, _ := processCPU()
		if okCPU {
			batchCPU += c1 - c0
			directCPU += c2 - c1
		}
	}
	lines := float64(b.N * len(grids))
	b.ReportMetric(float64(batch.Nanoseconds())/lines, "batch-ns/line")
	b.ReportMetric(float64(direct.Nanoseconds())/lines, "solve-ns/line")
	b.ReportMetric(float64((batch-direct).Nanoseconds())/lines, "overhead-ns/line")
	if batchCPU > 0 {
		// Process CPU time, which a loaded machine inflates less than
		// wall time (with -cpu 1 the process runs one search at a time).
		b.ReportMetric(float64((batchCPU-directCPU).Nanoseconds())/lines, "overhead-cpu-ns/line")
	}
}
