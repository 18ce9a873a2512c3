package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubot/render"
	"sudokubot/sudoku"
)

func runReadCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), append([]string{"read"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

// mustBoardPNG draws puzzle with the project's renderer into a file.
func mustBoardPNG(t *testing.T, puzzle string, theme render.Theme) string {
	t.Helper()
	g, err := sudoku.Parse(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	data, err := render.New(g).PNG(render.ImageOptions{Theme: theme})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "board.png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadBoard(t *testing.T) {
	want := strings.ReplaceAll(renderTestPuzzle, "0", ".")
	for _, theme := range []render.Theme{render.Light, render.Dark} {
		t.Run(theme.String(), func(t *testing.T) {
			path := mustBoardPNG(t, renderTestPuzzle, theme)
			code, out, errOut := runReadCmd(t, path)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != 0 || len(lines) != 2 || lines[0] != want || !strings.HasPrefix(lines[1], "sure") {
				t.Errorf("read %s = %d, %q (stderr %q); want 0 and %s, sure", theme, code, out, errOut, want)
			}
			code, out, _ = runReadCmd(t, "-json", path)
			var got struct {
				Grid   string
				Sure   bool
				Unsure []string
				Cells  []struct{ Digit int }
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("read -json: %v\n%s", err, out)
			}
			if code != 0 || got.Grid != want || !got.Sure || len(got.Unsure) != 0 || len(got.Cells) != 81 || got.Cells[0].Digit != 5 {
				t.Errorf("read -json = %d, %+v", code, got)
			}
		})
	}
}

// TestReadSizes: 6x6 and 16x16 boards are read at their size, in the
// symbols sudoku.Parse reads back.
func TestReadSizes(t *testing.T) {
	for _, shape := range []sudoku.Shape{sudoku.Shape6, sudoku.Shape16} {
		t.Run(shape.String(), func(t *testing.T) {
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: shape, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			data, err := render.New(p.Grid).PNG(render.ImageOptions{Theme: render.Light})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "board.png")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runReadCmd(t, path)
			if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || lines[0] != p.Grid.String() {
				t.Errorf("read = %d, %q (stderr %q); want 0 and %s", code, out, errOut, p.Grid.String())
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
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
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"no grid", []string{blank}, 3, "no Sudoku grid found"},
		{"not a picture", []string{text}, 2, "not a PNG, JPEG or WebP picture"},
		{"missing file", []string{filepath.Join(dir, "nope.png")}, 2, "nope.png"},
		{"no file", nil, 2, "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runReadCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.inStderr) || out != "" {
				t.Errorf("read %v = %d, stdout %q, stderr %q; want %d and %q", tt.args, code, out, errOut, tt.code, tt.inStderr)
			}
		})
	}
}

// TestCommandsTakePictures: solve, hint, rate and render read a picture
// FILE as they read a text one.
func TestCommandsTakePictures(t *testing.T) {
	path := mustBoardPNG(t, renderTestPuzzle, render.Light)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"solve", "-line", path}, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"},
		{[]string{"hint", path}, "a6 = 8"},
		{[]string{"rate", path}, "level:"},
		{[]string{"render", "-text", path}, "5"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), tt.args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
		if code != 0 || !strings.Contains(strings.ToLower(out.String()), tt.want) {
			t.Errorf("%v = %d, %q (stderr %q); want it to say %q", tt.args, code, out.String(), errOut.String(), tt.want)
		}
	}
}

// TestRead25x25: a 25x25 the bot drew reads back in its own letters (A-Y):
// every cell not named unsure is right, as text and as JSON.
func TestRead25x25(t *testing.T) {
	p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: sudoku.Shape25, Level: sudoku.Easy, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := render.New(p.Grid).PNG(render.ImageOptions{Theme: render.Light})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "board25.png")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runReadCmd(t, "-json", path)
	var got struct {
		Grid   string
		Size   int
		Unsure []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code > 1 || got.Size != 25 || len(got.Grid) != 625 {
		t.Fatalf("read -json 25x25 = %d, %.200q (stderr %q), %v; want 0 or 1 and a 25x25 grid", code, out, errOut, err)
	}
	unsure := map[string]bool{}
	for _, c := range got.Unsure {
		unsure[c] = true
	}
	want := p.Grid.String()
	for i := range want {
		if name := sudoku.Shape25.CellName(i); got.Grid[i] != want[i] && !unsure[name] {
			t.Errorf("read -json 25x25: %s read %q while sure, want %q", name, got.Grid[i], want[i])
		}
	}
}
