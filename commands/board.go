package commands

import (
	"unicode/utf8"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// Short names for the Discord limits (limits.go) used throughout.
const (
	maxContent          = MaxContent
	maxEmbedDescription = MaxEmbedDescription
	maxEmbedFields      = MaxEmbedFields
	maxEmbedFieldValue  = MaxEmbedFieldValue
	maxEmbedTotal       = MaxEmbedTotal
)

// Output choices of /solve and /generate.
const (
	outputImage = "image"
	outputText  = "text"
)

// imageOptions are the options every picture is drawn with: the dark
// theme sits well on Discord's default background.
func (s *Service) imageOptions() render.ImageOptions {
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

// clip is Clip: at most max characters, as Discord counts them.
func clip(s string, max int) string { return Clip(s, max) }

// oneLine is g's one-line form in a code span, ready to copy.
func oneLine(g *sudoku.Grid) string {
	return "`" + g.String() + "`"
}
