package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"sudokubot/vision"
)

// runRead reads a Sudoku grid from a picture.
func runRead(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("read", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, "usage: sudokubot read [-json] FILE")
		fmt.Fprintln(stdio.Stderr, "Read the Sudoku grid (9x9, 6x6, or 16x16 in 1-9A-G) in a PNG, JPEG or WebP picture (- for stdin):")
		fmt.Fprintln(stdio.Stderr, "prints it as one line ('.' for a blank), then its confidence and the cells it is unsure of.")
		fmt.Fprintln(stdio.Stderr, "With -json, each cell's digit, confidence and pencil-mark candidates too.")
		fmt.Fprintln(stdio.Stderr, "Exit status: 0 sure, 1 unsure, 2 bad picture or usage, 3 no grid found.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	data, err := readPicture(fs.Arg(0), stdio.Stdin)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot read: %v\n", err)
		return 2
	}
	res, err := vision.ReadBytes(ctx, data)
	switch {
	case errors.Is(err, vision.ErrNoGrid):
		fmt.Fprintln(stdio.Stderr, "no Sudoku grid found")
		return 3
	case err != nil:
		fmt.Fprintf(stdio.Stderr, "sudokubot read: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	unsure := res.Unsure()
	names := make([]string, len(unsure))
	for i, c := range unsure {
		names[i] = cellName(c, res.Size)
	}
	if *asJSON {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(struct {
			Grid       string   `json:"grid"`
			Sure       bool     `json:"sure"`
			Confidence float64  `json:"confidence"`
			Unsure     []string `json:"unsure"`
			*vision.Result
		}{res.String(), len(unsure) == 0, res.Confidence(), names, res})
	} else {
		fmt.Fprintln(stdio.Stdout, res.String())
		if len(unsure) == 0 {
			fmt.Fprintf(stdio.Stdout, "sure (confidence %.4f)\n", res.Confidence())
		} else {
			fmt.Fprintf(stdio.Stdout, "unsure (confidence %.4f): %s\n", res.Confidence(), strings.Join(names, " "))
		}
	}
	if len(unsure) > 0 {
		return 1
	}
	return 0
}

// cellName names a cell as the bot does: row letter, column number (A1).
func cellName(i, n int) string {
	return fmt.Sprintf("%c%d", 'A'+i/n, i%n+1)
}

func readPicture(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	// One byte over the limit is enough to refuse the file.
	data, err := io.ReadAll(io.LimitReader(r, vision.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}

// isPicture reports whether data starts like a PNG, JPEG or WebP file.
func isPicture(data []byte) bool {
	return bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) ||
		bytes.HasPrefix(data, []byte("\xff\xd8\xff")) ||
		(len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP")
}

// pictureText returns text as it is, or, when it holds a picture, the grid
// read from it as one line, so that solve, hint, rate and render take a
// screenshot or a photo as well as text. A grid read with unsure cells is
// used all the same, after a warning on stderr that names them.
func pictureText(ctx context.Context, text, name string, stderr io.Writer) (string, error) {
	if !isPicture([]byte(text)) {
		return text, nil
	}
	res, err := vision.ReadBytes(ctx, []byte(text))
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if unsure := res.Unsure(); len(unsure) > 0 {
		names := make([]string, len(unsure))
		for i, c := range unsure {
			names[i] = cellName(c, res.Size)
		}
		fmt.Fprintf(stderr, "warning: read %s as %s, unsure of %s\n", name, res, strings.Join(names, " "))
	}
	return res.String(), nil
}
