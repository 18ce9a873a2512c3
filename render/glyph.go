package render

import (
	"fmt"
	"image"
	"image/draw"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// A font face is not safe for concurrent use and rasterising a glyph costs
// far more than copying one, so each (font, pixel size) gets one face behind
// a lock, and every glyph it draws is kept as a coverage mask already cut
// down to the palette's anti-aliasing levels. Masks never change once made,
// so renders share them freely.

// fontID names one of the embedded Go fonts.
type fontID uint8

const (
	fontRegular fontID = iota
	fontMedium
	fontBold
	numFonts
)

var (
	fontsOnce sync.Once
	fonts     [numFonts]*sfnt.Font
	fontsErr  error
)

func parsedFont(id fontID) (*sfnt.Font, error) {
	fontsOnce.Do(func() {
		for i, ttf := range [numFonts][]byte{goregular.TTF, gomedium.TTF, gobold.TTF} {
			f, err := opentype.Parse(ttf)
			if err != nil {
				fontsErr = fmt.Errorf("render: parse embedded font %d: %w", i, err)
				return
			}
			fonts[i] = f
		}
	})
	return fonts[id], fontsErr
}

// glyph is one rasterised rune: a w×h mask of coverage levels
// (0..aaLevels) whose top-left corner sits at (minX, minY) from the pen
// position on the baseline, and the pen's advance.
type glyph struct {
	mask       []uint8
	w, h       int
	minX, minY int
	advance    int
}

// face is one font at one pixel size, with its glyph masks.
type face struct {
	mu     sync.RWMutex
	face   font.Face // guarded by mu (write lock)
	glyphs map[rune]*glyph
	// capTop is how far above the baseline the top of a digit is; symbols
	// are centred on it so every digit and capital sits on one baseline.
	capTop int
	// xHeight is how far above the baseline the top of an "x" is.
	xHeight int
}

type faceKey struct {
	font fontID
	px   int
}

var faces sync.Map // faceKey -> *face

// getFace returns the shared face of font id at px pixels.
func getFace(id fontID, px int) (*face, error) {
	key := faceKey{id, px}
	if f, ok := faces.Load(key); ok {
		return f.(*face), nil
	}
	sf, err := parsedFont(id)
	if err != nil {
		return nil, err
	}
	ff, err := opentype.NewFace(sf, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: font face at %d px: %w", px, err)
	}
	f := &face{face: ff, glyphs: make(map[rune]*glyph)}
	f.capTop = -f.glyph('0').minY
	f.xHeight = -f.glyph('x').minY
	actual, _ := faces.LoadOrStore(key, f)
	return actual.(*face), nil
}

// glyph returns r's glyph, rasterising it on first use.
func (f *face) glyph(r rune) *glyph {
	f.mu.RLock()
	g, ok := f.glyphs[r]
	f.mu.RUnlock()
	if ok {
		return g
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	g = &glyph{}
	dr, mask, maskp, adv, ok := f.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		// The font has no such rune: draw its missing-glyph box instead.
		dr, mask, maskp, adv, _ = f.face.Glyph(fixed.Point26_6{}, 0xfffd)
	}
	g.advance = adv.Round()
	if mask != nil && !dr.Empty() {
		g.w, g.h = dr.Dx(), dr.Dy()
		g.minX, g.minY = dr.Min.X, dr.Min.Y
		alpha := image.NewAlpha(image.Rect(0, 0, g.w, g.h))
		draw.Draw(alpha, alpha.Bounds(), mask, maskp, draw.Src)
		g.mask = quantize(alpha.Pix)
	}
	if len(f.glyphs) < maxCachedGlyphs {
		f.glyphs[r] = g
	}
	return g
}

// maxCachedGlyphs bounds a face's cache: symbols, digits and caption text
// need a few dozen glyphs, and a caption full of rare runes must not grow
// memory without end.
const maxCachedGlyphs = 512

// quantize turns 8-bit coverage into levels 0..aaLevels in place.
func quantize(pix []uint8) []uint8 {
	for i, a := range pix {
		pix[i] = uint8((int(a)*aaLevels + 127) / 255)
	}
	return pix
}

// width returns the advance width of s in pixels.
func (f *face) width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).advance
	}
	return w
}

// disc is an anti-aliased filled circle of diameter d, as coverage levels.
type disc struct {
	d    int
	mask []uint8
}

var discs sync.Map // diameter -> *disc

func getDisc(d int) *disc {
	if v, ok := discs.Load(d); ok {
		return v.(*disc)
	}
	r := float32(d) / 2
	z := vector.NewRasterizer(d, d)
	// Four cubic Béziers approximate the circle to well under a pixel.
	const k = 0.5523 // control-point distance for a quarter circle, per radius
	z.MoveTo(r, 0)
	z.CubeTo(r+k*r, 0, 2*r, r-k*r, 2*r, r)
	z.CubeTo(2*r, r+k*r, r+k*r, 2*r, r, 2*r)
	z.CubeTo(r-k*r, 2*r, 0, r+k*r, 0, r)
	z.CubeTo(0, r-k*r, r-k*r, 0, r, 0)
	z.ClosePath()
	alpha := image.NewAlpha(image.Rect(0, 0, d, d))
	z.Draw(alpha, alpha.Bounds(), image.Opaque, image.Point{})
	v, _ := discs.LoadOrStore(d, &disc{d: d, mask: quantize(alpha.Pix)})
	return v.(*disc)
}
