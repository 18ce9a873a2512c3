package sudoku_test

import (
	"context"
	"fmt"
	"time"

	"sudokubot/sudoku"
)

func ExampleGenerate() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := sudoku.Generate(ctx, sudoku.GenerateOptions{
		Shape:    sudoku.Shape9,
		Level:    sudoku.Hard,
		Symmetry: sudoku.Rotate180,
		Seed:     2026,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s rated %.1f (%s, hardest step: %s)\n", p.Grid, p.Rating.Score, p.Rating.Level, p.Rating.Hardest)
}

func ExampleDaily() {
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, level := range sudoku.DailyLevels() {
		// Every server of one bot shares a secret (DAILY_SECRET); without it
		// nobody can work out a coming day's puzzle.
		d, err := sudoku.Daily(context.Background(), []byte("the bot's secret"), day, level)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("Daily #%d (%s) %s: %s\n", d.Number, d.Date.Format(time.DateOnly), d.Level, d.Grid)
	}
}
