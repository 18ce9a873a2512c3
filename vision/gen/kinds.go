package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// runKinds makes the pictures of the failure kinds issue #30 names, n of
// each, under out with their own truth.txt: phone screenshots of apps in
// a night theme whose lines are one pixel wide and barely lighter than the
// background (night), and photos of screens in a dim room at a steep tilt,
// with moiré and glare (screenphoto), of apps' screenshots in the styles
// of the main set's HTML ones and of sudokubot's boards in both themes.
func runKinds(out string, seed uint64, n int, chromium string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 31))
	var t truth
	if err := os.MkdirAll(filepath.Join(out, "screens"), 0o755); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Seed: rng.Uint64()})
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if _, err := nightShot(rng, p, i, out, chromium, &t); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		var src source
		if i%3 == 2 {
			// One in three of sudokubot's own boards, as a monitor shows them.
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Seed: rng.Uint64()})
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			pos := p.Grid.Clone()
			for k := rng.IntN(15); k > 0; k-- {
				if c := rng.IntN(81); pos.Cells[c] == 0 {
					pos.Cells[c] = p.Solution.Cells[c]
				}
			}
			theme := render.Light
			if i%2 == 1 {
				theme = render.Dark
			}
			img, err := render.Playing(p.Grid, pos).Image(render.ImageOptions{Theme: theme, CellSize: 40 + rng.IntN(40)})
			if err != nil {
				return err
			}
			name := fmt.Sprintf("board-%s-%02d.png", theme, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			line, mask := pos.String(), entryMask(p.Grid, pos)
			t.addEntries(name, line, "board-"+theme.String(), mask)
			src = source{img, line, name, mask}
		} else {
			// An app's screen (its lines as apps draw them: the night
			// shots' one-pixel lines vanish in such a photo, and so
			// does a person's reading of them).
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Seed: rng.Uint64()})
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			s, err := htmlShot(rng, puzzle{digits(p.Grid), digits(p.Solution)}, i, out, chromium, &t)
			if err != nil {
				return err
			}
			src = s
		}
		o := photoOptions{W: 960, H: 1280, screen: true, kind: "screenphoto"}
		if err := photoWith(rng, src, fmt.Sprintf("screenphoto-%02d.jpg", i), out, &t, o); err != nil {
			return err
		}
	}
	data := "# file\tgrid (. blank)\tkind\tentries — made by go run ./vision/gen -kinds N\n" + strings.Join(t.lines, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(data), 0o644)
}

// A nightTheme is an app's night colours: the page, the grid's lines
// (thin ones hardly lighter than the page), givens, entries, the selected
// cell's row, column and box, pencil marks, and the keys below.
type nightTheme struct {
	name                                      string
	page, thin, thick, given, entry, hi, mark string
}

var nightThemes = []nightTheme{
	{"oled", "#000000", "#1c1c1c", "#333333", "#d0d0d0", "#5c9eff", "#0e141c", "#8a8a8a"},
	{"grey", "#121212", "#262626", "#3c3c3c", "#e0e0e0", "#7fb0ff", "#1b2430", "#9e9e9e"},
	{"navy", "#0d1321", "#1d273a", "#33415c", "#c9d1e0", "#f0a35e", "#152036", "#7d879c"},
	{"warm", "#1a1410", "#2a221b", "#443a2f", "#d9c8b0", "#e0a060", "#231b14", "#8f806d"},
	{"slate", "#1e1f22", "#2e3034", "#4a4d52", "#dcdcdc", "#82b1ff", "#263240", "#9aa0a6"},
}

// nightShot screenshots, as a 1080x2400 phone does (3 device pixels to a
// CSS pixel), an app in a night theme: lines one device pixel wide, the
// box lines one or two, all low in contrast; a header, the selected cell's
// row, column and box lit, a row of keys and tools below.
func nightShot(rng *rand.Rand, p sudoku.Puzzle, i int, out, chromium string, t *truth) (source, error) {
	th := nightThemes[i%len(nightThemes)]
	f := htmlFonts[rng.IntN(len(htmlFonts))]
	pos := p.Grid.Clone()
	for k := rng.IntN(25); k > 0; k-- {
		if c := rng.IntN(81); pos.Cells[c] == 0 {
			pos.Cells[c] = p.Solution.Cells[c]
		}
	}
	marks := make([]uint32, 81)
	pencil := rng.IntN(3) == 0
	if pencil {
		for c, m := range pos.Candidates() {
			if pos.Cells[c] == 0 && rng.IntN(3) > 0 {
				marks[c] = m
			}
		}
	}
	// In device pixels: the cell, the lines, where the grid starts.
	const dpr = 3
	cell := 114 + rng.IntN(6)
	thickW := 1 + rng.IntN(2)
	x0 := (1080 - 9*cell) / 2
	y0 := 420 + rng.IntN(200)
	px := func(d int) string { return fmt.Sprintf("%.4fpx", float64(d)/dpr) }
	sel := rng.IntN(81)
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:%s;font-family:'%s';font-weight:%s;font-style:%s;color:%s;width:360px;height:800px;position:relative;overflow:hidden}
div{position:absolute}
.c{display:flex;align-items:center;justify-content:center;font-size:%s}
.m{display:grid;grid-template-columns:repeat(3,1fr);font-size:%s;line-height:1;color:%s;text-align:center;align-items:center}
</style></head><body>`, th.page, f.family, f.weight, f.styleName, th.given, px(cell*(55+rng.IntN(20))/100), px(cell/4), th.mark)
	fmt.Fprintf(&b, `<div style="left:16px;top:%s;font-size:15px;opacity:.8">Expert</div><div style="left:140px;top:%s;font-size:15px;opacity:.8">Mistakes: %d/3</div><div style="right:16px;top:%s;font-size:15px;opacity:.8">0%d:%02d</div>`,
		px(y0-110), px(y0-110), rng.IntN(3), px(y0-110), rng.IntN(10), rng.IntN(60))
	fmt.Fprintf(&b, `<div style="left:16px;top:%s;font-size:20px;font-weight:700">Sudoku</div>`, px(y0-260))
	// The selected cell's row, column and box, and the cells holding its
	// digit, lit.
	for c := 0; c < 81; c++ {
		r, k := c/9, c%9
		lit := r == sel/9 || k == sel%9 || r/3 == sel/9/3 && k/3 == sel%9/3
		if lit {
			fmt.Fprintf(&b, `<div style="left:%s;top:%s;width:%s;height:%s;background:%s"></div>`, px(x0+k*cell), px(y0+r*cell), px(cell), px(cell), th.hi)
		}
	}
	// Lines: every one a device pixel; box lines thickW.
	for k := 0; k <= 9; k++ {
		w, col := 1, th.thin
		if k%3 == 0 {
			w, col = thickW, th.thick
		}
		fmt.Fprintf(&b, `<div style="left:%s;top:%s;width:%s;height:%s;background:%s"></div>`, px(x0), px(y0+k*cell), px(9*cell+w), px(w), col)
		fmt.Fprintf(&b, `<div style="left:%s;top:%s;width:%s;height:%s;background:%s"></div>`, px(x0+k*cell), px(y0), px(w), px(9*cell+w), col)
	}
	for c := 0; c < 81; c++ {
		r, k := c/9, c%9
		at := fmt.Sprintf("left:%s;top:%s;width:%s;height:%s", px(x0+k*cell), px(y0+r*cell), px(cell), px(cell))
		switch {
		case pos.Cells[c] != 0:
			col := th.given
			if p.Grid.Cells[c] == 0 {
				col = th.entry
			}
			fmt.Fprintf(&b, `<div class="c" style="%s;color:%s">%d</div>`, at, col, pos.Cells[c])
		case marks[c] != 0:
			fmt.Fprintf(&b, `<div class="m" style="%s">`, at)
			for d := 0; d < 9; d++ {
				if marks[c]&(1<<d) != 0 {
					fmt.Fprintf(&b, "<span>%d</span>", d+1)
				} else {
					b.WriteString("<span>&nbsp;</span>")
				}
			}
			b.WriteString("</div>")
		}
	}
	// Tools and a row of keys under the grid.
	below := y0 + 9*cell + 90
	for k, tool := range []string{"Undo", "Erase", "Notes", "Hint"} {
		fmt.Fprintf(&b, `<div style="left:%dpx;top:%s;font-size:13px;opacity:.7">%s</div>`, 30+k*82, px(below), tool)
	}
	for d := 1; d <= 9; d++ {
		fmt.Fprintf(&b, `<div style="left:%dpx;top:%s;font-size:30px;color:%s">%d</div>`, 14+(d-1)*38, px(below+120), th.entry, d)
	}
	b.WriteString("</body></html>")
	img, err := screenshot(chromium, b.String(), 360, 800, dpr)
	if err != nil {
		return source{}, err
	}
	name := fmt.Sprintf("night-%s-%02d.png", th.name, i)
	if err := writePNG(filepath.Join(out, name), img); err != nil {
		return source{}, err
	}
	kind := fmt.Sprintf("night-%s-%s-%s", th.name, strings.ReplaceAll(f.family, " ", ""), f.weight)
	if pencil {
		kind += "-pencil"
	}
	line, mask := pos.String(), entryMask(p.Grid, pos)
	t.addEntries(name, line, kind, mask)
	return source{img, line, name, mask}, nil
}

// digits writes a 9x9 grid as puzzle's 81 figures, 0 for blank.
func digits(g *sudoku.Grid) string {
	b := make([]byte, len(g.Cells))
	for i, v := range g.Cells {
		b[i] = byte('0' + v)
	}
	return string(b)
}
