package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubot/render"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// A game read back from the store and drawn: the board, its counts and its
// buttons.

// encodeShape writes a puzzle's box shape as "3x3", with its alphabet after
// a ':' when it is not the default one, so decodeGrid can read the one-line
// form back exactly.
func encodeShape(g *sudoku.Grid) string {
	s := fmt.Sprintf("%dx%d", g.Shape.BoxRows, g.Shape.BoxCols)
	if g.Alphabet != sudoku.DefaultAlphabet(g.N()) {
		s += ":" + string(g.Alphabet)
	}
	return s
}

// decodeGrid reads a one-line grid stored with encodeShape's shape text.
func decodeGrid(line, shape string) (*sudoku.Grid, error) {
	dims, alpha, _ := strings.Cut(shape, ":")
	rs, cs, ok := strings.Cut(dims, "x")
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	sh := sudoku.Shape{BoxRows: r, BoxCols: c}
	if !ok || err1 != nil || err2 != nil || !sh.Valid() {
		return nil, fmt.Errorf("stored shape %q is not a box shape", shape)
	}
	g := sudoku.New(sh)
	if alpha != "" {
		g.Alphabet = sudoku.Alphabet(alpha)
	}
	i := 0
	for _, ch := range line {
		if i >= len(g.Cells) {
			return nil, fmt.Errorf("stored puzzle has more than %d cells", len(g.Cells))
		}
		if v := g.Alphabet.Value(ch); v != 0 {
			g.Cells[i] = uint8(v)
		}
		i++
	}
	if i != len(g.Cells) {
		return nil, fmt.Errorf("stored puzzle has %d cells, want %d", i, len(g.Cells))
	}
	return g, nil
}

// board is a stored game read back: the puzzle, the position (givens plus
// entries) and the solution.
type board struct {
	game     store.Game
	puzzle   *sudoku.Grid
	position *sudoku.Grid
	solution *sudoku.Grid
}

// load reads a game's grids, solving the puzzle when no solution was stored.
func (p *player) load(ctx context.Context, g store.Game) (board, error) {
	puzzle, err := decodeGrid(g.Puzzle, g.Shape)
	if err != nil {
		return board{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	if len(g.Entries) != len(puzzle.Cells) || len(g.Pencil) != len(puzzle.Cells) {
		return board{}, fmt.Errorf("game %d: board has %d cells, puzzle %d", g.ID, len(g.Entries), len(puzzle.Cells))
	}
	b := board{game: g, puzzle: puzzle, position: puzzle.Clone()}
	for i, v := range g.Entries {
		if puzzle.Cells[i] == 0 {
			b.position.Cells[i] = v
		}
	}
	if g.Solution != "" {
		if b.solution, err = decodeGrid(g.Solution, g.Shape); err != nil {
			return board{}, fmt.Errorf("game %d solution: %w", g.ID, err)
		}
	} else {
		res := sudoku.Solve(ctx, puzzle, 1)
		if len(res.Solutions) == 0 {
			return board{}, fmt.Errorf("game %d: puzzle has no solution", g.ID)
		}
		b.solution = res.Solutions[0]
	}
	return b, nil
}

// solved reports whether the position is the solution.
func (b board) solved() bool { return b.position.Equal(b.solution) }

// show marks the game viewed (the clock starts at the first view) and
// returns its message, as a new ephemeral reply.
func (p *player) show(ctx context.Context, req Request, g store.Game, note string) Response {
	if g.ViewedAt.IsZero() && g.Status == store.Playing {
		var err error
		if g, err = p.games.MarkViewed(ctx, g.ID, req.Now); err != nil {
			return storeError(err)
		}
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	r := p.gameMessage(b, req.Now, note, nil)
	r.Ephemeral = true
	return r
}

// title names a game: "Daily #325 · hard" or "Medium 9x9".
func (p *player) title(g store.Game) string {
	if g.IsDaily() {
		return fmt.Sprintf("Daily #%d · %s", sudoku.DailyNumber(g.DailyDate), g.DailyLevel)
	}
	if isArchive(g) {
		return fmt.Sprintf("Daily #%d · %s · archive", sudoku.DailyNumber(g.ArchiveDate), g.Level)
	}
	shape, _ := decodeGrid(g.Puzzle, g.Shape)
	if shape != nil {
		return strings.TrimSpace(capitalize(g.Level) + " " + shape.Shape.String())
	}
	return capitalize(g.Level)
}

// gameMessage draws the game: board picture, counts, and the buttons while
// it is being played. mark, when not nil, adds highlights (a check's wrong
// entries, a hint's cells).
func (p *player) gameMessage(b board, now time.Time, note string, mark func(*render.Board)) Response {
	g := b.game
	e := Embed{Title: p.title(g), Color: colorNeutral}
	var lines []string
	switch g.Status {
	case store.Solved:
		e.Color = colorGood
		lines = append(lines, fmt.Sprintf("**Solved** in %s · %s · %s", clock(g.Elapsed(now)), counted(g.Hints, "hint"), counted(g.Checks, "check")))
		if g.Flag != "" {
			lines = append(lines, "Not counted on the leaderboard or for the streak: "+flagShort(g.Flag)+".")
		}
	case store.GaveUp:
		e.Color = colorWarn
		lines = append(lines, fmt.Sprintf("Given up after %s. The solution is shown.", clock(g.Elapsed(now))))
	default:
		filled := 0
		for i, v := range b.position.Cells {
			if v != 0 && b.puzzle.Cells[i] == 0 {
				filled++
			}
		}
		lines = append(lines, fmt.Sprintf("%d of %d cells filled · %s · %s", filled, len(b.puzzle.Cells)-b.puzzle.Clues(),
			counted(g.Hints, "hint"), counted(g.Checks, "check")))
		lines = append(lines, movesHelp(b.puzzle))
	}
	lines = append(lines, "Puzzle: `"+b.puzzle.String()+"`")
	e.Description = clip(strings.Join(lines, "\n"), maxEmbedDescription)
	e.Footer = fmt.Sprintf("Game %d", g.ID)

	rb := render.Playing(b.puzzle, b.position)
	if g.Status == store.GaveUp {
		rb = render.Solved(b.puzzle, b.solution)
		for i, v := range b.position.Cells {
			if v != 0 && v != b.solution.Cells[i] {
				rb.MarkCells(render.Wrong, i)
			}
		}
	} else {
		// Entries that break a rule are shown at once (that is no
		// spoiler); whether an entry is right only Check tells.
		rb.WithClashes(b.position.Clashes())
		rb.Pencil = make([]uint32, len(g.Pencil))
		for i, m := range g.Pencil {
			if b.position.Cells[i] == 0 {
				rb.Pencil[i] = m
			}
		}
	}
	if mark != nil {
		mark(rb)
	}
	files := p.s.boardEmbed(&e, rb, outputImage, "board.png")
	r := Response{Content: clip(note, maxContent), Embeds: []Embed{e}, Files: files}
	if g.Status == store.Playing {
		r.Components = []ActionRow{{Buttons: []Button{
			{Label: "Enter moves", CustomID: gameButtonID("m", g.ID), Style: Primary},
			{Label: "Hint", CustomID: gameButtonID("h", g.ID), Style: Secondary},
			{Label: "Check", CustomID: gameButtonID("c", g.ID), Style: Secondary},
			{Label: "Undo", CustomID: gameButtonID("u", g.ID), Style: Secondary},
			{Label: "Give up", CustomID: gameButtonID("g", g.ID), Style: Danger},
		}}}
		var more []Button
		if p.s.cfg.Activity {
			more = append(more, Button{Label: "Open board", CustomID: gameButtonID("b", g.ID), Style: Success})
		}
		if g.Moves >= 2 {
			more = append(more, Button{Label: "Undo all", CustomID: gameButtonID("U", g.ID), Style: Secondary})
		}
		if len(more) > 0 {
			r.Components = append(r.Components, ActionRow{Buttons: more})
		}
	}
	return r
}

// colorGood marks a solved game.
const colorGood = 0x3BA55D

// clock writes a playing time as people read a stopwatch: "6:41", "1:02:03".
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// counted writes "no hints", "1 hint", "3 hints".
func counted(n int, what string) string {
	if n == 0 {
		return "no " + what + "s"
	}
	return Plural(n, what, what+"s")
}

// cellList names cells as the board labels them: "A1", "A1 and B3", "A1,
// B3, C5 and 4 more".
func cellList(sh sudoku.Shape, cells []int) string {
	const maxNamed = 8
	var names []string
	for i, c := range cells {
		if i == maxNamed {
			return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", len(cells)-maxNamed)
		}
		names = append(names, sh.CellName(c))
	}
	return andList(names)
}

// clashSentences names up to three of a board's clashes, one sentence
// each ("B2 and B7 both hold 3 in row B", "B2, B5 and B7 all hold 3 in
// row B"); the same cells clashing in two units are one sentence ("A2 and
// C2 both hold 5 in column 2 and box 1").
func clashSentences(clashes []sudoku.Clash, g *sudoku.Grid) string {
	type group struct {
		cells []int
		value int
		units []string
	}
	var groups []*group
	for _, c := range clashes {
		var found *group
		for _, gr := range groups {
			if gr.value == c.Value && slices.Equal(gr.cells, c.Cells) {
				found = gr
			}
		}
		if found == nil {
			found = &group{cells: c.Cells, value: c.Value}
			groups = append(groups, found)
		}
		found.units = append(found.units, c.Unit.String())
	}
	const maxNamed = 3
	var parts []string
	for i, gr := range groups {
		if i == maxNamed {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-maxNamed))
			break
		}
		verb := "both hold"
		if len(gr.cells) > 2 {
			verb = "all hold"
		}
		parts = append(parts, fmt.Sprintf("%s %s %c in %s", andList(cellNames(g.Shape, gr.cells)), verb, g.Alphabet.Symbol(gr.value), andList(gr.units)))
	}
	return strings.Join(parts, "; ")
}
