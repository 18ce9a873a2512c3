package sudoku

import (
	"math"
	"slices"
)

// The learned clauses of the learning search (solve_learn.go): their arena,
// headers and activities, adding one, and the reduction that drops the
// worst half.

// Learned clauses live in one arena of uint16 (a literal fits: 2*nv is at
// most 31,250): at offset cref a header of clHead words (size, LBD,
// flags, activity as float32 bits in two words, where the last search for
// a watch stopped), then the literals; lits[0] and lits[1] are watched.
const (
	clHead     = 6
	clBlocking = 1 // a solution's blocking clause: never dropped
)

// clauseLits returns the literals of the clause at cref.
func (s *learner) clauseLits(cref int32) []alit {
	return s.arena[cref+clHead : cref+clHead+int32(s.arena[cref])]
}

// clauseLBD and clauseFlags read the clause header at cref; clauseNext
// is the offset of the next clause.
func (s *learner) clauseLBD(cref int32) int32   { return int32(s.arena[cref+1]) }
func (s *learner) clauseFlags(cref int32) int32 { return int32(s.arena[cref+2]) }
func (s *learner) clauseNext(cref int32) int32  { return cref + clHead + int32(s.arena[cref]) }

func (s *learner) clauseAct(cref int32) float32 {
	return math.Float32frombits(uint32(s.arena[cref+3]) | uint32(s.arena[cref+4])<<16)
}

func (s *learner) setClauseAct(cref int32, a float32) {
	b := math.Float32bits(a)
	s.arena[cref+3], s.arena[cref+4] = alit(b), alit(b>>16)
}

func (s *learner) bumpClause(cref int32) {
	a := s.clauseAct(cref) + float32(s.claInc)
	s.setClauseAct(cref, a)
	if a > 1e20 {
		for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
			s.setClauseAct(c, s.clauseAct(c)*1e-20)
		}
		s.claInc *= 1e-20
	}
}

// addClause attaches clause ls (at least two literals, ls[0] and ls[1]
// to be watched) and returns its reference.
func (s *learner) addClause(ls []lit, lbd int32, flags int32) int32 {
	cref := int32(len(s.arena))
	s.arena = append(s.arena, alit(len(ls)), alit(lbd), alit(flags), 0, 0, 2) // lbd <= len(ls)
	for _, q := range ls {
		s.arena = append(s.arena, alit(q))
	}
	s.watches[ls[0]] = append(s.watches[ls[0]], watcher{cref, ls[1]})
	s.watches[ls[1]] = append(s.watches[ls[1]], watcher{cref, ls[0]})
	s.bumpClause(cref)
	s.nlearnt++
	return cref
}

// reduce drops about half of the learned clauses: the ones of highest LBD
// and lowest activity, never the glue clauses (LBD 2), the blocking ones,
// or a clause that is the reason of a current assignment. It compacts the
// arena and rebuilds the watches.
func (s *learner) reduce() bool {
	base := s.clBase
	locked := func(c int32) bool {
		p := s.arena[c+clHead]
		return s.lval[p] > 0 && s.vinfo[p>>1].reason == base+c
	}
	var cand []int32
	for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
		if s.clauseFlags(c)&clBlocking != 0 || s.clauseLBD(c) <= 2 || locked(c) {
			continue
		}
		cand = append(cand, c)
	}
	slices.SortFunc(cand, func(a, b int32) int {
		if la, lb := s.clauseLBD(a), s.clauseLBD(b); la != lb {
			return int(lb - la)
		}
		switch aa, ab := s.clauseAct(a), s.clauseAct(b); {
		case aa < ab:
			return -1
		case aa > ab:
			return 1
		}
		return 0
	})
	drop := make(map[int32]bool, len(cand)/2)
	for _, c := range cand[:len(cand)/2] {
		drop[c] = true
	}
	// Compact: live clauses move down; reasons follow them.
	moved := make(map[int32]int32)
	out := int32(0)
	for c := int32(0); c < int32(len(s.arena)); {
		next := s.clauseNext(c)
		if !drop[c] {
			if locked(c) {
				moved[c] = out
			}
			copy(s.arena[out:], s.arena[c:next])
			out += next - c
		}
		c = next
	}
	s.arena = s.arena[:out]
	s.nlearnt -= len(drop)
	for _, p := range s.trail {
		v := p >> 1
		if r := s.vinfo[v].reason; r >= base {
			s.vinfo[v].reason = base + moved[r-base]
		}
	}
	for l := range s.watches {
		s.watches[l] = s.watches[l][:0]
	}
	for c := int32(0); c < int32(len(s.arena)); c = s.clauseNext(c) {
		ls := s.clauseLits(c)
		s.watches[ls[0]] = append(s.watches[ls[0]], watcher{c, lit(ls[1])})
		s.watches[ls[1]] = append(s.watches[ls[1]], watcher{c, lit(ls[0])})
	}
	return true
}
