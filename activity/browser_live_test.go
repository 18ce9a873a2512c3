package activity

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sudokubot/commands"
	"sudokubot/sudoku"
)

// waitLive waits until the page's live socket has shown a game.
func waitLive() chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(chromedp.CSS(`body[data-live="on"]`))
}

// TestBrowserLiveSeesChat: a move made in chat (the board API, not this
// page) appears on the open page at once.
func TestBrowserLiveSeesChat(t *testing.T) {
	ctx := browser(t)
	e := newLiveEnv(t, Config{})
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(360, 640, chromedp.EmulateTouch),
		chromedp.Navigate(e.url+"/"),
		chromedp.WaitVisible(chromedp.ID("start")),
		chromedp.SetValue(chromedp.ID("size"), "4"),
		chromedp.SetValue(chromedp.ID("level"), "easy"),
		chromedp.Tap(chromedp.ID("new")),
		chromedp.WaitVisible(cellSel(15)),
		waitLive(),
	); err != nil {
		t.Fatalf("open the page and start a 4x4: %v", err)
	}
	games, err := e.st.ActiveGames(context.Background(), ada.UserID, 1)
	if err != nil || len(games) != 1 {
		t.Fatalf("the page started no game: %v %v", games, err)
	}
	sol, _ := sudoku.Parse(games[0].Solution)
	puz, _ := sudoku.Parse(games[0].Puzzle)
	cell := -1
	for i, v := range puz.Cells {
		if v == 0 {
			cell = i
			break
		}
	}
	v := int(sol.Cells[cell])
	if _, err := e.svc.PlayBoard(context.Background(), ada, games[0].ID, []commands.BoardMove{{Cell: cell, Kind: commands.MoveDigit, Value: v}}, e.clock.now()); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, waitLabel(cell, label(puz.Shape, cell)+", "+string(rune('0'+v)))); err != nil {
		t.Fatalf("the move made in chat: %v", err)
	}
}

// TestBrowserTogether: two players in two browser tabs (local mode, one
// room) play a co-op board, each seeing the other's moves in their colour
// and in the list of who did what (which a reload keeps); then they race,
// each seeing the other's progress.
func TestBrowserTogether(t *testing.T) {
	ada := browser(t)
	e := newLiveEnv(t, Config{})
	bo, cancel := chromedp.NewContext(ada) // a second tab: its own session
	defer cancel()
	open := func(ctx context.Context, name string) {
		t.Helper()
		if err := chromedp.Do(ctx,
			chromedp.EmulateViewport(360, 640, chromedp.EmulateTouch),
			chromedp.Navigate(e.url+"/?room=table1&as="+name),
			chromedp.WaitVisible(chromedp.ID("together-start")),
			chromedp.SetValue(chromedp.ID("size"), "4"),
			chromedp.SetValue(chromedp.ID("level"), "easy"),
		); err != nil {
			t.Fatalf("%s opens the page: %v", name, err)
		}
	}
	open(ada, "Ada")
	open(bo, "Bo")
	if err := chromedp.Do(bo, shot("together-start-360x640.png")); err != nil {
		t.Fatal(err)
	}
	do := func(ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do(ada, "Ada opens the co-op board", chromedp.Tap(chromedp.ID("coop")), chromedp.WaitVisible(cellSel(15)), waitLive())
	do(bo, "Bo joins it", chromedp.Tap(chromedp.ID("coop")), chromedp.WaitVisible(cellSel(15)), waitLive())
	games, err := e.st.ActiveGames(context.Background(), "100-ada", 5)
	if err != nil || len(games) != 1 || games[0].RaceID == 0 {
		t.Fatalf("Ada's games: %v, %v; want the co-op game", games, err)
	}
	puz, _ := sudoku.Parse(games[0].Puzzle)
	sol, _ := sudoku.Parse(games[0].Solution)
	var free []int
	for i, v := range puz.Cells {
		if v == 0 {
			free = append(free, i)
		}
	}
	play := func(ctx context.Context, who string, cell int) {
		t.Helper()
		do(ctx, who+" plays "+fmt.Sprint(cell), chromedp.Tap(cellSel(cell)),
			chromedp.Tap(chromedp.CSS(fmt.Sprintf(`#pad button[data-value="%d"]`, sol.Cells[cell]))))
	}
	digit := func(cell int) string { return label(puz.Shape, cell) + ", " + string(rune('0'+sol.Cells[cell])) }
	play(ada, "Ada", free[0])
	do(bo, "Bo sees Ada's move", waitLabel(free[0], digit(free[0])), waitText("together-list", "Ada: "+cellName(puz.Shape, free[0])),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#board .cell.byother[data-cell="%d"]`, free[0]))))
	play(bo, "Bo", free[1])
	do(ada, "Ada sees Bo's move", waitLabel(free[1], digit(free[1])), waitText("together-list", "Bo: "+cellName(puz.Shape, free[1])))
	do(ada, "a picture", shot("coop-360x640.png"))
	placed := func(cell int) string { return cellName(puz.Shape, cell) + " " + string(rune('0'+sol.Cells[cell])) }
	do(ada, "a reload keeps who placed what, on the board and in the list", chromedp.Reload(), chromedp.WaitVisible(cellSel(15)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#board .cell.byother[data-cell="%d"]`, free[1]))),
		waitText("together-list", "Bo: "+placed(free[1])+"You: "+placed(free[0])), shot("coop-reloaded-360x640.png"))
	do(bo, "Bo's reload brings back the co-op board (Ada's game) and its list", chromedp.Reload(), chromedp.WaitVisible(cellSel(15)),
		waitText("together-h", "Co-op"), waitText("together-list", "You: "+placed(free[1])+"Ada: "+placed(free[0])), waitLive())
	// Two hours on, Bo's session has ended: his next move signs him in
	// again and rejoins the room first (the board is the room's).
	e.clock.add(2 * time.Hour)
	play(bo, "Bo", free[2])
	do(ada, "Ada sees Bo's move after his session ended", waitLabel(free[2], digit(free[2])))
	do(bo, "Bo's page shows no error", waitLabel(free[2], digit(free[2])), chromedp.WaitNotVisible(chromedp.ID("error")))

	// The race: the same puzzle (the size and level chosen before), each
	// on their own board.
	do(ada, "Ada starts a race", chromedp.Tap(chromedp.ID("together-switch")), waitText("together-h", "Race"), waitLive())
	do(bo, "Bo joins it", chromedp.Tap(chromedp.ID("together-switch")), waitText("together-h", "Race"), waitLive())
	games, err = e.st.ActiveGames(context.Background(), "100-ada", 5)
	if err != nil || len(games) == 0 {
		t.Fatalf("Ada's race game: %v", err)
	}
	puz, _ = sudoku.Parse(games[0].Puzzle)
	sol, _ = sudoku.Parse(games[0].Solution)
	free = free[:0]
	for i, v := range puz.Cells {
		if v == 0 {
			free = append(free, i)
		}
	}
	play(ada, "Ada", free[0])
	do(bo, "Bo sees Ada's progress, not her digits", waitText("together-list", fmt.Sprintf("Ada: 1/%d cells, no mistakes", len(free))),
		waitLabel(free[0], label(puz.Shape, free[0])+", empty"))
	do(bo, "a picture", shot("race-360x640.png"))
}

// cellName is a cell as the page names it in the list ("B3").
func cellName(sh sudoku.Shape, i int) string {
	return fmt.Sprintf("%s%d", sudoku.RowName(i/sh.N()), i%sh.N()+1)
}
