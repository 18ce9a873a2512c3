package sudoku

import "math/bits"

// Propagation of the learning search (solve_learn.go): assignments, the
// groups, the box-line sides and the learned clauses' watches, and going
// back.

func (s *learner) assign(p lit, r int32) {
	v := p >> 1
	s.lval[p], s.lval[p^1] = 1, -1
	// The four groups are written out rather than looped over, and a
	// bit's shift is masked to 31 (gpos is below 31): this is the hottest
	// code of the search, and with the loop's copy of varGrp[v] and the
	// shift's check for counts of 32 and up it took 60% more
	// instructions.
	gm, vg := s.gmask, &s.varGrp[v]
	if p&1 == 0 {
		s.val[v] = 1
		gm[vg[0]] |= gTrue
		gm[vg[1]] |= gTrue
		gm[vg[2]] |= gTrue
		gm[vg[3]] |= gTrue
	} else {
		s.val[v] = -1
		gp := &s.gpos[v]
		gm[vg[0]] &^= 1 << (gp[0] & 31)
		gm[vg[1]] &^= 1 << (gp[1] & 31)
		gm[vg[2]] &^= 1 << (gp[2] & 31)
		gm[vg[3]] &^= 1 << (gp[3] & 31)
	}
	s.vinfo[v] = varInfo{int32(len(s.lim)), r}
	s.trail = append(s.trail, p)
}

// propagate runs unit propagation over the trail. It returns -1, or a
// conflict code: 1..nv peer conflict (with s.confPeer), group, or clause.
func (s *learner) propagate() int32 {
	nv := int32(s.nv)
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		v := p >> 1
		if p&1 == 0 {
			// v true: its peers become false.
			if s.peerOff != nil {
				for _, w := range s.peerVar[s.peerOff[v]:s.peerOff[v+1]] {
					switch s.val[w] {
					case 0:
						s.assign(2*w+1, v+1)
					case 1:
						s.confPeer = w
						return v + 1
					}
				}
				goto clauses
			}
			for _, g := range s.varGrp[v] {
				for _, w := range s.grp[s.grpOff[g]:s.grpOff[g+1]] {
					if w == v {
						continue
					}
					switch s.val[w] {
					case 0:
						s.assign(2*w+1, v+1)
					case 1:
						s.confPeer = w
						return v + 1
					}
				}
			}
		} else {
			// v false: a group may be down to one.
			vg := &s.varGrp[v]
			for k := 0; k < 4; k++ {
				g := vg[k]
				m := s.gmask[g]
				if m&(m-1) != 0 {
					continue
				}
				if m == 0 {
					return nv + 1 + g
				}
				if w := s.grp[s.grpOff[g]+int32(bits.TrailingZeros32(m))]; s.val[w] == 0 {
					s.assign(2*w, nv+1+g)
				}
			}
			// A side v emptied empties the other side.
			if c := s.sides(v); c >= 0 {
				return c
			}
		}
	clauses:
		// Learned clauses watching the literal that became false.
		if c := s.propagateClauses(p ^ 1); c >= 0 {
			return c
		}
	}
	return -1
}

// sides propagates the sides that v, just made false, may have emptied:
// in each of v's groups, those whose crossing holds every variable of the
// group still not false, when v was not in the crossing (so the side was
// not empty before). It returns -1 or a conflict. Until compact lists
// the sides, every group has none.
func (s *learner) sides(v int32) int32 {
	vg, gp, gm := &s.varGrp[v], &s.gpos[v], s.gmask
	for j := 1; j < 4; j++ { // the cell's group (0) has no sides
		g := vg[j]
		m := gm[g] &^ gTrue
		if m&(m-1) == 0 {
			// One variable left (or none): the group's own propagation
			// makes it true, and its peers take in the other side.
			continue
		}
		// A side now empty holds all of m, so also m's lowest bit: only
		// the (at most two) sides whose crossing holds that bit need a
		// look.
		for _, si := range s.bitSide[s.grpOff[g]+int32(bits.TrailingZeros32(m))] {
			if si == 0 {
				break
			}
			e := s.grpSide[si-1]
			if m&^e.cross != 0 || 1<<(gp[j]&31)&e.cross != 0 {
				continue
			}
			o := e.side ^ 1
			code := s.sideBase + e.side
			for _, w := range s.sideVar[s.sideOff[o]:s.sideOff[o+1]] {
				switch s.val[w] {
				case 0:
					s.assign(2*w+1, code)
				case 1:
					s.confPeer = w
					return code
				}
			}
		}
	}
	return -1
}

func (s *learner) propagateClauses(f lit) int32 {
	ws := s.watches[f]
	if len(ws) == 0 {
		// A literal that wakes no clause skips the list's write back.
		return -1
	}
	lv := s.lval
	i, j := 0, 0
	base := s.clBase
	for i < len(ws) {
		w := ws[i]
		i++
		if lv[w.blocker] > 0 {
			ws[j] = w
			j++
			continue
		}
		size := int32(s.arena[w.cref])
		ls := s.arena[w.cref+clHead : w.cref+clHead+size]
		if lit(ls[0]) == f {
			ls[0], ls[1] = ls[1], alit(f)
		}
		first := lit(ls[0])
		if first != w.blocker && lv[first] > 0 {
			ws[j] = watcher{w.cref, first}
			j++
			continue
		}
		// Look for a new watch from where the last search stopped, then
		// from the start: the literals just after the watches tend to
		// be the ones made false last time (Gent's circular search).
		pos := int32(s.arena[w.cref+5])
		if pos < 2 || pos >= size {
			pos = 2
		}
		k := pos
		for ; k < size && lv[ls[k]] < 0; k++ {
		}
		if k == size {
			for k = 2; k < pos && lv[ls[k]] < 0; k++ {
			}
			if k == pos {
				k = size
			}
		}
		if k < size {
			ls[1], ls[k] = ls[k], alit(f)
			s.arena[w.cref+5] = alit(k)
			s.watches[ls[1]] = append(s.watches[ls[1]], watcher{w.cref, first})
			continue
		}
		ws[j] = watcher{w.cref, first}
		j++
		if lv[first] < 0 {
			for i < len(ws) {
				ws[j] = ws[i]
				i++
				j++
			}
			s.watches[f] = ws[:j]
			return base + w.cref
		}
		s.assign(first, base+w.cref)
	}
	s.watches[f] = ws[:j]
	return -1
}

func (s *learner) cancelUntil(lv int32) {
	if int32(len(s.lim)) <= lv {
		return
	}
	start := int(s.lim[lv])
	gm, val, lval, phase, hpos := s.gmask, s.val, s.lval, s.phase, s.hpos
	for i := len(s.trail) - 1; i >= start; i-- {
		p := s.trail[i]
		v := p >> 1
		vg := &s.varGrp[v] // written out as in assign
		if p&1 != 0 {
			gp := &s.gpos[v]
			gm[vg[0]] |= 1 << (gp[0] & 31)
			gm[vg[1]] |= 1 << (gp[1] & 31)
			gm[vg[2]] |= 1 << (gp[2] & 31)
			gm[vg[3]] |= 1 << (gp[3] & 31)
		} else {
			gm[vg[0]] &^= gTrue
			gm[vg[1]] &^= gTrue
			gm[vg[2]] &^= gTrue
			gm[vg[3]] &^= gTrue
		}
		phase[v] = val[v]
		val[v] = 0
		lval[p], lval[p^1] = 0, 0
		if hpos[v] < 0 {
			s.heapInsert(v)
		}
	}
	s.trail = s.trail[:start]
	s.qhead = start
	s.lim = s.lim[:lv]
}
