package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"sudokubot/render"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

// runRender draws a puzzle (or, with -solve, its solution) as a PNG file or
// as a text board, so anyone can see what the bot would show.
func runRender(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "render", "[-o board.png] [-theme dark|light] [-pencil] [-solve] [-text [-compact]] [-timeout 10s] [FILE]",
		"Reads a puzzle from FILE (or standard input) in any form /solve accepts, a picture too, and\n"+
			"draws it. Rows are named A, B, C… from the top, columns 1, 2, 3… from the left.")
	out := fs.String("o", "board.png", "write the PNG to this `file` (- for standard output)")
	themeName := fs.String("theme", "dark", "colour `theme` of the picture: dark (what the bot sends) or light")
	pencil := fs.Bool("pencil", false, "draw each empty cell's candidates as pencil marks")
	solve := fs.Bool("solve", false, "draw the solution, givens told apart from solved digits")
	text := fs.Bool("text", false, "print a text board instead of writing a PNG")
	ascii := fs.Bool("ascii", false, "with -text, draw lines with + - | instead of box-drawing characters")
	compact := fs.Bool("compact", false, "with -text, no space between cells (and no coordinates above 9x9): a 16x16 is 23 characters wide")
	caption := fs.String("caption", "", "a line of `text` above the picture's board")
	cell := fs.Int("cell", 0, "cell size in `pixels` (0: chosen by board size)")
	timeout := fs.Duration("timeout", 10*time.Second, "give up solving after this long (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return fs.usageError("one puzzle file at most, got %d arguments", fs.NArg())
	}
	if *timeout < 0 {
		return fs.usageError("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	theme, err := render.ParseTheme(*themeName)
	if err != nil {
		return fs.usageError("-theme: %v", err)
	}
	outSet := false
	fs.Visit(func(f *flag.Flag) { outSet = outSet || f.Name == "o" })

	input, name, err := readRenderInput(fs.Arg(0), stdio.Stdin)
	if err == nil {
		input, err = pictureText(ctx, input, name, stdio.Stderr)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot render: %v\n", err)
		return 1
	}
	puzzle, err := sudoku.Parse(input)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: %v\n", name, err)
		return 1
	}

	board := render.New(puzzle)
	board.Caption = *caption
	if clashes := puzzle.Clashes(); len(clashes) > 0 {
		board.WithClashes(clashes)
		for _, c := range clashes {
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: %s\n", name, c.Describe(puzzle.Shape, puzzle.Alphabet))
		}
		if *solve {
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: the givens clash, so there is no solution to draw\n", name)
			return 1
		}
	} else if *solve {
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if *timeout > 0 {
			sctx, cancel = context.WithTimeout(ctx, *timeout)
		}
		res := sudoku.Solve(sctx, puzzle, 2)
		cancel()
		switch res.Status {
		case sudoku.Unique, sudoku.Solved:
			board = render.Solved(puzzle, res.Solutions[0])
		case sudoku.Multiple:
			board = render.Solved(puzzle, res.Solutions[0]).WithDiff(sudoku.CloserSecond(ctx, puzzle, res.Solutions[0], res.Solutions[1]))
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: the puzzle has several solutions; drawing one, with the cells where another differs marked\n", name)
		case sudoku.Cancelled:
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: no solution found within %v\n", name, *timeout)
			return 1
		default:
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %s: the puzzle has no solution\n", name)
			return 1
		}
		board.Caption = *caption
	}
	if *pencil && !*solve {
		board.Pencil = puzzle.Candidates()
	}

	if *text {
		s, err := board.Text(render.TextOptions{ASCII: *ascii, Compact: *compact})
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot render: %v\n", err)
			return 1
		}
		if outSet && *out != "-" {
			return writeRenderFile(stdio, *out, []byte(s))
		}
		io.WriteString(stdio.Stdout, s)
		return 0
	}
	data, err := board.PNG(render.ImageOptions{Theme: theme, CellSize: *cell})
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot render: %v\n", err)
		return 1
	}
	if *out == "-" {
		if _, err := stdio.Stdout.Write(data); err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot render: write: %v\n", err)
			return 1
		}
		return 0
	}
	return writeRenderFile(stdio, *out, data)
}

// readRenderInput reads the named file, or stdin when name is "" or "-". It
// returns the text and a name for messages.
func readRenderInput(name string, stdin io.Reader) (string, string, error) {
	if name == "" || name == "-" {
		if stdin == nil {
			return "", "", errors.New("no puzzle: give a FILE or pipe one in")
		}
		data, err := io.ReadAll(io.LimitReader(stdin, maxRenderInput+1))
		if err != nil {
			return "", "", fmt.Errorf("read standard input: %w", err)
		}
		if len(data) > maxRenderInput {
			return "", "", fmt.Errorf("standard input is over %d bytes; a puzzle is much shorter", maxRenderInput)
		}
		return string(data), "standard input", nil
	}
	f, err := os.Open(name)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, vision.MaxBytes+1))
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > maxRenderInput && !isPicture(data) {
		return "", "", fmt.Errorf("%s is over %d bytes; a puzzle is much shorter", name, maxRenderInput)
	}
	return string(data), name, nil
}

// maxRenderInput bounds what render reads: a 25x25 grid with decoration is a few
// kilobytes.
const maxRenderInput = 1 << 20

func writeRenderFile(stdio IO, path string, data []byte) int {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdio.Stderr, "wrote %s (%d bytes)\n", path, len(data))
	return 0
}
