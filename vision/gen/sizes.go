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
// with a player's entries and marked cells, and a simulated photo of each;
// then a few boards of every other size (see everySize), and 12x12 and
// 16x16 boards written in numbers (see numberBoards).
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
		mask := entryMask(p.Grid, pos)
		t.addEntries(name, line, fmt.Sprintf("render%d-%s", size, theme), mask)
		src := source{img, line, name, mask}
		if err := photo(rng, src, fmt.Sprintf("size%d-photo-%02d.jpg", size, i), out, &t); err != nil {
			return err
		}
	}
	if err := everySize(out, seed, &t); err != nil {
		return err
	}
	if err := numberBoards(out, seed, 2, &t); err != nil {
		return err
	}
	if err := bigPhotos(out, seed, &t); err != nil {
		return err
	}
	data := "# file\tgrid (. blank)\tkind\tentries (g given, e entry, . empty) — made by go run ./vision/gen -sizes N\n" + strings.Join(t.lines, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(data), 0o644)
}

// everySize makes, for each other size the engine plays (4x4, 8x8, 12x12,
// 25x25), four boards drawn by sudokubot's renderer: light and dark, the
// second pair with every empty cell's candidates pencilled in some cells;
// for 6x6 and 16x16 only the pair with marks. A simulated photo is taken
// of the first of each pair (none of a 25x25, whose cells a 720x900 photo
// would blur away: bigPhotos takes those). It draws from its own random stream, so the 6x6 and
// 16x16 pictures above stay what they were.
func everySize(out string, seed uint64, t *truth) error {
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, shape := range []sudoku.Shape{sudoku.Shape4, sudoku.Shape8, sudoku.Shape12, sudoku.Shape16, sudoku.Shape25, sudoku.Shape6} {
		size := shape.N()
		for i := 0; i < 4; i++ {
			if (size == 16 || size == 6) && i < 2 {
				continue // plain 6x6 and 16x16 boards are above
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
			pencil := i >= 2
			if pencil {
				b.Pencil = somePencil(rng, pos)
			}
			theme := render.Light
			if i%2 == 1 {
				theme = render.Dark
			}
			cellSize := 30 + rng.IntN(60)
			if size >= 16 {
				cellSize = 30 + rng.IntN(20)
			}
			img, err := b.Image(render.ImageOptions{Theme: theme, CellSize: cellSize})
			if err != nil {
				return err
			}
			name := fmt.Sprintf("size%d-%s-%d.png", size, theme, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			kind := fmt.Sprintf("render%d-%s", size, theme)
			if pencil {
				kind += "-pencil"
			}
			line := pos.String()
			mask := entryMask(p.Grid, pos)
			t.addEntries(name, line, kind, mask)
			if i%2 == 0 && size != 25 {
				src := source{img, line, name, mask}
				if err := photo(rng, src, fmt.Sprintf("size%d-photo-%d.jpg", size, i), out, t); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// bigPhotos makes photos of the sizes whose cells a 720x900 photo blurs
// away, taken as a phone keeps them (1536x2048): 25x25 boards drawn by
// sudokubot's renderer, light and dark, some with pencil marks, and 12x12
// and 16x16 boards with pencil marks. Each board is kept too, as its
// photo's source. It draws from its own random stream, so the pictures
// above stay what they were.
func bigPhotos(out string, seed uint64, t *truth) error {
	rng := rand.New(rand.NewPCG(seed, 25))
	for _, b := range []struct {
		shape  sudoku.Shape
		n      int
		pencil bool
	}{
		{sudoku.Shape25, 4, false}, {sudoku.Shape25, 2, true},
		{sudoku.Shape16, 2, true}, {sudoku.Shape12, 2, true},
	} {
		size := b.shape.N()
		for i := 0; i < b.n; i++ {
			p, err := sudoku.Generate(context.Background(), sudoku.GenerateOptions{Shape: b.shape, Seed: rng.Uint64()})
			if err != nil {
				return fmt.Errorf("generate %dx%d: %w", size, size, err)
			}
			pos := p.Grid.Clone()
			for k := rng.IntN(8); k > 0; k-- {
				if c := rng.IntN(len(pos.Cells)); pos.Cells[c] == 0 {
					pos.Cells[c] = p.Solution.Cells[c]
				}
			}
			board := render.Playing(p.Grid, pos)
			if b.pencil {
				board.Pencil = somePencil(rng, pos)
			}
			theme := render.Light
			if i%2 == 1 {
				theme = render.Dark
			}
			img, err := board.Image(render.ImageOptions{Theme: theme, CellSize: 36 + rng.IntN(20)})
			if err != nil {
				return err
			}
			kind := fmt.Sprintf("render%d-%s", size, theme)
			tag := ""
			if b.pencil {
				kind += "-pencil"
				tag = "pencil-"
			}
			name := fmt.Sprintf("size%d-%s%s-big%d.png", size, tag, theme, i)
			if err := writePNG(filepath.Join(out, name), img); err != nil {
				return err
			}
			line, mask := pos.String(), entryMask(p.Grid, pos)
			t.addEntries(name, line, kind, mask)
			src := source{img, line, name, mask}
			photo := fmt.Sprintf("size%d-%sphoto-big%d.jpg", size, tag, i)
			if err := photoWith(rng, src, photo, out, t, photoOptions{W: 1536, H: 2048}); err != nil {
				return err
			}
		}
	}
	return nil
}

// somePencil pencils in every empty cell's candidates of pos in about two
// cells of three, a bit set per candidate (as render.Board.Pencil takes them).
func somePencil(rng *rand.Rand, pos *sudoku.Grid) []uint32 {
	cands := pos.Candidates()
	pencil := make([]uint32, len(cands))
	for c, m := range cands {
		if rng.IntN(3) > 0 {
			pencil[c] = m
		}
	}
	return pencil
}
