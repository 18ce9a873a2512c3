package commands

import (
	"fmt"
	"time"

	"sudokubot/sudoku"
)

// StoppedNotice is the answer to work stopped at the per-user deadline
// limit, whether the commands noticed it (a search that honoured its
// context) or the bot did (a handler that overran it).
func StoppedNotice(limit time.Duration) string {
	return fmt.Sprintf("Stopped after %s: this puzzle is too hard for me to finish in that time.", humanDuration(limit))
}

// stoppedNoticeFor is StoppedNotice for a search on g, worded by what it
// saw: a grid with too few clues can be filled in a great many ways (a clue
// is probably missing); one with plenty is simply too hard in the time.
func stoppedNoticeFor(limit time.Duration, g *sudoku.Grid) string {
	if fewClues(g) {
		return fmt.Sprintf("Stopped after %s: with only %d clues of %d, this %s can be filled in too many ways to search. Check no clue is missing.",
			humanDuration(limit), g.Clues(), len(g.Cells), sizeName(g.Shape))
	}
	return fmt.Sprintf("Stopped after %s: this %s (%d clues of %d) is too hard for me to finish in that time.",
		humanDuration(limit), sizeName(g.Shape), g.Clues(), len(g.Cells))
}

// fewClues reports whether g has fewer clues than any puzzle with one
// solution is known to need: a fifth of the cells is below the known
// minimums (17 of 81, about 55 of 256 and 150 of 625).
func fewClues(g *sudoku.Grid) bool {
	return g.Clues()*5 < len(g.Cells)
}

// RestartingNotice is the answer to work cut short, or turned away, because
// the bot is shutting down.
const RestartingNotice = "I'm restarting — please try again in a moment."
