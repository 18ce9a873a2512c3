package activity

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/sudoku"
)

// The browser tests drive the real page in headless Chromium. They skip
// when /usr/bin/chromium is absent, unless SUDOKUBOT_BROWSER_TESTS=1 (CI)
// demands them. SUDOKUBOT_SHOTS=DIR keeps the screenshots there.
const chromiumPath = "/usr/bin/chromium"

func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("SUDOKUBOT_BROWSER_TESTS") == "1" {
			t.Fatalf("SUDOKUBOT_BROWSER_TESTS=1 but %s is missing: apt-get install chromium", chromiumPath)
		}
		t.Skipf("%s is not installed (SUDOKUBOT_BROWSER_TESTS=1 makes this a failure)", chromiumPath)
	}
	if dir := os.Getenv("SUDOKUBOT_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatalf("SUDOKUBOT_SHOTS: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoFirstRun,
		chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return bctx
}

// cellSel selects cell i of the board.
func cellSel(i int) chromedp.CSS { return chromedp.CSS(fmt.Sprintf(`#board .cell[data-cell="%d"]`, i)) }

// waitLabel waits until cell i's accessible name contains want, as whole
// comma-separated parts. On a timeout the error has the events the page saw.
func waitLabel(i int, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		// Whole parts only: "notes 2" must not match "notes 2 3".
		js := fmt.Sprintf(`((document.querySelector('#board .cell[data-cell="%d"]')?.getAttribute("aria-label") || "") + ",").includes(%q)`, i, want+",")
		pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		_, err := chromedp.Poll[bool](js)(pctx, t)
		if err != nil {
			label, _ := chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector('#board .cell[data-cell="%d"]')?.getAttribute("aria-label") || "") + " | error: " + document.getElementById("error").textContent + " | notes mode: " + document.getElementById("notes").getAttribute("aria-pressed") + " | events: " + (window.__log || []).join(" ")`, i))(ctx, t)
			if png, err := chromedp.CaptureScreenshot()(ctx, t); err == nil && os.Getenv("SUDOKUBOT_SHOTS") != "" {
				os.WriteFile(filepath.Join(os.Getenv("SUDOKUBOT_SHOTS"), "failed.png"), png, 0o644)
			}
			return fmt.Errorf("cell %d: waited for a name with %q, have %q: %w", i, want, label, err)
		}
		return nil
	})
}

func label(sh sudoku.Shape, i int) string {
	return fmt.Sprintf("row %s, column %d", sudoku.RowName(i/sh.N()), i%sh.N()+1)
}

func TestBrowserPlaysA4x4(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("open the page and start a 4x4",
		chromedp.EmulateViewport(360, 640, chromedp.EmulateTouch),
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("start")),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if dir := os.Getenv("SUDOKUBOT_SHOTS"); dir != "" {
				if png, err := chromedp.CaptureScreenshot()(ctx, t); err == nil {
					os.WriteFile(filepath.Join(dir, "start-360x640.png"), png, 0o644)
				}
			}
			return nil
		}),
		chromedp.SetValue(chromedp.ID("size"), "4"),
		chromedp.SetValue(chromedp.ID("level"), "easy"),
		chromedp.Tap(chromedp.ID("new")),
		chromedp.WaitVisible(cellSel(15)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[chromedp.Void](`window.__log = []; for (const ev of ["keydown", "keyup", "click", "pointerdown"]) document.addEventListener(ev, (e) => window.__log.push(ev + ":" + (e.key || e.target.id || e.target.dataset.cell || e.target.dataset.value) + (e.shiftKey ? "+S" : "")), true); const f = window.fetch; window.fetch = (u, o) => { window.__log.push("fetch:" + u + (o && o.body ? o.body : "")); return f(u, o); }`)(ctx, t)
			return err
		}),
	)
	games, err := e.st.ActiveGames(context.Background(), ada.UserID, 1)
	if err != nil || len(games) != 1 {
		t.Fatalf("the page started no game: %v %v", games, err)
	}
	sol, _ := sudoku.Parse(games[0].Solution)
	puz, _ := sudoku.Parse(games[0].Puzzle)
	sh := puz.Shape
	var free []int
	for i, v := range puz.Cells {
		if v == 0 {
			free = append(free, i)
		}
	}
	if len(free) < 4 {
		t.Fatalf("the 4x4 has only %d empty cells", len(free))
	}
	digit := func(v uint8) string { return string(rune('0' + v)) }

	// Notes: Shift+digit, then the Notes toggle and a tap; undo and redo.
	c := free[0]
	run("notes",
		chromedp.Tap(cellSel(c)),
		chromedp.KeyEvent("2", chromedp.KeyModifiers(chromedp.ModifierShift)),
		waitLabel(c, label(sh, c)+", empty, notes 2"),
		chromedp.Tap(chromedp.ID("notes")),
		chromedp.Tap(chromedp.CSS(`#pad button[data-value="3"]`)),
		waitLabel(c, "empty, notes 2 3"),
		chromedp.Tap(chromedp.ID("notes")), // back to digits
		chromedp.Tap(chromedp.ID("undo")),
		waitLabel(c, "empty, notes 2"),
		chromedp.Tap(chromedp.ID("redo")),
		waitLabel(c, "empty, notes 2 3"),
		chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		waitLabel(c, "empty, notes 2"),
		chromedp.KeyEvent("y", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		waitLabel(c, "empty, notes 2 3"),
	)
	// Half the cells by touch taps (a phone-sized window with touch): a cell,
	// then a digit.
	half := len(free) / 2
	for _, c := range free[:half] {
		run(fmt.Sprintf("tap %s", sh.CellName(c)),
			chromedp.Tap(cellSel(c)),
			chromedp.Tap(chromedp.CSS(fmt.Sprintf(`#pad button[data-value="%d"]`, sol.Cells[c]))),
			waitLabel(c, label(sh, c)+", "+digit(sol.Cells[c])),
		)
	}
	// A wrong digit clashes at once (or not), Backspace clears it.
	run("a digit, then Backspace",
		chromedp.Tap(cellSel(free[half])),
		chromedp.KeyEvent(digit(sol.Cells[free[half]]%4+1)),
		waitLabel(free[half], label(sh, free[half])+", "+digit(sol.Cells[free[half]]%4+1)),
		chromedp.KeyEvent(kb.Backspace),
		waitLabel(free[half], "empty"),
	)
	// A reload resumes the game as it was.
	reloaded := time.Now()
	run("reload",
		chromedp.Reload(),
		chromedp.WaitVisible(cellSel(15)),
		waitLabel(free[0], label(sh, free[0])+", "+digit(sol.Cells[free[0]])),
	)
	t.Logf("reload to a board ready to play: %v", time.Since(reloaded).Round(time.Millisecond))
	// The rest by keyboard: arrows from the top-left cell, then the digit.
	at := 0
	run("select the first cell", chromedp.Tap(cellSel(0)))
	n := sh.N()
	for _, c := range free[half:] {
		keys := arrows(n, at, c)
		at = c
		run(fmt.Sprintf("type %s", sh.CellName(c)),
			chromedp.KeyEvent(keys),
			chromedp.KeyEvent(digit(sol.Cells[c])),
			waitLabel(c, label(sh, c)+", "+digit(sol.Cells[c])),
		)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("finish"), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("no finish screen: %v", err)
	}
	if !strings.Contains(text, "Solved!") || !strings.Contains(text, "no hints") {
		t.Errorf("finish screen says %q", text)
	}
	if dir := os.Getenv("SUDOKUBOT_SHOTS"); dir != "" {
		if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(filepath.Join(dir, "finish-360x640.png"), png, 0o644)
		}
	}
	g, _ := e.st.Game(context.Background(), games[0].ID)
	if g.Status != "solved" {
		t.Errorf("the store has the game %s", g.Status)
	}
}

// TestBrowserScreenshots draws a 9x9 in play (notes, a clash, a selected
// cell) at phone and desktop sizes in both themes, and a 16x16 on the
// phone. It checks the board fits the window; the pictures are for people
// to look at (SUDOKUBOT_SHOTS=DIR keeps them).
func TestBrowserScreenshots(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{RatePerMinute: 1 << 20, RateBurst: 1 << 20})
	ts := httptest.NewServer(e.srv)
	defer ts.Close()
	dir := os.Getenv("SUDOKUBOT_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	tok := e.token(ada)
	shoot := func(size int, prep func(commands.BoardView) int) {
		a := e.do(t, "POST", "/api/game", tok, fmt.Sprintf(`{"size":%d,"level":"easy"}`, size))
		if a.status != 200 {
			t.Fatalf("start %d: %d %s", size, a.status, a.Error)
		}
		sel := prep(a.Game)
		for _, sz := range [][2]int64{{360, 640}, {1280, 800}} {
			for _, theme := range []string{"light", "dark"} {
				if size > 9 && sz[0] > 360 {
					continue
				}
				err := chromedp.Do(ctx,
					chromedp.EmulateViewport(sz[0], sz[1]),
					chromedp.Navigate(ts.URL+"/?theme="+theme),
					chromedp.WaitVisible(cellSel(size*size-1)),
					chromedp.Click(cellSel(sel)),
				)
				if err != nil {
					t.Fatalf("open the page: %v", err)
				}
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatalf("screenshot: %v", err)
				}
				w, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById("board").getBoundingClientRect().right`))
				if err != nil || w > float64(sz[0]) {
					t.Errorf("%dx%d at %d px: the board's right edge is at %v px (%v)", size, size, sz[0], w, err)
				}
				name := filepath.Join(dir, fmt.Sprintf("board-%dx%d-%dx%d-%s.png", size, size, sz[0], sz[1], theme))
				if err := os.WriteFile(name, png, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", name)
			}
		}
	}
	shoot(9, func(g commands.BoardView) int {
		free := emptyCells(g)
		move := func(body string) {
			if a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, body); a.status != 200 {
				t.Fatalf("move %s: %d %s", body, a.status, a.Error)
			}
		}
		gs, _ := e.st.Game(context.Background(), g.ID)
		sol, _ := sudoku.Parse(gs.Solution)
		for _, c := range free[:12] {
			move(fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, sol.Cells[c]))
		}
		move(fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, free[13], 0b101000110))
		move(fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":%d}`, free[14], 0b000011001))
		// A clash: the digit of a given in the same row.
		for _, c := range free[15:] {
			row := c / 9
			for k := row * 9; k < row*9+9; k++ {
				if g.Givens[k] != 0 && g.Givens[k] != int(sol.Cells[c]) {
					move(fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, c, g.Givens[k]))
					return free[0]
				}
			}
		}
		return free[0]
	})
	shoot(16, func(g commands.BoardView) int { return emptyCells(g)[0] })
}

// fakeSDK stands in for Discord's Embedded App SDK bundle (web/sdk.js),
// which needs the Discord client around the page: it records what the
// page asks of it and hands out the code Discord would.
const fakeSDK = `window.DiscordSDK = class {
  constructor(id) {
    window.__sdk = ["new:" + id];
    const q = new URLSearchParams(location.search); // where Discord's SDK reads them too
    this.instanceId = q.get("instance_id");
    this.guildId = q.get("guild_id");
    this.channelId = q.get("channel_id");
    this.commands = {
      authorize: async (o) => { window.__sdk.push("authorize:" + o.client_id + ":" + o.response_type + ":" + o.scope.join(",")); return { code: "code-bob" }; },
      authenticate: async (o) => { window.__sdk.push("authenticate:" + o.access_token); return { user: { id: "u-bob" } }; },
    };
  }
  async ready() { window.__sdk.push("ready"); }
};`

// TestBrowserSignsInThroughDiscord: opened inside Discord (frame_id in
// the query), the page loads the SDK bundle it names, asks Discord for a
// code with the server's client id, signs in with it as that code's
// player, and hands Discord's access token to authenticate(); the game it
// then starts is that player's, in the server of the instance the page
// runs in (which the sign-in asked Discord: users/@me names none).
func TestBrowserSignsInThroughDiscord(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t, Config{})
	fake := fakediscord.New(t, fakediscord.Options{Token: "bot-token", Activities: true})
	fake.SetGuildActivityInstance("i1", "g9", "c9", bob.UserID)
	srv, err := New(Config{Boards: e.svc, Now: e.clock.now, SignIn: fakeSignIn{"code-bob": {UserID: bob.UserID, UserName: bob.UserName}}, ClientID: "100",
		Instances: DiscordInstances{AppID: "100", BotToken: "bot-token", APIBase: fake.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	sdkPath := "/assets/" + srv.assets.names["sdk.js"]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sdkPath {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(fakeSDK))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	var calls string
	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?frame_id=f1&instance_id=i1&guild_id=g9&channel_id=c9&platform=desktop"),
		chromedp.WaitVisible(chromedp.ID("start")),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			var err error
			calls, err = chromedp.Evaluate[string](`(window.__sdk || []).join(" ")`)(ctx, t)
			return err
		}),
		chromedp.SetValue(chromedp.ID("size"), "4"),
		chromedp.SetValue(chromedp.ID("level"), "easy"),
		chromedp.Click(chromedp.ID("new")),
		chromedp.WaitVisible(cellSel(15)),
	)
	if err != nil {
		t.Fatalf("the page inside Discord: %v (SDK calls: %s)", err, calls)
	}
	if want := "new:100 ready authorize:100:code:identify authenticate:access-" + bob.UserID; calls != want {
		t.Errorf("SDK calls %q, want %q", calls, want)
	}
	games, err := e.st.ActiveGames(context.Background(), bob.UserID, 1)
	if err != nil || len(games) != 1 {
		t.Fatalf("the page started no game for the signed-in player: %v %v", games, err)
	}
	if games[0].GuildID != "g9" || games[0].ChannelID != "c9" {
		t.Errorf("the game started inside Discord is in guild %q channel %q, want the instance's g9 and c9", games[0].GuildID, games[0].ChannelID)
	}
}
