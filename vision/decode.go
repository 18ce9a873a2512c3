package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for image.Decode
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// Limits on a picture, checked from its header before any pixel is decoded,
// so a small file that claims a huge image (a decompression bomb) costs
// nothing.
const (
	MaxBytes  = 10 << 20   // 10 MiB
	MaxPixels = 40_000_000 // 40 megapixels
)

// Errors a caller can tell apart with errors.Is.
var (
	// ErrTooLarge is returned for a file over MaxBytes or an image over
	// MaxPixels.
	ErrTooLarge = errors.New("picture too large")
	// ErrFormat is returned for bytes that are not a PNG, JPEG or WebP image.
	ErrFormat = errors.New("not a PNG, JPEG or WebP picture")
	// ErrNoGrid is returned when no Sudoku grid is found in a picture.
	ErrNoGrid = errors.New("no Sudoku grid found")
)

// CheckConfig reads only the header of data and says whether Decode would
// accept it: its format and size. It returns the image's width and height.
func CheckConfig(data []byte) (w, h int, format string, err error) {
	if len(data) > MaxBytes {
		return 0, 0, "", fmt.Errorf("%w: %d bytes, the limit is %d MB", ErrTooLarge, len(data), MaxBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, "", fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, "", fmt.Errorf("%w: empty image %dx%d", ErrFormat, cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return 0, 0, "", fmt.Errorf("%w: %dx%d is over %d megapixels", ErrTooLarge, cfg.Width, cfg.Height, MaxPixels/1_000_000)
	}
	return cfg.Width, cfg.Height, format, nil
}

// Decode checks data's header against MaxBytes and MaxPixels and then decodes
// it. It accepts PNG, JPEG and WebP.
func Decode(data []byte) (image.Image, error) {
	if _, _, _, err := CheckConfig(data); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return img, nil
}
