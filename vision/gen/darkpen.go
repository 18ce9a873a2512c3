package main

import (
	"image"
	"image/color"
	"path/filepath"
	"strings"

	"sudokubot/sudoku"
)

// runDarkPen writes n pictures of each kind of grid whose player's entries
// are in ink as dark as the print, so only their shape tells them from the
// givens, a photo of every other one, and truth.txt (with the entries
// column) under out:
//
//	dpnews: a newspaper puzzle (one print font at one size, black on
//	        greyish paper) filled in with a black or blue-black pen: MNIST's
//	        test split, or a held-out handwriting font, drawn as a hand
//	        writes (off centre, turned, of uneven size and weight);
//	dpshot: a screenshot of an app that writes the player's digits in a
//	        handwriting font in the givens' own colour (light or dark theme).
//
// None of the handwriting was trained on (see runHandwriting).
func runDarkPen(out, mnistDir string, seed uint64, n int) error {
	return writeHandSet(out, mnistDir, seed, n, handSet{
		flag:    "-darkpen",
		stream:  41,
		kinds:   []string{"dpnews", "dpshot"},
		entries: 35,
		draw: func(h *handMaker, kind string, i int, puzzle, pos *sudoku.Grid) (*image.RGBA, string, error) {
			return h.drawDarkPen(kind, puzzle, pos, kind == "dpshot" && i%4 == 3, false)
		},
	})
}

// drawDarkPen draws pos (givens from puzzle, the rest the player's entries)
// as kind says, and names what it used; fontPen keeps a newspaper's pen to
// a handwriting font (no MNIST digits loaded).
func (h *handMaker) drawDarkPen(kind string, puzzle, pos *sudoku.Grid, dark, fontPen bool) (*image.RGBA, string, error) {
	rng := h.rng
	grey := uint8(rng.IntN(25))
	paper := color.RGBA{uint8(225+rng.IntN(30)) - grey, uint8(222+rng.IntN(30)) - grey, uint8(212+rng.IntN(35)) - grey, 255}
	ink := color.RGBA{uint8(rng.IntN(35)), uint8(rng.IntN(35)), uint8(rng.IntN(35)), 255}
	line := ink
	// The pen: black, or a blue-black as dark as the print.
	pen := color.RGBA{uint8(rng.IntN(40)), uint8(rng.IntN(40)), uint8(rng.IntN(45)), 255}
	if rng.IntN(3) == 0 {
		pen = color.RGBA{uint8(10 + rng.IntN(25)), uint8(15 + rng.IntN(30)), uint8(50 + rng.IntN(50)), 255}
	}
	if kind == "dpshot" {
		paper = color.RGBA{255, 255, 255, 255}
		if rng.IntN(2) == 0 {
			paper = color.RGBA{uint8(240 + rng.IntN(16)), uint8(240 + rng.IntN(16)), uint8(240 + rng.IntN(16)), 255}
		}
		line = color.RGBA{uint8(60 + rng.IntN(80)), uint8(60 + rng.IntN(80)), uint8(60 + rng.IntN(80)), 255}
		pen = ink
	}
	if dark {
		paper = color.RGBA{uint8(20 + rng.IntN(20)), uint8(20 + rng.IntN(20)), uint8(24 + rng.IntN(20)), 255}
		ink = color.RGBA{235, 235, 235, 255}
		line = color.RGBA{120, 120, 130, 255}
		pen = ink
	}
	img, cell, m := h.grid(paper, line)
	printFont, handFont := h.fonts()
	// A newspaper's pen entries are MNIST digits in two pictures of three.
	mnistPen := kind == "dpnews" && rng.IntN(3) > 0 && !fontPen
	what := filepath.Base(printFont) + "+" + filepath.Base(handFont)
	if mnistPen {
		what = filepath.Base(printFont) + "+mnist"
	}
	// Print is one font at one size; a hand varies.
	size := float64(cell) * (0.5 + 0.2*rng.Float64())
	weight := 0.15 + 0.45*rng.Float64() // how thin the pen is (see penDigitWeight)
	err := eachDigit(pos, cell, m, func(i int, v uint8, cx, cy float64) error {
		switch {
		case puzzle.Cells[i] != 0:
			if err := h.text(img, printFont, v, size, ink, cx, cy); err != nil {
				return err
			}
		case mnistPen:
			h.penDigitWeight(img, v, float64(cell), pen, cx, cy, weight)
		default:
			jx, jy := (rng.Float64()-0.5)*0.14*float64(cell), (rng.Float64()-0.5)*0.14*float64(cell)
			if err := h.text(img, handFont, v, float64(cell)*(0.5+0.3*rng.Float64()), pen, cx+jx, cy+jy); err != nil {
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

// penDigitWeight is penDigit with a pen of another weight: the MNIST
// digit's coverage a is cut at weight (0 keeps its strokes as they are,
// 0.6 leaves a thin ballpoint line), so the ink is solid where it is.
func (h *handMaker) penDigitWeight(img *image.RGBA, v uint8, cell float64, ink color.RGBA, cx, cy, weight float64) {
	// Draw on a scratch copy of the cell's square, then keep the strokes
	// with their coverage cut.
	r := int(cell/2) + 4
	area := image.Rect(int(cx)-r, int(cy)-r, int(cx)+r+1, int(cy)+r+1).Intersect(img.Bounds())
	white := color.RGBA{255, 255, 255, 255}
	scratch := image.NewRGBA(area)
	fill(scratch, area, white)
	h.penDigit(scratch, v, cell, color.RGBA{0, 0, 0, 255}, cx, cy)
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			a := 1 - float64(scratch.RGBAAt(x, y).R)/255
			a = min(max((a-weight)/(1-weight)*1.6, 0), 1)
			if a > 0 {
				img.SetRGBA(x, y, blend(ink, img.RGBAAt(x, y), a))
			}
		}
	}
}
