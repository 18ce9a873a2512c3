package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubot/render"
	"sudokubot/sudoku"
)

func TestHintFlow(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	req := slash("hint", "puzzle", uniquePuzzle)
	if p := s.Plan(ctx, req); !p.Heavy || !p.Ephemeral || p.Update {
		t.Errorf("Plan(/hint) = %+v", p)
	}
	r := s.Handle(ctx, req)
	checkLimits(t, r)
	if !r.Ephemeral || !strings.Contains(allText(r), "Hint · level 1 of 3") {
		t.Fatalf("/hint = %+v, want an ephemeral level-1 hint", r)
	}
	if len(r.Files) != 0 {
		t.Errorf("level-1 hint shows the board; it should only name the technique")
	}
	// More → level 2, edits the message.
	more := click(findButton(t, r, "More").CustomID)
	if p := s.Plan(ctx, more); !p.Update {
		t.Errorf("Plan(More) = %+v, want an update", p)
	}
	r2 := s.Handle(ctx, more)
	checkLimits(t, r2)
	if !r2.Update || !strings.Contains(allText(r2), "Hint · level 2 of 3") {
		t.Errorf("More = %+v, want the level-2 hint as an update", r2)
	}
	// Show step → level 3 with the board.
	r3 := s.Handle(ctx, click(findButton(t, r, "Show step").CustomID))
	checkLimits(t, r3)
	if !strings.Contains(allText(r3), "Hint · level 3 of 3") || (len(r3.Files) == 0 && !strings.Contains(allText(r3), "```")) {
		t.Errorf("Show step = %+v, want level 3 with a board", r3)
	}
	for _, b := range buttons(r3) {
		if b.Label == "More" || b.Label == "Show step" {
			t.Errorf("level-3 hint still offers %q", b.Label)
		}
	}
	// Next hint, many times: each step moves the position towards the
	// solution and never away from it, until the puzzle is solved.
	cur := r
	for i := 0; i < 100; i++ {
		var next *Button
		for _, b := range buttons(cur) {
			if b.Label == "Next hint" {
				next = &b
			}
		}
		if next == nil {
			break
		}
		_, st, err := s.splitCustomID(next.CustomID, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range st.Position.Cells {
			if v != 0 && v != uniqueSolution[i]-'0' {
				t.Fatalf("after %d hints r%dc%d = %d, the solution has %c", i, i/9+1, i%9+1, v, uniqueSolution[i])
			}
		}
		cur = s.Handle(ctx, click(next.CustomID))
		checkLimits(t, cur)
		if !cur.Update || !cur.Ephemeral {
			t.Fatalf("Next hint = %+v, want an ephemeral update", cur)
		}
	}
	if !strings.Contains(allText(cur), "Solved") {
		t.Errorf("after following Next hint, the last reply is:\n%s\nwant it solved", allText(cur))
	}
}

// TestHintNextMovesOn follows "Next hint" on a puzzle that needs
// candidates removed before cells can be filled: every press explains a
// new step (the state moves on: a cell filled or candidates removed), the
// removals travel in the button's state, and the position stays right.
func TestHintNextMovesOn(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	const puzzle = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
	g, _ := sudoku.Parse(puzzle)
	sol := sudoku.Solve(ctx, g, 1).Solutions[0]
	cur := s.Handle(ctx, slash("hint", "puzzle", puzzle))
	checkLimits(t, cur)
	prev, removals := "", 0
	for i := 0; i < 60; i++ {
		next := findButton(t, cur, "Next hint")
		_, st, err := s.splitCustomID(next.CustomID, 1)
		if err != nil {
			t.Fatal(err)
		}
		key := st.Position.String() + fmt.Sprint(positionMarks(st.Position))
		if key == prev {
			t.Fatalf("press %d: Next hint did not move on:\n%s", i, allText(cur))
		}
		prev = key
		marks := positionMarks(st.Position)
		for c, v := range st.Position.Cells {
			if v != 0 && v != sol.Cells[c] {
				t.Fatalf("press %d: %s = %d, the solution has %d", i, g.Shape.CellName(c), v, sol.Cells[c])
			}
			if v == 0 && marks[c]&(1<<(sol.Cells[c]-1)) == 0 {
				t.Fatalf("press %d: the state removed the solution's %d from %s", i, sol.Cells[c], g.Shape.CellName(c))
			}
			if v == 0 && marks[c] != st.Position.Candidates()[c] {
				removals++
			}
		}
		cur = s.Handle(ctx, click(next.CustomID))
		checkLimits(t, cur)
		if strings.Contains(allText(cur), "Solved") {
			break
		}
	}
	if removals == 0 {
		t.Errorf("no hint state carried removed candidates; the puzzle needs some")
	}
}

func TestHintRefusesBadPuzzles(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	for _, tt := range []struct{ name, puzzle, says string }{
		{"multiple", multiPuzzle, "more than one solution"},
		{"none", noSolutionPuzzle, "no solution"},
		{"clash", clashPuzzle, "5 is twice"},
		{"unreadable", "12", "couldn't read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, slash("hint", "puzzle", tt.puzzle))
			checkLimits(t, r)
			if !r.Ephemeral || !strings.Contains(allText(r), tt.says) {
				t.Errorf("/hint %s = %+v, want ephemeral saying %q", tt.name, r, tt.says)
			}
		})
	}
}

func TestGenerate(t *testing.T) {
	var seed uint64 = 41
	s := newTestService(t, Config{Seed: func() uint64 { seed++; return seed }})
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		opts []string
		n    int
	}{
		{"default", nil, 9},
		{"easy 4x4 text", []string{"level", "easy", "size", "4", "output", "text"}, 4},
		{"easy 6x6 mirror", []string{"level", "easy", "size", "6", "symmetry", "mirror"}, 6},
		{"easy 12x12 anti-diagonal", []string{"level", "easy", "size", "12", "symmetry", "antidiagonal"}, 12},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Handle(ctx, slash("generate", tt.opts...))
			checkLimits(t, r)
			if r.Ephemeral || len(r.Embeds) != 1 {
				t.Fatalf("/generate = %+v, want one public embed", r)
			}
			b := findButton(t, r, "Solution")
			sol := s.Handle(ctx, click(b.CustomID))
			checkLimits(t, sol)
			if !sol.Ephemeral || !strings.Contains(sol.Content, "||") {
				t.Errorf("Solution = %+v, want an ephemeral spoiler", sol)
			}
			findButton(t, r, "Hint")
		})
	}
	if r := s.Handle(ctx, slash("generate", "size", "7")); !r.Ephemeral || !strings.Contains(r.Content, "There is no size \"7\": pick 4, 6, 8, 9, 12, 16 or 25.") {
		t.Errorf("/generate size:7 = %+v", r)
	}
	// Every size offered is one the generator makes, at easy at least.
	for _, c := range sizeChoices {
		n, err := strconv.Atoi(c.Value)
		_, ok := sudoku.ShapeFor(n)
		if err != nil || !ok || c.Name != fmt.Sprintf("%dx%d", n, n) {
			t.Errorf("size choice %+v is not a grid the generator makes", c)
		}
	}
	// A level the size can't reach is said plainly, before any work.
	for _, tt := range []struct{ size, level, want string }{
		{"4", "medium", "4x4 puzzles go up to easy: pick easy, or a bigger grid."},
		{"12", "extreme", "12x12 puzzles go up to expert; extreme ones come in 8x8 or 9x9."},
	} {
		r := s.Handle(ctx, slash("generate", "size", tt.size, "level", tt.level))
		if !r.Ephemeral || !strings.HasPrefix(r.Content, tt.want) || strings.Contains(r.Content, "seed") {
			t.Errorf("/generate size:%s level:%s = %q, want it to start %q", tt.size, tt.level, r.Content, tt.want)
		}
	}
}

func TestGeneratedSolutionBySeed(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	opts := sudoku.GenerateOptions{Shape: sudoku.Shape4, Level: sudoku.Easy, Symmetry: sudoku.Rotate180, Seed: 7}
	p, err := sudoku.Generate(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.generatedPuzzle(ctx, "gseed:7:0:22:1")
	if err != nil {
		t.Fatalf("generatedPuzzle: %v", err)
	}
	if !g.Equal(p.Grid) {
		t.Errorf("generatedPuzzle(seed 7) = %s, want %s", g, p.Grid)
	}
}

// TestStateMarks: a position's pencil marks survive the button state, and a
// 9x9 position with a few removals still fits a custom id of its own.
func TestStateMarks(t *testing.T) {
	s := newTestService(t, Config{})
	g, err := sudoku.Parse(uniquePuzzle)
	if err != nil {
		t.Fatal(err)
	}
	pos := g.Clone()
	pos.Marks = g.Candidates()
	for _, c := range []int{2, 3, 5, 80} {
		pos.Marks[c] &^= pos.Marks[c] & -pos.Marks[c] // drop the lowest
	}
	id := s.customID("hint:3:u", gridState{Puzzle: g, Position: pos})
	if len(id) > maxCustomID || strings.Contains(id, "~") {
		t.Fatalf("custom id %q (%d chars) for 4 removals, want it inline and at most %d", id, len(id), maxCustomID)
	}
	_, st, err := s.splitCustomID(id, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(positionMarks(st.Position)), fmt.Sprint(positionMarks(pos)); got != want {
		t.Errorf("marks after the round trip:\n%s\nwant\n%s", got, want)
	}
	if _, err := decodeState("33p" + strings.Repeat("A", 10) + "!AB"); err == nil {
		t.Errorf("decodeState accepted marks without a position")
	}
}

// hodokuGrid is a position from HoDoKu's technique library as its
// pencil-mark export writes it: the next step is its hidden pair in box 6.
const hodokuGrid = `.---------------------.-----------------.------------------.
| 14789  1346789  369 | 368   1348  46  | 2   5      1379  |
| 159    1369     2   | 7     13    56  | 8   139    4     |
| 14578  13478    35  | 238   9     245 | 6   137    137   |
:---------------------+-----------------+------------------:
| 15     16       7   | 4     25    3   | 9   8      126   |
| 3      14       8   | 69    27    69  | 47  1247   5     |
| 459    2        569 | 1     57    8   | 3   467    67    |
:---------------------+-----------------+------------------:
| 2789   3789     4   | 2389  6     1   | 5   379    3789  |
| 6      389      39  | 5     348   7   | 1   2349   2389  |
| 2789   5        1   | 2389  348   249 | 47  34679  36789 |
'---------------------'-----------------'------------------'`

// TestHintPencilMarkGrid: /hint on a pasted pencil-mark grid reasons from
// its candidates, and names a candidate erased wrongly before anything.
func TestHintPencilMarkGrid(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	r := s.Handle(ctx, slash("hint", "puzzle", hodokuGrid))
	checkLimits(t, r)
	r = s.Handle(ctx, click(findButton(t, r, "Show step").CustomID))
	want := "In box 6, 1 and 2 fit only in D9 and E8, so those two cells hold nothing else: remove 6 from D9; 4 and 7 from E8."
	if !strings.Contains(allText(r), want) {
		t.Errorf("/hint on HoDoKu's grid, level 3:\n%s\nwant %q", allText(r), want)
	}
	// D9's marks (126) lose the solution's digit there.
	g, err := sudoku.Parse(hodokuGrid)
	if err != nil {
		t.Fatal(err)
	}
	v := string(rune('0' + sudoku.Solve(ctx, g, 1).Solutions[0].Cells[3*9+8]))
	row := "| 15     16       7   | 4     25    3   | 9   8      126   |"
	wrong := strings.Replace(hodokuGrid, row, strings.Replace(row, "126 ", strings.Replace("126", v, "", 1)+"  ", 1), 1)
	// Level 1 names the cell, not the candidate it needs (its answer).
	r = s.Handle(ctx, slash("hint", "puzzle", wrong))
	if got := allText(r); !strings.Contains(got, "D9 lost a candidate it needs") || strings.Contains(got, "You removed") {
		t.Errorf("/hint with %s erased from D9, level 1:\n%s\nwant D9 named and not the candidate", v, got)
	}
	// The next level names it.
	r = s.Handle(ctx, click(findButton(t, r, "Which candidate?").CustomID))
	if !strings.Contains(allText(r), "You removed "+v+" from D9, but D9 is "+v) {
		t.Errorf("/hint with %s erased from D9, level 2:\n%s\nwant the erased candidate named", v, allText(r))
	}
}

// TestHintBoardWrongMarks: the picture of a hint about erased candidates
// marks the cells at level 1 and shows the candidates only from level 2,
// since they are the cells' answers.
func TestHintBoardWrongMarks(t *testing.T) {
	g, err := sudoku.Parse(uniquePuzzle)
	if err != nil {
		t.Fatal(err)
	}
	st := gridState{Puzzle: g, Position: g}
	wrong := []sudoku.Candidate{{Cell: 2, Value: 4}}
	for _, tt := range []struct {
		level     sudoku.HintLevel
		candidate bool
	}{{sudoku.HintTechnique, false}, {sudoku.HintWhere, true}, {sudoku.HintStep, true}} {
		b := hintBoard(st, sudoku.HintResult{Level: tt.level, WrongMarks: wrong})
		shown := b.Green != nil && b.Green[2]&(1<<3) != 0
		if shown != tt.candidate {
			t.Errorf("level %d: candidate 4 of A3 drawn = %v, want %v", tt.level, shown, tt.candidate)
		}
		if b.Marks == nil || b.Marks[2] != render.Wrong {
			t.Errorf("level %d: A3 not marked wrong", tt.level)
		}
	}
}

// hodokuURGrid is HoDoKu's library position for a unique rectangle whose
// corner I6 lost its 2 (the "missing candidates" variant), pasted as a
// plain pencil-mark grid.
const hodokuURGrid = `1   29  27  | 4   3   8   | 79  6   5
79  5   4   | 1   69  67  | 3   8   2
6   3   8   | 79  25  25  | 79  1   4
------------+-------------+------------
49  49  6   | 3   7   1   | 2   5   8
2   1   3   | 5   8   9   | 6   4   7
8   7   5   | 2   46  46  | 1   3   9
------------+-------------+------------
47  8   27  | 6   24  3   | 5   9   1
5   6   9   | 8   1   27  | 4   27  3
3   24  1   | 79  459 457 | 8   27  6`

// TestHintRectangleLostDigit: /hint on a pasted grid whose unique
// rectangle lost a digit names the rectangle at level 1, shows its step
// with the lost digit explained, and Next hint moves on to the step after.
func TestHintRectangleLostDigit(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	r := s.Handle(ctx, slash("hint", "puzzle", hodokuURGrid))
	checkLimits(t, r)
	if !strings.Contains(allText(r), "Look for a unique rectangle") {
		t.Fatalf("/hint level 1:\n%s\nwant a unique rectangle named", allText(r))
	}
	r = s.Handle(ctx, click(findButton(t, r, "Show step").CustomID))
	checkLimits(t, r)
	want := "(I6 has lost its 2, but that does not rule the swap out: a solution only has to fit the givens), so remove 7 from I6."
	if !strings.Contains(allText(r), want) {
		t.Fatalf("/hint level 3:\n%s\nwant %q", allText(r), want)
	}
	r = s.Handle(ctx, click(findButton(t, r, "Next hint").CustomID))
	checkLimits(t, r)
	// With 7 gone from I6, an XY-Wing leads to the next cell.
	if !strings.Contains(allText(r), "Look for an XY-Wing") {
		t.Errorf("Next hint after the rectangle:\n%s\nwant the XY-Wing that comes next", allText(r))
	}
}

// TestHintBoardZooms checks that a step's picture on a 16x16 is a
// close-up of nine rows and columns holding the step, and that a 9x9's
// shows the whole board.
func TestHintBoardZooms(t *testing.T) {
	tests := []struct {
		name   string
		puzzle string
		zoom   bool
	}{
		{"16x16", ".G....3.....4.8..F8......1GA..3.C.B3D1....87..2.D1.9.5..B..3CA...9C..7B5.3..1E....2..DF....E.G6A..D..G4...F6B..9..G...9E.2....D..8....C.F7...4..A..G59...8B..C..36E.8....AC..7....5D..A.G6E..31...9AF..B..3.E.74.E..36....5CF8.D.5..947......1B..2.1.....D....C.", true},
		{"9x9", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGrid(tt.puzzle)
			logic, err := sudoku.NewLogic(g)
			if err != nil {
				t.Fatal(err)
			}
			for {
				step, ok := logic.NextStep()
				if !ok {
					t.Fatal("no step removes a candidate")
				}
				if len(step.Eliminations) == 0 {
					if err := logic.ApplyStep(step); err != nil {
						t.Fatal(err)
					}
					continue
				}
				b := hintBoard(gridState{Puzzle: g, Position: logic.Grid()}, sudoku.HintResult{Level: sudoku.HintStep, Step: step})
				if !tt.zoom {
					if b.Rows != nil || b.Cols != nil {
						t.Errorf("%s: rows %v, columns %v; want the whole board", step.Explanation, b.Rows, b.Cols)
					}
					return
				}
				if len(b.Rows) != zoomSide || len(b.Cols) != zoomSide {
					t.Errorf("%s: rows %v, columns %v; want %d of each", step.Explanation, b.Rows, b.Cols, zoomSide)
				}
				n := g.N()
				for _, c := range append(append(step.Eliminations, step.Causes...), step.Placements...) {
					if !slices.Contains(b.Rows, c.Cell/n) || !slices.Contains(b.Cols, c.Cell%n) {
						t.Errorf("%s: %s is not in the close-up (rows %v, columns %v)", step.Explanation, g.Shape.CellName(c.Cell), b.Rows, b.Cols)
					}
				}
				return
			}
		})
	}
}
