package vision

import (
	"image"
	"image/color"
)

// gray is an 8-bit luminance image, row-major, w*h bytes.
type gray struct {
	w, h int
	pix  []uint8
}

func newGray(w, h int) *gray { return &gray{w: w, h: h, pix: make([]uint8, w*h)} }

// toGray converts any image to luminance, with fast paths for the types the
// standard decoders return.
func toGray(img image.Image) *gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	g := newGray(w, h)
	switch m := img.(type) {
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			copy(g.pix[y*w:(y+1)*w], m.Y[m.YOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(g.pix[y*w:(y+1)*w], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[4*x : 4*x+3 : 4*x+3]
				out[x] = lum(uint32(p[0]), uint32(p[1]), uint32(p[2]))
			}
		}
	case *image.NRGBA:
		// Transparent pixels are shown on whatever is behind them; take them
		// as white, as on a light page, blending by alpha.
		for y := 0; y < h; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				p := row[4*x : 4*x+4 : 4*x+4]
				l := uint32(lum(uint32(p[0]), uint32(p[1]), uint32(p[2])))
				a := uint32(p[3])
				out[x] = uint8((l*a + 255*(255-a)) / 255)
			}
		}
	case *image.Paletted:
		var lut [256]uint8
		for i, c := range m.Palette {
			lut[i] = colorLum(c)
		}
		for y := 0; y < h; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			out := g.pix[y*w : (y+1)*w]
			for x := range out {
				out[x] = lut[row[x]]
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				g.pix[y*w+x] = colorLum(img.At(b.Min.X+x, b.Min.Y+y))
			}
		}
	}
	return g
}

func lum(r, g, b uint32) uint8 { return uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16) }

func colorLum(c color.Color) uint8 {
	r, g, b, a := c.RGBA()
	// Blend on white, as for NRGBA.
	r += 0xffff - a
	g += 0xffff - a
	b += 0xffff - a
	return lum(r>>8, g>>8, b>>8)
}

// shrink returns g scaled down by an integer factor f (box average).
func (g *gray) shrink(f int) *gray {
	if f <= 1 {
		return g
	}
	w, h := g.w/f, g.h/f
	out := newGray(w, h)
	sum := make([]uint32, w)
	area := uint32(f * f)
	for y := 0; y < h; y++ {
		clear(sum)
		for yy := y * f; yy < y*f+f; yy++ {
			row := g.pix[yy*g.w:]
			for x := 0; x < w; x++ {
				s := uint32(0)
				for _, v := range row[x*f : x*f+f] {
					s += uint32(v)
				}
				sum[x] += s
			}
		}
		for x := 0; x < w; x++ {
			out.pix[y*w+x] = uint8(sum[x] / area)
		}
	}
	return out
}

// shrinkInk is shrink keeping each block's darkest pixel (its lightest
// when light is set) rather than its mean, so a line one pixel wide and
// faint stays as dark in the shrunk picture as in the picture.
func (g *gray) shrinkInk(f int, light bool) *gray {
	w, h := g.w/f, g.h/f
	out := newGray(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := g.pix[y*f*g.w+x*f]
			for yy := y * f; yy < y*f+f; yy++ {
				for _, p := range g.pix[yy*g.w+x*f : yy*g.w+x*f+f] {
					if light {
						v = max(v, p)
					} else {
						v = min(v, p)
					}
				}
			}
			out.pix[y*w+x] = v
		}
	}
	return out
}

// invert flips luminance in place (dark themes: light ink on dark paper).
func (g *gray) invert() {
	for i, v := range g.pix {
		g.pix[i] = 255 - v
	}
}

// sample reads g at a real position with bilinear interpolation; outside
// the image it reads white.
func (g *gray) sample(x, y float64) float64 {
	if x < 0 || y < 0 || x > float64(g.w-1) || y > float64(g.h-1) {
		return 255
	}
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	x1, y1 := x0+1, y0+1
	if x1 >= g.w {
		x1 = x0
	}
	if y1 >= g.h {
		y1 = y0
	}
	a := float64(g.pix[y0*g.w+x0])
	b := float64(g.pix[y0*g.w+x1])
	c := float64(g.pix[y1*g.w+x0])
	d := float64(g.pix[y1*g.w+x1])
	return (a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy
}
