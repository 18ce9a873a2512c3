package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// runNegatives makes pictures with a grid in them that is no Sudoku, which
// the reader must answer "no grid": crosswords, month calendars,
// chessboards, tables of figures and keypads, n of each, in light and dark
// colours. They go under out with a list of them (file, kind).
func runNegatives(out string, seed uint64, n int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 30))
	c := &canvasMaker{rng: rng}
	var list []string
	for _, kind := range []struct {
		name string
		draw func(c *canvasMaker, dark bool) (*image.RGBA, error)
	}{
		{"crossword", (*canvasMaker).crossword},
		{"calendar", (*canvasMaker).calendar},
		{"chessboard", (*canvasMaker).chessboard},
		{"table", (*canvasMaker).table},
		{"keypad", (*canvasMaker).keypad},
	} {
		for i := 0; i < n; i++ {
			img, err := kind.draw(c, i%2 == 1)
			if err != nil {
				return fmt.Errorf("%s: %w", kind.name, err)
			}
			name := fmt.Sprintf("%s-%d.png", kind.name, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			list = append(list, name+"\t"+kind.name)
		}
	}
	more, err := moreNegatives(out, seed)
	if err != nil {
		return err
	}
	list = append(list, more...)
	data := "# file\tkind — pictures with no Sudoku, made by go run ./vision/gen -negatives N\n" + strings.Join(list, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "list.txt"), []byte(data), 0o644)
}

// canvasMaker draws the negative pictures.
type canvasMaker struct {
	rng   *rand.Rand
	faces map[faceKey]font.Face
}

type faceKey struct {
	bold bool
	px   int
}

func (c *canvasMaker) face(bold bool, px int) (font.Face, error) {
	k := faceKey{bold, px}
	if f, ok := c.faces[k]; ok {
		return f, nil
	}
	ttf := goregular.TTF
	if bold {
		ttf = gobold.TTF
	}
	sf, err := opentype.Parse(ttf)
	if err != nil {
		return nil, err
	}
	f, err := opentype.NewFace(sf, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	if c.faces == nil {
		c.faces = map[faceKey]font.Face{}
	}
	c.faces[k] = f
	return f, nil
}

// palette is a picture's colours: paper, ink, and a fill.
type palette struct{ paper, ink, fill, line color.RGBA }

func (c *canvasMaker) palette(dark bool) palette {
	if dark {
		return palette{color.RGBA{30, 32, 36, 255}, color.RGBA{230, 230, 230, 255}, color.RGBA{90, 96, 104, 255}, color.RGBA{150, 150, 160, 255}}
	}
	return palette{color.RGBA{255, 255, 255, 255}, color.RGBA{20, 20, 20, 255}, color.RGBA{40, 40, 40, 255}, color.RGBA{120, 120, 120, 255}}
}

func newCanvas(w, h int, bg color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return img
}

func fill(img *image.RGBA, r image.Rectangle, col color.RGBA) {
	draw.Draw(img, r, image.NewUniform(col), image.Point{}, draw.Src)
}

// text draws s centred on (cx, cy), or with its top-left there when
// !centred.
func (c *canvasMaker) text(img *image.RGBA, s string, px int, bold bool, col color.RGBA, x, y int, centred bool) error {
	f, err := c.face(bold, px)
	if err != nil {
		return err
	}
	d := &font.Drawer{Dst: img, Src: image.NewUniform(col), Face: f}
	m := f.Metrics()
	w := d.MeasureString(s).Round()
	asc := m.Ascent.Round()
	if centred {
		x -= w / 2
		y += (asc - m.Descent.Round()) / 2
		y -= asc / 8
	} else {
		y += asc
	}
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
	return nil
}

// lattice draws the lines of a rows×cols grid of cells cell px square at
// (x0, y0), each thick px wide.
func lattice(img *image.RGBA, x0, y0, rows, cols, cell, thick int, col color.RGBA) {
	for r := 0; r <= rows; r++ {
		fill(img, image.Rect(x0, y0+r*cell-thick/2, x0+cols*cell+thick-thick/2, y0+r*cell+thick-thick/2), col)
	}
	for k := 0; k <= cols; k++ {
		fill(img, image.Rect(x0+k*cell-thick/2, y0, x0+k*cell+thick-thick/2, y0+rows*cell+thick-thick/2), col)
	}
}

// crossword draws a 13x13 or 15x15 crossword with black squares in a
// half-turn symmetric pattern, clue numbers, and some answers filled in.
func (c *canvasMaker) crossword(dark bool) (*image.RGBA, error) {
	n := 13 + 2*c.rng.IntN(2)
	return c.crosswordOf(n, dark, func() bool { return c.rng.IntN(3) == 0 })
}

// crosswordOf draws an n×n crossword as crossword does; letter reports
// whether a white square is filled in.
func (c *canvasMaker) crosswordOf(n int, dark bool, letter func() bool) (*image.RGBA, error) {
	p := c.palette(dark)
	cell := 30 + c.rng.IntN(25)
	m := 30 + c.rng.IntN(40)
	img := newCanvas(n*cell+2*m, n*cell+2*m+c.rng.IntN(200), p.paper)
	black := make([]bool, n*n)
	for i := 0; i < n*n/2; i++ {
		if c.rng.IntN(6) == 0 {
			black[i], black[n*n-1-i] = true, true
		}
	}
	for i, b := range black {
		if b {
			r, k := i/n, i%n
			fill(img, image.Rect(m+k*cell, m+r*cell, m+(k+1)*cell, m+(r+1)*cell), p.ink)
		}
	}
	lattice(img, m, m, n, n, cell, 1+c.rng.IntN(2), p.ink)
	num := 1
	for i, b := range black {
		r, k := i/n, i%n
		if b {
			continue
		}
		across := (k == 0 || black[i-1]) && k+1 < n && !black[i+1]
		down := (r == 0 || black[i-n]) && r+1 < n && !black[i+n]
		if across || down {
			if err := c.text(img, fmt.Sprint(num), cell/4, false, p.ink, m+k*cell+2, m+r*cell+1, false); err != nil {
				return nil, err
			}
			num++
		}
		if letter() {
			letter := string(rune('A' + c.rng.IntN(26)))
			if err := c.text(img, letter, cell*55/100, false, p.ink, m+k*cell+cell/2, m+r*cell+cell*58/100, true); err != nil {
				return nil, err
			}
		}
	}
	return img, nil
}

// calendar draws a month: a title, the days of the week, and 5 or 6 weeks
// of numbered boxes.
func (c *canvasMaker) calendar(dark bool) (*image.RGBA, error) {
	p := c.palette(dark)
	cell := 60 + c.rng.IntN(50)
	weeks := 5 + c.rng.IntN(2)
	m := 30
	top := 110
	img := newCanvas(7*cell+2*m, weeks*cell+top+m, p.paper)
	months := []string{"January", "March", "May", "July", "September", "November"}
	if err := c.text(img, months[c.rng.IntN(len(months))]+" 2026", 36, true, p.ink, m, 20, false); err != nil {
		return nil, err
	}
	for k, d := range []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"} {
		if err := c.text(img, d, 18, false, p.line, m+k*cell+cell/2, top-20, true); err != nil {
			return nil, err
		}
	}
	lattice(img, m, top, weeks, 7, cell, 1+c.rng.IntN(2), p.line)
	first := c.rng.IntN(7)
	days := 28 + c.rng.IntN(4)
	for d := 1; d <= days; d++ {
		i := first + d - 1
		if i >= weeks*7 {
			break
		}
		r, k := i/7, i%7
		x, y := m+k*cell+6, top+r*cell+4
		centred := c.rng.IntN(2) == 0
		if centred {
			x, y = m+k*cell+cell/2, top+r*cell+cell/2
		}
		if err := c.text(img, fmt.Sprint(d), cell/3, false, p.ink, x, y, centred); err != nil {
			return nil, err
		}
	}
	return img, nil
}

// chessboard draws an 8x8 board, some with a line between squares, with
// letters for pieces on some squares, and the files and ranks around it.
func (c *canvasMaker) chessboard(dark bool) (*image.RGBA, error) {
	p := c.palette(dark)
	cell := 40 + c.rng.IntN(40)
	m := 40
	img := newCanvas(8*cell+2*m, 8*cell+2*m, p.paper)
	light, darkSq := color.RGBA{240, 217, 181, 255}, color.RGBA{181, 136, 99, 255}
	if dark {
		light, darkSq = color.RGBA{200, 200, 200, 255}, color.RGBA{90, 110, 80, 255}
	}
	for r := 0; r < 8; r++ {
		for k := 0; k < 8; k++ {
			col := light
			if (r+k)%2 == 1 {
				col = darkSq
			}
			fill(img, image.Rect(m+k*cell, m+r*cell, m+(k+1)*cell, m+(r+1)*cell), col)
		}
	}
	if c.rng.IntN(2) == 0 {
		lattice(img, m, m, 8, 8, cell, 1, p.ink)
	} else {
		lattice(img, m, m, 1, 1, 8*cell, 2, p.ink)
	}
	pieces := "KQRBNP"
	for k := 0; k < 8+c.rng.IntN(16); k++ {
		i := c.rng.IntN(64)
		r, f := i/8, i%8
		ink := color.RGBA{0, 0, 0, 255}
		if c.rng.IntN(2) == 0 {
			ink = color.RGBA{255, 255, 255, 255}
		}
		if err := c.text(img, string(pieces[c.rng.IntN(len(pieces))]), cell*6/10, true, ink, m+f*cell+cell/2, m+r*cell+cell/2, true); err != nil {
			return nil, err
		}
	}
	for k := 0; k < 8; k++ {
		if err := c.text(img, string(rune('a'+k)), 16, false, p.ink, m+k*cell+cell/2, m+8*cell+m/2, true); err != nil {
			return nil, err
		}
		if err := c.text(img, fmt.Sprint(8-k), 16, false, p.ink, m/2, m+k*cell+cell/2, true); err != nil {
			return nil, err
		}
	}
	return img, nil
}

// table draws a table of figures: a header row of words and rows of
// numbers, in ruled cells, square or wider than tall.
func (c *canvasMaker) table(dark bool) (*image.RGBA, error) {
	p := c.palette(dark)
	rows, cols := 4+c.rng.IntN(9), 4+c.rng.IntN(6)
	ch := 36 + c.rng.IntN(30)
	cw := ch + c.rng.IntN(ch)
	if c.rng.IntN(3) == 0 {
		rows, cw = cols, ch // as many rows as columns, square cells
	}
	m := 30
	img := newCanvas(cols*cw+2*m, rows*ch+2*m, p.paper)
	fill(img, image.Rect(m, m, m+cols*cw, m+ch), p.fill)
	for r := 0; r <= rows; r++ {
		fill(img, image.Rect(m, m+r*ch, m+cols*cw+1, m+r*ch+1), p.line)
	}
	for k := 0; k <= cols; k++ {
		fill(img, image.Rect(m+k*cw, m, m+k*cw+1, m+rows*ch+1), p.line)
	}
	heads := []string{"Name", "Q1", "Q2", "Total", "Year", "Qty", "Price", "Id", "Pts"}
	for k := 0; k < cols; k++ {
		if err := c.text(img, heads[c.rng.IntN(len(heads))], ch*4/10, true, p.paper, m+k*cw+cw/2, m+ch/2, true); err != nil {
			return nil, err
		}
	}
	for r := 1; r < rows; r++ {
		for k := 0; k < cols; k++ {
			v := fmt.Sprint(c.rng.IntN(1000))
			if c.rng.IntN(3) == 0 {
				v = fmt.Sprintf("%d.%02d", c.rng.IntN(100), c.rng.IntN(100))
			}
			if err := c.text(img, v, ch*4/10, false, p.ink, m+k*cw+cw/2, m+r*ch+ch/2, true); err != nil {
				return nil, err
			}
		}
	}
	return img, nil
}

// keypad draws a phone keypad (1-9, *, 0, #) or a calculator's, as keys in
// a ruled grid or as separate rounded keys.
func (c *canvasMaker) keypad(dark bool) (*image.RGBA, error) {
	p := c.palette(dark)
	keys := [][]string{{"1", "2", "3"}, {"4", "5", "6"}, {"7", "8", "9"}, {"*", "0", "#"}}
	if c.rng.IntN(2) == 0 {
		keys = [][]string{{"7", "8", "9", "/"}, {"4", "5", "6", "x"}, {"1", "2", "3", "-"}, {"0", ".", "=", "+"}}
	}
	cell := 70 + c.rng.IntN(60)
	gap := 0
	if c.rng.IntN(2) == 0 {
		gap = cell / 8
	}
	m := 40
	rows, cols := len(keys), len(keys[0])
	img := newCanvas(cols*(cell+gap)+2*m, rows*(cell+gap)+2*m+120, p.paper)
	fill(img, image.Rect(m, m, m+cols*(cell+gap)-gap, m+100), p.fill)
	y0 := m + 120
	if gap == 0 {
		lattice(img, m, y0, rows, cols, cell, 2, p.line)
	}
	for r, row := range keys {
		for k, key := range row {
			x, y := m+k*(cell+gap), y0+r*(cell+gap)
			if gap > 0 {
				fill(img, image.Rect(x, y, x+cell, y+cell), p.fill)
			}
			ink := p.ink
			if gap > 0 {
				ink = p.paper
			}
			if err := c.text(img, key, cell*45/100, false, ink, x+cell/2, y+cell/2, true); err != nil {
				return nil, err
			}
		}
	}
	return img, nil
}

// moreNegatives draws crosswords of the sizes a Sudoku has and others
// (9x9, 11x11, 12x12, 16x16, 21x21), each blank (black squares and clue
// numbers only), partly and wholly filled in, in light and dark; and
// simulated photos of some crosswords, calendars and chessboards. It
// returns their lines of list.txt. It draws from its own random stream,
// so the pictures runNegatives draws first stay what they were.
func moreNegatives(out string, seed uint64) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, 32))
	c := &canvasMaker{rng: rng}
	var list []string
	var sources []source
	for _, n := range []int{9, 11, 12, 16, 21} {
		for fill, letter := range []func() bool{
			func() bool { return false },
			func() bool { return rng.IntN(3) == 0 },
			func() bool { return true },
		} {
			img, err := c.crosswordOf(n, (n+fill)%2 == 1, letter)
			if err != nil {
				return nil, fmt.Errorf("crossword: %w", err)
			}
			name := fmt.Sprintf("crossword%d-%d.png", n, fill)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return nil, err
			}
			list = append(list, name+"\tcrossword")
			if n != 21 {
				sources = append(sources, source{img: img, name: name})
			}
		}
	}
	for i, kind := range []struct {
		name string
		draw func(c *canvasMaker, dark bool) (*image.RGBA, error)
	}{
		{"calendar", (*canvasMaker).calendar},
		{"chessboard", (*canvasMaker).chessboard},
	} {
		img, err := kind.draw(c, i%2 == 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind.name, err)
		}
		name := fmt.Sprintf("%s-photo-source.png", kind.name)
		if err := writePNG(filepath.Join(out, name), img); err != nil {
			return nil, err
		}
		list = append(list, name+"\t"+kind.name)
		sources = append(sources, source{img: img, name: name})
	}
	// Photos of every other crossword, and of the calendar and the
	// chessboard.
	var t truth
	for i, src := range sources {
		if i%2 == 1 && i < len(sources)-2 {
			continue
		}
		name := "photo-of-" + strings.TrimSuffix(src.name, ".png") + ".jpg"
		if err := photo(rng, src, name, out, &t); err != nil {
			return nil, err
		}
		kind := strings.TrimRight(strings.SplitN(src.name, "-", 2)[0], "0123456789")
		list = append(list, name+"\tphoto-of-"+kind)
	}
	return list, nil
}
