package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Exit codes shared by every sub-command.
const (
	exitOK     = 0 // the command did what was asked
	exitFail   = 1 // it ran but the answer is not a clean yes (no unique solution, unreadable input, …)
	exitUsage  = 2 // bad flags or arguments: nothing was done
	exitNoGrid = 3 // read: the picture holds no grid
)

// summaries are the one-line descriptions of the sub-commands, copied from
// the commands table when the package starts (a run function reading the
// table itself would make an initialisation cycle).
var summaries = map[string]string{}

func init() {
	for name, c := range commands {
		summaries[name] = c.summary
	}
}

// flags is a sub-command's flag set with the help layout every sub-command
// shares:
//
//	usage: sudokubot NAME SYNOPSIS
//
//	Summary (the line `sudokubot -h` lists).
//	More text, when there is more to say.
//
//	flags:
//	  -x …
//
// -h prints the help on stdout and exits 0; a bad flag, a bad value or a
// wrong argument prints one line saying what was wrong, then the help, on
// stderr, and exits 2.
type flags struct {
	*flag.FlagSet
	name     string
	synopsis string
	about    string
	stdio    IO
}

// newFlags makes the flag set of sub-command name. synopsis follows the
// name on the usage line; about, when not empty, follows the summary.
func newFlags(stdio IO, name, synopsis, about string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package's own messages are replaced by parse's.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flags{FlagSet: fs, name: name, synopsis: synopsis, about: about, stdio: stdio}
}

// parse parses args. When the command should stop there it returns false
// and the exit code: 0 after -h (the help printed on stdout), 2 after a bad
// flag or value (what was wrong, then the help, on stderr).
func (f *flags) parse(args []string) (code int, ok bool) {
	err := f.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		f.help(f.stdio.Stdout)
		return exitOK, false
	}
	return f.usageError("%s", f.flagMessage(err)), false
}

// usageError prints "sudokubot NAME: message" and the help on stderr, and
// returns the exit code for bad usage.
func (f *flags) usageError(format string, a ...any) int {
	fmt.Fprintf(f.stdio.Stderr, "sudokubot %s: %s\n\n", f.name, fmt.Sprintf(format, a...))
	f.help(f.stdio.Stderr)
	return exitUsage
}

// help writes the help in the shared layout.
func (f *flags) help(w io.Writer) {
	fmt.Fprintf(w, "usage: sudokubot %s", f.name)
	if f.synopsis != "" {
		fmt.Fprintf(w, " %s", f.synopsis)
	}
	fmt.Fprintf(w, "\n\n%s\n", sentence(summaries[f.name]))
	if f.about != "" {
		fmt.Fprintln(w, strings.TrimRight(f.about, "\n"))
	}
	n := 0
	f.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		fmt.Fprintln(w, "\nflags: none")
		return
	}
	fmt.Fprintln(w, "\nflags:")
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}

// flagMessage words the flag package's errors as the rest of the CLI does:
// "-x: no such flag" rather than "flag provided but not defined: -x", and
// "-timeout soon: want a duration such as 10s or 2m" rather than "invalid
// value "soon" for flag -timeout: parse error".
func (f *flags) flagMessage(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return name + ": no such flag"
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return name + ": needs a value"
	}
	var value, name string
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if q, after, ok := strings.Cut(rest, " for flag -"); ok {
			value = q
			name, _, _ = strings.Cut(after, ":")
		}
	}
	fl := f.Lookup(name)
	if fl == nil {
		return msg
	}
	want := "a different value"
	switch kind, _ := flag.UnquoteUsage(fl); kind {
	case "duration":
		want = "a duration such as 10s or 2m"
	case "int", "uint":
		want = "a whole number"
	case "":
		want = "true or false"
	}
	return fmt.Sprintf("-%s %s: want %s", name, value, want)
}

// sentence capitalises s and ends it with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[size:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
