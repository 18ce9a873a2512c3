package commands

import (
	"errors"
	"strings"
	"unicode/utf8"

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

// mark is a highlight on one cell.
type mark uint8

const (
	markNone  mark = iota
	markClash      // breaks a rule (red)
	markDiff       // differs between two solutions
	markFocus      // the cell a hint is about
	markCause      // a cell that justifies a hint's step
)

// boardView is a board to show: the values, which of them are givens, and
// the marked cells.
type boardView struct {
	Grid *sudoku.Grid
	// Givens is the puzzle; cells filled in it are givens, the other filled
	// cells of Grid are solved or placed. Nil means every filled cell of Grid
	// is a given.
	Givens  *sudoku.Grid
	Marks   map[int]mark
	Caption string
}

func marksFor(cells map[int]bool, m mark) map[int]mark {
	out := make(map[int]mark, len(cells))
	for c := range cells {
		out[c] = m
	}
	return out
}

// errNoImage means boards can't be drawn as pictures in this build.
var errNoImage = errors.New("images are not available")

// png draws the view. Until package render lands every board is text.
func (v boardView) png() ([]byte, error) { return nil, errNoImage }

// text draws the view in monospace: cells separated by spaces, '|' and '-'
// between boxes; a marked cell's symbol is followed by its marker instead of
// a space. When givens are told apart from solved cells, the puzzle and the
// filled grid are shown side by side.
func (v boardView) text() string {
	main := textGrid(v.Grid, v.Marks)
	if v.Givens == nil || v.Grid.N() > 9 {
		return main
	}
	left := strings.Split(strings.TrimRight(textGrid(v.Givens, nil), "\n"), "\n")
	right := strings.Split(strings.TrimRight(main, "\n"), "\n")
	width := utf8.RuneCountInString(left[0])
	var b strings.Builder
	b.WriteString(pad("puzzle", width) + "   " + "solution\n")
	for i := range left {
		b.WriteString(pad(left[i], width) + "   " + strings.TrimRight(right[i], " ") + "\n")
	}
	return b.String()
}

func pad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

var markerRune = map[mark]rune{markClash: '!', markDiff: '*', markFocus: '?', markCause: '+'}

func textGrid(g *sudoku.Grid, marks map[int]mark) string {
	n := g.N()
	var b strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 && r%g.Shape.BoxRows == 0 {
			for c := 0; c < n; c++ {
				if c > 0 && c%g.Shape.BoxCols == 0 {
					b.WriteString("+-")
				}
				b.WriteString("--")
			}
			b.WriteString("\n")
		}
		for c := 0; c < n; c++ {
			if c > 0 && c%g.Shape.BoxCols == 0 {
				b.WriteString("| ")
			}
			b.WriteRune(g.Alphabet.Symbol(g.Get(r, c)))
			if m, ok := markerRune[marks[r*n+c]]; ok {
				b.WriteRune(m)
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// markLegend explains the markers used in a text board.
func markLegend(marks map[int]mark) string {
	seen := map[mark]bool{}
	for _, m := range marks {
		seen[m] = true
	}
	var parts []string
	for _, m := range []mark{markClash, markDiff, markFocus, markCause} {
		if seen[m] {
			parts = append(parts, "`"+string(markerRune[m])+"` "+markNames[m])
		}
	}
	return strings.Join(parts, ", ")
}

var markNames = map[mark]string{markClash: "clash", markDiff: "differs in another solution", markFocus: "the hint's cell", markCause: "why"}

// boardEmbed puts view into e: as an attached image named file, or (for
// output "text", or when no image can be drawn) as a code block at the end
// of the description. It returns the files to attach.
func boardEmbed(e *Embed, view boardView, output, file string) []File {
	if output != outputText {
		if data, err := view.png(); err == nil {
			e.Image = "attachment://" + file
			return []File{{Name: file, ContentType: "image/png", Data: data}}
		}
	}
	block := "```\n" + view.text() + "```"
	if legend := markLegend(view.Marks); legend != "" {
		block += "\n" + legend
	}
	if e.Description != "" {
		block = "\n" + block
	}
	if len(e.Description)+len(block) <= maxEmbedDescription {
		e.Description += block
	}
	return nil
}

// boardReply is a reply made of content text and an embed holding the board.
func (s *Service) boardReply(content string, view boardView, output, file string) Response {
	var e Embed
	if view.Caption != "" {
		e.Footer = view.Caption
	}
	files := boardEmbed(&e, view, output, file)
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
