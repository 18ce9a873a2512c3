package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
	"sudokubot/vision"
)

// entryPicture is a picture of a half-played puzzle in testdata/pictures
// (drawn by go run ./vision/gen -entries commands/testdata/pictures): the
// givens in the givens' ink, the player's entries in the entry ink.
type entryPicture struct {
	file             string
	data             []byte
	puzzle, position *sudoku.Grid
	solution         *sudoku.Grid
	entries          int
	wrong            []int
}

func loadEntryPictures(t *testing.T) []entryPicture {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "pictures", "truth.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []entryPicture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) != 4 {
			t.Fatalf("truth.txt: %q has %d fields, want 4", line, len(fs))
		}
		if fs[0] == penPicture {
			continue // read unsure: TestPenPictureCheck
		}
		data, err := os.ReadFile(filepath.Join("testdata", "pictures", fs[0]))
		if err != nil {
			t.Fatal(err)
		}
		p := entryPicture{file: fs[0], data: data, puzzle: mustGrid(fs[1]), position: mustGrid(fs[2]), solution: mustGrid(uniqueSolution)}
		p.entries = countEntries(p.puzzle, p.position)
		p.wrong = wrongEntries(p.puzzle, p.position, p.solution)
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 4 {
		t.Fatalf("truth.txt lists %d pictures, want at least 4", len(out))
	}
	return out
}

// penPicture is the picture of testdata/pictures whose entries are in a
// black pen, as dark as the print: the reader tells them by their shape,
// and is unsure of some of their digits (handwriting).
const penPicture = "entries-pen.png"

// TestPenPictureCheck: /check on a newspaper puzzle filled in with a black
// pen shows what it read, the pen's digits taken as the player's entries
// (unsure of some), and its "Check as read" says which of them are wrong.
func TestPenPictureCheck(t *testing.T) {
	e := newPlayEnv(t)
	data, err := os.ReadFile(filepath.Join("testdata", "pictures", penPicture))
	if err != nil {
		t.Fatal(err)
	}
	truth, err := os.ReadFile(filepath.Join("testdata", "pictures", "truth.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var puzzle, position *sudoku.Grid
	for _, line := range strings.Split(string(truth), "\n") {
		if fs := strings.Split(line, "\t"); len(fs) == 4 && fs[0] == penPicture {
			puzzle, position = mustGrid(fs[1]), mustGrid(fs[2])
		}
	}
	if puzzle == nil {
		t.Fatalf("truth.txt has no line for %s", penPicture)
	}
	solution := mustGrid(uniqueSolution)
	req := ada.slash(t0, "check", "")
	req.Options[optImage] = "a1"
	req.Images = [][]byte{data}
	asked := e.do(req)
	text := allText(asked)
	entries := countEntries(puzzle, position)
	for _, w := range []string{fmt.Sprintf("I take the %d digits in lighter ink or by hand as your entries", entries), position.String()} {
		if !strings.Contains(text, w) {
			t.Errorf("/check on %s = %q, want %q in it", penPicture, text, w)
		}
	}
	wrong := wrongEntries(puzzle, position, solution)
	want := entriesNote(sudoku.Shape9, wrong, entries, true)
	if !strings.Contains(want, "3 of your 21 entries are wrong: D6, D8 and I3") {
		t.Fatalf("entriesNote = %q, want the three cells named", want)
	}
	checked := allText(e.do(ada.click(t0, findButton(t, asked, "Check as read").CustomID)))
	if !strings.Contains(checked, want) {
		t.Errorf("Check as read on %s = %q, want %q in it", penPicture, checked, want)
	}
}

// TestPictureEntries: on a picture of a half-played puzzle, /check says
// which of the player's entries are wrong, /solve answers the printed
// puzzle and says the entries were left out, /hint starts from the
// player's position, and /play goes on from it, the entries played.
func TestPictureEntries(t *testing.T) {
	ctx := context.Background()
	e := newPlayEnv(t)
	for _, p := range loadEntryPictures(t) {
		t.Run(p.file, func(t *testing.T) {
			with := func(req Request) Request {
				req.Options[optImage] = "a1"
				req.Images = [][]byte{p.data}
				return req
			}
			read := "the puzzle `" + p.puzzle.String() + "`, and " + Plural(p.entries, "entry of yours", "entries of yours")

			check := allText(e.do(with(ada.slash(t0, "check", "")))) // t0: the dailies of that day are other puzzles
			want := entriesNote(sudoku.Shape9, p.wrong, p.entries, true)
			if len(p.wrong) == 3 && !strings.Contains(want, "3 of your 21 entries are wrong: D6, D8 and I3") {
				t.Errorf("entriesNote = %q, want the three cells named", want)
			}
			for _, w := range []string{read, "Your entries: " + want, "Clues: 30 of 81"} {
				if !strings.Contains(check, w) {
					t.Errorf("/check on %s = %q, want %q in it", p.file, check, w)
				}
			}

			solve := allText(e.do(with(ada.slash(t0, "solve", ""))))
			for _, w := range []string{read, "left out", uniqueSolution} {
				if !strings.Contains(solve, w) {
					t.Errorf("/solve on %s = %q, want %q in it", p.file, solve, w)
				}
			}
			if strings.Contains(solve, "wrong:") {
				t.Errorf("/solve on %s tells which entries are wrong (only /check should): %q", p.file, solve)
			}

			hint := e.do(with(ada.slash(t0, "hint", "")))
			switch text := allText(hint); {
			case len(p.wrong) > 0:
				if !strings.Contains(text, "check your digits") || !strings.Contains(text, cellList(sudoku.Shape9, p.wrong)) {
					t.Errorf("/hint on %s (wrong entries) = %q, want them named", p.file, text)
				}
			default:
				if len(hint.Components) == 0 || len(hint.Components[0].Buttons) == 0 {
					t.Fatalf("/hint on %s = %q, no buttons", p.file, text)
				}
				_, st, err := e.s.splitCustomID(hint.Components[0].Buttons[0].CustomID, 3)
				if err != nil || st.Position == nil {
					t.Fatalf("/hint on %s: button state %v, %v", p.file, st, err)
				}
				if st.Puzzle.String() != p.puzzle.String() || st.Position.String() != p.position.String() {
					t.Errorf("/hint on %s starts from\n%s (puzzle %s), want\n%s (puzzle %s)", p.file, st.Position, st.Puzzle, p.position, p.puzzle)
				}
			}

			play := e.do(with(ada.slash(t0, "play", "")))
			id := gameID(t, play)
			g, err := e.st.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Puzzle != strings.ReplaceAll(p.puzzle.String(), ".", "0") && g.Puzzle != p.puzzle.String() {
				t.Errorf("/play on %s: game puzzle %s, want the givens %s", p.file, g.Puzzle, p.puzzle)
			}
			for i, v := range p.position.Cells {
				want := v
				if p.puzzle.Cells[i] != 0 {
					want = 0
				}
				if g.Entries[i] != want {
					t.Errorf("/play on %s: cell %s holds %d, want %d", p.file, sudoku.Shape9.CellName(i), g.Entries[i], want)
				}
			}
			if text := allText(play); !strings.Contains(text, Plural(p.entries, "entry", "entries")+" ") {
				t.Errorf("/play on %s = %q, want the entries counted", p.file, text)
			}
			checked := allText(e.do(ada.click(t0, gamePrefix+":c:"+fmt.Sprint(id))))
			if len(p.wrong) > 0 && !strings.Contains(checked, cellList(sudoku.Shape9, p.wrong)) {
				t.Errorf("game Check after /play on %s = %q, want %s named", p.file, checked, cellList(sudoku.Shape9, p.wrong))
			}
			undone := e.do(ada.click(t0, gamePrefix+":u:"+fmt.Sprint(id)))
			if g, _ := e.st.Game(ctx, id); strings.Trim(string(g.Entries), "\x00") != "" {
				t.Errorf("Undo after /play on %s = %q left entries %v", p.file, allText(undone), g.Entries)
			}
			// Solved at once: a game from a picture is neither judged nor
			// rated (its player filled part of it elsewhere).
			all := movesFor(strings.ReplaceAll(p.puzzle.String(), ".", "0"), uniqueSolution)
			e.do(ada.submit(t0.Add(time.Second), gmovePrefix+":"+fmt.Sprint(id), all))
			g, err = e.st.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != store.Solved || g.Flag != "" || judged(g) || ratedGame(g) {
				t.Errorf("/play on %s, solved at once: status %v, flag %q, judged %v, rated %v; want solved, no flag, neither judged nor rated",
					p.file, g.Status, g.Flag, judged(g), ratedGame(g))
			}
		})
	}
}

// TestWatchedPictureEntries: a picture of a half-played puzzle posted in a
// watched channel gets the offer on the printed puzzle; its Check says
// which of the poster's entries are wrong, its Hint starts from them.
func TestWatchedPictureEntries(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	if err := s.settings.SetWatched(ctx, "g1", "c1", true); err != nil {
		t.Fatal(err)
	}
	for _, p := range loadEntryPictures(t) {
		t.Run(p.file, func(t *testing.T) {
			post := mention("", false)
			post.HasImage, post.Images = true, [][]byte{p.data}
			offer := s.Handle(ctx, post)
			checkLimits(t, offer)
			if text := allText(offer); !strings.Contains(text, Plural(p.entries, "entry", "entries")+" in lighter ink or by hand") || !strings.Contains(text, "with 30 clues") {
				t.Errorf("offer = %q, want the 30 clues and %d entries", text, p.entries)
			}
			check := allText(s.Handle(ctx, click(findButton(t, offer, "Check").CustomID)))
			if want := entriesNote(sudoku.Shape9, p.wrong, p.entries, false); !strings.Contains(check, want) {
				t.Errorf("Check under the offer = %q, want %q", check, want)
			}
			_, st, err := s.splitCustomID(findButton(t, offer, "Hint").CustomID, 3)
			if err != nil || st.Position == nil || st.Position.String() != p.position.String() || st.Puzzle.String() != p.puzzle.String() {
				t.Errorf("Hint under the offer carries %v (err %v), want puzzle %s at position %s", st, err, p.puzzle, p.position)
			}
			if solve := allText(s.Handle(ctx, click(findButton(t, offer, "Solve").CustomID))); !strings.Contains(solve, uniqueSolution) {
				t.Errorf("Solve under the offer = %q, want the printed puzzle's solution", solve)
			}
		})
	}
}

func TestEntriesNote(t *testing.T) {
	tests := []struct {
		wrong   []int
		entries int
		yours   bool
		want    string
	}{
		{nil, 1, true, "Your one entry is right."},
		{nil, 21, true, "All 21 of your entries are right."},
		{[]int{3}, 1, true, "Your one entry is wrong: A4 (red in the picture)."},
		{[]int{3}, 21, true, "1 of your 21 entries is wrong: A4 (red in the picture)."},
		{[]int{2, 3}, 21, true, "2 of your 21 entries are wrong: A3 and A4 (red in the picture)."},
		{[]int{2, 3}, 2, true, "Both of your entries are wrong: A3 and A4 (red in the picture)."},
		{[]int{2, 3}, 2, false, "Both of the entries are wrong: A3 and A4 (red in the picture)."},
		{[]int{2, 3, 4}, 3, false, "All 3 of the entries are wrong: A3, A4 and A5 (red in the picture)."},
		{[]int{2, 3, 4}, 3, true, "All 3 of your entries are wrong: A3, A4 and A5 (red in the picture)."},
	}
	for _, c := range tests {
		if got := entriesNote(sudoku.Shape9, c.wrong, c.entries, c.yours); got != c.want {
			t.Errorf("entriesNote(%v, %d, %v) = %q, want %q", c.wrong, c.entries, c.yours, got, c.want)
		}
	}
}

// TestPlayFromSolvedPicture: a picture whose entries fill every empty cell
// rightly is a solved puzzle; /play says so and starts no game (a game
// solved at once could neither be played nor undone).
func TestPlayFromSolvedPicture(t *testing.T) {
	ctx := context.Background()
	e := newPlayEnv(t)
	puzzle, solved := mustGrid(uniquePuzzle), mustGrid(uniqueSolution)
	r := e.s.playFeature.playFrom(ctx, ada.slash(t0, "play", ""), puzzle, solved, nil)
	text := allText(r)
	if !r.Ephemeral || !strings.Contains(text, "already solved") || strings.Contains(text, "Undo") {
		t.Errorf("/play on a solved picture = %q (ephemeral %v), want an ephemeral note that it is solved already, no Undo", text, r.Ephemeral)
	}
	if g, err := e.st.Game(ctx, 1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("/play on a solved picture started game %d (%v), %v; want none", g.ID, g.Status, err)
	}
	// /check on it says it is solved, not only that the entries are right.
	if text := allText(e.s.checkGrid(ctx, puzzle, solved)); !strings.Contains(text, "All 51 of your entries are right: the puzzle is solved.") {
		t.Errorf("/check on a solved picture = %q, want it called solved", text)
	}
	// One entry wrong: the game goes on, full but not solved.
	wrong := mustGrid(uniqueSolution)
	wrong.Cells[2], wrong.Cells[3] = wrong.Cells[3], wrong.Cells[2]
	if text := allText(e.s.playFeature.playFrom(ctx, ada.slash(t0, "play", ""), puzzle, wrong, nil)); !strings.Contains(text, "51 entries played as one move") {
		t.Errorf("/play on a full picture with two wrong = %q, want the game going on", text)
	}
}

// TestPictureFixKeepsEntries: Fix under an unsure reading of a picture with
// entries opens the grid as read; sent back (fixed or not), the entries
// are still the player's: /check names the wrong ones rather than calling
// the puzzle unsolvable, /hint starts from them.
func TestPictureFixKeepsEntries(t *testing.T) {
	ctx := context.Background()
	s := newTestService(t, Config{})
	var light entryPicture
	for _, p := range loadEntryPictures(t) {
		if p.file == "entries-light.png" {
			light = p
		}
	}
	res := &vision.Result{Size: 9, Cells: make([]vision.Cell, 81)}
	for i, v := range light.position.Cells {
		res.Cells[i] = vision.Cell{Digit: int(v), Confidence: 1, Entry: v != 0 && light.puzzle.Cells[i] == 0}
	}
	res.Cells[1].Confidence = 0.6
	for _, cmd := range []string{"check", "hint", "solve"} {
		unsure := s.unsureReply(s.askers[cmd], newPictureRead(light.position, res), res, light.data, nil)
		fix := s.Handle(ctx, ada.click(t0, findButton(t, unsure, "Fix").CustomID))
		if fix.Modal == nil || fix.Modal.Inputs[0].Value == "" {
			t.Fatalf("%s: Fix = %+v, want the modal with the grid", cmd, fix)
		}
		if len(fix.Modal.CustomID) > 100 {
			t.Errorf("%s: the modal's id %q is longer than Discord takes", cmd, fix.Modal.CustomID)
		}
		sent := ada.req(ModalSubmit, t0)
		sent.CustomID, sent.Fields = fix.Modal.CustomID, map[string]string{optPuzzle: fix.Modal.Inputs[0].Value}
		got := allText(s.Handle(ctx, sent))
		want := entriesNote(sudoku.Shape9, light.wrong, light.entries, true)
		switch cmd {
		case "hint":
			want = "3 entries don't fit the solution (D6, D8 and I3)"
		case "solve": // the printed puzzle, the entries left out as in runRead
			if !strings.Contains(got, uniqueSolution) {
				t.Errorf("solve after Fix = %q, want the printed puzzle's solution", got)
			}
			want = "Your entries were taken as yours and left out"
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s after Fix = %q, want %q in it", cmd, got, want)
		}
	}
}
