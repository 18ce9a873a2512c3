package commands

import (
	"fmt"
	"time"

	"sudokubot/store"
)

// Fair times. A daily's time comes from the bot's clock (Request.Now, set
// by package bot when the interaction arrives, never from the client): from
// the board's first showing (store.Game.ViewedAt) to the move that
// completes it (the last correct move, in the same transaction as the
// finish). A solve the judge below marks is kept, with its reason, but left
// off the leaderboards and out of the streak and the stats' times (a paste
// isn't a solve, and a streak kept by pasting would be worth nothing); the
// player is told why on the finish, and the server's admins see it in
// /daily flagged. Dailies and /play games are judged (a /play game's
// solve moves the rating and may be a personal best: skill.go); archive
// replays, races and co-op games are not.
//
// The reasons, as stored (store.Game.Flag, store.Result.Flag):
const (
	// flagBulk: the solution came in all at once, in one or two moves (a
	// pasted grid is one), or one entry of the moves box placed at least
	// half the empty cells.
	flagBulk = "bulk"
	// flagFast: solved in less time than minSolveTime.
	flagFast = "fast"
)

// secondsPerCell is the fastest pace, per empty cell, at which a person is
// taken to solve an easy puzzle. The fastest 9x9 times reported anywhere
// are about half a minute for a very easy puzzle: Thomas Snyder's Guinness
// record was "a Very Easy Sudoku in less than 90 seconds" (sudoku.com, "What
// Actually Happens at a Sudoku World Championship?",
// https://sudoku.com/how-to-play/what-actually-happens-at-a-sudoku-world-championship/),
// and the fastest claim we found is 30.65 s (Guinness record attributed to
// Sebastian Matschke, 2018, reported by gameslearningsociety.org, "What is
// the fastest Sudoku time?"; not confirmed). A very easy puzzle leaves about
// 50 cells empty, so that is 0.6 s a cell; the floor takes half of it,
// 0.3 s, so that an honest fast solve, typed in Discord's box at a world
// champion's pace, is never marked.
const secondsPerCell = 0.3

// levelPace stretches the floor for harder levels: at the first US National
// Sudoku Championship (2007) the winner, Thomas Snyder, needed 9:59 for an
// easy, a medium and a hard puzzle together (same sudoku.com page), so hard
// ones take champions minutes. The factors are kept well under that.
var levelPace = map[string]float64{"easy": 1, "medium": 1.5, "hard": 2, "expert": 3, "extreme": 4}

// minBulkCells: the moves rule applies only to puzzles with more empty
// cells than this (a puzzle with two cells to fill is rightly done in two
// moves).
const minBulkCells = 8

// minSolveTime is the shortest time in which a person can solve a puzzle of
// level with empty cells to fill.
func minSolveTime(empty int, level string) time.Duration {
	pace, ok := levelPace[level]
	if !ok {
		pace = 1
	}
	return time.Duration(float64(empty) * secondsPerCell * pace * float64(time.Second))
}

// judged reports whether g's finishing move is judged: not in a race, a
// replay from the archive, or a game played on from a picture (whose
// player filled part of it elsewhere).
func judged(g store.Game) bool { return g.RaceID == 0 && !isArchive(g) && g.Level != pictureLevel }

// judgeSolve is the store.Judge for the move that may finish a daily with
// empty cells to fill; placed is how many of them this entry of the moves
// box filled.
func judgeSolve(empty, placed int) store.Judge {
	return func(g store.Game) string {
		return fairness(g, empty, placed)
	}
}

// fairness is the rule: "" when fair, else the reason.
func fairness(g store.Game, empty, placed int) string {
	if empty > minBulkCells && (g.Moves <= 2 || 2*placed >= empty) {
		return flagBulk
	}
	if g.Elapsed(g.FinishedAt) < minSolveTime(empty, g.Level) {
		return flagFast
	}
	return ""
}

// flagReason says plainly why a solve was left off the boards.
func flagReason(flag string, g store.Game, empty int) string {
	switch flag {
	case flagBulk:
		return "the solution was entered all at once (a whole grid, or most of it in one go), and the boards are for puzzles solved here, move by move"
	case flagFast:
		return fmt.Sprintf("%s is faster than anyone has solved a %s puzzle with %d cells to fill: the floor is %s, from the fastest times recorded in competitions",
			clock(g.Elapsed(g.FinishedAt)), g.Level, empty, clock(minSolveTime(empty, g.Level)))
	}
	return "it was marked by an older rule"
}

// flagShort is a flag in a few words, for lists.
func flagShort(flag string) string {
	switch flag {
	case flagBulk:
		return "entered all at once"
	case flagFast:
		return "faster than a person can solve"
	}
	return "marked"
}

// solvedNote is the line on a solved board, with the reason when the solve
// was kept off the boards; empty is the cells the puzzle left to fill.
func solvedNote(g store.Game, now time.Time, empty int) string {
	if g.Flag == "" {
		return fmt.Sprintf("Solved in %s with %s and %s. Well done!", clock(g.Elapsed(now)), counted(g.Hints, "hint"), counted(g.Checks, "check"))
	}
	if !g.IsDaily() {
		return fmt.Sprintf("Solved in %s with %s and %s — but not counted for your rating or personal bests: %s.",
			clock(g.Elapsed(now)), counted(g.Hints, "hint"), counted(g.Checks, "check"), flagReason(g.Flag, g, empty))
	}
	return fmt.Sprintf("Solved in %s with %s and %s — but not counted on the leaderboard or for your streak: %s. "+
		"The solve is kept, and this server's admins can see it with /daily flagged.",
		clock(g.Elapsed(now)), counted(g.Hints, "hint"), counted(g.Checks, "check"), flagReason(g.Flag, g, empty))
}
