package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"sudokubot/store"
	"sudokubot/sudoku"
)

func TestParseMoves(t *testing.T) {
	// playPuzzles[0]: A5 is a given 7, A1..A4 are empty.
	puzzle := mustGrid(playPuzzles[0][0])
	tests := []struct {
		text string
		want []move   // Text is not compared
		bad  []string // substrings of each bad move's message, in order
	}{
		{"A1 5", []move{{Cell: 0, Kind: movePlace, Value: 5}}, nil},
		{"a1=5", []move{{Cell: 0, Kind: movePlace, Value: 5}}, nil},
		{"A1:5", []move{{Cell: 0, Kind: movePlace, Value: 5}}, nil},
		{"r1c2 5", []move{{Cell: 1, Kind: movePlace, Value: 5}}, nil},
		{"R2C1=9", []move{{Cell: 9, Kind: movePlace, Value: 9}}, nil},
		{"I9 1", []move{{Cell: 80, Kind: movePlace, Value: 1}}, nil},
		{"A1 .", []move{{Cell: 0, Kind: moveClear}}, nil},
		{"A1 0, A2 x, A3 clear", []move{{Cell: 0, Kind: moveClear}, {Cell: 1, Kind: moveClear}, {Cell: 2, Kind: moveClear}}, nil},
		{"A1 p123", []move{{Cell: 0, Kind: movePencil, Pencil: 0b111}}, nil},
		{"A1 P93", []move{{Cell: 0, Kind: movePencil, Pencil: 1<<8 | 1<<2}}, nil},
		{"A1 p", []move{{Cell: 0, Kind: movePencil}}, nil},
		{"B1 p4 8", []move{{Cell: 9, Kind: movePencil, Pencil: 1<<3 | 1<<7}}, nil},
		{"B1 p 4 8 9, A1 5", []move{{Cell: 9, Kind: movePencil, Pencil: 1<<3 | 1<<7 | 1<<8}, {Cell: 0, Kind: movePlace, Value: 5}}, nil},
		{"B1 p4 8 A1 5", []move{{Cell: 9, Kind: movePencil, Pencil: 1<<3 | 1<<7}, {Cell: 0, Kind: movePlace, Value: 5}}, nil},
		{"B1 p4 x", []move{{Cell: 9, Kind: movePencil, Pencil: 1 << 3}}, []string{"`x` — not a cell"}},
		{"A1 5, B2 3", []move{{Cell: 0, Kind: movePlace, Value: 5}, {Cell: 10, Kind: movePlace, Value: 3}}, nil},
		{"A1 5 B2 3", []move{{Cell: 0, Kind: movePlace, Value: 5}, {Cell: 10, Kind: movePlace, Value: 3}}, nil},
		{"A1 5\nB2 3\r\n\nA3 4;A4 2", []move{{Cell: 0, Kind: movePlace, Value: 5}, {Cell: 10, Kind: movePlace, Value: 3}, {Cell: 2, Kind: movePlace, Value: 4}, {Cell: 3, Kind: movePlace, Value: 2}}, nil},
		{"  ", nil, nil},
		{"A5 3", nil, []string{"A5 is a given (7) and can't be changed"}},
		{"A5 .", nil, []string{"A5 is a given"}},
		{"J1 3", nil, []string{"`J1` — not a cell: rows go A to I, columns 1 to 9"}},
		{"A10 3, A1 4", []move{{Cell: 0, Kind: movePlace, Value: 4}}, []string{"`A10` — not a cell"}},
		{"A1 12", nil, []string{"12 is not a value here"}},
		{"A1 q", nil, []string{`"q" is not a symbol`}},
		{"A1 p1z", nil, []string{`'z' is not a symbol`}},
		{"A1", nil, []string{"no value: write `A1 5`"}},
		{"A1 B2 3", []move{{Cell: 10, Kind: movePlace, Value: 3}}, []string{"`A1` — no value"}},
		{"hello world", nil, []string{"`hello` — not a cell"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			moves, bad, pasted := parseMoves(tt.text, puzzle)
			if pasted {
				t.Fatalf("parseMoves(%q) read a pasted grid", tt.text)
			}
			if len(moves) != len(tt.want) {
				t.Fatalf("parseMoves(%q) = %+v, want %+v", tt.text, moves, tt.want)
			}
			for i, m := range moves {
				m.Text = ""
				if m != tt.want[i] {
					t.Errorf("parseMoves(%q) move %d = %+v, want %+v", tt.text, i, m, tt.want[i])
				}
			}
			if len(bad) != len(tt.bad) {
				t.Fatalf("parseMoves(%q) bad = %v, want %d", tt.text, bad, len(tt.bad))
			}
			for i, b := range bad {
				if !strings.Contains(b.String(), tt.bad[i]) {
					t.Errorf("parseMoves(%q) bad %d = %q, want it to contain %q", tt.text, i, b.String(), tt.bad[i])
				}
			}
		})
	}
}

func TestParseMovesBigBoards(t *testing.T) {
	g16 := sudoku.New(sudoku.Shape16)
	moves, bad, _ := parseMoves("P16 G, A1 12, A2 c, r16c1 1", g16)
	if len(bad) != 0 || len(moves) != 4 {
		t.Fatalf("16x16 moves = %+v, bad %v", moves, bad)
	}
	if moves[0].Cell != 255 || moves[0].Value != 16 || moves[1].Value != 12 || moves[2].Value != 12 || moves[3].Cell != 240 {
		t.Errorf("16x16 moves = %+v", moves)
	}
	g25 := sudoku.New(sudoku.Shape25)
	// On a 25x25 letters are symbols: "A1 B" puts B, and "p" alone is P.
	moves, bad, _ = parseMoves("A1 B, Y25 p, A2 pAB", g25)
	if len(bad) != 0 || len(moves) != 3 || moves[0].Value != 2 || moves[1].Cell != 624 || moves[1].Value != 16 || moves[2].Pencil != 0b11 {
		t.Errorf("25x25 moves = %+v, bad %v", moves, bad)
	}
}

func TestParsePastedGrid(t *testing.T) {
	puzzle := mustGrid(playPuzzles[0][0])
	moves, bad, pasted := parseMoves(playPuzzles[0][1], puzzle)
	if !pasted || len(bad) != 0 || len(moves) != len(puzzle.Cells)-puzzle.Clues() {
		t.Fatalf("pasting the solution: pasted %v, %d moves, bad %v", pasted, len(moves), bad)
	}
	for _, m := range moves {
		if m.Kind != movePlace || m.Value != playPuzzles[0][1][m.Cell]-'0' {
			t.Errorf("pasted move %+v disagrees with the solution", m)
		}
	}
	// The puzzle itself clears every entry.
	moves, _, _ = parseMoves(playPuzzles[0][0], puzzle)
	for _, m := range moves {
		if m.Kind != moveClear {
			t.Errorf("pasting the puzzle gave %+v, want clears only", m)
		}
	}
}

func FuzzParseMoves(f *testing.F) {
	for _, s := range []string{"A1 5", "a1=5, r2c3 4\nI9 .", "A1 p123", "J1 3 A1", playPuzzles[1][1], "A1 B2 3 C"} {
		f.Add(s)
	}
	puzzle := mustGrid(playPuzzles[0][0])
	f.Fuzz(func(t *testing.T, text string) {
		moves, _, _ := parseMoves(text, puzzle)
		if len(moves) > maxMoves {
			t.Errorf("%d moves, limit %d", len(moves), maxMoves)
		}
		for _, m := range moves {
			if m.Cell < 0 || m.Cell >= 81 || puzzle.Cells[m.Cell] != 0 {
				t.Fatalf("move %+v is off the board or on a given", m)
			}
			if m.Value > 9 || m.Pencil>>9 != 0 || (m.Kind != movePlace && m.Value != 0) {
				t.Fatalf("move %+v has a value out of range", m)
			}
		}
	})
}

// TestMoveExamplesFit: every example move shown to a player (the line under
// the board, the moves box's label and placeholder, the "no value" message)
// plays on an empty board of the game's size and symbols, so a 4x4 is never
// told to write `A1 5`.
func TestMoveExamplesFit(t *testing.T) {
	backquoted := regexp.MustCompile("`([^`]*)`")
	for _, tt := range []struct {
		name     string
		shape    sudoku.Shape
		alphabet sudoku.Alphabet // empty: the default
		place    string          // the value the examples place
	}{
		{"4x4", sudoku.Shape{BoxRows: 2, BoxCols: 2}, "", "3"},
		{"6x6", sudoku.Shape{BoxRows: 2, BoxCols: 3}, "", "5"},
		{"8x8", sudoku.Shape{BoxRows: 2, BoxCols: 4}, "", "5"},
		{"9x9", sudoku.Shape9, "", "5"},
		{"9x9 in letters", sudoku.Shape9, "AELMNOSTW", "N"},
		{"12x12", sudoku.Shape{BoxRows: 3, BoxCols: 4}, "", "5"},
		{"16x16", sudoku.Shape{BoxRows: 4, BoxCols: 4}, "", "5"},
		{"16x16 in 0-F", sudoku.Shape{BoxRows: 4, BoxCols: 4}, "0123456789ABCDEF", "4"},
		{"25x25", sudoku.Shape{BoxRows: 5, BoxCols: 5}, "", "E"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			puzzle := sudoku.New(tt.shape)
			if tt.alphabet != "" {
				puzzle.Alphabet = tt.alphabet
			}
			var examples []string
			help := movesHelp(puzzle)
			for _, m := range backquoted.FindAllStringSubmatch(help, -1) {
				examples = append(examples, m[1])
			}
			in := movesModal(store.Game{ID: 1}, puzzle).Modal.Inputs[0]
			label := strings.TrimSuffix(strings.TrimPrefix(in.Label, "Moves ("), ")")
			examples = append(examples, strings.ReplaceAll(label, " to clear", ""), in.Placeholder)
			if utf8.RuneCountInString(in.Label) > MaxTextInputLabel {
				t.Errorf("label %q is over %d characters", in.Label, MaxTextInputLabel)
			}
			_, bad, _ := parseMoves("C2", puzzle) // a cell with no value
			for _, m := range backquoted.FindAllStringSubmatch(bad[0].Why, -1) {
				examples = append(examples, m[1])
			}
			if want := "`A1 " + tt.place + "`"; !strings.Contains(help, want) {
				t.Errorf("movesHelp = %q, want it to show %s", help, want)
			}
			for _, ex := range examples {
				moves, bad, _ := parseMoves(ex, puzzle)
				if len(moves) == 0 || len(bad) > 0 {
					t.Errorf("example %q on an empty %s: moves %v, bad %v; want it to play", ex, tt.name, moves, bad)
				}
			}
		})
	}
}
