// Package cli holds sudokubot's sub-commands: the bot itself, the console,
// and the engine's command-line tools (solve, hint, rate, generate, daily,
// render). main only builds the context and calls Run.
package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// IO is where a command reads and writes; tests pass buffers.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads configuration; nil means no environment.
	Getenv func(string) string
}

func (s IO) getenv(key string) string {
	if s.Getenv == nil {
		return ""
	}
	return s.Getenv(key)
}

// command is one sub-command: its one-line summary and its body, which
// returns the process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdio IO) int
}

// commands lists every sub-command. "run" (the bot) is also what a bare
// `sudokubot` does.
var commands = map[string]command{
	"run":      {"connect to Discord and serve (the default)", runBot},
	"console":  {"try the bot's commands in this terminal, no Discord needed", runConsole},
	"solve":    {"solve puzzles from a file or stdin", runSolve},
	"hint":     {"show the next logical step of a puzzle", runHint},
	"rate":     {"rate a puzzle's difficulty", runRate},
	"generate": {"make new puzzles", runGenerate},
	"daily":    {"show the daily puzzle of a date", runDaily},
	"render":   {"draw a puzzle as a PNG or text", runRender},
	"read":     {"read a Sudoku grid from a picture (PNG, JPEG, WebP)", runRead},
	"health":   {"check that a running bot answers on /healthz (for container health checks)", runHealth},
	"backup":   {"copy the bot's SQLite database to a new file while it runs", runBackup},
}

// Run runs the sub-command named in args[0] (the bot when args is empty) and
// returns the exit code.
func Run(ctx context.Context, args []string, stdio IO) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(stdio.Stdout)
			return 0
		}
	}
	name := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stdio.Stderr, "sudokubot: unknown command %q\n\n", name)
		usage(stdio.Stderr)
		return 2
	}
	return cmd.run(ctx, args, stdio)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sudokubot [command] [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-9s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nRun 'sudokubot COMMAND -h' for a command's flags.")
}
