package sudoku

import (
	"context"
	"errors"
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
	// Explanation is one plain sentence, e.g.
	// "In box 5, 7 fits only in r4c6, so r4c6 = 7."
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
	// Step is the full step (callers show only what Level allows).
	Step Step
	// Wrong lists cells whose entries disagree with the solution; when it is
	// not empty the hint is about them and Step is empty.
	Wrong []int
}

// ErrNotBuilt is returned by parts of the engine that have not landed yet.
var ErrNotBuilt = errors.New("not built yet")

// Hint returns the next hint for position (the puzzle's givens plus the
// player's entries), reached from puzzle.
//
// Placeholder until the logical solver lands.
func Hint(ctx context.Context, puzzle, position *Grid, level HintLevel) (HintResult, error) {
	return HintResult{}, ErrNotBuilt
}
