package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"

	"sudokubot/bot"
)

// newHandler builds the product behind the bot; nil until package commands
// provides its Service.
var newHandler func(cfg bot.Config) (bot.Handler, error)

// runBot connects to Discord and serves until ctx is cancelled (Ctrl-C,
// SIGTERM), finishing the replies in flight.
func runBot(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, "usage: sudokubot [run]\n\nConnects to Discord with the settings in the environment or .env (see .env.example).")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, err := bot.LoadConfig(stdio.getenv)
	if errors.Is(err, bot.ErrNoToken) {
		fmt.Fprintln(stdio.Stderr, bot.TokenHelp)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: configuration: %v\n", err)
		return 2
	}
	if newHandler == nil {
		fmt.Fprintln(stdio.Stderr, "sudokubot: the commands are not built yet")
		return 1
	}
	h, err := newHandler(cfg)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	b, err := bot.New(cfg, h, log.New(stdio.Stderr, "", log.LstdFlags))
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 2
	}
	if err := b.Run(ctx); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	return 0
}
