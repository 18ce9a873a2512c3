package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// source is a picture a simulated photo can be taken of.
type source struct {
	img  image.Image
	grid string
	name string
	// entries tells givens from entries (see truth.addEntries); "" when
	// not recorded.
	entries string
}

// renderShot draws a board with sudokubot's renderer.
func renderShot(rng *rand.Rand, p puzzle, i int, out string, t *truth) (source, error) {
	s := playState(rng, p, rng.IntN(25), rng.IntN(3) == 0)
	puz, err := sudoku.Parse(p.givens)
	if err != nil {
		return source{}, err
	}
	pos, err := sudoku.Parse(s.line())
	if err != nil {
		return source{}, err
	}
	b := render.Playing(puz, pos)
	if s.pencil != [81]uint16{} {
		b.Pencil = make([]uint32, 81)
		for k, m := range s.pencil {
			b.Pencil[k] = uint32(m)
		}
	}
	for k := rng.IntN(4); k > 0; k-- {
		marks := []render.Mark{render.Target, render.Cause, render.Tint, render.Differ, render.Clash}
		b.MarkCells(marks[rng.IntN(len(marks))], rng.IntN(81), rng.IntN(81))
	}
	if rng.IntN(4) == 0 {
		b.Caption = "Daily #" + fmt.Sprint(300+i) + " · hard"
	}
	theme := render.Light
	if i%2 == 1 {
		theme = render.Dark
	}
	img, err := b.Image(render.ImageOptions{Theme: theme, CellSize: 30 + rng.IntN(60)})
	if err != nil {
		return source{}, err
	}
	name := fmt.Sprintf("screens/render-%s-%02d.png", theme, i)
	kind := "render-" + theme.String()
	if s.pencil != [81]uint16{} {
		kind += "-pencil"
	}
	if err := writePNG(filepath.Join(out, name), img); err != nil {
		return source{}, err
	}
	t.add(name, s.line(), kind)
	return source{img: img, grid: s.line(), name: name}, nil
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// A style is one look of an HTML grid: colours and font.
type style struct {
	name                         string
	page, paper, given, entry    string
	thin, thick, highlight, mark string
}

var styles = []style{
	{"classic", "#ffffff", "#ffffff", "#000000", "#1a4fd0", "#999999", "#000000", "#e3ecf7", "#666666"},
	{"dark", "#121212", "#1e1e1e", "#e8e8e8", "#8ab4f8", "#444444", "#bbbbbb", "#2b3a4a", "#9a9a9a"},
	{"blueapp", "#f2f5fa", "#ffffff", "#344861", "#325aaf", "#bfc6d4", "#344861", "#e2ebf3", "#6e7c8c"},
	{"sepia", "#efe6d2", "#f7f0df", "#4a3620", "#8a2f1b", "#c9b48f", "#5b4327", "#ead9b0", "#7a6a55"},
	{"contrast", "#000000", "#000000", "#ffff00", "#00ffff", "#777777", "#ffffff", "#333300", "#bbbb00"},
	{"pastel", "#faf7ff", "#ffffff", "#4b2a83", "#c2185b", "#dcd0f5", "#7e57c2", "#f1e9ff", "#8e7cc3"},
	{"terminal", "#001000", "#000800", "#33ff66", "#ffcc33", "#1f5f2f", "#33aa55", "#0d2a14", "#2a9a4a"},
	{"grey", "#fafafa", "#ffffff", "#222222", "#555555", "#dddddd", "#777777", "#f0f0f0", "#888888"},
}

// Fonts the HTML grids use: none of them is among the training fonts.
var htmlFonts = []struct{ family, weight, styleName string }{
	{"Noto Sans", "400", "normal"}, {"Noto Sans", "700", "normal"}, {"Noto Serif", "400", "normal"},
	{"Noto Serif", "700", "normal"}, {"Noto Sans Display", "500", "normal"}, {"Roboto", "400", "normal"},
	{"Roboto", "300", "normal"}, {"Roboto", "900", "normal"}, {"Open Sans", "400", "normal"},
	{"Open Sans", "800", "normal"}, {"Carlito", "400", "normal"}, {"Caladea", "700", "normal"},
	{"Roboto Condensed", "400", "normal"}, {"Noto Serif Display", "400", "italic"},
}

// htmlShot lays out an app-like page around a grid and screenshots it.
func htmlShot(rng *rand.Rand, p puzzle, i int, out, chromium string, t *truth) (source, error) {
	st := styles[i%len(styles)]
	f := htmlFonts[rng.IntN(len(htmlFonts))]
	s := playState(rng, p, rng.IntN(20), rng.IntN(3) == 0)
	phone := i%6 == 0
	width, height, scale := 420+rng.IntN(200), 0, 1
	if phone {
		width, scale = 540, 2 // a 1080x2400 phone screenshot
	}
	cellPx := (width - 40) / 9
	height = cellPx*9 + 220 + rng.IntN(200)
	if phone {
		height = 1200
	}
	sel := rng.IntN(81)
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:%s;font-family:'%s';font-weight:%s;font-style:%s;color:%s}
.hdr{padding:10px 20px;font-size:18px;display:flex;justify-content:space-between}
table{border-collapse:collapse;margin:%dpx auto;background:%s}
td{width:%dpx;height:%dpx;border:1px solid %s;text-align:center;vertical-align:middle;font-size:%dpx;padding:0;position:relative}
td.e{color:%s}td.h{background:%s}
td.r{border-right:%dpx solid %s}td.b{border-bottom:%dpx solid %s}
table{border:%dpx solid %s}
.pm{display:grid;grid-template-columns:repeat(3,1fr);font-size:%dpx;line-height:1;color:%s;height:100%%;align-items:center}
.pad{display:flex;justify-content:center;gap:10px;font-size:28px;margin-top:20px}
</style></head><body>`,
		st.page, f.family, f.weight, f.styleName, st.given,
		8+rng.IntN(40), st.paper, cellPx, cellPx, st.thin, cellPx*(55+rng.IntN(25))/100,
		st.entry, st.highlight, 2+rng.IntN(2), st.thick, 2+rng.IntN(2), st.thick,
		2+rng.IntN(3), st.thick, max(8, cellPx/4), st.mark)
	if rng.IntN(2) == 0 || phone {
		fmt.Fprintf(&b, `<div class="hdr"><span>Sudoku · Expert</span><span>Mistakes 0/3</span><span>05:%02d</span></div>`, rng.IntN(60))
	}
	b.WriteString("<table>")
	for r := 0; r < 9; r++ {
		b.WriteString("<tr>")
		for c := 0; c < 9; c++ {
			k := r*9 + c
			var cls []string
			if c == 2 || c == 5 {
				cls = append(cls, "r")
			}
			if r == 2 || r == 5 {
				cls = append(cls, "b")
			}
			if s.entries[k] {
				cls = append(cls, "e")
			}
			if k/9 == sel/9 || k%9 == sel%9 {
				cls = append(cls, "h")
			}
			fmt.Fprintf(&b, `<td class="%s">`, strings.Join(cls, " "))
			switch {
			case s.values[k] != 0:
				fmt.Fprintf(&b, "%d", s.values[k])
			case s.pencil[k] != 0:
				b.WriteString(`<div class="pm">`)
				for d := 0; d < 9; d++ {
					if s.pencil[k]&(1<<d) != 0 {
						fmt.Fprintf(&b, "<span>%d</span>", d+1)
					} else {
						b.WriteString("<span>&nbsp;</span>")
					}
				}
				b.WriteString("</div>")
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	if phone || rng.IntN(3) == 0 {
		b.WriteString(`<div class="pad">`)
		for d := 1; d <= 9; d++ {
			fmt.Fprintf(&b, "<span>%d</span>", d)
		}
		b.WriteString("</div>")
	}
	b.WriteString("</body></html>")

	img, err := screenshot(chromium, b.String(), width, height, scale)
	if err != nil {
		return source{}, err
	}
	name := fmt.Sprintf("screens/html-%s-%02d.png", st.name, i)
	if err := writePNG(filepath.Join(out, name), img); err != nil {
		return source{}, err
	}
	kind := fmt.Sprintf("html-%s-%s-%s", st.name, strings.ReplaceAll(f.family, " ", ""), f.weight)
	if s.pencil != [81]uint16{} {
		kind += "-pencil"
	}
	t.add(name, s.line(), kind)
	return source{img: img, grid: s.line(), name: name}, nil
}

// screenshot has headless Chromium draw page at width×height CSS pixels,
// scale device pixels to one.
func screenshot(chromium, page string, width, height, scale int) (image.Image, error) {
	dir, err := os.MkdirTemp("", "visiongen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "p.html")
	shot := filepath.Join(dir, "s.png")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-first-run", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "u"),
		fmt.Sprintf("--force-device-scale-factor=%d", scale),
		fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+shot, "file://"+file)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("chromium: %v: %s", err, msg)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		return nil, err
	}
	return png.Decode(bytes.NewReader(data))
}
