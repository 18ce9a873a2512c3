package activity

import (
	"context"
	"testing"

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
