package sudoku

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Candidate is one value in one cell: a placement, an elimination, or a
// pencil mark that justifies a step.
type Candidate struct {
	Cell  int
	Value int
}

// Step is one logical deduction, as data.
type Step struct {
	// Technique names the technique ("Hidden single", "X-Wing").
	Technique string
	// Score is the technique's Sudoku Explainer difficulty.
	Score float64
	// Placements are the values the step puts in cells.
	Placements []Candidate
	// Eliminations are the candidates the step removes.
	Eliminations []Candidate
	// Cells are the cells that justify the step (shown green).
	Cells []int
	// Causes are the candidates that justify the step.
	Causes []Candidate
	// Units are the units the step looks at.
	Units []Unit
	// Where says where to look without giving the answer away: "box 5",
	// "7 in box 5", "D6 and the cells it sees".
	Where string
	// Explanation is one plain sentence, e.g.
	// "In box 5, 7 fits only in D6, so D6 = 7."
	Explanation string
}

// HintLevel is how much a hint gives away.
type HintLevel int

// The three levels of a progressive hint.
const (
	HintTechnique HintLevel = 1 // which technique to look for
	HintWhere     HintLevel = 2 // where: the unit or digit
	HintStep      HintLevel = 3 // the full step
)

// HintResult is a hint at one level.
type HintResult struct {
	Level HintLevel
	// Text is what to tell the player at this level.
	Text string
	// Step is the step this hint is about: the very next deduction from the
	// position as the player has it (Steps[0]). It may only remove
	// candidates; ApplyStep gives the position after it.
	Step Step
	// Steps lists every step from the position up to and including the
	// next one that fills a cell: Steps[0] is Step, and when the next cell
	// needs candidates removed first, the steps before the last do that.
	Steps []Step
	// Hardest is the index in Steps of the hardest step before the next
	// placement (the one a level-1 hint names).
	Hardest int
	// Wrong lists cells whose entries disagree with the solution; when it is
	// not empty the hint is about them and there are no steps.
	Wrong []int
	// WrongMarks lists candidates the player erased that are the solution's
	// values: (cell, its value in the solution). When it is not empty (and
	// Wrong is empty) the hint is about them and there are no steps. At
	// level 1 the hint names only the cells, so that it does not give their
	// values away: a picture of it should mark the cells, not the
	// candidates.
	WrongMarks []Candidate
	// NeedsTrial reports that no technique the solver knows finds the next
	// step: Step then reveals one cell of the solution (level 3).
	NeedsTrial bool
}

// Errors Hint returns for puzzles logic can't be sure about.
var (
	// ErrHintNoSolution: the puzzle's givens admit no solution.
	ErrHintNoSolution = errors.New("the puzzle has no solution, so there is nothing to hint at")
	// ErrHintNotUnique: the puzzle has more than one solution, so no
	// logical step can be trusted to lead to "the" answer.
	ErrHintNotUnique = errors.New("the puzzle has more than one solution, so logic alone can't finish it")
)

// techReveal names the fallback step when no technique applies.
const techReveal = "Reveal"

// maxHintSteps bounds the candidate-removing steps a hint walks through
// before it expects a cell to be filled.
const maxHintSteps = 200

// Hint returns the next hint for position (the puzzle's givens plus the
// player's entries, and the player's pencil marks in position.Marks when
// there are any), reached from puzzle. It solves the puzzle first: the givens
// must have exactly one solution (or, when they have several, the givens
// with the player's marks honoured). Before any step it checks the player's
// work: an entry that disagrees with the solution, or an erased candidate
// that is the solution's value, is what the hint is about. Otherwise the
// hint is the next logical step from the candidates as the player has them,
// so it never removes a candidate already gone. When no technique the
// solver knows applies, the hint says the next step needs trial and, at
// level 3, reveals one cell of the solution.
func Hint(ctx context.Context, puzzle, position *Grid, level HintLevel) (HintResult, error) {
	if level < HintTechnique || level > HintStep {
		return HintResult{}, fmt.Errorf("hint level %d: want 1 (technique), 2 (where) or 3 (the full step)", level)
	}
	if puzzle == nil {
		return HintResult{}, errors.New("hint: no puzzle given")
	}
	if position == nil {
		position = puzzle
	}
	if position.Shape != puzzle.Shape || len(position.Cells) != len(puzzle.Cells) {
		return HintResult{}, fmt.Errorf("hint: the position is %s but the puzzle is %s", position.Shape, puzzle.Shape)
	}
	if position.Marks != nil && len(position.Marks) != len(position.Cells) {
		return HintResult{}, fmt.Errorf("hint: the position has pencil marks for %d cells, want %d", len(position.Marks), len(position.Cells))
	}
	for i, v := range puzzle.Cells {
		if v != 0 && position.Cells[i] != v {
			return HintResult{}, fmt.Errorf("hint: the position changes the given %c at %s",
				puzzle.Alphabet.Symbol(int(v)), puzzle.Shape.CellName(i))
		}
	}
	if cl := puzzle.Clashes(); len(cl) > 0 {
		return HintResult{}, fmt.Errorf("hint: the givens break the rules: %s", cl[0].Describe(puzzle.Shape, puzzle.Alphabet))
	}
	sol, marked, err := hintSolution(ctx, puzzle, position)
	if err != nil {
		return HintResult{}, err
	}
	out := HintResult{Level: level}
	for i, v := range position.Cells {
		if v != 0 && v != sol.Cells[i] {
			out.Wrong = append(out.Wrong, i)
		}
	}
	if len(out.Wrong) > 0 {
		out.Text = wrongText(position, out.Wrong)
		return out, nil
	}
	if position.Marks != nil {
		for c, m := range position.Marks {
			if v := sol.Cells[c]; position.Cells[c] == 0 && m != 0 && m&(1<<(v-1)) == 0 {
				out.WrongMarks = append(out.WrongMarks, Candidate{c, int(v)})
			}
		}
	}
	if len(out.WrongMarks) > 0 {
		out.Text = wrongMarksText(position, out.WrongMarks, level)
		return out, nil
	}
	if position.Complete() {
		out.Text = "The puzzle is solved: there is nothing left to hint at."
		return out, nil
	}
	b, err := newBoard(position)
	if err != nil {
		return HintResult{}, fmt.Errorf("hint: %w", err)
	}
	// A rectangle that lost a digit rests on the givens' own uniqueness;
	// where only the marks make the solution unique, the swapped grid may
	// be the very solution they rule out.
	b.urMissing = !marked
	start := b.clone()
	for len(out.Steps) < maxHintSteps {
		if err := ctx.Err(); err != nil {
			return HintResult{}, err
		}
		st, ok := b.next()
		if !ok {
			st = revealStep(b, sol)
		}
		out.Steps = append(out.Steps, st)
		if len(st.Placements) > 0 {
			break
		}
		if err := b.apply(&st); err != nil {
			return HintResult{}, fmt.Errorf("hint: %w", err)
		}
	}
	if last := out.Steps[len(out.Steps)-1]; len(last.Placements) == 0 {
		// Many removals and still no cell: say so and reveal one.
		out.Steps = append(out.Steps, revealStep(b, sol))
	}
	out.Steps = relevantSteps(start, out.Steps)
	out.Step = out.Steps[0]
	out.NeedsTrial = out.Step.Technique == techReveal
	for i, st := range out.Steps {
		if st.Technique != techReveal && st.Score > out.Steps[out.Hardest].Score {
			out.Hardest = i
		}
	}
	out.Text = hintText(out, level, position.Alphabet)
	return out, nil
}

// hintSolution returns the solution the hint leads to: the givens' only
// solution, or, when the givens have several, the only one that the
// player's placed digits and pencil marks allow (a pasted grid with
// candidates may need them for uniqueness); marked says it is the latter.
func hintSolution(ctx context.Context, puzzle, position *Grid) (sol *Grid, marked bool, err error) {
	plain := puzzle
	if puzzle.Marks != nil {
		plain = puzzle.Clone()
		plain.Marks = nil
	}
	res := Solve(ctx, plain, 2)
	switch res.Status {
	case Cancelled:
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		// The solver checks the deadline against the clock, so it can
		// stop a moment before ctx reports it.
		return nil, false, context.DeadlineExceeded
	case NoSolution:
		return nil, false, ErrHintNoSolution
	case Multiple:
		if position.Marks == nil {
			return nil, false, ErrHintNotUnique
		}
		sols, err := solveMarked(ctx, position, 2)
		if err != nil {
			return nil, false, err
		}
		if len(sols) != 1 {
			return nil, false, ErrHintNotUnique
		}
		return sols[0], true, nil
	}
	return res.Solutions[0], false, nil
}

// relevantSteps keeps, of steps leading to a placement (the last one), only
// those the placement rests on: when the player has few pencil marks, the
// solver redoes every removal from scratch, and most of them have nothing to
// do with the next cell. A step is kept when it removes a candidate from a
// cell a kept later step looks at; since every kept step then sees the same
// candidates in the cells it looks at as it did in the full run, each
// remains valid. b is the board the steps start from.
func relevantSteps(b *board, steps []Step) []Step {
	need := make([]bool, len(b.cand))
	keep := make([]bool, len(steps))
	keep[len(steps)-1] = true
	if b.stepCells(&steps[len(steps)-1], need) {
		return steps
	}
	for i := len(steps) - 2; i >= 0; i-- {
		for _, e := range steps[i].Eliminations {
			if need[e.Cell] {
				keep[i] = true
				break
			}
		}
		if keep[i] && b.stepCells(&steps[i], need) {
			for j := 0; j < i; j++ {
				keep[j] = true
			}
			break
		}
	}
	var out []Step
	for i, k := range keep {
		if k {
			out = append(out, steps[i])
		}
	}
	return out
}

// revealStep fills the empty cell with the fewest candidates from the
// solution: the honest answer when no technique applies.
func revealStep(b *board, sol *Grid) Step {
	best, bestN := -1, 99
	for c, v := range b.vals {
		if v == 0 {
			if k := bits.OnesCount32(b.cand[c]); k < bestN {
				best, bestN = c, k
			}
		}
	}
	v := int(sol.Cells[best])
	return Step{
		Technique:  techReveal,
		Placements: []Candidate{{best, v}},
		Cells:      []int{best},
		Where:      b.name(best),
		Explanation: fmt.Sprintf("None of the techniques I know finds the next step here: it needs trial and error. Here is one cell of the solution instead: %s = %s.",
			b.name(best), b.sym(v)),
	}
}

func wrongText(g *Grid, wrong []int) string {
	if len(wrong) == 1 {
		c := wrong[0]
		return fmt.Sprintf("%s holds %c, which doesn't fit the solution: clear it before going on.",
			g.Shape.CellName(c), g.Alphabet.Symbol(int(g.Cells[c])))
	}
	names := make([]string, len(wrong))
	for i, c := range wrong {
		names[i] = g.Shape.CellName(c)
	}
	return fmt.Sprintf("%d entries don't fit the solution (%s): clear them before going on.", len(wrong), joinWords(names, "and"))
}

// wrongMarksText names what the player erased wrongly. Level 1 names the
// cells only, since the candidate a cell needs is its answer: "C2 lost a
// candidate it needs: …". Levels 2 and 3 name the candidates: "You removed
// 7 from D6, but D6 is 7: put it back before going on."
func wrongMarksText(g *Grid, wrong []Candidate, level HintLevel) string {
	const show = 3
	if level == HintTechnique {
		names := make([]string, 0, show+1)
		for i, w := range wrong {
			if i == show {
				names = append(names, fmt.Sprintf("%d more cells", len(wrong)-show))
				break
			}
			names = append(names, g.Shape.CellName(w.Cell))
		}
		sym := symbolWord(g.Alphabet)
		if len(wrong) == 1 {
			return fmt.Sprintf("%s lost a candidate it needs: one of the %ss you erased from its pencil marks belongs there. Look at %s again before going on.",
				names[0], sym, names[0])
		}
		return fmt.Sprintf("%s lost candidates they need: in each, one of the %ss you erased from its pencil marks belongs there. Look at them again before going on.",
			joinWords(names, "and"), sym)
	}
	parts := make([]string, 0, show)
	for i, w := range wrong {
		if i == show {
			break
		}
		name, sym := g.Shape.CellName(w.Cell), string(g.Alphabet.Symbol(w.Value))
		parts = append(parts, fmt.Sprintf("%s from %s, but %s is %s", sym, name, name, sym))
	}
	text := "You removed " + strings.Join(parts, "; ")
	if len(wrong) > show {
		text += fmt.Sprintf("; and %d more candidates that are the solution's", len(wrong)-show)
	}
	if len(wrong) == 1 {
		return text + ": put it back before going on."
	}
	return text + ": put them back before going on."
}

// TechniqueName is the name players know a technique by, as hints say it:
// the solver's variants that only differ in scoring ("Direct pointing",
// "Hidden single (row or column)") go by the plain name.
func TechniqueName(technique string) string {
	if s, ok := displayNames[technique]; ok {
		return s
	}
	return technique
}

var displayNames = map[string]string{
	techHiddenSingleLine:   techHiddenSingleBox,
	techDirectPointing:     techPointing,
	techDirectClaiming:     techClaiming,
	techDirectHiddenPair:   techHiddenPair,
	techDirectHiddenTriple: techHiddenTriple,
	techContradiction:      "Forcing chain",
	techNishio:             "Forcing chain",
	techCellForcing:        "Cell forcing chain",
	techUnitForcing:        "Unit forcing chain",
	techReveal:             "Trial and error",
}

// nudges say what each technique looks for, for a level-1 hint.
var nudges = map[string]string{
	techFullHouse:          "a full house: a row, column or box with one empty cell left",
	techHiddenSingleBox:    "a hidden single: a digit with one place left in a box",
	techHiddenSingleLine:   "a hidden single: a digit with one place left in a row or column",
	techNakedSingle:        "a naked single: a cell with one candidate left",
	techDirectPointing:     "a pointing pair or triple: a digit whose places in a box all lie in one row or column",
	techDirectClaiming:     "a claiming pair or triple: a digit whose places in a row or column all lie in one box",
	techPointing:           "a pointing pair or triple: a digit whose places in a box all lie in one row or column",
	techClaiming:           "a claiming pair or triple: a digit whose places in a row or column all lie in one box",
	techDirectHiddenPair:   "a hidden pair: two digits that fit only in the same two cells of a unit",
	techDirectHiddenTriple: "a hidden triple: three digits that fit only in the same three cells of a unit",
	techNakedPair:          "a naked pair: two cells of a unit with the same two candidates",
	techNakedTriple:        "a naked triple: three cells of a unit with only three candidates between them",
	techNakedQuad:          "a naked quad: four cells of a unit with only four candidates between them",
	techHiddenPair:         "a hidden pair: two digits that fit only in the same two cells of a unit",
	techHiddenTriple:       "a hidden triple: three digits that fit only in the same three cells of a unit",
	techHiddenQuad:         "a hidden quad: four digits that fit only in the same four cells of a unit",
	techXWing:              "an X-Wing: a digit with only two places in each of two rows, and they lie in the same two columns (or the same with rows and columns swapped)",
	techSwordfish:          "a Swordfish: a digit whose places in three rows lie in three columns (or the same with rows and columns swapped)",
	techJellyfish:          "a Jellyfish: a digit whose places in four rows lie in four columns (or the same with rows and columns swapped)",
	techXYWing:             "an XY-Wing: a two-candidate cell that sees two other two-candidate cells sharing a third digit",
	techXYZWing:            "an XYZ-Wing: a three-candidate cell that sees two two-candidate cells made of its digits",
	techUR1:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techUR2:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techUR4:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techBUG:                "a BUG+1: every empty cell has two candidates but one",
	techTurbot:             "a Turbot fish: a short chain of one digit through two strong links",
	techXChain:             "an X-Chain: a chain of one digit through strong links",
	techXYChain:            "an XY-Chain: a chain through two-candidate cells",
	techAIC:                "an alternating inference chain: strong and weak links in turn",
	techWWing:              "a W-Wing: two cells with the same two candidates, joined by a strong link on one of them",
	techNishio:             "a forcing chain: suppose a value and follow what it forces until something breaks",
	techContradiction:      "a forcing chain: suppose a value and follow what it forces until something breaks",
	techCellForcing:        "a cell forcing chain: every candidate of one cell forces the same conclusion",
	techUnitForcing:        "a unit forcing chain: every place of a digit in one unit forces the same conclusion",
	techStaticCell:         "a cell forcing chain: every candidate of one cell forces the same conclusion",
	techStaticUnit:         "a unit forcing chain: every place of a digit in one unit forces the same conclusion",
}

// nudge says what technique looks for, in the puzzle's own words: "a
// letter" where the puzzle is written in letters.
func nudge(technique string, a Alphabet) string {
	if s, ok := nudges[technique]; ok {
		if w := symbolWord(a); w != "digit" {
			s = strings.ReplaceAll(s, "a digit", "a "+w)
		}
		return s
	}
	return techPhrase(TechniqueName(technique))
}

// techPhrase names a technique inside a sentence, with its article where
// it takes one: "a hidden single", "an X-Wing", "a Swordfish", "pointing"
// (locked candidates are "pointing", not "a pointing"), "a unique
// rectangle (type 2)".
func techPhrase(name string) string {
	if name == "" {
		return "a step"
	}
	if base, kind, ok := strings.Cut(name, " type "); ok {
		return techPhrase(base) + " (type " + kind + ")"
	}
	switch name {
	case techPointing, techClaiming:
		return strings.ToLower(name)
	}
	// Names made of a proper noun keep their capital ("X-Wing", "Swordfish",
	// "Turbot fish", "BUG+1"); names of ordinary words are lower case.
	if len(name) > 1 && name[1] >= 'a' && name[1] <= 'z' && !properTechName[name] {
		name = strings.ToLower(name[:1]) + name[1:]
	}
	if strings.ContainsRune("aeiouAEIOUX", rune(name[0])) && !strings.HasPrefix(name, "uni") {
		return "an " + name
	}
	return "a " + name
}

// properTechName lists the technique names written with a capital inside a
// sentence, as players write them.
var properTechName = map[string]bool{
	techSwordfish: true,
	techJellyfish: true,
	techTurbot:    true,
}

// symbolWord is what the puzzle's symbols are called: digits, letters
// (an own-letter puzzle), or symbols (16x16 in 1-9 and A-G, say).
func symbolWord(a Alphabet) string {
	digits, letters := false, false
	for _, r := range string(a) {
		if r >= '0' && r <= '9' {
			digits = true
		} else {
			letters = true
		}
	}
	switch {
	case letters && digits:
		return "symbol"
	case letters:
		return "letter"
	}
	return "digit"
}

// trialText is what levels 1 and 2 say when no technique applies.
const trialText = "The next step needs trial and error: none of the techniques I know finds one here. I can reveal one cell of the solution instead (the full step)."

// hintText says a hint at its level, about its first step only: level 1
// the technique (and the hardest one still needed before a cell can be
// filled), level 2 where to look, level 3 the full reasoning.
func hintText(h HintResult, level HintLevel, a Alphabet) string {
	first := h.Steps[0]
	if first.Technique == techReveal {
		if level < HintStep {
			return trialText
		}
		return first.Explanation
	}
	switch level {
	case HintTechnique:
		t := "Look for " + nudge(first.Technique, a) + "."
		hard := h.Steps[h.Hardest]
		if h.Hardest != 0 && TechniqueName(hard.Technique) != TechniqueName(first.Technique) {
			t += fmt.Sprintf(" The next cell takes %d steps; the hardest is %s.", len(h.Steps), techPhrase(TechniqueName(hard.Technique)))
		}
		if last := h.Steps[len(h.Steps)-1]; len(h.Steps) > 1 && last.Technique == techReveal {
			t += " After that, the next cell needs trial and error."
		}
		return t
	case HintWhere:
		return whereText(first)
	}
	return first.Explanation
}

// whereText is a level-2 hint: the technique and where to look, in a
// sentence made for the technique's kind of place ("Look for a hidden
// single: where can 7 go in box 5?", "Look for a naked pair in row C.").
func whereText(st Step) string {
	phrase := techPhrase(TechniqueName(st.Technique))
	where := st.Where
	switch st.Technique {
	case techFullHouse, techNakedPair, techNakedTriple, techNakedQuad,
		techHiddenPair, techHiddenTriple, techHiddenQuad, techDirectHiddenPair, techDirectHiddenTriple:
		// where is a unit: "row C"
		return fmt.Sprintf("Look for %s in %s.", phrase, where)
	case techHiddenSingleBox, techHiddenSingleLine, techPointing, techClaiming, techDirectPointing, techDirectClaiming,
		techXWing, techSwordfish, techJellyfish:
		// where is a symbol in units: "7 in box 5", "2 in rows C and I"
		if sym, units, ok := strings.Cut(where, " in "); ok {
			return fmt.Sprintf("Look for %s: where can %s go in %s?", phrase, sym, units)
		}
	case techNakedSingle:
		return fmt.Sprintf("Look for %s: which candidates are left in %s?", phrase, where)
	case techXYWing, techXYZWing:
		// where is "D6 and the cells it sees"
		return fmt.Sprintf("Look for %s: start from %s.", phrase, where)
	case techBUG:
		return fmt.Sprintf("Look for %s: %s is the one empty cell with more than two candidates.", phrase, where)
	case techTurbot, techXChain, techXYChain, techAIC, techWWing:
		// where is "5 links starting at F8"
		return fmt.Sprintf("Look for %s of %s.", phrase, where)
	case techNishio, techContradiction:
		// where is "what follows from A3 = 1"
		return fmt.Sprintf("Look for %s: see %s.", phrase, where)
	case techCellForcing, techUnitForcing, techStaticCell, techStaticUnit:
		// where is "the candidates of B4" or "the places of 2 in column 4"
		return fmt.Sprintf("Look for %s: try %s one by one.", phrase, where)
	}
	return fmt.Sprintf("Look for %s: %s.", phrase, where)
}
