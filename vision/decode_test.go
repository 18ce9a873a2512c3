package vision

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func mustPNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bombPNG is a valid PNG header that claims a w×h image.
func bombPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	data := mustPNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	// IHDR's width and height sit at bytes 16-23, its CRC at 29-32.
	out := append([]byte(nil), data...)
	put := func(at int, v uint32) {
		out[at], out[at+1], out[at+2], out[at+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	put(16, uint32(w))
	put(20, uint32(h))
	put(29, crc32.ChecksumIEEE(out[12:29]))
	return out
}

func TestDecodeLimits(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"not a picture", []byte("solve this pls"), ErrFormat},
		{"empty", nil, ErrFormat},
		{"over 10 MB", make([]byte, MaxBytes+1), ErrTooLarge},
		{"decompression bomb", bombPNG(t, 100_000, 100_000), ErrTooLarge},
		{"just over 40 MP", bombPNG(t, 8000, 5001), ErrTooLarge},
		{"blank picture", mustPNG(t, image.NewGray(image.Rect(0, 0, 300, 300))), ErrNoGrid},
		{"tiny picture", mustPNG(t, image.NewGray(image.Rect(0, 0, 5, 5))), ErrNoGrid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := ReadBytes(context.Background(), tt.data)
			if !errors.Is(err, tt.want) {
				t.Errorf("ReadBytes = %v, want %v", err, tt.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("ReadBytes took %v", d)
			}
		})
	}
}

func TestReadCancelled(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "screens", "render-light-00.png"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadBytes(ctx, data); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadBytes with a cancelled context = %v, want context.Canceled", err)
	}
}

// TestNoGridInNoise: pictures with lines and text but no lattice are not
// read as grids.
func TestNoGridInNoise(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 400, 400))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	// A big empty frame: a quadrilateral, but no lattice inside.
	for k := 0; k < 3; k++ {
		for i := 40; i < 360; i++ {
			img.SetGray(i, 40+k, color.Gray{})
			img.SetGray(i, 360-k, color.Gray{})
			img.SetGray(40+k, i, color.Gray{})
			img.SetGray(360-k, i, color.Gray{})
		}
	}
	if res, err := Read(context.Background(), img); !errors.Is(err, ErrNoGrid) {
		t.Errorf("Read(empty frame) = %v, %v; want ErrNoGrid", res, err)
	}
}

// latticePicture draws an empty 9x9 lattice of side px, as a seed.
func latticePicture(px int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, px+10, px+10))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for k := 0; k <= 9; k++ {
		p := 5 + k*px/9
		for i := 5; i <= 5+px; i++ {
			img.SetGray(i, p, color.Gray{})
			img.SetGray(p, i, color.Gray{})
		}
	}
	return img
}

func FuzzReadBytes(f *testing.F) {
	// Small seeds keep each run short: the fuzzer mutates them.
	f.Add(mustPNG(f, latticePicture(90)))
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, latticePicture(72), &jpeg.Options{Quality: 40}); err != nil {
		f.Fatal(err)
	}
	f.Add(jb.Bytes())
	f.Add(bombPNG(f, 100_000, 100_000))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		res, err := ReadBytes(context.Background(), data)
		if err == nil && len(res.Cells) != res.Size*res.Size {
			t.Fatalf("%d cells for size %d", len(res.Cells), res.Size)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("ReadBytes took %v on %d bytes", d, len(data))
		}
	})
}
