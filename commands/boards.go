package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Boards beyond one server and one day: /daily leaderboard period: (day,
// week, month, all) and scope: (server, global).
//
// A period's board ranks players by their average time over the period's
// dailies of a level, counting only players with at least minSolves of
// them: playing more dailies can't buy a place (an average doesn't grow
// with volume, as a sum of points would), and one lucky solve isn't enough
// to top it. Weeks run Monday to Sunday and months by the calendar, on the
// asker's own date (today.go); a daily counts in the period of its date.
// Marked finishes (fair.go) and archive replays never count.
//
// The global board counts the results of every server except those whose
// admins keep it off (/daily setup global:false), and of DMs; players who
// hide their name (/profile hide_name:true) show there as "anonymous
// player". No board pings: names are plain text.
const (
	optPeriod   = "period"
	optScope    = "scope"
	optGlobal   = "global"
	optHideName = "hide_name"

	scopeServer = "server"
	scopeGlobal = "global"

	anonymous = "anonymous player"
)

var (
	periodChoices = []Choice{{"one day (default)", "day"}, {"this week (Monday to Sunday)", "week"}, {"this month", "month"}, {"all time", "all"}}
	scopeChoices  = []Choice{{"this server (default)", scopeServer}, {"every server (global)", scopeGlobal}}
)

// minSolves is how many of a period's dailies of one level a player must
// have solved to be ranked on its board.
var minSolves = map[string]int{"day": 1, "week": 3, "month": 7, "all": 20}

// boardRows is how many ranked players a board shows per level.
const boardRows = 10

// BoardStore reads the boards beyond one server and one day and keeps the
// choices about them (package store implements it).
type BoardStore interface {
	Board(ctx context.Context, q store.BoardQuery) ([]store.Standing, error)
	SetGlobalBoards(ctx context.Context, guildID string, on bool, now time.Time) error
	SetHideName(ctx context.Context, userID string, hide bool, now time.Time) error
}

// periodRange is the first and last day of the period holding date.
func periodRange(period string, date time.Time) (from, to time.Time) {
	switch period {
	case "week":
		back := (int(date.Weekday()) + 6) % 7 // days since Monday
		from = date.AddDate(0, 0, -back)
		return from, from.AddDate(0, 0, 6)
	case "month":
		from = time.Date(date.Year(), date.Month(), 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(0, 1, -1)
	case "all":
		return sudoku.DailyEpoch, date
	}
	return date, date
}

// periodTitle names a period: "Week of 23–29 Nov 2026".
func periodTitle(period string, from, to time.Time) string {
	switch period {
	case "week":
		if from.Month() == to.Month() {
			return fmt.Sprintf("Week of %d–%s", from.Day(), to.Format("2 Jan 2006"))
		}
		return fmt.Sprintf("Week of %s – %s", from.Format("2 Jan"), to.Format("2 Jan 2006"))
	case "month":
		return from.Format("January 2006")
	case "all":
		return "All time"
	}
	return dailyName(from)
}

// boardOptions reads /daily leaderboard's period and scope: the scope is
// the server's by default, global in a DM.
func boardOptions(req Request) (period, scope string, err error) {
	if period, err = choiceOption(req.Options, optPeriod, "day", periodChoices); err != nil {
		return "", "", err
	}
	def := scopeServer
	if req.GuildID == "" {
		def = scopeGlobal
	}
	scope, err = choiceOption(req.Options, optScope, def, scopeChoices)
	return period, scope, err
}

// board shows a period's board, in this server or globally, for one level
// or all three.
func (p *player) board(ctx context.Context, req Request, level, dateText, period, scope string) Response {
	if scope == scopeServer && req.GuildID == "" {
		return ephemeral("Server boards need a server: run this in one, or use `scope:global` for every server's.")
	}
	if p.boards == nil {
		return ephemeral("Only the day's board of this server is kept on this bot.")
	}
	today, date, levels, refused := p.boardDays(ctx, req, level, dateText)
	if refused != nil {
		return *refused
	}
	from, to := periodRange(period, date)
	least := minSolves[period]
	where := "this server"
	guild := req.GuildID
	if scope == scopeGlobal {
		where, guild = "every server", ""
	}
	e := Embed{Title: periodTitle(period, from, to) + " · leaderboard · " + where, Color: colorNeutral}
	if period == "day" {
		e.Footer = "Fastest first; ties go to fewer hints."
	} else {
		e.Footer = fmt.Sprintf("Ranked by average time over the period's dailies of a level, with at least %d solved to be listed: "+
			"playing more can't buy a place, only solving faster. Flagged finishes and archive replays never count.", least)
	}
	if scope == scopeGlobal {
		e.Footer += " Names hidden by their players show as " + anonymous + "."
		if req.GuildID != "" {
			if st, err := p.dailies.Settings(ctx, req.GuildID); err == nil && !st.GlobalBoards {
				e.Description = "This server's admins keep it off the global boards: solves made here don't count on them."
			}
		}
	}
	if period == "all" {
		from, to = time.Time{}, time.Time{} // every result: the store's totals
	}
	for _, lvl := range levels {
		rows, err := p.boards.Board(ctx, store.BoardQuery{GuildID: guild, From: from, To: to, Level: lvl.String(),
			MinSolves: least, Limit: boardRows, Include: req.UserID})
		if err != nil {
			return storeError(err)
		}
		var b strings.Builder
		if len(rows) > 0 && rows[0].Rank == 0 {
			fmt.Fprintf(&b, "No one has solved %d of these yet.\n", least)
		}
		for _, r := range rows {
			name := escapeMarkdown(r.UserName)
			if r.Hidden {
				name = anonymous
			}
			if r.UserID == req.UserID {
				name += " (you)"
			}
			switch {
			case r.Rank == 0:
				fmt.Fprintf(&b, "You: %s so far, %d more to be listed.\n", Plural(r.Solves, "solve", "solves"), least-r.Solves)
			case r.Rank > boardRows:
				fmt.Fprintf(&b, "…\n**%d.** %s — %s\n", r.Rank, name, standingText(r, period))
			default:
				fmt.Fprintf(&b, "**%d.** %s — %s\n", r.Rank, name, standingText(r, period))
			}
		}
		if b.Len() == 0 {
			switch {
			case period == "day" && date.Equal(today):
				fmt.Fprintf(&b, "No one yet. Be the first: `/daily play level:%s`", lvl)
			case period == "day":
				b.WriteString("No one solved it.")
			default:
				fmt.Fprintf(&b, "No one has solved %d of these yet.", least)
			}
		}
		e.Fields = append(e.Fields, EmbedField{Name: capitalize(lvl.String()), Value: clip(strings.TrimSpace(b.String()), maxEmbedFieldValue)})
	}
	return Response{Embeds: []Embed{e}}
}

// standingText is a line's figures: "4:12 · no hints" for a day, "4:12
// average over 5 · best 3:01" for a period.
func standingText(r store.Standing, period string) string {
	if period == "day" {
		return clock(r.Average) + " · " + counted(r.Hints, "hint")
	}
	return fmt.Sprintf("%s average over %d · best %s", clock(r.Average), r.Solves, clock(r.Best))
}

// setGlobal answers /daily setup global:, which needs Manage Server
// (checked by setup).
func (p *player) setGlobal(ctx context.Context, req Request, on bool) (string, *Response) {
	if p.boards == nil {
		r := ephemeral("This bot keeps no global boards.")
		return "", &r
	}
	if err := p.boards.SetGlobalBoards(ctx, req.GuildID, on, req.Now); err != nil {
		r := storeError(err)
		return "", &r
	}
	if on {
		return "This server's daily solves count on the global boards (`/daily leaderboard scope:global`).", nil
	}
	return "This server is off the global boards: solves made here count only on its own boards. `/daily setup global:true` puts it back.", nil
}

// globalState is a sentence on whether a server counts on the global
// boards.
func globalState(on bool) string {
	if on {
		return "This server's daily solves count on the global boards (`/daily setup global:false` keeps them off)."
	}
	return "This server is kept off the global boards (`/daily setup global:true` puts it back)."
}
