package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"

	"sudokubot/bot"
	botcmd "sudokubot/commands"
	"sudokubot/store"
)

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
	st, err := store.Open(ctx, cfg.DatabasePath)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v (set DATABASE_PATH to a writable file)\n", err)
		return 1
	}
	defer st.Close()
	secret, warning, err := dailySecret(ctx, stdio.getenv, st)
	if warning != "" {
		fmt.Fprintf(stdio.Stderr, "%s: warning: %s\n", "sudokubot", warning)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	logger := log.New(stdio.Stderr, "", log.LstdFlags)
	svc := botcmd.New(botcmd.Config{
		Logf:          logger.Printf,
		SolveTimeout:  cfg.SolveTimeout,
		MaxInput:      cfg.MaxInputChars,
		Settings:      st,
		Games:         st,
		DailySecret:   secret,
		ContentIntent: func() bool { return cfg.MessageContent },
	})
	b, err := bot.New(cfg, svc, logger)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 2
	}
	// The daily poster runs beside the bot and stops with it.
	go bot.NewPoster(b, st, svc, 0).Run(ctx)
	if err := b.Run(ctx); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	return 0
}
