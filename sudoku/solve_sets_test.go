package sudoku

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// setPuzzle is one puzzle of a data set under testdata/sets.
type setPuzzle struct {
	Line     int    // 1-based line in the file
	Grid     *Grid  // the puzzle
	Solution *Grid  // the published solution, when the set has one
	Name     string // the puzzle's name, when the set has one
}

var (
	setCacheMu sync.Mutex
	setCache   = map[string][]setPuzzle{}
)

// mustLoadPuzzleSet reads testdata/sets/NAME (or NAME.gz). It understands the
// layouts of the sets: one puzzle per line ('.' or '0' blank, '#' comments,
// an optional name after a tab or space), "puzzle,solution" lines after a
// count (hard10k_solved), and Gecode's "index N clues grid" lines whose
// values are 1-9 then A=10 … P=25. It decodes the cells itself so that the
// solver's tests do not depend on the parser.
func mustLoadPuzzleSet(tb testing.TB, name string) []setPuzzle {
	tb.Helper()
	setCacheMu.Lock()
	defer setCacheMu.Unlock()
	if ps, ok := setCache[name]; ok {
		return ps
	}
	ps, err := loadSet(name)
	if err != nil {
		tb.Fatalf("load %s: %v", name, err)
	}
	if len(ps) == 0 {
		tb.Fatalf("load %s: no puzzles", name)
	}
	setCache[name] = ps
	return ps
}

func loadSet(name string) ([]setPuzzle, error) {
	path := filepath.Join("testdata", "sets", name)
	var r io.Reader
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		f, err = os.Open(path + ".gz")
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		r = zr
	} else if err != nil {
		return nil, err
	} else {
		r = f
	}
	defer f.Close()
	gecode := strings.HasPrefix(name, "gecode_")
	var out []setPuzzle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		p := setPuzzle{Line: line}
		switch {
		case gecode:
			var idx, n, clues int
			var cells string
			if _, err := fmt.Sscan(text, &idx, &n, &clues, &cells); err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			p.Name = fmt.Sprintf("gecode %d", idx)
			p.Grid, err = decodeSetGrid(cells)
			if err == nil && p.Grid.Clues() != clues {
				err = fmt.Errorf("%d clues, the line says %d", p.Grid.Clues(), clues)
			}
		case strings.Contains(text, ","):
			puz, sol, _ := strings.Cut(text, ",")
			p.Grid, err = decodeSetGrid(puz)
			if err == nil {
				p.Solution, err = decodeSetGrid(sol)
			}
		case !strings.ContainsAny(text, " \t") && len(text) < 10:
			continue // the count line of hard10k_solved
		default:
			cells, rest, _ := strings.Cut(strings.ReplaceAll(text, "\t", " "), " ")
			p.Name = strings.TrimSpace(rest)
			p.Grid, err = decodeSetGrid(cells)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// decodeSetGrid reads a one-line grid of the data sets: '.' or '0' blank,
// '1'-'9' then 'A'=10 … 'P'=25.
func decodeSetGrid(s string) (*Grid, error) {
	n := 0
	for k := 4; k <= MaxN; k++ {
		if k*k == len(s) {
			n = k
		}
	}
	shape, ok := ShapeFor(n)
	if !ok {
		return nil, fmt.Errorf("%d cells is not a square grid", len(s))
	}
	g := New(shape)
	if n > 9 {
		g.Alphabet = Alphabet("123456789ABCDEFGHIJKLMNOP"[:n])
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '.' || ch == '0':
		case ch >= '1' && ch <= '9':
			g.Cells[i] = ch - '0'
		case ch >= 'A' && ch <= 'P':
			g.Cells[i] = ch - 'A' + 10
		default:
			return nil, fmt.Errorf("cell %d: unexpected %q", i+1, ch)
		}
		if int(g.Cells[i]) > n {
			return nil, fmt.Errorf("cell %d: %q is above %d", i+1, ch, n)
		}
	}
	return g, nil
}

// checkSolvedGrid returns why sol is not a valid completion of puzzle, or nil.
func checkSolvedGrid(puzzle, sol *Grid) error {
	if sol == nil {
		return fmt.Errorf("nil solution")
	}
	if sol.Shape != puzzle.Shape || sol.Alphabet != puzzle.Alphabet {
		return fmt.Errorf("solution has shape %v alphabet %q, puzzle %v %q", sol.Shape, sol.Alphabet, puzzle.Shape, puzzle.Alphabet)
	}
	if len(sol.Cells) != len(puzzle.Cells) {
		return fmt.Errorf("solution has %d cells, puzzle %d", len(sol.Cells), len(puzzle.Cells))
	}
	n := puzzle.N()
	for i, v := range sol.Cells {
		if v < 1 || int(v) > n {
			return fmt.Errorf("cell %s holds %d", puzzle.Shape.CellName(i), v)
		}
		if g := puzzle.Cells[i]; g != 0 && g != v {
			return fmt.Errorf("cell %s holds %d, the given is %d", puzzle.Shape.CellName(i), v, g)
		}
	}
	geo := puzzle.Shape.Geometry()
	for u, cells := range geo.UnitCells {
		var seen uint32
		for _, c := range cells {
			seen |= 1 << sol.Cells[c]
		}
		if seen != (uint32(1)<<(n+1))-2 {
			return fmt.Errorf("%v does not hold every value", geo.Units[u])
		}
	}
	return nil
}
