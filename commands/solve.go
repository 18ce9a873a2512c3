package commands

import (
	"context"
	"fmt"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
)

var outputChoices = []Choice{{"image", outputImage}, {"text", outputText}}

// Embed colours.
const (
	colorOK      = 0x2E9E5B
	colorWarn    = 0xE0A800
	colorBad     = 0xD9534F
	colorNeutral = 0x5865F2
)

func (s *Service) addSolve() {
	s.addPuzzleCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "solve",
		Description: "Solve a Sudoku: paste it, or leave the puzzle out to get a box for a multi-line grid",
		Options: []OptionSpec{
			{Type: OptString, Name: optPuzzle, Description: "The puzzle: 81 characters on one line (. or 0 for blanks)"},
			{Type: OptString, Name: optOutput, Description: "Show the board as an image (default) or as text", Choices: outputChoices},
			{Type: OptBool, Name: optPrivate, Description: "Only you see the answer"},
		},
	}, puzzleCommand{
		name:       "solve",
		message:    "Solve Sudoku",
		modalTitle: "Solve a Sudoku",
		run: func(ctx context.Context, req Request, text string, opts map[string]string) Response {
			return s.solve(ctx, text, opts)
		},
		ephemeral: func(opts map[string]string) bool { return boolOption(opts, optPrivate) },
	})
}

// solve answers /solve: the solution, or why there is none (or several).
func (s *Service) solve(ctx context.Context, text string, opts map[string]string) Response {
	output, err := choiceOption(opts, optOutput, outputImage, outputChoices)
	if err != nil {
		return optionError(err)
	}
	private := boolOption(opts, optPrivate)
	g, bad := s.readPuzzle(text)
	if bad != nil {
		return *bad
	}
	r := s.solveGrid(ctx, g, output)
	if !r.Ephemeral {
		r.Ephemeral = private
	}
	return r
}

// solveGrid solves a parsed grid and shows the outcome. Errors (clashes, a
// stopped search) come back ephemeral; the rest public.
func (s *Service) solveGrid(ctx context.Context, g *sudoku.Grid, output string) Response {
	if clashes := g.Clashes(); len(clashes) > 0 {
		return s.clashReply(g, clashes, output)
	}
	res := s.solveFn(ctx, g, 2)
	switch res.Status {
	case sudoku.Cancelled:
		if len(res.Solutions) > 0 && ctx.Err() != context.Canceled {
			return s.unprovenSolution(g, res, output)
		}
		return s.stoppedOn(ctx, g)
	case sudoku.NoSolution:
		return Response{Embeds: []Embed{{
			Title: "No solution",
			Description: fmt.Sprintf("No clue clashes with another, yet no %s grid can be completed from these clues. "+
				"One is probably mistyped: check them against the original.\nPuzzle: %s",
				sizeName(g.Shape), oneLine(g)),
			Color:  colorBad,
			Footer: "Searched in " + humanDuration(res.Stats.Elapsed),
		}}}
	case sudoku.Multiple:
		// Mark the fewest cells we can: the second solution the search
		// meets first may differ in half the grid.
		a := res.Solutions[0]
		b := sudoku.CloserSecond(ctx, g, a, res.Solutions[1])
		diff := 0
		for i := range a.Cells {
			if a.Cells[i] != b.Cells[i] {
				diff++
			}
		}
		why := "This puzzle has at least two solutions, so it is not a proper Sudoku: a clue is probably missing."
		switch {
		case g.Clues() == 0:
			why = "The grid is empty, so any filled grid is a solution."
		case fewClues(g):
			why = fmt.Sprintf("With only %d clues, this grid can be filled in many ways: a proper %s Sudoku needs more.", g.Clues(), sizeName(g.Shape))
		}
		e := Embed{
			Title: "More than one solution",
			Description: fmt.Sprintf("%s Here is one; the %d marked cells hold other values in another solution.\n%s",
				why, diff, oneLine(a)),
			Color:  colorWarn,
			Footer: fmt.Sprintf("Searched in %s · %s · %d clues", humanDuration(res.Stats.Elapsed), g.Shape, g.Clues()),
		}
		files := s.boardEmbed(&e, render.Solved(g, a).WithDiff(b), output, "solution.png")
		return Response{Embeds: []Embed{e}, Files: files}
	}
	sol := res.Solutions[0]
	description := "One solution. Copy it:\n" + oneLine(sol)
	if g.Complete() {
		description = "This grid is already complete, and every rule holds.\n" + oneLine(sol)
	}
	e := Embed{
		Title:       fmt.Sprintf("Solved · %s · %d clues", g.Shape, g.Clues()),
		Description: description,
		Color:       colorOK,
		Footer:      fmt.Sprintf("Solved in %s · %s", humanDuration(res.Stats.Elapsed), guesses(int(res.Stats.Guesses))),
	}
	files := s.boardEmbed(&e, render.Solved(g, sol), output, "solution.png")
	return Response{Embeds: []Embed{e}, Files: files}
}

// unprovenSolution shows the solution a search found before the deadline
// cut short its check that no other exists. A hard 25x25 can take far
// longer to prove than to solve, and the solution is worth having; the
// reply says it is unchecked.
func (s *Service) unprovenSolution(g *sudoku.Grid, res sudoku.Result, output string) Response {
	sol := res.Solutions[0]
	e := Embed{
		Title: fmt.Sprintf("A solution · %s · %d clues", g.Shape, g.Clues()),
		Description: fmt.Sprintf("Here is a solution, but I stopped after %s, before I could check that it is the only one: "+
			"the puzzle may have others. Copy it:\n%s", humanDuration(s.cfg.SolveTimeout), oneLine(sol)),
		Color:  colorWarn,
		Footer: fmt.Sprintf("Searched for %s · %s", humanDuration(res.Stats.Elapsed), guesses(int(res.Stats.Guesses))),
	}
	files := s.boardEmbed(&e, render.Solved(g, sol), output, "solution.png")
	return Response{Embeds: []Embed{e}, Files: files}
}

// Plural writes a count with its noun: "1 guess", "3 guesses", "0 guesses".
// Every reply and tool of the bot counts with it.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// capitalize upper-cases the first letter (ASCII), for sentences that start
// with a generated word.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// guesses says how much trial and error the search needed.
func guesses(n int) string {
	if n == 0 {
		return "no guessing needed"
	}
	return Plural(n, "guess", "guesses")
}
