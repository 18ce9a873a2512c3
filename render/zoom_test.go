package render

import (
	"image"
	"image/color"
	"reflect"
	"slices"
	"testing"

	xdraw "golang.org/x/image/draw"

	"sudokubot/sudoku"
)

func TestWiden(t *testing.T) {
	tests := []struct {
		name      string
		keys      []int
		causes    []int
		n, box    int
		side      int
		want      []int
		wantFalse bool
	}{
		// One key row grows to its whole box first, then evenly around.
		{"one row", []int{6}, nil, 25, 5, 9, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}, false},
		{"one row at the edge", []int{0}, nil, 25, 5, 9, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, false},
		// Far apart keys each keep their box, with a gap between.
		{"two boxes", []int{2, 21}, nil, 25, 5, 9, []int{0, 1, 2, 3, 4, 20, 21, 22, 23}, false},
		// A gap of one is closed before anything else; then the keys'
		// boxes grow nearest their middle.
		{"gap of one", []int{3, 5, 20}, nil, 25, 5, 5, []int{3, 4, 5, 6, 20}, false},
		// The box of the cells that justify a step is filled before the
		// boxes of the cells it clears.
		{"cause box first", []int{2, 4, 13, 15}, []int{2, 4}, 25, 5, 9, []int{0, 1, 2, 3, 4, 12, 13, 14, 15}, false},
		{"too many", []int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}, nil, 25, 5, 9, nil, true},
		{"16x16", []int{15}, nil, 16, 4, 9, []int{7, 8, 9, 10, 11, 12, 13, 14, 15}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, cause := make([]bool, tt.n), make([]bool, tt.n)
			for _, k := range tt.keys {
				key[k] = true
			}
			for _, k := range tt.causes {
				cause[k] = true
			}
			got, ok := widen(key, cause, tt.box, tt.side)
			if ok == tt.wantFalse || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("widen(%v, box %d, side %d) = %v, %v; want %v, %v", tt.keys, tt.box, tt.side, got, ok, tt.want, !tt.wantFalse)
			}
		})
	}
}

// a hard 25x25 (generate -size 25 -level hard -seed 7): its solve path has
// dozens of steps that remove candidates, many spread along a whole row.
const hard25 = "X.QSL..CK..Y.B.H.....RFNI..C.EQ.T..P.D..I...NJ...LDR.TO.LMBA.WE.I..S..C.G.....F.S..X..UQ.L.CPY.M.....I..MG...UT....OA....BSQDSB.J.L.NYX.....CU..VP..H.M..V..T.......SQ..AJ.L...TO.....AUB..P.FD.NREW.YGC..U.AIFJH...VQC....GK..O..HY..C..D..NXU...L.FVQJM.B..DHRAUC.....OL........M...GUPIVQ.KX.FM...N.......J..RHB.LM.....EI.SWX..Y.......W...GH.CQ.KYUPDF...C........DB.....GRQAUH..O.WHLDO.S...PFX..Y..K..MJ..Q..CU....HAL...FTIBY.O..RFK.BDPI.HV.U..XEJ.....CQ...X.KV..LS.......C..U..T.G..VX..AQ.....NPD.M.K.LEIXLR....OE....BP...YN..T.....T.XQV.U.YL..S..D.G.....W.S..L..M.GI.FNEO.QJ.DUG...JB...R..N.D..U.IO.P..UEDP.....K.C.A..RB..FWL.Y"

// TestZoomReadableAtPreview draws the steps of a 25x25 solve that remove
// candidates the way a hint shows them (pencil marks, the step
// highlighted, zoomed), scales each picture to 400 px wide as Discord's
// preview does, and checks the close-up shows every cell of the step and
// that each removed candidate's red disc is big enough to read, where the
// whole board leaves it a speck.
func TestZoomReadableAtPreview(t *testing.T) {
	puzzle := mustGrid(t, hard25)
	logic, err := sudoku.NewLogic(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	n := puzzle.N()
	opts := ImageOptions{Theme: Dark}
	red := themeSpecs[Dark].papers[pDiscRed]
	checked, gaps := 0, 0
	for steps := 0; steps < 400 && checked < 8; steps++ {
		step, ok := logic.NextStep()
		if !ok {
			break
		}
		if len(step.Eliminations) > 0 {
			b := Playing(puzzle, logic.Grid())
			b.Pencil = logic.Candidates()
			b.WithStep(step)
			all := *b
			if !b.Zoom(9) {
				t.Errorf("step %d (%s): Zoom(9) = false, want a close-up", steps, step.Technique)
				continue
			}
			if len(b.Rows) != 9 || len(b.Cols) != 9 {
				t.Errorf("step %d (%s): close-up has %d rows and %d columns, want 9 of each", steps, step.Technique, len(b.Rows), len(b.Cols))
			}
			if len(runs(b.Cols)) > 1 || len(runs(b.Rows)) > 1 {
				gaps++
			}
			for i := 0; i < n*n; i++ {
				if b.highlighted(i) && !(slices.Contains(b.Rows, i/n) && slices.Contains(b.Cols, i%n)) {
					t.Errorf("step %d (%s): %s is highlighted but not in the close-up (rows %v, columns %v)", steps, step.Technique, puzzle.Shape.CellName(i), b.Rows, b.Cols)
				}
			}
			zoomed, minZoomed := redAtPreview(t, b, opts, step, red)
			whole, _ := redAtPreview(t, &all, opts, step, red)
			// At 400 px a close-up's red disc, a letter on it, shows 20 px
			// of red or more (50 to 300 where a cell holds few marks); the
			// whole 25x25 board leaves a speck of 2 to 10.
			if minZoomed < 15 {
				t.Errorf("step %d (%s): at 400 px a removed candidate's red disc shows %d px of red (all: %v), want 15 or more", steps, step.Technique, minZoomed, zoomed)
			}
			for i := range zoomed {
				if zoomed[i] < 4*whole[i] {
					t.Errorf("step %d (%s): removed %v shows %d px of red in the close-up, %d on the whole board: want 4 times as many", steps, step.Technique, step.Eliminations[i], zoomed[i], whole[i])
				}
			}
			checked++
		}
		if err := logic.ApplyStep(step); err != nil {
			t.Fatalf("step %d (%s): ApplyStep: %v", steps, step.Technique, err)
		}
	}
	if checked < 8 || gaps == 0 {
		t.Errorf("checked %d steps that remove candidates, %d of them with a gap; want 8, and some", checked, gaps)
	}
}

// redAtPreview draws b, scales it to 400 px wide and returns the number of
// pixels near red in the cell of each of step's removals, and the least
// (or, with the whole board, the most) of them.
func redAtPreview(t *testing.T, b *Board, opts ImageOptions, step sudoku.Step, red color.RGBA) (counts []int, least int) {
	t.Helper()
	l, err := newLayout(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	img := mustPNG(t, b, opts)
	const w = 400
	scale := float64(w) / float64(img.Bounds().Dx())
	small := image.NewRGBA(image.Rect(0, 0, w, int(float64(img.Bounds().Dy())*scale)))
	xdraw.CatmullRom.Scale(small, small.Bounds(), img, img.Bounds(), xdraw.Src, nil)
	least = -1
	for _, e := range step.Eliminations {
		in := interior(l, e.Cell)
		cell := image.Rect(int(float64(in.Min.X)*scale), int(float64(in.Min.Y)*scale), int(float64(in.Max.X)*scale+1), int(float64(in.Max.Y)*scale+1))
		k := 0
		for y := cell.Min.Y; y < cell.Max.Y; y++ {
			for x := cell.Min.X; x < cell.Max.X; x++ {
				c := small.RGBAAt(x, y)
				if absDiff(c.R, red.R)+absDiff(c.G, red.G)+absDiff(c.B, red.B) < 60 {
					k++
				}
			}
		}
		counts = append(counts, k)
		if least < 0 || k < least {
			least = k
		}
	}
	return counts, least
}

// TestZoomDeclines checks the boards Zoom leaves whole, and that Check
// refuses rows or columns a board can't show.
func TestZoomDeclines(t *testing.T) {
	p25, _ := newTestPuzzle(t, sudoku.Shape25)
	p9, _ := newTestPuzzle(t, sudoku.Shape9)
	spread := New(p25)
	for i := 0; i < 25; i += 2 {
		spread.MarkCells(Cause, i*25+i) // 13 rows and columns
	}
	tests := []struct {
		name string
		b    *Board
		side int
	}{
		{"no highlights", New(p25).MarkUnit(Tint, sudoku.Unit{Kind: sudoku.Row, Index: 3}), 9},
		{"side covers the board", New(p9).MarkCells(Target, 40), 9},
		{"highlights too spread", spread, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.b.Zoom(tt.side) || tt.b.Rows != nil || tt.b.Cols != nil {
				t.Errorf("Zoom(%d) = true or set rows %v, columns %v; want the board left whole", tt.side, tt.b.Rows, tt.b.Cols)
			}
		})
	}
	for _, bad := range [][]int{{3, 2}, {1, 1}, {-1}, {25}} {
		b := New(p25)
		b.Cols = bad
		if err := b.Check(); err == nil {
			t.Errorf("Check with columns %v = nil, want an error", bad)
		}
	}
	if !spread.Zoom(13) || len(spread.Rows) != 13 {
		t.Errorf("Zoom(13) of 13 spread cells: rows %v, want those 13", spread.Rows)
	}
}
