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
	// Step is the step that fills the next cell (callers show only what
	// Level allows). Applying its placements to the position always makes
	// progress.
	Step Step
	// Steps lists every step from the position up to and including Step:
	// when the next cell needs candidates removed first, the steps before
	// Step do that. Steps[0] is the very next deduction.
	Steps []Step
	// Wrong lists cells whose entries disagree with the solution; when it is
	// not empty the hint is about them and Step is empty.
	Wrong []int
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
// player's entries), reached from puzzle. It solves the puzzle first: the
// givens must have exactly one solution. When an entry disagrees with that
// solution the hint names the wrong cells instead of reasoning from them.
// When no technique the solver knows applies, the hint reveals one cell of
// the solution (technique "Reveal").
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
	for i, v := range puzzle.Cells {
		if v != 0 && position.Cells[i] != v {
			return HintResult{}, fmt.Errorf("hint: the position changes the given %c at %s",
				puzzle.Alphabet.Symbol(int(v)), puzzle.Shape.CellName(i))
		}
	}
	if cl := puzzle.Clashes(); len(cl) > 0 {
		return HintResult{}, fmt.Errorf("hint: the givens break the rules: %s", cl[0].Describe(puzzle.Shape, puzzle.Alphabet))
	}
	res := Solve(ctx, puzzle, 2)
	switch res.Status {
	case Cancelled:
		if err := ctx.Err(); err != nil {
			return HintResult{}, err
		}
		return HintResult{}, context.Canceled
	case NoSolution:
		return HintResult{}, ErrHintNoSolution
	case Multiple:
		return HintResult{}, ErrHintNotUnique
	}
	sol := res.Solutions[0]
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
	if position.Complete() {
		out.Text = "The puzzle is solved: there is nothing left to hint at."
		return out, nil
	}
	b, err := newBoard(position)
	if err != nil {
		return HintResult{}, fmt.Errorf("hint: %w", err)
	}
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
	out.Steps = relevantSteps(b, out.Steps)
	out.Step = out.Steps[len(out.Steps)-1]
	out.Text = hintText(out.Steps, level)
	return out, nil
}

// relevantSteps keeps, of steps leading to a placement (the last one), only
// those the placement rests on: a position is a grid without pencil marks,
// so the solver redoes every removal from scratch, and most of them have
// nothing to do with the next cell. A step is kept when it removes a
// candidate from a cell a kept later step looks at; since every kept step
// then sees the same candidates in the cells it looks at as it did in the
// full run, each remains valid.
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
		Explanation: fmt.Sprintf("None of the techniques I know finds a step here, so here is a cell from the solution: %s = %s.",
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

// nudges say what each technique looks for, for a level-1 hint.
var nudges = map[string]string{
	techFullHouse:          "a full house: a row, column or box with one empty cell left",
	techHiddenSingleBox:    "a hidden single: a digit with one place left in a box",
	techHiddenSingleLine:   "a hidden single: a digit with one place left in a row or column",
	techNakedSingle:        "a naked single: a cell with one candidate left",
	techDirectPointing:     "a pointing pair or triple: a digit whose places in a box all lie in one row or column; it leaves a hidden single",
	techDirectClaiming:     "a claiming pair or triple: a digit whose places in a row or column all lie in one box; it leaves a hidden single",
	techPointing:           "a pointing pair or triple: a digit whose places in a box all lie in one row or column",
	techClaiming:           "a claiming pair or triple: a digit whose places in a row or column all lie in one box",
	techDirectHiddenPair:   "a hidden pair: two digits that fit only in the same two cells of a unit; it leaves a hidden single",
	techDirectHiddenTriple: "a hidden triple: three digits that fit only in the same three cells of a unit; it leaves a hidden single",
	techNakedPair:          "a naked pair: two cells of a unit with the same two candidates",
	techNakedTriple:        "a naked triple: three cells of a unit with only three candidates between them",
	techNakedQuad:          "a naked quad: four cells of a unit with only four candidates between them",
	techHiddenPair:         "a hidden pair: two digits that fit only in the same two cells of a unit",
	techHiddenTriple:       "a hidden triple: three digits that fit only in the same three cells of a unit",
	techHiddenQuad:         "a hidden quad: four digits that fit only in the same four cells of a unit",
	techXWing:              "an X-Wing: a digit that fits in only two places in each of two rows (or columns), in the same two columns (or rows)",
	techSwordfish:          "a Swordfish: a digit whose places in three rows (or columns) lie in three columns (or rows)",
	techJellyfish:          "a Jellyfish: a digit whose places in four rows (or columns) lie in four columns (or rows)",
	techXYWing:             "an XY-Wing: a two-candidate cell that sees two other two-candidate cells sharing a third digit",
	techXYZWing:            "an XYZ-Wing: a three-candidate cell that sees two two-candidate cells made of its digits",
	techUR1:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techUR2:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techUR4:                "a unique rectangle: four cells in two boxes that could swap two digits",
	techBUG:                "a BUG+1: every empty cell has two candidates but one",
	techTurbot:             "a turbot fish: a short chain of one digit through two strong links",
	techXChain:             "an X-chain: a chain of one digit through strong links",
	techXYChain:            "an XY-chain: a chain through two-candidate cells",
	techAIC:                "an alternating chain of strong and weak links",
	techWWing:              "a W-Wing: two cells with the same two candidates, joined by a strong link on one of them",
	techReveal:             "nothing the solver knows: no technique applies, so the next hint reveals a cell",
}

func nudge(technique string) string {
	if s, ok := nudges[technique]; ok {
		return s
	}
	return techPhrase(technique)
}

// techPhrase names a technique inside a sentence, with its article:
// "a hidden single", "an X-Wing".
func techPhrase(name string) string {
	if name == "" {
		return "a step"
	}
	if len(name) > 1 && name[1] >= 'a' && name[1] <= 'z' {
		name = strings.ToLower(name[:1]) + name[1:]
	}
	if strings.ContainsRune("aeiouAEIOUX", rune(name[0])) && !strings.HasPrefix(name, "uni") {
		return "an " + name
	}
	return "a " + name
}

// hintText says steps at a level: the technique(s), then where, then the
// full reasoning. When removals must come first, the placing step leads
// and the removals follow, so a text cut short still says what matters.
func hintText(steps []Step, level HintLevel) string {
	first, last := steps[0], steps[len(steps)-1]
	prep := steps[:len(steps)-1]
	switch level {
	case HintTechnique:
		t := "Look for " + nudge(first.Technique) + "."
		if len(steps) > 1 {
			t += fmt.Sprintf(" It clears the way for %s.", techPhrase(last.Technique))
		}
		return t
	case HintWhere:
		if len(steps) == 1 {
			return fmt.Sprintf("Look for %s (%s).", techPhrase(first.Technique), first.Where)
		}
		parts := make([]string, len(prep))
		for i, st := range prep {
			parts[i] = fmt.Sprintf("%s (%s)", techPhrase(st.Technique), st.Where)
		}
		return fmt.Sprintf("Look for %s (%s), once you have found %s.", techPhrase(last.Technique), last.Where, joinWords(parts, "and"))
	}
	if len(steps) == 1 {
		return first.Explanation
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s It needs %d earlier step", last.Explanation, len(prep))
	if len(prep) > 1 {
		b.WriteByte('s')
	}
	b.WriteString(" first:")
	for i, st := range prep {
		fmt.Fprintf(&b, " %d. %s", i+1, st.Explanation)
	}
	return b.String()
}
