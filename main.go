// Command sudokubot is a Discord bot that solves, explains and serves Sudoku
// puzzles, and the command-line tools around its engine.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/joho/godotenv"

	"sudokubot/cli"
)

func main() {
	// A missing .env is normal (the environment may hold everything); values
	// already in the environment win over the file.
	_ = godotenv.Load()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
