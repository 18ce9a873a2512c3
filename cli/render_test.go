package cli

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const renderTestPuzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

func runRenderCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), append([]string{"render"}, args...), IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestRenderPNG(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(in, []byte(renderTestPuzzle+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"plain", nil},
		{"dark pencil", []string{"-theme", "dark", "-pencil"}},
		{"solved", []string{"-solve", "-caption", "Daily #1 · easy"}},
		{"big cells", []string{"-cell", "90"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".png")
			args := append(append([]string{"-o", out}, tt.args...), in)
			code, _, stderr := runRenderCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("render %v = exit %d, stderr %q", args, code, stderr)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("decode %s: %v", out, err)
			}
			if w := img.Bounds().Dx(); w < 600 || w > 1000 {
				t.Errorf("image is %d px wide, want 600-1000", w)
			}
		})
	}
}

func TestRenderStdout(t *testing.T) {
	code, out, stderr := runRenderCmd(t, renderTestPuzzle, "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	img, err := png.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatalf("stdout is not a PNG: %v", err)
	}
	// The default is the dark theme the bot sends.
	if r, g, b, _ := img.At(1, 1).RGBA(); r>>8 != 0x1e || g>>8 != 0x21 || b>>8 != 0x24 {
		t.Errorf("corner pixel = #%02x%02x%02x, want the dark background #1e2124", r>>8, g>>8, b>>8)
	}
}

func TestRenderText(t *testing.T) {
	code, out, stderr := runRenderCmd(t, renderTestPuzzle, "-text", "-solve")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"puzzle\n", "solution\n", "A │ 5 3 4 │ 6 7 8 │ 9 1 2 │", "A │ 5 3 . │ . 7 . │ . . . │"} {
		if !strings.Contains(out, want) {
			t.Errorf("render -text -solve output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runRenderCmd(t, renderTestPuzzle, "-text", "-ascii")
	if code != 0 || !strings.Contains(out, "A | 5 3 . | . 7 . | . . . |") {
		t.Errorf("render -text -ascii = exit %d:\n%s", code, out)
	}
}

func TestRenderErrors(t *testing.T) {
	clash := "55" + renderTestPuzzle[2:]
	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"bad theme", renderTestPuzzle, []string{"-theme", "pink", "-o", "-"}, 2, "unknown theme"},
		{"not a puzzle", "hello", []string{"-o", "-"}, 1, "standard input"},
		{"missing file", "", []string{"-o", "-", "/nonexistent/p.txt"}, 1, "no such file"},
		{"two files", "", []string{"a", "b"}, 2, "one puzzle file"},
		{"clash solve", clash, []string{"-solve", "-o", "-"}, 1, "clash"},
		{"no solution", "12345678." + "........9" + strings.Repeat(".", 63), []string{"-solve", "-o", "-"}, 1, "no solution"},
		{"bad cell", renderTestPuzzle, []string{"-cell", "3", "-o", "-"}, 1, "cell size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runRenderCmd(t, tt.stdin, tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("render %v = exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, stderr, tt.wantCode, tt.wantErr)
			}
		})
	}
	// A clashing puzzle without -solve is drawn, clashes named.
	code, out, stderr := runRenderCmd(t, clash, "-o", "-")
	if code != 0 || !strings.Contains(stderr, "5 is twice in row A") {
		t.Errorf("clashing puzzle: exit %d, stderr %q", code, stderr)
	}
	if _, err := png.Decode(strings.NewReader(out)); err != nil {
		t.Errorf("clashing puzzle: stdout is not a PNG: %v", err)
	}
}

// TestRenderTextRoundTrip feeds render's own text board back to it: what
// the bot prints, a player can paste.
func TestRenderTextRoundTrip(t *testing.T) {
	for _, flags := range [][]string{{"-text"}, {"-text", "-ascii"}, {"-text", "-compact"}} {
		code, text, stderr := runRenderCmd(t, renderTestPuzzle, flags...)
		if code != 0 {
			t.Fatalf("render %v: exit %d, %s", flags, code, stderr)
		}
		code, again, stderr := runRenderCmd(t, text, flags...)
		if code != 0 || again != text {
			t.Errorf("render %v of its own output: exit %d, %s\n%s\nwant\n%s", flags, code, stderr, again, text)
		}
	}
}
