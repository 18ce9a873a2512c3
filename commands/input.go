package commands

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

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
	g, err := parseGrid(text)
	if err != nil && linkRE.MatchString(text) {
		// The bot can't follow a link. Without it the text may hold the
		// grid; with no digit left, only words, the link was the puzzle.
		rest := linkRE.ReplaceAllString(text, " ")
		if !strings.ContainsFunc(rest, unicode.IsDigit) {
			r := ephemeral(fmt.Sprintf("I can't open links like %s, and I found no grid beside it. "+
				"Paste the grid itself, or attach a screenshot of it.", shortLink(linkRE.FindString(text))))
			return nil, &r
		}
		g, err = parseGrid(rest)
	}
	if err != nil {
		var pe *sudoku.ParseError
		msg := err.Error()
		if errors.As(err, &pe) {
			msg = pe.Error()
		}
		reply := fmt.Sprintf("I couldn't read that grid: %s.", strings.TrimSuffix(msg, "."))
		// The parser's message often says how to paste already; the
		// general advice comes only when it doesn't.
		if !strings.Contains(strings.ToLower(msg), "paste") {
			reply += "\n" + pasteHelp
		}
		r := ephemeral(reply)
		return nil, &r
	}
	return g, nil
}

// linkRE matches a web link, up to the next space or closing bracket.
var linkRE = regexp.MustCompile(`(?i)\bhttps?://[^\s<>()\[\]]+`)

// shortLink cuts a long link for quoting it back: `sudoku.com/hard/…`.
func shortLink(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if r := []rune(u); len(r) > 40 {
		u = string(r[:40]) + "…"
	}
	return "`" + u + "`"
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
	if strings.TrimSpace(text) == "" {
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
	b.WriteString(clashList(g, clashes, 10))
	b.WriteString("\nCheck those cells against the original: one of them is probably mistyped.")
	r := s.boardReply(b.String(), render.New(g).WithClashes(clashes), output, "clashes.png")
	r.Ephemeral = true
	return r
}

// clashList writes up to max clashes, one a line ("- 5 is twice in row A
// (A1, A2)"), and how many more there are.
func clashList(g *sudoku.Grid, clashes []sudoku.Clash, max int) string {
	var lines []string
	for i, c := range clashes {
		if i == max {
			lines = append(lines, fmt.Sprintf("- … and %d more", len(clashes)-max))
			break
		}
		lines = append(lines, "- "+clashText(c, g))
	}
	return strings.Join(lines, "\n")
}

// clashText says a clash with the board's cell names: "7 is twice in row A
// (A1, A5)".
func clashText(c sudoku.Clash, puzzle *sudoku.Grid) string {
	return c.Describe(puzzle.Shape, puzzle.Alphabet)
}
