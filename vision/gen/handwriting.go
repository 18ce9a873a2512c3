package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"sudokubot/sudoku"
	"sudokubot/vision/internal/mnist"
)

// The held-out handwriting pictures: 9x9 grids whose player's entries, or
// all of whose digits, are written by hand. None of their handwriting was
// trained on: the pen entries are MNIST's test split (the trainer reads
// only its train split), and the handwriting fonts are not among
// vision/train's. The printed givens are in Carlito, Caladea and Noto Sans
// Mono, which the classifier never saw either (Debian:
// fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-noto-mono,
// fonts-kaushanscript, fonts-bwht).
var (
	printFonts = []string{
		"/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf",
		"/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf",
		"/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf",
		"/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf",
		"/usr/share/fonts/truetype/noto/NotoSansMono-Bold.ttf",
	}
	heldOutHandFonts = []string{
		"/usr/share/fonts/opentype/kaushanscript/KaushanScript-Regular.otf",
		"/usr/share/fonts/opentype/bwht/BecauseWeLearn-Regular.otf",
		"/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf",
		"/usr/share/fonts/opentype/bwht/BecauseWeOrganize-Regular.otf",
	}
)

// runHandwriting writes n pictures of each kind under out, a photo of
// every other one, and truth.txt (with the entries column):
//
//	hwpen:  printed givens, entries pasted from MNIST's test split in pen
//	        ink, as a newspaper puzzle filled in by hand;
//	hwapp:  printed givens, entries in a handwriting font and another
//	        colour, as apps draw a player's digits;
//	hwfont: every digit in a handwriting font, the entries lighter.
func runHandwriting(out, mnistDir string, seed uint64, n int) error {
	return writeHandSet(out, mnistDir, seed, n, handSet{
		flag:    "-handwriting",
		stream:  40,
		kinds:   []string{"hwpen", "hwapp", "hwfont"},
		entries: 30,
		draw: func(h *handMaker, kind string, i int, puzzle, pos *sudoku.Grid) (*image.RGBA, string, error) {
			return h.draw(kind, puzzle, pos, i%2 == 1 && kind == "hwapp")
		},
	})
}

// handSet is what tells one set of handwriting pictures that writeHandSet
// writes from another.
type handSet struct {
	flag    string   // gen's flag that asks for the set, for truth.txt's head
	stream  uint64   // the set's own random stream, with -seed
	kinds   []string // n pictures of each, their names' prefixes
	entries int      // the player writes in 10 to 10+entries-1 cells (fewer where one is filled)
	// draw draws picture i of kind and names what it used.
	draw func(h *handMaker, kind string, i int, puzzle, pos *sudoku.Grid) (*image.RGBA, string, error)
}

// writeHandSet writes n pictures of each of set's kinds under out, each a
// new 9x9 puzzle part played, a photo of every other one, and truth.txt
// (with the entries column). The pen entries are MNIST's test split, read
// from mnistDir.
func writeHandSet(out, mnistDir string, seed uint64, n int, set handSet) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	digits, err := mnist.Load(mnistDir, "t10k")
	if err != nil {
		return fmt.Errorf("%w (give -mnist the data folder of the module named in package vision/internal/mnist)", err)
	}
	var byValue [10][]mnist.Digit
	for _, d := range digits {
		byValue[d.Label] = append(byValue[d.Label], d)
	}
	hw := &handMaker{rng: rand.New(rand.NewPCG(seed, set.stream)), pen: byValue, faces: map[string]*opentype.Font{}}
	var t truth
	for _, kind := range set.kinds {
		for i := 0; i < n; i++ {
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: sudoku.Shape9, Seed: hw.rng.Uint64()})
			if err != nil {
				return err
			}
			pos := p.Grid.Clone()
			for j := 10 + hw.rng.IntN(set.entries); j > 0; j-- {
				c := hw.rng.IntN(81)
				if pos.Cells[c] == 0 {
					pos.Cells[c] = p.Solution.Cells[c]
				}
			}
			img, what, err := set.draw(hw, kind, i, p.Grid, pos)
			if err != nil {
				return fmt.Errorf("%s %d: %w", kind, i, err)
			}
			name := fmt.Sprintf("%s-%02d.png", kind, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			mask := entryMask(p.Grid, pos)
			t.addEntries(name, pos.String(), kind+"-"+what, mask)
			if i%2 == 0 {
				src := source{img: img, grid: pos.String(), name: name, entries: mask}
				if err := photo(hw.rng, src, fmt.Sprintf("%s-photo-%02d.jpg", kind, i), out, &t); err != nil {
					return err
				}
			}
		}
	}
	head := "# file\tgrid (. blank)\tkind\tentries (g given, e entry) — made by go run ./vision/gen " + set.flag + " N -mnist DIR\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(head+strings.Join(t.lines, "\n")+"\n"), 0o644)
}

// handMaker draws the handwriting pictures.
type handMaker struct {
	rng   *rand.Rand
	pen   [10][]mnist.Digit
	faces map[string]*opentype.Font
}

func (h *handMaker) font(path string) (*opentype.Font, error) {
	if f, ok := h.faces[path]; ok {
		return f, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (install the Debian fonts named in vision/gen/handwriting.go)", err)
	}
	f, err := opentype.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	h.faces[path] = f
	return f, nil
}

// draw draws pos (givens from puzzle, the rest the player's entries) as
// kind says, and names the fonts it used.
func (h *handMaker) draw(kind string, puzzle, pos *sudoku.Grid, dark bool) (*image.RGBA, string, error) {
	rng := h.rng
	paper := color.RGBA{uint8(232 + rng.IntN(24)), uint8(230 + rng.IntN(24)), uint8(222 + rng.IntN(30)), 255}
	ink := color.RGBA{uint8(rng.IntN(40)), uint8(rng.IntN(40)), uint8(rng.IntN(40)), 255}
	line := ink
	entryInk := color.RGBA{uint8(20 + rng.IntN(40)), uint8(50 + rng.IntN(60)), uint8(150 + rng.IntN(90)), 255}
	if dark {
		paper = color.RGBA{28, 30, 34, 255}
		ink = color.RGBA{235, 235, 235, 255}
		line = color.RGBA{140, 140, 150, 255}
		entryInk = color.RGBA{120, 170, 250, 255}
	}
	img, cell, m := h.grid(paper, line)
	printFont, handFont := h.fonts()
	givenFont, entryFont := printFont, handFont
	what := filepath.Base(printFont) + "+" + filepath.Base(handFont)
	switch kind {
	case "hwpen":
		what = filepath.Base(printFont) + "+mnist"
	case "hwfont":
		givenFont = handFont
		what = filepath.Base(handFont)
		entryInk = blend(ink, paper, 0.45) // the same pen, lighter
	}
	err := eachDigit(pos, cell, m, func(i int, v uint8, cx, cy float64) error {
		switch {
		case puzzle.Cells[i] != 0:
			if err := h.text(img, givenFont, v, float64(cell)*(0.55+0.15*rng.Float64()), ink, cx, cy); err != nil {
				return err
			}
		case kind == "hwpen":
			h.penDigit(img, v, float64(cell), entryInk, cx, cy)
		default:
			if err := h.text(img, entryFont, v, float64(cell)*(0.55+0.2*rng.Float64()), entryInk, cx+(rng.Float64()-0.5)*0.1*float64(cell), cy+(rng.Float64()-0.5)*0.1*float64(cell)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return img, strings.TrimSuffix(strings.TrimSuffix(what, ".ttf"), ".otf"), nil
}

// grid draws an empty 9x9 grid in line on a new canvas of paper, its
// cells cell pixels wide and m from the canvas's top left edge, the box
// lines thicker, with room of a random height below it.
func (h *handMaker) grid(paper, line color.RGBA) (img *image.RGBA, cell, m int) {
	rng := h.rng
	cell = 40 + rng.IntN(32)
	m = 16 + rng.IntN(40)
	img = newCanvas(9*cell+2*m, 9*cell+2*m+rng.IntN(120), paper)
	lattice(img, m, m, 9, 9, cell, 1, line)
	thick := 2 + rng.IntN(3)
	for k := 0; k <= 9; k += 3 {
		fill(img, image.Rect(m, m+k*cell-thick/2, m+9*cell+thick-thick/2, m+k*cell+thick-thick/2), line)
		fill(img, image.Rect(m+k*cell-thick/2, m, m+k*cell+thick-thick/2, m+9*cell+thick-thick/2), line)
	}
	return img, cell, m
}

// eachDigit calls draw with each filled cell of pos, its value and its
// centre in a grid that grid drew with cells cell wide, m from the edge; it
// stops at draw's first error.
func eachDigit(pos *sudoku.Grid, cell, m int, draw func(i int, v uint8, cx, cy float64) error) error {
	for i, v := range pos.Cells {
		if v == 0 {
			continue
		}
		cx, cy := float64(m+i%9*cell)+float64(cell)/2, float64(m+i/9*cell)+float64(cell)/2
		if err := draw(i, v, cx, cy); err != nil {
			return err
		}
	}
	return nil
}

// fonts picks a print font for the givens and a held-out handwriting font.
func (h *handMaker) fonts() (printFont, handFont string) {
	printFont = printFonts[h.rng.IntN(len(printFonts))]
	handFont = heldOutHandFonts[h.rng.IntN(len(heldOutHandFonts))]
	return printFont, handFont
}

// text draws digit v in the font at path, its ink size px high, centred on
// (cx, cy).
func (h *handMaker) text(img *image.RGBA, path string, v uint8, size float64, col color.RGBA, cx, cy float64) error {
	f, err := h.font(path)
	if err != nil {
		return err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size * 1.35, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return err
	}
	defer face.Close()
	s := string(rune('0' + v))
	b, _ := font.BoundString(face, s)
	w, ht := (b.Max.X - b.Min.X).Round(), (b.Max.Y - b.Min.Y).Round()
	// Scale the face so the ink is size high whatever the font's figures.
	if ht > 0 && math.Abs(float64(ht)-size) > 1 {
		face.Close()
		face, err = opentype.NewFace(f, &opentype.FaceOptions{Size: size * 1.35 * size / float64(ht), DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			return err
		}
		b, _ = font.BoundString(face, s)
		w, ht = (b.Max.X - b.Min.X).Round(), (b.Max.Y - b.Min.Y).Round()
	}
	d := &font.Drawer{Dst: img, Src: image.NewUniform(col), Face: face}
	d.Dot = fixed.P(int(cx)-w/2-b.Min.X.Round(), int(cy)-ht/2-b.Min.Y.Round())
	d.DrawString(s)
	return nil
}

// penDigit pastes a handwritten v from MNIST's test split in ink, 55-85 %
// of a cell high, off centre and turned a little as a hand writes.
func (h *handMaker) penDigit(img *image.RGBA, v uint8, cell float64, ink color.RGBA, cx, cy float64) {
	rng := h.rng
	d := h.pen[v][rng.IntN(len(h.pen[v]))]
	// The ink's box in the 28×28 picture.
	x0, y0, x1, y1 := mnist.Side, mnist.Side, -1, -1
	for y := 0; y < mnist.Side; y++ {
		for x := 0; x < mnist.Side; x++ {
			if d.Pix[y*mnist.Side+x] > 30 {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return
	}
	ht := cell * (0.55 + 0.3*rng.Float64())
	sc := ht / float64(y1-y0+1)
	mx, my := float64(x0+x1+1)/2, float64(y0+y1+1)/2
	cx += (rng.Float64() - 0.5) * 0.16 * cell
	cy += (rng.Float64() - 0.5) * 0.16 * cell
	ang := (rng.Float64()*2 - 1) * 10 * math.Pi / 180
	ca, sa := math.Cos(ang), math.Sin(ang)
	r := int(cell/2) + 2
	for y := int(cy) - r; y <= int(cy)+r; y++ {
		for x := int(cx) - r; x <= int(cx)+r; x++ {
			if !(image.Point{x, y}.In(img.Bounds())) {
				continue
			}
			u, w := float64(x)+0.5-cx, float64(y)+0.5-cy
			u, w = ca*u+sa*w, -sa*u+ca*w
			a := mnistAt(d.Pix, u/sc+mx-0.5, w/sc+my-0.5)
			if a <= 0 {
				continue
			}
			o := img.RGBAAt(x, y)
			img.SetRGBA(x, y, blend(ink, o, a))
		}
	}
}

// mnistAt samples an MNIST picture's coverage (0-1) at (x, y), bilinear.
func mnistAt(pix []byte, x, y float64) float64 {
	if x < 0 || y < 0 || x > mnist.Side-1 || y > mnist.Side-1 {
		return 0
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, mnist.Side-1), min(y0+1, mnist.Side-1)
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 { return float64(pix[y*mnist.Side+x]) / 255 }
	return (at(x0, y0)*(1-fx)+at(x1, y0)*fx)*(1-fy) + (at(x0, y1)*(1-fx)+at(x1, y1)*fx)*fy
}

// blend mixes a of col with 1-a of under.
func blend(col, under color.RGBA, a float64) color.RGBA {
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p)*a + float64(q)*(1-a))) }
	return color.RGBA{mix(col.R, under.R), mix(col.G, under.G), mix(col.B, under.B), 255}
}
