package commands

// cheapCells is the number of cell-like characters from which a text may
// hold a grid bigger than 9x9: a 16x16 has 256 cells.
const cheapCells = 256

// cheapText reports whether the puzzle pasted in text is at most a 9x9,
// whose solve, check or hint takes milliseconds. It counts the characters
// that may be cells (letters, digits and the usual blanks), chatter and
// decoration included, so it errs towards "expensive"; and a wrong
// "cheap" costs little, since the bot moves work that overruns the fast
// lane's budget to the slow one.
func cheapText(text string) bool {
	n := 0
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z',
			r == '.', r == '_', r == '*', r == '-', r > 127:
			n++
			if n >= cheapCells {
				return false
			}
		}
	}
	return true
}

// cheapState reports whether a button's state (the custom id's last field)
// holds a grid of at most 9x9. Bigger grids' states live in the cache
// ("~key"), and the state text starts with the box shape.
func cheapState(enc string) bool {
	if len(enc) < 2 || enc[0] == '~' {
		return false
	}
	rows, cols := digit36(enc[0]), digit36(enc[1])
	return rows > 0 && cols > 0 && rows*cols <= 9
}

func digit36(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	}
	return -1
}
