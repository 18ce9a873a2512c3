package vision

// bitmap is a 0/1 image the size of the gray it came from.
type bitmap struct {
	w, h int
	pix  []uint8
}

// adaptive marks a pixel as ink when it is darker than the mean of the
// (2r+1)² window around it by more than c. An integral image makes the cost
// independent of r.
func adaptive(g *gray, r int, c int) *bitmap {
	w, h := g.w, g.h
	integ := make([]uint32, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var rowSum uint32
		row := g.pix[y*w : (y+1)*w]
		above := integ[y*(w+1):]
		cur := integ[(y+1)*(w+1):]
		for x, v := range row {
			rowSum += uint32(v)
			cur[x+1] = above[x+1] + rowSum
		}
	}
	out := &bitmap{w: w, h: h, pix: make([]uint8, w*h)}
	for y := 0; y < h; y++ {
		y0, y1 := max(y-r, 0), min(y+r+1, h)
		top := integ[y0*(w+1):]
		bot := integ[y1*(w+1):]
		for x := 0; x < w; x++ {
			x0, x1 := max(x-r, 0), min(x+r+1, w)
			sum := bot[x1] - bot[x0] - top[x1] + top[x0]
			n := uint32((y1 - y0) * (x1 - x0))
			if uint32(g.pix[y*w+x])*n+uint32(c)*n < sum {
				out.pix[y*w+x] = 1
			}
		}
	}
	return out
}

// component is one 8-connected set of ink pixels.
type component struct {
	n                      int
	minX, minY, maxX, maxY int
	// The pixels that are extreme along the diagonals: the corners of a
	// grid that is rotated by less than 45 degrees.
	tl, tr, br, bl point
}

type point struct{ x, y int }

func (c *component) bw() int { return c.maxX - c.minX + 1 }
func (c *component) bh() int { return c.maxY - c.minY + 1 }

// components labels the ink of b. labels holds, per pixel, the index of its
// component plus one (0 for paper).
func components(b *bitmap) (comps []component, labels []int32) {
	w, h := b.w, b.h
	labels = make([]int32, w*h)
	stack := make([]int32, 0, 1024)
	for start, v := range b.pix {
		if v == 0 || labels[start] != 0 {
			continue
		}
		id := int32(len(comps) + 1)
		c := component{minX: w, minY: h, maxX: -1, maxY: -1}
		sx, sy := start%w, start/w
		c.tl, c.tr, c.br, c.bl = point{sx, sy}, point{sx, sy}, point{sx, sy}, point{sx, sy}
		labels[start] = id
		stack = append(stack[:0], int32(start))
		for len(stack) > 0 {
			p := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			c.n++
			c.minX, c.maxX = min(c.minX, x), max(c.maxX, x)
			c.minY, c.maxY = min(c.minY, y), max(c.maxY, y)
			if x+y < c.tl.x+c.tl.y {
				c.tl = point{x, y}
			}
			if x+y > c.br.x+c.br.y {
				c.br = point{x, y}
			}
			if x-y > c.tr.x-c.tr.y {
				c.tr = point{x, y}
			}
			if x-y < c.bl.x-c.bl.y {
				c.bl = point{x, y}
			}
			for dy := -1; dy <= 1; dy++ {
				ny := y + dy
				if ny < 0 || ny >= h {
					continue
				}
				for dx := -1; dx <= 1; dx++ {
					nx := x + dx
					if nx < 0 || nx >= w {
						continue
					}
					q := ny*w + nx
					if b.pix[q] != 0 && labels[q] == 0 {
						labels[q] = id
						stack = append(stack, int32(q))
					}
				}
			}
		}
		comps = append(comps, c)
	}
	return comps, labels
}
