package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sudokubot/render"
	"sudokubot/sudoku"
)

// Custom ids of the Solution button under a generated puzzle:
//
//	gsol:<state>                              the puzzle itself (9x9 and smaller)
//	gseed:<seed>:<level>:<rows><cols>:<sym>   how to make it again (bigger
//	                                          grids, whose state won't fit)
//
// The seed form never expires: generation is deterministic, so the same
// options give the same puzzle after a restart.
const (
	solPrefix  = "gsol"
	seedPrefix = "gseed"
)

var (
	levelChoices = []Choice{{"easy", "easy"}, {"medium", "medium"}, {"hard", "hard"}, {"expert", "expert"}, {"extreme", "extreme"}}
	// sizeChoices are the grids people play; the generator makes them all
	// (see sudoku.MaxLevel for the levels each reaches).
	sizeChoices = []Choice{{"4x4", "4"}, {"6x6", "6"}, {"8x8", "8"}, {"9x9", "9"}, {"12x12", "12"}, {"16x16", "16"}, {"25x25", "25"}}
	symChoices  = symmetryChoices()
)

// symmetryChoices offers every symmetry the generator keeps, named as
// people say them.
func symmetryChoices() []Choice {
	var out []Choice
	for _, sym := range sudoku.Symmetries() {
		out = append(out, Choice{sym.Name(), sym.String()})
	}
	return out
}

func (s *Service) addGenerate() {
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "generate",
		Description: "A fresh puzzle with one solution",
		Options: []OptionSpec{
			{Type: OptString, Name: optLevel, Description: "Difficulty (default medium, easy for 4x4)", Choices: levelChoices},
			{Type: OptString, Name: optSize, Description: "Grid size (default 9x9); extreme comes in 8x8 and 9x9, and 4x4 only in easy", Choices: sizeChoices},
			{Type: OptString, Name: optSymmetry, Description: "Pattern of the clues (default 180° rotation)", Choices: symChoices},
			{Type: OptString, Name: optOutput, Description: "Show the board as an image (default) or as text", Choices: outputChoices},
		},
	}, s.generate, func(ctx context.Context, req Request) Plan { return Plan{Heavy: true} })
	s.addComponent(solPrefix, s.solutionButton, func(ctx context.Context, req Request) Plan {
		return Plan{Heavy: true, Ephemeral: true}
	})
	s.addComponent(seedPrefix, s.solutionButton, func(ctx context.Context, req Request) Plan {
		return Plan{Heavy: true, Ephemeral: true}
	})
}

// generateOptions reads /generate's options.
func generateOptions(opts map[string]string) (sudoku.GenerateOptions, string, error) {
	var g sudoku.GenerateOptions
	level, err := choiceOption(opts, optLevel, defaultLevelOption(opts), levelChoices)
	if err != nil {
		return g, "", err
	}
	size, err := choiceOption(opts, optSize, "9", sizeChoices)
	if err != nil {
		return g, "", err
	}
	sym, err := choiceOption(opts, optSymmetry, "rot180", symChoices)
	if err != nil {
		return g, "", err
	}
	output, err := choiceOption(opts, optOutput, outputImage, outputChoices)
	if err != nil {
		return g, "", err
	}
	n, _ := strconv.Atoi(size)
	g.Shape, _ = sudoku.ShapeFor(n)
	g.Level, _ = sudoku.ParseLevel(level)
	g.Symmetry, _ = sudoku.ParseSymmetry(sym)
	return g, output, nil
}

// DefaultLevel is the level of a puzzle asked for without one: medium, or
// the hardest level the grid reaches when that is easier (a 4x4 goes up to
// easy), so that leaving the level out works for every size.
func DefaultLevel(sh sudoku.Shape) sudoku.Level {
	if top := sudoku.MaxLevel(sh); top < sudoku.Medium {
		return top
	}
	return sudoku.Medium
}

// defaultLevelOption is the level option's default for the size asked in
// opts (9x9 when none; a size that is no choice gets 9x9's default here and
// its own error from the size option).
func defaultLevelOption(opts map[string]string) string {
	n, _ := strconv.Atoi(strings.TrimSpace(opts[optSize]))
	sh, ok := sudoku.ShapeFor(n)
	if !ok {
		sh = sudoku.Shape9
	}
	return DefaultLevel(sh).String()
}

// generate answers /generate: a new puzzle, public, with a Solution button
// (ephemeral, as a spoiler) and a Hint button.
func (s *Service) generate(ctx context.Context, req Request) Response {
	opts, output, err := generateOptions(req.Options)
	if err != nil {
		return optionError(err)
	}
	if r, bad := levelOutOfReach(opts); bad {
		return r
	}
	opts.Seed = s.nextSeed(req.Now)
	start := time.Now()
	p, err := sudoku.Generate(ctx, opts)
	took := time.Since(start)
	if err == nil && p.Grid == nil {
		err = errors.New("the generator returned no grid")
	}
	if err != nil {
		return s.generateError(ctx, req, opts, err)
	}
	e := Embed{
		Title:       fmt.Sprintf("New puzzle · %s · %s (%.1f)", opts.Shape, p.Rating.Level, p.Rating.Score),
		Description: fmt.Sprintf("%d clues, %s. Copy it:\n%s", p.Grid.Clues(), symmetryName(opts.Symmetry), oneLine(p.Grid)),
		Color:       colorNeutral,
		Footer:      "Made in " + humanDuration(took),
	}
	board := render.New(p.Grid)
	board.Caption = fmt.Sprintf("%s · %s · %.1f", opts.Shape, p.Rating.Level, p.Rating.Score)
	files := s.boardEmbed(&e, board, output, "puzzle.png")
	solID := s.customID(solPrefix, gridState{Puzzle: p.Grid})
	if strings.Contains(solID, ":~") { // kept in memory: make it again instead
		solID = mustID(seedPrefix, strconv.FormatUint(opts.Seed, 10), strconv.Itoa(int(opts.Level)),
			strconv.FormatInt(int64(opts.Shape.BoxRows), 36)+strconv.FormatInt(int64(opts.Shape.BoxCols), 36), strconv.Itoa(int(opts.Symmetry)))
	}
	return Response{
		Embeds: []Embed{e},
		Files:  files,
		Components: []ActionRow{{Buttons: []Button{
			{Label: "Solution", CustomID: solID, Style: Secondary},
			{Label: "Hint", CustomID: s.customID(hintPrefix+":1:n", gridState{Puzzle: p.Grid, Position: p.Grid}), Style: Secondary},
		}}},
	}
}

// levelOutOfReach answers a level the grid size can't reach (a 4x4 is
// never hard) before any work is done, naming the sizes that reach it when
// there are few.
func levelOutOfReach(opts sudoku.GenerateOptions) (Response, bool) {
	top := sudoku.MaxLevel(opts.Shape)
	if opts.Level <= top {
		return Response{}, false
	}
	var fits []string
	for _, c := range sizeChoices {
		n, _ := strconv.Atoi(c.Value)
		if sh, ok := sudoku.ShapeFor(n); ok && sudoku.MaxLevel(sh) >= opts.Level {
			fits = append(fits, c.Name)
		}
	}
	msg := fmt.Sprintf("%s puzzles go up to %s", sizeName(opts.Shape), top)
	if len(fits) <= 3 {
		msg += fmt.Sprintf("; %s ones come in %s.", opts.Level, orList(fits))
	} else {
		msg += fmt.Sprintf(": pick %s, or a bigger grid.", top)
	}
	return ephemeral(msg), true
}

// sizeName is a grid's size as people say it in a sentence: "12x12".
func sizeName(sh sudoku.Shape) string {
	return fmt.Sprintf("%dx%d", sh.N(), sh.N())
}

// generateError is the reply when no puzzle came out: a plain sentence for
// the user, the details (seed, the engine's error) in the log.
func (s *Service) generateError(ctx context.Context, req Request, opts sudoku.GenerateOptions, err error) Response {
	s.logf("request %s: generate %s %s (symmetry %s, seed %d): %v", req.ID, opts.Level, opts.Shape, opts.Symmetry, opts.Seed, err)
	switch {
	case ctx.Err() == context.Canceled:
		return s.stopped(ctx)
	case ctx.Err() != nil:
		return ephemeral(fmt.Sprintf("Making %s %s puzzle takes longer than the %s I have. Try an easier level or a smaller grid.",
			article(opts.Level.String()), sizeName(opts.Shape), humanDuration(s.cfg.SolveTimeout)))
	case errors.Is(err, sudoku.ErrLevelUnreachable):
		return ephemeral(fmt.Sprintf("I couldn't make %s %s puzzle this time. Please try again, or pick another level.", article(opts.Level.String()), sizeName(opts.Shape)))
	}
	return ephemeral("Something went wrong making that puzzle. Please try again.")
}

// symmetryName says a generated puzzle's symmetry in a sentence.
func symmetryName(sym sudoku.Symmetry) string {
	if sym == sudoku.NoSymmetry {
		return "no symmetry"
	}
	return sym.Name() + " symmetry"
}

// solutionButton answers "Solution": the solution, privately and behind a
// spoiler, so a glance does not ruin the puzzle.
func (s *Service) solutionButton(ctx context.Context, req Request) Response {
	puzzle, err := s.generatedPuzzle(ctx, req.CustomID)
	if err != nil {
		if ctx.Err() != nil {
			return s.stopped(ctx)
		}
		return stateError(err)
	}
	res := sudoku.Solve(ctx, puzzle, 1)
	if res.Status == sudoku.Cancelled {
		return s.stopped(ctx)
	}
	if len(res.Solutions) == 0 {
		return ephemeral("This puzzle has no solution — that should not happen with a generated one. Please report it.")
	}
	sol := res.Solutions[0]
	board := render.Solved(puzzle, sol)
	if data, err := board.PNG(s.imageOptions()); err == nil {
		return Response{
			Content:   "Solution (tap the picture to reveal): ||" + oneLine(sol) + "||",
			Files:     []File{{Name: "SPOILER_solution.png", ContentType: "image/png", Data: data}},
			Ephemeral: true,
		}
	}
	content := "Solution (tap to reveal):\n||" + oneLine(sol) + "||"
	if block, ok := board.CodeBlock(textOptions(board), maxContent-utf8.RuneCountInString(content)-5); ok {
		content += "\n||" + block + "||"
	}
	return Response{Content: clip(content, maxContent), Ephemeral: true}
}

// generatedPuzzle reads the puzzle a Solution button refers to.
func (s *Service) generatedPuzzle(ctx context.Context, customID string) (*sudoku.Grid, error) {
	if strings.HasPrefix(customID, solPrefix+":") {
		_, st, err := s.splitCustomID(customID, 1)
		return st.Puzzle, err
	}
	f, ok := idFields(customID, 4)
	if !ok || len(f[2]) != 2 {
		return nil, fmt.Errorf("bad solution id %q", customID)
	}
	seed, err1 := strconv.ParseUint(f[0], 10, 64)
	level, err2 := strconv.Atoi(f[1])
	rows, err3 := strconv.ParseInt(f[2][:1], 36, 8)
	cols, err4 := strconv.ParseInt(f[2][1:], 36, 8)
	sym, err5 := strconv.Atoi(f[3])
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		return nil, fmt.Errorf("bad solution id %q: %w", customID, err)
	}
	opts := sudoku.GenerateOptions{
		Shape: sudoku.Shape{BoxRows: int(rows), BoxCols: int(cols)}, Level: sudoku.Level(level),
		Symmetry: sudoku.Symmetry(sym), Seed: seed,
	}
	if !opts.Shape.Valid() || level < 0 || level > int(sudoku.Extreme) || !sudoku.Symmetry(sym).Valid() {
		return nil, fmt.Errorf("bad solution id %q", customID)
	}
	p, err := sudoku.Generate(ctx, opts)
	if err != nil {
		return nil, err
	}
	if p.Grid == nil {
		return nil, errors.New("generator returned no grid")
	}
	return p.Grid, nil
}
