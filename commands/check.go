package commands

import (
	"context"
	"fmt"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
)

func (s *Service) addCheck() {
	s.addPuzzleCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "check",
		Description: "Check a Sudoku: clashes, number of solutions, clues, symmetry, difficulty",
		Options: []OptionSpec{
			{Type: OptString, Name: optPuzzle, Description: "The puzzle: 81 characters on one line (. or 0 for blanks)"},
		},
	}, puzzleCommand{
		name:       "check",
		message:    "Check Sudoku",
		modalTitle: "Check a Sudoku",
		run: func(ctx context.Context, req Request, text string, opts map[string]string) Response {
			g, bad := s.readPuzzle(text)
			if bad != nil {
				return *bad
			}
			return s.checkGrid(ctx, g)
		},
		ephemeral: func(map[string]string) bool { return false },
	})
}

// checkGrid reports on a puzzle without giving away its solution. When the
// deadline hits during the search, the report says so for the parts it
// could not finish instead of dropping the parts it could.
func (s *Service) checkGrid(ctx context.Context, g *sudoku.Grid) Response {
	e := Embed{Title: fmt.Sprintf("Check · %s", g.Shape), Color: colorOK}
	add := func(name, value string) {
		e.Fields = append(e.Fields, EmbedField{Name: name, Value: clip(value, maxEmbedFieldValue), Inline: true})
	}
	add("Clues", fmt.Sprintf("%d of %d", g.Clues(), len(g.Cells)))
	add("Symmetry", describeSymmetry(g))

	clashes := g.Clashes()
	var files []File
	if len(clashes) > 0 {
		e.Color = colorBad
		add("Clashes", clashList(g, clashes, 8))
		add("Solutions", "0: the clashes rule out every solution")
		e.Description = "Puzzle: " + oneLine(g)
		files = s.boardEmbed(&e, render.New(g).WithClashes(clashes), outputImage, "check.png")
		return Response{Embeds: []Embed{e}, Files: files}
	}
	add("Clashes", "None")

	res := s.solveFn(ctx, g, 2)
	switch res.Status {
	case sudoku.Cancelled:
		if ctx.Err() == context.Canceled {
			return s.stopped(ctx) // the bot is restarting, not out of time
		}
		e.Color = colorWarn
		if len(res.Solutions) > 0 {
			add("Solutions", fmt.Sprintf("At least 1: I found one, then stopped after %s, before I could check that it is the only one.",
				humanDuration(s.cfg.SolveTimeout)))
			break
		}
		add("Solutions", "Unknown. "+s.stoppedText(g))
	case sudoku.NoSolution:
		e.Color = colorBad
		add("Solutions", "0: no clue clashes with another, yet no grid can be completed from them. One is probably mistyped.")
	case sudoku.Multiple:
		e.Color = colorWarn
		switch {
		case g.Clues() == 0:
			add("Solutions", "Many: the grid is empty")
		case fewClues(g):
			add("Solutions", fmt.Sprintf("Many: %d clues are too few for one solution", g.Clues()))
		default:
			add("Solutions", "2 or more: not a proper Sudoku; a clue is probably missing")
		}
	default:
		add("Solutions", "1 (a proper Sudoku)")
		if rating, ok := rateWithin(ctx, g); ok {
			value := fmt.Sprintf("%.1f (%s)", rating.Score, rating.Level)
			if !rating.Complete {
				value = "At least " + value // the score of the steps it could take
			}
			if rating.Hardest != "" && rating.Hardest != "unknown" {
				value += "\nHardest step: " + rating.Hardest
			}
			if !rating.Complete {
				value += "\nBeyond the logical solver's techniques"
			}
			add("Difficulty", value)
		} else if rating.Steps > 0 && rating.Score > 0 {
			// The hardest puzzles need nested chains, which can outlast
			// the deadline: what was rated so far is a floor.
			add("Difficulty", fmt.Sprintf("At least %.1f (%s): rating the rest takes longer than %s", rating.Score, rating.Level, humanDuration(s.cfg.SolveTimeout)))
		} else {
			add("Difficulty", fmt.Sprintf("Not rated: rating takes longer than %s", humanDuration(s.cfg.SolveTimeout)))
		}
	}
	e.Description = "Puzzle: " + oneLine(g)
	e.Footer = "Searched in " + humanDuration(res.Stats.Elapsed)
	return Response{Embeds: []Embed{e}}
}

// rateWithin rates g, giving up when ctx ends (the per-user deadline);
// then the rating so far comes back, with false.
func rateWithin(ctx context.Context, g *sudoku.Grid) (sudoku.Rating, bool) {
	r, err := sudoku.RateContext(ctx, g)
	return r, err == nil
}

// describeSymmetry names the symmetries of g's clue pattern.
func describeSymmetry(g *sudoku.Grid) string {
	if g.Clues() == 0 {
		return "None (no clues)"
	}
	var names []string
	for _, sym := range g.ClueSymmetries() {
		names = append(names, sym.Name())
	}
	if len(names) == 0 {
		return "None"
	}
	return capitalize(strings.Join(names, ", "))
}
