package render

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sudokubot/sudoku"
)

var update = flag.Bool("update", false, "update golden files in testdata/")

// testShapes are the shapes people play, smallest first.
var testShapes = []sudoku.Shape{
	sudoku.Shape4, sudoku.Shape6, sudoku.Shape8, sudoku.Shape9,
	sudoku.Shape12, sudoku.Shape16, sudoku.Shape25,
}

// newTestSolution returns a complete, valid grid of shape s: the usual
// shifted pattern, row r of band b starting at b + boxCols*(r mod boxRows).
func newTestSolution(s sudoku.Shape) *sudoku.Grid {
	g := sudoku.New(s)
	n := s.N()
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			g.Set(r, c, (s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%n+1)
		}
	}
	return g
}

// newTestPuzzle returns newTestSolution(s) with about two cells in five
// kept, in a fixed scattered pattern, and the solution.
func newTestPuzzle(t testing.TB, s sudoku.Shape) (puzzle, solution *sudoku.Grid) {
	t.Helper()
	solution = newTestSolution(s)
	if len(solution.Clashes()) != 0 {
		t.Fatalf("test solution of %s clashes: %v", s, solution.Clashes())
	}
	puzzle = solution.Clone()
	for i := range puzzle.Cells {
		if (i*7+i/s.N()*3)%5 >= 2 {
			puzzle.Cells[i] = 0
		}
	}
	return puzzle, solution
}

// mustGrid parses a one-line puzzle.
func mustGrid(t testing.TB, line string) *sudoku.Grid {
	t.Helper()
	g, err := sudoku.Parse(line)
	if err != nil {
		t.Fatalf("Parse(%q): %v", line, err)
	}
	return g
}

// checkGolden compares got with testdata/name, or rewrites the file when
// -update is set.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update if the change is meant):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// the classic puzzle from Wikipedia's Sudoku article, and its solution.
const (
	classicPuzzle   = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	classicSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
