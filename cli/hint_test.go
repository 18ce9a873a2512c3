package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubot/sudoku"
)

// runLogicCmd runs a sub-command with stdin and returns its exit code and
// output.
func runLogicCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

const cliWiki = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

func TestHintCommandLevels(t *testing.T) {
	tests := []struct {
		level string
		want  string
	}{
		{"1", "Look for a hidden single"},
		{"2", "where can 8 go in box 2?"},
		{"3", "In box 2, 8 fits only in A6, so A6 = 8."},
	}
	for _, tt := range tests {
		t.Run("level"+tt.level, func(t *testing.T) {
			code, out, errOut := runLogicCmd(t, cliWiki+"\n", "hint", "-reveal", tt.level)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Errorf("hint -reveal %s = %d, %q (stderr %q); want output containing %q", tt.level, code, out, errOut, tt.want)
			}
		})
	}
}

func TestHintCommandJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(path, []byte(cliWiki), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLogicCmd(t, "", "hint", "-json", path)
	if code != 0 {
		t.Fatalf("hint -json = %d, stderr %q", code, errOut)
	}
	var got struct {
		Technique    string                         `json:"technique"`
		Placements   []struct{ Cell, Value string } `json:"placements"`
		Eliminations []struct{ Cell, Value string } `json:"eliminations"`
		Explanation  string                         `json:"explanation"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("hint -json printed %q: %v", out, err)
	}
	if got.Technique != "Hidden single" || len(got.Placements) != 1 || got.Placements[0].Cell != "A6" ||
		got.Placements[0].Value != "8" || got.Eliminations == nil || got.Explanation == "" {
		t.Errorf("hint -json = %+v", got)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("hint -json printed more than one line: %q", out)
	}
}

// TestHintCommandJSONSteps: -json lists every step up to and including the
// next placement, each with its conclusions; the steps before the last
// only remove candidates.
func TestHintCommandJSONSteps(t *testing.T) {
	// A puzzle whose next cell needs candidates removed first.
	const hard = "7.8...3...3.6.1...5..738....4.....263...8.......1...93.9.2....4....7.5..........."
	path := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(path, []byte(hard), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLogicCmd(t, "", "hint", "-json", path)
	if code != 0 {
		t.Fatalf("hint -json = %d, stderr %q", code, errOut)
	}
	var got struct {
		Technique string `json:"technique"`
		Steps     []struct {
			Technique    string                         `json:"technique"`
			Placements   []struct{ Cell, Value string } `json:"placements"`
			Eliminations []struct{ Cell, Value string } `json:"eliminations"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("hint -json printed %q: %v", out, err)
	}
	if len(got.Steps) < 2 || got.Steps[0].Technique != got.Technique {
		t.Fatalf("hint -json steps = %+v, want several, the first at the top level", got.Steps)
	}
	for i, st := range got.Steps {
		last := i == len(got.Steps)-1
		if last != (len(st.Placements) > 0) || (!last && len(st.Eliminations) == 0) {
			t.Errorf("step %d of %d (%s): %d placements, %d eliminations", i+1, len(got.Steps), st.Technique, len(st.Placements), len(st.Eliminations))
		}
	}
}

func TestHintCommandErrors(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"reveal 4", cliWiki, []string{"hint", "-reveal", "4"}, 2, "sudokubot hint: -reveal 4: want 1 (the technique), 2 (where to look) or 3 (the full step)\n"},
		{"old -level", cliWiki, []string{"hint", "-level", "2"}, 2, "how much the hint gives away is -reveal 1|2|3"},
		{"empty input", "", []string{"hint"}, 1, "empty"},
		{"not a puzzle", "hello", []string{"hint"}, 1, "cells"},
		{"missing file", "", []string{"hint", "/does/not/exist"}, 1, "no such file"},
		{"two solutions", strings.Repeat(".", 81), []string{"hint"}, 1, "more than one solution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runLogicCmd(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("%v = %d, stderr %q; want %d and %q", tt.args, code, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestHintCommandReask plays a client of hint -json: it applies every step
// the hint lists to its grid (placements filled, eliminations taken off the
// pencil marks), writes the grid back with its pencil marks and asks again.
// Each answer must move on; after a few rounds the puzzle is further along.
func TestHintCommandReask(t *testing.T) {
	const hard = "7.8...3...3.6.1...5..738....4.....263...8.......1...93.9.2....4....7.5..........."
	g, err := sudoku.Parse(hard)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Steps []struct {
			Placements   []struct{ Cell, Value string } `json:"placements"`
			Eliminations []struct{ Cell, Value string } `json:"eliminations"`
		} `json:"steps"`
	}
	cell := func(name string) int {
		// Cells are named as on the boards: row letter, column number.
		var r rune
		var c int
		if _, err := fmt.Sscanf(name, "%c%d", &r, &c); err != nil || r < 'A' || r > 'I' {
			t.Fatalf("cell %q: %v", name, err)
		}
		return int(r-'A')*9 + c - 1
	}
	start := g.Clues()
	prev := ""
	for round := 0; round < 12; round++ {
		text := sudoku.Format(g)
		code, out, errOut := runLogicCmd(t, text, "hint", "-json")
		if code != 0 {
			t.Fatalf("round %d: hint -json = %d, %s\ninput:\n%s", round, code, errOut, text)
		}
		if out == prev {
			t.Fatalf("round %d: the same answer again: %s", round, out)
		}
		prev = out
		got.Steps = nil
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		for _, st := range got.Steps {
			var step sudoku.Step
			for _, p := range st.Placements {
				step.Placements = append(step.Placements, sudoku.Candidate{Cell: cell(p.Cell), Value: int(p.Value[0] - '0')})
			}
			for _, e := range st.Eliminations {
				step.Eliminations = append(step.Eliminations, sudoku.Candidate{Cell: cell(e.Cell), Value: int(e.Value[0] - '0')})
			}
			if g, err = sudoku.ApplyStep(g, step); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	if g.Clues() < start+5 {
		t.Errorf("after 12 rounds the grid has %d digits, it started with %d; want at least 5 more", g.Clues(), start)
	}
}
