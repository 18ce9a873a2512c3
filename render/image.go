package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/bits"
	"sync"
)

// ImageOptions tune an image.
type ImageOptions struct {
	// Theme is the colour scheme.
	Theme Theme
	// CellSize is the side of one cell in pixels, between 16 and 200; 0
	// picks a size that makes a board of that shape read well in Discord's
	// preview (72 px for 9x9, about 700 px wide in all).
	CellSize int
}

// MinCellSize and MaxCellSize bound ImageOptions.CellSize.
const (
	MinCellSize = 16
	MaxCellSize = 200
)

// DefaultCellSize returns the cell size used for a board of n symbols when
// ImageOptions.CellSize is 0: smaller boards get bigger cells, and 16x16 or
// 25x25 boards grow to about 850 and 1150 px.
func DefaultCellSize(n int) int {
	switch {
	case n <= 4:
		return 100
	case n <= 6:
		return 90
	case n <= 8:
		return 80
	case n <= 9:
		return 72
	case n <= 12:
		return 62
	case n <= 16:
		return 52
	}
	return 46
}

// layout is where everything goes in one image.
type layout struct {
	n, br, bc     int
	cell          int
	thin, thick   int
	left, top     int // top-left corner of the grid (on the outer border's centre line)
	labelW        int // width of the row-letter column and height of the column-number row
	captionH      int
	labelPx       int // font sizes of the coordinates and the caption
	captionPx     int
	width, height int
	// rows and cols are the rows and columns drawn, in order (all of them
	// unless the board is zoomed); rowY and colX are the top and left edge
	// of each, indexed by row and column, -1 for one not drawn. A skipped
	// run of rows or columns leaves a gap of gap pixels.
	rows, cols []int
	rowY, colX []int
	gap        int
	gridW      int // width and height of the drawn grid, gaps included
	gridH      int
}

func newLayout(b *Board, opts ImageOptions) (layout, error) {
	s := b.Puzzle.Shape
	l := layout{n: s.N(), br: s.BoxRows, bc: s.BoxCols, cell: opts.CellSize}
	if l.cell == 0 {
		l.cell = DefaultCellSize(l.n)
	}
	if l.cell < MinCellSize || l.cell > MaxCellSize {
		return l, fmt.Errorf("render: cell size %d px is outside %d..%d", l.cell, MinCellSize, MaxCellSize)
	}
	if opts.Theme != Light && opts.Theme != Dark {
		return l, fmt.Errorf("render: unknown theme %v", opts.Theme)
	}
	l.thin = 1 + l.cell/100
	l.thick = 2 + l.cell/36
	l.gap = l.cell / 3
	l.rows, l.cols = b.Rows, b.Cols
	if len(l.rows) == 0 {
		l.rows = allIndexes(l.n)
	}
	if len(l.cols) == 0 {
		l.cols = allIndexes(l.n)
	}
	l.labelPx, l.captionPx = textSizes(max(len(l.rows), len(l.cols)), l.cell)
	l.labelW = max(l.cell*45/100, l.labelPx*14/10)
	if b.Caption != "" {
		l.captionH = max(l.cell*70/100, l.captionPx*3/2)
	}
	pad := l.cell / 4
	l.left = l.labelW + l.thick
	l.top = l.captionH + l.labelW + l.thick
	l.rowY, l.gridH = l.place(l.rows, l.top)
	l.colX, l.gridW = l.place(l.cols, l.left)
	l.width = l.left + l.gridW + l.thick + pad
	l.height = l.top + l.gridH + l.thick + pad
	return l, nil
}

// place lays out the rows (or columns) idx from pixel from on, a gap
// before each one that does not follow the one before it, and returns
// where each starts (-1 for one not drawn) and the length of it all.
func (l *layout) place(idx []int, from int) (at []int, length int) {
	at = make([]int, l.n)
	for i := range at {
		at[i] = -1
	}
	p := from
	for k, i := range idx {
		if k > 0 && i != idx[k-1]+1 {
			p += l.gap
		}
		at[i] = p
		p += l.cell
	}
	return at, p - from
}

// runs splits idx into runs of consecutive indexes, as [first, last] pairs.
func runs(idx []int) [][2]int {
	var out [][2]int
	for k, i := range idx {
		if k > 0 && i == idx[k-1]+1 {
			out[len(out)-1][1] = i
			continue
		}
		out = append(out, [2]int{i, i})
	}
	return out
}

func allIndexes(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// pencilGrid is how a cell's pencil marks are laid out, in rows and
// columns. Up to 9x9 each symbol keeps its own place (1 top left, in a grid
// shaped like a box), which players scan by position. On bigger boards
// that grid is 4x4 or 5x5 and too fine to read in Discord's preview, so the
// cell's marks are packed in reading order into the smallest near-square
// grid that holds them: the few marks a player writes come out big.
func pencilGrid(l *layout, cands uint32) (rows, cols int) {
	if l.n <= 9 {
		return l.br, l.bc
	}
	k := bits.OnesCount32(cands)
	cols = 1
	for cols*cols < k {
		cols++
	}
	rows = (k + cols - 1) / cols
	return max(rows, 1), cols
}

// textSizes are the font sizes of the coordinates and the caption. Discord
// previews a picture about 400 px wide, which shrinks a 16x16 or 25x25
// board two or three times: their labels grow with the whole board, not
// with its cells, so they still read about 8 px high in the preview.
func textSizes(n, cell int) (label, caption int) {
	board := n * cell
	label = max(10, cell*28/100, board*22/1000)
	caption = max(12, cell*34/100, board*30/1000)
	return label, caption
}

// cellRect is the area of cell (r, c), lines included; it is empty when
// the cell's row or column is not drawn.
func (l *layout) cellRect(r, c int) image.Rectangle {
	x, y := l.colX[c], l.rowY[r]
	if x < 0 || y < 0 {
		return image.Rectangle{}
	}
	return image.Rect(x, y, x+l.cell, y+l.cell)
}

// shown reports whether cell i is drawn.
func (l *layout) shown(i int) bool { return l.rowY[i/l.n] >= 0 && l.colX[i%l.n] >= 0 }

// Image draws the board.
func (b *Board) Image(opts ImageOptions) (*image.Paletted, error) {
	return b.draw(opts, nil)
}

// draw draws the board into pix when it is big enough (its contents are
// overwritten), else into a new buffer.
func (b *Board) draw(opts ImageOptions, pix []uint8) (*image.Paletted, error) {
	if err := b.Check(); err != nil {
		return nil, err
	}
	l, err := newLayout(b, opts)
	if err != nil {
		return nil, err
	}
	pal := palettes[opts.Theme]
	rect := image.Rect(0, 0, l.width, l.height)
	var img *image.Paletted
	if size := l.width * l.height; cap(pix) >= size {
		img = &image.Paletted{Pix: pix[:size], Stride: l.width, Rect: rect, Palette: pal.colors}
	} else {
		img = image.NewPaletted(rect, pal.colors)
	}
	d := drawer{img: img, pal: pal}
	if err := d.board(b, &l); err != nil {
		return nil, err
	}
	return img, nil
}

// pixPool holds pixel buffers for images that are encoded and dropped, so
// a busy bot does not allocate half a megabyte per picture. The board is
// painted whole (background first), so a reused buffer needs no clearing.
var pixPool sync.Pool // *[]uint8

// pngEncoder compresses fast: a board is mostly long runs of one colour,
// which BestSpeed already packs well, and its buffers are reused.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}

type encoderPool struct{ p sync.Pool }

// Get returns a pooled buffer, or nil for the encoder to make one.
func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

// Put returns a buffer to the pool.
func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// WritePNG draws the board and writes it to w as a PNG.
func (b *Board) WritePNG(w io.Writer, opts ImageOptions) error {
	var pix []uint8
	if p, ok := pixPool.Get().(*[]uint8); ok {
		pix = *p
	}
	img, err := b.draw(opts, pix)
	if err != nil {
		return err
	}
	err = pngEncoder.Encode(w, img)
	pix = img.Pix[:cap(img.Pix)]
	pixPool.Put(&pix)
	if err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// PNG draws the board and returns it as PNG bytes, ready to attach.
func (b *Board) PNG(opts ImageOptions) ([]byte, error) {
	var buf bytes.Buffer
	// A 9x9 is about 30 KB; growing from nothing would copy it several
	// times.
	buf.Grow(32 << 10)
	if err := b.WritePNG(&buf, opts); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// drawer paints on one paletted image.
type drawer struct {
	img *image.Paletted
	pal *palette
}

// fill paints rectangle r (clipped to the image) with palette index idx.
func (d *drawer) fill(r image.Rectangle, idx uint8) {
	r = r.Intersect(d.img.Rect)
	if r.Empty() {
		return
	}
	w := r.Dx()
	first := d.img.PixOffset(r.Min.X, r.Min.Y)
	row := d.img.Pix[first : first+w]
	for i := range row {
		row[i] = idx
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		o := d.img.PixOffset(r.Min.X, y)
		copy(d.img.Pix[o:o+w], row)
	}
}

// blit draws a w-wide coverage mask with its top-left corner at (x, y) in
// ink, blending with what is already there.
func (d *drawer) blit(mask []uint8, w, h, x, y int, ink int) {
	if w == 0 || h == 0 {
		return
	}
	r := image.Rect(x, y, x+w, y+h).Intersect(d.img.Rect)
	if r.Empty() {
		return
	}
	blend := &d.pal.blend
	for py := r.Min.Y; py < r.Max.Y; py++ {
		m := mask[(py-y)*w+(r.Min.X-x):]
		o := d.img.PixOffset(r.Min.X, py)
		row := d.img.Pix[o : o+r.Dx()]
		for i := range row {
			if lv := m[i]; lv != 0 {
				row[i] = blend[row[i]][ink][lv]
			}
		}
	}
}

// symbol draws rune r centred in the box around (cx, cy): across by its ink,
// up and down by the face's digit height so symbols share a baseline.
func (d *drawer) symbol(f *face, r rune, cx, cy, ink int) {
	g := f.glyph(r)
	x := cx - (2*g.minX+g.w)/2
	base := cy + f.capTop/2
	d.blit(g.mask, g.w, g.h, x+g.minX, base+g.minY, ink)
}

// text draws s centred on (cx, cy).
func (d *drawer) text(f *face, s string, cx, cy, ink int) {
	x := cx - f.width(s)/2
	base := cy + f.capTop/2
	for _, r := range s {
		g := f.glyph(r)
		y := base + g.minY
		if r == '·' {
			// The font sets its middle dot halfway up the capitals, which
			// looks raised between lowercase words ("9x9 · easy"): centre
			// it on the x-height instead.
			y = base - f.xHeight/2 - g.h/2
		}
		d.blit(g.mask, g.w, g.h, x+g.minX, y, ink)
		x += g.advance
	}
}

// paperOf is the fill of a cell with marks m: the strongest mark wins.
func paperOf(m Mark) int {
	switch {
	case m&(Clash|Wrong) != 0:
		return pClash
	case m&Differ != 0:
		return pDiffer
	case m&Target != 0:
		return pTarget
	case m&Cause != 0:
		return pCause
	case m&Tint != 0:
		return pTint
	}
	return pBG
}

func (d *drawer) board(b *Board, l *layout) error {
	pal := d.pal
	d.fill(d.img.Rect, pal.paper[pBG])
	n := l.n

	// Cell fills.
	for i, m := range b.Marks {
		if p := paperOf(m); p != pBG {
			d.fill(l.cellRect(i/n, i%n), pal.paper[p])
		}
	}

	// Lines, block by block (a zoomed board is cut into blocks of
	// consecutive rows and columns): thin ones first so the thick box
	// borders cover their ends. A block's edge that cuts through a box is
	// thin.
	rowRuns, colRuns := runs(l.rows), runs(l.cols)
	for _, thick := range []bool{false, true} {
		for _, rr := range rowRuns {
			for _, cr := range colRuns {
				d.lines(l, rr, cr, thick)
			}
		}
	}

	// Values and pencil marks.
	valuePx := l.cell * 62 / 100
	bold, err := getFace(fontBold, valuePx)
	if err != nil {
		return err
	}
	regular, err := getFace(fontMedium, valuePx)
	if err != nil {
		return err
	}
	inset := l.thick/2 + 1
	alpha := b.Puzzle.Alphabet
	for i := 0; i < n*n; i++ {
		if !l.shown(i) {
			continue
		}
		rect := l.cellRect(i/n, i%n)
		v, given := b.value(i)
		if v != 0 {
			cx, cy := (rect.Min.X+rect.Max.X)/2, (rect.Min.Y+rect.Max.Y)/2
			switch {
			case given:
				d.symbol(bold, alpha.Symbol(v), cx, cy, iGiven)
			case b.Marks != nil && b.Marks[i]&Wrong != 0:
				d.symbol(regular, alpha.Symbol(v), cx, cy, iWrong)
			default:
				d.symbol(regular, alpha.Symbol(v), cx, cy, iEntry)
			}
			continue
		}
		var cands, green, red uint32
		if b.Pencil != nil {
			cands = b.Pencil[i]
		}
		if b.Green != nil {
			green = b.Green[i]
		}
		if b.Red != nil {
			red = b.Red[i]
		}
		cands |= green | red
		if cands == 0 {
			continue
		}
		pr, pc := pencilGrid(l, cands)
		subW, subH := (l.cell-2*inset)/pc, (l.cell-2*inset)/pr
		sub := min(subW, subH)
		// Marks stay well below a value's size even when few share a cell.
		pencil, err := getFace(fontRegular, max(6, min(sub*78/100, l.cell*40/100)))
		if err != nil {
			return err
		}
		dot := getDisc(max(4, min(sub*94/100, l.cell*48/100)))
		slot := 0
		for v := 1; v <= n; v++ {
			bit := uint32(1) << (v - 1)
			if cands&bit == 0 {
				continue
			}
			at := v - 1 // up to 9x9 each symbol has its own place
			if n > 9 {
				at = slot
			}
			slot++
			sr, sc := at/pc, at%pc
			cx := rect.Min.X + inset + sc*subW + subW/2
			cy := rect.Min.Y + inset + sr*subH + subH/2
			ink := iPencil
			switch {
			case red&bit != 0:
				d.blit(dot.mask, dot.d, dot.d, cx-dot.d/2, cy-dot.d/2, iDiscRed)
				ink = iGiven
			case green&bit != 0:
				d.blit(dot.mask, dot.d, dot.d, cx-dot.d/2, cy-dot.d/2, iDiscGreen)
				ink = iGiven
			}
			d.symbol(pencil, alpha.Symbol(v), cx, cy, ink)
		}
	}

	// Coordinates: row letters on the left, column numbers on top.
	label, err := getFace(fontMedium, l.labelPx)
	if err != nil {
		return err
	}
	for _, r := range l.rows {
		y := l.rowY[r] + l.cell/2
		d.text(label, RowName(r), (l.left-l.thick/2)/2, y, iPencil)
	}
	for _, c := range l.cols {
		x := l.colX[c] + l.cell/2
		d.text(label, ColName(c), x, l.captionH+(l.top-l.thick/2-l.captionH)/2, iPencil)
	}

	if b.Caption != "" {
		capFace, err := getFace(fontBold, l.captionPx)
		if err != nil {
			return err
		}
		d.text(capFace, b.Caption, l.left+l.gridW/2, l.captionH*55/100, iGiven)
	}
	return nil
}

// lines draws the thin (or the thick) lines of the block of rows rr[0] to
// rr[1] and columns cr[0] to cr[1]: a line between two rows or columns is
// thick where it is a box border.
func (d *drawer) lines(l *layout, rr, cr [2]int, thick bool) {
	x0, y0 := l.colX[cr[0]], l.rowY[rr[0]]
	w, h := (cr[1]-cr[0]+1)*l.cell, (rr[1]-rr[0]+1)*l.cell
	idx := d.pal.solid[sThin]
	if thick {
		idx = d.pal.solid[sThick]
	}
	for i := rr[0]; i <= rr[1]+1; i++ {
		if (i%l.br == 0) != thick {
			continue
		}
		lw := l.thin
		if thick {
			lw = l.thick
		}
		y := y0 + (i-rr[0])*l.cell - lw/2
		d.fill(image.Rect(x0-lw/2, y, x0+w-lw/2+lw, y+lw), idx)
	}
	for i := cr[0]; i <= cr[1]+1; i++ {
		if (i%l.bc == 0) != thick {
			continue
		}
		lw := l.thin
		if thick {
			lw = l.thick
		}
		x := x0 + (i-cr[0])*l.cell - lw/2
		d.fill(image.Rect(x, y0-lw/2, x+lw, y0+h-lw/2+lw), idx)
	}
}
