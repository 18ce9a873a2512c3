package cli

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	botcmd "sudokubot/commands"
	"sudokubot/sudoku"
)

// runGenerate makes new puzzles and prints one per line.
func runGenerate(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "generate", "[-n N] [-level L] [-size 9] [-symmetry rot180] [-seed S] [-v] [-timeout 1m]",
		"Each has one solution, the clue pattern asked and a rating in the level asked, printed on one\n"+
			"line ('.' for an empty cell). The same seed always makes the same puzzle.\n"+
			"4x4 goes up to easy, 6x6 and grids above 9x9 up to expert.")
	n := fs.Int("n", 1, "how many puzzles to make")
	levelName := fs.String("level", "", "difficulty: easy, medium, hard, expert or extreme (default medium, or the hardest the size reaches when that is less)")
	size := fs.String("size", "9", "grid size: 4, 6, 8, 9, 12, 16, 25 (or 9x9, 16x16, ...)")
	symName := fs.String("symmetry", "rot180", "clue pattern: none, rot180, rot90, mirror or diagonal")
	seedText := fs.String("seed", "", "seed of the first puzzle (puzzle i uses seed+i); default: random")
	verbose := fs.Bool("v", false, "after each puzzle print its score, level, hardest technique and seed (tab separated)")
	timeout := fs.Duration("timeout", time.Minute, "give up on a puzzle after this long (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	usageErr := fs.usageError
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: all options are flags", fs.Arg(0))
	}
	if *timeout < 0 {
		return usageErr("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	if *n < 1 {
		return usageErr("-n %d: want at least 1 puzzle", *n)
	}
	shape, err := parseSize(*size)
	if err != nil {
		return usageErr("-size: %v", err)
	}
	level := botcmd.DefaultLevel(shape)
	if strings.TrimSpace(*levelName) != "" {
		if level, err = sudoku.ParseLevel(*levelName); err != nil {
			return usageErr("-level: %v", err)
		}
	}
	sym, err := sudoku.ParseSymmetry(*symName)
	if err != nil {
		return usageErr("-symmetry: %v", err)
	}
	if top := sudoku.MaxLevel(shape); level > top {
		return usageErr("-level %s: %s puzzles go up to %s", level, shape, top)
	}
	seed, err := parseSeed(*seedText)
	if err != nil {
		return usageErr("-seed: %v", err)
	}
	if strings.TrimSpace(*seedText) == "" && !*verbose {
		// Stdout holds only puzzles; say on stderr how to make them again.
		fmt.Fprintf(stdio.Stderr, "sudokubot generate: seed %d (pass -seed %d to make the same puzzles again)\n", seed, seed)
	}

	w := bufio.NewWriter(stdio.Stdout)
	defer w.Flush()
	for i := range *n {
		opts := sudoku.GenerateOptions{Shape: shape, Level: level, Symmetry: sym, Seed: seed + uint64(i)}
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if *timeout > 0 {
			pctx, cancel = context.WithTimeout(ctx, *timeout)
		}
		p, err := sudoku.Generate(pctx, opts)
		cancel()
		if err != nil {
			w.Flush()
			fmt.Fprintf(stdio.Stderr, "sudokubot generate: %v\n", err)
			return 1
		}
		fmt.Fprint(w, p.Grid)
		if *verbose {
			fmt.Fprintf(w, "\t%.1f\t%s\t%s\t%d", p.Rating.Score, p.Rating.Level, p.Rating.Hardest, opts.Seed)
		}
		fmt.Fprintln(w)
		if *n > 1 {
			w.Flush() // show progress on long runs
		}
	}
	return 0
}

// parseSize reads a grid size: "9" or "9x9" for a 9x9 with its usual boxes.
func parseSize(s string) (sudoku.Shape, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if a, b, ok := strings.Cut(t, "x"); ok {
		if a != b {
			return sudoku.Shape{}, fmt.Errorf("%q: a grid is square; write 9x9 or just 9", s)
		}
		t = a
	}
	n, err := strconv.Atoi(t)
	if err != nil {
		return sudoku.Shape{}, fmt.Errorf("%q is not a size: want 4, 6, 8, 9, 12, 16 or 25", s)
	}
	shape, ok := sudoku.ShapeFor(n)
	if !ok {
		return sudoku.Shape{}, fmt.Errorf("no %dx%d grid: want 4, 6, 8, 9, 12, 16 or 25", n, n)
	}
	return shape, nil
}

// parseSeed reads a seed, or draws a random one when s is empty (kept short
// enough to type back with -seed).
func parseSeed(s string) (uint64, error) {
	if strings.TrimSpace(s) == "" {
		return rand.Uint64N(1_000_000_000), nil
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a seed: want a whole number from 0 to %d", s, uint64(1<<64-1))
	}
	return seed, nil
}
