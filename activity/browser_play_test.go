package activity

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubot/sudoku"
)

// The single-player board in a browser: a 9x9 daily to the finish screen
// and its leaderboard, hints drawn and applied, auto-candidates, give up,
// and a 25x25 on a desktop.

// runSteps runs steps, failing t with what was being done.
func runSteps(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitJS waits until the expression js is true; the error names what.
func waitJS(what, js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if _, err := chromedp.Poll[bool](js)(pctx, t); err != nil {
			state, _ := chromedp.Evaluate[string](`"note: " + document.getElementById("note").textContent + " | error: " + document.getElementById("error").textContent`)(ctx, t)
			return fmt.Errorf("waited for %s: %w (%s)", what, err, state)
		}
		return nil
	})
}

// waitText waits until the element's text contains want.
func waitText(id, want string) chromedp.Action[chromedp.Void] {
	return waitJS(fmt.Sprintf("#%s to say %q", id, want), fmt.Sprintf(`(document.getElementById(%q)?.textContent || "").includes(%q)`, id, want))
}

// shot keeps a screenshot as name in SUDOKUBOT_SHOTS, when set.
func shot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		dir := os.Getenv("SUDOKUBOT_SHOTS")
		if dir == "" {
			return nil
		}
		png, err := chromedp.CaptureScreenshot()(ctx, t)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), png, 0o644)
	})
}

// evalJS evaluates js into out.
func evalJS[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// arrows are the keys that move the selection from cell at to cell c.
func arrows(n, at, c int) string {
	var keys strings.Builder
	for r := at / n; r < c/n; r++ {
		keys.WriteString(kb.ArrowDown)
	}
	for r := at / n; r > c/n; r-- {
		keys.WriteString(kb.ArrowUp)
	}
	for col := at % n; col < c%n; col++ {
		keys.WriteString(kb.ArrowRight)
	}
	for col := at % n; col > c%n; col-- {
		keys.WriteString(kb.ArrowLeft)
	}
	return keys.String()
}

func TestBrowserPlaysA9x9Daily(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	// The sign-ins the page makes: through the SDK's mock, outside Discord.
	var mu sync.Mutex
	var signIns []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/session" {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			signIns = append(signIns, string(body))
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		e.srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	opened := time.Now()
	runSteps(t, ctx, "open the page and start today's easy daily",
		chromedp.EmulateViewport(360, 640, chromedp.EmulateTouch),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("start")),
		chromedp.Tap(chromedp.CSS(`[data-daily="easy"]`)),
		chromedp.WaitVisible(cellSel(80)),
	)
	t.Logf("the start screen to a daily's board: %v", time.Since(opened).Round(time.Millisecond))
	mu.Lock()
	if len(signIns) != 1 || !strings.Contains(signIns[0], `"code":"mock_code"`) {
		t.Errorf("the page signed in with %q, want once with the SDK mock's code", signIns)
	}
	mu.Unlock()
	unnamed(t, ctx, "a daily's board")
	games, err := e.st.ActiveGames(context.Background(), ada.UserID, 1)
	if err != nil || len(games) != 1 || games[0].DailyLevel != "easy" {
		t.Fatalf("the page started no daily: %v %v", games, err)
	}
	id := games[0].ID
	sol, _ := sudoku.Parse(games[0].Solution)
	puz, _ := sudoku.Parse(games[0].Puzzle)
	sh := puz.Shape
	digit := func(c int) string { return string(rune('0' + sol.Cells[c])) }

	// A hint to level 3, drawn on the board, then applied.
	runSteps(t, ctx, "hint level 1",
		chromedp.Tap(chromedp.ID("hint")),
		waitText("note", "level 1 of 3"),
		waitJS("the button to offer where", `document.getElementById("hint").textContent === "Where?"`),
	)
	if n := evalJS[int](t, ctx, `document.querySelectorAll("#board .cell.hintc").length`); n != 0 {
		t.Errorf("level 1 tints %d cells, want none (it names the technique only)", n)
	}
	runSteps(t, ctx, "hint level 2",
		chromedp.Tap(chromedp.ID("hint")),
		waitText("note", "level 2 of 3"),
	)
	if n := evalJS[int](t, ctx, `document.querySelectorAll("#board .cell.hintc").length`); n < 4 {
		t.Errorf("level 2 tints %d cells, want the step's units", n)
	}
	runSteps(t, ctx, "hint level 3",
		chromedp.Tap(chromedp.ID("hint")),
		waitText("note", "level 3 of 3"),
		chromedp.WaitVisible(chromedp.ID("apply")),
		shot("hint-9x9-360x640.png"),
	)
	target := evalJS[int](t, ctx, `+(document.querySelector("#board .cell.target")?.dataset.cell ?? -1)`)
	if target < 0 {
		t.Fatalf("level 3 of an easy daily's first hint draws no placement")
	}
	runSteps(t, ctx, "the step's cell is named for a screen reader, then applied",
		waitLabel(target, "hint: place "+digit(target)),
		chromedp.Tap(chromedp.ID("apply")),
		waitLabel(target, label(sh, target)+", "+digit(target)),
		waitJS("Apply step to go", `document.getElementById("apply").hidden`),
		waitJS("the filled cell to have the focus", fmt.Sprintf(`document.activeElement.dataset.cell === "%d"`, target)),
	)
	if g, _ := e.st.Game(context.Background(), id); g.Hints != 1 || g.Entries[target] != sol.Cells[target] {
		t.Fatalf("after Apply step the store has hints %d, entry %d: want 1 hint and the placement", g.Hints, g.Entries[target])
	}

	var free []int
	for i, v := range puz.Cells {
		if v == 0 && i != target {
			free = append(free, i)
		}
	}
	// Notes by the toggle and by Shift+digit; undo and redo.
	c := free[0]
	other := int(sol.Cells[c])%9 + 1
	runSteps(t, ctx, "notes, undo, redo",
		chromedp.Tap(cellSel(c)),
		chromedp.Tap(chromedp.ID("notes")),
		chromedp.Tap(chromedp.CSS(fmt.Sprintf(`#pad button[data-value="%d"]`, sol.Cells[c]))),
		waitLabel(c, "notes "+digit(c)),
		chromedp.Tap(chromedp.ID("notes")),
		chromedp.KeyEvent(fmt.Sprint(other), chromedp.KeyModifiers(chromedp.ModifierShift)),
		waitJS("two notes", fmt.Sprintf(`document.querySelector('#board .cell[data-cell="%d"]').getAttribute("aria-label").includes("notes ")
			&& document.querySelector('#board .cell[data-cell="%d"]').getAttribute("aria-label").split("notes ")[1].split(" ").length === 2`, c, c)),
		chromedp.Tap(chromedp.ID("undo")),
		waitLabel(c, "notes "+digit(c)),
		chromedp.Tap(chromedp.ID("redo")),
		waitJS("the note back", fmt.Sprintf(`document.querySelector('#board .cell[data-cell="%d"]').getAttribute("aria-label").includes("%d")`, c, other)),
		chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		waitLabel(c, "notes "+digit(c)),
	)
	// Half the cells by taps, the rest by keyboard.
	half := len(free) / 2
	for _, c := range free[:half] {
		runSteps(t, ctx, "tap "+sh.CellName(c),
			chromedp.Tap(cellSel(c)),
			chromedp.Tap(chromedp.CSS(fmt.Sprintf(`#pad button[data-value="%d"]`, sol.Cells[c]))),
			waitLabel(c, label(sh, c)+", "+digit(c)),
		)
	}
	e.clock.add(12 * time.Minute) // a person's time: the solve counts
	at := free[half-1]
	for _, c := range free[half:] {
		keys := arrows(9, at, c)
		at = c
		runSteps(t, ctx, "type "+sh.CellName(c),
			chromedp.KeyEvent(keys),
			chromedp.KeyEvent(digit(c)),
			waitLabel(c, label(sh, c)+", "+digit(c)),
		)
	}
	runSteps(t, ctx, "the finish screen",
		chromedp.WaitVisible(chromedp.ID("finish")),
		waitText("finish", "Solved!"),
		waitText("finish-text", "Solved in 12:00 with 1 hint and no checks."),
		chromedp.WaitVisible(chromedp.ID("leaders-list")),
		shot("finish-daily-360x640.png"),
	)
	unnamed(t, ctx, "the finish screen")
	if note := evalJS[bool](t, ctx, `document.getElementById("finish-note").hidden`); !note {
		t.Errorf("a fair finish repeats itself under its note: %q", evalJS[string](t, ctx, `document.getElementById("finish-note").textContent`))
	}
	onBoard := `[...document.querySelectorAll("#leaders-list li")].filter((li) => li.textContent.startsWith("Ada —")).length`
	if n := evalJS[int](t, ctx, onBoard); n != 1 {
		t.Errorf("the finish screen's leaderboard has Ada %d times, want once", n)
	}
	if mine := evalJS[string](t, ctx, `document.querySelector("#leaders-list li.you")?.textContent || ""`); !strings.Contains(mine, "12:00") {
		t.Errorf("the player's row %q, want their time", mine)
	}
	// A reload, then the daily again: the same finished game, once.
	runSteps(t, ctx, "reload and open the daily again",
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.ID("start")),
		chromedp.Tap(chromedp.CSS(`[data-daily="easy"]`)),
		chromedp.WaitVisible(chromedp.ID("leaders-list")),
		waitText("finish-text", "12:00 · 1 hint · no checks"),
		waitText("finish-note", "You already solved this daily."),
	)
	if n := evalJS[int](t, ctx, onBoard); n != 1 {
		t.Errorf("after a reload the leaderboard has Ada %d times, want once", n)
	}
	rows, err := e.st.Leaderboard(context.Background(), ada.GuildID, games[0].DailyDate, "easy", 0)
	if err != nil || len(rows) != 1 || rows[0].UserID != ada.UserID {
		t.Errorf("the store's leaderboard: %+v %v, want Ada once", rows, err)
	}
}

// TestBrowserAutoCandidatesAndGiveUp: auto-candidates show in empty cells
// without notes (the player's notes win) and are remembered; Give up asks
// first, then shows the solution.
func TestBrowserAutoCandidatesAndGiveUp(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	g, _ := e.start(t, ada)
	free := emptyCells(g)
	if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), e.token(ada), fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":1}`, free[1])); a.status != 200 {
		t.Fatalf("notes: %d %q", a.status, a.Error)
	}
	runSteps(t, ctx, "auto-candidates on",
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(cellSel(15)),
		chromedp.Click(chromedp.ID("auto")),
		waitJS("candidates in an empty cell", fmt.Sprintf(`document.querySelector('#board .cell[data-cell="%d"]').getAttribute("aria-label").includes(", candidates ")`, free[0])),
		waitLabel(free[1], "notes 1"),
		chromedp.Reload(),
		chromedp.WaitVisible(cellSel(15)),
		waitJS("candidates after a reload", fmt.Sprintf(`document.querySelector('#board .cell[data-cell="%d"]').getAttribute("aria-label").includes(", candidates ")`, free[0])),
	)
	if p := evalJS[string](t, ctx, `document.getElementById("auto").getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("after a reload Auto is pressed=%s, want it remembered", p)
	}
	unnamed(t, ctx, "the board")
	// Keyboard alone: Tab from the page's start reaches the board (one
	// stop: arrows move inside it), every digit and every tool.
	runSteps(t, ctx, "focus the page", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	reached := map[string]bool{}
	for range 40 {
		runSteps(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
		reached[evalJS[string](t, ctx, `(() => { const a = document.activeElement; return a.id || (a.dataset.cell ? "cell" : a.dataset.value ? "digit " + a.dataset.value : a.tagName); })()`)] = true
		if reached["giveup"] {
			break
		}
	}
	for _, want := range []string{"cell", "digit 1", "digit 4", "notes", "auto", "erase", "undo", "check", "hint", "giveup"} {
		if !reached[want] {
			t.Errorf("Tab never reached %s (reached %v)", want, reached)
		}
	}
	runSteps(t, ctx, "give up by keyboard: asked, kept playing, then given up",
		chromedp.KeyEvent(kb.Enter), // on Give up, the last stop above
		chromedp.WaitVisible(chromedp.ID("giveup-dlg")),
		chromedp.KeyEvent(kb.Escape),
		chromedp.WaitNotVisible(chromedp.ID("giveup-dlg")),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.ID("giveup-dlg")),
		waitJS("Keep playing to have the focus", `document.activeElement.id === "giveup-no"`),
		shot("giveup-1280x800.png"),
		chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)), // back to Yes, give up
		waitJS("Yes, give up to have the focus", `document.activeElement.id === "giveup-yes"`),
		chromedp.KeyEvent(kb.Enter),
		waitText("finish-h", "Game over"),
		waitText("finish-text", "gave up"),
		shot("gaveup-1280x800.png"),
	)
	unnamed(t, ctx, "the finish screen")
	if st, _ := e.st.Game(context.Background(), g.ID); st.Status != "gave_up" {
		t.Errorf("the store has the game %s, want gave_up", st.Status)
	}
	if n := evalJS[int](t, ctx, `document.querySelectorAll("#board .cell.sol").length`); n != len(free)-1 && n != len(free) {
		t.Errorf("%d cells show the solution, want the %d empty ones", n, len(free))
	}
}

// TestBrowser25x25OnADesktop: a 25x25 fits a 1280x800 window, its pad has
// the letters A to Y, and a letter typed goes in the selected cell.
func TestBrowser25x25OnADesktop(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	a := e.do(t, "POST", "/api/game", e.token(ada), `{"size":25,"level":"easy"}`)
	if a.status != 200 || a.Game.Symbols != "ABCDEFGHIJKLMNOPQRSTUVWXY" {
		t.Fatalf("start a 25x25: %d %q symbols %q", a.status, a.Error, a.Game.Symbols)
	}
	free := emptyCells(a.Game)
	c := free[len(free)/2]
	for _, theme := range []string{"light", "dark"} {
		runSteps(t, ctx, "open the 25x25",
			chromedp.EmulateViewport(1280, 800),
			chromedp.Navigate(ts.URL+"/?theme="+theme),
			chromedp.WaitVisible(cellSel(624)),
			chromedp.Click(cellSel(c)),
			shot("board-25x25-1280x800-"+theme+".png"),
		)
		ready := evalJS[float64](t, ctx, `performance.getEntriesByName("board-ready")[0]?.startTime ?? -1`)
		t.Logf("%s: navigation to an interactive 25x25 board: %.0f ms", theme, ready)
		box := evalJS[[]float64](t, ctx, `(() => { const b = document.getElementById("board").getBoundingClientRect(), p = document.getElementById("side").getBoundingClientRect(); return [b.right, b.bottom, p.right, p.bottom, b.width / 25]; })()`)
		if box[0] > 1280 || box[1] > 800 || box[2] > 1280 || box[3] > 800 {
			t.Errorf("%s: board to (%v, %v), pad and tools to (%v, %v): want all inside 1280x800", theme, box[0], box[1], box[2], box[3])
		}
		if box[4] < 26 {
			t.Errorf("%s: cells %.1f px wide, want at least 26 on a desktop", theme, box[4])
		}
	}
	runSteps(t, ctx, "type a letter",
		chromedp.KeyEvent("q"),
		waitLabel(c, label(sudoku.Shape{BoxRows: 5, BoxCols: 5}, c)+", Q"),
		chromedp.KeyEvent("n", chromedp.KeyModifiers(chromedp.ModifierShift)), // a note, not the Notes toggle
		waitLabel(c, ", Q"),
	)
	if p := evalJS[string](t, ctx, `document.getElementById("notes").getAttribute("aria-pressed")`); p != "false" {
		t.Errorf("N on a 25x25 toggled notes mode (pressed=%s): it is a symbol there", p)
	}
}

// TestBrowserHintShots draws a level-3 hint on a hard 9x9 with
// auto-candidates on, at phone and desktop sizes in both themes: the first
// step that removes candidates: its units tinted, its causes green, its
// removals struck out in red. The
// pictures are for people to look at (SUDOKUBOT_SHOTS=DIR).
func TestBrowserHintShots(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	tok := e.token(ada)
	a := e.do(t, "POST", "/api/game", tok, `{"size":9,"level":"hard"}`)
	if a.status != 200 {
		t.Fatalf("start: %d %q", a.status, a.Error)
	}
	// Play the steps up to the first that removes candidates: its
	// picture shows the most.
	for range 60 {
		h := e.do(t, "POST", fmt.Sprintf("/api/games/%d/hint", a.Game.ID), tok, `{"level":3}`)
		if h.status != 200 || h.Game.Hint.Step == nil {
			t.Fatalf("hint: %d %q", h.status, h.Error)
		}
		if len(h.Game.Hint.Step.Removals) > 0 {
			break
		}
		e.do(t, "POST", fmt.Sprintf("/api/games/%d/step", a.Game.ID), tok, fmt.Sprintf(`{"step":%q}`, h.Game.Hint.Step.ID))
	}
	runSteps(t, ctx, "switch auto-candidates on",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(cellSel(80)),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem("sudoku-auto", "1")`),
	)
	for _, sz := range [][2]int64{{360, 640}, {1280, 800}} {
		for _, theme := range []string{"light", "dark"} {
			runSteps(t, ctx, "open the board",
				chromedp.EmulateViewport(sz[0], sz[1]),
				chromedp.Navigate(ts.URL+"/?theme="+theme),
				chromedp.WaitVisible(cellSel(80)),
				chromedp.Click(chromedp.ID("hint")),
				waitText("note", "level 1 of 3"),
				chromedp.Click(chromedp.ID("hint")),
				waitText("note", "level 2 of 3"),
				chromedp.Click(chromedp.ID("hint")),
				waitText("note", "level 3 of 3"),
				chromedp.WaitVisible(chromedp.ID("apply")),
				shot(fmt.Sprintf("hint-9x9-%dx%d-%s.png", sz[0], sz[1], theme)),
			)
			ready := evalJS[float64](t, ctx, `performance.getEntriesByName("board-ready")[0]?.startTime ?? -1`)
			t.Logf("%dx%d %s: navigation to an interactive 9x9 board (signed in): %.0f ms", sz[0], sz[1], theme, ready)
			if n := evalJS[int](t, ctx, `document.querySelectorAll("#board .cell.cause, #board .cell.target, #board .notes span.rem").length`); n == 0 {
				t.Errorf("%dx%d %s: the step draws nothing on the board", sz[0], sz[1], theme)
			}
		}
	}
}

// unnamed fails t for every visible control without an accessible name.
func unnamed(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	bad := evalJS[[]string](t, ctx, `[...document.querySelectorAll("button, select, input, [role=group], [role=timer], ol")]
		.filter((el) => el.getClientRects().length > 0)
		.filter((el) => !((el.getAttribute("aria-label") || "").trim() || el.getAttribute("aria-labelledby") || (el.labels && el.labels.length) || (el.tagName === "BUTTON" && el.textContent.trim())))
		.map((el) => el.id || el.outerHTML.slice(0, 80))`)
	if len(bad) > 0 {
		t.Errorf("%s: controls without an accessible name: %q", where, bad)
	}
}
