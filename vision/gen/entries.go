package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/font/opentype"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// The pictures package commands reads in its tests of a half-played
// puzzle: one puzzle's givens with a player's entries drawn in the
// renderer's entry ink, some of them wrong (none clashing with what the
// board shows, so only the solution gives them away).
const (
	entriesPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	entriesSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	entriesRight    = 18
	entriesWrong    = 3
)

// runEntries writes entries-light.png, entries-dark.png (with pencil marks
// in the empty cells), entries-photo.jpg (a photo of the light one),
// entries-right.png (the right entries alone), entries-pen.png (printed
// givens, the entries in a black pen: a handwriting font, see
// runDarkPen) and truth.txt (file, puzzle,
// position, pencil marks shown or not) under out.
func runEntries(out string, seed uint64) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	puz, err := sudoku.Parse(entriesPuzzle)
	if err != nil {
		return err
	}
	sol, err := sudoku.Parse(entriesSolution)
	if err != nil {
		return err
	}
	pos := puz.Clone()
	var empty []int
	for i, v := range puz.Cells {
		if v == 0 {
			empty = append(empty, i)
		}
	}
	rng.Shuffle(len(empty), func(a, b int) { empty[a], empty[b] = empty[b], empty[a] })
	for _, i := range empty[:entriesRight] {
		pos.Cells[i] = sol.Cells[i]
	}
	right := pos.Clone()
	wrong := 0
	for _, i := range empty[entriesRight:] {
		if wrong == entriesWrong {
			break
		}
		for _, v := range rng.Perm(9) {
			d := uint8(v + 1)
			if d == sol.Cells[i] {
				continue
			}
			pos.Cells[i] = d
			if len(pos.Clashes()) == 0 && !deadCell(pos) {
				wrong++
				break
			}
			pos.Cells[i] = 0
		}
	}
	if wrong < entriesWrong {
		return fmt.Errorf("entries: placed %d wrong entries without a clash, want %d", wrong, entriesWrong)
	}
	var lines []string
	add := func(name string, marks bool) {
		lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%v", name, puz, pos, marks))
	}
	light := render.Playing(puz, pos)
	img, err := light.Image(render.ImageOptions{Theme: render.Light})
	if err != nil {
		return err
	}
	if err := writePNG(filepath.Join(out, "entries-light.png"), img); err != nil {
		return err
	}
	add("entries-light.png", false)
	dark := render.Playing(puz, pos)
	dark.Pencil = make([]uint32, len(pos.Cells))
	cands := pos.Candidates()
	for i, v := range pos.Cells {
		if v == 0 && rng.IntN(4) > 0 {
			dark.Pencil[i] = cands[i]
		}
	}
	img2, err := dark.Image(render.ImageOptions{Theme: render.Dark, CellSize: 60})
	if err != nil {
		return err
	}
	if err := writePNG(filepath.Join(out, "entries-dark.png"), img2); err != nil {
		return err
	}
	add("entries-dark.png", true)
	var t truth
	if err := photo(rng, source{img: img, grid: pos.String(), name: "entries-light.png"}, "entries-photo.jpg", out, &t); err != nil {
		return err
	}
	add("entries-photo.jpg", false)
	img4, err := render.Playing(puz, right).Image(render.ImageOptions{Theme: render.Light, CellSize: 50})
	if err != nil {
		return err
	}
	if err := writePNG(filepath.Join(out, "entries-right.png"), img4); err != nil {
		return err
	}
	lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%v", "entries-right.png", puz, right, false))
	// A newspaper puzzle filled in with a black pen: only the entries'
	// shape tells them from the print.
	hw := &handMaker{rng: rand.New(rand.NewPCG(seed, 4)), faces: map[string]*opentype.Font{}}
	img5, _, err := hw.drawDarkPen("dpnews", puz, pos, false, true)
	if err != nil {
		return err
	}
	if err := writePNG(filepath.Join(out, "entries-pen.png"), img5); err != nil {
		return err
	}
	add("entries-pen.png", false)
	head := "# file\tpuzzle\tposition (givens and entries)\tpencil marks — made by go run ./vision/gen -entries " + out + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(head+strings.Join(lines, "\n")+"\n"), 0o644)
}

// deadCell reports whether an empty cell of g has no candidate left.
func deadCell(g *sudoku.Grid) bool {
	for i, m := range g.Candidates() {
		if g.Cells[i] == 0 && m == 0 {
			return true
		}
	}
	return false
}
