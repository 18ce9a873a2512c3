package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"sudokubot/sudoku"
)

// Option names shared by several commands. They are part of the interface
// people type: keep them.
const (
	optPuzzle   = "puzzle"
	optOutput   = "output"
	optPrivate  = "private"
	optLevel    = "level"
	optSize     = "size"
	optSymmetry = "symmetry"
	optMode     = "mode"
	optChannel  = "channel"
	optImage    = "image"
)

// modalPrefix starts the custom id of the modal that asks for a puzzle:
// "ask:<command>:<options>", the options as name=value joined by ','.
const modalPrefix = "ask"

// puzzleCommand is a command that works on a pasted puzzle. It can be
// called with the puzzle as an option, from a modal (when the option was
// left out), from a message's Apps menu, or from a button.
type puzzleCommand struct {
	// name is the slash command's name; message is the Apps-menu command's
	// name ("" for none).
	name, message string
	// run does the work on the pasted text. opts holds the command's other
	// options (never the puzzle).
	run func(ctx context.Context, req Request, text string, opts map[string]string) Response
	// runPosition, when set, does the work on a position read from a
	// picture: the printed puzzle (givens only) and the player's position
	// on it (givens, entries and pencil marks). Without it a picture's
	// command runs on the givens alone.
	runPosition func(ctx context.Context, req Request, puzzle, position *sudoku.Grid, opts map[string]string) Response
	// ephemeral says whether the reply to opts is ephemeral, for deferring.
	ephemeral func(opts map[string]string) bool
	// modalTitle is the title of the modal that asks for the puzzle.
	modalTitle string
}

// addPuzzleCommand registers pc's slash command (with spec), its message
// command, and its modal.
func (s *Service) addPuzzleCommand(spec CommandSpec, pc puzzleCommand) {
	run := pc.run
	pc.run = func(ctx context.Context, req Request, text string, opts map[string]string) Response {
		if r, ok := s.refuseDailyText(ctx, req, text, pc.name); ok {
			return r // the dailies that count are played, not solved here
		}
		return run(ctx, req, text, opts)
	}
	if runPos := pc.runPosition; runPos != nil {
		pc.runPosition = func(ctx context.Context, req Request, puzzle, position *sudoku.Grid, opts map[string]string) Response {
			if r, ok := s.refuseDaily(ctx, req, puzzle, pc.name); ok {
				return r
			}
			return runPos(ctx, req, puzzle, position, opts)
		}
	}
	spec.Options = append(spec.Options, OptionSpec{Type: OptAttachment, Name: optImage,
		Description: "Or a picture of the puzzle: a screenshot or a photo"})
	s.addCommand(spec, func(ctx context.Context, req Request) Response {
		opts := otherOptions(req.Options)
		text := req.Options[optPuzzle]
		if strings.TrimSpace(text) == "" {
			if len(req.Images) > 0 {
				return s.runPicture(ctx, pc, req, opts)
			}
			return puzzleModal(pc, opts)
		}
		return pc.run(ctx, req, text, opts)
	}, func(ctx context.Context, req Request) Plan {
		picture := req.Options[optImage] != "" || len(req.Images) > 0
		if strings.TrimSpace(req.Options[optPuzzle]) == "" && !picture {
			return Plan{} // the answer is a modal, which can't be deferred
		}
		// Reading a picture takes tens of milliseconds: not the fast lane.
		return Plan{Heavy: true, Ephemeral: pc.ephemeral(otherOptions(req.Options)), Cheap: !picture && cheapText(req.Options[optPuzzle])}
	})
	if pc.message != "" {
		s.addCommand(CommandSpec{Type: MessageAction, Name: pc.message},
			func(ctx context.Context, req Request) Response {
				if wantsPicture(req, req.Text) {
					return s.runPicture(ctx, pc, req, nil)
				}
				return pc.run(ctx, req, req.Text, nil)
			}, func(ctx context.Context, req Request) Plan {
				return Plan{Heavy: true, Ephemeral: pc.ephemeral(nil), Cheap: len(req.Images) == 0 && cheapText(req.Text)}
			})
	}
	if s.askers == nil {
		s.askers = make(map[string]puzzleCommand)
		s.addModal(modalPrefix, s.handleAsk, s.planAsk)
	}
	s.askers[pc.name] = pc
}

// otherOptions returns opts without the puzzle or its picture.
func otherOptions(opts map[string]string) map[string]string {
	out := make(map[string]string, len(opts))
	for k, v := range opts {
		if k != optPuzzle && k != optImage {
			out[k] = v
		}
	}
	return out
}

// puzzleModal asks for the puzzle in a paragraph box, since a slash
// command's option is one line and most grids are several.
func puzzleModal(pc puzzleCommand, opts map[string]string) Response {
	id, ok := newID(modalPrefix, pc.name, encodeOptions(opts))
	if !ok {
		id = mustID(modalPrefix, pc.name, "")
	}
	return Response{Modal: &Modal{
		CustomID: id,
		Title:    pc.modalTitle,
		Inputs: []TextInput{{
			CustomID:    optPuzzle,
			Label:       "Puzzle (one line, or the whole grid)",
			Paragraph:   true,
			Placeholder: "53..7....\n6..195...\n.98....6.\n…",
			Required:    true,
			MaxLength:   MaxTextInputLength,
		}},
	}}
}

// encodeOptions writes options as name=value pairs joined by ',', sorted so
// the same options always give the same id. Values come from fixed choices
// or booleans, so they never hold ',' or '='; any that do are dropped.
func encodeOptions(opts map[string]string) string {
	var parts []string
	for k, v := range opts {
		if strings.ContainsAny(k+v, ",=:") {
			continue
		}
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func decodeOptions(s string) map[string]string {
	opts := make(map[string]string)
	for _, part := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(part, "="); ok {
			opts[k] = v
		}
	}
	return opts
}

// handleAsk runs the command a submitted puzzle modal belongs to.
func (s *Service) handleAsk(ctx context.Context, req Request) Response {
	pc, opts, ok := s.asker(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	text := req.Fields[optPuzzle]
	if mask, ok := opts[optEntries]; ok {
		delete(opts, optEntries)
		// A picture's grid sent back from Fix: the player's entries
		// stay theirs (picture.go).
		if g, err := parseGrid(text); err == nil {
			if puzzle, position, ok := splitEntries(g, mask); ok {
				return s.runRead(ctx, pc, req, pictureRead{grid: position, puzzle: puzzle, position: position,
					entries: countEntries(puzzle, position)}, opts)
			}
		}
	}
	return pc.run(ctx, req, text, opts)
}

func (s *Service) planAsk(ctx context.Context, req Request) Plan {
	pc, opts, ok := s.asker(req.CustomID)
	if !ok {
		return Plan{}
	}
	return Plan{Heavy: true, Ephemeral: pc.ephemeral(opts), Cheap: cheapText(req.Fields[optPuzzle])}
}

func (s *Service) asker(customID string) (puzzleCommand, map[string]string, bool) {
	f, ok := idFields(customID, 2)
	if !ok {
		return puzzleCommand{}, nil, false
	}
	pc, ok := s.askers[f[0]]
	return pc, decodeOptions(f[1]), ok
}

// boolOption reads a boolean option; Discord sends "true" or "false".
func boolOption(opts map[string]string, name string) bool {
	v := strings.ToLower(strings.TrimSpace(opts[name]))
	return v == "true" || v == "1" || v == "yes"
}

// choiceOption reads a string option restricted to choices, falling back to
// def when absent. A value outside the choices (possible from the console,
// or a stale registration) is an error the user can fix.
func choiceOption(opts map[string]string, name, def string, choices []Choice) (string, error) {
	v := strings.ToLower(strings.TrimSpace(opts[name]))
	if v == "" {
		return def, nil
	}
	var values []string
	for _, c := range choices {
		if v == c.Value {
			return v, nil
		}
		values = append(values, c.Value)
	}
	return "", fmt.Errorf("there is no %s %q: pick %s", name, opts[name], orList(values))
}

// orList writes "a, b or c".
func orList(items []string) string { return joinLast(items, " or ") }

// andList writes "a, b and c".
func andList(items []string) string { return joinLast(items, " and ") }

func joinLast(items []string, last string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// optionError is the reply to an option value the command doesn't take.
func optionError(err error) Response {
	return ephemeral(capitalize(err.Error()) + ".")
}
