package sudoku

import "math/bits"

// singles decides quickly whether a puzzle falls to hidden singles alone
// (full houses included): in some row, column or box a digit has one place
// left, so it goes there; repeat until the grid is full.
//
// Such a puzzle has exactly one solution (every placement was forced), and on
// the Sudoku Explainer scale it rates at most 1.5: when the easiest step is
// always taken, no step is ever harder than a hidden single. That makes it a
// search-free stand-in for "unique and easy" while clues are being removed;
// the finished puzzle is still rated with Rate.
type singles struct {
	n     int
	geo   *Geometry
	all   uint32
	vals  []uint8
	unitM []uint32 // placed digits per unit (rows, columns, boxes)
}

func newSingles(sh Shape) *singles {
	n := sh.N()
	return &singles{
		n:     n,
		geo:   sh.Geometry(),
		all:   uint32(1)<<n - 1,
		vals:  make([]uint8, n*n),
		unitM: make([]uint32, 3*n),
	}
}

// solves reports whether hidden singles alone fill cells. cells must hold a
// clash-free puzzle; it is not modified.
func (s *singles) solves(cells []uint8) bool {
	copy(s.vals, cells)
	clear(s.unitM)
	empty := 0
	for cell, v := range s.vals {
		if v == 0 {
			empty++
			continue
		}
		for _, u := range s.geo.CellUnits[cell] {
			s.unitM[u] |= 1 << (v - 1)
		}
	}
	for empty > 0 {
		placed := 0
		for u, unitCells := range s.geo.UnitCells {
			// once: digits with a place in the unit; twice: with two or more.
			var once, twice uint32
			for _, cell := range unitCells {
				if s.vals[cell] == 0 {
					c := s.candidates(cell)
					twice |= once & c
					once |= c
				}
			}
			missing := s.all &^ s.unitM[u]
			if missing&^once != 0 {
				return false // a digit has no place left: the clues clash
			}
			for hidden := missing &^ twice; hidden != 0; hidden &= hidden - 1 {
				bit := hidden & -hidden
				for _, cell := range unitCells {
					if s.vals[cell] == 0 && s.candidates(cell)&bit != 0 {
						s.vals[cell] = uint8(bits.TrailingZeros32(bit) + 1)
						for _, v := range s.geo.CellUnits[cell] {
							s.unitM[v] |= bit
						}
						placed++
						break
					}
				}
			}
		}
		if placed == 0 {
			return false
		}
		empty -= placed
	}
	return true
}

func (s *singles) candidates(cell int) uint32 {
	u := &s.geo.CellUnits[cell]
	return s.all &^ (s.unitM[u[0]] | s.unitM[u[1]] | s.unitM[u[2]])
}
