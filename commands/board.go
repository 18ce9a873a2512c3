package commands

import (
	"unicode/utf8"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// Discord's limits on what a message may hold.
const (
	maxContent          = 2000
	maxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxEmbedFieldValue  = 1024
	maxEmbedTotal       = 6000
)

// Output choices of /solve and /generate.
const (
	outputImage = "image"
	outputText  = "text"
)

// imageOptions are the options every picture is drawn with: the dark
// theme sits well on Discord's default background; light when configured.
func (s *Service) imageOptions() render.ImageOptions {
	if s.cfg.LightImages {
		return render.ImageOptions{Theme: render.Light}
	}
	return render.ImageOptions{Theme: render.Dark}
}

// textOptions are the options of board's text form: markers after marked
// cells (the only way to highlight in a code block), one grid above the
// other so that a phone does not wrap the lines. Above 9x9 the roomy layout
// is 61 characters wide, more than a phone shows, so those boards come
// compact (23 wide, without coordinates) unless they have cells to mark.
func textOptions(board *render.Board) render.TextOptions {
	opts := render.TextOptions{Markers: true}
	if board.Puzzle.N() > 9 && board.Legend() == "" {
		opts.Compact = true
	}
	return opts
}

// boardEmbed puts board into e: as an attached PNG named file, or, for
// output "text", as a code block at the end of the description with a
// legend of the markers. A text board too big for what is left of the
// description is sent as an image instead, and an image that can't be
// drawn falls back to text, so the board is always shown when it can be.
// It returns the files to attach.
func (s *Service) boardEmbed(e *Embed, board *render.Board, output, file string) []File {
	if output == outputText {
		if s.textBoard(e, board) {
			return nil
		}
	}
	if data, err := board.PNG(s.imageOptions()); err == nil {
		e.Image = "attachment://" + file
		return []File{{Name: file, ContentType: "image/png", Data: data}}
	}
	s.textBoard(e, board)
	return nil
}

// textBoard appends board as a code block to e's description, reporting
// false when it does not fit.
func (s *Service) textBoard(e *Embed, board *render.Board) bool {
	sep := ""
	if e.Description != "" {
		sep = "\n"
	}
	legend := board.Legend()
	if legend != "" {
		legend = "\n" + legend
	}
	room := maxEmbedDescription - utf8.RuneCountInString(e.Description+sep+legend)
	block, ok := board.CodeBlock(textOptions(board), room)
	if !ok {
		return false
	}
	e.Description += sep + block + legend
	return true
}

// boardReply is a reply made of content text and an embed holding the board.
func (s *Service) boardReply(content string, board *render.Board, output, file string) Response {
	var e Embed
	files := s.boardEmbed(&e, board, output, file)
	return Response{Content: clip(content, maxContent), Embeds: []Embed{e}, Files: files}
}

// clip shortens s to at most max bytes, on a rune boundary, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// oneLine is g's one-line form in a code span, ready to copy.
func oneLine(g *sudoku.Grid) string {
	return "`" + g.String() + "`"
}
