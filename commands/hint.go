package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// Custom ids of the hint buttons:
//
//	hint:<level>:<u|n>:<state>  the hint at level 1–3 for the state's position;
//	                            u edits the message the button is on, n posts
//	                            a new ephemeral reply (from a public message)
//	hnext:<state>               apply the step, then the level-1 hint after it
const (
	hintPrefix = "hint"
	nextPrefix = "hnext"
)

func (s *Service) addHint() {
	s.addPuzzleCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "hint",
		Description: "A hint for a Sudoku, in steps: the technique, then where, then the full step",
		Options: []OptionSpec{
			{Type: OptString, Name: optPuzzle, Description: "The puzzle: 81 characters on one line (. or 0 for blanks)"},
		},
	}, puzzleCommand{
		name:       "hint",
		message:    "Sudoku hint",
		modalTitle: "Get a hint",
		run: func(ctx context.Context, req Request, text string, opts map[string]string) Response {
			g, bad := s.readPuzzle(text)
			if bad != nil {
				return *bad
			}
			return s.firstHint(ctx, g, g)
		},
		runPosition: func(ctx context.Context, req Request, puzzle, position *sudoku.Grid, opts map[string]string) Response {
			return s.firstHint(ctx, puzzle, position)
		},
		ephemeral: func(map[string]string) bool { return true },
	})
	s.addComponent(hintPrefix, s.hintButton, func(ctx context.Context, req Request) Plan {
		head := strings.SplitN(req.CustomID, ":", 4)
		return Plan{Heavy: true, Ephemeral: true, Update: len(head) == 4 && head[2] == "u", Cheap: len(head) == 4 && cheapState(head[3])}
	})
	s.addComponent(nextPrefix, s.nextHintButton, func(ctx context.Context, req Request) Plan {
		_, enc, _ := strings.Cut(req.CustomID, ":")
		return Plan{Heavy: true, Ephemeral: true, Update: true, Cheap: cheapState(enc)}
	})
}

// firstHint answers /hint on puzzle g from the player's position (g
// itself for a pasted puzzle; the givens with the player's entries and
// pencil marks for one read from a picture). The hint itself solves the
// puzzle (it must have one solution, or one the pasted pencil marks allow),
// so the puzzle is solved once; its errors become the replies here.
func (s *Service) firstHint(ctx context.Context, g, position *sudoku.Grid) Response {
	if clashes := g.Clashes(); len(clashes) > 0 {
		return s.clashReply(g, clashes, outputImage)
	}
	r := s.hint(ctx, gridState{Puzzle: g, Position: position}, sudoku.HintTechnique)
	r.Ephemeral = true
	return r
}

// hintButton answers "More", "Show step" and "Reveal a cell".
func (s *Service) hintButton(ctx context.Context, req Request) Response {
	head, st, err := s.splitCustomID(req.CustomID, 3)
	if err != nil {
		return stateError(err)
	}
	level, err := strconv.Atoi(head[1])
	if err != nil || level < 1 || level > 3 || st.Position == nil {
		return unknownRequest(req)
	}
	r := s.hint(ctx, st, sudoku.HintLevel(level))
	r.Ephemeral = true
	r.Update = head[2] == "u"
	return r
}

// nextHintButton takes the hint's step (its placements filled in, its
// removals taken off the pencil marks the state carries) and hints at the
// step after it, so each hint explains one step and none repeats.
func (s *Service) nextHintButton(ctx context.Context, req Request) Response {
	_, st, err := s.splitCustomID(req.CustomID, 1)
	if err != nil {
		return stateError(err)
	}
	if st.Position == nil {
		return unknownRequest(req)
	}
	h, err := sudoku.Hint(ctx, st.Puzzle, st.Position, sudoku.HintStep)
	if err != nil {
		r := s.hintError(ctx, err, st.Puzzle)
		r.Update = true
		return r
	}
	next := st.Position
	if len(h.Steps) > 0 {
		if next, err = sudoku.ApplyStep(st.Position, h.Step); err != nil {
			r := s.hintError(ctx, err, st.Puzzle)
			r.Update = true
			return r
		}
	}
	r := s.hint(ctx, gridState{Puzzle: st.Puzzle, Position: next}, sudoku.HintTechnique)
	r.Ephemeral = true
	r.Update = true
	return r
}

// hint shows the hint at level for st's position, with the buttons that go
// further.
func (s *Service) hint(ctx context.Context, st gridState, level sudoku.HintLevel) Response {
	if st.Position.Complete() && len(st.Position.Clashes()) == 0 {
		return Response{Content: "Solved — there is nothing left to hint at. " + oneLine(st.Position)}
	}
	h, err := sudoku.Hint(ctx, st.Puzzle, st.Position, level)
	if err != nil {
		return s.hintError(ctx, err, st.Puzzle)
	}
	wrong := len(h.Wrong) > 0 || len(h.WrongMarks) > 0
	e := Embed{
		Title:       hintTitle(h),
		Description: h.Text,
		Color:       colorNeutral,
	}
	if wrong {
		e.Color = colorBad
	}
	var files []File
	if level >= sudoku.HintStep || wrong {
		files = s.boardEmbed(&e, hintBoard(st, h), outputImage, "hint.png")
	}
	e.Description = clip(e.Description, maxEmbedDescription)
	var buttons []Button
	switch {
	case len(h.Wrong) == 0 && len(h.WrongMarks) > 0 && level == sudoku.HintTechnique:
		// Level 1 named the cells; the candidates they need come next.
		label := "Which candidate?"
		if len(h.WrongMarks) > 1 {
			label = "Which candidates?"
		}
		buttons = append(buttons, Button{Label: label, CustomID: s.customID(hintPrefix+":2:u", st), Style: Primary})
	case wrong || level >= sudoku.HintStep:
	case h.NeedsTrial:
		buttons = append(buttons, Button{Label: "Reveal a cell", CustomID: s.customID(hintPrefix+":3:u", st), Style: Primary})
	case level == sudoku.HintWhere:
		buttons = append(buttons, Button{Label: "Show step", CustomID: s.customID(hintPrefix+":3:u", st), Style: Primary})
	default:
		buttons = append(buttons,
			Button{Label: "More", CustomID: s.customID(fmt.Sprintf("%s:%d:u", hintPrefix, level+1), st), Style: Primary},
			Button{Label: "Show step", CustomID: s.customID(hintPrefix+":3:u", st), Style: Secondary})
	}
	if !wrong {
		buttons = append(buttons, Button{Label: "Next hint", CustomID: s.customID(nextPrefix, st), Style: Success})
	}
	r := Response{Embeds: []Embed{e}, Files: files}
	if len(buttons) > 0 {
		r.Components = []ActionRow{{Buttons: buttons}}
	}
	return r
}

// hintTitle heads a hint: "Hint · level 1 of 3", or what it is about when
// the player's work needs fixing first.
func hintTitle(h sudoku.HintResult) string {
	switch {
	case len(h.Wrong) > 0:
		return "Hint · check your digits"
	case len(h.WrongMarks) > 0:
		return "Hint · check your pencil marks"
	}
	return fmt.Sprintf("Hint · level %d of 3", h.Level)
}

// hintError is the reply when a hint on puzzle g fails.
func (s *Service) hintError(ctx context.Context, err error, g *sudoku.Grid) Response {
	switch {
	case ctx.Err() != nil, errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return s.stoppedOn(ctx, g)
	case errors.Is(err, sudoku.ErrHintNoSolution):
		return ephemeral("This puzzle has no solution, so there is nothing to hint at: a clue is probably mistyped. /check shows more.")
	case errors.Is(err, sudoku.ErrHintNotUnique):
		switch {
		case g.Clues() == 0:
			return ephemeral("The grid is empty, so there is nothing to hint at: paste a puzzle with its clues.")
		case fewClues(g):
			return ephemeral(fmt.Sprintf("With only %d clues, this grid has many solutions, so hints would mislead: a proper %s Sudoku needs more.", g.Clues(), sizeName(g.Shape)))
		}
		return ephemeral("This puzzle has more than one solution, so hints would mislead: a clue is probably missing.")
	}
	return ephemeral(fmt.Sprintf("I couldn't find a hint for this position: %v.", err))
}

// hintBoard draws the position with the player's pencil marks (the plain
// ones where they have none) and the hint's one step highlighted: its cells,
// its causes, the candidates it removes, and a placed value drawn large;
// on a big board, only the rows and columns around the step.
// Wrong entries or wrongly erased candidates are marked instead when the
// hint is about them.
func hintBoard(st gridState, h sudoku.HintResult) *render.Board {
	board := render.Playing(st.Puzzle, st.Position)
	board.Pencil = positionMarks(st.Position)
	if markWrongWork(board, h) {
		return board
	}
	return zoomStep(board.WithStep(h.Step))
}

// markWrongWork marks on board what a hint about the player's work points
// at, and reports whether there was any: entries that disagree with the
// solution; cells that lost a candidate they need, and from level 2 on the
// candidates themselves (at level 1 they would give the answers away).
func markWrongWork(board *render.Board, h sudoku.HintResult) bool {
	switch {
	case len(h.Wrong) > 0:
		board.MarkCells(render.Wrong, h.Wrong...)
	case len(h.WrongMarks) > 0:
		for _, c := range h.WrongMarks {
			board.MarkCells(render.Wrong, c.Cell)
		}
		if h.Level > sudoku.HintTechnique {
			board.MarkCandidates(true, h.WrongMarks...)
		}
	default:
		return false
	}
	return true
}

// zoomStep narrows the picture of a board showing a step to a close-up
// around it when the board is bigger than 9x9.
func zoomStep(board *render.Board) *render.Board {
	if board.Puzzle.N() > zoomSide && !board.Zoom(zoomSide) {
		board.Zoom(zoomSideMax)
	}
	return board
}

// A step's picture on a board over 9x9 is a close-up of the rows and
// columns around it: nine of each where the step fits (cells as big as a
// 9x9 board's at Discord's ~400 px preview), else up to twelve, else the
// whole board.
const (
	zoomSide    = 9
	zoomSideMax = 12
)

// positionMarks returns the candidates of pos's empty cells as the player
// has them: their pencil marks, or the plain candidates where a cell has
// none.
func positionMarks(pos *sudoku.Grid) []uint32 {
	if l, err := sudoku.NewLogic(pos); err == nil {
		return l.Candidates()
	}
	return pos.Candidates()
}
