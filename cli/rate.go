package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	botcmd "sudokubot/commands"
	"sudokubot/sudoku"
)

// runRate rates puzzles on the Sudoku Explainer scale.
func runRate(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "rate", "[-batch] [-timeout 1m] [FILE]",
		"Rates the puzzle in FILE (or on stdin), a picture too: score, level and hardest technique.\n"+
			"With -batch each output line is: score, level, hardest technique, puzzle, name (tab separated);\n"+
			"a score ending in + (hardest technique \"unfinished\") means the logical solver could not finish\n"+
			"the puzzle, or (\"timeout\") ran out of time: the score is the hardest step so far, a lower bound.\n"+
			"A puzzle with no solution or several has no rating: its line reads \"-\", then \"no solution\" or\n"+
			"\"several solutions\".\n"+
			"Exit status: 0 every puzzle rated, 1 one was not (no unique solution, unreadable, timeout), 2 bad usage.")
	batch := fs.Bool("batch", false, "one puzzle per line (text after the puzzle is kept as its name); print one line each")
	timeout := fs.Duration("timeout", time.Minute, "give up on a puzzle after this long, with the score so far (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return fs.usageError("one puzzle file at most, got %d arguments", fs.NArg())
	}
	if *timeout < 0 {
		return fs.usageError("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	text, name, err := readLogicInput(fs.Arg(0), stdio.Stdin)
	if err == nil {
		text, err = pictureText(ctx, text, name, stdio.Stderr)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot rate: %v\n", err)
		return 1
	}
	if *batch {
		return rateBatch(ctx, text, name, *timeout, stdio)
	}
	g, err := sudoku.Parse(text)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot rate: %s: %v\n", name, err)
		return 1
	}
	if why, ok := unrateable(ctx, g); !ok {
		fmt.Fprintln(stdio.Stdout, why)
		return 1
	}
	r, err := rateWithin(ctx, g, *timeout)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stdio.Stderr, "sudokubot rate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdio.Stdout, "score:   %s\n", scoreText(r))
	if err != nil {
		fmt.Fprintf(stdio.Stdout, "level:   at least %s\n", r.Level)
		fmt.Fprintf(stdio.Stdout, "hardest: timeout: stopped after %v (-timeout); the score is the hardest step so far, a lower bound\n", *timeout)
		if r.Hardest != "" {
			fmt.Fprintf(stdio.Stdout, "         (it took %s; the hardest was %s)\n", botcmd.Plural(r.Steps, "step", "steps"), hardestText(r))
		}
		return 1
	}
	fmt.Fprintf(stdio.Stdout, "level:   %s\n", r.Level)
	if r.Complete {
		fmt.Fprintf(stdio.Stdout, "hardest: %s\n", hardestText(r))
	} else {
		fmt.Fprintln(stdio.Stdout, "hardest: unfinished: the logical solver gets stuck; the puzzle needs more than the techniques it knows")
		if r.Steps == 0 {
			fmt.Fprintln(stdio.Stdout, "         (it finds no step at all)")
		} else {
			fmt.Fprintf(stdio.Stdout, "         (it took %s first; the hardest was %s)\n", botcmd.Plural(r.Steps, "step", "steps"), hardestText(r))
		}
	}
	return 0
}

// rateWithin rates g, giving up after timeout (0: never) with the rating
// so far and context.DeadlineExceeded.
func rateWithin(ctx context.Context, g *sudoku.Grid, timeout time.Duration) (sudoku.Rating, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return sudoku.RateContext(ctx, g)
}

func rateBatch(ctx context.Context, text, name string, timeout time.Duration, stdio IO) int {
	code := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	w := bufio.NewWriter(stdio.Stdout)
	defer w.Flush()
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		puzzle, label, _ := strings.Cut(s, "\t")
		if label == "" {
			puzzle, label, _ = strings.Cut(s, " ")
		}
		g, err := sudoku.Parse(puzzle)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot rate: %s line %d: %v\n", name, line, err)
			code = 1
			continue
		}
		score, level, hardest := "-", "", "-"
		if why, ok := unrateable(ctx, g); !ok {
			level, _, _ = strings.Cut(why, ":")
			code = 1
		} else {
			r, err := rateWithin(ctx, g, timeout)
			switch {
			case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
				score, level, hardest = scoreText(r), r.Level.String(), "timeout"
				code = 1
			case err != nil:
				fmt.Fprintf(stdio.Stderr, "sudokubot rate: %v\n", err)
				return 1
			default:
				score, level, hardest = scoreText(r), r.Level.String(), batchHardest(r)
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s", score, level, hardest, puzzle)
		if label = strings.TrimSpace(label); label != "" {
			fmt.Fprintf(w, "\t%s", label)
		}
		fmt.Fprintln(w)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot rate: %s: %v\n", name, err)
		return 1
	}
	return code
}

// unrateable says why g has no rating, as /check does: no solution (its
// givens clash, or nothing fits them) or several solutions. ok is true for
// a puzzle with one solution.
func unrateable(ctx context.Context, g *sudoku.Grid) (why string, ok bool) {
	if clashes := g.Clashes(); len(clashes) > 0 {
		return "no solution: " + clashes[0].Describe(g.Shape, g.Alphabet), false
	}
	switch sudoku.Solve(ctx, g, 2).Status {
	case sudoku.NoSolution:
		return "no solution: no way to fill the grid keeps every rule (a clue is probably mistyped)", false
	case sudoku.Multiple:
		switch {
		case g.Clues() == 0:
			return "several solutions: the grid is empty", false
		case g.Clues()*5 < len(g.Cells):
			// Below a fifth of the cells no known puzzle has one solution.
			return fmt.Sprintf("several solutions: %d clues are too few for one solution", g.Clues()), false
		}
		return "several solutions: not a proper Sudoku, so it has no rating (a clue is probably missing)", false
	}
	return "", true
}

func scoreText(r sudoku.Rating) string {
	s := fmt.Sprintf("%.1f", r.Score)
	if !r.Complete {
		s += "+"
	}
	return s
}

// hardestText names the hardest technique; in -batch lines an unfinished
// rating says "unfinished" instead, since the hardest step taken before
// the solver got stuck says little about the puzzle.
func hardestText(r sudoku.Rating) string {
	if r.Hardest == "" {
		return "none"
	}
	return r.Hardest
}

func batchHardest(r sudoku.Rating) string {
	if !r.Complete {
		return "unfinished"
	}
	return hardestText(r)
}
