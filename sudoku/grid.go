package sudoku

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxN is the largest number of symbols a grid may have (25x25).
const MaxN = 25

// Shape is the shape of a box: BoxRows rows tall and BoxCols columns wide.
// A grid of that shape has N = BoxRows*BoxCols rows, columns, boxes and
// symbols. A 6x6 Sudoku, for instance, has boxes 2 rows tall and 3 wide.
type Shape struct {
	BoxRows, BoxCols int
}

// Common shapes.
var (
	Shape4  = Shape{2, 2}
	Shape6  = Shape{2, 3}
	Shape8  = Shape{2, 4}
	Shape9  = Shape{3, 3}
	Shape12 = Shape{3, 4}
	Shape16 = Shape{4, 4}
	Shape25 = Shape{5, 5}
)

// ShapeFor returns the usual box shape for a grid of n symbols: square boxes
// when n is a square, else boxes wider than tall with the rows as close to the
// columns as possible (6: 2x3, 8: 2x4, 12: 3x4). It reports false when n has no
// such shape (primes, n > MaxN, n < 4).
func ShapeFor(n int) (Shape, bool) {
	if n < 4 || n > MaxN {
		return Shape{}, false
	}
	best := Shape{}
	for r := 2; r*r <= n; r++ {
		if n%r == 0 {
			best = Shape{r, n / r}
		}
	}
	return best, best.BoxRows != 0
}

// N is the number of symbols, rows, columns and boxes.
func (s Shape) N() int { return s.BoxRows * s.BoxCols }

// Size is the number of cells, N*N.
func (s Shape) Size() int { n := s.N(); return n * n }

// Valid reports whether s is a playable shape: boxes at least 1x2 and N
// between 4 and MaxN.
func (s Shape) Valid() bool {
	return s.BoxRows >= 1 && s.BoxCols >= 1 && s.N() >= 4 && s.N() <= MaxN &&
		(s.BoxRows >= 2 || s.BoxCols >= 2)
}

// String names the shape the way players do: "9x9", or "6x6 (2x3 boxes)"
// where the boxes are not square.
func (s Shape) String() string {
	n := s.N()
	if s.BoxRows == s.BoxCols {
		return fmt.Sprintf("%dx%d", n, n)
	}
	return fmt.Sprintf("%dx%d (%dx%d boxes)", n, n, s.BoxRows, s.BoxCols)
}

// Alphabet is the ordered list of a grid's symbols: the rune at index v-1
// stands for value v. It must hold N distinct runes, none of them a blank
// marker.
type Alphabet string

// DefaultAlphabet returns the alphabet people expect for n symbols:
// "1".."9" for n <= 9, "123456789ABCDEFG" for 16 (the parser also accepts
// "0123456789ABCDEF"), "ABCDEFGHIJKLMNOPQRSTUVWXY" for 25, and digits then
// letters for other sizes.
func DefaultAlphabet(n int) Alphabet {
	const digitsLetters = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	switch {
	case n <= 9:
		return Alphabet(digitsLetters[:n])
	case n == 25:
		return "ABCDEFGHIJKLMNOPQRSTUVWXY"
	default:
		return Alphabet(digitsLetters[:n])
	}
}

// Len is the number of symbols.
func (a Alphabet) Len() int { return utf8.RuneCountInString(string(a)) }

// Symbol returns the rune for value v (1-based), or '.' for 0 or a value out
// of range.
func (a Alphabet) Symbol(v int) rune {
	if v <= 0 {
		return '.'
	}
	i := 1
	for _, r := range string(a) {
		if i == v {
			return r
		}
		i++
	}
	return '.'
}

// Value returns the value (1-based) of rune r, or 0 when r is not in the
// alphabet. Letters match without regard to case.
func (a Alphabet) Value(r rune) int {
	i := 1
	for _, s := range string(a) {
		if s == r {
			return i
		}
		i++
	}
	if up := []rune(strings.ToUpper(string(r))); len(up) == 1 && up[0] != r {
		return a.Value(up[0])
	}
	if lo := []rune(strings.ToLower(string(r))); len(lo) == 1 && lo[0] != r {
		i = 1
		for _, s := range string(a) {
			if s == lo[0] {
				return i
			}
			i++
		}
	}
	return 0
}

// Grid is a Sudoku grid: its shape, its symbols, and the value of each cell
// in row-major order (0 for an empty cell, 1..N for a filled one).
type Grid struct {
	Shape    Shape
	Alphabet Alphabet
	Cells    []uint8
	// Marks are the player's pencil marks, when there are any: nil, or one
	// bitmask per cell with bit v-1 set when value v is still a candidate.
	// A zero mask on an empty cell means the player marked nothing there
	// (every value the peers allow is assumed); masks on filled cells are
	// ignored. A pasted pencil-mark grid and a game with marks fill it; the
	// solver, hints and rating honour it.
	Marks []uint32
}

// New returns an empty grid of shape s with the default alphabet.
func New(s Shape) *Grid {
	return &Grid{Shape: s, Alphabet: DefaultAlphabet(s.N()), Cells: make([]uint8, s.Size())}
}

// N is the number of symbols of g.
func (g *Grid) N() int { return g.Shape.N() }

// Get returns the value at row r, column c (0-based).
func (g *Grid) Get(r, c int) int { return int(g.Cells[r*g.Shape.N()+c]) }

// Set stores value v at row r, column c (0-based).
func (g *Grid) Set(r, c, v int) { g.Cells[r*g.Shape.N()+c] = uint8(v) }

// Clone returns a deep copy of g.
func (g *Grid) Clone() *Grid {
	c := *g
	c.Cells = append([]uint8(nil), g.Cells...)
	if g.Marks != nil {
		c.Marks = append([]uint32(nil), g.Marks...)
	}
	return &c
}

// Equal reports whether g and o have the same shape and the same cell values
// (alphabets may differ).
func (g *Grid) Equal(o *Grid) bool {
	if g.Shape != o.Shape || len(g.Cells) != len(o.Cells) {
		return false
	}
	for i := range g.Cells {
		if g.Cells[i] != o.Cells[i] {
			return false
		}
	}
	return true
}

// Clues counts the filled cells.
func (g *Grid) Clues() int {
	n := 0
	for _, v := range g.Cells {
		if v != 0 {
			n++
		}
	}
	return n
}

// Complete reports whether every cell is filled (not whether it is correct).
func (g *Grid) Complete() bool { return g.Clues() == len(g.Cells) }

// String returns the one-line form: every cell in row-major order, '.' for
// an empty cell, symbols from g.Alphabet.
func (g *Grid) String() string {
	var b strings.Builder
	b.Grow(len(g.Cells))
	for _, v := range g.Cells {
		b.WriteRune(g.Alphabet.Symbol(int(v)))
	}
	return b.String()
}

// CellName returns the name people see for a cell index in a grid of shape
// s, matching the labels on every board the bot draws: the row as a letter
// from the top (A, B, …) and the column as a number from the left, so
// CellName(Shape9, 0) == "A1" and the bottom-right cell of a 9x9 is "I9".
func (s Shape) CellName(cell int) string {
	n := s.N()
	return RowName(cell/n) + strconv.Itoa(cell%n+1)
}

// RowName returns the letter of row r (0-based): "A" for the top row.
func RowName(r int) string { return string(rune('A' + r)) }

// UnitKind says whether a unit is a row, a column or a box.
type UnitKind uint8

// The three kinds of unit.
const (
	Row UnitKind = iota
	Column
	Box
)

func (k UnitKind) String() string {
	switch k {
	case Row:
		return "row"
	case Column:
		return "column"
	case Box:
		return "box"
	}
	return fmt.Sprintf("UnitKind(%d)", uint8(k))
}

// Unit is one row, column or box; Index is 0-based.
type Unit struct {
	Kind  UnitKind
	Index int
}

// String names the unit for people, as the boards label it: rows by letter
// ("row D"), columns and boxes by number from 1 ("column 6", "box 5", boxes
// counted in reading order).
func (u Unit) String() string {
	if u.Kind == Row {
		return "row " + RowName(u.Index)
	}
	return fmt.Sprintf("%s %d", u.Kind, u.Index+1)
}

// Geometry holds the precomputed cell lists of a shape. It is shared and must
// not be modified.
type Geometry struct {
	Shape Shape
	// Units lists every unit: rows 0..N-1, then columns, then boxes.
	Units []Unit
	// UnitCells[i] holds the cells of Units[i] in reading order.
	UnitCells [][]int
	// CellUnits[c] holds the indexes into Units of c's row, column and box.
	CellUnits [][3]int
	// Peers[c] holds every other cell that shares a unit with c.
	Peers [][]int
}

var geometries sync.Map // Shape -> *Geometry

// Geometry returns the shared, precomputed geometry of s.
func (s Shape) Geometry() *Geometry {
	if g, ok := geometries.Load(s); ok {
		return g.(*Geometry)
	}
	g, _ := geometries.LoadOrStore(s, newGeometry(s))
	return g.(*Geometry)
}

// BoxOf returns the box index of the cell at row r, column c.
func (s Shape) BoxOf(r, c int) int {
	return (r/s.BoxRows)*(s.N()/s.BoxCols) + c/s.BoxCols
}

func newGeometry(s Shape) *Geometry {
	n := s.N()
	g := &Geometry{Shape: s}
	g.Units = make([]Unit, 0, 3*n)
	g.UnitCells = make([][]int, 3*n)
	for k := Row; k <= Box; k++ {
		for i := 0; i < n; i++ {
			g.Units = append(g.Units, Unit{k, i})
		}
	}
	g.CellUnits = make([][3]int, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cell := r*n + c
			b := s.BoxOf(r, c)
			g.UnitCells[r] = append(g.UnitCells[r], cell)
			g.UnitCells[n+c] = append(g.UnitCells[n+c], cell)
			g.UnitCells[2*n+b] = append(g.UnitCells[2*n+b], cell)
			g.CellUnits[cell] = [3]int{r, n + c, 2*n + b}
		}
	}
	g.Peers = make([][]int, n*n)
	for cell := range g.Peers {
		seen := map[int]bool{cell: true}
		for _, u := range g.CellUnits[cell] {
			for _, p := range g.UnitCells[u] {
				if !seen[p] {
					seen[p] = true
					g.Peers[cell] = append(g.Peers[cell], p)
				}
			}
		}
	}
	return g
}
