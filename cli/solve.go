package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	botcmd "sudokubot/commands"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

// runSolve solves puzzles from a file or standard input.
//
// Exit codes: 0 when every puzzle has exactly one solution, 1 when any has
// none, several, timed out or could not be read, 2 for bad flags.
func runSolve(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "solve", "[-line] [-batch] [-timeout 10s] [FILE]",
		"Reads a puzzle from FILE (or standard input) in any form the bot accepts, a picture\n"+
			"too, checks that it has exactly one solution, and prints it.\n"+
			"Exit status: 0 when every puzzle has exactly one solution, 1 otherwise, 2 bad usage.")
	line := fs.Bool("line", false, "print one line: the solution in one-line form, or none, multiple, timeout or error: MESSAGE")
	batch := fs.Bool("batch", false, "one puzzle per input line ('#' comments and blank lines skipped); one -line answer per puzzle, in order, using every core")
	timeout := fs.Duration("timeout", 10*time.Second, "give up on a puzzle after this long (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return fs.usageError("one puzzle file at most, got %d arguments", fs.NArg())
	}
	if *timeout < 0 {
		return fs.usageError("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	in, name, closeIn, err := openSolveInput(fs.Arg(0), stdio.Stdin)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot solve: %v\n", err)
		return 1
	}
	defer closeIn()
	if *batch {
		return solveBatch(ctx, in, name, *timeout, stdio)
	}
	// Read enough for a picture; a text that long fails to parse.
	data, err := io.ReadAll(io.LimitReader(in, vision.MaxBytes+1))
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot solve: read %s: %v\n", name, err)
		return 1
	}
	text, err := pictureText(ctx, string(data), name, stdio.Stderr)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot solve: %v\n", err)
		return 1
	}
	a := solvePuzzle(ctx, text, *timeout)
	if *line {
		fmt.Fprintln(stdio.Stdout, a.line())
	} else {
		a.report(stdio, name)
	}
	if a.ok() {
		return 0
	}
	return 1
}

// openSolveInput opens the named file, or stdin when name is "" or "-". It
// returns the reader, a name for messages and a function that closes it.
func openSolveInput(name string, stdin io.Reader) (io.Reader, string, func(), error) {
	if name == "" || name == "-" {
		if stdin == nil {
			return nil, "", nil, errors.New("no puzzle: give a FILE or pipe one in")
		}
		return stdin, "standard input", func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", nil, err
	}
	return f, name, func() { f.Close() }, nil
}

// solveAnswer is what became of one puzzle.
type solveAnswer struct {
	puzzle *sudoku.Grid // nil when the text could not be read
	res    sudoku.Result
	err    string // why the puzzle could not be solved at all (unreadable, clashing)
}

// solvePuzzle reads text as a puzzle and solves it with limit 2.
func solvePuzzle(ctx context.Context, text string, timeout time.Duration) solveAnswer {
	g, err := sudoku.Parse(text)
	if err != nil {
		return solveAnswer{err: err.Error()}
	}
	opts := sudoku.SolveOptions{Limit: 2}
	if timeout > 0 {
		opts.Deadline = time.Now().Add(timeout)
	}
	res := sudoku.SolveWith(ctx, g, opts)
	// Clashing givens have no solution; only then is the scan that names
	// the clashes worth its cost.
	if res.Status == sudoku.NoSolution {
		if clashes := g.Clashes(); len(clashes) > 0 {
			// A handful says what is wrong; a grid pasted in the wrong
			// shape clashes everywhere, and a screenful helps no one.
			const shown = 5
			var msgs []string
			for i, c := range clashes {
				if i == shown {
					msgs = append(msgs, fmt.Sprintf("and %d more", len(clashes)-shown))
					break
				}
				msgs = append(msgs, c.Describe(g.Shape, g.Alphabet))
			}
			return solveAnswer{puzzle: g, err: "the givens clash: " + strings.Join(msgs, "; ")}
		}
	}
	return solveAnswer{puzzle: g, res: res}
}

// ok reports whether the puzzle has exactly one solution.
func (a solveAnswer) ok() bool { return a.err == "" && a.res.Status == sudoku.Unique }

// line is the answer in -line form: the solution on one line in the
// puzzle's alphabet, or none, multiple, timeout, or error: MESSAGE.
func (a solveAnswer) line() string { return string(a.appendLine(nil)) }

// appendLine appends the -line form of the answer to dst, without the
// newline.
func (a solveAnswer) appendLine(dst []byte) []byte {
	if a.err != "" {
		return append(dst, "error: "+strings.Join(strings.Fields(a.err), " ")...)
	}
	switch a.res.Status {
	case sudoku.Unique, sudoku.Solved:
		return appendCells(dst, a.res.Solutions[0])
	case sudoku.Multiple:
		return append(dst, "multiple"...)
	case sudoku.Cancelled:
		return append(dst, "timeout"...)
	}
	return append(dst, "none"...)
}

// appendCells appends g in one-line form (as g.String does) to dst.
func appendCells(dst []byte, g *sudoku.Grid) []byte {
	a := g.Alphabet
	if len(a) == g.N() {
		// One byte a symbol: index the alphabet.
		for _, v := range g.Cells {
			if v == 0 || int(v) > len(a) {
				dst = append(dst, '.')
			} else {
				dst = append(dst, a[v-1])
			}
		}
		return dst
	}
	for _, v := range g.Cells {
		dst = utf8.AppendRune(dst, a.Symbol(int(v)))
	}
	return dst
}

// report prints the answer for a person: the board and a status line.
func (a solveAnswer) report(stdio IO, name string) {
	if a.err != "" {
		fmt.Fprintf(stdio.Stderr, "sudokubot solve: %s: %s\n", name, a.err)
		return
	}
	st := a.res.Stats
	work := fmt.Sprintf("%v, %s", roundSolveTime(st.Elapsed), botcmd.Plural(int(st.Guesses), "guess", "guesses"))
	switch a.res.Status {
	case sudoku.Unique:
		fmt.Fprint(stdio.Stdout, sudoku.Format(a.res.Solutions[0]))
		fmt.Fprintf(stdio.Stdout, "unique solution (%s)\n", work)
	case sudoku.Multiple:
		fmt.Fprint(stdio.Stdout, sudoku.Format(a.res.Solutions[0]))
		fmt.Fprintf(stdio.Stdout, "multiple solutions: this is one of them, the puzzle needs more givens (%s)\n", work)
	case sudoku.Cancelled:
		if len(a.res.Solutions) > 0 {
			// The search found a solution but ran out of time proving it
			// is the only one: still worth showing.
			fmt.Fprint(stdio.Stdout, sudoku.Format(a.res.Solutions[0]))
			fmt.Fprintf(stdio.Stdout, "timeout: found this solution, but not whether it is the only one (%s)\n", work)
			return
		}
		fmt.Fprintf(stdio.Stdout, "timeout: no answer after %s\n", work)
	default:
		fmt.Fprintf(stdio.Stdout, "no solution: the givens do not clash, but no grid fits them (%s)\n", work)
	}
}

// roundSolveTime keeps three significant digits or so: 212µs, 1.35ms, 2.5s.
func roundSolveTime(d time.Duration) time.Duration {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond)
	case d < time.Second:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(10 * time.Millisecond)
}

// solveBatchWindow bounds how many puzzles are read ahead of the one being
// printed, so a huge input streams in bounded memory. A worker takes a chunk
// of lines at a time, since handing out lines one by one would cost more
// than solving an easy 9x9: up to solveBatchChunk lines or solveBatchBytes
// bytes, so that big (slow) puzzles still spread over the cores.
const (
	solveBatchWindow = 4096
	solveBatchChunk  = 128
	solveBatchBytes  = 2048
)

// batchChunk is a run of input lines and, once a worker is done with it,
// their answers.
type batchChunk struct {
	text   string // the lines, each ended by a newline
	out    []byte // the answers, one line each
	counts batchCounts
	done   chan struct{}
}

// batchCounts counts the outcomes of a batch.
type batchCounts struct {
	total, unique, multiple, none, timeout, errors int
}

func (c *batchCounts) add(o batchCounts) {
	c.total += o.total
	c.unique += o.unique
	c.multiple += o.multiple
	c.none += o.none
	c.timeout += o.timeout
	c.errors += o.errors
}

// solve answers every line of the chunk.
func (ch *batchChunk) solve(ctx context.Context, timeout time.Duration) {
	rest := ch.text
	for rest != "" {
		i := strings.IndexByte(rest, '\n')
		text := rest[:i]
		rest = rest[i+1:]
		a := solvePuzzle(ctx, text, timeout)
		ch.out = append(a.appendLine(ch.out), '\n')
		ch.counts.total++
		switch {
		case a.err != "":
			ch.counts.errors++
		case a.res.Status == sudoku.Unique:
			ch.counts.unique++
		case a.res.Status == sudoku.Multiple:
			ch.counts.multiple++
		case a.res.Status == sudoku.Cancelled:
			ch.counts.timeout++
		default:
			ch.counts.none++
		}
	}
	close(ch.done)
}

// solveBatch answers one puzzle per line, in input order, on every core.
func solveBatch(ctx context.Context, in io.Reader, name string, timeout time.Duration, stdio IO) int {
	start := time.Now()
	jobs := make(chan *batchChunk)
	pending := make(chan *batchChunk, solveBatchWindow/solveBatchChunk)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ch := range jobs {
				ch.solve(ctx, timeout)
			}
		}()
	}
	// The reader hands out chunks and queues them in order; the printer
	// below prints them in the same order as they are done.
	var readErr error
	go func() {
		defer close(pending)
		defer close(jobs)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), sudoku.MaxInputBytes+1)
		var buf []byte
		lines := 0
		send := func() {
			ch := &batchChunk{text: string(buf), done: make(chan struct{})}
			pending <- ch
			jobs <- ch
			buf, lines = buf[:0], 0
		}
		for sc.Scan() {
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 || text[0] == '#' {
				continue
			}
			buf = append(append(buf, text...), '\n')
			if lines++; lines == solveBatchChunk || len(buf) >= solveBatchBytes {
				send()
			}
		}
		if lines > 0 {
			send()
		}
		readErr = sc.Err()
	}()
	w := bufio.NewWriterSize(stdio.Stdout, 64*1024)
	var counts batchCounts
	for ch := range pending {
		<-ch.done
		w.Write(ch.out)
		counts.add(ch.counts)
		if len(pending) == 0 {
			w.Flush()
		}
	}
	w.Flush()
	wg.Wait()
	code := 0
	if readErr != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot solve: read %s: %v\n", name, readErr)
		code = 1
	}
	elapsed := time.Since(start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(counts.total) / elapsed.Seconds()
	}
	fmt.Fprintf(stdio.Stderr, "%d puzzles in %v (%.0f puzzles/s on %d cores): %d unique, %d multiple, %d none, %d timeout, %d error\n",
		counts.total, roundSolveTime(elapsed), rate, runtime.GOMAXPROCS(0),
		counts.unique, counts.multiple, counts.none, counts.timeout, counts.errors)
	if counts.unique != counts.total {
		code = 1
	}
	return code
}
