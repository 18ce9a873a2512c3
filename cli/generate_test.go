package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"sudokubot/sudoku"
)

// runGenCmd runs a generate or daily command with empty stdin.
func runGenCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestGenerateCommand(t *testing.T) {
	code, out, errOut := runGenCmd(t, "generate", "-n", "3", "-level", "hard", "-symmetry", "mirror", "-seed", "10")
	if code != 0 {
		t.Fatalf("generate = %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("generate -n 3 printed %d lines, want 3:\n%s", len(lines), out)
	}
	for i, line := range lines {
		// Each line is the puzzle Generate makes with seed 10+i.
		p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{
			Shape: sudoku.Shape9, Level: sudoku.Hard, Symmetry: sudoku.Mirror, Seed: uint64(10 + i)})
		if err != nil {
			t.Fatal(err)
		}
		if line != p.Grid.String() {
			t.Errorf("line %d = %q, want %q", i+1, line, p.Grid)
		}
	}
}

func TestGenerateCommandVerboseAndSizes(t *testing.T) {
	tests := []struct {
		args  []string
		cells int
		level string
	}{
		{[]string{"-size", "4", "-level", "easy"}, 16, "easy"},
		{[]string{"-size", "6x6", "-symmetry", "rot90"}, 36, "medium"},
		{[]string{"-size", "16x16", "-level", "easy", "-symmetry", "diagonal"}, 256, "easy"},
		{[]string{"-size", "9x9", "-level", "EXPERT", "-symmetry", "none"}, 81, "expert"},
	}
	for _, tt := range tests {
		args := append([]string{"generate", "-v", "-seed", "5"}, tt.args...)
		code, out, errOut := runGenCmd(t, args...)
		if code != 0 {
			t.Errorf("%v = %d, stderr %q", args, code, errOut)
			continue
		}
		f := strings.Split(strings.TrimSuffix(out, "\n"), "\t")
		if len(f) != 5 || len(f[0]) != tt.cells || f[2] != tt.level || f[4] != "5" {
			t.Errorf("%v printed %q, want puzzle (%d cells), score, %s, technique, seed 5", args, out, tt.cells, tt.level)
		}
	}
}

func TestGenerateCommandRandomSeed(t *testing.T) {
	code, out, errOut := runGenCmd(t, "generate", "-level", "easy", "-v")
	if code != 0 {
		t.Fatalf("generate = %d, stderr %q", code, errOut)
	}
	if f := strings.Split(strings.TrimSpace(out), "\t"); len(f) != 5 || len(f[0]) != 81 {
		t.Errorf("generate -v printed %q, want a puzzle and its seed", out)
	}
	// Without -v the seed goes to stderr, and repeating it repeats the puzzle.
	code, out, errOut = runGenCmd(t, "generate", "-level", "easy")
	var seed string
	if _, err := fmt.Sscanf(errOut, "sudokubot generate: seed %s", &seed); code != 0 || err != nil {
		t.Fatalf("generate = %d, stderr %q; want the random seed on stderr", code, errOut)
	}
	code, again, errOut := runGenCmd(t, "generate", "-level", "easy", "-seed", seed)
	if code != 0 || again != out || errOut != "" {
		t.Errorf("generate -seed %s = %d, %q, stderr %q; want %q again and a quiet stderr", seed, code, again, errOut, out)
	}
}

func TestGenerateCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-level", "impossible"}, 2, `unknown level "impossible"`},
		{[]string{"-size", "7"}, 2, "no 7x7 grid"},
		{[]string{"-size", "9x6"}, 2, "a grid is square"},
		{[]string{"-size", "big"}, 2, "not a size"},
		{[]string{"-symmetry", "spiral"}, 2, `unknown symmetry "spiral"`},
		{[]string{"-seed", "-4"}, 2, "not a seed"},
		{[]string{"-n", "0"}, 2, "want at least 1"},
		{[]string{"-size", "4", "-level", "hard"}, 2, "4x4 puzzles go up to easy"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-size", "16", "-timeout", "1ms", "-seed", "1"}, 1, "gave up"},
	}
	for _, tt := range tests {
		args := append([]string{"generate"}, tt.args...)
		code, out, errOut := runGenCmd(t, args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v = %d, stdout %q, stderr %q; want %d and %q", args, code, out, errOut, tt.code, tt.want)
		}
	}
}
