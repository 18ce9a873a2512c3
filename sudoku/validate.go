package sudoku

import (
	"fmt"
	"strings"
)

// Clash is a rule broken by the filled cells of a grid: Value appears more
// than once in Unit, at Cells (cell indexes, in reading order).
type Clash struct {
	Unit  Unit
	Value int
	Cells []int
}

// Describe says the clash in words, naming cells as the boards label them:
// "5 is twice in row A (A1, A9)", "7 is 3 times in box 5 (D4, E5, F6)".
func (c Clash) Describe(s Shape, a Alphabet) string {
	names := make([]string, len(c.Cells))
	for i, cell := range c.Cells {
		names[i] = s.CellName(cell)
	}
	times := "twice"
	if len(c.Cells) > 2 {
		times = fmt.Sprintf("%d times", len(c.Cells))
	}
	return fmt.Sprintf("%c is %s in %s (%s)", a.Symbol(c.Value), times, c.Unit, strings.Join(names, ", "))
}

// Clashes returns every clash in g, units in the order rows, columns, boxes
// and values ascending within a unit. An empty result means no filled cell
// breaks a rule (the grid may still have no solution).
func (g *Grid) Clashes() []Clash {
	geo := g.Shape.Geometry()
	var out []Clash
	var where [MaxN + 1][]int
	for ui, cells := range geo.UnitCells {
		for v := range where {
			where[v] = where[v][:0]
		}
		for _, cell := range cells {
			if v := g.Cells[cell]; v != 0 {
				where[v] = append(where[v], cell)
			}
		}
		for v := 1; v <= g.N(); v++ {
			if len(where[v]) > 1 {
				out = append(out, Clash{Unit: geo.Units[ui], Value: v, Cells: append([]int(nil), where[v]...)})
			}
		}
	}
	return out
}
