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
