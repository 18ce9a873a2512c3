package sudoku

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
)

// Setting up the learning search (solve_learn.go): the groups and box-line
// sides of a shape, the root state, and the compaction that drops what the
// root settles.

// learnShape is the part of a learner that depends on the shape only: the
// groups and the box-line sides before compaction. It is built once per
// shape and shared, read-only.
type learnShape struct {
	grp, grpOff      []int32
	varGrp           [][4]int32
	sideOff, sideVar []int32
	sideGrp          []int32 // the group each side is part of
}

var learnShapes sync.Map // Shape -> *learnShape

func learnShapeFor(geo *genGeo) *learnShape {
	key := Shape{geo.br, geo.bc}
	if ls, ok := learnShapes.Load(key); ok {
		return ls.(*learnShape)
	}
	n, size := geo.n, geo.size
	nv, ng := size*n, size+3*n*n
	ls := &learnShape{grp: make([]int32, 0, ng*n)}
	for c := 0; c < size; c++ {
		for v := 0; v < n; v++ {
			ls.grp = append(ls.grp, int32(c*n+v))
		}
	}
	for u := 0; u < 3*n; u++ {
		cells := geo.units[u*n : (u+1)*n]
		for v := 0; v < n; v++ {
			for _, c := range cells {
				ls.grp = append(ls.grp, int32(int(c)*n+v))
			}
		}
	}
	ls.grpOff = make([]int32, ng+1)
	for g := range ls.grpOff {
		ls.grpOff[g] = int32(g * n)
	}
	ls.varGrp = make([][4]int32, nv)
	k := make([]uint8, nv)
	for g := 0; g < ng; g++ {
		for _, x := range ls.grp[g*n : (g+1)*n] {
			ls.varGrp[x][k[x]] = int32(g)
			k[x]++
		}
	}
	ls.buildSides(geo)
	v, _ := learnShapes.LoadOrStore(key, ls)
	return v.(*learnShape)
}

// newLearner builds the solver for shape geo with root candidates cand
// (bitmask per cell, placedFlag ignored). The root is propagated without
// the box-line sides, which compact sets up.
func newLearner(geo *genGeo, cand []uint32, stop *stopper, p learnParams) (*learner, bool) {
	n, size := geo.n, geo.size
	s := &learner{n: n, nv: size * n, ng: size + 3*n*n, stop: stop, p: p}
	sh := learnShapeFor(geo)
	s.grp, s.grpOff, s.varGrp = sh.grp, slices.Clone(sh.grpOff), sh.varGrp
	s.grpLit = groupLits(s.grp)
	s.sideOff, s.sideVar, s.sideGrp = slices.Clone(sh.sideOff), sh.sideVar, sh.sideGrp
	s.nside = len(s.sideOff) - 1
	s.sideBase = int32(s.nv + s.ng + 1)
	s.clBase = s.sideBase + int32(s.nside)
	s.val = make([]int8, s.nv)
	s.lval = make([]int8, 2*s.nv)
	s.vinfo = make([]varInfo, s.nv)
	s.gmask = make([]uint32, s.ng)
	s.bitSide = make([][2]uint16, len(s.grp))
	s.gpos = make([][4]uint8, s.nv)
	s.indexGroups()
	s.trail = make([]lit, 0, s.nv)
	s.watches = make([][]watcher, 2*s.nv)
	s.act = make([]float64, s.nv)
	s.varInc = 1
	s.claInc = 1
	s.phase = make([]int8, s.nv)
	s.target = make([]int8, s.nv)
	s.seen = make([]uint8, s.nv)
	s.shr = make([]uint8, s.nv)
	s.hpos = make([]int32, s.nv)
	for i := range s.hpos {
		s.hpos[i] = -1
	}
	for c := 0; c < size; c++ {
		x := cand[c] &^ placedFlag
		for v := 0; v < n; v++ {
			if x>>v&1 == 0 {
				if s.val[c*n+v] == 0 {
					s.assign(lit(2*(c*n+v)+1), 0)
				} else if s.val[c*n+v] > 0 {
					return s, false
				}
			}
		}
	}
	if s.propagate() >= 0 {
		return s, false
	}
	if p.seed != 0 {
		// An experiment's perturbation of the first decisions' order.
		r := rand.New(rand.NewPCG(p.seed, 0))
		for v := range s.act {
			s.act[v] = r.Float64() * 1e-3
		}
	}
	for v := 0; v < s.nv; v++ {
		if s.val[v] == 0 {
			s.heapInsert(int32(v))
		}
	}
	return s, true
}

// groupLits returns the literals "w is true" of the variables of grp.
func groupLits(grp []int32) []alit {
	ls := make([]alit, len(grp))
	for i, w := range grp {
		ls[i] = alit(2 * w)
	}
	return ls
}

// indexGroups sets gpos from grp and gmask from the values: bit i of a
// group's mask is its i-th variable, set while that is not false.
func (s *learner) indexGroups() {
	for g := 0; g < s.ng; g++ {
		var m uint32
		for i, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
			for k, h := range s.varGrp[w] {
				if h == int32(g) {
					s.gpos[w][k] = uint8(i)
				}
			}
			if s.val[w] >= 0 {
				m |= 1 << i
			}
			if s.val[w] > 0 {
				m |= gTrue
			}
		}
		s.gmask[g] = m
	}
}

// buildSides lists the box-line sides of every box, line and value.
func (ls *learnShape) buildSides(geo *genGeo) {
	n, br, bc := geo.n, geo.br, geo.bc
	var sides [][]int32  // cells
	var units [][2]int16 // of each pair of sides: the box's and the line's
	for r0 := 0; r0 < n; r0 += br {
		for c0 := 0; c0 < n; c0 += bc {
			inBox := func(r, c int) bool { return r >= r0 && r < r0+br && c >= c0 && c < c0+bc }
			for line := 0; line < br+bc; line++ {
				var a, b []int32
				for r := 0; r < n; r++ {
					for c := 0; c < n; c++ {
						onLine := line < br && r == r0+line || line >= br && c == c0+line-br
						switch {
						case inBox(r, c) && !onLine:
							a = append(a, int32(r*n+c))
						case !inBox(r, c) && onLine:
							b = append(b, int32(r*n+c))
						}
					}
				}
				if len(a) > 0 && len(b) > 0 {
					sides = append(sides, a, b)
					var lu int16
					if line < br {
						lu = geo.cellUnit[(r0+line)*n+c0][0]
					} else {
						lu = geo.cellUnit[r0*n+c0+line-br][1]
					}
					units = append(units, [2]int16{geo.cellUnit[r0*n+c0][2], lu})
				}
			}
		}
	}
	ls.sideOff = make([]int32, 0, len(sides)*n+1)
	for i := 0; i < len(sides); i += 2 {
		for v := 0; v < n; v++ {
			for j, side := range sides[i : i+2] {
				ls.sideGrp = append(ls.sideGrp, int32(geo.size+int(units[i/2][j])*n+v))
				ls.sideOff = append(ls.sideOff, int32(len(ls.sideVar)))
				for _, c := range side {
					ls.sideVar = append(ls.sideVar, c*int32(n)+int32(v))
				}
			}
		}
	}
	ls.sideOff = append(ls.sideOff, int32(len(ls.sideVar)))
}

// compact drops the variables false at the root from the groups and the
// box-line sides: they never change again, and the clauses behind the
// reasons need no root literals; indexSides then lists each group's
// sides. A side left empty makes the other side false. It must be called
// at the root, with propagation done, and reports false when the root
// fails.
func (s *learner) compact() bool {
	grp := make([]int32, 0, len(s.grp)/4)
	for g := 0; g < s.ng; g++ {
		start := int32(len(grp))
		for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
			if s.val[w] >= 0 {
				grp = append(grp, w)
			}
		}
		s.grpOff[g] = start
	}
	s.grpOff[s.ng] = int32(len(grp))
	s.grp = grp
	s.grpLit = groupLits(grp)
	s.indexGroups()
	sv := make([]int32, 0, len(s.sideVar)/4)
	for k := 0; k < s.nside; k++ {
		start := int32(len(sv))
		for _, w := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			if s.val[w] >= 0 {
				sv = append(sv, w)
			}
		}
		s.sideOff[k] = start
	}
	s.sideOff[s.nside] = int32(len(sv))
	s.sideVar = sv
	s.indexSides()
	s.peerOff = make([]int32, s.nv+1)
	s.peerVar = s.peerVar[:0]
	for v := int32(0); v < int32(s.nv); v++ {
		s.peerOff[v] = int32(len(s.peerVar))
		if s.val[v] != 0 {
			continue
		}
		start := len(s.peerVar)
		for _, g := range s.varGrp[v] {
			for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
				if w != v && s.seen[w] == 0 {
					s.seen[w] = 1
					s.peerVar = append(s.peerVar, w)
				}
			}
		}
		for _, w := range s.peerVar[start:] {
			s.seen[w] = 0
		}
	}
	s.peerOff[s.nv] = int32(len(s.peerVar))
	// A side empty at the root empties the other side, at the root.
	for k := 0; k < s.nside; k++ {
		if s.sideOff[k] != s.sideOff[k+1] {
			continue
		}
		o := k ^ 1
		for _, w := range s.sideVar[s.sideOff[o]:s.sideOff[o+1]] {
			switch s.val[w] {
			case 0:
				s.assign(2*w+1, 0)
			case 1:
				return false
			}
		}
	}
	return s.propagate() < 0
}

// indexSides lists each group's sides (grpSide) from the sides and groups
// as compact left them: a side that is empty, or whose other side is,
// can't propagate anything and is left out.
func (s *learner) indexSides() {
	off := make([]int32, s.ng+1) // group g's sides: grpSide[off[g]:off[g+1]]
	live := func(k int) bool {
		o := k ^ 1
		return s.sideOff[k] != s.sideOff[k+1] && s.sideOff[o] != s.sideOff[o+1]
	}
	for k := 0; k < s.nside; k++ {
		if live(k) {
			off[s.sideGrp[k]+1]++
		}
	}
	for g := 0; g < s.ng; g++ {
		off[g+1] += off[g]
	}
	s.grpSide = make([]sideCheck, off[s.ng])
	s.bitSide = make([][2]uint16, len(s.grp))
	fill := off[:s.ng] // where each group's next side goes (off is done with)
	for k := 0; k < s.nside; k++ {
		if !live(k) {
			continue
		}
		g := s.sideGrp[k]
		cross := uint32(1)<<(s.grpOff[g+1]-s.grpOff[g]) - 1
		for _, u := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			for j, h := range s.varGrp[u] {
				if h == g {
					cross &^= 1 << s.gpos[u][j]
				}
			}
		}
		s.grpSide[fill[g]] = sideCheck{cross: cross, side: int32(k)}
		li := uint16(fill[g] + 1)
		fill[g]++
		for i, m := s.grpOff[g], cross; m != 0; m &= m - 1 {
			bs := &s.bitSide[i+int32(bits.TrailingZeros32(m))]
			if bs[0] == 0 {
				bs[0] = li
			} else {
				bs[1] = li
			}
		}
	}
}
