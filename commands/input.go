package commands

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// pasteHelp is the short guide to pasting a grid, shown with every error
// about unreadable input and in /help.
const pasteHelp = "Paste the grid as one line of 81 characters (`.` or `0` for blanks), " +
	"or as 9 lines of 9 — spaces, `|`, `-` and `+` between boxes are fine, and so is a code block. " +
	"16x16 and 25x25 work too."

// readPuzzle parses text into a grid. On failure it returns the ephemeral
// reply that says what was wrong and how to fix it.
func (s *Service) readPuzzle(text string) (*sudoku.Grid, *Response) {
	if strings.TrimSpace(text) == "" {
		r := ephemeral("I found no puzzle there. " + pasteHelp)
		return nil, &r
	}
	if n := utf8.RuneCountInString(text); n > s.cfg.MaxInput {
		r := ephemeral(fmt.Sprintf("That text is %d characters long; I read at most %d. Paste just the grid. %s",
			n, s.cfg.MaxInput, pasteHelp))
		return nil, &r
	}
	g, err := parseGrid(text)
	if err != nil {
		var pe *sudoku.ParseError
		msg := err.Error()
		if errors.As(err, &pe) {
			msg = pe.Error()
		}
		r := ephemeral(fmt.Sprintf("I couldn't read that grid: %s.\n%s", strings.TrimSuffix(msg, "."), pasteHelp))
		return nil, &r
	}
	return g, nil
}

// parseGrid calls the engine's parser, turning a panic in it into an error:
// a parser bug must not take a reply down with it.
func parseGrid(text string) (g *sudoku.Grid, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, fmt.Errorf("the parser failed on this text (%v); please report it", p)
		}
	}()
	return sudoku.Parse(text)
}

// looksLikeGrid reports whether text holds a readable grid, for deciding
// whether a message in a watched channel deserves an answer.
func (s *Service) looksLikeGrid(text string) bool {
	if strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > s.cfg.MaxInput {
		return false
	}
	g, err := parseGrid(text)
	// A "grid" with almost no clues is more likely chatter that happened
	// to parse than a puzzle someone wants solved.
	return err == nil && g.Clues() >= g.N()
}

// clashReply is the ephemeral answer for givens that break a rule: each
// clash in words and the board with the clashing cells marked.
func (s *Service) clashReply(g *sudoku.Grid, clashes []sudoku.Clash, output string) Response {
	var b strings.Builder
	fmt.Fprintf(&b, "This puzzle breaks the rules, so it has no solution:\n")
	const maxListed = 10
	for i, c := range clashes {
		if i == maxListed {
			fmt.Fprintf(&b, "- … and %d more\n", len(clashes)-maxListed)
			break
		}
		fmt.Fprintf(&b, "- %s\n", c.Describe(g.Shape, g.Alphabet))
	}
	b.WriteString("Check those cells against the original — one of them is probably mistyped.")
	r := s.boardReply(b.String(), render.New(g).WithClashes(clashes), output, "clashes.png")
	r.Ephemeral = true
	return r
}
