package commands

import (
	"context"
	"fmt"
	"time"
)

func (s *Service) addHelp() {
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "help",
		Description: "What this bot does and how to paste a grid",
	}, s.help, nil)
}

// help explains the bot in one embed. It is ephemeral: only the asker
// needs it, and it would clutter the channel.
func (s *Service) help(ctx context.Context, req Request) Response {
	e := Embed{
		Title: "Sudoku bot",
		Description: "I solve Sudoku puzzles, give hints that teach rather than spoil, check puzzles and make new ones.\n\n" +
			"**Pasting a grid.** " + pasteHelp + " Letters work as symbols too (a puzzle written in `AELMNOSTW` is answered in those letters).\n" +
			"Slash options hold one line only: leave `puzzle` out and I open a box where a multi-line grid fits.\n" +
			"**Pictures.** A screenshot or a photo of a grid works too: give it as `image`, attach it when you mention me, or use the Apps menu on a message that has one. I show what I read when I'm not sure of it. Digits in lighter ink than the printed ones, or written by hand among them, count as your entries: `/check` says which are wrong, `/hint` starts from them.",
		Color: colorNeutral,
		Fields: []EmbedField{
			{Name: "/solve", Value: "The solution, with the givens told apart and a one-line form to copy. `output:text` for a text board, `private:true` so only you see it."},
			{Name: "/hint", Value: "A hint in steps: first the technique, then where, then the full step with a picture. **Next hint** moves on."},
			{Name: "/check", Value: "Clashes, how many solutions, clues, symmetry and difficulty — without giving the answer away."},
			{Name: "/generate", Value: "A fresh puzzle at a level (easy … extreme), size and symmetry, with a **Solution** button."},
			{Name: "Apps menu", Value: "Right-click (or long-press) a message with a grid → Apps → **Solve Sudoku**, **Sudoku hint** or **Check Sudoku**."},
			{Name: "Mentions", Value: "Mention me in a message with a grid, or in a reply to one, and I solve it there."},
			{Name: "/watch", Value: "Server managers can have me offer Solve / Hint / Check buttons under every grid posted in a channel."},
		},
		Footer: fmt.Sprintf("Hard puzzles are searched for at most %s.", humanDuration(s.cfg.SolveTimeout)),
	}
	if _, ok := s.commands["play"]; ok {
		// /play and /daily exist only when the service has a store.
		e.Fields = append(e.Fields,
			EmbedField{Name: "/play", Value: "A personal game: enter moves in a box (`A1 5`, `r1c1=5`), ask for hints, check, undo. `/play image:` goes on from a picture of a puzzle you started elsewhere: your entries (lighter ink, or handwriting among print) and pencil marks are played on its printed givens."},
			EmbedField{Name: "/daily", Value: "Today's three puzzles, the same for everyone: `/daily play`, `leaderboard`, `stats` — keep your streak (7 days in a row earn a freeze that covers a missed day; you hold at most 2); `/daily play date:yesterday` replays a past daily, not counted. Your time runs from when your board first shows to your last correct move; a solution entered all at once, or faster than anyone can solve, is kept but left off the boards (server managers see them in `/daily flagged`). Your today is the date in your time zone: set it with `/profile timezone:`."},
			EmbedField{Name: "Leaderboards", Value: "`/daily leaderboard` shows a day's fastest here; `period:` week, month or all time ranks by **average time** over the period's dailies of a level, listing only players with at least " +
				fmt.Sprintf("%d (week), %d (month) or %d (all time) solved", minSolves["week"], minSolves["month"], minSolves["all"]) +
				": an average can't be raised by playing more, only by solving faster, and one lucky day isn't enough. `scope:global` counts every server (server managers can keep theirs off with `/daily setup global:false`; hide your name there with `/profile hide_name:true`)."})
	}
	if _, ok := s.commands["race"]; ok {
		// /race and /play together exist only with channels to post in.
		for i := range e.Fields {
			if e.Fields[i].Name == "/play" {
				e.Fields[i].Value += " `together:true` puts one board in a thread that everyone there plays; the finish says who placed what."
			}
		}
		e.Fields = append(e.Fields, EmbedField{Name: "/race", Value: fmt.Sprintf("Race others on the same puzzle, each on your own board: "+
			"a `level` and `size`, today's `daily` as practice (never counted), or your own `puzzle`; `vs:@member` for a duel. "+
			"Join, then the starter presses Start (anyone in the race may after %d minutes; two players at least); "+
			"a thread shows the scoreboard: cells filled, mistakes (wrong digits placed), hints and checks, never your digits. "+
			"No move for %d minutes marks a player idle; results come in finishing order, timed from the start.",
			int(raceAnyoneStarts/time.Minute), int(raceIdleAfter/time.Minute))})
	}
	if _, ok := s.commands["profile"]; ok {
		e.Fields = append(e.Fields, EmbedField{Name: "/profile", Value: "Your rating (Glicko-2, as chess sites rate puzzle solvers: each daily or /play game is you against the puzzle, scored by your time, hints and checks; giving up counts as a loss), its last games, your streak and personal bests. `timezone:` sets your date for the dailies (a change can't take you back to a day you've had); `hide_name:true` shows you as \"anonymous player\" on global boards."})
	}
	if _, ok := s.commands["privacy"]; ok {
		e.Fields = append(e.Fields, EmbedField{Name: "/privacy", Value: "See what I keep about you (your games, daily results and rating), or delete it."})
	}
	return Response{Embeds: []Embed{e}, Ephemeral: true}
}
