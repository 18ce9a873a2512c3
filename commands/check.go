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
			return s.checkGrid(ctx, g, nil)
		},
		runPosition: func(ctx context.Context, req Request, puzzle, position *sudoku.Grid, opts map[string]string) Response {
			return s.checkGrid(ctx, puzzle, position)
		},
		ephemeral: func(map[string]string) bool { return false },
	})
}

// checkGrid reports on a puzzle without giving away its solution. When the
// deadline hits during the search, the report says so for the parts it
// could not finish instead of dropping the parts it could. A position (the
// givens with the player's entries, read from a picture) adds which of its
// entries disagree with the solution, marked on a picture of it; nil for
// none.
func (s *Service) checkGrid(ctx context.Context, g, position *sudoku.Grid) Response {
	return s.checkPosition(ctx, g, position, true)
}

// checkPosition is checkGrid, the entries told as the asker's (yours) or
// as someone's (a picture posted by another in a watched channel).
func (s *Service) checkPosition(ctx context.Context, g, position *sudoku.Grid, yours bool) Response {
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

	entries := countEntries(g, position)
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
	switch {
	case entries > 0 && res.Status != sudoku.Unique:
		add(entriesField(yours), fmt.Sprintf("Not checked (%s): entries are checked against the puzzle's one solution.",
			Plural(entries, "entry", "entries")))
	case entries > 0:
		sol := res.Solutions[0]
		wrong := wrongEntries(g, position, sol)
		note := entriesNote(g.Shape, wrong, entries, yours)
		if len(wrong) == 0 && entries == len(g.Cells)-g.Clues() {
			note = strings.TrimSuffix(note, ".") + ": the puzzle is solved."
		}
		add(entriesField(yours), note)
		if len(wrong) > 0 {
			e.Color = colorWarn
		}
		board := render.Playing(g, position).WithWrong(sol)
		files = s.boardEmbed(&e, board, outputImage, "check.png")
	}
	return Response{Embeds: []Embed{e}, Files: files}
}

// countEntries counts the cells position fills that puzzle leaves empty;
// 0 for a nil position.
func countEntries(puzzle, position *sudoku.Grid) int {
	if position == nil || len(position.Cells) != len(puzzle.Cells) {
		return 0
	}
	n := 0
	for i, v := range position.Cells {
		if v != 0 && puzzle.Cells[i] == 0 {
			n++
		}
	}
	return n
}

// wrongEntries lists the entries of position (cells puzzle leaves empty)
// that disagree with solution.
func wrongEntries(puzzle, position, solution *sudoku.Grid) []int {
	var wrong []int
	for i, v := range position.Cells {
		if v != 0 && puzzle.Cells[i] == 0 && v != solution.Cells[i] {
			wrong = append(wrong, i)
		}
	}
	return wrong
}

// entriesField names the field of a check that tells of the entries.
func entriesField(yours bool) string {
	if yours {
		return "Your entries"
	}
	return "Entries"
}

// entriesNote says how many of a player's entries are wrong, and which:
// "3 of your 21 entries are wrong: D4, F7 and H2 (red in the picture)";
// "of the" when they are not the asker's.
func entriesNote(shape sudoku.Shape, wrong []int, entries int, yours bool) string {
	of, the := "your", "Your"
	if !yours {
		of, the = "the", "The"
	}
	switch {
	case len(wrong) == 0 && entries == 1:
		return the + " one entry is right."
	case len(wrong) == 0:
		return fmt.Sprintf("All %d of %s entries are right.", entries, of)
	case entries == 1:
		return fmt.Sprintf("%s one entry is wrong: %s (red in the picture).", the, cellList(shape, wrong))
	case len(wrong) == 1:
		return fmt.Sprintf("1 of %s %d entries is wrong: %s (red in the picture).", of, entries, cellList(shape, wrong))
	case len(wrong) == entries && entries == 2:
		return fmt.Sprintf("Both of %s entries are wrong: %s (red in the picture).", of, cellList(shape, wrong))
	case len(wrong) == entries:
		return fmt.Sprintf("All %d of %s entries are wrong: %s (red in the picture).", entries, of, cellList(shape, wrong))
	}
	return fmt.Sprintf("%d of %s %d entries are wrong: %s (red in the picture).", len(wrong), of, entries, cellList(shape, wrong))
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
