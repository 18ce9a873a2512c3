package commands

import (
	"context"
	"encoding/base64"
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
	pr, res, bad := s.readPicture(ctx, req.Images[0], pc.ephemeral(opts))
	if bad != nil {
		return *bad
	}
	if !res.Sure() {
		return s.unsureReply(pc, pr, res, req.Images[0], opts)
	}
	r := s.runRead(ctx, pc, req, pr, opts)
	note := "Read from your picture: " + oneLine(pr.grid)
	if pr.entries > 0 {
		note = fmt.Sprintf("Read from your picture: the puzzle %s, and %s in lighter ink or by hand.",
			oneLine(pr.puzzle), Plural(pr.entries, "entry of yours", "entries of yours"))
	}
	if r.Content != "" {
		note += "\n" + r.Content
	}
	r.Content = clip(note, maxContent)
	return r
}

// readPicture reads the grid in a picture. A picture that holds none, or
// can't be read, comes back as the reply to send instead (ephemeral as
// asked; an unreadable file always is).
func (s *Service) readPicture(ctx context.Context, data []byte, ephemeralReply bool) (pictureRead, *vision.Result, *Response) {
	res, err := vision.ReadBytes(ctx, data)
	var r Response
	switch {
	case errors.Is(err, vision.ErrNoGrid):
		r = Response{Content: noGridInPicture, Ephemeral: ephemeralReply}
	case errors.Is(err, vision.ErrTooLarge), errors.Is(err, vision.ErrFormat):
		r = ephemeral(fmt.Sprintf("I couldn't read that picture: %v. I read PNG, JPEG and WebP pictures of at most %d MB and %d megapixels.",
			err, vision.MaxBytes>>20, vision.MaxPixels/1_000_000))
	case ctx.Err() != nil:
		r = s.stopped(ctx)
	case err != nil:
		r = ephemeral(fmt.Sprintf("I couldn't read that picture: %v.", err))
	default:
		g, perr := parseGrid(res.String())
		if perr == nil {
			return newPictureRead(g, res), res, nil
		}
		r = Response{Content: noGridInPicture + " (I found a grid shape, but too few digits in it.)", Ephemeral: ephemeralReply}
	}
	return pictureRead{}, nil, &r
}

// pictureRead is a grid read from a picture, split into the printed
// puzzle and the player's position on it.
type pictureRead struct {
	// grid holds every value read, givens and entries alike: what the
	// reply shows as read.
	grid *sudoku.Grid
	// puzzle holds the givens alone; position the givens, the player's
	// entries (values in lighter ink) and the pencil marks read (Marks
	// nil when none).
	puzzle, position *sudoku.Grid
	// entries counts the player's entries.
	entries int
}

// newPictureRead splits g, read as res, into the givens and the player's
// position.
func newPictureRead(g *sudoku.Grid, res *vision.Result) pictureRead {
	pr := pictureRead{grid: g, puzzle: g, position: g}
	if len(res.Cells) != len(g.Cells) {
		return pr
	}
	puzzle := g.Clone()
	for i, c := range res.Cells {
		if c.Entry && g.Cells[i] != 0 {
			puzzle.Cells[i] = 0
			pr.entries++
		}
	}
	marked := pictureMarks(g, res)
	if pr.entries == 0 && marked == nil {
		return pr
	}
	pr.puzzle = puzzle
	pr.position = g.Clone()
	if marked != nil {
		pr.position.Marks = marked.Marks
	}
	return pr
}

// state is what a picture's buttons carry: the puzzle, and the player's
// position when it differs from it.
func (pr pictureRead) state() gridState {
	if pr.position == pr.puzzle {
		return gridState{Puzzle: pr.puzzle}
	}
	return gridState{Puzzle: pr.puzzle, Position: pr.position}
}

// runRead runs pc on what was read: on the player's position when pc
// takes one, else on the printed puzzle, saying that the player's
// entries were left out.
func (s *Service) runRead(ctx context.Context, pc puzzleCommand, req Request, pr pictureRead, opts map[string]string) Response {
	if pc.runPosition != nil {
		return pc.runPosition(ctx, req, pr.puzzle, pr.position, opts)
	}
	r := pc.run(ctx, req, pr.puzzle.String(), opts)
	if pr.entries > 0 && len(r.Embeds) > 0 {
		note := "Your entries were taken as yours and left out: this answers the printed puzzle. /check on the picture says which are wrong; /hint starts from them."
		if pr.entries == 1 {
			note = "Your entry was taken as yours and left out: this answers the printed puzzle. /check on the picture says whether it is right; /hint starts from it."
		}
		r.Content = strings.TrimSpace(note + "\n" + r.Content)
	}
	return r
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
	pr, res, bad := s.readPicture(ctx, req.Images[0], false)
	if bad != nil {
		return Response{}
	}
	if r, ok := s.refuseDailyText(ctx, req, pr.puzzle.String(), "solve"); ok {
		r.Ephemeral = false
		return r
	}
	if !res.Sure() {
		pc, ok := s.askers["solve"]
		if !ok {
			return Response{}
		}
		r := s.unsureReply(pc, pr, res, req.Images[0], nil)
		r.Ephemeral = false
		return r
	}
	r := s.offerRead(pr)
	if r.Content != "" {
		r.Content = clip("Read from your picture: "+oneLine(pr.grid)+"\n"+r.Content, maxContent)
	}
	return r
}

// offerRead is the offer of Solve / Hint / Check under a grid read from a
// picture: on the printed puzzle and, when the picture holds the player's
// entries or pencil marks, their position for Hint and Check.
func (s *Service) offerRead(pr pictureRead) Response {
	r := s.offer(pr.puzzle.String())
	if pr.position == pr.puzzle || len(r.Components) != 1 || len(r.Components[0].Buttons) != 3 {
		return r
	}
	if pr.entries > 0 {
		r.Content = fmt.Sprintf("That looks like a %s Sudoku with %d clues, and %s in lighter ink or by hand. Want a hand? (Only you will see the answer.)",
			pr.puzzle.Shape, pr.puzzle.Clues(), Plural(pr.entries, "entry", "entries"))
	}
	st := pr.state()
	buttons := r.Components[0].Buttons
	buttons[1].CustomID = s.customID(hintPrefix+":1:n", st)
	buttons[2].CustomID = s.customID(actPrefix+":check", st)
	return r
}

// unsureReply shows the grid read (unsure cells marked, the player's
// entries in the entry colour) beside the original picture, with Solve as
// read / Fix buttons (only the first for a command that takes no typed
// puzzle).
func (s *Service) unsureReply(pc puzzleCommand, pr pictureRead, res *vision.Result, original []byte, opts map[string]string) Response {
	g := pr.grid
	unsure := res.Unsure()
	names := make([]string, len(unsure))
	for i, c := range unsure {
		names[i] = g.Shape.CellName(c)
	}
	board := render.New(g)
	entries := ""
	if pr.entries > 0 {
		board = render.Playing(pr.puzzle, pr.grid)
		entries = fmt.Sprintf(" I take the %s in lighter ink or by hand as your entries.", Plural(pr.entries, "digit", "digits"))
		if pr.entries == 1 {
			entries = " I take the digit in lighter ink or by hand as your entry."
		}
	}
	board.MarkCells(render.Differ, unsure...)
	// The button is named for what it does: /hint's is no "Solve".
	label := capitalize(pc.name) + " as read"
	verb := capitalize(pc.name) + " it"
	if pc.name == "hint" {
		verb = "Take a hint on it"
	}
	e := Embed{
		Title: "Is this the grid?",
		Description: clip(fmt.Sprintf("I read your picture as below, but I'm not sure of %s (marked). "+
			"%s as read, or fix it first.%s\n%s", strings.Join(names, ", "), verb, entries, oneLine(g)), maxEmbedDescription/2),
		Color: colorWarn,
	}
	if pc.run == nil {
		e.Description = clip(fmt.Sprintf("I read your picture as below, but I'm not sure of %s (marked). "+
			"%s as read, or send a clearer picture.%s\n%s", strings.Join(names, ", "), verb, entries, oneLine(g)), maxEmbedDescription/2)
	}
	files := s.boardEmbed(&e, board, outputImage, "read.png")
	if name, ok := originalName(original); ok {
		files = append(files, File{Name: name, ContentType: http.DetectContentType(original), Data: original})
	}
	buttons := []Button{{Label: label, CustomID: s.customID(picPrefix+":"+pc.name, pr.state()), Style: Primary}}
	if pc.run != nil {
		buttons = append(buttons, Button{Label: "Fix", CustomID: s.customID(picFixPrefix+":"+pc.name, pr.state()), Style: Secondary})
	}
	return Response{
		Embeds:     []Embed{e},
		Files:      files,
		Ephemeral:  pc.ephemeral(opts),
		Components: []ActionRow{{Buttons: buttons}},
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

// pictureCommand finds the command a picture button belongs to: a puzzle
// command, or /play.
func (s *Service) pictureCommand(customID string) (puzzleCommand, bool) {
	f, ok := idFields(customID, 2)
	if !ok {
		return puzzleCommand{}, false
	}
	if f[0] == playCommand && s.playFeature != nil {
		return s.playFeature.pictureCommand(), true
	}
	pc, ok := s.askers[f[0]]
	return pc, ok
}

// pictureSolve runs the command on the grid as read: on the player's
// position when the state carries one.
func (s *Service) pictureSolve(ctx context.Context, req Request) Response {
	pc, ok := s.pictureCommand(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	_, st, err := s.splitCustomID(req.CustomID, 2)
	if err != nil {
		return unknownRequest(req)
	}
	pr := pictureRead{grid: st.Puzzle, puzzle: st.Puzzle, position: st.Puzzle}
	if st.Position != nil {
		pr.grid, pr.position = st.Position, st.Position
		pr.entries = countEntries(st.Puzzle, st.Position)
	}
	return s.runRead(ctx, pc, req, pr, nil)
}

// pictureFix opens the command's puzzle modal with the grid read filled in
// (the player's entries with the givens), as rows.
func (s *Service) pictureFix(ctx context.Context, req Request) Response {
	pc, ok := s.pictureCommand(req.CustomID)
	if !ok || pc.run == nil {
		return unknownRequest(req)
	}
	_, st, err := s.splitCustomID(req.CustomID, 2)
	if err != nil {
		return unknownRequest(req)
	}
	grid := st.Puzzle
	var opts map[string]string
	if st.Position != nil {
		grid = st.Position
		// The text can't tell ink apart: which cells were the player's
		// entries rides in the modal's id (when it fits), so they stay
		// theirs whatever is fixed (handleAsk).
		if mask := entryMask(st.Puzzle, st.Position); mask != "" {
			opts = map[string]string{optEntries: mask}
		}
	}
	r := puzzleModal(pc, opts)
	line := grid.String()
	n := grid.N()
	var rows []string
	for i := 0; i+n <= len(line); i += n {
		rows = append(rows, line[i:i+n])
	}
	r.Modal.Inputs[0].Value = strings.Join(rows, "\n")
	return r
}

// optEntries is the modal option that carries which cells of a fixed
// picture's grid were the player's entries (entryMask).
const optEntries = "entries"

// entryMask writes the cells position fills and puzzle leaves empty as a
// bit set, base64 (URL alphabet, no padding); "" for none.
func entryMask(puzzle, position *sudoku.Grid) string {
	bits := make([]byte, (len(puzzle.Cells)+7)/8)
	found := false
	for i, v := range puzzle.Cells {
		if v == 0 && i < len(position.Cells) && position.Cells[i] != 0 {
			bits[i/8] |= 1 << (i % 8)
			found = true
		}
	}
	if !found {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(bits)
}

// splitEntries splits g, a grid sent back from Fix, into the printed
// puzzle and the player's position with mask (entryMask) marking their
// entries: a masked cell's value is an entry, any other a given. False
// when the mask doesn't fit g.
func splitEntries(g *sudoku.Grid, mask string) (puzzle, position *sudoku.Grid, ok bool) {
	bits, err := base64.RawURLEncoding.DecodeString(mask)
	if err != nil || len(bits) != (len(g.Cells)+7)/8 {
		return nil, nil, false
	}
	puzzle = g.Clone()
	puzzle.Marks = nil
	for i := range puzzle.Cells {
		if bits[i/8]&(1<<(i%8)) != 0 {
			puzzle.Cells[i] = 0
		}
	}
	return puzzle, g, true
}
