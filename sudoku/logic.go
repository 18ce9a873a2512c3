package sudoku

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"sync"
)

// logicGeo is the geometry the logical solver needs on top of Geometry:
// where each cell sits inside its units and the masks of box rows, box
// columns and line segments. It is shared per shape and never modified.
type logicGeo struct {
	shape     Shape
	n, size   int
	units     []Unit
	unitCells [][]int
	cellUnits [][3]int
	// cellIdx[c][k] is c's position (0..n-1) inside its k-th unit (row,
	// column, box): its column, its row, its place in the box.
	cellIdx       [][3]int
	row, col, box []int
	peers         [][]int
	// boxRowMask[i] and boxColMask[j] are the positions inside a box that
	// lie in its i-th row and j-th column.
	boxRowMask, boxColMask []uint32
	// rowSeg[k] is the set of columns (as positions in a row) of the k-th
	// stack of boxes; colSeg[k] the rows of the k-th band.
	rowSeg, colSeg []uint32
	// seExcl[c][i] holds the positions, in c's i-th unit in Sudoku
	// Explainer's order (box, row, column; see seUnits), that an ON
	// potential at c links to no OFF potential of: c itself, and in its
	// row and column the cells of its box, which the box listed already.
	seExcl [][3]uint32
	// cellName[c] is c's name ("D3"), unitName[u] unit u's ("row D"),
	// made once so explanations do not build them step after step.
	cellName, unitName []string
	// defaultSyms holds the default alphabet's symbols (see board.syms).
	defaultSyms []string
}

var logicGeos sync.Map // Shape -> *logicGeo

func logicGeoFor(s Shape) *logicGeo {
	if g, ok := logicGeos.Load(s); ok {
		return g.(*logicGeo)
	}
	g, _ := logicGeos.LoadOrStore(s, newLogicGeo(s))
	return g.(*logicGeo)
}

func newLogicGeo(s Shape) *logicGeo {
	geo := s.Geometry()
	n := s.N()
	lg := &logicGeo{
		shape: s, n: n, size: n * n,
		units: geo.Units, unitCells: geo.UnitCells, cellUnits: geo.CellUnits, peers: geo.Peers,
		cellIdx: make([][3]int, n*n),
		row:     make([]int, n*n), col: make([]int, n*n), box: make([]int, n*n),
	}
	for u, cells := range geo.UnitCells {
		for i, c := range cells {
			lg.cellIdx[c][u/n] = i
		}
	}
	for c := 0; c < n*n; c++ {
		lg.row[c], lg.col[c] = c/n, c%n
		lg.box[c] = s.BoxOf(c/n, c%n)
	}
	for i := 0; i < s.BoxRows; i++ {
		lg.boxRowMask = append(lg.boxRowMask, (uint32(1)<<s.BoxCols-1)<<(i*s.BoxCols))
	}
	for j := 0; j < s.BoxCols; j++ {
		var m uint32
		for i := 0; i < s.BoxRows; i++ {
			m |= 1 << (i*s.BoxCols + j)
		}
		lg.boxColMask = append(lg.boxColMask, m)
	}
	for k := 0; k < n/s.BoxCols; k++ {
		lg.rowSeg = append(lg.rowSeg, (uint32(1)<<s.BoxCols-1)<<(k*s.BoxCols))
	}
	for k := 0; k < n/s.BoxRows; k++ {
		lg.colSeg = append(lg.colSeg, (uint32(1)<<s.BoxRows-1)<<(k*s.BoxRows))
	}
	for c := 0; c < n*n; c++ {
		lg.cellName = append(lg.cellName, s.CellName(c))
	}
	for _, u := range lg.units {
		lg.unitName = append(lg.unitName, u.String())
	}
	lg.defaultSyms = symbolsOf(DefaultAlphabet(n))
	lg.seExcl = make([][3]uint32, lg.size)
	for c := range lg.seExcl {
		for i, k := range seKind {
			for j, x := range lg.unitCells[lg.cellUnits[c][k]] {
				if x == c || (i > 0 && lg.box[x] == lg.box[c]) {
					lg.seExcl[c][i] |= 1 << j
				}
			}
		}
	}
	return lg
}

// sees reports whether two different cells share a row, column or box.
func (g *logicGeo) sees(a, b int) bool {
	return a != b && (g.row[a] == g.row[b] || g.col[a] == g.col[b] || g.box[a] == g.box[b])
}

// board is the logical solver's state: placed values and the candidates
// of the empty cells, with per-unit digit positions derived on demand.
type board struct {
	g     *logicGeo
	n     int
	all   uint32
	alpha Alphabet
	syms  []string // syms[v-1] is alpha's symbol for v; shared, read-only
	vals  []uint8
	cand  []uint32 // 0 for filled cells
	left  int      // empty cells

	// Derived from cand and vals by refresh; valid while fresh.
	fresh bool
	// pos[u*n+d] has bit i set when digit d+1 is a candidate of the i-th
	// cell of unit u.
	pos []uint32
	// placed[u] has bit d set when digit d+1 is filled in unit u.
	placed []uint32
	// empties[u] counts the empty cells of unit u.
	empties []int

	chains *chainScratch // allocated on first use
	probe  *probe        // allocated on first use
	dyn    *dynCache     // allocated on first use
	stat   *dynCache     // allocated on first use
	se     *seEngine     // allocated on first use
	// aligned remembers the last aligned exclusions that found nothing
	// (tech_sealigned.go); allocated on first use.
	aligned *alignedMemo
	// seRate lets the rater follow Sudoku Explainer (tech_sechain.go): a
	// 9x9 puzzle with one solution. SE's chains cost far more than the
	// ladder's, and on a grid with many solutions they find nothing.
	seRate bool
	// seCap, when above 0, is the hardest score met so far: a chain step
	// scoring no more will do (see rateSteps).
	seCap float64

	// batch lets a forcing-chain step carry every conclusion of the same
	// score, not just the first: rating needs the score, not the story,
	// and it saves many passes.
	batch bool
	// untold leaves the SE chain steps without an explanation: a rating
	// that shows its steps to no one needs only their scores and
	// candidates.
	untold bool
	// urMissing lets a unique rectangle's two corners beside the floor
	// each lack one digit of the pair (a player erased it, or a step
	// removed it). The rectangle still can't happen when the givens alone
	// have one solution: swapped, the grid would fit every given,
	// whatever the candidates (not so when only the marks make the
	// solution unique). HoDoKu allows it; SE does not, so hints take it
	// and ratings don't.
	urMissing bool
}

func newBoard(g *Grid) (*board, error) {
	if !g.Shape.Valid() || len(g.Cells) != g.Shape.Size() {
		return nil, fmt.Errorf("grid has shape %s and %d cells; that is not a playable grid", g.Shape, len(g.Cells))
	}
	if cl := g.Clashes(); len(cl) > 0 {
		return nil, fmt.Errorf("the grid breaks the rules: %s", cl[0].Describe(g.Shape, g.Alphabet))
	}
	lg := logicGeoFor(g.Shape)
	n := lg.n
	b := &board{
		g: lg, n: n, all: uint32(1)<<n - 1, alpha: g.Alphabet,
		vals:    append([]uint8(nil), g.Cells...),
		cand:    g.Candidates(),
		pos:     make([]uint32, 3*n*n),
		placed:  make([]uint32, 3*n),
		empties: make([]int, 3*n),
	}
	if b.alpha.Len() != n {
		b.alpha = DefaultAlphabet(n)
	}
	b.syms = lg.defaultSyms
	if b.alpha != DefaultAlphabet(n) {
		b.syms = symbolsOf(b.alpha)
	}
	if g.Marks != nil {
		if len(g.Marks) != len(g.Cells) {
			return nil, fmt.Errorf("grid has pencil marks for %d cells, want %d", len(g.Marks), len(g.Cells))
		}
		for c, m := range g.Marks {
			if g.Cells[c] == 0 && m != 0 {
				b.cand[c] &= m
			}
		}
	}
	for _, v := range b.vals {
		if v == 0 {
			b.left++
		} else if int(v) > n {
			return nil, fmt.Errorf("grid holds value %d, more than its %d symbols", v, n)
		}
	}
	return b, nil
}

// clone returns a deep copy of b's position, without its caches.
func (b *board) clone() *board {
	c := *b
	c.vals = append([]uint8(nil), b.vals...)
	c.cand = append([]uint32(nil), b.cand...)
	c.pos = append([]uint32(nil), b.pos...)
	c.placed = append([]uint32(nil), b.placed...)
	c.empties = append([]int(nil), b.empties...)
	c.chains = nil
	c.probe = nil
	c.dyn = nil
	c.stat = nil
	c.se = nil
	return &c
}

// refresh recomputes the per-unit positions after any change.
func (b *board) refresh() {
	if b.fresh {
		return
	}
	n := b.n
	clear(b.pos)
	for u, cells := range b.g.unitCells {
		var placed uint32
		empties := 0
		p := b.pos[u*n : u*n+n]
		for i, c := range cells {
			if v := b.vals[c]; v != 0 {
				placed |= 1 << (v - 1)
				continue
			}
			empties++
			for m := b.cand[c]; m != 0; m &= m - 1 {
				p[bits.TrailingZeros32(m)] |= 1 << i
			}
		}
		b.placed[u] = placed
		b.empties[u] = empties
	}
	b.fresh = true
}

// broken reports whether the position has visibly no solution: an empty
// cell without candidates or a missing digit with no place in some unit.
func (b *board) broken() bool {
	for c, v := range b.vals {
		if v == 0 && b.cand[c] == 0 {
			return true
		}
	}
	b.refresh()
	n := b.n
	for u := range b.g.units {
		missing := b.all &^ b.placed[u]
		for m := missing; m != 0; m &= m - 1 {
			if b.pos[u*n+bits.TrailingZeros32(m)] == 0 {
				return true
			}
		}
	}
	return false
}

// place fills cell with v and removes v from its peers' candidates. When
// the per-unit positions are fresh it keeps them so, changing only the
// units around cell and its peers rather than leaving refresh to redo the
// whole grid.
func (b *board) place(cell, v int) {
	if b.vals[cell] != 0 {
		return
	}
	bit := uint32(1) << (v - 1)
	if b.fresh {
		g, n := b.g, b.n
		for k, u := range g.cellUnits[cell] {
			i := uint32(1) << g.cellIdx[cell][k]
			for m := b.cand[cell]; m != 0; m &= m - 1 {
				b.pos[u*n+bits.TrailingZeros32(m)] &^= i
			}
			b.placed[u] |= bit
			b.empties[u]--
		}
		for _, p := range g.peers[cell] {
			if b.cand[p]&bit != 0 {
				b.unpos(p, v-1)
			}
		}
	}
	b.vals[cell] = uint8(v)
	b.cand[cell] = 0
	b.left--
	for _, p := range b.g.peers[cell] {
		b.cand[p] &^= bit
	}
}

// unpos clears cell's place for digit d+1 in the positions of its units.
func (b *board) unpos(cell, d int) {
	g, n := b.g, b.n
	for k, u := range g.cellUnits[cell] {
		b.pos[u*n+d] &^= 1 << g.cellIdx[cell][k]
	}
}

// eliminate removes candidate v from cell, keeping fresh positions fresh.
func (b *board) eliminate(cell, v int) {
	bit := uint32(1) << (v - 1)
	if b.cand[cell]&bit == 0 {
		return
	}
	b.cand[cell] &^= bit
	if b.fresh {
		b.unpos(cell, v-1)
	}
}

// has reports whether v is a candidate of cell.
func (b *board) has(cell, v int) bool { return b.cand[cell]&(1<<(v-1)) != 0 }

// apply carries out a step: eliminations first, then placements.
func (b *board) apply(st *Step) error {
	for _, e := range st.Eliminations {
		if e.Cell < 0 || e.Cell >= len(b.cand) || e.Value < 1 || e.Value > b.n {
			return fmt.Errorf("step %q removes %d from cell %d, which is off the grid", st.Technique, e.Value, e.Cell)
		}
		b.eliminate(e.Cell, e.Value)
	}
	for _, p := range st.Placements {
		if p.Cell < 0 || p.Cell >= len(b.cand) || p.Value < 1 || p.Value > b.n {
			return fmt.Errorf("step %q places %d in cell %d, which is off the grid", st.Technique, p.Value, p.Cell)
		}
		if b.vals[p.Cell] != 0 {
			if int(b.vals[p.Cell]) == p.Value {
				continue
			}
			return fmt.Errorf("step %q places %s in %s, which already holds %s",
				st.Technique, b.sym(p.Value), b.name(p.Cell), b.sym(int(b.vals[p.Cell])))
		}
		if !b.has(p.Cell, p.Value) {
			return fmt.Errorf("step %q places %s in %s, which is not a candidate there",
				st.Technique, b.sym(p.Value), b.name(p.Cell))
		}
		b.place(p.Cell, p.Value)
	}
	return nil
}

func (b *board) grid() *Grid {
	return &Grid{Shape: b.g.shape, Alphabet: b.alpha, Cells: append([]uint8(nil), b.vals...)}
}

// markedGrid is grid with the board's candidates as pencil marks.
func (b *board) markedGrid() *Grid {
	g := b.grid()
	g.Marks = append([]uint32(nil), b.cand...)
	return g
}

// ApplyStep returns position g after step st: st's placements filled in and
// its eliminations (and the candidates its placements rule out) removed from
// the pencil marks, which the result always carries. It fails when st does
// not fit g (a placement on a filled cell or of a value that is not a
// candidate, a cell off the grid).
func ApplyStep(g *Grid, st Step) (*Grid, error) {
	b, err := newBoard(g)
	if err != nil {
		return nil, err
	}
	if err := b.apply(&st); err != nil {
		return nil, err
	}
	return b.markedGrid(), nil
}

// technique is one entry of the solver's ladder.
type technique struct {
	name  string
	score float64 // the smallest score its steps can have; the ladder is sorted by it
	find  func(b *board) (Step, bool)
	// assumesUnique marks techniques that take a single solution for
	// granted (unique rectangles, BUG+1): they may not prove uniqueness.
	assumesUnique bool
}

// ladder lists the techniques easiest first; the solver always takes the
// first that finds a step. Techniques with a range of scores (chains) find
// their easiest step themselves.
var ladder []technique

func init() {
	ladder = []technique{
		{name: techFullHouse, score: 1.0, find: findFullHouse},
		{name: techHiddenSingleBox, score: 1.2, find: findHiddenSingleBox},
		{name: techHiddenSingleLine, score: 1.5, find: findHiddenSingleLine},
		{name: techDirectPointing, score: 1.7, find: findDirectPointing},
		{name: techDirectClaiming, score: 1.9, find: findDirectClaiming},
		{name: techDirectHiddenPair, score: 2.0, find: findDirectHiddenPair},
		{name: techNakedSingle, score: 2.3, find: findNakedSingle},
		{name: techDirectHiddenTriple, score: 2.5, find: findDirectHiddenTriple},
		{name: techPointing, score: 2.6, find: findPointing},
		{name: techClaiming, score: 2.8, find: findClaiming},
		{name: techNakedPair, score: 3.0, find: findNakedPair},
		{name: techXWing, score: 3.2, find: findXWing},
		{name: techHiddenPair, score: 3.4, find: findHiddenPair},
		{name: techNakedTriple, score: 3.6, find: findNakedTriple},
		{name: techSwordfish, score: 3.8, find: findSwordfish},
		{name: techHiddenTriple, score: 4.0, find: findHiddenTriple},
		{name: techXYWing, score: 4.2, find: findXYWing},
		{name: techXYZWing, score: 4.4, find: findXYZWing},
		{name: techUR1, score: 4.5, find: findUniqueRectangle, assumesUnique: true},
		{name: techNakedQuad, score: 5.0, find: findNakedQuad},
		{name: techJellyfish, score: 5.2, find: findJellyfish},
		{name: techHiddenQuad, score: 5.4, find: findHiddenQuad},
		{name: techBUG, score: 5.6, find: findBUG, assumesUnique: true},
		{name: techXChain, score: 6.6, find: findChains},
		{name: techNishio, score: 7.5, find: findNishio},
		{name: techStaticCell, score: 8.0, find: findMultiple},
		{name: techContradiction, score: 8.5, find: findDynamic},
	}
}

// next finds the easiest step available, if any.
func (b *board) next() (Step, bool) {
	if b.left == 0 {
		return Step{}, false
	}
	b.refresh()
	for i := range ladder {
		if st, ok := ladder[i].find(b); ok {
			return st, true
		}
	}
	return Step{}, false
}

// Logic is a logical solver working on one position: the values placed and
// the candidates left. It finds steps the way a person would, easiest
// technique first. Use NewLogic, then NextStep and ApplyStep in turn.
//
// The uniqueness techniques (unique rectangles, BUG+1) assume the position
// has exactly one solution; Logic does not check that (Hint does).
type Logic struct {
	b *board
}

// NewLogic starts a logical solver on position g. The candidates of its
// empty cells are g's pencil marks (Grid.Marks) where it has any, else the
// plain ones. It fails when g breaks the rules.
func NewLogic(g *Grid) (*Logic, error) {
	b, err := newBoard(g)
	if err != nil {
		return nil, err
	}
	return &Logic{b: b}, nil
}

// NextStep returns the easiest step from the current position, or false
// when the position is solved or no technique the solver knows applies.
func (l *Logic) NextStep() (Step, bool) { return l.b.next() }

// ApplyStep carries out st (found by NextStep or passed around as data):
// it removes st's eliminations and fills st's placements. It fails, and may
// leave the position half changed, when a placement does not fit.
func (l *Logic) ApplyStep(st Step) error { return l.b.apply(&st) }

// Grid returns the current position as a grid (a copy).
func (l *Logic) Grid() *Grid { return l.b.grid() }

// Candidates returns the current pencil marks (a copy): bit v-1 of entry c
// is set when v is still possible in cell c; filled cells have 0.
func (l *Logic) Candidates() []uint32 { return append([]uint32(nil), l.b.cand...) }

// Solved reports whether every cell is filled.
func (l *Logic) Solved() bool { return l.b.left == 0 }

// Run applies steps until the position is solved, no step applies, or ctx
// ends, and returns the steps taken. It reports ctx's error when cut short.
func (l *Logic) Run(ctx context.Context) ([]Step, error) {
	var steps []Step
	for {
		if err := ctx.Err(); err != nil {
			return steps, err
		}
		st, ok := l.b.next()
		if !ok {
			return steps, nil
		}
		if err := l.b.apply(&st); err != nil {
			return steps, err
		}
		steps = append(steps, st)
	}
}

// Text helpers shared by the techniques' explanations.

func (b *board) name(cell int) string { return b.g.cellName[cell] }

func (b *board) sym(v int) string {
	if v >= 1 && v <= len(b.syms) {
		return b.syms[v-1]
	}
	return string(b.alpha.Symbol(v))
}

// symbolsOf returns a's symbols as strings, in value order.
func symbolsOf(a Alphabet) []string {
	var syms []string
	for _, r := range string(a) {
		syms = append(syms, string(r))
	}
	return syms
}

// joinWords joins words as people write lists: "a", "a and b", "a, b and c".
func joinWords(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

func (b *board) cellList(cells []int, conj string) string {
	words := make([]string, len(cells))
	for i, c := range cells {
		words[i] = b.name(c)
	}
	return joinWords(words, conj)
}

func (b *board) symList(mask uint32, conj string) string {
	var words []string
	for m := mask; m != 0; m &= m - 1 {
		words = append(words, b.sym(bits.TrailingZeros32(m)+1))
	}
	return joinWords(words, conj)
}

// unitList names units of one kind together: "rows 2 and 6".
func unitList(units []Unit) string {
	if len(units) == 0 {
		return ""
	}
	if len(units) == 1 {
		return units[0].String()
	}
	words := make([]string, len(units))
	for i, u := range units {
		if u.Kind == Row {
			words[i] = RowName(u.Index)
		} else {
			words[i] = fmt.Sprint(u.Index + 1)
		}
	}
	return units[0].Kind.String() + "s " + joinWords(words, "and")
}

// elimList describes eliminations compactly: "7 from D3 and I8" when
// they are all one value, else grouped by cell with semicolons between the
// cells, so no digit can be read as belonging to the wrong cell: "1 and 2
// from I8; 2 from I9".
func (b *board) elimList(elims []Candidate) string {
	same := true
	for _, e := range elims {
		if e.Value != elims[0].Value {
			same = false
			break
		}
	}
	if same {
		cells := make([]int, len(elims))
		for i, e := range elims {
			cells[i] = e.Cell
		}
		return b.sym(elims[0].Value) + " from " + b.cellList(cells, "and")
	}
	var order []int
	masks := map[int]uint32{}
	for _, e := range elims {
		if _, ok := masks[e.Cell]; !ok {
			order = append(order, e.Cell)
		}
		masks[e.Cell] |= 1 << (e.Value - 1)
	}
	words := make([]string, len(order))
	for i, c := range order {
		words[i] = b.symList(masks[c], "and") + " from " + b.name(c)
	}
	return strings.Join(words, "; ")
}

// cellsOf lists the cells of unit u at the positions set in mask.
func (b *board) cellsOf(u int, mask uint32) []int {
	out := make([]int, 0, bits.OnesCount32(mask))
	cells := b.g.unitCells[u]
	for m := mask; m != 0; m &= m - 1 {
		out = append(out, cells[bits.TrailingZeros32(m)])
	}
	return out
}

// stepCells marks in cells every cell whose candidates a step's reasoning
// looks at (an over-approximation: its units, its cells, the cells of its
// causes; for chains, the units around the chain too, since a strong link
// rests on a digit's other places in a unit). It reports true when the
// step may rest on any cell (BUG+1 and the forcing chains look at the
// whole grid).
func (b *board) stepCells(st *Step, cells []bool) bool {
	g := b.g
	switch st.Technique {
	case techFullHouse, techReveal:
		return false // values only
	case techBUG, techNishio, techContradiction, techCellForcing, techUnitForcing, techStaticCell, techStaticUnit:
		return true
	case techTurbot, techXChain, techXYChain, techAIC, techWWing:
		for _, c := range st.Causes {
			cells[c.Cell] = true
			for _, p := range g.peers[c.Cell] {
				cells[p] = true
			}
		}
		return false
	}
	for _, u := range st.Units {
		for _, c := range g.unitCells[int(u.Kind)*b.n+u.Index] {
			cells[c] = true
		}
	}
	for _, c := range st.Cells {
		cells[c] = true
	}
	for _, c := range st.Causes {
		cells[c.Cell] = true
	}
	for _, c := range st.Placements {
		cells[c.Cell] = true
	}
	return false
}
