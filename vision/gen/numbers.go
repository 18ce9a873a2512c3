package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"path/filepath"

	"sudokubot/sudoku"
)

// numberBoards draws 12x12 and 16x16 boards as apps that write 10 and on
// as numbers do (sudokubot writes them as letters), k of each, light and
// dark in turn, with a simulated photo of the first of each size.
func numberBoards(out string, seed uint64, k int, t *truth) error {
	rng := rand.New(rand.NewPCG(seed, 16))
	c := &canvasMaker{rng: rng}
	for _, shape := range []sudoku.Shape{sudoku.Shape12, sudoku.Shape16} {
		n := shape.N()
		for i := 0; i < k; i++ {
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: shape, Seed: rng.Uint64()})
			if err != nil {
				return fmt.Errorf("generate %dx%d: %w", n, n, err)
			}
			pos := p.Grid.Clone()
			entries := make([]bool, len(pos.Cells))
			for j := rng.IntN(8); j > 0; j-- {
				cell := rng.IntN(len(pos.Cells))
				if pos.Cells[cell] == 0 {
					pos.Cells[cell] = p.Solution.Cells[cell]
					entries[cell] = true
				}
			}
			img, err := c.numberBoard(pos, entries, i%2 == 1)
			if err != nil {
				return err
			}
			theme := "light"
			if i%2 == 1 {
				theme = "dark"
			}
			name := fmt.Sprintf("numbers%d-%s-%d.png", n, theme, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			line := pos.String()
			mask := entryMask(p.Grid, pos)
			t.addEntries(name, line, fmt.Sprintf("numbers%d-%s", n, theme), mask)
			if i == 0 {
				src := source{img, line, name, mask}
				if err := photo(rng, src, fmt.Sprintf("numbers%d-photo-%d.jpg", n, i), out, t); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// numberBoard draws g with its values as numbers (10, 11, …), thin cell
// lines and thick box lines; entries in another colour.
func (c *canvasMaker) numberBoard(g *sudoku.Grid, entries []bool, dark bool) (*image.RGBA, error) {
	p := c.palette(dark)
	entry := color.RGBA{30, 80, 200, 255}
	if dark {
		entry = color.RGBA{130, 180, 250, 255}
	}
	n := g.N()
	cell := 34 + c.rng.IntN(24)
	m := 20 + c.rng.IntN(30)
	img := newCanvas(n*cell+2*m, n*cell+2*m+c.rng.IntN(150), p.paper)
	lattice(img, m, m, n, n, cell, 1, p.line)
	br, bc := g.Shape.BoxRows, g.Shape.BoxCols
	thick := 2 + c.rng.IntN(2)
	for r := 0; r <= n; r += br {
		fill(img, image.Rect(m, m+r*cell-thick/2, m+n*cell+thick-thick/2, m+r*cell+thick-thick/2), p.ink)
	}
	for k := 0; k <= n; k += bc {
		fill(img, image.Rect(m+k*cell-thick/2, m, m+k*cell+thick-thick/2, m+n*cell+thick-thick/2), p.ink)
	}
	px := cell * (42 + c.rng.IntN(12)) / 100
	bold := c.rng.IntN(2) == 0
	for i, v := range g.Cells {
		if v == 0 {
			continue
		}
		ink := p.ink
		if entries[i] {
			ink = entry
		}
		r, k := i/n, i%n
		if err := c.text(img, fmt.Sprint(v), px, bold, ink, m+k*cell+cell/2, m+r*cell+cell/2, true); err != nil {
			return nil, err
		}
	}
	return img, nil
}
