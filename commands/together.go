package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sudokubot/store"
)

// Co-op: /play together:True posts one board in a thread made for it;
// anyone in the thread plays it through the same buttons and moves modal
// as /play. The game is the starter's in the store, tied to a race of kind
// together; each value placed is credited to whoever placed it
// (store.MoveBy), and the finish says who placed what. Every answer edits
// the board message itself (an interaction's update), so a busy co-op
// game never waits on the channel's edit limits.

const optTogether = "together"

// startTogether answers /play together:True.
func (r *racing) startTogether(ctx context.Context, req Request, level, size string) Response {
	if req.GuildID == "" {
		return ephemeral("A co-op game is played in a server's channel, where others can join in; here, play alone with /play.")
	}
	opts := map[string]string{optLevel: level, optSize: size}
	nr, reply := r.puzzle(ctx, Request{Options: opts, Now: req.Now, UserID: req.UserID, ID: req.ID})
	if reply != nil {
		return *reply
	}
	nr.Kind, nr.GuildID, nr.ChannelID = store.KindTogether, req.GuildID, req.ChannelID
	nr.StarterID, nr.Starter, nr.Now = req.UserID, displayName(req), req.Now
	nr.Title = "Co-op · " + nr.Title
	race, err := r.races.CreateRace(ctx, nr)
	if err != nil {
		return storeError(err)
	}
	ng, err := raceGame(req, race)
	if err != nil {
		return storeError(err)
	}
	ng.RaceID, ng.Viewed = race.ID, req.Now
	g, _, err := r.p.games.StartGame(ctx, ng)
	if err != nil {
		return storeError(err)
	}
	if err := r.races.SetRaceGame(ctx, race.ID, g.ID); err != nil {
		return storeError(err)
	}
	// The opening message in the channel, a thread from it, the board in
	// the thread.
	opening := Response{Content: clip(fmt.Sprintf("**%s** started a co-op %s: everyone in the thread plays one board together, and the finish says who placed what.",
		escapeMarkdown(displayName(req)), strings.TrimPrefix(race.Title, "Co-op · ")), maxContent)}
	lobby, err := r.ch.Post(ctx, req.ChannelID, opening)
	if err != nil {
		r.p.s.logf("co-op %d: post the opening message: %v", race.ID, err)
		return ephemeral("I couldn't post in this channel, so the co-op game didn't start. Check that I may send messages here, then try again.")
	}
	thread, err := r.ch.StartThread(ctx, req.ChannelID, lobby, clip(race.Title, maxThreadName))
	if err != nil && !errors.Is(err, ErrNoThreads) {
		r.p.s.logf("co-op %d: make its thread: %v", race.ID, err)
	}
	race, err = r.races.SetRaceMessages(ctx, race.ID, lobby, thread, "")
	if err != nil {
		return storeError(err)
	}
	b, err := r.p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	note := "Anyone here may play: **Enter moves**, Hint, Check and Undo work for everyone."
	if thread == "" {
		note = "I can't make a thread here, so the co-op game runs in this channel. " + note
	}
	msg := r.p.coopBoard(ctx, b, req, note)
	board, err := r.ch.Post(ctx, raceChannel(race), msg)
	if err != nil {
		r.p.s.logf("co-op %d: post the board: %v", race.ID, err)
		return ephemeral("I couldn't post the board, so the co-op game didn't start. Please try again in a moment.")
	}
	if _, err := r.races.SetRaceMessages(ctx, race.ID, "", "", board); err != nil {
		r.p.s.logf("co-op %d: remember the board: %v", race.ID, err)
	}
	if thread != "" {
		return ephemeral(fmt.Sprintf("Your co-op board is in the thread <#%s>.", thread))
	}
	return ephemeral("Your co-op board is the message above.")
}

// coopBoard is a co-op game's public board under note.
func (p *player) coopBoard(ctx context.Context, b board, req Request, note string) Response {
	return coopStyle(p.gameMessage(b, req.Now, note, nil))
}

// coopStyle makes a game's message the co-op board's: public, titled so,
// without Open board (the Activity plays one player's games).
func coopStyle(r Response) Response {
	r.Ephemeral = false
	if len(r.Embeds) > 0 && !strings.HasPrefix(r.Embeds[0].Title, "Co-op · ") {
		r.Embeds[0].Title = "Co-op · " + r.Embeds[0].Title
	}
	for i := range r.Components {
		r.Components[i].Buttons = slices.DeleteFunc(r.Components[i].Buttons, func(bt Button) bool {
			action, _, _ := parseGameButton(bt.CustomID)
			return action == "b"
		})
	}
	r.Components = slices.DeleteFunc(r.Components, func(row ActionRow) bool { return len(row.Buttons) == 0 })
	return r
}

// coopMessage answers a move in a co-op game: the board, updated in place
// for everyone.
func (p *player) coopMessage(ctx context.Context, b board, req Request, note string, failure error) Response {
	r := p.coopBoard(ctx, b, req, note)
	r.Update = true
	r.failure = failure
	return r
}

// coopDecorate turns a game button's answer on a co-op game (drawn for
// one player) into the shared board's update, saying who pressed what.
func (p *player) coopDecorate(ctx context.Context, r Response, g store.Game, req Request, action string) Response {
	r = coopStyle(r)
	r.Update = true
	if r.Content != "" {
		r.Content = clip("**"+escapeMarkdown(displayName(req))+"**: "+r.Content, maxContent)
	}
	return r
}

// moved records a move by req's user in g, a game of a race or a co-op
// game: the mover's last move and mistakes, then the race's scoreboard.
func (r *racing) moved(ctx context.Context, req Request, g store.Game, mistakes int) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	race, ok := r.chatRace(ctx, g.RaceID)
	if !ok {
		return
	}
	if race.Kind == store.KindTogether {
		if err := r.races.RacerMoved(ctx, race.ID, req.UserID, displayName(req), mistakes, req.Now); err != nil {
			r.p.s.logf("co-op %d: record a move: %v", race.ID, err)
		}
		return
	}
	if race.Status != store.RaceRunning {
		return // the race is over: the game goes on as a game of one
	}
	r.raceMoved(ctx, req, g, mistakes)
}

// solved answers the move that solved g, a game of a race or a co-op
// game; ok is false for a game the race no longer follows.
func (r *racing) solved(ctx context.Context, req Request, b board, f store.Finished) (Response, bool) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	g := f.Game
	race, ok := r.chatRace(ctx, g.RaceID)
	if !ok {
		return Response{}, false
	}
	if race.Kind == store.KindRace {
		note := solvedNote(g, req.Now, emptyCells(b))
		switch pl, _ := race.Player(g.UserID); {
		case pl.Status == store.RacerFinished && race.Status == store.RaceOver:
			note = fmt.Sprintf("You finished the race in %s! That ended it: the results are in the thread.", clock(g.Elapsed(req.Now)))
		case pl.Status == store.RacerFinished:
			note = fmt.Sprintf("You finished the race in %s! The scoreboard in the thread has everyone's progress.", clock(g.Elapsed(req.Now)))
		case race.Status == store.RaceOver:
			note += " The race had ended before this finish, so its results don't count it."
		}
		resp := r.p.gameMessage(b, req.Now, note, nil)
		resp.Ephemeral, resp.Update = true, true
		return resp, true
	}
	if race.Status != store.RaceOver && f.Now {
		if _, _, err := r.races.EndRace(ctx, race.ID, req.Now); err != nil {
			r.p.s.logf("co-op %d: end it: %v", race.ID, err)
		}
	}
	movers, err := r.races.Movers(ctx, g.ID)
	if err != nil {
		r.p.s.logf("co-op %d: who placed what: %v", race.ID, err)
	}
	names := map[string]string{}
	for _, pl := range race.Players {
		names[pl.UserID] = pl.UserName
	}
	type credit struct {
		name string
		n    int
	}
	var credits []credit
	for user, n := range movers {
		name := names[user]
		if name == "" {
			name = "someone who left"
		}
		credits = append(credits, credit{name, n})
	}
	slices.SortFunc(credits, func(a, b credit) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.name, b.name)
	})
	var parts []string
	for _, c := range credits {
		parts = append(parts, fmt.Sprintf("**%s** %d", escapeMarkdown(c.name), c.n))
	}
	note := fmt.Sprintf("**%s** placed the last cells. Solved together in %s, %s, %s!", escapeMarkdown(displayName(req)),
		clock(g.Elapsed(req.Now)), counted(g.Hints, "hint"), counted(g.Checks, "check"))
	if len(parts) > 0 {
		note += " Who placed what (cells): " + strings.Join(parts, ", ") + "."
	}
	return r.p.coopMessage(ctx, b, req, note, nil), true
}
