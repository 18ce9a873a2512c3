package commands

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"sudokubot/render"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

// Reading a grid from a picture. A request with no grid in its text and a
// picture attached (Request.Images) is read by package vision. When every
// cell is sure the command runs on what was read; otherwise the reply shows
// the grid read, beside the original, with the unsure cells marked and two
// buttons: "Solve as read" and "Fix" (a modal prefilled with the grid).

const (
	// picPrefix starts the custom id of "Solve as read":
	// "pic:<command>:<state>".
	picPrefix = "pic"
	// picFixPrefix starts the custom id of "Fix": "picfix:<command>:<state>".
	picFixPrefix = "picfix"
)

// noGridInPicture is the whole answer to a picture with no grid in it.
const noGridInPicture = "I couldn't find a Sudoku grid in that picture."

func (s *Service) addPicture() {
	s.addComponent(picPrefix, s.pictureSolve, func(ctx context.Context, req Request) Plan {
		pc, ok := s.pictureCommand(req.CustomID)
		return Plan{Heavy: true, Ephemeral: ok && pc.ephemeral(nil)}
	})
	// Fix answers with a modal, which can't be deferred: no plan.
	s.addComponent(picFixPrefix, s.pictureFix, nil)
}

// wantsPicture reports whether req should be read from its picture: it has
// one, and its text holds no grid.
func wantsPicture(req Request, text string) bool {
	return len(req.Images) > 0 && cellLike(messageText(text)) < 16
}

// runPicture reads the grid in req's first picture and runs pc on it, or
// answers with what was read when unsure.
func (s *Service) runPicture(ctx context.Context, pc puzzleCommand, req Request, opts map[string]string) Response {
	res, err := vision.ReadBytes(ctx, req.Images[0])
	switch {
	case errors.Is(err, vision.ErrNoGrid):
		return Response{Content: noGridInPicture, Ephemeral: pc.ephemeral(opts)}
	case errors.Is(err, vision.ErrTooLarge), errors.Is(err, vision.ErrFormat):
		return ephemeral(fmt.Sprintf("I couldn't read that picture: %v. I read PNG, JPEG and WebP pictures of at most %d MB and %d megapixels.",
			err, vision.MaxBytes>>20, vision.MaxPixels/1_000_000))
	case ctx.Err() != nil:
		return s.stopped(ctx)
	case err != nil:
		return ephemeral(fmt.Sprintf("I couldn't read that picture: %v.", err))
	}
	line := res.String()
	g, perr := parseGrid(line)
	if perr != nil {
		return Response{Content: noGridInPicture + " (I found a grid shape, but too few digits in it.)", Ephemeral: pc.ephemeral(opts)}
	}
	if res.Sure() {
		text := line
		if marked := pictureMarks(g, res); marked != nil && pc.name == "hint" {
			// The hint works on the player's own position: their pencil
			// marks, as a pencil-mark grid the parser reads back.
			text = sudoku.Format(marked)
		}
		r := pc.run(ctx, req, text, opts)
		note := "Read from your picture: " + oneLine(g)
		if r.Content != "" {
			note += "\n" + r.Content
		}
		r.Content = clip(note, maxContent)
		return r
	}
	return s.unsureReply(pc, g, res, req.Images[0], opts)
}

// pictureMarks returns g with the pencil marks read in the picture, or
// nil when none were read. Only the hint takes them: solving or checking
// the puzzle does not depend on the player's marks, and a mark the player
// wrongly erased would make it look unsolvable.
func pictureMarks(g *sudoku.Grid, res *vision.Result) *sudoku.Grid {
	var marks []uint32
	for i, c := range res.Cells {
		if i >= len(g.Cells) || g.Cells[i] != 0 || len(c.Candidates) == 0 {
			continue
		}
		if marks == nil {
			marks = make([]uint32, len(g.Cells))
		}
		for _, d := range c.Candidates {
			if d >= 1 && d <= g.N() {
				marks[i] |= 1 << (d - 1)
			}
		}
	}
	if marks == nil {
		return nil
	}
	m := g.Clone()
	m.Marks = marks
	return m
}

// watchedPicture answers a picture posted in a watched channel with no grid
// in its text, as a grid typed there is answered: the grid read gets the
// offer of Solve / Hint / Check buttons; read with unsure cells, it gets
// Solve as read / Fix instead. A picture with no grid in it, or one that
// can't be read, gets nothing: people post photos of all kinds, and a
// watched channel is not told about each one.
func (s *Service) watchedPicture(ctx context.Context, req Request) Response {
	res, err := vision.ReadBytes(ctx, req.Images[0])
	if err != nil {
		return Response{}
	}
	line := res.String()
	g, perr := parseGrid(line)
	if perr != nil {
		return Response{}
	}
	if r, ok := s.refuseDailyText(ctx, req, line, "solve"); ok {
		r.Ephemeral = false
		return r
	}
	if !res.Sure() {
		pc, ok := s.askers["solve"]
		if !ok {
			return Response{}
		}
		r := s.unsureReply(pc, g, res, req.Images[0], nil)
		r.Ephemeral = false
		return r
	}
	r := s.offer(line)
	if r.Content != "" {
		r.Content = clip("Read from your picture: "+oneLine(g)+"\n"+r.Content, maxContent)
	}
	return r
}

// unsureReply shows the grid read (unsure cells marked) beside the
// original picture, with Solve as read / Fix buttons.
func (s *Service) unsureReply(pc puzzleCommand, g *sudoku.Grid, res *vision.Result, original []byte, opts map[string]string) Response {
	unsure := res.Unsure()
	names := make([]string, len(unsure))
	for i, c := range unsure {
		names[i] = g.Shape.CellName(c)
	}
	board := render.New(g).MarkCells(render.Differ, unsure...)
	e := Embed{
		Title: "Is this the grid?",
		Description: clip(fmt.Sprintf("I read your picture as below, but I'm not sure of %s (marked). "+
			"Solve it as read, or fix it first.\n%s", strings.Join(names, ", "), oneLine(g)), maxEmbedDescription/2),
		Color: colorWarn,
	}
	files := s.boardEmbed(&e, board, outputImage, "read.png")
	if name, ok := originalName(original); ok {
		files = append(files, File{Name: name, ContentType: http.DetectContentType(original), Data: original})
	}
	return Response{
		Embeds:    []Embed{e},
		Files:     files,
		Ephemeral: pc.ephemeral(opts),
		Components: []ActionRow{{Buttons: []Button{
			{Label: "Solve as read", CustomID: s.customID(picPrefix+":"+pc.name, gridState{Puzzle: g}), Style: Primary},
			{Label: "Fix", CustomID: s.customID(picFixPrefix+":"+pc.name, gridState{Puzzle: g}), Style: Secondary},
		}}},
	}
}

// originalName names the original picture for re-attaching it, by its
// format; false for one too big to send back.
func originalName(data []byte) (string, bool) {
	if len(data) > 8<<20 {
		return "", false
	}
	switch http.DetectContentType(data) {
	case "image/png":
		return "original.png", true
	case "image/jpeg":
		return "original.jpg", true
	case "image/webp":
		return "original.webp", true
	}
	return "", false
}

// pictureCommand finds the command a picture button belongs to.
func (s *Service) pictureCommand(customID string) (puzzleCommand, bool) {
	f, ok := idFields(customID, 2)
	if !ok {
		return puzzleCommand{}, false
	}
	pc, ok := s.askers[f[0]]
	return pc, ok
}

// pictureSolve runs the command on the grid as read.
func (s *Service) pictureSolve(ctx context.Context, req Request) Response {
	pc, ok := s.pictureCommand(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	_, st, err := s.splitCustomID(req.CustomID, 2)
	if err != nil {
		return unknownRequest(req)
	}
	return pc.run(ctx, req, st.Puzzle.String(), nil)
}

// pictureFix opens the command's puzzle modal with the grid read filled in,
// as nine lines of nine.
func (s *Service) pictureFix(ctx context.Context, req Request) Response {
	pc, ok := s.pictureCommand(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	_, st, err := s.splitCustomID(req.CustomID, 2)
	if err != nil {
		return unknownRequest(req)
	}
	r := puzzleModal(pc, nil)
	line := st.Puzzle.String()
	n := st.Puzzle.N()
	var rows []string
	for i := 0; i+n <= len(line); i += n {
		rows = append(rows, line[i:i+n])
	}
	r.Modal.Inputs[0].Value = strings.Join(rows, "\n")
	return r
}
