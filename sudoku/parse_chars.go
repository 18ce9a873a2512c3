package sudoku

// The characters of a paste: which mark cells, blanks and decoration.

import "unicode"

// isBar reports a vertical separator: between boxes, or between cells.
func isBar(r rune) bool {
	switch r {
	case '|', '¦', ':', '│', '┃', '║', '╎', '╏', '┆', '┇', '┊', '┋', '╽', '╿':
		return true
	}
	return false
}

func isBoxDrawing(r rune) bool { return r >= 0x2500 && r <= 0x257F }

// isDashLike reports the characters that draw horizontal lines in ASCII art
// but mark empty cells inside a row.
func isDashLike(r rune) bool {
	switch r {
	case '-', '_', '*', '–', '—', '−', '‐':
		return true
	}
	return false
}

// isDecoration reports characters that are never cells: spaces, separators,
// brackets, quotes, punctuation of code, and invisible marks (Discord keycap
// emoji are a digit followed by such marks).
func isDecoration(r rune) bool {
	if unicode.IsSpace(r) || isBar(r) || isBoxDrawing(r) {
		return true
	}
	switch r {
	case '+', '=', ';', ',', '[', ']', '{', '}', '(', ')', '\'', '"', '<', '>', '/', '\\', '~', '^', '`':
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Cc)
}

// isDefiniteBlank reports characters that always mark an empty cell.
func isDefiniteBlank(r rune) bool {
	if isDashLike(r) {
		return true
	}
	switch r {
	case '.', '?', '·', '•', '□', '◻', '⬜', '▫', '◽', '∙',
		'■', '◼', '⬛', '▪', '◾', '🔲', '🔳':
		return true
	}
	if r >= '🟥' && r <= '🟫' {
		// Coloured squares (Discord's :blue_square: and the rest).
		return true
	}
	return false
}

// isSoftBlank reports characters that mark an empty cell unless the
// puzzle's alphabet uses them ('0' in 0-9A-F, 'X' in A-Y).
func isSoftBlank(r rune) bool { return r == '0' || r == 'x' || r == 'X' }
