package sudoku

import (
	"fmt"
	"strings"
)

// ParseError says why pasted text is not a puzzle, and where. Line and Col
// are 1-based positions in the input (0 when the problem is not at one
// place); Msg is a sentence a person can act on.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// ParseOptions tune Parse.
type ParseOptions struct {
	// Shape, when not zero, is the shape the puzzle must have; otherwise it is
	// inferred from the text.
	Shape Shape
}

// Parse reads a puzzle from pasted text, inferring its shape and alphabet.
//
// This first version reads the one-line form only (blanks '.', '0', '_',
// '-', '*', 'x'); the full reader of pasted grids replaces it.
func Parse(text string) (*Grid, error) {
	return ParseWith(text, ParseOptions{})
}

// ParseWith is Parse with options.
func ParseWith(text string, opts ParseOptions) (*Grid, error) {
	var cells []rune
	for _, r := range strings.TrimSpace(text) {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			continue
		}
		cells = append(cells, r)
	}
	shape := opts.Shape
	if shape == (Shape{}) {
		for n := 4; n <= MaxN; n++ {
			if n*n == len(cells) {
				shape, _ = ShapeFor(n)
			}
		}
	}
	if shape == (Shape{}) || shape.Size() != len(cells) {
		return nil, &ParseError{Msg: fmt.Sprintf("found %d cells; a 9x9 puzzle has 81", len(cells))}
	}
	g := New(shape)
	for i, r := range cells {
		if strings.ContainsRune(".0_-*x", r) {
			continue
		}
		v := g.Alphabet.Value(r)
		if v == 0 {
			return nil, &ParseError{Line: 1, Col: i + 1, Msg: fmt.Sprintf("%q is not a %s symbol", r, shape)}
		}
		g.Cells[i] = uint8(v)
	}
	return g, nil
}
