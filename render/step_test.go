package render

import (
	"image"
	"testing"

	xdraw "golang.org/x/image/draw"

	"sudokubot/sudoku"
)

// TestRealSteps draws every step the logical solver takes on a hard puzzle,
// as the bot's "Show step" does, and checks each picture shows the step: the
// placed cells blue, every removed candidate on a red disc.
func TestRealSteps(t *testing.T) {
	puzzle := mustGrid(t, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	logic, err := sudoku.NewLogic(puzzle)
	if err != nil {
		t.Fatalf("NewLogic: %v", err)
	}
	spec := themeSpecs[Light]
	steps := 0
	for ; steps < 200; steps++ {
		step, ok := logic.NextStep()
		if !ok {
			break
		}
		b := Playing(puzzle, logic.Grid()).WithStep(step)
		b.Pencil = logic.Candidates()
		b.Caption = step.Technique
		l, err := newLayout(b, ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		img := mustPNG(t, b, ImageOptions{})
		for _, p := range step.Placements {
			in := interior(l, p.Cell)
			if got := rgbaAt(img, in.Min.X, in.Min.Y); got != spec.papers[pTarget] {
				t.Errorf("step %d (%s): placed cell %s is %v, want the target colour", steps, step.Technique, puzzle.Shape.CellName(p.Cell), got)
			}
		}
		for _, e := range step.Eliminations {
			if n := countColor(img, interior(l, e.Cell), spec.papers[pDiscRed]); n < 20 {
				t.Errorf("step %d (%s): removed %d in %s has %d red disc pixels", steps, step.Technique, e.Value, puzzle.Shape.CellName(e.Cell), n)
			}
		}
		if err := logic.ApplyStep(step); err != nil {
			t.Fatalf("step %d (%s): ApplyStep: %v", steps, step.Technique, err)
		}
	}
	if steps < 10 {
		t.Errorf("the solver took %d steps, want a real solve path", steps)
	}
}

// TestStepReadableAtPreview draws a hint's step, scales the picture down to
// 400 px wide as Discord's preview does, and checks the placed digit is
// still a solid mark in its cell: a large digit, not a candidate-sized dot.
func TestStepReadableAtPreview(t *testing.T) {
	puzzle := mustGrid(t, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	logic, err := sudoku.NewLogic(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	var step sudoku.Step
	for {
		st, ok := logic.NextStep()
		if !ok {
			t.Fatal("no placing step")
		}
		if len(st.Placements) > 0 {
			step = st
			break
		}
		if err := logic.ApplyStep(st); err != nil {
			t.Fatal(err)
		}
	}
	b := Playing(puzzle, logic.Grid()).WithStep(step)
	b.Pencil = logic.Candidates()
	l, err := newLayout(b, ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	img := mustPNG(t, b, ImageOptions{})
	const w = 400
	scale := float64(w) / float64(img.Bounds().Dx())
	small := image.NewRGBA(image.Rect(0, 0, w, int(float64(img.Bounds().Dy())*scale)))
	xdraw.CatmullRom.Scale(small, small.Bounds(), img, img.Bounds(), xdraw.Src, nil)
	in := interior(l, step.Placements[0].Cell)
	cell := image.Rect(int(float64(in.Min.X)*scale), int(float64(in.Min.Y)*scale), int(float64(in.Max.X)*scale), int(float64(in.Max.Y)*scale))
	// Count the pixels near the entry ink the digit is drawn in.
	ink := themeSpecs[Light].inks[iEntry]
	dark := 0
	for y := cell.Min.Y; y < cell.Max.Y; y++ {
		for x := cell.Min.X; x < cell.Max.X; x++ {
			c := small.RGBAAt(x, y)
			if absDiff(c.R, ink.R)+absDiff(c.G, ink.G)+absDiff(c.B, ink.B) < 90 {
				dark++
			}
		}
	}
	// A 9x9 cell is about 40 px square at this size; a digit drawn large
	// covers well over 30 of its pixels, a candidate only a few.
	for _, th := range []int{60, 90, 120} {
		k := 0
		for y := cell.Min.Y; y < cell.Max.Y; y++ {
			for x := cell.Min.X; x < cell.Max.X; x++ {
				c := small.RGBAAt(x, y)
				if int(c.R)+int(c.G)+int(c.B) < 3*th {
					k++
				}
			}
		}
		t.Logf("th %d dark %d of %d", th, k, cell.Dx()*cell.Dy())
	}
	if dark < 30 {
		t.Errorf("at 400 px the placed %d in %s has %d dark pixels in a %dx%d cell, want a readable digit",
			step.Placements[0].Value, puzzle.Shape.CellName(step.Placements[0].Cell), dark, cell.Dx(), cell.Dy())
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
