package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"

	"sudokubot/sudoku"
)

// mustDecode decodes PNG bytes.
func mustDecode(t testing.TB, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("png.Decode: %v", err)
	}
	return img
}

func mustPNG(t testing.TB, b *Board, opts ImageOptions) image.Image {
	t.Helper()
	data, err := b.PNG(opts)
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	return mustDecode(t, data)
}

func rgbaAt(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// countColor counts the pixels of r that have colour c exactly.
func countColor(img image.Image, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgbaAt(img, x, y) == c {
				n++
			}
		}
	}
	return n
}

// interior is the part of a cell's rectangle clear of its lines.
func interior(l layout, cell int) image.Rectangle {
	return l.cellRect(cell/l.n, cell%l.n).Inset(l.thick)
}

func TestImageSize(t *testing.T) {
	for _, s := range testShapes {
		for _, theme := range []Theme{Light, Dark} {
			t.Run(shapeName(s)+"-"+theme.String(), func(t *testing.T) {
				puzzle, _ := newTestPuzzle(t, s)
				b := New(puzzle)
				b.Caption = "Daily #325 · hard · 3.4"
				img := mustPNG(t, b, ImageOptions{Theme: theme})
				w, h := img.Bounds().Dx(), img.Bounds().Dy()
				// The grid takes DefaultCellSize per cell plus margins
				// for the labels and the caption (on big boards the labels
				// grow to stay legible in a 400 px preview).
				cell := DefaultCellSize(s.N())
				grid := s.N() * cell
				if w < grid || w > grid+3*cell/2 || h < grid || h > grid+5*cell/2 {
					t.Errorf("image is %dx%d, want a little over the %d px grid", w, h, grid)
				}
				if s == sudoku.Shape9 && (w < 600 || w > 900 || h < 600 || h > 900) {
					t.Errorf("9x9 image is %dx%d, want 600-900 px a side", w, h)
				}
				if got, want := rgbaAt(img, 1, 1), themeSpecs[theme].papers[pBG]; got != want {
					t.Errorf("corner pixel = %v, want the background %v", got, want)
				}
			})
		}
	}
}

func TestImageCellSize(t *testing.T) {
	g := mustGrid(t, classicPuzzle)
	small := mustPNG(t, New(g), ImageOptions{CellSize: 30}).Bounds()
	big := mustPNG(t, New(g), ImageOptions{CellSize: 100}).Bounds()
	if small.Dx() >= big.Dx() || small.Dx() < 9*30 || big.Dx() < 9*100 {
		t.Errorf("CellSize 30 gives %v, 100 gives %v; want them to scale", small, big)
	}
	for _, size := range []int{-1, 5, MaxCellSize + 1} {
		if _, err := New(g).PNG(ImageOptions{CellSize: size}); err == nil {
			t.Errorf("PNG(CellSize %d): want an error", size)
		}
	}
	if _, err := New(g).PNG(ImageOptions{Theme: Theme(7)}); err == nil {
		t.Errorf("PNG(Theme 7): want an error")
	}
}

func TestImageHighlights(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	// One cell per mark, and a cell with every mark to check which wins.
	marked := []struct {
		cell  int
		mark  Mark
		paper int
	}{
		{2, Clash, pClash},
		{11, Wrong, pClash},
		{20, Differ, pDiffer},
		{30, Target, pTarget},
		{32, Cause, pCause},
		{48, Tint, pTint},
		{60, Cause | Target | Tint, pTarget},
		{62, Clash | Differ | Cause, pClash},
		{70, 0, pBG},
	}
	for _, theme := range []Theme{Light, Dark} {
		t.Run(theme.String(), func(t *testing.T) {
			b := New(puzzle)
			for _, m := range marked {
				b.MarkCells(m.mark, m.cell)
			}
			l, err := newLayout(b, ImageOptions{Theme: theme})
			if err != nil {
				t.Fatal(err)
			}
			img := mustPNG(t, b, ImageOptions{Theme: theme})
			for _, m := range marked {
				in := interior(l, m.cell)
				want := themeSpecs[theme].papers[m.paper]
				if got := rgbaAt(img, in.Min.X, in.Min.Y); got != want {
					t.Errorf("cell %s (marks %b): interior pixel = %v, want %v", puzzle.Shape.CellName(m.cell), m.mark, got, want)
				}
			}
		})
	}
}

func TestImageDigits(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	position := puzzle.Clone()
	// A1 is a given 5; A3 gets an entry 5 (wrong) and A4 a right entry 6.
	position.Cells[2], position.Cells[3] = 5, 6
	solution := mustGrid(t, classicSolution)
	b := Playing(puzzle, position).WithWrong(solution)
	for _, theme := range []Theme{Light, Dark} {
		t.Run(theme.String(), func(t *testing.T) {
			spec := themeSpecs[theme]
			l, _ := newLayout(b, ImageOptions{Theme: theme})
			img := mustPNG(t, b, ImageOptions{Theme: theme})
			given := countColor(img, interior(l, 0), spec.inks[iGiven])
			wrong := countColor(img, interior(l, 2), spec.inks[iWrong])
			entry := countColor(img, interior(l, 3), spec.inks[iEntry])
			empty := interior(l, 5) // A6 is empty: background only
			if n := countColor(img, empty, spec.papers[pBG]); n != empty.Dx()*empty.Dy() {
				t.Errorf("empty cell A6 has %d background pixels of %d", n, empty.Dx()*empty.Dy())
			}
			if given < 100 {
				t.Errorf("given 5 in A1 has %d ink pixels, want a solid digit", given)
			}
			if wrong < 50 || entry < 50 {
				t.Errorf("wrong entry in A3 has %d red pixels, entry in A4 %d entry-colour pixels; want digits", wrong, entry)
			}
			// Givens are bold: the same 5 has more ink as a given than as
			// an entry.
			if given <= wrong {
				t.Errorf("given 5 has %d ink pixels, entry 5 has %d; want the given bolder", given, wrong)
			}
			if n := countColor(img, interior(l, 2), spec.papers[pClash]); n == 0 {
				t.Errorf("wrong entry A3 has no red fill")
			}
		})
	}
}

func TestImagePencil(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	step := sudoku.Step{
		Placements:   []sudoku.Candidate{{Cell: 40, Value: 5}},
		Eliminations: []sudoku.Candidate{{Cell: 38, Value: 2}},
		Causes:       []sudoku.Candidate{{Cell: 39, Value: 5}},
	}
	b := New(puzzle).WithStep(step)
	b.Pencil = puzzle.Candidates()
	spec := themeSpecs[Light]
	l, _ := newLayout(b, ImageOptions{})
	img := mustPNG(t, b, ImageOptions{})
	// E5 (cell 40) is the target: blue, with the placed 5 drawn large as
	// an entry (a candidate-sized disc is unreadable at preview size).
	in := interior(l, 40)
	if n := countColor(img, in, spec.inks[iEntry]); n < 50 {
		t.Errorf("E5 has %d entry-colour pixels, want the placed 5 drawn large", n)
	}
	if n := countColor(img, in, spec.papers[pDiscGreen]); n != 0 {
		t.Errorf("E5 has %d green disc pixels, want the 5 as a digit, not a candidate", n)
	}
	if n := countColor(img, in, spec.papers[pTarget]); n < 100 {
		t.Errorf("E5 has %d target pixels", n)
	}
	// E3 (cell 38): 2 is removed, on a red disc in the top-middle sub-cell.
	in = interior(l, 38)
	top := image.Rect(in.Min.X+in.Dx()/3, in.Min.Y, in.Max.X-in.Dx()/3, in.Min.Y+in.Dy()/3)
	if n := countColor(img, top, spec.papers[pDiscRed]); n < 20 {
		t.Errorf("E3's top-middle has %d red disc pixels", n)
	}
	// A3 (cell 2) has pencil marks 1, 2, 4: grey ink in the top row of its
	// sub-grid, none in the bottom row (7, 8, 9 are not candidates).
	in = interior(l, 2)
	topRow := image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+in.Dy()/3)
	bottomRow := image.Rect(in.Min.X, in.Max.Y-in.Dy()/3, in.Max.X, in.Max.Y)
	if got := puzzle.Candidates()[2]; got != 0b1011 {
		t.Fatalf("Candidates()[A3] = %b, want 1, 2, 4", got)
	}
	if n := countColor(img, topRow, spec.inks[iPencil]); n < 10 {
		t.Errorf("A3's top row has %d pencil pixels, want 1 and 2", n)
	}
	if n := countColor(img, bottomRow, spec.inks[iPencil]); n != 0 {
		t.Errorf("A3's bottom row has %d pencil pixels, want none", n)
	}
}

func TestImageCaptionAndLabels(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	plain := New(puzzle)
	captioned := New(puzzle)
	captioned.Caption = "Daily #325 · hard · 3.4"
	l, _ := newLayout(captioned, ImageOptions{})
	a := mustPNG(t, plain, ImageOptions{})
	b := mustPNG(t, captioned, ImageOptions{})
	if b.Bounds().Dy() <= a.Bounds().Dy() {
		t.Errorf("captioned image is %v, plain %v; want room for the caption", b.Bounds(), a.Bounds())
	}
	ink := themeSpecs[Light].inks[iGiven]
	if n := countColor(b, image.Rect(0, 0, l.width, l.captionH), ink); n < 100 {
		t.Errorf("caption strip has %d ink pixels, want text", n)
	}
	// Row letters in the left margin, column numbers above the grid.
	pencil := themeSpecs[Light].inks[iPencil]
	if n := countColor(b, image.Rect(0, l.top, l.left-l.thick, l.height), pencil); n < 9*10 {
		t.Errorf("left margin has %d label pixels, want nine letters", n)
	}
	if n := countColor(b, image.Rect(l.left, l.captionH, l.width, l.top-l.thick), pencil); n < 9*10 {
		t.Errorf("top margin has %d label pixels, want nine numbers", n)
	}
}

func TestImageNeverPanics(t *testing.T) {
	// Odd but valid boards: every shape, every candidate, letters alphabet,
	// and a caption with runes the font lacks.
	for _, s := range testShapes {
		puzzle, _ := newTestPuzzle(t, s)
		b := New(puzzle)
		b.Pencil = make([]uint32, s.Size())
		b.Green = make([]uint32, s.Size())
		for i := range b.Pencil {
			b.Pencil[i] = 1<<s.N() - 1
			b.Green[i] = 1
		}
		b.Caption = "漢字 🧩 " + s.String()
		for _, theme := range []Theme{Light, Dark} {
			if _, err := b.PNG(ImageOptions{Theme: theme, CellSize: MinCellSize}); err != nil {
				t.Errorf("%s: %v", s, err)
			}
		}
	}
	letters := newTestSolution(sudoku.Shape9)
	letters.Alphabet = "AELMNOSTW"
	if _, err := New(letters).PNG(ImageOptions{}); err != nil {
		t.Errorf("letters alphabet: %v", err)
	}
}

func TestImageConcurrent(t *testing.T) {
	// Many goroutines draw boards of every shape at once (run with -race);
	// each image must match the one drawn alone.
	type job struct {
		board *Board
		opts  ImageOptions
	}
	var jobs []job
	for i, s := range testShapes {
		puzzle, solution := newTestPuzzle(t, s)
		b := Solved(puzzle, solution).MarkCells(Target, 0).MarkCells(Clash, 1)
		b.Caption = fmt.Sprintf("shape %s", s)
		p := New(puzzle)
		p.Pencil = puzzle.Candidates()
		theme := Theme(i % 2)
		jobs = append(jobs, job{b, ImageOptions{Theme: theme, CellSize: 30}}, job{p, ImageOptions{Theme: 1 - theme, CellSize: 30}})
	}
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		data, err := j.board.PNG(j.opts)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = data
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(jobs))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				i := (k + g) % len(jobs)
				data, err := jobs[i].board.PNG(jobs[i].opts)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(data, want[i]) {
					errs <- fmt.Errorf("job %d: concurrent render differs from the one drawn alone", i)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestPaletteFits(t *testing.T) {
	for _, theme := range []Theme{Light, Dark} {
		p := palettes[theme]
		if len(p.colors) > 256 {
			t.Errorf("%s palette has %d colours", theme, len(p.colors))
		}
		// Full coverage of an ink over any paper is the ink itself.
		for paper := 0; paper < numPapers; paper++ {
			for ink := 0; ink < numInks; ink++ {
				if got := p.blend[p.paper[paper]][ink][aaLevels]; got != p.ink[ink] {
					t.Errorf("%s: ink %d at full cover over paper %d = index %d, want %d", theme, ink, paper, got, p.ink[ink])
				}
				if got := p.blend[p.paper[paper]][ink][0]; got != p.paper[paper] {
					t.Errorf("%s: ink %d at no cover over paper %d = index %d, want the paper", theme, ink, paper, got)
				}
			}
		}
	}
}

func benchmarkPNG(b *testing.B, s sudoku.Shape, pencil bool) {
	puzzle, solution := newTestPuzzle(b, s)
	board := Solved(puzzle, solution)
	if pencil {
		board = New(puzzle)
		board.Pencil = puzzle.Candidates()
	}
	board.Caption = "Daily #325 · hard · 3.4"
	board.MarkCells(Target, 3).MarkCells(Cause, 4, 5)
	var size int
	cpu := cpuTime()
	for b.Loop() {
		data, err := board.PNG(ImageOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	if cpu := cpuTime() - cpu; cpu > 0 {
		b.ReportMetric(cpu*1000/float64(b.N), "cpu-ms/png")
	}
	b.ReportMetric(float64(size)/1024, "KiB")
}

// BenchmarkPNG9x9 is the bot's most common picture: a solved 9x9.
func BenchmarkPNG9x9(b *testing.B)       { benchmarkPNG(b, sudoku.Shape9, false) }
func BenchmarkPNG9x9Pencil(b *testing.B) { benchmarkPNG(b, sudoku.Shape9, true) }
func BenchmarkPNG16x16(b *testing.B)     { benchmarkPNG(b, sudoku.Shape16, false) }
func BenchmarkPNG25x25(b *testing.B)     { benchmarkPNG(b, sudoku.Shape25, false) }
func BenchmarkPNG25x25Pencil(b *testing.B) {
	benchmarkPNG(b, sudoku.Shape25, true)
}

func BenchmarkText9x9(b *testing.B) {
	puzzle, solution := newTestPuzzle(b, sudoku.Shape9)
	board := Solved(puzzle, solution)
	for b.Loop() {
		if _, ok := board.CodeBlock(TextOptions{}, 0); !ok {
			b.Fatal("CodeBlock did not fit")
		}
	}
}
