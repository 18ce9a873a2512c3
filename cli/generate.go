package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"sudokubot/sudoku"
)

// runGenerate makes new puzzles and prints one per line.
func runGenerate(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	n := fs.Int("n", 1, "how many puzzles to make")
	levelName := fs.String("level", "medium", "difficulty: easy, medium, hard, expert or extreme")
	size := fs.String("size", "9", "grid size: 4, 6, 8, 9, 12, 16, 25 (or 9x9, 16x16, ...)")
	symName := fs.String("symmetry", "rot180", "clue pattern: none, rot180, rot90, mirror or diagonal")
	seedText := fs.String("seed", "", "seed of the first puzzle (puzzle i uses seed+i); default: random")
	verbose := fs.Bool("v", false, "after each puzzle print its score, level, hardest technique and seed (tab separated)")
	timeout := fs.Duration("timeout", time.Minute, "give up on a puzzle after this long")
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, "usage: sudokubot generate [-n N] [-level L] [-size 9] [-symmetry rot180] [-seed S] [-v]")
		fmt.Fprintln(stdio.Stderr, "Make puzzles with one solution, the clue pattern asked and a rating in the level asked;")
		fmt.Fprintln(stdio.Stderr, "print each on one line ('.' for an empty cell). The same seed always makes the same puzzle.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Stderr, "sudokubot generate: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q (all options are flags; see -h)", fs.Arg(0))
	}
	if *n < 1 {
		return usageErr("-n %d: want at least 1 puzzle", *n)
	}
	level, err := sudoku.ParseLevel(*levelName)
	if err != nil {
		return usageErr("-level: %v", err)
	}
	shape, err := parseSize(*size)
	if err != nil {
		return usageErr("-size: %v", err)
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
		pctx, cancel := context.WithTimeout(ctx, *timeout)
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
