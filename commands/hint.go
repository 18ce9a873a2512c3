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

func init() { features = append(features, (*Service).addHint) }

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
			return s.firstHint(ctx, g)
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

// firstHint answers /hint: the puzzle must be a proper one (no clash, one
// solution) before logic can say anything about it.
func (s *Service) firstHint(ctx context.Context, g *sudoku.Grid) Response {
	if clashes := g.Clashes(); len(clashes) > 0 {
		return s.clashReply(g, clashes, outputImage)
	}
	res := sudoku.Solve(ctx, g, 2)
	switch res.Status {
	case sudoku.Cancelled:
		return s.stopped(ctx)
	case sudoku.NoSolution:
		return ephemeral("This puzzle has no solution, so there is nothing to hint at: a clue is probably mistyped. /check shows more.")
	case sudoku.Multiple:
		return ephemeral("This puzzle has more than one solution, so logic alone can't finish it and hints would mislead. A clue is probably missing.")
	}
	r := s.hint(ctx, gridState{Puzzle: g, Position: g}, sudoku.HintTechnique)
	r.Ephemeral = true
	return r
}

// hintButton answers "More" and "Show step".
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

// nextHintButton applies the current step and hints at the next one.
func (s *Service) nextHintButton(ctx context.Context, req Request) Response {
	_, st, err := s.splitCustomID(req.CustomID, 1)
	if err != nil {
		return stateError(err)
	}
	if st.Position == nil {
		return unknownRequest(req)
	}
	step, err := sudoku.Hint(ctx, st.Puzzle, st.Position, sudoku.HintStep)
	if err != nil {
		r := s.hintError(ctx, err)
		r.Update = true
		return r
	}
	next := st.Position.Clone()
	for _, p := range step.Step.Placements {
		if p.Cell >= 0 && p.Cell < len(next.Cells) && p.Value >= 1 && p.Value <= next.N() {
			next.Cells[p.Cell] = uint8(p.Value)
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
		return s.hintError(ctx, err)
	}
	e := Embed{
		Title:       fmt.Sprintf("Hint · %d of 3", level),
		Description: h.Text,
		Color:       colorNeutral,
	}
	if len(h.Wrong) > 0 {
		e.Color = colorBad
	}
	var files []File
	if level >= sudoku.HintStep || len(h.Wrong) > 0 {
		files = s.boardEmbed(&e, hintBoard(st, h), outputImage, "hint.png")
	}
	e.Description = clip(e.Description, maxEmbedDescription)
	var buttons []Button
	if level < sudoku.HintStep && len(h.Wrong) == 0 {
		buttons = append(buttons, Button{Label: "More", CustomID: s.customID(fmt.Sprintf("%s:%d:u", hintPrefix, level+1), st), Style: Primary})
		// One level short of the step, "More" is the step: a second button
		// would repeat its custom id, which Discord refuses.
		if level+1 < sudoku.HintStep {
			buttons = append(buttons, Button{Label: "Show step", CustomID: s.customID(hintPrefix+":3:u", st), Style: Secondary})
		}
	}
	if len(h.Wrong) == 0 {
		buttons = append(buttons, Button{Label: "Next hint", CustomID: s.customID(nextPrefix, st), Style: Success})
	}
	r := Response{Embeds: []Embed{e}, Files: files}
	if len(buttons) > 0 {
		r.Components = []ActionRow{{Buttons: buttons}}
	}
	return r
}

func (s *Service) hintError(ctx context.Context, err error) Response {
	switch {
	case ctx.Err() != nil:
		return s.stopped(ctx)
	case errors.Is(err, sudoku.ErrNotBuilt):
		return ephemeral("Hints aren't available in this version yet. /solve and /check work.")
	}
	return ephemeral(fmt.Sprintf("I couldn't find a hint for this position: %v.", err))
}

// hintBoard draws the position with the hint's step highlighted over the
// plain pencil marks, so the candidates it removes are there to be crossed
// out. Steps that only remove candidates and lead up to the step are
// highlighted too. Wrong entries are marked
// instead when the hint is about them.
func hintBoard(st gridState, h sudoku.HintResult) *render.Board {
	board := render.Playing(st.Puzzle, st.Position)
	if len(h.Wrong) > 0 {
		return board.MarkCells(render.Wrong, h.Wrong...)
	}
	steps := h.Steps
	if len(steps) == 0 {
		steps = []sudoku.Step{h.Step}
	}
	board.Pencil = st.Position.Candidates()
	for _, step := range steps {
		board.WithStep(step)
	}
	return board
}
