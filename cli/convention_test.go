package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sudokubot/render"
	"sudokubot/vision"
)

// engineCommands are the sub-commands that do engine work, each of which
// takes -timeout.
var engineCommands = map[string]bool{
	"solve": true, "hint": true, "rate": true, "generate": true, "daily": true,
	"render": true, "read": true, "console": true,
}

func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

// TestSubcommandConvention holds every sub-command to the one convention:
// -h prints the help on stdout in the shared layout and exits 0; a bad flag
// or a bad value prints one line saying what was wrong, then the same help,
// on stderr, and exits 2; every engine command takes -timeout.
func TestSubcommandConvention(t *testing.T) {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for name := range engineCommands {
		if _, ok := commands[name]; !ok {
			t.Errorf("engine command %q is not in the commands table", name)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			code, help, errOut := runCmd(t, "", name, "-h")
			if code != 0 || errOut != "" {
				t.Fatalf("%s -h = %d, stderr %q; want 0 and nothing on stderr", name, code, errOut)
			}
			lines := strings.Split(help, "\n")
			if len(lines) < 5 || !strings.HasPrefix(lines[0], "usage: sudokubot "+name) || lines[1] != "" ||
				lines[2] != sentence(commands[name].summary) {
				t.Errorf("%s -h starts %q; want \"usage: sudokubot %s …\", an empty line, then %q", name, lines[:min(3, len(lines))], name, sentence(commands[name].summary))
			}
			if !regexp.MustCompile(`(?m)^\nflags:( none)?$`).MatchString(help) {
				t.Errorf("%s -h has no \"flags:\" section after an empty line:\n%s", name, help)
			}
			hasTimeout := strings.Contains(help, "\n  -timeout duration\n")
			if engineCommands[name] && !hasTimeout {
				t.Errorf("%s -h lists no -timeout; every command doing engine work takes one:\n%s", name, help)
			}

			code, out, errOut := runCmd(t, "", name, "-no-such-flag")
			want := "sudokubot " + name + ": -no-such-flag: no such flag\n\n" + help
			if code != 2 || out != "" || errOut != want {
				t.Errorf("%s -no-such-flag = %d, stdout %q, stderr\n%s\nwant 2, nothing on stdout, and on stderr\n%s", name, code, out, errOut, want)
			}
			if !hasTimeout {
				return
			}
			code, out, errOut = runCmd(t, "", name, "-timeout", "soon")
			first, _, _ := strings.Cut(errOut, "\n")
			if wantFirst := "sudokubot " + name + ": -timeout \"soon\": want a duration such as 10s or 2m"; code != 2 || out != "" || first != wantFirst {
				t.Errorf("%s -timeout soon = %d, stdout %q, first line of stderr %q; want 2 and %q", name, code, out, first, wantFirst)
			}
		})
	}
}

// TestExitCodes: the exit codes the README lists, as the binary's Run
// returns them.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.png")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 200, 120))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blank, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := strings.Repeat(".", 81)
	tests := []struct {
		stdin string
		args  []string
		code  int
	}{
		{cliWiki, []string{"solve", "-line"}, 0},
		{empty, []string{"solve", "-line"}, 1},
		{"hello", []string{"solve"}, 1},
		{cliWiki, []string{"solve", "extra", "args"}, 2},
		{cliWiki, []string{"hint", "-reveal", "1"}, 0},
		{empty, []string{"hint"}, 1},
		{cliWiki, []string{"hint", "-reveal", "4"}, 2},
		{cliWiki, []string{"rate"}, 0},
		{empty, []string{"rate"}, 1},
		{"", []string{"generate", "-size", "4", "-seed", "1"}, 0},
		{"", []string{"generate", "-level", "hard", "-size", "4"}, 2},
		{"", []string{"daily", "-date", "2026-01-01", "-level", "easy", "-secret", "s"}, 0},
		{"", []string{"daily", "-date", "yesterday"}, 2},
		{"", []string{"read", blank}, 3},
		{"", []string{"read"}, 2},
		{cliWiki, []string{"render", "-text"}, 0},
		{"", []string{"nosuchcommand"}, 2},
	}
	for _, tt := range tests {
		code, _, errOut := runCmd(t, tt.stdin, tt.args...)
		if code != tt.code {
			t.Errorf("%v = %d (stderr %q), want %d", tt.args, code, errOut, tt.code)
		}
	}
}

// TestJSONOutput: every -json output parses, its keys are lower-case, and
// it names cells as the boards do (A6); read -json answers in JSON also
// when there is no grid to show.
func TestJSONOutput(t *testing.T) {
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.png")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 200, 120))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blank, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "grid.txt")
	if err := os.WriteFile(text, []byte(renderTestPuzzle), 0o644); err != nil {
		t.Fatal(err)
	}
	board := mustBoardPNG(t, renderTestPuzzle, render.Light)
	cellName := regexp.MustCompile(`^[A-Y][0-9]{1,2}$`)
	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		wantError bool // an object with an "error" field
	}{
		{"hint", cliWiki, []string{"hint", "-json"}, 0, false},
		{"read board", "", []string{"read", "-json", board}, 0, false},
		{"read no grid", "", []string{"read", "-json", blank}, 3, true},
		{"read not a picture", "", []string{"read", "-json", text}, 2, true},
		{"read missing file", "", []string{"read", "-json", filepath.Join(dir, "nope.png")}, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tt.stdin, tt.args...)
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%v printed %q (stderr %q), not JSON: %v", tt.args, out, errOut, err)
			}
			if code != tt.code {
				t.Errorf("%v = %d, want %d", tt.args, code, tt.code)
			}
			obj, _ := v.(map[string]any)
			if msg, _ := obj["error"].(string); tt.wantError != (msg != "") {
				t.Errorf("%v: error field %q, want one: %v", tt.args, msg, tt.wantError)
			}
			walkJSON(v, func(key string, val any) {
				if key != strings.ToLower(key) {
					t.Errorf("%v: key %q is not lower-case", tt.args, key)
				}
				if s, ok := val.(string); ok && key == "cell" && !cellName.MatchString(s) {
					t.Errorf("%v: cell %q is not named as on the boards (A6)", tt.args, s)
				}
			})
		})
	}
}

// walkJSON calls f with every key of every object in v, and its value.
func walkJSON(v any, f func(key string, val any)) {
	switch v := v.(type) {
	case map[string]any:
		for k, val := range v {
			f(k, val)
			walkJSON(val, f)
		}
	case []any:
		for _, val := range v {
			walkJSON(val, f)
		}
	}
}

// TestReadJSONKinds: read -json says of every cell whether it holds a
// given, an entry, notes or nothing, and the givens are the puzzle's.
func TestReadJSONKinds(t *testing.T) {
	board := mustBoardPNG(t, renderTestPuzzle, render.Light)
	code, out, errOut := runCmd(t, "", "read", "-json", board)
	if code != 0 {
		t.Fatalf("read -json = %d (stderr %q), want 0", code, errOut)
	}
	var res struct {
		Grid  string `json:"grid"`
		Cells []struct {
			Cell  string `json:"cell"`
			Kind  string `json:"kind"`
			Digit int    `json:"digit"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("read -json printed %q: %v", out, err)
	}
	if len(res.Cells) != len(res.Grid) {
		t.Fatalf("read -json gave %d cells for a grid of %d", len(res.Cells), len(res.Grid))
	}
	for i, c := range res.Cells {
		want := "empty"
		if res.Grid[i] != '.' {
			want = "given"
		}
		if c.Kind != want {
			t.Errorf("cell %s (%d) has kind %q, want %q", c.Cell, c.Digit, c.Kind, want)
		}
	}
}

func TestCellKind(t *testing.T) {
	tests := []struct {
		cell vision.Cell
		want string
	}{
		{vision.Cell{Digit: 5}, "given"},
		{vision.Cell{Digit: 5, Entry: true}, "entry"},
		{vision.Cell{Pencil: true, Candidates: []int{1, 4}}, "notes"},
		{vision.Cell{}, "empty"},
	}
	for _, tt := range tests {
		if got := cellKind(tt.cell); got != tt.want {
			t.Errorf("cellKind(%+v) = %q, want %q", tt.cell, got, tt.want)
		}
	}
}
