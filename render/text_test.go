package render

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"sudokubot/sudoku"
)

// textVariants are the layouts the golden files cover.
var textVariants = []struct {
	name string
	opts TextOptions
}{
	{"box", TextOptions{}},
	{"ascii", TextOptions{ASCII: true}},
	{"nocoords", TextOptions{NoCoords: true}},
	{"compact", TextOptions{Compact: true}},
	{"compact-ascii", TextOptions{Compact: true, ASCII: true}},
}

func shapeName(s sudoku.Shape) string { return fmt.Sprintf("%dx%d", s.N(), s.N()) }

func TestFormatGridGolden(t *testing.T) {
	for _, s := range testShapes {
		puzzle, _ := newTestPuzzle(t, s)
		for _, v := range textVariants {
			name := shapeName(s) + "-" + v.name
			t.Run(name, func(t *testing.T) {
				checkGolden(t, "text/"+name+".txt", FormatGrid(puzzle, v.opts))
			})
		}
	}
}

func TestBoardTextGolden(t *testing.T) {
	puzzle := mustGrid(t, classicPuzzle)
	solution := mustGrid(t, classicSolution)
	position := puzzle.Clone()
	position.Cells[2], position.Cells[3] = 4, 5 // 4 is right, 5 is wrong
	hint := Playing(puzzle, position).WithWrong(solution).MarkCells(Target, 40).MarkCells(Cause, 39, 41)
	tests := []struct {
		name  string
		board *Board
		opts  TextOptions
	}{
		{"puzzle", New(puzzle), TextOptions{}},
		{"solved", Solved(puzzle, solution), TextOptions{}},
		{"solved-side", Solved(puzzle, solution), TextOptions{SideBySide: true}},
		{"solved-side-ascii", Solved(puzzle, solution), TextOptions{SideBySide: true, ASCII: true}},
		{"playing-markers", hint, TextOptions{Markers: true}},
		{"clash-markers", New(mustGrid(t, "55"+classicPuzzle[2:])).WithClashes(mustGrid(t, "55"+classicPuzzle[2:]).Clashes()), TextOptions{Markers: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.board.Text(tt.opts)
			if err != nil {
				t.Fatalf("Text: %v", err)
			}
			if tt.opts.Markers {
				got += "legend: " + tt.board.Legend() + "\n"
			}
			checkGolden(t, "text/board-"+tt.name+".txt", got)
		})
	}
}

func TestTextParsesBack(t *testing.T) {
	for _, s := range testShapes {
		puzzle, solution := newTestPuzzle(t, s)
		for _, v := range textVariants {
			t.Run(shapeName(s)+"-"+v.name, func(t *testing.T) {
				for _, g := range []*sudoku.Grid{puzzle, solution} {
					text := FormatGrid(g, v.opts)
					back, err := sudoku.Parse(text)
					if err != nil {
						t.Fatalf("Parse(%q): %v", text, err)
					}
					if !back.Equal(g) {
						t.Fatalf("Parse(%q) = %s, want %s", text, back, g)
					}
				}
			})
		}
	}
}

// TestBoardTextParsesBack splits a solved board's text into its two grids
// and reads each back.
func TestBoardTextParsesBack(t *testing.T) {
	for _, s := range testShapes {
		puzzle, solution := newTestPuzzle(t, s)
		for _, v := range textVariants {
			t.Run(shapeName(s)+"-"+v.name, func(t *testing.T) {
				text, err := Solved(puzzle, solution).Text(v.opts)
				if err != nil {
					t.Fatal(err)
				}
				parts := strings.Split(text, "\nsolution\n")
				if len(parts) != 2 || !strings.HasPrefix(parts[0], "puzzle\n") {
					t.Fatalf("Text = %q, want a puzzle part and a solution part", text)
				}
				for i, want := range []*sudoku.Grid{puzzle, solution} {
					part := strings.TrimPrefix(parts[i], "puzzle\n")
					back, err := sudoku.Parse(part)
					if err != nil {
						t.Fatalf("Parse(%q): %v", part, err)
					}
					if !back.Equal(want) {
						t.Fatalf("Parse(%q) = %s, want %s", part, back, want)
					}
				}
			})
		}
	}
}

func TestTextShape(t *testing.T) {
	// Every line of a board is equally wide (coordinates aside), so it
	// lines up in any monospace font.
	for _, s := range testShapes {
		puzzle, _ := newTestPuzzle(t, s)
		for _, v := range textVariants {
			text := FormatGrid(puzzle, v.opts)
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if !v.opts.NoCoords && (s.N() <= 9 || !v.opts.Compact) {
				lines = lines[1:] // the column numbers
			}
			if want := s.N() + s.N()/s.BoxRows + 1; len(lines) != want {
				t.Errorf("%s %s: %d lines, want %d rows and rules", shapeName(s), v.name, len(lines), want)
			}
			width := utf8.RuneCountInString(lines[0])
			for i, l := range lines {
				if w := utf8.RuneCountInString(l); w != width {
					t.Errorf("%s %s: line %d is %d wide, line 1 is %d: %q", shapeName(s), v.name, i+1, w, width, l)
				}
			}
		}
	}
}

func TestCodeBlockFits(t *testing.T) {
	for _, s := range testShapes {
		puzzle, solution := newTestPuzzle(t, s)
		for _, b := range []struct {
			name  string
			board *Board
		}{{"puzzle", New(puzzle)}, {"solved", Solved(puzzle, solution)}} {
			for _, ascii := range []bool{false, true} {
				name := fmt.Sprintf("%s-%s-ascii=%v", shapeName(s), b.name, ascii)
				t.Run(name, func(t *testing.T) {
					block, ok := b.board.CodeBlock(TextOptions{ASCII: ascii}, 0)
					// Every shape's puzzle fits a message; so does every
					// solved board but the 25x25 one, whose two grids
					// need more than 2,000 characters even compact.
					wantOK := b.name == "puzzle" || s.N() < 25
					if ok != wantOK {
						t.Fatalf("CodeBlock ok = %v, want %v", ok, wantOK)
					}
					if !ok {
						if block != "" {
							t.Errorf("CodeBlock returned %d characters with ok = false", len(block))
						}
						return
					}
					if n := utf8.RuneCountInString(block); n > DiscordLimit {
						t.Errorf("CodeBlock is %d characters, more than %d", n, DiscordLimit)
					}
					if !strings.HasPrefix(block, "```\n") || !strings.HasSuffix(block, "\n```") {
						t.Errorf("CodeBlock = %q, want a fenced block", block)
					}
					// 9x9 and smaller keep the roomiest layout.
					if s.N() <= 9 && !strings.Contains(block, "A ") {
						t.Errorf("CodeBlock of a %s dropped the coordinates:\n%s", shapeName(s), block)
					}
				})
			}
		}
	}
}

func TestCodeBlockLimit(t *testing.T) {
	puzzle, _ := newTestPuzzle(t, sudoku.Shape9)
	b := New(puzzle)
	roomy, _ := b.Text(TextOptions{})
	compact, _ := b.Text(TextOptions{Compact: true, NoCoords: true})
	fence := len("```\n```")
	tests := []struct {
		limit  int
		wantOK bool
		want   string
	}{
		{utf8.RuneCountInString(roomy) + fence, true, roomy},
		{utf8.RuneCountInString(roomy) + fence - 1, true, ""},
		{utf8.RuneCountInString(compact) + fence, true, compact},
		{utf8.RuneCountInString(compact) + fence - 1, false, ""},
	}
	for _, tt := range tests {
		got, ok := b.CodeBlock(TextOptions{}, tt.limit)
		if ok != tt.wantOK {
			t.Errorf("CodeBlock(limit %d) ok = %v, want %v", tt.limit, ok, tt.wantOK)
			continue
		}
		if n := utf8.RuneCountInString(got); n > tt.limit {
			t.Errorf("CodeBlock(limit %d) is %d characters", tt.limit, n)
		}
		if tt.want != "" && got != "```\n"+tt.want+"```" {
			t.Errorf("CodeBlock(limit %d) = %q, want %q fenced", tt.limit, got, tt.want)
		}
	}
}

func TestTextRejectsBadBoards(t *testing.T) {
	g := mustGrid(t, classicPuzzle)
	other := newTestSolution(sudoku.Shape6)
	tests := []struct {
		name  string
		board *Board
	}{
		{"nil puzzle", &Board{}},
		{"values of another shape", Playing(g, other)},
		{"short pencil", &Board{Puzzle: g, Pencil: make([]uint32, 5)}},
		{"value too big", &Board{Puzzle: &sudoku.Grid{Shape: sudoku.Shape4, Alphabet: "1234", Cells: append([]uint8{9}, make([]uint8, 15)...)}}},
		{"bad shape", &Board{Puzzle: &sudoku.Grid{Shape: sudoku.Shape{BoxRows: 1, BoxCols: 1}, Alphabet: "1", Cells: []uint8{0}}}},
		{"short cells", &Board{Puzzle: &sudoku.Grid{Shape: sudoku.Shape4, Alphabet: "1234", Cells: []uint8{0}}}},
		{"short alphabet", &Board{Puzzle: &sudoku.Grid{Shape: sudoku.Shape4, Alphabet: "12", Cells: make([]uint8, 16)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := tt.board.Text(TextOptions{}); err == nil {
				t.Errorf("Text = %q, want an error", got)
			}
			if got, ok := tt.board.CodeBlock(TextOptions{}, 0); ok {
				t.Errorf("CodeBlock = %q, true; want false", got)
			}
			if _, err := tt.board.PNG(ImageOptions{}); err == nil {
				t.Errorf("PNG: want an error")
			}
		})
	}
}
