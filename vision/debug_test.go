package vision

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// TestDebugCell prints one cell (VISION_CELL, 0-80) of the picture
// VISION_FILE as the reader sees it, for a person chasing a misread. The
// cell is cut at the lattice's even places, not the lines found.
func TestDebugCell(t *testing.T) {
	path := os.Getenv("VISION_FILE")
	cell, err := strconv.Atoi(os.Getenv("VISION_CELL"))
	if path == "" || err != nil {
		t.Skip("VISION_FILE or VISION_CELL not set")
	}
	var warped *gray
	debugWarp = func(g *gray) { warped = g }
	defer func() { debugWarp = nil }()
	data, _ := os.ReadFile(path)
	if _, err := ReadBytes(context.Background(), data); err != nil {
		t.Fatal(err)
	}
	g := warped
	c := inkContrast(g)
	r, col := cell/9, cell%9
	ox, oy := warpMargin+col*cellPx, warpMargin+r*cellPx
	t.Logf("contrast %.0f", c)
	for y := 0; y < cellPx; y++ {
		s := ""
		for x := 0; x < cellPx; x++ {
			s += fmt.Sprintf("%3d", g.pix[(oy+y)*g.w+ox+x]/10)
		}
		t.Log(s)
	}
	v := analyzeCell(g, ox, oy, c, 9)
	t.Logf("kind %d", v.kind)
	for y := 0; y < inputSide; y++ {
		s := ""
		for x := 0; x < inputSide; x++ {
			s += fmt.Sprintf("%2d", int(v.feat[y*inputSide+x]*9))
		}
		t.Log(s)
	}
}
