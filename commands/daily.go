package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// The daily challenge: three puzzles a UTC day from sudoku.Daily, the same on
// every server, shard and restart.
//
//	/daily play [level] [date]        start or resume today's puzzle, or
//	                                  replay a past one (archive.go)
//	/daily leaderboard [level] [date] [period] [scope]
//	                                  a day's results here, or a period's
//	                                  boards, here or global (boards.go)
//	/daily stats [user]               solved count, streaks, times
//	/daily setup [channel] [hour] [off] [global]  where and when to post,
//	                                  and whether on global boards (Manage Server)
//	/daily flagged                    finishes marked unfair here (Manage Server)
//
// Buttons under the daily post:
//
//	dplay:<yyyymmdd>:<level>   Play (always today's puzzle: an old post's
//	                           button starts today's, so streaks can't be
//	                           back-filled)
//	dlb:<yyyymmdd>             that day's leaderboard, privately
//	dopen:<yyyymmdd>           Open board: launches the Activity (only with
//	                           Config.Activity)
const (
	dplayPrefix = "dplay"
	dlbPrefix   = "dlb"
	dopenPrefix = "dopen"

	optUser = "user"
	optDate = "date"
	optHour = "hour"
	optOff  = "off"

	idDay = "20060102"
)

// DailyStore keeps what /daily needs beyond the games themselves: the
// day's results and streaks, each server's daily settings, and the claims
// that post each day's message once (daily_posts.go).
type DailyStore interface {
	DailyGame(ctx context.Context, userID string, date time.Time, level string) (store.Game, error)
	Leaderboard(ctx context.Context, guildID string, date time.Time, level string, limit int) ([]store.Result, error)
	Flagged(ctx context.Context, guildID string, since time.Time, limit int) ([]store.Result, error)
	Stats(ctx context.Context, userID string, today time.Time) (store.Stats, error)
	SetDaily(ctx context.Context, guildID, channelID string, hour int, now time.Time) error
	StopDaily(ctx context.Context, guildID string, now time.Time) error
	Settings(ctx context.Context, guildID string) (store.GuildSettings, error)
	DailyGuilds(ctx context.Context) ([]store.GuildSettings, error)
	ClaimPost(ctx context.Context, guildID, channelID string, date time.Time, by string, now time.Time) (bool, error)
	ReleasePost(ctx context.Context, guildID, channelID string, date time.Time) error
}

// dailyLevels are the day's three levels, easiest first.
var (
	dailyLevels       = []sudoku.Level{sudoku.Easy, sudoku.Medium, sudoku.Hard}
	dailyLevelChoices = []Choice{{"easy", "easy"}, {"medium", "medium"}, {"hard", "hard"}}
)

func (p *player) addDaily() {
	p.s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "daily",
		Description: "The daily puzzles: the same three for everyone each day (your date: /profile timezone)",
		// Discord's default member permissions apply to a whole command,
		// not to one sub-command; putting Manage Server here would hide
		// /daily play from everyone. setup checks the permission itself.
		Options: []OptionSpec{
			{Type: OptSubcommand, Name: "play", Description: "Play (or resume) today's daily puzzle", Options: []OptionSpec{
				{Type: OptString, Name: optLevel, Description: "easy, medium or hard (default easy)", Choices: dailyLevelChoices},
				{Type: OptString, Name: optDate, Description: "Replay a past daily: 2026-03-14 or yesterday (not counted on boards)"},
			}},
			{Type: OptSubcommand, Name: "leaderboard", Description: "The fastest solvers of a day, week, month or all time, here or on every server", Options: []OptionSpec{
				{Type: OptString, Name: optLevel, Description: "One level (default: all three)", Choices: dailyLevelChoices},
				{Type: OptString, Name: optDate, Description: "The day, or a day of the week or month, as 2025-03-14 or yesterday (default today)"},
				{Type: OptString, Name: optPeriod, Description: "One day, or the week's, month's or all-time average times", Choices: periodChoices},
				{Type: OptString, Name: optScope, Description: "This server, or every server of the bot", Choices: scopeChoices},
			}},
			{Type: OptSubcommand, Name: "stats", Description: "Daily puzzles solved, streaks and times", Options: []OptionSpec{
				{Type: OptUser, Name: optUser, Description: "Whose stats (default yours)"},
			}},
			{Type: OptSubcommand, Name: "setup", Description: "Post the daily puzzles in a channel every day (needs Manage Server)", Options: []OptionSpec{
				{Type: OptChannel, Name: optChannel, Description: "Where to post them"},
				{Type: OptInteger, Name: optHour, Description: "UTC hour to post at, 0-23 (default 0)"},
				{Type: OptBool, Name: optOff, Description: "Stop posting"},
				{Type: OptBool, Name: optGlobal, Description: "Count this server's solves on the global boards (on unless turned off)"},
			}},
			{Type: OptSubcommand, Name: "flagged", Description: "Daily finishes kept off the boards as too fast or pasted (needs Manage Server)"},
		},
	}, p.dailyCommand, func(ctx context.Context, req Request) Plan {
		switch req.Subcommand {
		case "play":
			return Plan{Heavy: true, Ephemeral: true}
		}
		return Plan{}
	})
	p.s.addComponent(dplayPrefix, p.dailyPlayButton, heavyEphemeral)
	p.s.addComponent(dlbPrefix, p.dailyBoardButton, nil)
	p.s.addComponent(dopenPrefix, p.openBoard, nil) // a launch: never deferred
}

// openBoard answers an "Open board" button by launching the Activity,
// which opens on the player's running game or offers today's dailies.
func (p *player) openBoard(ctx context.Context, req Request) Response {
	if !p.s.cfg.Activity {
		return ephemeral(ActivityOffNotice)
	}
	return Response{LaunchActivity: true}
}

func (p *player) dailyCommand(ctx context.Context, req Request) Response {
	switch req.Subcommand {
	case "play":
		level, err := choiceOption(req.Options, optLevel, "easy", dailyLevelChoices)
		if err != nil {
			return optionError(err)
		}
		if d := req.Options[optDate]; d != "" {
			return p.archivePlay(ctx, req, level, d)
		}
		return p.dailyPlay(ctx, req, level, "")
	case "leaderboard":
		period, scope, err := boardOptions(req)
		if err != nil {
			return optionError(err)
		}
		if period == "day" && scope == scopeServer && req.GuildID != "" {
			return p.leaderboard(ctx, req, req.Options[optLevel], req.Options[optDate])
		}
		return p.board(ctx, req, req.Options[optLevel], req.Options[optDate], period, scope)
	case "stats":
		return p.stats(ctx, req)
	case "setup":
		return p.setup(ctx, req)
	case "flagged":
		return p.flagged(ctx, req)
	}
	return ephemeral("Use /daily play, /daily leaderboard, /daily stats, /daily setup or /daily flagged.")
}

// dailyPlay starts or resumes the user's game of today's daily at level.
func (p *player) dailyPlay(ctx context.Context, req Request, level, note string) Response {
	g, reply := p.startDaily(ctx, req, level)
	if reply != nil {
		return *reply
	}
	switch g.Status {
	case store.Solved:
		note = strings.TrimSpace(note + fmt.Sprintf(" You already solved today's %s daily in %s. Try another level, or see /daily leaderboard.", level, clock(g.Elapsed(req.Now))))
	case store.GaveUp:
		note = strings.TrimSpace(note + fmt.Sprintf(" You gave up on today's %s daily; each daily is played once. Try another level, or come back tomorrow.", level))
	}
	return p.show(ctx, req, g, note)
}

// startDaily starts, or returns, req's user's game of today's daily at
// level. A refusal or failure comes back as the reply to send instead.
func (p *player) startDaily(ctx context.Context, req Request, level string) (store.Game, *Response) {
	fail := func(r Response) (store.Game, *Response) { return store.Game{}, &r }
	lvl, err := sudoku.ParseLevel(level)
	if err != nil {
		return fail(ephemeral(err.Error()))
	}
	today, _, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return fail(storeError(err))
	}
	dp, err := p.daily.get(ctx, today, lvl)
	if err != nil {
		return fail(p.dailyError(ctx, req, level, err))
	}
	ng := newGame(req, dp.Grid, dp.Solution, level)
	ng.DailyDate, ng.DailyLevel, ng.Score = today, level, dp.Rating.Score
	g, _, err := p.games.StartGame(ctx, ng)
	if err != nil {
		return fail(storeError(err))
	}
	return g, nil
}

// dailyPlayButton answers Play under a daily post.
func (p *player) dailyPlayButton(ctx context.Context, req Request) Response {
	f, ok := idFields(req.CustomID, 2)
	if !ok {
		return unknownRequest(req)
	}
	date, err := time.Parse(idDay, f[0])
	if err != nil {
		return unknownRequest(req)
	}
	today, _, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return storeError(err)
	}
	note := ""
	if !date.Equal(today) {
		note = fmt.Sprintf("That post is from %s; here is today's %s daily.", date.Format("2 Jan"), f[1])
	}
	return p.dailyPlay(ctx, req, f[1], note)
}

// dailyBoardButton answers Leaderboard under a daily post.
func (p *player) dailyBoardButton(ctx context.Context, req Request) Response {
	f, ok := idFields(req.CustomID, 1)
	if !ok {
		return unknownRequest(req)
	}
	date, err := time.Parse(idDay, f[0])
	if err != nil {
		return unknownRequest(req)
	}
	r := p.leaderboard(ctx, req, "", date.Format(time.DateOnly))
	r.Ephemeral = true
	return r
}

// parseDay reads a leaderboard's date option, for a player whose today is
// today.
func parseDay(text string, today time.Time) (time.Time, error) {
	switch t := strings.ToLower(strings.TrimSpace(text)); t {
	case "", "today":
		return today, nil
	case "yesterday":
		return today.AddDate(0, 0, -1), nil
	}
	d, err := time.Parse(time.DateOnly, strings.TrimSpace(text))
	if err != nil {
		return time.Time{}, fmt.Errorf("the date %q isn't one I can read: write it as 2025-03-14, today or yesterday", text)
	}
	if d.Before(sudoku.DailyEpoch) {
		return time.Time{}, fmt.Errorf("there was no daily on %s: the first was on %s", d.Format(time.DateOnly), sudoku.DailyEpoch.Format(time.DateOnly))
	}
	if d.After(today) {
		return time.Time{}, fmt.Errorf("%s hasn't come yet (your today is %s)", d.Format(time.DateOnly), today.Format(time.DateOnly))
	}
	return d, nil
}

// leaderboardRows is how many results a daily's leaderboard shows, in
// chat and on the board page.
const leaderboardRows = 10

// boardDays reads a board's options: the asker's today, the date asked
// for (today when empty) and the levels (all three when empty), or the
// reply that refuses them.
func (p *player) boardDays(ctx context.Context, req Request, level, dateText string) (today, date time.Time, levels []sudoku.Level, refused *Response) {
	fail := func(r Response) (time.Time, time.Time, []sudoku.Level, *Response) { return today, date, nil, &r }
	today, _, err := p.today(ctx, req.UserID, req.Now)
	if err != nil {
		return fail(storeError(err))
	}
	if date, err = parseDay(dateText, today); err != nil {
		return fail(optionError(err))
	}
	levels = dailyLevels
	if level != "" {
		lvl, err := sudoku.ParseLevel(level)
		if err != nil {
			return fail(ephemeral(err.Error()))
		}
		levels = []sudoku.Level{lvl}
	}
	return today, date, levels, nil
}

// leaderboard shows this server's results for one day: one level, or all
// three.
func (p *player) leaderboard(ctx context.Context, req Request, level, dateText string) Response {
	if req.GuildID == "" {
		return ephemeral("Leaderboards are per server: run /daily leaderboard in a server.")
	}
	today, date, levels, refused := p.boardDays(ctx, req, level, dateText)
	if refused != nil {
		return *refused
	}
	// Only today's daily can be played: an older day's board invites no one.
	playable := date.Equal(today)
	e := Embed{Title: dailyName(date) + " · leaderboard", Color: colorNeutral,
		Footer: "Fastest first; ties go to fewer hints."}
	for _, lvl := range levels {
		rows, err := p.dailies.Leaderboard(ctx, req.GuildID, date, lvl.String(), leaderboardRows)
		if err != nil {
			return storeError(err)
		}
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintf(&b, "**%d.** %s — %s · %s\n", r.Rank, escapeMarkdown(r.UserName), clock(r.Duration), counted(r.Hints, "hint"))
		}
		if b.Len() == 0 {
			if playable {
				fmt.Fprintf(&b, "No one yet. Be the first: `/daily play level:%s`", lvl)
			} else {
				b.WriteString("No one solved it here.")
			}
		}
		e.Fields = append(e.Fields, EmbedField{Name: capitalize(lvl.String()), Value: clip(strings.TrimSpace(b.String()), maxEmbedFieldValue)})
	}
	return Response{Embeds: []Embed{e}}
}

// dailyName is "Daily #325 · 14 Mar 2025".
func dailyName(date time.Time) string {
	return fmt.Sprintf("Daily #%d · %s", sudoku.DailyNumber(date), date.Format("2 Jan 2006"))
}

// stats shows a user's daily figures.
func (p *player) stats(ctx context.Context, req Request) Response {
	user := req.Options[optUser]
	if user == "" {
		user = req.UserID
	}
	today, _, err := p.today(ctx, user, req.Now)
	if err != nil {
		return storeError(err)
	}
	st, err := p.dailies.Stats(ctx, user, today)
	if err != nil {
		return storeError(err)
	}
	e := Embed{Title: "Daily stats", Color: colorNeutral,
		Description: fmt.Sprintf("<@%s> · %s solved on %s", user, Plural(st.Solved, "daily", "dailies"), Plural(st.Days, "day", "days"))}
	if st.Solved == 0 {
		e.Description = fmt.Sprintf("<@%s> hasn't solved a daily yet.", user)
		if user == req.UserID {
			e.Description = "You haven't solved a daily yet. `/daily play` starts today's."
		}
		if st.Flagged > 0 {
			e.Description += fmt.Sprintf("\n%s not counted: too fast for a person, or entered all at once.", Plural(st.Flagged, "finish", "finishes"))
		}
		return Response{Embeds: []Embed{e}}
	}
	streak := fmt.Sprintf("current **%d** · best **%d**", st.Current, st.Best)
	if st.Current == 0 {
		streak += "\nSolve today's daily to start a new one."
	} else if !st.LastDay.Equal(today) {
		streak += "\nSolve one today to keep it going."
	}
	freezes := fmt.Sprintf("Freezes: **%d** of %d held", st.Freezes, maxFreezes)
	if st.Frozen > 0 {
		freezes += fmt.Sprintf(" · %s saved by one so far", Plural(st.Frozen, "day", "days"))
	}
	streak += "\n" + freezes + fmt.Sprintf(" (one earned per %d days in a row; a missed day uses one by itself)", freezeEvery)
	e.Fields = append(e.Fields, EmbedField{Name: "Streak (days in a row)", Value: streak})
	if st.Flagged > 0 {
		e.Fields = append(e.Fields, EmbedField{Name: "Not counted", Value: Plural(st.Flagged, "finish", "finishes") + " too fast for a person, or entered all at once: kept, but in none of these figures."})
	}
	for _, l := range st.Levels {
		e.Fields = append(e.Fields, EmbedField{
			Name:   capitalize(l.Level),
			Value:  fmt.Sprintf("%d solved\nAverage %s\nBest %s", l.Solved, clock(l.Average), clock(l.Best)),
			Inline: true,
		})
	}
	return Response{Embeds: []Embed{e}}
}

// Streak freezes, as package store counts them (store.Stats): shown in
// /daily stats.
const (
	freezeEvery = 7
	maxFreezes  = 2
)

// flaggedDays and maxFlagged bound /daily flagged: the last 30 days, 20
// finishes at most (one embed field each stays well within Discord's 25).
const (
	flaggedDays = 30
	maxFlagged  = 20
)

// flagged lists, for a server's admins, the daily finishes solved here that
// were kept off the boards (fair.go), newest first.
func (p *player) flagged(ctx context.Context, req Request) Response {
	if req.GuildID == "" {
		return ephemeral("Flagged finishes are per server: run /daily flagged in a server.")
	}
	if req.Permissions&(permManageGuild|permAdministrator) == 0 {
		return ephemeral("Seeing flagged finishes needs the Manage Server permission.")
	}
	rows, err := p.dailies.Flagged(ctx, req.GuildID, req.Now.AddDate(0, 0, -flaggedDays), maxFlagged)
	if err != nil {
		return storeError(err)
	}
	e := Embed{Title: "Flagged daily finishes", Color: colorNeutral,
		Footer: fmt.Sprintf("The last %d days, newest first. They are kept, but off the leaderboards and streaks.", flaggedDays)}
	if len(rows) == 0 {
		e.Description = fmt.Sprintf("No daily finish on this server was flagged in the last %d days. A finish is flagged when it is faster than anyone can solve, or the solution was entered all at once.", flaggedDays)
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "**%s** · %s · %s (<@%s>) — %s · %s\n", dailyName(r.Date), r.Level, escapeMarkdown(r.UserName), r.UserID,
			clock(r.Duration), flagShort(r.Flag))
	}
	if b.Len() > 0 {
		e.Description = clip(strings.TrimSpace(b.String()), maxEmbedDescription)
	}
	r := Response{Embeds: []Embed{e}}
	r.Ephemeral = true
	return r
}

// setup configures the daily post; it needs Manage Server.
func (p *player) setup(ctx context.Context, req Request) Response {
	if req.GuildID == "" {
		return ephemeral("Daily posts are per server: run /daily setup in a server.")
	}
	if req.Permissions&(permManageGuild|permAdministrator) == 0 {
		return ephemeral("Setting up daily posts needs the Manage Server permission.")
	}
	// Every option is checked before anything changes: a refusal leaves
	// the server as it was.
	channel := req.Options[optChannel]
	hour := 0
	if channel != "" {
		// Discord resolves a channel option with the channel's server; a
		// channel of another server (a hand-made request) or one Discord did
		// not resolve is refused, or the poster would post there.
		switch guild, ok := req.ChannelGuilds[channel]; {
		case !ok:
			return ephemeral("I couldn't confirm that channel is in this server. Pick it from the list Discord offers in `/daily setup channel:`.")
		case guild != "" && guild != req.GuildID:
			return ephemeral("That channel belongs to another server. Pick a channel of this server for the daily puzzles.")
		}
		if h := req.Options[optHour]; h != "" {
			var err error
			if hour, err = strconv.Atoi(h); err != nil || hour < 0 || hour > 23 {
				return ephemeral(fmt.Sprintf("The hour must be a whole number from 0 to 23 (UTC); %q isn't.", h))
			}
		}
	}
	global := ""
	if _, ok := req.Options[optGlobal]; ok {
		var refusal *Response
		if global, refusal = p.setGlobal(ctx, req, boolOption(req.Options, optGlobal)); refusal != nil {
			return *refusal
		}
		if req.Options[optChannel] == "" && !boolOption(req.Options, optOff) {
			return ephemeral(global)
		}
		global += " "
	}
	if boolOption(req.Options, optOff) {
		if err := p.dailies.StopDaily(ctx, req.GuildID, req.Now); err != nil {
			return storeError(err)
		}
		return ephemeral(global + "Daily posts are off. `/daily setup channel:#channel` turns them back on.")
	}
	if channel == "" {
		cur, err := p.dailies.Settings(ctx, req.GuildID)
		if err != nil {
			return storeError(err)
		}
		state := ""
		if p.boards != nil {
			state = " " + globalState(cur.GlobalBoards)
		}
		if cur.DailyChannel == "" {
			return ephemeral("Daily posts are off. Turn them on with `/daily setup channel:#channel hour:9` (the hour is UTC)." + state)
		}
		return ephemeral(fmt.Sprintf("The daily puzzles are posted in <#%s> at %02d:00 UTC. `/daily setup off:true` stops them.", cur.DailyChannel, cur.DailyHour) + state)
	}
	if err := p.dailies.SetDaily(ctx, req.GuildID, channel, hour, req.Now); err != nil {
		return storeError(err)
	}
	when := "from tomorrow"
	if req.Now.UTC().Hour() >= hour {
		when = "starting with today's in a minute or so"
	}
	return ephemeral(global + fmt.Sprintf("The daily puzzles will be posted in <#%s> every day at %02d:00 UTC, %s. Make sure I can send messages and attach files there.", channel, hour, when))
}

// DailyPost is the message the bot posts in a server's daily channel: the
// day's number and its three levels with their ratings, a Play button for
// each and the leaderboard. It shows no grid: a player's clock starts when
// Play opens their board, so a grid in the channel would let anyone study
// it first. It fails when the puzzles can't be made (the bot then tries
// again later).
func (s *Service) DailyPost(ctx context.Context, date time.Time) (Response, error) {
	p := s.playFeature
	if p == nil {
		return Response{}, errors.New("daily post: no game store configured")
	}
	day := sudoku.DailyDay(date)
	e := Embed{Title: dailyName(day), Color: colorNeutral,
		Footer: "Play opens the daily of your own date (set your time zone with /profile). Your time starts when your board opens; hints are allowed and counted."}
	var buttons []Button
	styles := []ButtonStyle{Success, Primary, Danger}
	for i, lvl := range dailyLevels {
		dp, err := p.daily.get(ctx, day, lvl)
		if err != nil {
			return Response{}, fmt.Errorf("daily post for %s: %s puzzle: %w", day.Format(time.DateOnly), lvl, err)
		}
		e.Fields = append(e.Fields, EmbedField{
			Name:   capitalize(lvl.String()),
			Value:  fmt.Sprintf("rated %.1f\n%d clues", dp.Rating.Score, dp.Grid.Clues()),
			Inline: true,
		})
		buttons = append(buttons, Button{
			Label:    "Play " + lvl.String(),
			CustomID: mustID(dplayPrefix, day.Format(idDay), lvl.String()),
			Style:    styles[i],
		})
	}
	buttons = append(buttons, Button{Label: "Leaderboard", CustomID: mustID(dlbPrefix, day.Format(idDay)), Style: Secondary})
	if s.cfg.Activity {
		buttons = append(buttons, Button{Label: "Open board", CustomID: mustID(dopenPrefix, day.Format(idDay)), Style: Secondary})
	}
	return Response{
		Content: fmt.Sprintf("**Daily #%d** · %s — three puzzles, the same on every server. "+
			"Press Play for your own board.", sudoku.DailyNumber(day), day.Format("Monday 2 January 2006")),
		Embeds:     []Embed{e},
		Components: []ActionRow{{Buttons: buttons}},
	}, nil
}

// dailyCache remembers the day's puzzles: making a hard one can take a
// while, and every player of the day needs the same three. Concurrent
// callers for one puzzle wait for a single generation.
type dailyCache struct {
	src Puzzles
	mu  sync.Mutex
	m   map[dailyKey]*dailyEntry
}

type dailyKey struct {
	day   string
	level sudoku.Level
}

type dailyEntry struct {
	ready chan struct{}
	p     sudoku.DailyPuzzle
	err   error
}

// maxDailyCached bounds the cache: a few days of three levels (the guard
// alone keeps four days: daily_guard.go).
const maxDailyCached = 18

func newDailyCache(src Puzzles) *dailyCache {
	return &dailyCache{src: src, m: make(map[dailyKey]*dailyEntry)}
}

// get returns the daily puzzle of date's UTC day at level.
func (c *dailyCache) get(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	key := dailyKey{day(date), level}
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		if len(c.m) >= maxDailyCached {
			for k, old := range c.m {
				if k.day != key.day {
					select {
					case <-old.ready:
						delete(c.m, k)
					default:
					}
				}
			}
		}
		e = &dailyEntry{ready: make(chan struct{})}
		c.m[key] = e
		c.mu.Unlock()
		e.p, e.err = c.src.Daily(ctx, sudoku.DailyDay(date), level)
		if e.err == nil && e.p.Grid == nil {
			e.err = errors.New("the daily puzzle came back empty")
		}
		if e.err != nil {
			c.mu.Lock()
			delete(c.m, key) // let a later call try again
			c.mu.Unlock()
		}
		close(e.ready)
		return e.p, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.p, e.err
	case <-ctx.Done():
		return sudoku.DailyPuzzle{}, ctx.Err()
	}
}
