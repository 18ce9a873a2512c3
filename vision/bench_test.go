package vision

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// phoneShot is a 1080x2400 phone screenshot from the test set.
const phoneShot = "screens/html-classic-00.png"

func BenchmarkReadPhoneScreenshot(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", phoneShot))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("decode+read", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadBytes(ctx, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	img, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 1080 || r.Dy() != 2400 {
		b.Fatalf("%s is %v, want 1080x2400", phoneShot, r)
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, err := Read(ctx, img); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadPhoto25x25 reads a 1536x2048 photo of a 25x25 board.
func BenchmarkReadPhoto25x25(b *testing.B) {
	benchmarkRead(b, "sizes/size25-photo-big0.jpg", false)
}

// BenchmarkReadNoGrid reads pictures with no Sudoku in them, which a
// watched channel sees most: a calendar and a photo of a crossword, each
// read to the end ("no grid"), every way of looking for a grid tried.
func BenchmarkReadNoGrid(b *testing.B) {
	for _, name := range []string{"negatives/calendar-0.png", "negatives/photo-of-crossword12-0.jpg"} {
		b.Run(filepath.Base(name), func(b *testing.B) { benchmarkRead(b, name, true) })
	}
}

func benchmarkRead(b *testing.B, name string, noGrid bool) {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	img, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := Read(ctx, img); (err != nil) != noGrid {
			b.Fatalf("Read(%s) = %v", name, err)
		}
	}
}
