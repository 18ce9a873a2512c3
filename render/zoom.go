package render

import "math"

// Zoom narrows the image to a close-up of the board's highlights: at most
// side rows and side columns, holding every highlighted cell (any mark but
// Tint, any candidate on a disc) and, as room allows, the rest of their
// boxes and their neighbours. Discord previews a picture about 400 px wide,
// where a whole 25x25 board leaves 15 px a cell, too little to read the
// pencil marks a step is about; nine columns leave about 40 px, as a 9x9
// board has.
//
// Zoom reports false, and leaves the board whole, when the highlights span
// more than side rows or columns, when there are none, or when side covers
// the board anyway.
func (b *Board) Zoom(side int) bool {
	n := b.Puzzle.N()
	if side <= 0 || side >= n || b.Check() != nil {
		return false
	}
	keyRows, keyCols := make([]bool, n), make([]bool, n)
	causeRows, causeCols := make([]bool, n), make([]bool, n)
	found := false
	for i := 0; i < n*n; i++ {
		if b.highlighted(i) {
			keyRows[i/n], keyCols[i%n] = true, true
			found = true
		}
		if b.Marks != nil && b.Marks[i]&(Cause|Target) != 0 {
			causeRows[i/n], causeCols[i%n] = true, true
		}
	}
	if !found {
		return false
	}
	rows, ok := widen(keyRows, causeRows, b.Puzzle.Shape.BoxRows, side)
	if !ok {
		return false
	}
	cols, ok := widen(keyCols, causeCols, b.Puzzle.Shape.BoxCols, side)
	if !ok {
		return false
	}
	b.Rows, b.Cols = rows, cols
	return true
}

// highlighted reports whether cell i carries a highlight a close-up must
// show.
func (b *Board) highlighted(i int) bool {
	switch {
	case b.Marks != nil && b.Marks[i]&^Tint != 0:
		return true
	case b.Green != nil && b.Green[i] != 0:
		return true
	case b.Red != nil && b.Red[i] != 0:
		return true
	}
	return false
}

// widen picks side rows (or columns) of the n that key marks, keeping the
// keys: it reports false when they are more than side. It adds one
// neighbour of a picked index at a time, first one that closes a gap of
// one, then one in the same box (box indexes long) as a cause (the cells
// that justify a step: their box is what a player checks), then one in the
// same box as another key, then the one nearest the keys' middle, so the
// close-up grows around the step and shows whole boxes where it can.
func widen(key, cause []bool, box, side int) ([]int, bool) {
	n := len(key)
	picked := append([]bool(nil), key...)
	count, sum := 0, 0
	for i, k := range key {
		if k {
			count++
			sum += i
		}
	}
	if count > side {
		return nil, false
	}
	mid := float64(sum) / float64(count)
	boxScore := make([]int, (n+box-1)/box)
	for i, k := range key {
		switch {
		case cause[i]:
			boxScore[i/box] = 3
		case k:
			boxScore[i/box] = max(boxScore[i/box], 2)
		}
	}
	for ; count < side; count++ {
		best, bestScore, bestDist := -1, 0, 0.0
		for i := range n {
			left := i > 0 && picked[i-1]
			right := i+1 < n && picked[i+1]
			if picked[i] || !left && !right {
				continue
			}
			score := max(1, boxScore[i/box])
			if left && right {
				score = 4
			}
			dist := math.Abs(float64(i) - mid)
			if best < 0 || score > bestScore || score == bestScore && dist < bestDist {
				best, bestScore, bestDist = i, score, dist
			}
		}
		if best < 0 {
			break
		}
		picked[best] = true
	}
	var out []int
	for i, p := range picked {
		if p {
			out = append(out, i)
		}
	}
	return out, true
}
