package commands

import (
	"context"
	"fmt"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// The archive: /daily play date: replays a past daily (any day from daily
// #1 to the player's yesterday) as an ordinary game that remembers its date
// (store.Game.ArchiveDate). It records no daily result, so no leaderboard,
// streak or stats counts it, and it is not judged (fair.go); its board and
// finish say it is from the archive. A replay in progress is resumed; a
// finished one can be started again.

// maxActiveLooked bounds the games looked through to resume a replay.
const maxActiveLooked = 50

// archivePlay answers /daily play date:text level:level.
func (p *player) archivePlay(ctx context.Context, req Request, level, text string) Response {
	lvl, err := sudoku.ParseLevel(level)
	if err != nil {
		return ephemeral(err.Error())
	}
	today, _, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return storeError(err)
	}
	date, err := parseDay(text, today)
	if err != nil {
		return optionError(err)
	}
	if date.Equal(today) {
		return p.dailyPlay(ctx, req, level, "")
	}
	active, err := p.games.ActiveGames(ctx, req.UserID, maxActiveLooked)
	if err != nil {
		return storeError(err)
	}
	note := fmt.Sprintf("From the archive: the %s daily of %s. A replay counts on no leaderboard, streak or stats.", level, dayPhrase(date))
	for _, g := range active {
		if g.ArchiveDate.Equal(date) && g.Level == level {
			return p.show(ctx, req, g, note+" You were playing it: here it is again.")
		}
	}
	dp, err := p.daily.get(ctx, date, lvl)
	if err != nil {
		return p.dailyError(ctx, req, level, err)
	}
	ng := newGame(req, dp.Grid, dp.Solution, level)
	ng.ArchiveDate = date
	g, _, err := p.games.StartGame(ctx, ng)
	if err != nil {
		return storeError(err)
	}
	return p.show(ctx, req, g, note)
}

// isArchive reports whether g replays a past daily.
func isArchive(g store.Game) bool { return !g.ArchiveDate.IsZero() }
