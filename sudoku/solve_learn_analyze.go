package sudoku

import "slices"

// Conflict analysis of the learning search (solve_learn.go): the reasons
// behind assignments, the learned clause at the first unique implication
// point, its minimisation and shrinking, and the activities it bumps.

// reasonLits returns the literals of the clause behind code r, all false
// but p, the literal it made true (-1 for a conflict), which may be
// among them: a group's or a learned clause's literals are returned as
// they are, not copied.
func (s *learner) reasonLits(r int32, p lit) []alit {
	nv, ng := int32(s.nv), int32(s.ng)
	buf := s.buf[:0]
	switch {
	case r <= nv:
		buf = append(buf, alit(2*(r-1)+1))
		if p < 0 {
			buf = append(buf, alit(2*s.confPeer+1))
		}
	case r <= nv+ng:
		g := r - nv - 1
		return s.grpLit[s.grpOff[g]:s.grpOff[g+1]]
	case r < s.clBase:
		k := r - s.sideBase
		if p < 0 {
			buf = append(buf, alit(2*s.confPeer+1))
		}
		for _, u := range s.sideVar[s.sideOff[k]:s.sideOff[k+1]] {
			buf = append(buf, alit(2*u))
		}
	default:
		cref := r - s.clBase
		if s.clauseLBD(cref) > 2 {
			s.bumpClause(cref)
		}
		return s.clauseLits(cref)
	}
	s.buf = buf
	return buf
}

func (s *learner) bumpVar(v int32) {
	s.act[v] += s.varInc
	if s.act[v] > 1e100 {
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.hpos[v] >= 0 {
		s.heapUp(s.hpos[v])
	}
}

// analyze turns conflict confl into a learned clause (asserting literal
// first) and returns it with the level to jump back to.
func (s *learner) analyze(confl int32) ([]lit, int32) {
	s.learnt = append(s.learnt[:0], 0)
	cur := int32(len(s.lim))
	pathC := 0
	p := lit(-1)
	idx := len(s.trail) - 1
	for {
		for _, q16 := range s.reasonLits(confl, p) {
			q := lit(q16)
			v := q >> 1
			if s.seen[v] == 0 && s.vinfo[v].level > 0 && q != p {
				s.bumpVar(v)
				s.seen[v] = 1
				if s.vinfo[v].level >= cur {
					pathC++
				} else {
					s.learnt = append(s.learnt, q)
				}
			}
		}
		for s.seen[s.trail[idx]>>1] == 0 {
			idx--
		}
		p = s.trail[idx]
		idx--
		confl = s.vinfo[p>>1].reason
		s.seen[p>>1] = 0
		pathC--
		if pathC == 0 {
			break
		}
	}
	s.learnt[0] = p ^ 1
	// Minimise: drop literals implied by the others.
	s.toClr = s.toClr[:0]
	for _, q := range s.learnt[1:] {
		s.toClr = append(s.toClr, q>>1)
	}
	var abs uint32
	for _, q := range s.learnt[1:] {
		abs |= 1 << (s.vinfo[q>>1].level & 31)
	}
	j := 1
	for i := 1; i < len(s.learnt); i++ {
		q := s.learnt[i]
		if s.vinfo[q>>1].reason == 0 || !s.redundant(q, abs) {
			s.learnt[j] = q
			j++
		}
	}
	s.learnt = s.learnt[:j]
	if len(s.learnt) > 2 {
		s.shrink(abs)
	}
	for _, v := range s.toClr {
		s.seen[v] = 0
	}
	// The literal of the highest level after the first is watched second.
	back := int32(0)
	if len(s.learnt) > 1 {
		mi := 1
		for i := 2; i < len(s.learnt); i++ {
			if s.vinfo[s.learnt[i]>>1].level > s.vinfo[s.learnt[mi]>>1].level {
				mi = i
			}
		}
		s.learnt[1], s.learnt[mi] = s.learnt[mi], s.learnt[1]
		back = s.vinfo[s.learnt[1]>>1].level
	}
	return s.learnt, back
}

// shrink replaces the literals of each level of the learned clause (but the
// asserting one) by one, that level's first unique implication point for
// them, when the reasons between lead only to literals of that level or of
// the clause, or follow from it (CaDiCaL's shrinking). The clause stays implied and gets no
// longer; on Sudoku, where a group's reason names many variables, it often
// gets much shorter.
func (s *learner) shrink(abs uint32) {
	ls := s.learnt
	tail := ls[1:]
	slices.SortFunc(tail, func(a, b lit) int { return int(s.vinfo[b>>1].level - s.vinfo[a>>1].level) })
	out := ls[:1]
	for i := 0; i < len(tail); {
		lv := s.vinfo[tail[i]>>1].level
		j := i + 1
		for j < len(tail) && s.vinfo[tail[j]>>1].level == lv {
			j++
		}
		block := tail[i:j]
		i = j
		if len(block) == 1 {
			out = append(out, block[0])
			continue
		}
		if u, ok := s.shrinkBlock(block, lv, abs); ok {
			out = append(out, u)
			continue
		}
		out = append(out, block...)
	}
	s.learnt = out
}

// shrinkBlock finds the literal that can stand for the literals of block
// (all of level lv), or reports false.
//
// It runs before the marks of the clause's variables (seen) are cleared: a
// literal of a lower level may be met if it is in the clause, or follows
// from the clause's literals (redundant, which marks it in turn).
func (s *learner) shrinkBlock(block []lit, lv int32, abs uint32) (lit, bool) {
	mark := s.shrMark[:0]
	for _, q := range block {
		s.shr[q>>1] = 1
		mark = append(mark, q>>1)
	}
	open := len(block)
	start, end := int(s.lim[lv-1]), int(s.lim[lv])
	var uip lit = -1
	for i := end - 1; i >= start && uip < 0; i-- {
		p := s.trail[i]
		v := p >> 1
		if s.shr[v] == 0 {
			continue
		}
		if open == 1 {
			uip = p ^ 1
			break
		}
		open--
		r := s.vinfo[v].reason
		if r == 0 {
			break
		}
		// redundant reuses reasonLits' buffer: take a copy. (It holds p:
		// marked, so passed over.)
		s.shrBuf = append(s.shrBuf[:0], s.reasonLits(r, p)...)
		for _, q16 := range s.shrBuf {
			q := lit(q16)
			u := q >> 1
			switch l := s.vinfo[u].level; {
			case l == 0:
			case l == lv:
				if s.shr[u] == 0 {
					s.shr[u] = 1
					mark = append(mark, u)
					open++
				}
			case s.seen[u] != 0:
			case s.vinfo[u].reason == 0 || abs&(1<<(l&31)) == 0 || !s.redundant(q, abs):
				i = -1 // fail
			}
		}
	}
	for _, v := range mark {
		s.shr[v] = 0
	}
	s.shrMark = mark
	return uip, uip >= 0
}

// redundant reports whether literal q of the learned clause follows from
// the others through the reasons (MiniSat's recursive minimisation).
func (s *learner) redundant(q lit, abs uint32) bool {
	s.stack = append(s.stack[:0], q)
	top := len(s.toClr)
	for len(s.stack) > 0 {
		x := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		r := s.vinfo[x>>1].reason
		// reasonLits reuses its buffer, but only on the next pop.
		for _, y16 := range s.reasonLits(r, x^1) {
			y := lit(y16)
			v := y >> 1
			if s.seen[v] != 0 || s.vinfo[v].level == 0 || y == x^1 {
				continue
			}
			if s.vinfo[v].reason != 0 && abs&(1<<(s.vinfo[v].level&31)) != 0 {
				s.seen[v] = 1
				s.stack = append(s.stack, y)
				s.toClr = append(s.toClr, v)
				continue
			}
			for _, w := range s.toClr[top:] {
				s.seen[w] = 0
			}
			s.toClr = s.toClr[:top]
			return false
		}
	}
	return true
}

func (s *learner) lbd(ls []lit) int32 {
	var seenLv [4]uint64
	var extra map[int32]bool
	k := int32(0)
	for _, q := range ls {
		l := s.vinfo[q>>1].level
		if l < 256 {
			if seenLv[l>>6]>>(l&63)&1 == 0 {
				seenLv[l>>6] |= 1 << (l & 63)
				k++
			}
			continue
		}
		if extra == nil {
			extra = map[int32]bool{}
		}
		if !extra[l] {
			extra[l] = true
			k++
		}
	}
	return k
}
