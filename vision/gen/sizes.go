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

// runSizes makes the test pictures of grids other than 9x9: n 6x6 boards
// and n/2 16x16 ones drawn by sudokubot's renderer in both themes, some
// with a player's entries and marked cells, and a simulated photo of each.
// They go under out with their own truth.txt, apart from the 9x9 set.
func runSizes(out string, seed uint64, n int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 6))
	var t truth
	for i := 0; i < n+n/2; i++ {
		shape, size := sudoku.Shape6, 6
		if i >= n {
			shape, size = sudoku.Shape16, 16
		}
		p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: shape, Seed: rng.Uint64()})
		if err != nil {
			return fmt.Errorf("generate %dx%d: %w", size, size, err)
		}
		pos := p.Grid.Clone()
		for k := rng.IntN(6); k > 0; k-- {
			c := rng.IntN(len(pos.Cells))
			if pos.Cells[c] == 0 {
				pos.Cells[c] = p.Solution.Cells[c]
			}
		}
		b := render.Playing(p.Grid, pos)
		for k := rng.IntN(3); k > 0; k-- {
			marks := []render.Mark{render.Target, render.Cause, render.Tint}
			b.MarkCells(marks[rng.IntN(len(marks))], rng.IntN(len(pos.Cells)))
		}
		theme := render.Light
		if i%2 == 1 {
			theme = render.Dark
		}
		cellSize := 30 + rng.IntN(60)
		if size == 16 {
			cellSize = 30 + rng.IntN(20) // a bigger board would be too big to photograph
		}
		img, err := b.Image(render.ImageOptions{Theme: theme, CellSize: cellSize})
		if err != nil {
			return err
		}
		name := fmt.Sprintf("size%d-%s-%02d.png", size, theme, i)
		if err := writePNG(filepath.Join(out, name), img); err != nil {
			return err
		}
		line := pos.String()
		t.add(name, line, fmt.Sprintf("render%d-%s", size, theme))
		src := source{img, line, name}
		if err := photo(rng, src, fmt.Sprintf("size%d-photo-%02d.jpg", size, i), out, &t); err != nil {
			return err
		}
	}
	data := "# file\tgrid (. blank)\tkind — made by go run ./vision/gen -sizes N\n" + strings.Join(t.lines, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(data), 0o644)
}
