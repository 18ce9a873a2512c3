package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"sudokubot/vision"
)

// runRead reads a Sudoku grid from a picture.
func runRead(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "read", "[-json] [-timeout 30s] FILE",
		"Reads the grid (4x4 to 25x25) in a PNG, JPEG or WebP picture (- for stdin) and prints it as\n"+
			"one line ('.' for a blank), then its confidence and the cells it is unsure of.\n"+
			"With -json, one object: the grid, each cell's digit, kind (given, entry, notes or empty),\n"+
			"confidence and pencil-mark candidates,\n"+
			"the grid's corners in the picture; or {\"error\": …} when there is no grid to show.\n"+
			"Exit status: 0 sure, 1 unsure, 2 bad picture or usage, 3 no grid found.")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	switch {
	case fs.NArg() == 0:
		return fs.usageError("no picture: give a FILE, or - for standard input")
	case fs.NArg() > 1:
		return fs.usageError("one picture at most, got %d arguments", fs.NArg())
	case *timeout < 0:
		return fs.usageError("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	// fail reports why there is no grid to show: as {"error": …} with -json,
	// else as a line on stderr.
	fail := func(code int, msg string) int {
		if *asJSON {
			writeJSON(stdio.Stdout, readErrorJSON{Error: msg})
		} else {
			fmt.Fprintf(stdio.Stderr, "sudokubot read: %s\n", msg)
		}
		return code
	}
	data, err := readPicture(fs.Arg(0), stdio.Stdin)
	if err != nil {
		return fail(exitUsage, err.Error())
	}
	res, err := vision.ReadBytes(ctx, data)
	switch {
	case errors.Is(err, vision.ErrNoGrid):
		// No grid, or one of a size not read: nothing to show.
		return fail(exitNoGrid, fmt.Sprintf("%s: %v", fs.Arg(0), err))
	case errors.Is(err, context.DeadlineExceeded):
		return fail(exitFail, fmt.Sprintf("%s: not read within %v (-timeout)", fs.Arg(0), *timeout))
	case err != nil:
		return fail(exitUsage, fmt.Sprintf("%s: %v", fs.Arg(0), err))
	}
	unsure := res.Unsure()
	names := make([]string, len(unsure))
	for i, c := range unsure {
		names[i] = cellName(c, res.Size)
	}
	if *asJSON {
		writeJSON(stdio.Stdout, newReadJSON(res, names))
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

// readJSON is read -json's answer: every key lower-case, cells named as on
// the boards (A1), corners as {"x", "y"} in the picture's pixels.
type readJSON struct {
	Grid       string      `json:"grid"`
	Size       int         `json:"size"`
	Sure       bool        `json:"sure"`
	Confidence float64     `json:"confidence"`
	Unsure     []string    `json:"unsure"`
	Inverted   bool        `json:"inverted"`
	Corners    []pointJSON `json:"corners"`
	Cells      []cellJSON  `json:"cells"`
}

// readErrorJSON is read -json's answer when there is no grid to show.
type readErrorJSON struct {
	Error string `json:"error"`
}

type pointJSON struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type cellJSON struct {
	Cell       string  `json:"cell"`
	Kind       string  `json:"kind"`
	Digit      int     `json:"digit"`
	Confidence float64 `json:"confidence"`
	Pencil     bool    `json:"pencil,omitempty"`
	Candidates []int   `json:"candidates,omitempty"`
}

func newReadJSON(res *vision.Result, unsure []string) readJSON {
	out := readJSON{Grid: res.String(), Size: res.Size, Sure: len(unsure) == 0, Confidence: res.Confidence(),
		Unsure: unsure, Inverted: res.Inverted, Corners: []pointJSON{}, Cells: []cellJSON{}}
	if out.Unsure == nil {
		out.Unsure = []string{}
	}
	for _, p := range res.Corners {
		out.Corners = append(out.Corners, pointJSON{p.X, p.Y})
	}
	for i, c := range res.Cells {
		out.Cells = append(out.Cells, cellJSON{Cell: cellName(i, res.Size), Kind: cellKind(c), Digit: c.Digit,
			Confidence: c.Confidence, Pencil: c.Pencil, Candidates: c.Candidates})
	}
	return out
}

// cellKind says what a cell of a picture holds: a printed given, a
// player's entry (fainter ink than the givens), pencil notes, or nothing.
func cellKind(c vision.Cell) string {
	switch {
	case c.Digit != 0 && c.Entry:
		return "entry"
	case c.Digit != 0:
		return "given"
	case c.Pencil || len(c.Candidates) > 0:
		return "notes"
	}
	return "empty"
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
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
