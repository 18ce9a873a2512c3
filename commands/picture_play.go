package commands

import (
	"context"
	"fmt"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Playing on from a picture: `/play image:` reads a half-played puzzle (a
// photo of a newspaper filled in by pen, a screenshot of another app) and
// starts a game of its printed puzzle, with the player's entries and
// pencil marks played as one move.

// pictureLevel is the level of a game played on from a picture: it is
// neither judged nor rated, as its player filled part of it elsewhere.
const pictureLevel = "picture"

// playCommand is /play's name; a picture read unsure offers "Play as
// read" as "pic:play:<state>".
const playCommand = "play"

// pictureCommand is /play as the command of a picture's buttons.
func (p *player) pictureCommand() puzzleCommand {
	return puzzleCommand{
		name:        playCommand,
		runPosition: p.playFrom,
		ephemeral:   func(map[string]string) bool { return true },
	}
}

// playPicture answers /play with a picture: the game goes on from what
// was read, or, when a cell is unsure, the reply shows the reading first.
func (p *player) playPicture(ctx context.Context, req Request) Response {
	pr, res, bad := p.s.readPicture(ctx, req.Images[0], true)
	if bad != nil {
		return *bad
	}
	if !res.Sure() {
		return p.s.unsureReply(p.pictureCommand(), pr, res, req.Images[0], nil)
	}
	return p.playFrom(ctx, req, pr.puzzle, pr.position, nil)
}

// playFrom starts req's user on puzzle (the givens read) and plays the
// rest of position (their entries and pencil marks) as one move, which
// one Undo takes back.
func (p *player) playFrom(ctx context.Context, req Request, puzzle, position *sudoku.Grid, _ map[string]string) Response {
	if r, ok := p.s.refuseDaily(ctx, req, puzzle, playCommand); ok {
		return r
	}
	if clashes := puzzle.Clashes(); len(clashes) > 0 {
		return p.s.clashReply(puzzle, clashes, outputImage)
	}
	res := p.s.solveFn(ctx, puzzle, 2)
	switch res.Status {
	case sudoku.Unique:
	case sudoku.Cancelled:
		return p.s.stoppedOn(ctx, puzzle)
	case sudoku.NoSolution:
		return ephemeral("The printed digits I read have no solution, so there is no game to play from them: one is probably misread. /check on the picture shows more.")
	default:
		return ephemeral(fmt.Sprintf("The printed digits I read (%d of them) leave more than one solution, so there is no game to play from them: a clue is probably misread or missing. /check on the picture shows more.", puzzle.Clues()))
	}
	sol := res.Solutions[0]
	if solvedPosition(puzzle, position, sol) {
		// A game solved by its first move could be neither played nor
		// undone: none is started.
		return ephemeral(fmt.Sprintf("Your picture shows this puzzle already solved: your %d entries fill every empty cell, and all are right. There is nothing left to play; `/play` starts a new game.",
			len(puzzle.Cells)-puzzle.Clues()))
	}
	g, _, err := p.games.StartGame(ctx, newGame(req, puzzle, sol, pictureLevel))
	if err != nil {
		return storeError(err)
	}
	var changes []store.Change
	entries, marked := 0, 0
	for i, v := range position.Cells {
		if puzzle.Cells[i] != 0 || i >= len(g.Entries) {
			continue
		}
		c := store.Change{Cell: i, Value: v}
		if v == 0 && position.Marks != nil {
			c.Pencil = position.Marks[i]
		}
		switch {
		case v != 0:
			entries++
		case c.Pencil != 0:
			marked++
		default:
			continue
		}
		changes = append(changes, c)
	}
	note := fmt.Sprintf("Your game starts from the puzzle in your picture (%d givens).", puzzle.Clues())
	if len(changes) > 0 {
		solved := make([]uint8, len(puzzle.Cells))
		for i, v := range puzzle.Cells {
			if v == 0 {
				solved[i] = sol.Cells[i]
			}
		}
		fin, err := p.games.Move(ctx, g.ID, changes, solved, req.Now, nil)
		if err != nil {
			return storeError(err)
		}
		g = fin.Game
		var played []string
		if entries > 0 {
			played = append(played, Plural(entries, "entry", "entries"))
		}
		if marked > 0 {
			played = append(played, "pencil marks in "+Plural(marked, "cell", "cells"))
		}
		note = fmt.Sprintf("Your game goes on from your picture: its %d givens, and your %s played as one move (Undo takes it back).",
			puzzle.Clues(), andList(played))
	}
	return p.show(ctx, req, g, note)
}

// solvedPosition reports whether position fills every cell puzzle leaves
// empty with solution's digit.
func solvedPosition(puzzle, position, solution *sudoku.Grid) bool {
	if len(position.Cells) != len(puzzle.Cells) {
		return false
	}
	for i, v := range puzzle.Cells {
		if v == 0 && position.Cells[i] != solution.Cells[i] {
			return false
		}
	}
	return true
}
