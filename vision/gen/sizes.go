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

// runSizes makes the test pictures of grids other than 9x9: 6x6 boards drawn
// by sudokubot's renderer in both themes, some with a player's entries and
// marked cells, and a simulated photo of each. They go under out with their
// own truth.txt, apart from the 9x9 set.
func runSizes(out string, seed uint64, n int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 6))
	var t truth
	for i := 0; i < n; i++ {
		p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: sudoku.Shape6, Seed: rng.Uint64()})
		if err != nil {
			return fmt.Errorf("generate 6x6: %w", err)
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
			b.MarkCells(marks[rng.IntN(len(marks))], rng.IntN(36))
		}
		theme := render.Light
		if i%2 == 1 {
			theme = render.Dark
		}
		img, err := b.Image(render.ImageOptions{Theme: theme, CellSize: 30 + rng.IntN(60)})
		if err != nil {
			return err
		}
		name := fmt.Sprintf("size6-%s-%02d.png", theme, i)
		if err := writePNG(filepath.Join(out, name), img); err != nil {
			return err
		}
		line := pos.String()
		t.add(name, line, "render6-"+theme.String())
		src := source{img, line, name}
		if err := photo(rng, src, fmt.Sprintf("size6-photo-%02d.jpg", i), out, &t); err != nil {
			return err
		}
	}
	data := "# file\tgrid (. blank)\tkind — made by go run ./vision/gen -sizes N\n" + strings.Join(t.lines, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(data), 0o644)
}
