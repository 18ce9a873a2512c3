package main

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// mat3 is a 3x3 projective transform, row-major.
type mat3 [9]float64

func (m mat3) apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

func (m mat3) inverse() mat3 {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	return mat3{
		A / det, -(b*i - c*h) / det, (b*f - c*e) / det,
		B / det, (a*i - c*g) / det, -(a*f - c*d) / det,
		C / det, -(a*h - b*g) / det, (a*e - b*d) / det,
	}
}

// photo takes a simulated phone photo of src: the picture on a plane tilted
// up to 25 degrees and turned up to 10, under uneven light, blurred, noisy
// and saved as a low-quality 720x900 JPEG.
func photo(rng *rand.Rand, src source, name, out string, t *truth) error {
	return photoWith(rng, src, name, out, t, photoOptions{W: 720, H: 900})
}

// photoOptions say how a simulated photo differs from photo's.
type photoOptions struct {
	// W and H are the photo's size.
	W, H int
	// screen takes the photo of src shown on a screen, in a dim room at a
	// steep tilt (35-50 degrees): the screen's pixel grid makes moiré,
	// a lamp's glare lies on it, the noise is a dim photo's.
	screen bool
	// kind starts the picture's kind in truth.txt: "photo" when "".
	kind string
}

// photoWith takes a simulated photo of src as photoOptions say.
func photoWith(rng *rand.Rand, src source, name, out string, t *truth, o photoOptions) error {
	sb := src.img.Bounds()
	sw, sh := float64(sb.Dx()), float64(sb.Dy())
	W, H := o.W, o.H
	// Corners of the picture on a plane through the origin, tilted and turned.
	tiltX := (rng.Float64()*2 - 1) * 25 * math.Pi / 180
	tiltY := (rng.Float64()*2 - 1) * 25 * math.Pi / 180 * 0.6
	rot := (rng.Float64()*2 - 1) * 10 * math.Pi / 180
	if o.screen {
		// A steep tilt, 35-50 degrees, about one axis; a little about
		// the other.
		steep := (35 + 15*rng.Float64()) * math.Pi / 180
		if rng.IntN(2) == 0 {
			steep = -steep
		}
		if rng.IntN(3) == 0 {
			tiltX, tiltY = tiltY/3, steep
		} else {
			tiltX, tiltY = steep, tiltY/3
		}
	}
	focal := 1.2 * math.Max(sw, sh)
	var dst [4][2]float64
	for k, c := range [4][2]float64{{0, 0}, {sw, 0}, {sw, sh}, {0, sh}} {
		x, y, z := c[0]-sw/2, c[1]-sh/2, 0.0
		x, y = x*math.Cos(rot)-y*math.Sin(rot), x*math.Sin(rot)+y*math.Cos(rot)
		y, z = y*math.Cos(tiltX), y*math.Sin(tiltX)
		x, z = x*math.Cos(tiltY)+z*math.Sin(tiltY), -x*math.Sin(tiltY)+z*math.Cos(tiltY)
		if o.screen {
			z += 1.3 * focal // nearer: a steep tilt's far side is smaller
		} else {
			z += 2 * focal
		}
		dst[k] = [2]float64{focal * x / z, focal * y / z}
	}
	// Fit the picture into 65-95 % of the frame, somewhere in it.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range dst {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	fill := 0.65 + 0.3*rng.Float64()
	sc := fill * math.Min(float64(W)/(maxX-minX), float64(H)/(maxY-minY))
	ox := (float64(W) - sc*(maxX-minX)) * rng.Float64()
	oy := (float64(H) - sc*(maxY-minY)) * rng.Float64()
	for k := range dst {
		dst[k][0] = (dst[k][0]-minX)*sc + ox
		dst[k][1] = (dst[k][1]-minY)*sc + oy
	}
	inv := quadToRect(dst, sw, sh)
	bg := [3]float64{60 + rng.Float64()*150, 50 + rng.Float64()*140, 40 + rng.Float64()*130}
	// Light: a gradient across the frame, a vignette, sometimes a shadow.
	gx, gy := (rng.Float64()*2-1)*0.35, (rng.Float64()*2-1)*0.35
	base := 0.75 + 0.3*rng.Float64()
	shadow := rng.IntN(3) == 0
	sx0, sslope := rng.Float64()*float64(W), (rng.Float64()*2-1)*1.5
	var sl screenLight
	if o.screen {
		sl = newScreenLight(rng, dst, sw, sh)
		bg = sl.room
		base, gx, gy, shadow = sl.exposure, gx/3, gy/3, false
	}
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	buf := make([]float64, W*H*3)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			var c [3]float64
			if o.screen {
				c = sl.sample(src.img, inv, x, y)
			} else if u, v := inv.apply(float64(x)+0.5, float64(y)+0.5); u >= 0 && v >= 0 && u < sw && v < sh {
				c = sampleRGB(src.img, u+float64(sb.Min.X), v+float64(sb.Min.Y))
			} else {
				c = bg
			}
			fx, fy := float64(x)/float64(W)-0.5, float64(y)/float64(H)-0.5
			l := base + gx*fx + gy*fy - 0.35*(fx*fx+fy*fy)
			if shadow && float64(x) < sx0+sslope*float64(y) {
				l *= 0.7
			}
			for k := 0; k < 3; k++ {
				buf[(y*W+x)*3+k] = c[k]*l + sl.glare(x, y)
			}
		}
	}
	blurRGB(buf, W, H, 0.4+1.1*rng.Float64())
	noise := 2 + 6*rng.Float64()
	if o.screen {
		noise = 5 + 7*rng.Float64() // a dim room: a high ISO
	}
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			n := rng.NormFloat64() * noise
			var px [3]uint8
			for k := 0; k < 3; k++ {
				px[k] = uint8(math.Min(math.Max(buf[(y*W+x)*3+k]+n+rng.NormFloat64()*noise*0.3, 0), 255))
			}
			img.SetRGBA(x, y, color.RGBA{px[0], px[1], px[2], 255})
		}
	}
	q := 40
	if rng.IntN(2) == 0 {
		q = 40 + rng.IntN(40)
	}
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: q}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, name), jb.Bytes(), 0o644); err != nil {
		return err
	}
	t.addEntries(name, src.grid, fmt.Sprintf("%s-of-%s-q%d", cmp.Or(o.kind, "photo"), filepath.Base(src.name), q), src.entries)
	return nil
}

// quadToRect returns the transform from the quad to the sw×sh rectangle.
func quadToRect(q [4][2]float64, sw, sh float64) mat3 {
	// Square-to-quad (Heckbert), then undo the square's scale, then invert.
	x0, y0, x1, y1, x2, y2, x3, y3 := q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1], q[3][0], q[3][1]
	dx1, dx2, dx3 := x1-x2, x3-x2, x0-x1+x2-x3
	dy1, dy2, dy3 := y1-y2, y3-y2, y0-y1+y2-y3
	den := dx1*dy2 - dx2*dy1
	g := (dx3*dy2 - dx2*dy3) / den
	h := (dx1*dy3 - dx3*dy1) / den
	m := mat3{x1 - x0 + g*x1, x3 - x0 + h*x3, x0, y1 - y0 + g*y1, y3 - y0 + h*y3, y0, g, h, 1}
	inv := m.inverse()
	// (u, v) in the unit square → picture pixels.
	return mat3{sw * inv[0], sw * inv[1], sw * inv[2], sh * inv[3], sh * inv[4], sh * inv[5], inv[6], inv[7], inv[8]}
}

func sampleRGB(img image.Image, x, y float64) [3]float64 {
	x0, y0 := int(math.Floor(x-0.5)), int(math.Floor(y-0.5))
	fx, fy := x-0.5-float64(x0), y-0.5-float64(y0)
	b := img.Bounds()
	get := func(x, y int) [3]float64 {
		x = min(max(x, b.Min.X), b.Max.X-1)
		y = min(max(y, b.Min.Y), b.Max.Y-1)
		r, g, bb, _ := img.At(x, y).RGBA()
		return [3]float64{float64(r >> 8), float64(g >> 8), float64(bb >> 8)}
	}
	a, bq, c, d := get(x0, y0), get(x0+1, y0), get(x0, y0+1), get(x0+1, y0+1)
	var out [3]float64
	for k := 0; k < 3; k++ {
		out[k] = (a[k]*(1-fx)+bq[k]*fx)*(1-fy) + (c[k]*(1-fx)+d[k]*fx)*fy
	}
	return out
}

func blurRGB(buf []float64, w, h int, sigma float64) {
	r := int(math.Ceil(2 * sigma))
	k := make([]float64, 2*r+1)
	s := 0.0
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		s += k[i]
	}
	for i := range k {
		k[i] /= s
	}
	tmp := make([]float64, len(buf))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				v := 0.0
				for i, kv := range k {
					xx := min(max(x+i-r, 0), w-1)
					v += kv * buf[(y*w+xx)*3+c]
				}
				tmp[(y*w+x)*3+c] = v
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				v := 0.0
				for i, kv := range k {
					yy := min(max(y+i-r, 0), h-1)
					v += kv * tmp[(yy*w+x)*3+c]
				}
				buf[(y*w+x)*3+c] = v
			}
		}
	}
}

// screenLight is how a screen photographed in a dim room looks: the room
// dark around it, the screen lit from within behind a dark bezel, its
// pixel grid beating with the camera's (moiré), and a lamp's glare on
// its glass.
type screenLight struct {
	room     [3]float64
	exposure float64
	bezel    float64 // the bezel's width, in the source's pixels
	sw, sh   float64
	// The glare: where, how wide across and down, how bright.
	gx, gy, gw, gh, gpeak float64
	// gap is how much darker the lines between a screen's pixels are,
	// and the other colours' stripes of a pixel, as the camera sees them
	// (its pixels, as big, average them mostly away).
	gap float64
}

func newScreenLight(rng *rand.Rand, dst [4][2]float64, sw, sh float64) screenLight {
	l := screenLight{
		room:     [3]float64{8 + 30*rng.Float64(), 8 + 28*rng.Float64(), 8 + 25*rng.Float64()},
		exposure: 0.55 + 0.35*rng.Float64(),
		bezel:    (0.02 + 0.04*rng.Float64()) * math.Max(sw, sh),
		sw:       sw,
		sh:       sh,
		gap:      0.1 + 0.25*rng.Float64(),
	}
	// The glare lies somewhere on the screen: a point between its corners.
	a, b := rng.Float64(), rng.Float64()
	for k, w := range [4]float64{(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b} {
		l.gx += w * dst[k][0]
		l.gy += w * dst[k][1]
	}
	l.gw, l.gh = 30+120*rng.Float64(), 20+80*rng.Float64()
	l.gpeak = 40 + 80*rng.Float64()
	return l
}

// sample is the colour the photo's pixel (x, y) sees: 3x3 points, each
// on a screen pixel (dimmer on the lines between them) or the bezel or the
// room.
func (l *screenLight) sample(img image.Image, inv mat3, x, y int) [3]float64 {
	b := img.Bounds()
	var sum [3]float64
	for k := 0; k < 9; k++ {
		u, v := inv.apply(float64(x)+(float64(k%3)+0.5)/3, float64(y)+(float64(k/3)+0.5)/3)
		var c [3]float64
		switch {
		case u >= 0 && v >= 0 && u < l.sw && v < l.sh:
			r, g, bb, _ := img.At(b.Min.X+int(u), b.Min.Y+int(v)).RGBA()
			c = [3]float64{float64(r >> 8), float64(g >> 8), float64(bb >> 8)}
			// Sub-pixels: red, green and blue stripes; the lines between.
			fu, fv := u-math.Floor(u), v-math.Floor(v)
			lit := 1.0
			if fv < 0.15 || fv > 0.85 {
				lit = 1 - l.gap
			}
			for k := range c {
				if int(fu*3) != k {
					c[k] *= 1 - l.gap
				}
				c[k] = c[k]*lit + 4
			}
		case u >= -l.bezel && v >= -l.bezel && u < l.sw+l.bezel && v < l.sh+l.bezel:
			c = [3]float64{10, 10, 12}
		default:
			c = l.room
		}
		for k := range sum {
			sum[k] += c[k] / 9
		}
	}
	return sum
}

// glare is the light a lamp's reflection adds at (x, y); none when no
// glare was set.
func (l *screenLight) glare(x, y int) float64 {
	if l.gpeak == 0 {
		return 0
	}
	dx, dy := (float64(x)-l.gx)/l.gw, (float64(y)-l.gy)/l.gh
	return l.gpeak * math.Exp(-(dx*dx+dy*dy)/2)
}
