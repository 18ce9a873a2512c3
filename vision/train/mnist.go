package main

import (
	"sudokubot/vision/internal/mnist"
)

// handDigits reads MNIST's train split from dir (see package mnist) and
// returns each digit's ink as a glyph, cropped, by label.
func handDigits(dir string) ([10][]*glyphMask, error) {
	var out [10][]*glyphMask
	digits, err := mnist.Load(dir, "train")
	if err != nil {
		return out, err
	}
	for _, d := range digits {
		g := &glyphMask{w: mnist.Side, h: mnist.Side, a: make([]float32, len(d.Pix))}
		for k, v := range d.Pix {
			g.a[k] = float32(v) / 255
		}
		if g = g.crop(); g != nil {
			out[d.Label] = append(out[d.Label], g)
		}
	}
	return out, nil
}
