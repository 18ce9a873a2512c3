package commands

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"strings"
	"testing"

	"sudokubot/render"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

func mustPicture(t *testing.T, puzzle string) []byte {
	t.Helper()
	g, err := sudoku.Parse(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	data, err := render.New(g).PNG(render.ImageOptions{Theme: render.Light})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func blankPicture(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 300, 200))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPictureRequests(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	board := mustPicture(t, uniquePuzzle)
	tests := []struct {
		name string
		req  Request
		// want is text the reply must show; files the number of files.
		want  []string
		files int
	}{
		{"message command, sure", Request{Kind: MessageCommand, Command: "Solve Sudoku", Images: [][]byte{board}},
			[]string{"Read from your picture", uniquePuzzle}, 1},
		{"mention, sure", Request{Kind: Mention, Mentioned: true, Text: "<@42>", Images: [][]byte{board}},
			[]string{"Read from your picture", uniquePuzzle}, 1},
		{"no grid", Request{Kind: MessageCommand, Command: "Solve Sudoku", Images: [][]byte{blankPicture(t)}},
			[]string{noGridInPicture}, 0},
		{"mention, no grid", Request{Kind: Mention, Mentioned: true, Text: "<@42> what's this", Images: [][]byte{blankPicture(t)}},
			[]string{noGridInPicture}, 0},
		{"not a picture", Request{Kind: MessageCommand, Command: "Check Sudoku", Images: [][]byte{[]byte("GIF89a")}},
			[]string{"I couldn't read that picture", "PNG, JPEG and WebP"}, 0},
		{"text wins over the picture", Request{Kind: MessageCommand, Command: "Solve Sudoku", Text: uniquePuzzle, Images: [][]byte{blankPicture(t)}},
			[]string{uniqueSolution[:9]}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, tt.req)
			text := allText(r)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("reply %q lacks %q", text, w)
				}
			}
			if tt.files >= 0 && len(r.Files) != tt.files {
				t.Errorf("reply has %d files, want %d", len(r.Files), tt.files)
			}
			if strings.Contains(text, noGridInPicture) && (text != noGridInPicture || len(r.Components) > 0 || len(r.Embeds) > 0) {
				t.Errorf("a picture with no grid got more than the notice: %+v", r)
			}
		})
	}
}

// TestPictureUnsure: an unsure reading shows the grid read beside the
// original, names the unsure cells, and its buttons solve as read or open a
// prefilled modal.
func TestPictureUnsure(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	res := &vision.Result{Size: 9, Cells: make([]vision.Cell, 81)}
	for i := range res.Cells {
		res.Cells[i] = vision.Cell{Digit: int(uniquePuzzle[i] - '0'), Confidence: 1}
		if uniquePuzzle[i] == '.' {
			res.Cells[i].Digit = 0
		}
	}
	res.Cells[1].Confidence = 0.6 // A2, the 3
	g, err := sudoku.Parse(res.String())
	if err != nil {
		t.Fatal(err)
	}
	original := mustPicture(t, uniquePuzzle)
	r := s.unsureReply(s.askers["solve"], newPictureRead(g, res), res, original, nil)
	text := allText(r)
	if !strings.Contains(text, "A2") || !strings.Contains(text, uniquePuzzle) {
		t.Errorf("unsure reply %q does not name A2 or show the grid", text)
	}
	if len(r.Files) != 2 || r.Files[1].Name != "original.png" || !bytes.Equal(r.Files[1].Data, original) {
		t.Errorf("unsure reply files = %d, want the board read and the original", len(r.Files))
	}
	if len(r.Components) != 1 || len(r.Components[0].Buttons) != 2 {
		t.Fatalf("unsure reply buttons = %+v", r.Components)
	}
	solveAs, fix := r.Components[0].Buttons[0], r.Components[0].Buttons[1]
	if solveAs.Label != "Solve as read" || fix.Label != "Fix" {
		t.Errorf("buttons = %q, %q", solveAs.Label, fix.Label)
	}
	if p := s.Plan(ctx, click(solveAs.CustomID)); !p.Heavy {
		t.Errorf("Solve as read plan = %+v, want heavy", p)
	}
	if got := allText(s.Handle(ctx, click(solveAs.CustomID))); !strings.Contains(got, uniqueSolution) {
		t.Errorf("Solve as read = %q, want the solution", got)
	}
	m := s.Handle(ctx, click(fix.CustomID)).Modal
	if m == nil || len(m.Inputs) != 1 {
		t.Fatalf("Fix = %+v, want a modal", m)
	}
	if want := uniquePuzzle[:9] + "\n" + uniquePuzzle[9:18]; !strings.HasPrefix(m.Inputs[0].Value, want) {
		t.Errorf("Fix modal value = %q, want it to start %q", m.Inputs[0].Value, want)
	}
	sub := Request{Kind: ModalSubmit, CustomID: m.CustomID, Fields: map[string]string{optPuzzle: m.Inputs[0].Value}}
	if got := allText(s.Handle(ctx, sub)); !strings.Contains(got, uniqueSolution) {
		t.Errorf("submitting the Fix modal = %q, want the solution", got)
	}
}

// TestSlashPicture: /solve, /hint and /check take a picture as their image
// option; given one and no text, they read it instead of opening the box.
func TestSlashPicture(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	for _, name := range []string{"solve", "hint", "check"} {
		var found bool
		for _, spec := range s.Specs() {
			if spec.Name != name || spec.Type != ChatInput {
				continue
			}
			for _, o := range spec.Options {
				if o.Name == optImage && o.Type == OptAttachment && !o.Required && len(o.Description) <= 100 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("/%s has no optional image option", name)
		}
	}
	req := slash("solve", optImage, "a1")
	req.Images = [][]byte{mustPicture(t, uniquePuzzle)}
	if p := s.Plan(ctx, req); !p.Heavy || p.Cheap {
		t.Errorf("/solve with a picture: plan %+v, want heavy and not cheap", p)
	}
	r := s.Handle(ctx, req)
	if r.Modal != nil || !strings.Contains(allText(r), "Read from your picture") || !strings.Contains(allText(r), uniquePuzzle) {
		t.Errorf("/solve with a picture = %q (modal %v)", allText(r), r.Modal != nil)
	}
	if r := s.Handle(ctx, slash("solve")); r.Modal == nil {
		t.Errorf("/solve with neither puzzle nor picture: no modal")
	}
}

// TestWatchedPicture: a picture posted in a watched channel with no grid in
// its text is read; the grid read gets the same offer as a typed grid, and
// a picture with no grid, or chatter, gets nothing. In a channel that is
// not watched the message is a mention and answered in place.
func TestWatchedPicture(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	if err := s.settings.SetWatched(ctx, "g1", "c1", true); err != nil {
		t.Fatal(err)
	}
	board := mustPicture(t, uniquePuzzle)
	withImage := func(text string, img []byte) Request {
		r := mention(text, false)
		r.HasImage = true
		plan := s.Plan(ctx, r)
		if plan.Ignore || !plan.Heavy {
			t.Errorf("Plan(%q with a picture, before download) = %+v, want heavy", text, plan)
		}
		r.Images = [][]byte{img}
		return r
	}
	tests := []struct {
		name string
		req  Request
		// says is text the reply must hold; "" means a zero Response.
		says    []string
		buttons []string
	}{
		{"grid", withImage("", board), []string{"Read from your picture", uniquePuzzle[:9], "9x9 Sudoku with 30 clues"}, []string{"Solve", "Hint", "Check"}},
		{"grid and chatter", withImage("look at this one", board), []string{"9x9 Sudoku with 30 clues"}, []string{"Solve", "Hint", "Check"}},
		{"no grid", withImage("my cat", blankPicture(t)), nil, nil},
		{"not a picture", withImage("", []byte("GIF89a")), nil, nil},
		{"unwatched channel", func() Request {
			r := mention("", false)
			r.ChannelID, r.Images = "c9", [][]byte{board}
			return r
		}(), []string{"Read from your picture", uniqueSolution[:9]}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, tt.req)
			checkLimits(t, r)
			text := allText(r)
			if tt.says == nil && (text != "" || len(r.Components) > 0 || len(r.Files) > 0) {
				t.Fatalf("Handle = %+v, want a zero Response", r)
			}
			for _, w := range tt.says {
				if !strings.Contains(text, w) {
					t.Errorf("reply %q lacks %q", text, w)
				}
			}
			if r.Ephemeral {
				t.Errorf("reply is ephemeral; a message reply can't be")
			}
			for _, b := range tt.buttons {
				findButton(t, r, b)
			}
		})
	}
	// A text message in the watched channel with no picture is still chatter.
	if p := s.Plan(ctx, mention("good morning", false)); !p.Ignore {
		t.Errorf("Plan(chatter) = %+v, want Ignore", p)
	}
	// The Solve button under a picture's offer answers privately.
	offer := s.Handle(ctx, withImage("", board))
	r := s.Handle(ctx, click(findButton(t, offer, "Solve").CustomID))
	if !r.Ephemeral || !strings.Contains(allText(r), uniqueSolution) {
		t.Errorf("Solve under a picture's offer = %+v, want the solution, privately", r)
	}
}

// TestPicturePencilMarks: the pencil marks read in a picture reach /hint as
// the player's position (a mark that rules out the cell's answer is
// pointed out), while /solve ignores them.
func TestPicturePencilMarks(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	g, err := sudoku.Parse(uniquePuzzle)
	if err != nil {
		t.Fatal(err)
	}
	b := render.New(g)
	b.Pencil = make([]uint32, 81)
	cands := g.Candidates()
	for i, v := range g.Cells {
		if v == 0 && i%3 == 0 {
			b.Pencil[i] = cands[i]
		}
	}
	// A3's answer is 4: the player erased it.
	const a3 = 2
	b.Pencil[a3] = cands[a3] &^ (1 << (uniqueSolution[a3] - '1'))
	data, err := b.PNG(render.ImageOptions{Theme: render.Light})
	if err != nil {
		t.Fatal(err)
	}
	res, err := vision.ReadBytes(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	marked := pictureMarks(g, res)
	if marked == nil || marked.Marks[a3] != b.Pencil[a3] {
		t.Fatalf("marks read in A3: %v, want %v", res.Cells[a3].Candidates, b.Pencil[a3])
	}
	for _, tt := range []struct {
		command, says string
	}{
		{"hint", "check your pencil marks"},
		{"solve", uniqueSolution[:9]},
	} {
		req := slash(tt.command, optImage, "a1")
		req.Images = [][]byte{data}
		if got := allText(s.Handle(ctx, req)); !strings.Contains(got, tt.says) {
			t.Errorf("/%s with a picture with pencil marks = %q, want it to say %q", tt.command, got, tt.says)
		}
	}
}

// TestUnsureButtonSaysWhatItDoes: an unsure reading's first button is
// named for the command it runs: a player asking /hint or /check is not
// offered "Solve as read" (which would look like a spoiler).
func TestUnsureButtonSaysWhatItDoes(t *testing.T) {
	s := newTestService(t, Config{})
	res := &vision.Result{Size: 9, Cells: make([]vision.Cell, 81)}
	for i := range res.Cells {
		res.Cells[i].Confidence = 1
		if c := uniquePuzzle[i]; c != '.' {
			res.Cells[i].Digit = int(c - '0')
		}
	}
	res.Cells[0].Confidence = 0.6
	g := mustGrid(uniquePuzzle)
	for _, c := range []struct{ cmd, label, says string }{
		{"solve", "Solve as read", "Solve it as read, or fix it first."},
		{"check", "Check as read", "Check it as read, or fix it first."},
		{"hint", "Hint as read", "Take a hint on it as read, or fix it first."},
	} {
		r := s.unsureReply(s.askers[c.cmd], newPictureRead(g, res), res, nil, nil)
		if b := r.Components[0].Buttons[0]; b.Label != c.label || !strings.Contains(allText(r), c.says) {
			t.Errorf("/%s unsure: button %q, text %q; want %q and %q", c.cmd, b.Label, allText(r), c.label, c.says)
		}
	}
}
