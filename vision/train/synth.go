package main

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

const (
	cell  = 40 // the reader's cell size
	hiRes = 3  // synthetic cells are drawn this many times larger, then shrunk
	hi    = cell * hiRes
)

// synth draws synthetic cells.
type synth struct {
	rng    *rand.Rand
	fonts  []namedFont
	glyphs map[glyphKey]*glyphMask
	// hand holds real handwritten digits by value (MNIST's train split;
	// empty without -mnist), drawn instead of a font's in handShare of
	// the cells of a digit.
	hand      [10][]*glyphMask
	handShare float64
	// photoShare is the share of cells drawn as a blurred, dim phone
	// photo of newspaper print leaves them (see photoDefects); 0 draws
	// none and leaves the random stream as it was without it.
	photoShare float64
	// handFontShare is the share of the digit cells (and pencil marks)
	// drawn in a handwriting-style font, when there are some (with
	// -mnist); 0 picks them as often as any other font.
	handFontShare float64
}

type glyphKey struct {
	font int
	r    rune
}

// glyphMask is a glyph's coverage drawn once at a reference size, cropped
// to its ink.
type glyphMask struct {
	w, h int
	a    []float32
}

const refSize = 128

func (s *synth) glyph(fi int, r rune) *glyphMask {
	k := glyphKey{fi, r}
	if g, ok := s.glyphs[k]; ok {
		return g
	}
	var g *glyphMask
	f, err := opentype.NewFace(s.fonts[fi].font, &opentype.FaceOptions{Size: refSize, DPI: 72, Hinting: font.HintingNone})
	if err == nil {
		dr, m, mp, _, ok := f.Glyph(fixed.P(refSize, 2*refSize), r)
		if ok && !dr.Empty() {
			g = &glyphMask{w: dr.Dx(), h: dr.Dy(), a: make([]float32, dr.Dx()*dr.Dy())}
			for y := 0; y < g.h; y++ {
				for x := 0; x < g.w; x++ {
					_, _, _, a := m.At(mp.X+x, mp.Y+y).RGBA()
					g.a[y*g.w+x] = float32(a) / 0xffff
				}
			}
			g = g.crop()
		}
	}
	s.glyphs[k] = g
	return g
}

// crop trims rows and columns with no ink.
func (g *glyphMask) crop() *glyphMask {
	x0, y0, x1, y1 := g.w, g.h, -1, -1
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			if g.a[y*g.w+x] > 0.05 {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return nil
	}
	out := &glyphMask{w: x1 - x0 + 1, h: y1 - y0 + 1}
	out.a = make([]float32, out.w*out.h)
	for y := 0; y < out.h; y++ {
		copy(out.a[y*out.w:(y+1)*out.w], g.a[(y0+y)*g.w+x0:])
	}
	return out
}

// drawGlyph adds the glyph r, scaled so its ink is h pixels high, centred
// on (cx, cy), into mask (hi×hi coverage, 0-1).
func (s *synth) drawGlyph(mask []float32, fi int, r rune, h, cx, cy float64) bool {
	return drawMask(mask, s.glyph(fi, r), h, cx, cy)
}

// drawMask adds g, scaled so its ink is h pixels high, centred on (cx,
// cy), into mask.
func drawMask(mask []float32, g *glyphMask, h, cx, cy float64) bool {
	if g == nil || g.h < 4 {
		return false
	}
	sc := h / float64(g.h)
	w := float64(g.w) * sc
	x0, y0 := cx-w/2, cy-h/2
	for y := max(0, int(y0)); y < min(hi, int(y0+h)+1); y++ {
		for x := max(0, int(x0)); x < min(hi, int(x0+w)+1); x++ {
			u := (float64(x)+0.5-x0)/sc - 0.5
			v := (float64(y)+0.5-y0)/sc - 0.5
			if u < -0.5 || v < -0.5 || u > float64(g.w)-0.5 || v > float64(g.h)-0.5 {
				continue
			}
			a := sampleMask(g.a, g.w, g.h, u, v)
			if a > mask[y*hi+x] {
				mask[y*hi+x] = a
			}
		}
	}
	return true
}

func sampleMask(m []float32, w, h int, x, y float64) float32 {
	x = min(max(x, 0), float64(w-1))
	y = min(max(y, 0), float64(h-1))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	return (m[y0*w+x0]*(1-fx)+m[y0*w+x1]*fx)*(1-fy) + (m[y1*w+x0]*(1-fx)+m[y1*w+x1]*fx)*fy
}

// morph thickens (k > 0) or thins (k < 0) the strokes of mask by |k|
// pixels: a square max (or min) filter, done one axis at a time.
func morph(mask []float32, k int) []float32 {
	r := k
	if r < 0 {
		r = -r
	}
	pass := func(src []float32, dx, dy int) []float32 {
		out := make([]float32, len(src))
		for y := 0; y < hi; y++ {
			for x := 0; x < hi; x++ {
				v := src[y*hi+x]
				for d := -r; d <= r; d++ {
					xx, yy := x+d*dx, y+d*dy
					if xx < 0 || yy < 0 || xx >= hi || yy >= hi {
						continue
					}
					if k > 0 {
						v = max(v, src[yy*hi+xx])
					} else {
						v = min(v, src[yy*hi+xx])
					}
				}
				out[y*hi+x] = v
			}
		}
		return out
	}
	return pass(pass(mask, 1, 0), 0, 1)
}

// symbol is the character of class label: 1-9, then A-Y for 10-34, and
// 0 for 35.
func symbol(label int) rune {
	if label == 35 {
		return '0'
	}
	if label <= 9 {
		return rune('0' + label)
	}
	return rune('A' + label - 10)
}

// handValue is the digit a class is written with by hand: 1-9 for 1-9,
// 0 for the figure 0 (35), and 10 (none) for a letter or not a symbol.
func handValue(label int) int {
	switch {
	case label >= 1 && label <= 9:
		return label
	case label == 35:
		return 0
	}
	return 10
}

// pickFont picks the font of a cell of class label: any font for a digit
// or pencil marks, a font that is no handwriting for a letter (apps that
// draw in a handwritten face are 9x9 apps; a script capital is no model
// for a 16x16's letters).
func (s *synth) pickFont(label int) int {
	if s.handFontShare > 0 && (handValue(label) < 10 || label == 0) && s.rng.Float64() < s.handFontShare {
		var hand []int
		for fi, f := range s.fonts {
			if f.hand {
				hand = append(hand, fi)
			}
		}
		if len(hand) > 0 {
			return hand[s.rng.IntN(len(hand))]
		}
	}
	for {
		fi := s.rng.IntN(len(s.fonts))
		if !s.fonts[fi].hand || handValue(label) < 10 || label == 0 {
			return fi
		}
	}
}

// sample makes one cell: label 1-9 for a digit, 10-34 for A-Y, 35 for
// the figure 0, 0 for something that is
// not one (pencil marks, stray strokes, a letter). It returns the 40×40
// picture and the contrast the reader would estimate.
func (s *synth) sample(label int) (*image.Gray, float64) {
	rng := s.rng
	mask := make([]float32, hi*hi)
	fi := s.pickFont(label)
	c := float64(hi) / 2
	var hand []*glyphMask
	if v := handValue(label); v < 10 {
		hand = s.hand[v]
	}
	switch {
	case label > 0 && len(hand) > 0 && rng.Float64() < s.handShare:
		// A digit written by hand: sizes and places vary more, and no
		// two hands write it alike (warpHand).
		h := float64(hi) * (0.30 + 0.50*rng.Float64())
		dx := (rng.Float64()*2 - 1) * 0.10 * hi
		dy := (rng.Float64()*2 - 1) * 0.10 * hi
		drawMask(mask, hand[rng.IntN(len(hand))], h, c+dx, c+dy)
		if s.handFontShare > 0 {
			mask = warpHand(rng, mask)
		}
	case label > 0:
		h := float64(hi) * (0.32 + 0.46*rng.Float64())
		dx := (rng.Float64()*2 - 1) * 0.07 * hi
		dy := (rng.Float64()*2 - 1) * 0.07 * hi
		if !s.drawGlyph(mask, fi, symbol(label), h, c+dx, c+dy) {
			s.drawGlyph(mask, 0, symbol(label), h, c+dx, c+dy)
		}
		if s.fonts[fi].hand && s.handFontShare > 0 {
			mask = warpHand(rng, mask)
		}
	default:
		kinds := 3
		if s.handFontShare > 0 {
			kinds = 4 // and faint smudges (the handwriting model reads faint cells)
		}
		switch rng.IntN(kinds) {
		case 3: // a faint smudge or a shadow's corner, as photos of paper show
			cx, cy := (0.3+0.4*rng.Float64())*hi, (0.3+0.4*rng.Float64())*hi
			rx, ry := (0.1+0.25*rng.Float64())*hi, (0.1+0.25*rng.Float64())*hi
			a := float32(0.2 + 0.4*rng.Float64())
			nx, ny := rng.NormFloat64(), rng.NormFloat64()
			cut := rng.IntN(2) == 0
			for y := 0; y < hi; y++ {
				for x := 0; x < hi; x++ {
					u, v := (float64(x)-cx)/rx, (float64(y)-cy)/ry
					d := u*u + v*v
					if d >= 1 || cut && u*nx+v*ny < 0 {
						continue
					}
					mask[y*hi+x] = a * float32(1-d*d)
				}
			}
		case 0, 1: // pencil marks
			n := 1 + rng.IntN(6)
			h := float64(hi) * (0.16 + 0.12*rng.Float64())
			for k := 0; k < n; k++ {
				p := rng.IntN(9)
				px := (0.2 + 0.3*float64(p%3)) * hi
				py := (0.2 + 0.3*float64(p/3)) * hi
				s.drawGlyph(mask, fi, rune('1'+p), h, px, py)
			}
		case 2: // a blob, or a piece of a grid line that strayed inside
			// (never a lone stroke through the middle: that is a 1)
			if rng.IntN(2) == 0 {
				cx, cy := (0.3+0.4*rng.Float64())*hi, (0.3+0.4*rng.Float64())*hi
				r := (0.08 + 0.15*rng.Float64()) * hi
				for y := 0; y < hi; y++ {
					for x := 0; x < hi; x++ {
						if math.Hypot(float64(x)-cx, float64(y)-cy) < r {
							mask[y*hi+x] = 1
						}
					}
				}
			} else {
				at := (0.1 + 0.12*rng.Float64()) * hi
				if rng.IntN(2) == 0 {
					at = hi - at
				}
				t := 2 + rng.Float64()*6
				horizontal := rng.IntN(2) == 0
				for y := 0; y < hi; y++ {
					for x := 0; x < hi; x++ {
						d := math.Abs(float64(y) - at)
						if !horizontal {
							d = math.Abs(float64(x) - at)
						}
						if d < t/2 {
							mask[y*hi+x] = 1
						}
					}
				}
			}
		}
	}
	if k := rng.IntN(7) - 2; k != 0 && label > 0 {
		mask = morph(mask, k)
	}
	// Print defects: a few small gaps in the strokes.
	if label > 0 && rng.IntN(5) == 0 {
		for k := 1 + rng.IntN(2); k > 0; k-- {
			cx, cy, r := rng.Float64()*hi, rng.Float64()*hi, 2+rng.Float64()*3
			for y := max(0, int(cy-r)); y < min(hi, int(cy+r)+1); y++ {
				for x := max(0, int(cx-r)); x < min(hi, int(cx+r)+1); x++ {
					if math.Hypot(float64(x)-cx, float64(y)-cy) < r {
						mask[y*hi+x] = 0
					}
				}
			}
		}
	}
	// Grid lines at the cell's edges, a little off where the reader expects.
	lines := make([]float32, hi*hi)
	offX := (rng.Float64()*2 - 1) * 0.06 * hi
	offY := (rng.Float64()*2 - 1) * 0.06 * hi
	for side := 0; side < 4; side++ {
		t := rng.Float64() * 12
		if rng.IntN(5) == 0 {
			continue
		}
		lv := float32(0.4 + 0.6*rng.Float64())
		for y := 0; y < hi; y++ {
			for x := 0; x < hi; x++ {
				var d float64
				switch side {
				case 0:
					d = math.Abs(float64(x) - offX)
				case 1:
					d = math.Abs(float64(x) - hi - offX)
				case 2:
					d = math.Abs(float64(y) - offY)
				case 3:
					d = math.Abs(float64(y) - hi - offY)
				}
				if d < t/2 {
					lines[y*hi+x] = max(lines[y*hi+x], lv)
				}
			}
		}
	}
	// Colours: paper, digit ink and line ink (luminance).
	paper := 150 + rng.Float64()*105
	ink := rng.Float64() * (paper - 70)
	lineInk := rng.Float64() * (paper - 40)
	photo := s.photoShare > 0 && rng.Float64() < s.photoShare
	if photo {
		// Print in a dim photo: the digit's ink only a little darker
		// than the paper, the lines often darker than the digits.
		ink = paper * (0.2 + 0.45*rng.Float64())
	}
	// Shrink with a small rotation, shear and scale, as a warped photo leaves.
	ang := (rng.Float64()*2 - 1) * 6 * math.Pi / 180
	shear := (rng.Float64()*2 - 1) * 0.08
	scale := 1 + (rng.Float64()*2-1)*0.06
	ca, sa := math.Cos(ang)*scale, math.Sin(ang)*scale
	img := image.NewGray(image.Rect(0, 0, cell, cell))
	vals := make([]float64, cell*cell)
	for j := 0; j < cell; j++ {
		for i := 0; i < cell; i++ {
			acc := 0.0
			for sj := 0; sj < hiRes; sj++ {
				for si := 0; si < hiRes; si++ {
					u := float64(i*hiRes+si) + 0.5 - c
					v := float64(j*hiRes+sj) + 0.5 - c
					u += shear * v
					x := ca*u - sa*v + c
					y := sa*u + ca*v + c
					a := float64(bilinear(mask, x, y))
					l := float64(bilinear(lines, x, y))
					p := paper*(1-l) + lineInk*l
					acc += p*(1-a) + ink*a
				}
			}
			vals[j*cell+i] = acc / (hiRes * hiRes)
		}
	}
	// Blur: mostly a little; sometimes as much as a small, out-of-focus
	// newspaper photo leaves, where a bold digit's holes close up.
	if photo {
		vals = photoBlur(rng, vals)
	} else {
		sigma := rng.Float64() * 1.2
		if rng.IntN(4) == 0 {
			sigma = 1.2 + rng.Float64()*1.4
		}
		if sigma > 0.3 {
			vals = blur(vals, sigma)
		}
	}
	// Uneven light across the cell.
	gx, gy := (rng.Float64()*2-1)*0.6, (rng.Float64()*2-1)*0.6
	// Sometimes the edge of a shadow crosses the cell: the light on one
	// side of a line is dimmed, over a soft ramp.
	shadowDim, shadowSoft, shadowOff := 1.0, 1.0, 0.0
	shadowX, shadowY := 0.0, 0.0
	if rng.IntN(4) == 0 {
		a := rng.Float64() * 2 * math.Pi
		shadowX, shadowY = math.Cos(a), math.Sin(a)
		shadowOff = (rng.Float64()*2 - 1) * 0.45 * cell
		shadowDim = 0.5 + 0.4*rng.Float64()
		shadowSoft = 0.3 + 2.5*rng.Float64()
	}
	noise := rng.Float64() * 14
	if photo {
		noise = rng.Float64() * 16
	}
	for j := 0; j < cell; j++ {
		for i := 0; i < cell; i++ {
			v := vals[j*cell+i]
			if shadowDim < 1 {
				d := (float64(i-cell/2)*shadowX + float64(j-cell/2)*shadowY - shadowOff) / shadowSoft
				t := min(max(d+0.5, 0), 1) // 0 in the shadow, 1 in the light
				v *= shadowDim + (1-shadowDim)*t
			}
			v += gx*float64(i-cell/2) + gy*float64(j-cell/2) + rng.NormFloat64()*noise
			img.Pix[j*cell+i] = uint8(min(max(v, 0), 255))
		}
	}
	q := 0 // JPEG quality, 0 for none
	if photo {
		if rng.IntN(2) == 0 {
			q = 15 + rng.IntN(55)
		}
	} else if rng.IntN(3) == 0 {
		q = 30 + rng.IntN(60)
	}
	if q > 0 {
		var buf bytes.Buffer
		_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: q})
		if d, err := jpeg.Decode(&buf); err == nil {
			if g, ok := d.(*image.Gray); ok {
				img = g
			}
		}
	}
	// The reader estimates contrast over the whole grid; jitter it.
	contrast := (paper - min(ink, lineInk)) * (0.8 + 0.4*rng.Float64())
	return img, contrast
}

// photoBlur blurs a cell (cell×cell luminance) as a phone photo of a
// newspaper puzzle does, more than most pictures: out of focus (a
// Gaussian, or a defocused lens's disc), or moved (a short streak at any
// angle, softened a little), so that strokes pale and a bold digit's
// holes close up (a 4's triangle, an 8's loops).
func photoBlur(rng *rand.Rand, v []float64) []float64 {
	switch rng.IntN(3) {
	case 0:
		return blur(v, 1.4+rng.Float64()*1.8)
	case 1:
		return convolve(v, disc(1.5+rng.Float64()*2))
	default:
		return blur(convolve(v, streak(3+rng.Float64()*4, rng.Float64()*math.Pi)), 0.4+rng.Float64()*0.6)
	}
}

// kernel is a square convolution kernel of side 2r+1, summing to 1.
type kernel struct {
	r int
	w []float64
}

// disc is a defocused lens's kernel: a disc of radius rad, its edge
// pixels weighed by how much of them it covers (sampled 4x4).
func disc(rad float64) kernel {
	r := int(math.Ceil(rad))
	k := kernel{r: r, w: make([]float64, (2*r+1)*(2*r+1))}
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			in := 0
			for sy := 0; sy < 4; sy++ {
				for sx := 0; sx < 4; sx++ {
					dx, dy := float64(x)-0.375+0.25*float64(sx), float64(y)-0.375+0.25*float64(sy)
					if dx*dx+dy*dy <= rad*rad {
						in++
					}
				}
			}
			k.w[(y+r)*(2*r+1)+x+r] = float64(in)
		}
	}
	return k.norm()
}

// streak is a moving camera's kernel: a line of length l at angle a.
func streak(l, a float64) kernel {
	r := int(math.Ceil(l / 2))
	k := kernel{r: r, w: make([]float64, (2*r+1)*(2*r+1))}
	steps := int(l * 4)
	for i := 0; i <= steps; i++ {
		t := (float64(i)/float64(steps) - 0.5) * l
		x, y := t*math.Cos(a)+float64(r), t*math.Sin(a)+float64(r)
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		fx, fy := x-float64(x0), y-float64(y0)
		for _, p := range [4]struct {
			x, y int
			w    float64
		}{{x0, y0, (1 - fx) * (1 - fy)}, {x0 + 1, y0, fx * (1 - fy)}, {x0, y0 + 1, (1 - fx) * fy}, {x0 + 1, y0 + 1, fx * fy}} {
			if p.x >= 0 && p.y >= 0 && p.x <= 2*r && p.y <= 2*r {
				k.w[p.y*(2*r+1)+p.x] += p.w
			}
		}
	}
	return k.norm()
}

func (k kernel) norm() kernel {
	sum := 0.0
	for _, w := range k.w {
		sum += w
	}
	for i := range k.w {
		k.w[i] /= sum
	}
	return k
}

// convolve convolves a cell (cell×cell) with k, the edges repeated.
func convolve(v []float64, k kernel) []float64 {
	out := make([]float64, len(v))
	side := 2*k.r + 1
	for y := 0; y < cell; y++ {
		for x := 0; x < cell; x++ {
			s := 0.0
			for j := 0; j < side; j++ {
				yy := min(max(y+j-k.r, 0), cell-1)
				for i := 0; i < side; i++ {
					if w := k.w[j*side+i]; w != 0 {
						s += w * v[yy*cell+min(max(x+i-k.r, 0), cell-1)]
					}
				}
			}
			out[y*cell+x] = s
		}
	}
	return out
}

func bilinear(m []float32, x, y float64) float32 {
	if x < 0 || y < 0 || x > hi-1 || y > hi-1 {
		return 0
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, hi-1), min(y0+1, hi-1)
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	return (m[y0*hi+x0]*(1-fx)+m[y0*hi+x1]*fx)*(1-fy) + (m[y1*hi+x0]*(1-fx)+m[y1*hi+x1]*fx)*fy
}

func blur(v []float64, sigma float64) []float64 {
	r := int(math.Ceil(2 * sigma))
	k := make([]float64, 2*r+1)
	sum := 0.0
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	tmp := make([]float64, len(v))
	out := make([]float64, len(v))
	for y := 0; y < cell; y++ {
		for x := 0; x < cell; x++ {
			s := 0.0
			for i, kv := range k {
				xx := min(max(x+i-r, 0), cell-1)
				s += kv * v[y*cell+xx]
			}
			tmp[y*cell+x] = s
		}
	}
	for y := 0; y < cell; y++ {
		for x := 0; x < cell; x++ {
			s := 0.0
			for i, kv := range k {
				yy := min(max(y+i-r, 0), cell-1)
				s += kv * tmp[yy*cell+x]
			}
			out[y*cell+x] = s
		}
	}
	return out
}

// warpHand distorts a handwritten digit as another hand would write it: a
// slant, a squeeze or stretch, a turn, and a smooth elastic bend of the
// strokes (a random displacement on a coarse grid, interpolated).
func warpHand(rng *rand.Rand, mask []float32) []float32 {
	const g = 4 // the displacement grid's cells per side
	var ddx, ddy [(g + 1) * (g + 1)]float64
	bend := (0.02 + 0.05*rng.Float64()) * hi
	for k := range ddx {
		ddx[k] = (rng.Float64()*2 - 1) * bend
		ddy[k] = (rng.Float64()*2 - 1) * bend
	}
	ang := (rng.Float64()*2 - 1) * 12 * math.Pi / 180
	shear := (rng.Float64()*2 - 1) * 0.3
	sx := 0.8 + 0.4*rng.Float64()
	ca, sa := math.Cos(ang), math.Sin(ang)
	c := float64(hi) / 2
	out := make([]float32, hi*hi)
	for y := 0; y < hi; y++ {
		for x := 0; x < hi; x++ {
			// The displacement at (x, y), bilinear over the coarse grid.
			gx, gy := float64(x)/hi*g, float64(y)/hi*g
			i0, j0 := min(int(gx), g-1), min(int(gy), g-1)
			fx, fy := gx-float64(i0), gy-float64(j0)
			at := func(d *[(g + 1) * (g + 1)]float64) float64 {
				k := j0*(g+1) + i0
				return (d[k]*(1-fx)+d[k+1]*fx)*(1-fy) + (d[k+g+1]*(1-fx)+d[k+g+2]*fx)*fy
			}
			u, v := float64(x)+0.5-c, float64(y)+0.5-c
			u, v = ca*u+sa*v, -sa*u+ca*v
			u = u/sx + shear*v
			out[y*hi+x] = bilinear(mask, u+c-0.5+at(&ddx), v+c-0.5+at(&ddy))
		}
	}
	return out
}
