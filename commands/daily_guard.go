package commands

import (
	"context"
	"fmt"
	"sync"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// The dailies that count — the ones someone may be playing: with players'
// own time zones (today.go) that is, at UTC date D, the dailies of D−1
// (UTC−12's today until noon UTC), D and D+1 (UTC+14's from 10:00 UTC), all
// three levels — are not solved, checked
// or hinted at in public: /solve, /hint and /check (slash, Apps menu,
// modal), mentions and watched channels recognise them, and copies of them
// up to Sudoku's symmetries, and positions reached from them
// (sudoku.Copies, even with wrong entries), and point at /daily play
// instead. A /hint on one the
// player is playing becomes the next hint of their game, counted there.

// countingDailies caches the recogniser of the dailies that count, rebuilt
// when the UTC day turns.
type countingDailies struct {
	mu      sync.Mutex
	day     time.Time
	copies  *sudoku.Copies
	puzzles []sudoku.DailyPuzzle
}

// counting returns the recogniser of the dailies that count at now, and the
// puzzles its indexes refer to.
func (p *player) counting(ctx context.Context, now time.Time) (*sudoku.Copies, []sudoku.DailyPuzzle, error) {
	c := &p.guard
	c.mu.Lock()
	defer c.mu.Unlock()
	today := sudoku.DailyDay(now)
	if c.copies != nil && c.day.Equal(today) {
		return c.copies, c.puzzles, nil
	}
	var puzzles []sudoku.DailyPuzzle
	var known []sudoku.Puzzle
	// Today's first: where puzzles repeat (tests), the nearest date names it.
	for _, day := range []time.Time{today, today.AddDate(0, 0, -1), today.AddDate(0, 0, 1)} {
		if day.Before(sudoku.DailyEpoch) {
			continue
		}
		for _, lvl := range dailyLevels {
			dp, err := p.daily.get(ctx, day, lvl)
			if err != nil {
				return nil, nil, fmt.Errorf("dailies of %s: %w", day.Format(time.DateOnly), err)
			}
			puzzles = append(puzzles, dp)
			known = append(known, dp.Puzzle)
		}
	}
	copies, err := sudoku.NewCopies(known...)
	if err != nil {
		return nil, nil, fmt.Errorf("dailies of %s: %w", today.Format(time.DateOnly), err)
	}
	c.day, c.copies, c.puzzles = today, copies, puzzles
	return copies, puzzles, nil
}

// refuseDailyText is refuseDaily for pasted text; text that doesn't parse
// is left to the command, which explains what is wrong with it.
func (s *Service) refuseDailyText(ctx context.Context, req Request, text, command string) (Response, bool) {
	if s.playFeature == nil {
		return Response{}, false
	}
	g, bad := s.readPuzzle(text)
	if bad != nil {
		return Response{}, false
	}
	return s.refuseDaily(ctx, req, g, command)
}

// refuseDaily is the answer to command ("solve", "hint" or "check") on g
// when g is one of the dailies that count, or a copy of one; ok is false
// for any other grid, and when the dailies can't be made (the command then
// answers as usual: refusing every puzzle would be worse).
func (s *Service) refuseDaily(ctx context.Context, req Request, g *sudoku.Grid, command string) (r Response, ok bool) {
	p := s.playFeature
	if p == nil || g == nil || g.Shape != sudoku.DailyShape {
		return Response{}, false
	}
	copies, puzzles, err := p.counting(ctx, req.Now)
	if err != nil {
		return Response{}, false
	}
	i, found := copies.Find(ctx, g)
	if !found {
		return Response{}, false
	}
	dp := puzzles[i]
	today, _, _ := p.today(ctx, req.UserID, req.Now) // UTC's on a failure: only wording
	var name string
	switch {
	case dp.Date.Equal(today):
		name = fmt.Sprintf("today's %s daily (#%d)", dp.Level, dp.Number)
	case dp.Date.Equal(today.AddDate(0, 0, -1)):
		name = fmt.Sprintf("yesterday's %s daily (#%d)", dp.Level, dp.Number)
	default:
		name = fmt.Sprintf("the %s daily of %s (#%d), still being played where it is that date", dp.Level, dp.Date.Format("2 Jan"), dp.Number)
	}
	var game store.Game
	if req.UserID != "" {
		game, err = p.dailies.DailyGame(ctx, req.UserID, dp.Date, dp.Level.String())
	}
	playing := err == nil && game.ID != 0 && game.Status == store.Playing
	if command == "hint" && playing {
		r := p.hint(ctx, req, game, sudoku.HintTechnique)
		if len(r.Embeds) == 0 {
			return r, true // the hint failed; r says why
		}
		r.Content = fmt.Sprintf("That's %s, which you are playing: here is the next hint in your game. It counts as a hint there (%s so far).",
			name, counted(game.Hints+1, "hint")) + "\n" + r.Content
		r.Ephemeral = true
		return r, true
	}
	verb := map[string]string{"solve": "solve", "check": "check", "hint": "give hints on", playCommand: "start a game of"}[command]
	if verb == "" {
		verb = "help with"
	}
	msg := fmt.Sprintf("That's %s! I won't %s it here while it counts for the leaderboards — that wouldn't be fair on everyone playing it. ", name, verb)
	switch {
	case playing:
		msg += "You're playing it: press Hint on your board (hints are allowed, and counted)."
	case err == nil && game.ID != 0:
		msg += "You've already played it; its solution is on your board."
	case dp.Date.Equal(today):
		msg += fmt.Sprintf("Play it yourself with `/daily play level:%s` — hints there are allowed (and counted).", dp.Level)
	case dp.Date.After(today):
		msg += fmt.Sprintf("It is already that date somewhere; it becomes yours to play with `/daily play` on %s.", dp.Date.Format("2 Jan"))
	default:
		msg += "It stops counting once that date has ended everywhere (the last place is UTC−12); ask me again then."
	}
	return ephemeral(msg), true
}
