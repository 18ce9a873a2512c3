package render

import (
	"testing"

	"sudokubot/sudoku"
)

func FuzzParseCellName(f *testing.F) {
	for _, s := range []string{"A1", "i9", "r1c1", "R9C9", "Y25", "r25c25", "", "A", "1A", "J10", "r0c0", "ÄÖ"} {
		f.Add(s, 9)
	}
	f.Add("P16", 16)
	f.Add("Y25", 25)
	f.Fuzz(func(t *testing.T, name string, n int) {
		shape, ok := sudoku.ShapeFor(n)
		if !ok {
			return
		}
		cell, err := ParseCellName(shape, name)
		if err != nil {
			return
		}
		if cell < 0 || cell >= shape.Size() {
			t.Fatalf("ParseCellName(%s, %q) = %d, outside the grid", shape, name, cell)
		}
		// The canonical name reads back to the same cell.
		if back, err := ParseCellName(shape, shape.CellName(cell)); err != nil || back != cell {
			t.Fatalf("ParseCellName(CellName(%d)) = %d, %v", cell, back, err)
		}
	})
}

// FuzzBoard draws boards built from arbitrary bytes: whatever a caller puts
// in a Board, drawing returns an error or a picture, never a panic.
func FuzzBoard(f *testing.F) {
	f.Add(uint8(3), uint8(3), []byte{1, 2, 3, 0, 9, 10, 255}, "Daily #1 · easy", uint8(0))
	f.Add(uint8(2), uint8(3), []byte{6, 6, 0, 1}, "", uint8(1))
	f.Add(uint8(5), uint8(5), []byte{25, 26}, "🧩", uint8(2))
	f.Fuzz(func(t *testing.T, br, bc uint8, cells []byte, caption string, theme uint8) {
		shape := sudoku.Shape{BoxRows: int(br % 8), BoxCols: int(bc % 8)}
		alphabet := sudoku.Alphabet("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		if shape.Valid() {
			alphabet = sudoku.DefaultAlphabet(shape.N())
		}
		g := &sudoku.Grid{Shape: shape, Alphabet: alphabet, Cells: make([]uint8, shape.Size())}
		for i := range g.Cells {
			if i < len(cells) {
				g.Cells[i] = cells[i]
			}
		}
		b := New(g)
		b.Caption = caption
		if shape.Valid() {
			b.Pencil = make([]uint32, shape.Size())
			for i := range b.Pencil {
				if i < len(cells) {
					b.Pencil[i] = uint32(cells[i]) * 0x01010101
				}
			}
			b.MarkCells(Mark(theme), 0, shape.Size()-1)
		}
		if _, err := b.Text(TextOptions{Markers: true}); err != nil && b.Check() == nil {
			t.Fatalf("Text failed on a board that checks: %v", err)
		}
		b.CodeBlock(TextOptions{}, 0)
		b.Image(ImageOptions{Theme: Theme(theme % 3), CellSize: MinCellSize})
	})
}
