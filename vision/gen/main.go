// Command gen makes the pictures vision's tests read: screenshots drawn by
// sudokubot's own renderer in both themes, HTML grids in fonts and colour
// schemes the classifier never trained on (screenshotted by headless
// Chromium), and simulated phone photos of some of them. It writes the
// pictures and truth.txt (file, the grid as one line, kind) under -out.
//
//	go run ./vision/gen -puzzles ../shared/data/hard10k_solved.txt
//	go run ./vision/gen -sizes 12      # other sizes, under vision/testdata/sizes
//	go run ./vision/gen -negatives 4   # grids that are no Sudoku, under vision/testdata/negatives
//	go run ./vision/gen -kinds 20      # night-theme phone screenshots, photos of screens, under vision/testdata/kinds
//	go run ./vision/gen -entries commands/testdata/pictures   # a half-played puzzle, for commands' tests
//	go run ./vision/gen -handwriting 10 -mnist DIR   # handwritten digits, under vision/testdata/handwriting
//	go run ./vision/gen -darkpen 8 -mnist DIR        # entries as dark as the print, under vision/testdata/darkpen
//
// Chromium comes from Debian (apt-get install chromium fonts-noto-core
// fonts-roboto fonts-open-sans fonts-crosextra-carlito
// fonts-crosextra-caladea); CI only reads the committed pictures.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"sudokubot/sudoku"
)

func main() {
	puzzles := flag.String("puzzles", "../shared/data/hard10k_solved.txt", "puzzle,solution lines (0 blank)")
	out := flag.String("out", "vision/testdata", "where to write the pictures and truth.txt")
	seed := flag.Uint64("seed", 7, "random seed")
	nRender := flag.Int("render", 40, "renderer screenshots")
	nHTML := flag.Int("html", 36, "HTML screenshots")
	nPhoto := flag.Int("photos", 60, "simulated photos")
	chromium := flag.String("chromium", "chromium", "the headless browser")
	sizes := flag.Int("sizes", 0, "instead, make this many 6x6 screenshots and as many photos of them, half as many of 16x16, and a few of every other size under -out/sizes")
	negatives := flag.Int("negatives", 0, "instead, make this many pictures of each kind of grid that is no Sudoku under -out/negatives")
	handwriting := flag.Int("handwriting", 0, "instead, make this many held-out handwriting pictures of each kind under -out/handwriting (needs -mnist)")
	darkpen := flag.Int("darkpen", 0, "instead, make this many pictures of each kind whose entries are in pen as dark as the print under -out/darkpen (needs -mnist)")
	mnistDir := flag.String("mnist", "", "MNIST's data folder (see package vision/internal/mnist), for -handwriting and -darkpen")
	kinds := flag.Int("kinds", 0, "instead, make this many pictures of each failure kind of issue #30 (night-theme phone screenshots, photos of screens) under -out/kinds")
	entries := flag.String("entries", "", "instead, draw a half-played puzzle (givens, entries, some wrong) under this folder, for package commands' tests")
	flag.Parse()
	if *handwriting > 0 {
		if err := runHandwriting(filepath.Join(*out, "handwriting"), *mnistDir, *seed, *handwriting); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if *darkpen > 0 {
		if err := runDarkPen(filepath.Join(*out, "darkpen"), *mnistDir, *seed, *darkpen); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if *entries != "" {
		if err := runEntries(*entries, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if *kinds > 0 {
		if err := runKinds(filepath.Join(*out, "kinds"), *seed, *kinds, *chromium); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if *negatives > 0 {
		if err := runNegatives(filepath.Join(*out, "negatives"), *seed, *negatives); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if *sizes > 0 {
		if err := runSizes(filepath.Join(*out, "sizes"), *seed, *sizes); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*puzzles, *out, *seed, *nRender, *nHTML, *nPhoto, *chromium); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// puzzle is a puzzle and its solution, 81 bytes each, 0 for blank.
type puzzle struct{ givens, solution string }

func loadPuzzles(path string) ([]puzzle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []puzzle
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		a, b, ok := strings.Cut(strings.TrimSpace(sc.Text()), ",")
		if ok && len(a) == 81 && len(b) == 81 {
			out = append(out, puzzle{a, b})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no puzzle,solution lines", path)
	}
	return out, sc.Err()
}

// state is what a picture shows: the values (givens and a player's
// entries, 0 blank) and which empty cells carry pencil marks.
type state struct {
	values  [81]uint8
	entries [81]bool // the value was typed by a player
	pencil  [81]uint16
}

// playState picks givens, some entries from the solution, and (if marks)
// pencil marks in some empty cells.
func playState(rng *rand.Rand, p puzzle, entries int, marks bool) state {
	var s state
	for i := 0; i < 81; i++ {
		s.values[i] = p.givens[i] - '0'
	}
	for k := 0; k < entries; k++ {
		i := rng.IntN(81)
		if s.values[i] == 0 {
			s.values[i] = p.solution[i] - '0'
			s.entries[i] = true
		}
	}
	if marks {
		for i := 0; i < 81; i++ {
			if s.values[i] == 0 && rng.IntN(3) > 0 {
				s.pencil[i] = candidates(&s.values, i)
			}
		}
	}
	return s
}

func candidates(v *[81]uint8, i int) uint16 {
	r, c := i/9, i%9
	m := uint16(0x1ff)
	for k := 0; k < 9; k++ {
		for _, j := range []int{r*9 + k, k*9 + c, (r/3*3+k/3)*9 + c/3*3 + k%3} {
			if v[j] != 0 {
				m &^= 1 << (v[j] - 1)
			}
		}
	}
	return m
}

func (s *state) line() string {
	b := make([]byte, 81)
	for i, v := range s.values {
		if v == 0 {
			b[i] = '.'
		} else {
			b[i] = '0' + v
		}
	}
	return string(b)
}

type truth struct {
	lines []string
}

func (t *truth) add(name, grid, kind string) {
	t.lines = append(t.lines, fmt.Sprintf("%s\t%s\t%s", name, grid, kind))
}

// addEntries adds a picture whose filled cells are told apart: entries is
// a character per cell, g for a given, e for a player's entry, . empty.
func (t *truth) addEntries(name, grid, kind, entries string) {
	if entries == "" {
		t.add(name, grid, kind)
		return
	}
	t.lines = append(t.lines, fmt.Sprintf("%s\t%s\t%s\t%s", name, grid, kind, entries))
}

// entryMask is the entries column of truth.txt for a position played from
// a puzzle.
func entryMask(puzzle, position *sudoku.Grid) string {
	b := make([]byte, len(position.Cells))
	for i, v := range position.Cells {
		switch {
		case v == 0:
			b[i] = '.'
		case puzzle.Cells[i] != 0:
			b[i] = 'g'
		default:
			b[i] = 'e'
		}
	}
	return string(b)
}

func run(puzzlePath, out string, seed uint64, nRender, nHTML, nPhoto int, chromium string) error {
	ps, err := loadPuzzles(puzzlePath)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, d := range []string{"screens", "photos"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return err
		}
	}
	var t truth
	var sources []source
	pick := func() puzzle { return ps[rng.IntN(len(ps))] }
	for i := 0; i < nRender; i++ {
		src, err := renderShot(rng, pick(), i, out, &t)
		if err != nil {
			return err
		}
		sources = append(sources, src)
	}
	for i := 0; i < nHTML; i++ {
		src, err := htmlShot(rng, pick(), i, out, chromium, &t)
		if err != nil {
			return err
		}
		sources = append(sources, src)
	}
	for i := 0; i < nPhoto; i++ {
		src := sources[rng.IntN(len(sources))]
		for src.img.Bounds().Dy() > 1000 { // a phone screenshot: its grid would be tiny
			src = sources[rng.IntN(len(sources))]
		}
		if err := photo(rng, src, fmt.Sprintf("photos/photo-%02d.jpg", i), out, &t); err != nil {
			return err
		}
	}
	data := "# file\tgrid (. blank)\tkind — made by go run ./vision/gen\n" + strings.Join(t.lines, "\n") + "\n"
	return os.WriteFile(filepath.Join(out, "truth.txt"), []byte(data), 0o644)
}
