package sudoku

import (
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Sudoku Explainer's nesting: what a chaining of level 1 and up adds when
// its links give nothing more (getAdvancedPotentials), from simple
// techniques and from whole chaining searches run on the chaining's
// working grid, and the potentials such a conclusion rests on
// (getRuleParents).

// advanced is SE's getAdvancedPotentials: the OFF potentials the first
// simple technique that finds anything (locked candidates, hidden pair,
// naked pair, X-Wing; at level 2 and up, then chains) removes on the
// working grid, each with the potentials of s it rests on as parents.
// Conclusions that rest on none are left out (the technique works without
// the chain).
func (e *seEngine) advanced(s *seSet) []int32 {
	var out []int32
	rules := [...]func([]seRuleHint) []seRuleHint{e.ruleLocking, e.ruleHiddenPair, e.ruleNakedPair, e.ruleXWing}
	for _, rule := range rules {
		for _, h := range rule(nil) {
			if len(h.parents) == 0 {
				continue
			}
			for _, c := range h.elims {
				id := e.node(c.Cell, c.Value, false, -1)
				for _, k := range h.parents {
					if p := s.get(k); p >= 0 {
						e.addParent(id, p)
					}
				}
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	// Then the chains nested in this one, each search on the working grid,
	// every hint, easiest first: forcing chains (level 2), then multiple
	// forcing chains (level 3); at level 4, dynamic forcing chains of
	// level e.nest alone (they find all the others would).
	for _, r := range e.nestedRules() {
		c := e.childEngine(r)
		var all []*seHint
		best := seBest{all: &all}
		if r == seNestStatic {
			c.staticChains(&best)
		} else {
			c.multipleChains(&best)
		}
		sort.SliceStable(all, func(i, j int) bool {
			a, b := all[i], all[j]
			if a.score != b.score {
				return a.score < b.score
			}
			if a.complexity != b.complexity {
				return a.complexity < b.complexity
			}
			return a.sortKey < b.sortKey
		})
		seen := map[string]bool{}
		for _, h := range all {
			sig := elimSig(h.elims)
			if seen[sig] {
				continue
			}
			seen[sig] = true
			parents := c.ruleParents(h, e.src, e.grid)
			if len(parents) == 0 {
				continue
			}
			e.nested = append(e.nested, h.complexity)
			e.nestedSig = append(e.nestedSig, c.chainSig(h))
			ni := int32(len(e.nested))
			for _, cd := range h.elims {
				id := e.causedNode(cd.Cell, cd.Value, false, -1, seCauseAdvanced)
				e.nodes[id].nested = ni
				for _, k := range parents {
					if p := s.get(k); p >= 0 {
						e.addParent(id, p)
					}
				}
				out = append(out, id)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}

// chainSig identifies a nested hint as SE's FullChain does when it counts
// the complexity of the hints a chain rests on once each: by its targets
// and, for each, the potentials it rests on in SE's order (breadth first,
// parents in the order SE gives them: the maker, then the cell's or
// unit's other candidates). Two searches on different working grids can
// find the same chain; SE counts it once.
func (c *seEngine) chainSig(h *seHint) uint64 {
	const prime = 1099511628211
	sig := uint64(14695981039346656037)
	add := func(k int) { sig = (sig ^ uint64(k+1)) * prime }
	for _, t := range h.targets {
		add(-1)
		if c.flat {
			c.flatChainKeys(t, add)
			continue
		}
		c.stamp++
		if c.stamp == 0 {
			clear(c.mark)
			c.stamp = 1
		}
		queue := append(c.list[:0], t)
		for i := 0; i < len(queue); i++ {
			x := queue[i]
			k := c.key(x)
			if c.mark[k] == c.stamp {
				continue
			}
			c.mark[k] = c.stamp
			add(k)
			queue = append(queue, c.parents(x)...)
		}
		c.list = queue[:0]
	}
	return sig
}

// elimSig is a key for a set of removals (SE's hints are equal when they
// remove the same candidates).
func elimSig(cs []Candidate) string {
	c := slices.Clone(cs)
	slices.SortFunc(c, func(a, b Candidate) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Value - b.Value
	})
	var sb strings.Builder
	for _, x := range c {
		sb.WriteString(strconv.Itoa(x.Cell*64 + x.Value))
		sb.WriteByte(',')
	}
	return sb.String()
}

// The chaining searches nested in a chaining: static forcing chains,
// multiple forcing chains, dynamic ones (of the nesting level seEngine.nest).
const (
	seNestStatic = iota
	seNestMultiple
	seNestDynamic
)

var seNestRules = [...][]int{
	2: {seNestStatic},
	3: {seNestStatic, seNestMultiple},
	4: {seNestDynamic},
}

// nestedRules lists the searches e's chainings nest, in SE's order
// (Chaining.getAdvancedPotentials' otherRules after the simple ones).
func (e *seEngine) nestedRules() []int {
	if e.level < 2 || e.level >= len(seNestRules) {
		return nil
	}
	return seNestRules[e.level]
}

// childEngine readies the engine of a search r nested in e's chainings,
// on e's working grid.
func (e *seEngine) childEngine(r int) *seEngine {
	c := e.child
	if c == nil {
		c = &seEngine{b: e.b, n: e.n, size: e.size}
		c.mark = make([]uint32, len(e.mark))
		c.onCache = make([]*seChaining, len(e.onCache))
		c.grid = make([]uint32, e.size)
		c.src = make([]uint32, e.size)
		c.upos = make([]uint32, len(e.upos))
		c.spos = make([]uint32, len(e.upos))
		e.child = c
	}
	c.nishio, c.dynamic, c.level, c.nest = false, r == seNestDynamic, 0, 0
	if r == seNestDynamic {
		c.level = e.nest
	}
	c.ctx = e.ctx
	c.staticBase = e.staticBase
	if c.staticBase == nil {
		c.staticBase = e.static
	}
	copy(c.grid, e.grid)
	copy(c.src, e.grid)
	copy(c.upos, e.upos)
	copy(c.spos, e.upos)
	clear(c.onCache)
	if c.offCache == nil {
		c.offCache = make([]*seChaining, len(e.onCache))
	}
	clear(c.offCache)
	c.nodes, c.pars, c.nested, c.nestedSig = c.nodes[:0], c.pars[:0], c.nested[:0], c.nestedSig[:0]
	c.used = 0
	return c
}

// ruleParents is SE's ChainingHint.getRuleParents for a nested hint h
// found by c: the OFF potentials of the outer chaining (candidates in
// initial but no longer in current) that the ON potentials of h's chains
// rest on, as keys.
func (c *seEngine) ruleParents(h *seHint, initial, current []uint32) []int {
	var out []int
	have := map[int]bool{}
	addKey := func(k int) {
		if !have[k] {
			have[k] = true
			out = append(out, k)
		}
	}
	collect := func(cell, d int, cause int8) {
		n := c.n
		if cause == seCauseCell {
			for m := initial[cell] &^ current[cell]; m != 0; m &= m - 1 {
				addKey(sePotKey(n, cell, bits.TrailingZeros32(m)+1, false))
			}
			return
		}
		u := c.b.g.cellUnits[cell][seKind[cause-seCauseBox]]
		bit := uint32(1) << (d - 1)
		for _, x := range c.b.g.unitCells[u] {
			if initial[x]&bit != 0 && current[x]&bit == 0 {
				addKey(sePotKey(n, x, d, false))
			}
		}
	}
	var rootCause int8
	switch h.kind {
	case seCellForcing:
		rootCause = seCauseCell
	case seRegionForcing:
		for i, u := range c.seUnits(h.src.Cell) {
			if u == h.unit {
				rootCause = int8(seCauseBox + i)
			}
		}
	}
	if c.flat {
		c.flatRuleParents(h, rootCause, collect)
		return out
	}
	for _, t := range h.targets {
		c.eachAncestor(t, func(x int32) {
			nd := c.nodes[x]
			cause := nd.cause
			if cause == 0 && len(c.parents(x)) == 0 {
				cause = rootCause
			}
			if nd.on && cause != 0 && cause != seCauseAdvanced {
				collect(int(nd.cell), int(nd.d), cause)
			}
		})
		if h.kind == seCycle {
			// The cycle read backwards: its OFF potentials, ON.
			for x := t; ; {
				nd := c.nodes[x]
				if !nd.on && nd.cause != 0 && nd.cause != seCauseAdvanced {
					collect(int(nd.cell), int(nd.d), nd.cause)
				}
				ps := c.parents(x)
				if len(ps) == 0 {
					break
				}
				x = ps[0]
			}
		}
	}
	return out
}

// seMaxLevel is the deepest nesting the rater tries: SE's deepest, dynamic
// chains nested in dynamic chains.
const seMaxLevel = 4
