package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"sudokubot/sudoku"
)

// runHint prints the next logical step of a puzzle, at the asked level.
func runHint(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "hint", "[-reveal 1|2|3] [-json] [-timeout 1m] [FILE]",
		"Reads the puzzle in FILE (or on stdin), a picture too. A grid pasted with pencil marks\n"+
			"is a position: the hint reasons from its candidates. Cells are named as on the boards:\n"+
			"rows A, B, C… from the top, columns 1, 2, 3… from the left.")
	reveal := fs.Int("reveal", 3, "how much to give away: 1 the technique, 2 where to look, 3 the full step")
	asJSON := fs.Bool("json", false, "print the hint as one JSON object: the next step, and every step up to and including the next placement")
	timeout := fs.Duration("timeout", time.Minute, "give up after this long (0: never)")
	for _, a := range args {
		if a == "--" {
			break
		}
		if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && n == "level" {
			// -level is the difficulty in generate and daily; here it
			// used to be how much to give away.
			return fs.usageError("%s: no such flag; how much the hint gives away is -reveal 1|2|3 (-level is a difficulty, in generate and daily)", a)
		}
	}
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if *reveal < 1 || *reveal > 3 {
		return fs.usageError("-reveal %d: want 1 (the technique), 2 (where to look) or 3 (the full step)", *reveal)
	}
	if fs.NArg() > 1 {
		return fs.usageError("one puzzle file at most, got %d arguments", fs.NArg())
	}
	if *timeout < 0 {
		return fs.usageError("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	text, name, err := readLogicInput(fs.Arg(0), stdio.Stdin)
	if err == nil {
		text, err = pictureText(ctx, text, name, stdio.Stderr)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot hint: %v\n", err)
		return 1
	}
	g, err := sudoku.Parse(text)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot hint: %s: %v\n", name, err)
		return 1
	}
	h, err := sudoku.Hint(ctx, g, g, sudoku.HintLevel(*reveal))
	if errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stdio.Stderr, "sudokubot hint: %s: no hint within %v (-timeout)\n", name, *timeout)
		return exitFail
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot hint: %v\n", err)
		return 1
	}
	if !*asJSON {
		fmt.Fprintln(stdio.Stdout, h.Text)
		return 0
	}
	enc := json.NewEncoder(stdio.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(newHintJSON(g, h)); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot hint: %v\n", err)
		return 1
	}
	return 0
}

// hintJSON is the -json form of a hint: the next step at the top level, and
// every step up to and including the next placement in Steps, so a client
// can apply them all (placements filled, eliminations taken off its pencil
// marks) and ask again with the candidates it then has.
type hintJSON struct {
	Technique    string          `json:"technique"`
	Score        float64         `json:"score"`
	Placements   []candidateJSON `json:"placements"`
	Eliminations []candidateJSON `json:"eliminations"`
	Explanation  string          `json:"explanation"`
	// Hint is the text at the asked level.
	Hint  string     `json:"hint"`
	Steps []stepJSON `json:"steps"`
	// Wrong names the filled cells that disagree with the solution;
	// WrongMarks the erased candidates that are the solution's values.
	Wrong      []string        `json:"wrong,omitempty"`
	WrongMarks []candidateJSON `json:"wrong_marks,omitempty"`
	// NeedsTrial is true when no technique applies: the step reveals a cell.
	NeedsTrial bool `json:"needs_trial,omitempty"`
}

type stepJSON struct {
	Technique    string          `json:"technique"`
	Score        float64         `json:"score"`
	Placements   []candidateJSON `json:"placements"`
	Eliminations []candidateJSON `json:"eliminations"`
	Explanation  string          `json:"explanation"`
}

type candidateJSON struct {
	Cell  string `json:"cell"`
	Value string `json:"value"`
}

func newHintJSON(g *sudoku.Grid, h sudoku.HintResult) hintJSON {
	out := hintJSON{Hint: h.Text, Placements: []candidateJSON{}, Eliminations: []candidateJSON{}, Steps: []stepJSON{},
		NeedsTrial: h.NeedsTrial}
	for _, st := range h.Steps {
		out.Steps = append(out.Steps, stepJSON{
			Technique: st.Technique, Score: st.Score, Explanation: st.Explanation,
			Placements: candidatesJSON(g, st.Placements), Eliminations: candidatesJSON(g, st.Eliminations),
		})
	}
	if len(out.Steps) > 0 {
		first := out.Steps[0]
		out.Technique, out.Score, out.Explanation = first.Technique, first.Score, first.Explanation
		out.Placements, out.Eliminations = first.Placements, first.Eliminations
	} else {
		out.Explanation = h.Text
	}
	for _, c := range h.Wrong {
		out.Wrong = append(out.Wrong, g.Shape.CellName(c))
	}
	if len(h.WrongMarks) > 0 {
		out.WrongMarks = candidatesJSON(g, h.WrongMarks)
	}
	return out
}

func candidatesJSON(g *sudoku.Grid, cs []sudoku.Candidate) []candidateJSON {
	out := make([]candidateJSON, len(cs))
	for i, c := range cs {
		out[i] = candidateJSON{Cell: g.Shape.CellName(c.Cell), Value: string(g.Alphabet.Symbol(c.Value))}
	}
	return out
}

// readLogicInput reads the text of FILE, or stdin when name is "" or "-",
// and returns it with a name to use in messages.
func readLogicInput(name string, stdin io.Reader) (string, string, error) {
	var data []byte
	var err error
	if name == "" || name == "-" {
		if stdin == nil {
			return "", "", fmt.Errorf("no FILE given and no standard input")
		}
		data, err = io.ReadAll(stdin)
		name = "standard input"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", "", err
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", "", fmt.Errorf("%s is empty: give a puzzle, e.g. 81 characters with . for blanks", name)
	}
	return string(data), name, nil
}
