package sudoku

import (
	"fmt"
	"math/bits"
	"strings"
)

// Chains. A node is a candidate (cell, digit) that is either ON (the cell
// holds the digit) or OFF. Two kinds of link make one node force another:
//   - weak: if a candidate is ON, every candidate it sees (the same digit in
//     a peer cell, another digit in the same cell) is OFF;
//   - strong: if a candidate is OFF and it has one partner left (the other
//     place of its digit in a unit, the other digit of a two-candidate
//     cell), the partner is ON.
//
// The search assumes a target candidate ON and follows weak and strong
// links in turn, breadth first, until it reaches an ON candidate that sees
// the target: the target can't be true. Read from the target's first
// neighbour on, the path is an alternating inference chain "a OFF ⇒ … ⇒ x
// ON", so a or x is true, and every candidate that sees both a and x goes.
//
// Sudoku Explainer rates a chain 6.6 when its links are all of one kind
// (X-chains: one digit, links along units; XY-chains: links inside
// two-candidate cells) and 7.0 when they mix, plus 0.1 each time the length
// passes 4, 6, 8, 12, 16, 24, … nodes.

// maxChainNodes is the longest chain the search looks for.
const maxChainNodes = 16

// chainLinks selects the links a search may use.
type chainLinks struct {
	unitStrong bool // conjugate pairs of a digit in a unit
	cellStrong bool // the two candidates of a bivalue cell
	cellWeak   bool // two candidates of the same cell
}

var (
	xLinks   = chainLinks{unitStrong: true}
	xyLinks  = chainLinks{cellStrong: true}
	aicLinks = chainLinks{unitStrong: true, cellStrong: true, cellWeak: true}
)

// chainScratch is the reusable memory of the breadth-first search. Nodes
// are numbered (cell*n+digit)*2 + 1 for ON, + 0 for OFF.
type chainScratch struct {
	stamp  []uint32
	parent []int32
	depth  []int32
	queue  []int32
	cur    uint32
	// strong[ci*4:ci*4+strongN[ci]] are the ON nodes candidate ci's OFF
	// node forces, for the links of the current sweep (see prepStrong).
	strong  []int32
	strongN []uint8
	// strongPos[u*n+d] has bit i set when digit d+1's candidate in the
	// i-th cell of unit u forces something (strongN > 0); strongCell[c]
	// has bit d set when c's candidate d+1 does. Only such OFF nodes
	// lead anywhere.
	strongPos, strongCell []uint32
}

func (b *board) scratch() *chainScratch {
	if b.chains == nil {
		size := len(b.cand) * b.n * 2
		b.chains = &chainScratch{
			stamp:      make([]uint32, size),
			parent:     make([]int32, size),
			depth:      make([]int32, size),
			queue:      make([]int32, 0, size),
			strong:     make([]int32, size*2),
			strongN:    make([]uint8, size/2),
			strongPos:  make([]uint32, len(b.pos)),
			strongCell: make([]uint32, len(b.cand)),
		}
	}
	return b.chains
}

// prepStrong lists, for every candidate, the candidates its being false
// makes true under links lk: the other place of its digit in a unit where
// it has two, the other candidate of a two-candidate cell. A sweep calls it
// once, so the searches need not recount.
func (b *board) prepStrong(lk chainLinks) {
	n := b.n
	g := b.g
	s := b.scratch()
	clear(s.strongPos)
	for cell, m := range b.cand {
		s.strongCell[cell] = 0
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			ci := cell*n + d
			cnt := 0
			if lk.unitStrong {
				for k := 0; k < 3; k++ {
					u := g.cellUnits[cell][k]
					if p := b.pos[u*n+d]; bits.OnesCount32(p) == 2 {
						c2 := g.unitCells[u][bits.TrailingZeros32(p&^(1<<g.cellIdx[cell][k]))]
						s.strong[ci*4+cnt] = int32((c2*n+d)<<1 | 1)
						cnt++
					}
				}
			}
			if lk.cellStrong && bits.OnesCount32(b.cand[cell]) == 2 {
				s.strong[ci*4+cnt] = int32((cell*n+bits.TrailingZeros32(b.cand[cell]&^(1<<d)))<<1 | 1)
				cnt++
			}
			s.strongN[ci] = uint8(cnt)
			if cnt > 0 {
				s.strongCell[cell] |= 1 << d
				for k, u := range g.cellUnits[cell] {
					s.strongPos[u*n+d] |= 1 << g.cellIdx[cell][k]
				}
			}
		}
	}
}

// chainLengthBonus is Sudoku Explainer's length penalty, in tenths.
func chainLengthBonus(length int) int {
	added, ceil, odd := 0, 4, false
	for length > ceil {
		added++
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	return added
}

// chainBFS searches from target candidate e (cell*n+digit) assumed ON for
// the nearest ON candidate that sees e, using links lk and paths shorter
// than limit nodes after e. It returns the path of nodes from e, or nil.
func (b *board) chainBFS(e int, lk chainLinks, limit int, path []int32) []int32 {
	n := b.n
	g := b.g
	s := b.scratch()
	s.cur++
	if s.cur == 0 { // wrapped: forget every old stamp
		clear(s.stamp)
		s.cur = 1
	}
	eCell, eD := e/n, e%n
	start := int32(e<<1 | 1)
	s.stamp[start], s.parent[start], s.depth[start] = s.cur, -1, 0
	q := append(s.queue[:0], start)
	for head := 0; head < len(q); head++ {
		node := q[head]
		dep := s.depth[node] + 1
		if int(dep) >= limit {
			break // breadth first: every later node is at least as deep
		}
		ci := int(node >> 1)
		cell, d := ci/n, ci%n
		if node&1 == 1 {
			// ON: weak links to OFF. An OFF node that forces nothing
			// (no strong link) ends there: it is not queued at all, which
			// changes no path, since it would be nobody's parent.
			for k := 0; k < 3; k++ {
				u := g.cellUnits[cell][k]
				for m := s.strongPos[u*n+d] &^ (1 << g.cellIdx[cell][k]); m != 0; m &= m - 1 {
					c2 := g.unitCells[u][bits.TrailingZeros32(m)]
					next := int32((c2*n + d) << 1)
					if s.stamp[next] != s.cur {
						s.stamp[next], s.parent[next], s.depth[next] = s.cur, node, dep
						q = append(q, next)
					}
				}
			}
			if lk.cellWeak {
				for m := s.strongCell[cell] &^ (1 << d); m != 0; m &= m - 1 {
					next := int32((cell*n + bits.TrailingZeros32(m)) << 1)
					if s.stamp[next] != s.cur {
						s.stamp[next], s.parent[next], s.depth[next] = s.cur, node, dep
						q = append(q, next)
					}
				}
			}
			continue
		}
		// OFF: strong links to ON.
		nexts := s.strong[ci*4 : ci*4+int(s.strongN[ci])]
		for _, next := range nexts {
			if s.stamp[next] == s.cur {
				continue
			}
			s.stamp[next], s.parent[next], s.depth[next] = s.cur, node, dep
			q = append(q, next)
			xc, xd := int(next>>1)/n, int(next>>1)%n
			if (xd == eD && g.sees(xc, eCell)) || (xc == eCell && xd != eD) {
				s.queue = q
				return b.chainPath(next, path)
			}
		}
	}
	s.queue = q
	return nil
}

// chainPath reads the path ending at node back from the parents.
func (b *board) chainPath(node int32, path []int32) []int32 {
	s := b.chains
	path = path[:0]
	for x := node; x >= 0; x = s.parent[x] {
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// shortestChain runs the search from every candidate (restricted to digit
// d unless d < 0) and returns the shortest path found.
func (b *board) shortestChain(lk chainLinks, limit int) []int32 {
	return b.shortestChainAt(lk, limit, false)
}

// shortestChainAt is shortestChain; with bivalue set it only tries target
// candidates in cells of two candidates.
func (b *board) shortestChainAt(lk chainLinks, limit int, bivalue bool) []int32 {
	b.prepStrong(lk)
	var best, buf []int32
	for cell, m := range b.cand {
		if bivalue && bits.OnesCount32(m) != 2 {
			continue
		}
		for ; m != 0; m &= m - 1 {
			e := cell*b.n + bits.TrailingZeros32(m)
			p := b.chainBFS(e, lk, limit, buf)
			if p == nil {
				continue
			}
			best, buf = p, best
			limit = len(p) - 1 // strictly shorter from now on
		}
	}
	return best
}

// findChains finds the easiest chain step: the lowest score over X-chains,
// XY-chains and mixed chains.
func findChains(b *board) (Step, bool) {
	// Chains longer than maxChainNodes would score 7.5 or more; the forcing
	// chains (which find everything a chain finds) are rated there too.
	//
	// Mixed chains use every link, so when they find nothing nothing else
	// can: search them first and the common case, no chain at all, costs
	// one sweep. When the shortest chain mixes links (7.0+), a longer pure
	// one may still score less (6.6+): look for those within the length
	// that could.
	best := b.shortestChain(aicLinks, maxChainNodes+1)
	if best == nil {
		return Step{}, false
	}
	bestScore := b.chainScore(best)
	if bestScore >= 70 {
		for _, lk := range [...]chainLinks{xLinks, xyLinks} {
			limit := 0 // the longest pure chain that would score no more
			for l := 1; l <= maxChainNodes && 66+chainLengthBonus(l) <= bestScore; l++ {
				limit = l
			}
			// XY-chains score as pure ones only from a bivalue target.
			if p := b.shortestChainAt(lk, limit+1, lk == xyLinks); p != nil {
				if sc := b.chainScore(p); sc <= bestScore {
					best, bestScore = p, sc
				}
			}
		}
	}
	st := b.chainStep(best, bestScore)
	if b.batch && float64(bestScore)/10 > levelBounds[Expert] {
		// Only beyond the expert band: up to it, Rate takes exactly the
		// steps a step-by-step solver (and the generator's cut-short
		// rating) takes.
		b.batchChains(&st, best, bestScore)
	}
	return st, true
}

// batchChains adds to st the eliminations of every other chain as short as
// best that scores no more: when rating, one pass then does the work of
// many.
func (b *board) batchChains(st *Step, best []int32, score int) {
	n := b.n
	seen := make(map[Candidate]bool, len(st.Eliminations))
	for _, e := range st.Eliminations {
		seen[e] = true
	}
	var buf []int32
	lk := aicLinks
	switch b.chainClass(best) {
	case techTurbot, techXChain:
		lk = xLinks
	case techXYChain:
		lk = xyLinks
	}
	b.prepStrong(lk)
	for cell, m := range b.cand {
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m)
			if seen[Candidate{cell, d + 1}] {
				continue
			}
			p := b.chainBFS(cell*n+d, lk, len(best), buf)
			if p == nil || b.chainScore(p) > score {
				continue
			}
			buf = p
			for _, e := range b.chainElims(p) {
				if !seen[e] {
					seen[e] = true
					st.Eliminations = append(st.Eliminations, e)
				}
			}
		}
	}
}

// chainClass tells which links a path uses: pure X, pure XY, or mixed.
func (b *board) chainClass(p []int32) string {
	n := b.n
	unitLink, cellLink := false, false
	for i := 1; i < len(p); i++ {
		if int(p[i]>>1)/n == int(p[i-1]>>1)/n {
			cellLink = true
		} else if p[i]&1 == 1 {
			unitLink = true // a strong link along a unit
		}
	}
	last := int(p[len(p)-1] >> 1)
	if last/n == int(p[0]>>1)/n {
		cellLink = true
	}
	switch {
	case !cellLink:
		if len(p)-1 == 4 {
			return techTurbot
		}
		return techXChain
	case !unitLink:
		return techXYChain
	}
	return techAIC
}

// isWWing reports whether a path is a W-Wing: two cells with the same two
// candidates {x,y}, joined by a strong link on y, so one of them is x. As a
// chain: A x≠ ⇒ A y= ⇒ C y≠ ⇒ D y= ⇒ B y≠ ⇒ B x=, with C-D a strong link
// along a unit. (Sudoku Explainer has no name for it and rates it as the
// mixed chain it is.)
func (b *board) isWWing(p []int32) bool {
	if len(p) != 7 {
		return false
	}
	n := b.n
	cell := func(i int) int { return int(p[i]>>1) / n }
	digit := func(i int) int { return int(p[i]>>1) % n }
	A, B := cell(1), cell(6)
	return A != B && cell(2) == A && cell(5) == B && cell(3) != cell(4) &&
		b.cand[A] == b.cand[B] && bits.OnesCount32(b.cand[A]) == 2 &&
		digit(1) == digit(6) && digit(2) == digit(3) && digit(3) == digit(4) && digit(4) == digit(5)
}

// chainScore is the SE score of a path, in tenths. As in Sudoku Explainer,
// an XY-chain scores as a pure chain (6.6) only when the candidate it
// removes is in a cell of two candidates (SE starts Y-chains only there);
// otherwise it scores as a mixed forcing chain (7.0).
func (b *board) chainScore(p []int32) int {
	base := 66
	switch b.chainClass(p) {
	case techAIC:
		base = 70
	case techXYChain:
		if bits.OnesCount32(b.cand[int(p[0]>>1)/b.n]) != 2 {
			base = 70
		}
	}
	return base + chainLengthBonus(len(p)-1)
}

// weakLinked reports whether candidates x and y (cell*n+digit) can't both
// be true.
func (b *board) weakLinked(x, y int) bool {
	n := b.n
	xc, xd, yc, yd := x/n, x%n, y/n, y%n
	if xc == yc {
		return xd != yd
	}
	return xd == yd && b.g.sees(xc, yc)
}

// chainElims lists the candidates that see both ends of the chain p.
func (b *board) chainElims(p []int32) []Candidate {
	n := b.n
	a, x := int(p[1]>>1), int(p[len(p)-1]>>1)
	var elims []Candidate
	for cell, m := range b.cand {
		for ; m != 0; m &= m - 1 {
			f := cell*n + bits.TrailingZeros32(m)
			if f != a && f != x && b.weakLinked(f, a) && b.weakLinked(f, x) {
				elims = append(elims, Candidate{cell, f%n + 1})
			}
		}
	}
	return elims
}

func (b *board) chainStep(p []int32, score int) Step {
	n := b.n
	a, x := int(p[1]>>1), int(p[len(p)-1]>>1)
	elims := b.chainElims(p)
	var causes []Candidate
	var cells []int
	for _, node := range p[1:] {
		ci := int(node >> 1)
		c := Candidate{ci / n, ci%n + 1}
		causes = append(causes, c)
		if len(cells) == 0 || cells[len(cells)-1] != c.Cell {
			cells = append(cells, c.Cell)
		}
	}
	end := func(ci int) string { return b.name(ci/n) + " is " + b.sym(ci%n+1) }
	name := b.chainClass(p)
	if b.isWWing(p) {
		name = techWWing
	}
	return Step{
		Technique:    name,
		Score:        float64(score) / 10,
		Eliminations: elims,
		Cells:        cells,
		Causes:       causes,
		Where:        fmt.Sprintf("%d links starting at %s", len(p)-2, b.name(a/n)),
		Explanation: fmt.Sprintf("%s. So %s or %s, and either way %s is ruled out: remove %s.",
			b.chainLinks(p), end(a), end(x), b.candList(elims), b.elimList(elims)),
	}
}

// chainLinks states a chain link by link, each with its reason: "If E7 is
// not 4, E7 is 7 (the cell's only other candidate); then E4 is not 7 (it
// sees E7); …".
func (b *board) chainLinks(p []int32) string {
	n := b.n
	var sb strings.Builder
	for i, node := range p[1:] {
		ci := int(node >> 1)
		cell, d := ci/n, ci%n
		on := node&1 == 1
		what := b.name(cell) + " is " + b.sym(d+1)
		if !on {
			what = b.name(cell) + " is not " + b.sym(d+1)
		}
		if i == 0 {
			sb.WriteString("If " + what)
			continue
		}
		prev := int(p[i] >> 1)
		pc := prev / n
		var why string
		switch {
		case on && pc == cell:
			why = "the cell's only other candidate"
		case on:
			why = fmt.Sprintf("the only other place for %s in %s", b.sym(d+1), b.sharedUnitWith(pc, cell, d))
		case pc == cell:
			why = "a cell holds one digit"
		default:
			why = fmt.Sprintf("it sees %s", b.name(pc))
		}
		if i == 1 {
			sb.WriteString(", " + what + " (" + why + ")")
		} else {
			sb.WriteString("; then " + what + " (" + why + ")")
		}
	}
	return sb.String()
}

// sharedUnitWith names a unit holding cells a and b where digit d (0-based)
// has only those two places, or any unit they share.
func (b *board) sharedUnitWith(a, c, d int) Unit {
	b.refresh()
	var shared Unit
	found := false
	for k := 0; k < 3; k++ {
		u := b.g.cellUnits[a][k]
		if u != b.g.cellUnits[c][k] {
			continue
		}
		unit := b.g.units[u]
		if bits.OnesCount32(b.pos[u*b.n+d]) == 2 {
			return unit
		}
		if !found {
			shared, found = unit, true
		}
	}
	return shared
}

// candList names candidates as "4 in B7 and C7", or cell by cell when the
// digits differ: "4 in B7 and 6 in C7".
func (b *board) candList(cs []Candidate) string {
	same := true
	for _, c := range cs {
		if c.Value != cs[0].Value {
			same = false
		}
	}
	if same && len(cs) > 0 {
		cells := make([]int, len(cs))
		for i, c := range cs {
			cells[i] = c.Cell
		}
		return b.sym(cs[0].Value) + " in " + b.cellList(cells, "and")
	}
	words := make([]string, len(cs))
	for i, c := range cs {
		words[i] = b.sym(c.Value) + " in " + b.name(c.Cell)
	}
	return joinWords(words, "and")
}
