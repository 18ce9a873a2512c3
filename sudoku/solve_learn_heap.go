package sudoku

// Heap of open variables by activity.

func (s *learner) heapLess(a, b int32) bool { return s.act[a] > s.act[b] }

func (s *learner) heapInsert(v int32) {
	s.hpos[v] = int32(len(s.heap))
	s.heap = append(s.heap, v)
	s.heapUp(s.hpos[v])
}

func (s *learner) heapUp(i int32) {
	h := s.heap
	v := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !s.heapLess(v, h[p]) {
			break
		}
		h[i] = h[p]
		s.hpos[h[i]] = i
		i = p
	}
	h[i] = v
	s.hpos[v] = i
}

func (s *learner) heapPop() int32 {
	h := s.heap
	top := h[0]
	last := h[len(h)-1]
	s.heap = h[:len(h)-1]
	s.hpos[top] = -1
	if len(s.heap) == 0 {
		return top
	}
	h = s.heap
	i := int32(0)
	n := int32(len(h))
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && s.heapLess(h[r], h[l]) {
			l = r
		}
		if !s.heapLess(h[l], last) {
			break
		}
		h[i] = h[l]
		s.hpos[h[i]] = i
		i = l
	}
	h[i] = last
	s.hpos[last] = i
	return top
}
