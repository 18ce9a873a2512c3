package commands

import (
	"fmt"
	"unicode/utf8"
)

// requestChars is the number of characters the user sent in req, as
// Discord counts them (code points): text, options, modal fields and
// select values together.
func requestChars(req Request) int {
	n := utf8.RuneCountInString(req.Text)
	for _, v := range req.Options {
		n += utf8.RuneCountInString(v)
	}
	for _, v := range req.Fields {
		n += utf8.RuneCountInString(v)
	}
	for _, v := range req.Values {
		n += utf8.RuneCountInString(v)
	}
	return n
}

// tooLong is the one bound on what a request may carry (Config.MaxInput):
// Plan and Handle apply it before anything reads the text, so no command
// checks it again. It returns the refusal when req is over it.
func (s *Service) tooLong(req Request) (Response, bool) {
	n := requestChars(req)
	if n <= s.cfg.MaxInput {
		return Response{}, false
	}
	tip := "Send just the grid."
	if req.Fields[movesField] != "" {
		tip = "Send the moves in smaller batches."
	}
	r := Response{Content: fmt.Sprintf("That's %d characters; I read at most %d at once. %s", n, s.cfg.MaxInput, tip)}
	if req.Kind != Mention {
		r.Ephemeral = true
	}
	return r, true
}
