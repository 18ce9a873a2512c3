package main

import (
	"image"
	"image/draw"
	"image/png"
	"os"

	"sudokubot/vision"
)

// dumpSamples writes a sheet of 16×8 synthetic cells, for a person to look
// at what the classifier learns from.
func dumpSamples(s *synth, path string) error {
	sheet := image.NewGray(image.Rect(0, 0, 16*cell, 8*cell))
	for i := 0; i < 128; i++ {
		label := i % vision.NumClasses
		img, _ := s.sample(label)
		r := image.Rect(i%16*cell, i/16*cell, i%16*cell+cell, i/16*cell+cell)
		draw.Draw(sheet, r, img, image.Point{}, draw.Src)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, sheet); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
