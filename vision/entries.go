package vision

import (
	"math"
	"slices"
)

// glyphShape is how a filled cell's ink is laid out: its box in the cell
// (cellPx²) and the width of its strokes.
type glyphShape struct {
	x0, y0, x1, y1 uint8
	// stroke is the mean width of the ink's strokes, in pixels: twice its
	// area over its outline.
	stroke float32
}

// shapeOf measures the ink set in b inside the box (x0, y0)-(x1, y1).
func shapeOf(b *bitmap, x0, y0, x1, y1 int) glyphShape {
	s := glyphShape{x0: uint8(x0), y0: uint8(y0), x1: uint8(x1), y1: uint8(y1)}
	area, edge := 0, 0
	at := func(x, y int) bool { return x >= 0 && y >= 0 && x < b.w && y < b.h && b.pix[y*b.w+x] != 0 }
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if !at(x, y) {
				continue
			}
			area++
			if !at(x-1, y) || !at(x+1, y) || !at(x, y-1) || !at(x, y+1) {
				edge++
			}
		}
	}
	if edge > 0 {
		s.stroke = 2 * float32(area) / float32(edge)
	}
	return s
}

// cellStyle is what the entry decision knows of one filled cell that is
// not in fainter ink.
type cellStyle struct {
	i int
	// print and hand are the two classifiers' readings of the cell.
	print, hand [NumClasses]float32
	// twin is how far the cell's glyph is from the nearest glyph of the
	// same digit (as print reads it) among those it is compared with (see
	// glyphDistance); 1 when there is none.
	twin float32
	// score is how much more the cell looks written by hand than printed
	// (see writtenScore): over writtenAt, an entry.
	score float32
}

// styleHook, when set (by tests), is given the styles of every grid's
// cells that writtenEntries looked at.
var styleHook func(views []cellView, styles []cellStyle)

// Entries as dark as the print (a newspaper puzzle filled in with a black
// pen, an app that writes the player's digits in a handwritten face in the
// givens' colour) are told from the givens by their shape. Print is one
// font at one size, set in the middle of its cells: its glyphs of a digit
// are alike, the print classifier is sure of them, their heights and
// places agree. A hand's digits differ from each other and from the
// print: they are of uneven height, off centre, and the classifier that
// learnt handwriting is surer of them than the print one. writtenScore
// weighs these (a logistic regression fitted on vision/gen -darkpen and
// -handwriting pictures drawn with another seed than the committed ones,
// and on the Wicht train split, all print); a cell whose score is over
// writtenAt is the player's. A second look seeks each cell's nearest glyph
// of its digit among the cells beyond doubt printed (printLike, and scored
// as print on the first look), so entries in one handwriting font do not
// pass for print by their likeness to each other; a glyph unlike every
// print glyph of its digit (unlikeGlyph) is taken on a lower score.
const (
	writtenAt = 1.0
	// givensUnsure is the most of the cells left as givens the print
	// classifier may be unsure of: more, and the grid is written in a
	// handwritten face, givens too (handFace), not print and pen.
	givensUnsure = 0.15
	// sameGlyph is the distance (glyphDistance) under which two glyphs
	// are the same font's: a cell with such a twin among the givens is a
	// given.
	sameGlyph = 0.05
	// minWritten is the fewest clear written entries (a score over
	// writtenAt) a grid of print must show for its written entries to be
	// taken: a few odd glyphs among print are more often print blurred or
	// cut oddly (up to 3 in a Wicht train photo) than pen entries. Under
	// fewWritten of them, at most fewUnsure of the givens may be unsure in
	// print. Beside entries in fainter ink it takes minWrittenBeside: a
	// grid in a handwritten face whose entries are lighter shows a few
	// givens that look written among the others.
	minWritten       = 3
	fewWritten       = 5
	fewUnsure        = 0.05
	minWrittenBeside = 5
	// A glyph unlike every print glyph of its digit (unlikeGlyph apart)
	// needs less of the rest to be taken for written: a score over
	// unlikeAt.
	unlikeGlyph = 0.1
	unlikeAt    = -3
	// printHeight and printPlace are how far from the print's height (a
	// fraction of it) and place (pixels of a cellPx cell) a glyph beyond
	// doubt printed may be.
	printHeight = 0.06
	printPlace  = 2.5
)

// writtenEntries lists the cells of views, filled and not in faint (the
// entries told by their ink), whose glyph looks written by hand in a grid
// whose other digits are print. It reads them with both classifiers and
// keeps their readings in probs (the print one's for the givens, the
// other's for the entries), and marks in read which it read.
func writtenEntries(views []cellView, faint map[int]bool, m, hand *MLP, probs [][NumClasses]float32, read map[int]bool) []int {
	var st []cellStyle
	hidden := make([]float32, max(m.Hidden, hand.Hidden))
	for i := range views {
		v := &views[i]
		// A digit found only at the lower threshold (v.faint) stays
		// print: blur paled and spread its glyph, which would look odd.
		if v.kind != cellFilled || v.pair || faint[i] || v.faint {
			continue
		}
		s := cellStyle{i: i, twin: 1}
		m.Predict(v.feat[:], hidden[:m.Hidden], &s.print)
		hand.Predict(v.feat[:], hidden[:hand.Hidden], &s.hand)
		st = append(st, s)
	}
	defer func() {
		if styleHook != nil {
			styleHook(views, st)
		}
	}()
	for k := range st {
		probs[st[k].i] = st[k].print
		read[st[k].i] = true
	}
	if len(st) < minGivens+1 {
		return nil
	}
	// The print's height, stroke and place: the middle of the cells the
	// print classifier is sure of.
	var hs, xs, ys []float32
	for k := range st {
		if slices.Max(st[k].print[:]) >= SureAt {
			v := &views[st[k].i]
			hs = append(hs, v.height())
			xs = append(xs, float32(int(v.shape.x0)+int(v.shape.x1))/2)
			ys = append(ys, float32(int(v.shape.y0)+int(v.shape.y1))/2)
		}
	}
	if len(hs) < minGivens {
		return nil
	}
	ref := [3]float32{median(hs), median(xs), median(ys)}
	all := make([]int, len(st))
	for k := range st {
		all[k] = k
	}
	for k := range st {
		st[k].twin = nearestTwin(views, st, k, all)
		st[k].score = writtenScore(&views[st[k].i], &st[k], ref)
	}
	// Second look: the twins are sought among the cells beyond doubt
	// printed alone.
	var givens []int
	for k := range st {
		if st[k].score <= 0 && printLike(&views[st[k].i], &st[k], ref) {
			givens = append(givens, k)
		}
	}
	var out []int
	unsure, left, clear := 0, 0, 0
	for k := range st {
		st[k].twin = nearestTwin(views, st, k, givens)
		st[k].score = writtenScore(&views[st[k].i], &st[k], ref)
		unlike := st[k].twin >= unlikeGlyph && st[k].twin < 1 && st[k].score > unlikeAt
		if st[k].score > writtenAt && st[k].twin >= sameGlyph {
			clear++
		}
		if st[k].score > writtenAt && st[k].twin >= sameGlyph || unlike {
			out = append(out, k)
			continue
		}
		left++
		if slices.Max(st[k].print[:]) < SureAt {
			unsure++
		}
	}
	// Beside entries in fainter ink, those in the print's own are a few:
	// when most of the darker cells look written, the grid is in a
	// handwritten face, its givens too.
	mostly := len(faint) > 0 && 2*len(out) > len(st)
	need, most := minWritten, givensUnsure
	if len(faint) > 0 {
		need = minWrittenBeside
	} else if clear < fewWritten {
		// Few, in a photo blurred enough for the print classifier to
		// doubt some givens: print blurred into odd shapes, more likely.
		most = fewUnsure
	}
	if clear < need || left < minGivens || float64(unsure) > most*float64(left) || mostly {
		debug("written entries: %d of %d (%d clear), %d of the %d others unsure in print: none taken", len(out), len(st), clear, unsure, left)
		return nil
	}
	idx := make([]int, len(out))
	for n, k := range out {
		idx[n] = st[k].i
		probs[st[k].i] = st[k].hand
		if slices.Max(st[k].hand[:]) < SureAt {
			for c := range probs[st[k].i] {
				probs[st[k].i][c] = (st[k].hand[c] + st[k].print[c]) / 2
			}
		}
	}
	debug("written entries: %v (%d of the %d others unsure in print, %d faint)", idx, unsure, left, len(faint))
	return idx
}

// writtenScore is the logistic regression's log-odds that a cell is
// written by hand (see writtenAt); ref is the print's height, and the
// middle of its glyphs' boxes (x, y).
func writtenScore(v *cellView, s *cellStyle, ref [3]float32) float32 {
	pP := slices.Max(s.print[:])
	dH := argmax(&s.hand)
	sure := min(-math.Log10(max(1-float64(pP), 1e-4)), 4)
	twin := min(float64(s.twin), 0.3) * 10
	height := min(math.Abs(float64(v.height()/max(ref[0], 0.05))-1), 0.4) * 10
	cx := float64(int(v.shape.x0)+int(v.shape.x1)) / 2
	cy := float64(int(v.shape.y0)+int(v.shape.y1)) / 2
	off := min(math.Abs(cx-float64(ref[1]))+math.Abs(cy-float64(ref[2])), 6) / 2
	handier := min(max(math.Log(float64(s.hand[dH]))-math.Log(max(float64(s.print[dH]), 1e-6)), 0), 8)
	return float32(-1.828 - 0.989*sure + 0.56*twin + 1.539*height + 1.501*off + 0.617*handier)
}

// printLike reports whether a cell looks printed beyond doubt: the print
// classifier sure of it, as high as the print and where it sits.
func printLike(v *cellView, s *cellStyle, ref [3]float32) bool {
	cx := float32(int(v.shape.x0)+int(v.shape.x1)) / 2
	cy := float32(int(v.shape.y0)+int(v.shape.y1)) / 2
	off := math.Abs(float64(cx-ref[1])) + math.Abs(float64(cy-ref[2]))
	return slices.Max(s.print[:]) >= SureAt && math.Abs(float64(v.height()/max(ref[0], 0.05))-1) <= printHeight && off <= printPlace
}

// nearestTwin is the distance from cell st[k]'s glyph to the nearest of
// the cells st[among] the print classifier reads as the same digit.
func nearestTwin(views []cellView, st []cellStyle, k int, among []int) float32 {
	d := argmax(&st[k].print)
	best := float32(1)
	for _, j := range among {
		if j == k || argmax(&st[j].print) != d {
			continue
		}
		best = min(best, glyphDistance(&views[st[k].i], &views[st[j].i]))
	}
	return best
}

// glyphDistance is the mean absolute difference of two cells' glyphs as
// the classifier sees them (scaled to the same square).
func glyphDistance(a, b *cellView) float32 {
	var d float32
	for k := 0; k < inputSide*inputSide; k++ {
		d += float32(math.Abs(float64(a.feat[k] - b.feat[k])))
	}
	return d / (inputSide * inputSide)
}

func median(v []float32) float32 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
