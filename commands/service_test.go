package commands

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/render"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// Puzzles used across the tests.
const (
	// A classic with one solution.
	uniquePuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	uniqueSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	// Two or more solutions (from the serg benchmark set).
	multiPuzzle = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
	// No clue clashes, but r1c9 can only be 9 and column 9 already has one.
	noSolutionPuzzle = "12345678.........9..............................................................."
	// Two 5s in row 1, box 1.
	clashPuzzle = "55......." + "........." + "........." + "........." + "........." + "........." + "........." + "........." + "........."
)

func newTestService(t *testing.T, cfg Config) *Service {
	t.Helper()
	return New(cfg)
}

// slash builds a slash-command request.
func slash(name string, opts ...string) Request {
	req := Request{Kind: SlashCommand, Command: name, Options: map[string]string{}, UserID: "u1", GuildID: "g1", ChannelID: "c1", Now: time.Unix(1700000000, 0)}
	for i := 0; i+1 < len(opts); i += 2 {
		req.Options[opts[i]] = opts[i+1]
	}
	return req
}

func click(customID string) Request {
	return Request{Kind: Component, CustomID: customID, UserID: "u1", GuildID: "g1", ChannelID: "c1"}
}

// allText gathers every piece of text a response shows, for "does it say X"
// checks.
func allText(r Response) string {
	var b strings.Builder
	b.WriteString(r.Content)
	for _, e := range r.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description + "\n" + e.Footer)
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + ": " + f.Value)
		}
	}
	for _, l := range LayoutLines(r.Blocks) {
		b.WriteString("\n" + l)
	}
	for _, f := range r.FollowUps {
		b.WriteString("\n" + allText(f))
	}
	return b.String()
}

func buttons(r Response) []Button {
	out := LayoutButtons(r.Blocks)
	for _, row := range r.Components {
		out = append(out, row.Buttons...)
	}
	return out
}

func findButton(t testing.TB, r Response, label string) Button {
	t.Helper()
	for _, b := range buttons(r) {
		if b.Label == label {
			return b
		}
	}
	t.Fatalf("no %q button in %+v", label, buttons(r))
	return Button{}
}

// checkLimits fails when r breaks one of Discord's limits.
func checkLimits(t *testing.T, r Response) {
	t.Helper()
	if len(r.Choices) > MaxChoices {
		t.Errorf("%d autocomplete choices, limit %d", len(r.Choices), MaxChoices)
	}
	for _, c := range r.Choices {
		if n, v := len([]rune(c.Name)), len([]rune(c.Value)); n < 1 || n > MaxChoiceName || v < 1 || v > MaxChoiceName {
			t.Errorf("autocomplete choice %q = %q: name or value outside 1 to %d characters", c.Name, c.Value, MaxChoiceName)
		}
	}
	if len([]rune(r.Content)) > maxContent {
		t.Errorf("content is %d characters, limit %d", len([]rune(r.Content)), maxContent)
	}
	if len(r.Embeds) > 10 {
		t.Errorf("%d embeds, limit 10", len(r.Embeds))
	}
	total := 0
	for _, e := range r.Embeds {
		total += len([]rune(e.Title)) + len([]rune(e.Description)) + len([]rune(e.Footer))
		if len([]rune(e.Description)) > maxEmbedDescription {
			t.Errorf("embed description is %d characters, limit %d", len([]rune(e.Description)), maxEmbedDescription)
		}
		if len(e.Fields) > maxEmbedFields {
			t.Errorf("%d embed fields, limit %d", len(e.Fields), maxEmbedFields)
		}
		for _, f := range e.Fields {
			total += len([]rune(f.Name)) + len([]rune(f.Value))
			if len([]rune(f.Value)) > maxEmbedFieldValue || f.Value == "" || f.Name == "" {
				t.Errorf("embed field %q has a value of %d characters (1..%d allowed)", f.Name, len([]rune(f.Value)), maxEmbedFieldValue)
			}
		}
		if e.Image != "" {
			name := strings.TrimPrefix(e.Image, "attachment://")
			found := false
			for _, f := range r.Files {
				found = found || f.Name == name
			}
			if !found {
				t.Errorf("embed image %q names no attached file", e.Image)
			}
		}
	}
	if total > maxEmbedTotal {
		t.Errorf("embeds hold %d characters, limit %d", total, maxEmbedTotal)
	}
	if len(r.Components) > 5 {
		t.Errorf("%d action rows, limit 5", len(r.Components))
	}
	for _, row := range r.Components {
		if len(row.Buttons) == 0 || len(row.Buttons) > 5 {
			t.Errorf("action row with %d buttons (1..5 allowed)", len(row.Buttons))
		}
		for _, b := range row.Buttons {
			if len(b.CustomID) == 0 || len(b.CustomID) > maxCustomID {
				t.Errorf("button %q custom id is %d characters (1..%d allowed): %q", b.Label, len(b.CustomID), maxCustomID, b.CustomID)
			}
			if len(b.Label) > 80 {
				t.Errorf("button label %q longer than 80", b.Label)
			}
		}
	}
	if m := r.Modal; m != nil {
		if len(m.CustomID) > maxCustomID || len(m.Title) > 45 || len(m.Inputs) == 0 || len(m.Inputs) > 5 {
			t.Errorf("bad modal %+v", m)
		}
	}
	for _, f := range r.FollowUps {
		checkLimits(t, f)
	}
}

func TestSpecs(t *testing.T) {
	s := newTestService(t, Config{})
	specs := s.Specs()
	want := map[string]CommandType{
		"solve": ChatInput, "hint": ChatInput, "check": ChatInput, "generate": ChatInput, "help": ChatInput, "watch": ChatInput,
		"Solve Sudoku": MessageAction, "Sudoku hint": MessageAction, "Check Sudoku": MessageAction,
	}
	got := map[string]CommandType{}
	slashName := regexp.MustCompile(`^[-_a-z0-9]{1,32}$`)
	for _, sp := range specs {
		got[sp.Name] = sp.Type
		if sp.Type == ChatInput {
			if !slashName.MatchString(sp.Name) {
				t.Errorf("slash command name %q is not valid for Discord", sp.Name)
			}
			if n := len([]rune(sp.Description)); n < 1 || n > 100 {
				t.Errorf("/%s description has %d characters (1..100 allowed)", sp.Name, n)
			}
		} else if sp.Description != "" {
			t.Errorf("message command %q has a description; Discord rejects it", sp.Name)
		}
		if len(sp.Options) > 25 {
			t.Errorf("/%s has %d options", sp.Name, len(sp.Options))
		}
		seenOptional := false
		for _, o := range sp.Options {
			if !slashName.MatchString(o.Name) {
				t.Errorf("/%s option %q is not a valid name", sp.Name, o.Name)
			}
			if n := len([]rune(o.Description)); n < 1 || n > 100 {
				t.Errorf("/%s option %s description has %d characters", sp.Name, o.Name, n)
			}
			if o.Required && seenOptional {
				t.Errorf("/%s: required option %s after an optional one", sp.Name, o.Name)
			}
			seenOptional = seenOptional || !o.Required
			if len(o.Choices) > 25 {
				t.Errorf("/%s option %s has %d choices", sp.Name, o.Name, len(o.Choices))
			}
		}
	}
	for name, typ := range want {
		if got[name] != typ {
			t.Errorf("Specs() has %q of type %d, want type %d", name, got[name], typ)
		}
	}
	options := map[string][]string{}
	for _, sp := range specs {
		for _, o := range sp.Options {
			options[sp.Name] = append(options[sp.Name], o.Name)
		}
	}
	for cmd, opts := range map[string]string{
		"solve": "puzzle output private image", "hint": "puzzle image", "check": "puzzle image",
		"generate": "level size symmetry output",
	} {
		if g := strings.Join(options[cmd], " "); g != opts {
			t.Errorf("/%s options = %q, want %q", cmd, g, opts)
		}
	}
}

func TestSolve(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	tests := []struct {
		name      string
		req       Request
		ephemeral bool
		says      []string // every one must appear in the reply's text
	}{
		{"unique text", slash("solve", "puzzle", uniquePuzzle, "output", "text"), false,
			[]string{"`" + uniqueSolution + "`", "Solved", "Solved in", "```"}},
		{"unique image", slash("solve", "puzzle", uniquePuzzle), false, []string{uniqueSolution}},
		{"private", slash("solve", "puzzle", uniquePuzzle, "private", "true"), true, []string{uniqueSolution}},
		{"grid over lines", slash("solve", "puzzle", spread(uniquePuzzle)), false, []string{uniqueSolution}},
		{"multiple", slash("solve", "puzzle", multiPuzzle, "output", "text"), false,
			[]string{"More than one solution", "at least two solutions", "marked cells"}},
		{"none", slash("solve", "puzzle", noSolutionPuzzle), false, []string{"No solution", "mistyped"}},
		{"complete", slash("solve", "puzzle", uniqueSolution), false, []string{"already complete", uniqueSolution}},
		{"clash", slash("solve", "puzzle", clashPuzzle, "output", "text"), true,
			[]string{"5 is twice in row A (A1, A2)", "5 is twice in box 1", "5!"}},
		{"bad symbol", slash("solve", "puzzle", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7Z"), true,
			[]string{"couldn't read", "line 1, column 81"}},
		{"too few cells", slash("solve", "puzzle", "123"), true, []string{"couldn't read", "found 3 cells", "81 (9x9)", "paste every cell"}},
		{"too long", slash("solve", "puzzle", strings.Repeat(".", DefaultMaxInput+1000)), true,
			[]string{fmt.Sprintf("%d characters", DefaultMaxInput+1000), fmt.Sprintf("at most %d", DefaultMaxInput)}},
		{"a link alone", slash("solve", "puzzle", "https://sudoku.com/hard/"), true,
			[]string{"can't open links like `sudoku.com/hard/`", "attach a screenshot"}},
		{"a link with words", slash("solve", "puzzle", "can you do this one https://www.nytimes.com/puzzles/sudoku/hard?x=1"), true,
			[]string{"can't open links like `www.nytimes.com/puzzles/sudoku/hard?x=1`", "Paste the grid itself"}},
		{"a long link", slash("solve", "puzzle", "https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANqA5gJwPYBsIwDINgGCHKw9MgH3gGEBcQ9Y4AjgMdQAmANgH2jwGAcgHAAPA"), true,
			[]string{"`f-puzzles.com/?load=N4IgzglgXgpiBcBOANqA…`"}},
		{"a link to the puzzle", slash("solve", "puzzle", "https://www.sudokuwiki.org/sudoku.htm?bd="+strings.ReplaceAll(uniquePuzzle, ".", "0")), false,
			[]string{uniqueSolution}},
		{"a grid beside a link", slash("solve", "puzzle", uniquePuzzle+" (from https://example.com/daily?id=1234)"), false,
			[]string{uniqueSolution}},
		{"a bad grid beside a link", slash("solve", "puzzle", uniquePuzzle[:80]+" https://example.com/"), true,
			[]string{"couldn't read", "found 80 cells"}},
		{"bad output", slash("solve", "puzzle", uniquePuzzle, "output", "gif"), true, []string{`There is no output "gif": pick image or text.`}},
		{"message command", Request{Kind: MessageCommand, Command: "Solve Sudoku", Text: spread(uniquePuzzle)}, false,
			[]string{uniqueSolution}},
		{"modal submit", Request{Kind: ModalSubmit, CustomID: "ask:solve:output=text,private=true", Fields: map[string]string{"puzzle": uniquePuzzle}}, true,
			[]string{uniqueSolution, "```"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, tt.req)
			checkLimits(t, r)
			text := allText(r)
			for _, want := range tt.says {
				if !strings.Contains(text, want) {
					t.Errorf("Handle(%s) says:\n%s\nwant it to contain %q", tt.name, text, want)
				}
			}
			if r.Ephemeral != tt.ephemeral {
				t.Errorf("Handle(%s).Ephemeral = %v, want %v", tt.name, r.Ephemeral, tt.ephemeral)
			}
			if r.Modal != nil {
				t.Errorf("Handle(%s) opened a modal", tt.name)
			}
		})
	}
}

// spread writes a one-line 9x9 as nine lines with spaces, the way people
// paste grids.
func spread(line string) string {
	var b strings.Builder
	for r := 0; r < 9; r++ {
		for c := 0; c < 9; c++ {
			b.WriteByte(line[r*9+c])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSolveMarksDifferingCells(t *testing.T) {
	s := newTestService(t, Config{})
	r := s.Handle(context.Background(), slash("solve", "puzzle", multiPuzzle, "output", "text"))
	text := allText(r)
	if !strings.Contains(text, "*") {
		t.Fatalf("multiple-solution reply marks no cell:\n%s", text)
	}
	// The one-line solution shown must be a valid completion of the puzzle.
	m := regexp.MustCompile("`([1-9]{81})`").FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no one-line solution in:\n%s", text)
	}
	for i := range multiPuzzle {
		if multiPuzzle[i] != '.' && multiPuzzle[i] != m[1][i] {
			t.Fatalf("shown solution %s changes given %d", m[1], i)
		}
	}
	g, err := sudoku.Parse(m[1])
	if err != nil || len(g.Clashes()) != 0 {
		t.Fatalf("shown solution %s is not valid: %v %v", m[1], err, g.Clashes())
	}
}

func TestModalPath(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	for _, cmd := range []string{"solve", "hint", "check"} {
		t.Run(cmd, func(t *testing.T) {
			req := slash(cmd, "output", "text")
			if cmd != "solve" {
				req = slash(cmd)
			}
			if s.Plan(ctx, req).Heavy {
				t.Errorf("Plan(/%s without puzzle).Heavy = true; a modal can't follow a deferral", cmd)
			}
			r := s.Handle(ctx, req)
			checkLimits(t, r)
			if r.Modal == nil {
				t.Fatalf("/%s without puzzle = %+v, want a modal", cmd, r)
			}
			in := r.Modal.Inputs[0]
			if !in.Paragraph || in.CustomID != "puzzle" {
				t.Errorf("modal input = %+v, want a paragraph named puzzle", in)
			}
			sub := Request{Kind: ModalSubmit, CustomID: r.Modal.CustomID, Fields: map[string]string{in.CustomID: spread(uniquePuzzle)}}
			if p := s.Plan(ctx, sub); !p.Heavy {
				t.Errorf("Plan(modal submit) = %+v, want heavy", p)
			}
			got := s.Handle(ctx, sub)
			checkLimits(t, got)
			if got.Modal != nil || allText(got) == "" {
				t.Fatalf("modal submit for /%s = %+v", cmd, got)
			}
			if cmd == "solve" && !strings.Contains(allText(got), "```") {
				t.Errorf("/solve output:text through the modal lost its option:\n%s", allText(got))
			}
		})
	}
}

// TestTimeout runs hard 25x25 puzzles (minimal ones that SAT solvers need
// seconds for) under a 50 ms deadline: the reply must come soon after it
// and say the search stopped. Should the solver ever finish one in time, the
// reply must be a real answer; at least one of the three must stop.
func TestTimeout(t *testing.T) {
	data, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 50 * time.Millisecond
	s := newTestService(t, Config{SolveTimeout: deadline})
	for _, cmd := range []string{"solve", "check", "hint"} {
		t.Run(cmd, func(t *testing.T) {
			stopped := 0
			for i, puzzle := range strings.Fields(string(data)) {
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				start := time.Now()
				r := s.Handle(ctx, slash(cmd, "puzzle", puzzle))
				took := time.Since(start)
				cancel()
				if took > time.Second {
					t.Errorf("/%s on hard 25x25 #%d returned after %v, want soon after the %v deadline", cmd, i+1, took, deadline)
				}
				checkLimits(t, r)
				text := allText(r)
				switch {
				case strings.Contains(text, "topped after 50 ms") && strings.Contains(text, "too hard for me to finish"):
					stopped++
				case strings.Contains(text, "Solved") || strings.Contains(text, "Solutions: 1") || strings.Contains(text, "Hint · 1"):
				case strings.Contains(text, "A solution") || strings.Contains(text, "Solutions: At least 1"):
					// The first solution came in time, the proof did not.
				default:
					t.Errorf("/%s on hard 25x25 #%d says:\n%s\nwant the stopped-after message or an answer", cmd, i+1, text)
				}
			}
			if stopped == 0 {
				t.Errorf("/%s finished every hard 25x25 within %v; the timeout path went untested", cmd, deadline)
			}
		})
	}
}

// firstOnly is a search that its deadline stops right after the first
// solution: sudoku.Solve for one solution, reported as cancelled.
func firstOnly(ctx context.Context, g *sudoku.Grid, limit int) sudoku.Result {
	r := sudoku.Solve(ctx, g, 1)
	if len(r.Solutions) > 0 {
		r.Status = sudoku.Cancelled
	}
	return r
}

// TestUnprovenSolution checks the answers when the deadline stops the
// search after a first solution, before it could prove it the only one:
// /solve shows that solution, in public, saying it is unchecked; /check
// says there is at least one. A search stopped because the bot is
// restarting still says so.
func TestUnprovenSolution(t *testing.T) {
	s := newTestService(t, Config{SolveTimeout: 5 * time.Second})
	s.solveFn = firstOnly
	g := withHoles(patternGrid(sudoku.Shape25), 120, 2)
	want := sudoku.Solve(context.Background(), g, 2)
	if want.Status != sudoku.Unique {
		t.Fatalf("test grid: %v, want a unique solution", want.Status)
	}
	for _, output := range []string{outputText, outputImage} {
		r := s.Handle(context.Background(), slash("solve", "puzzle", g.String(), optOutput, output))
		checkLimits(t, r)
		if r.Ephemeral || len(r.Embeds) != 1 {
			t.Fatalf("output:%s: ephemeral %v, %d embeds; want one public embed", output, r.Ephemeral, len(r.Embeds))
		}
		e := r.Embeds[0]
		if !strings.HasPrefix(e.Title, "A solution · 25x25") || e.Color != colorWarn {
			t.Errorf("output:%s: title %q colour %#x, want \"A solution · 25x25 …\" in the warning colour", output, e.Title, e.Color)
		}
		if !strings.Contains(e.Description, "stopped after 5 s, before I could check that it is the only one") {
			t.Errorf("output:%s: description %q does not say the solution is unchecked", output, e.Description)
		}
		if !strings.Contains(e.Description, want.Solutions[0].String()) {
			t.Errorf("output:%s: description %q lacks the solution %s", output, e.Description, want.Solutions[0])
		}
		if output == outputImage && len(r.Files) != 1 {
			t.Errorf("output:image: %d files, want the solved board", len(r.Files))
		}
	}
	text := allText(s.Handle(context.Background(), slash("check", "puzzle", g.String())))
	if !strings.Contains(text, "Solutions: At least 1: I found one, then stopped after 5 s") {
		t.Errorf("/check says:\n%s\nwant at least one solution, unchecked", text)
	}
	restarting, stop := context.WithCancel(context.Background())
	stop()
	text = allText(s.Handle(restarting, slash("solve", "puzzle", g.String())))
	if strings.Contains(text, "A solution") || !strings.Contains(text, "restarting") {
		t.Errorf("/solve while restarting says:\n%s\nwant the restarting notice", text)
	}
	text = allText(s.Handle(restarting, slash("check", "puzzle", g.String())))
	if strings.Contains(text, "At least 1") || !strings.Contains(text, "restarting") {
		t.Errorf("/check while restarting says:\n%s\nwant the restarting notice", text)
	}
}

func TestCheck(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	tests := []struct {
		name   string
		puzzle string
		says   []string
	}{
		{"unique", uniquePuzzle, []string{"Clues: 30 of 81", "Solutions: 1", "Clashes: None", "Difficulty:", "Symmetry: 180° rotation"}},
		{"multiple", multiPuzzle, []string{"Solutions: 2 or more"}},
		{"none", noSolutionPuzzle, []string{"Solutions: 0", "Symmetry: None"}},
		{"clash", clashPuzzle, []string{"Clashes: - 5 is twice in row A", "Solutions: 0", "Clues: 2 of 81"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, slash("check", "puzzle", tt.puzzle))
			checkLimits(t, r)
			text := allText(r)
			for _, want := range tt.says {
				if !strings.Contains(text, want) {
					t.Errorf("/check %s says:\n%s\nwant %q", tt.name, text, want)
				}
			}
			if strings.Contains(text, uniqueSolution) {
				t.Errorf("/check gave the solution away")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	s := newTestService(t, Config{})
	r := s.Handle(context.Background(), slash("help"))
	checkLimits(t, r)
	text := allText(r)
	for _, want := range []string{"/solve", "/hint", "/check", "/generate", "Solve Sudoku", "one line", "5 s"} {
		if !strings.Contains(text, want) {
			t.Errorf("/help lacks %q:\n%s", want, text)
		}
	}
	if heavy := s.Plan(context.Background(), slash("help")).Heavy; !r.Ephemeral || heavy {
		t.Errorf("/help: Ephemeral = %v, Heavy = %v; want ephemeral and light", r.Ephemeral, heavy)
	}
}

func TestUnknownRequests(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	tests := []struct {
		name string
		req  Request
		says string
	}{
		{"unknown command", slash("nope"), "don't know the command"},
		{"unknown button", click("zzz:1"), "no longer works"},
		{"empty custom id", click(""), "no longer works"},
		{"mangled hint state", click("hint:2:u:!!!"), "no longer works"},
		{"hint level out of range", click("hint:7:u:33p" + "AA"), "no longer works"},
		{"expired state", click("hint:2:u:~zz"), "expired"},
		{"act with no state", click("act:solve"), "no longer works"},
		{"modal of unknown command", Request{Kind: ModalSubmit, CustomID: "ask:nope:", Fields: map[string]string{"puzzle": uniquePuzzle}}, "no longer works"},
		{"bad seed id", click("gseed:x:1:33:1"), "no longer works"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, tt.req)
			checkLimits(t, r)
			if !strings.Contains(allText(r), tt.says) || !r.Ephemeral {
				t.Errorf("Handle(%+v) = %+v, want an ephemeral reply saying %q", tt.req, r, tt.says)
			}
		})
	}
}

func TestStateRoundTrip(t *testing.T) {
	s := newTestService(t, Config{StateCacheSize: 2})
	mustParse := func(text string) *sudoku.Grid {
		g, err := sudoku.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	p9 := mustParse(uniquePuzzle)
	pos9 := mustParse(uniqueSolution)
	data, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	p25 := mustParse(strings.Fields(string(data))[0])
	letters := p9.Clone()
	letters.Alphabet = "AELMNOSTW"
	tests := []struct {
		name    string
		st      gridState
		inCache bool
	}{
		{"9x9 puzzle", gridState{Puzzle: p9}, false},
		{"9x9 position", gridState{Puzzle: p9, Position: pos9}, false},
		{"own alphabet", gridState{Puzzle: letters, Position: letters}, false},
		{"empty 4x4", gridState{Puzzle: sudoku.New(sudoku.Shape4)}, false},
		{"25x25", gridState{Puzzle: p25, Position: p25}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := s.customID("hint:3:u", tt.st)
			if len(id) > maxCustomID {
				t.Fatalf("customID = %d characters: %q", len(id), id)
			}
			if got := strings.Contains(id, ":~"); got != tt.inCache {
				t.Errorf("customID(%s) = %q: in cache %v, want %v", tt.name, id, got, tt.inCache)
			}
			head, st, err := s.splitCustomID(id, 3)
			if err != nil {
				t.Fatalf("splitCustomID(%q): %v", id, err)
			}
			if strings.Join(head, ":") != "hint:3:u" {
				t.Errorf("head = %v", head)
			}
			if !st.Puzzle.Equal(tt.st.Puzzle) || st.Puzzle.Alphabet != tt.st.Puzzle.Alphabet {
				t.Errorf("puzzle = %s, want %s", st.Puzzle, tt.st.Puzzle)
			}
			if (st.Position == nil) != (tt.st.Position == nil) || (st.Position != nil && !st.Position.Equal(tt.st.Position)) {
				t.Errorf("position = %v, want %v", st.Position, tt.st.Position)
			}
		})
	}
	// The cache holds two states: the third evicts the first.
	ids := []string{s.customID("x", gridState{Puzzle: p25}), s.customID("x", gridState{Puzzle: p25}), s.customID("x", gridState{Puzzle: p25})}
	if _, _, err := s.splitCustomID(ids[0], 1); !errors.Is(err, errExpired) {
		t.Errorf("oldest cached state: err = %v, want errExpired", err)
	}
	if _, _, err := s.splitCustomID(ids[2], 1); err != nil {
		t.Errorf("newest cached state: %v", err)
	}
}

func FuzzDecodeState(f *testing.F) {
	g, _ := sudoku.Parse(uniquePuzzle)
	f.Add(encodeState(gridState{Puzzle: g, Position: g}))
	f.Add(encodeState(gridState{Puzzle: g}))
	f.Add("33q")
	f.Add("pp.AB")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := decodeState(text)
		if err != nil {
			return
		}
		if !st.Puzzle.Shape.Valid() || len(st.Puzzle.Cells) != st.Puzzle.Shape.Size() {
			t.Fatalf("decodeState(%q) gave a bad grid", text)
		}
		for _, v := range st.Puzzle.Cells {
			if int(v) > st.Puzzle.N() {
				t.Fatalf("decodeState(%q) gave value %d", text, v)
			}
		}
	})
}

// TestCustomIDsFit builds button ids for random grids of every shape, with
// and without a position and with the longest head used, and checks that
// every one fits Discord's 100 characters and reads back.
func TestCustomIDsFit(t *testing.T) {
	s := newTestService(t, Config{})
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []sudoku.Shape{sudoku.Shape4, sudoku.Shape6, sudoku.Shape8, sudoku.Shape9, sudoku.Shape12, sudoku.Shape16, sudoku.Shape25, {BoxRows: 3, BoxCols: 2}, {BoxRows: 2, BoxCols: 5}}
	for _, shape := range shapes {
		for i := 0; i < 50; i++ {
			puzzle := sudoku.New(shape)
			position := sudoku.New(shape)
			for c := range puzzle.Cells {
				switch rng.IntN(3) {
				case 0:
					v := uint8(1 + rng.IntN(shape.N()))
					puzzle.Cells[c], position.Cells[c] = v, v
				case 1:
					position.Cells[c] = uint8(1 + rng.IntN(shape.N()))
				}
			}
			for _, st := range []gridState{{Puzzle: puzzle}, {Puzzle: puzzle, Position: position}} {
				for _, head := range []string{hintPrefix + ":3:u", nextPrefix, actPrefix + ":check", solPrefix} {
					id := s.customID(head, st)
					if len(id) > maxCustomID {
						t.Fatalf("%s: customID is %d characters: %q", shape, len(id), id)
					}
					got, back, err := s.splitCustomID(id, strings.Count(head, ":")+1)
					if err != nil || strings.Join(got, ":") != head || !back.Puzzle.Equal(st.Puzzle) ||
						(st.Position != nil && !back.Position.Equal(st.Position)) {
						t.Fatalf("%s: %q did not read back: %v", shape, id, err)
					}
				}
			}
		}
	}
}

// TestConcurrentHandle drives one Service from many goroutines; run with
// -race.
func TestConcurrentHandle(t *testing.T) {
	s := newTestService(t, Config{StateCacheSize: 8})
	ctx := context.Background()
	data, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	big, _ := sudoku.Parse(strings.Fields(string(data))[0])
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			reqs := []Request{
				slash("solve", "puzzle", uniquePuzzle),
				slash("check", "puzzle", multiPuzzle),
				slash("help"),
				mention(uniquePuzzle, i%2 == 0),
			}
			for _, req := range reqs {
				if r := s.Handle(ctx, req); allText(r) == "" && req.Mentioned {
					t.Errorf("empty reply to %+v", req)
				}
			}
			id := s.customID("x", gridState{Puzzle: big})
			s.splitCustomID(id, 1)
			s.settings.SetWatched(ctx, "g", strconv.Itoa(i), true)
		})
	}
	wg.Wait()
}

// patternGrid returns a complete grid of a square shape: row r is the
// first row shifted by the usual band pattern.
func patternGrid(shape sudoku.Shape) *sudoku.Grid {
	g := sudoku.New(shape)
	n, b := shape.N(), shape.BoxRows
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			g.Set(r, c, (r*b+r/b+c)%n+1)
		}
	}
	return g
}

// withHoles empties up to k random cells of a copy of g, keeping each hole
// only while the puzzle keeps a single solution.
func withHoles(g *sudoku.Grid, k int, seed uint64) *sudoku.Grid {
	out := g.Clone()
	rng := rand.New(rand.NewPCG(seed, seed))
	for range k {
		i := rng.IntN(len(out.Cells))
		v := out.Cells[i]
		out.Cells[i] = 0
		if sudoku.Solve(context.Background(), out, 2).Status != sudoku.Unique {
			out.Cells[i] = v
		}
	}
	return out
}

// TestBigGrids checks that replies about 16x16 and 25x25 grids stay
// within Discord's limits in both outputs, with the text board falling back
// to a picture where it can't fit.
func TestBigGrids(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	full16, full25 := patternGrid(sudoku.Shape16), patternGrid(sudoku.Shape25)
	for _, tt := range []struct {
		name, puzzle, solution string
	}{
		{"16x16", withHoles(full16, 80, 1).String(), full16.String()},
		{"25x25", withHoles(full25, 150, 2).String(), full25.String()},
	} {
		// A box-drawn 25x25 is over 4,000 bytes but under 4,000 characters:
		// the limit counts characters.
		t.Run(tt.name+" pasted as a box-drawn board", func(t *testing.T) {
			g, _ := sudoku.Parse(tt.puzzle)
			text := render.FormatGrid(g, render.TextOptions{})
			if r := s.Handle(ctx, slash("solve", "puzzle", text)); !strings.Contains(allText(r), tt.solution) {
				t.Errorf("/solve of a box-drawn %s says:\n%s", tt.name, allText(r))
			}
		})
		for _, output := range []string{"text", "image"} {
			t.Run(tt.name+" "+output, func(t *testing.T) {
				r := s.Handle(ctx, slash("solve", "puzzle", tt.puzzle, "output", output))
				checkLimits(t, r)
				text := allText(r)
				if !strings.Contains(text, "Solved") {
					t.Fatalf("/solve %s says:\n%s", tt.name, text)
				}
				if tt.solution != "" && !strings.Contains(text, tt.solution) {
					t.Errorf("/solve %s lacks the one-line solution", tt.name)
				}
				if len(r.Files) == 0 && !strings.Contains(text, "```") {
					t.Errorf("/solve %s output:%s shows no board", tt.name, output)
				}
				hint := s.Handle(ctx, slash("hint", "puzzle", tt.puzzle))
				checkLimits(t, hint)
			})
		}
	}
}

func TestHelpMentionsPlayWhenPresent(t *testing.T) {
	without := allText(newTestService(t, Config{}).Handle(context.Background(), slash("help")))
	if strings.Contains(without, "/play") {
		t.Errorf("/help mentions /play on a service without a store")
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "help.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	with := allText(New(Config{Games: st}).Handle(context.Background(), slash("help")))
	for _, want := range []string{"/play", "/daily"} {
		if !strings.Contains(with, want) {
			t.Errorf("/help with a store lacks %s:\n%s", want, with)
		}
	}
}

// TestCheckRatingOutlastsDeadline: Platinum Blonde needs nested forcing
// chains, seconds of rating (10.6, about 1.7 s here); /check under a short
// deadline says how hard it is at least, from the steps rated in time,
// instead of nothing. Its first step is a hidden single, microseconds of
// work, so the floor is there even on a machine too loaded to give the
// test much of the deadline. (Easter Monster, used before, opens with a
// chain: on a loaded machine not one step fitted in 250 ms.)
func TestCheckRatingOutlastsDeadline(t *testing.T) {
	if raceEnabled {
		// The race detector slows the rater down about tenfold; whether
		// its first steps fit a deadline is then a matter of the machine.
		t.Skip("timing: the first steps of the rating must fit the deadline")
	}
	const platinumBlonde = ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6..."
	const deadline = 250 * time.Millisecond
	s := newTestService(t, Config{SolveTimeout: deadline})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	got := allText(s.Handle(ctx, slash("check", "puzzle", platinumBlonde)))
	if d := time.Since(start); d > deadline+2*time.Second {
		t.Errorf("/check took %s under a %s deadline", d, deadline)
	}
	re := regexp.MustCompile(`Difficulty: At least (\d+\.\d) \((\w+)\): rating the rest takes longer than 250 ms`)
	m := re.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("/check on Platinum Blonde under %s:\n%s\nwant %s", deadline, got, re)
	}
	// A floor: at most the whole rating, 10.6.
	if score, _ := strconv.ParseFloat(m[1], 64); score < 1 || score > 10.6+1e-9 {
		t.Errorf("floor %s, want a score between 1 and 10.6", m[1])
	}
	if !strings.Contains(got, "Solutions: 1") {
		t.Errorf("/check lost its other fields:\n%s", got)
	}
}

// TestCheckUnfinishedRatingIsAFloor: a puzzle beyond every technique the
// rater knows gets its score as a floor, not as its rating.
func TestCheckUnfinishedRatingIsAFloor(t *testing.T) {
	// Every known 9x9 puzzle gets a number (Sudoku Explainer's deepest
	// chains); this 25x25 from Gecode's examples is beyond the solver's
	// own ladder for other sizes, so it rates at its floor of 10.0.
	const beyond = ".N..JG..O7591...8I....L..FG.M.B8...P.E...CJ..H...............G.4.H.D.O.NJA2.....J.EN4.L6MA.B.2......HE..2..DC.....F4KMA.B.9O8M....62...47C19......E5...I2.8M.JGL...ADN..K..3.F7..H3.5..89....I.J.....NL.1B..9.FAP.6.N....537.H..O......1..N...O...LC.68.PGKOA.FNBH.....7.C.....M..645.ECP.I..N.F.J1...MK.79.I.L..8.O..9.P...A...2.1J...621.D.M.....B8LG..P..CH.HP.N7E.L1....3..B..O.G45....BIO....5.C.P...FN48E....FL.....2.DH..17..59O....I.MF..2G.N...A6O.HC.PB.72.1..L...IM.96E.45G.......9...7M..A.O...I...L.....C.JA.........1.....E.48.O.BI.......PHL.6..1....5CG6M...N4FI8...K..H.E......L..4.917....BE.G8F.M.I..8F......5.O3..4...9.....K"
	s := newTestService(t, Config{SolveTimeout: 30 * time.Second})
	got := allText(s.Handle(context.Background(), slash("check", "puzzle", beyond)))
	for _, want := range []string{"Difficulty: At least 10.0 (extreme)\n", "\nBeyond the logical solver's techniques"} {
		if !strings.Contains(got, want) {
			t.Errorf("/check on a puzzle beyond the rater:\n%s\nwant %q in it", got, want)
		}
	}
}
