package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"sudokubot/sudoku"
)

// runDaily prints the daily puzzles of a UTC day.
func runDaily(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("daily", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	dateText := fs.String("date", "", "the UTC day, as 2026-11-21 (default: today in UTC)")
	levelName := fs.String("level", "", "only this level: easy, medium or hard (default: all three)")
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, "usage: sudokubot daily [-date 2026-11-21] [-level hard]")
		fmt.Fprintln(stdio.Stderr, "Print the daily puzzles of a UTC day, one per line: number, date, level, score, puzzle")
		fmt.Fprintln(stdio.Stderr, "(tab separated). Daily #1 is 2026-01-01; every server shows the same puzzles.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Stderr, "sudokubot daily: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q (all options are flags; see -h)", fs.Arg(0))
	}
	day := time.Now().UTC()
	if s := strings.TrimSpace(*dateText); s != "" {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return usageErr("-date %q: want a date such as 2026-11-21", s)
		}
		day = d
	}
	if day.Before(sudoku.DailyEpoch) {
		return usageErr("-date %s: the first daily is %s", day.Format(time.DateOnly), sudoku.DailyEpoch.Format(time.DateOnly))
	}
	levels := sudoku.DailyLevels()
	if s := strings.TrimSpace(*levelName); s != "" {
		l, err := sudoku.ParseLevel(s)
		if err != nil || !isDailyLevel(l) {
			return usageErr("-level %q: the daily levels are easy, medium and hard", s)
		}
		levels = []sudoku.Level{l}
	}
	for _, l := range levels {
		d, err := sudoku.Daily(ctx, day, l)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot daily: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdio.Stdout, "#%d\t%s\t%s\t%.1f\t%s\n", d.Number, d.Date.Format(time.DateOnly), d.Level, d.Rating.Score, d.Grid)
	}
	return 0
}

func isDailyLevel(l sudoku.Level) bool {
	for _, d := range sudoku.DailyLevels() {
		if d == l {
			return true
		}
	}
	return false
}
