package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Races: /race opens a lobby message with Join, Leave and Start; Start
// claims the race (one winner, whatever the processes: store.StartRace),
// makes a thread from the lobby message and posts the scoreboard in it.
// After a short countdown each player presses Play for a board of their
// own: an ordinary game (the /play buttons and moves modal) tied to the
// race, whose clock starts at the race's start. Every move, hint, check
// and finish edits the scoreboard (through Channels.Edit, which the bot
// coalesces within the channel's limits); it shows each player's progress,
// never their digits. A player with no move for raceIdleAfter is marked
// idle, not waited for; the race is over when nobody is still racing, or
// after raceMaxDuration, and whoever ends it (store.EndRace: one winner)
// posts the results. Nothing lives only in memory: the times are stored
// and every check re-derives the state from them (settle), on each
// interaction with the race and on Service.Tick.
//
//	race:j:<id>   Join (the lobby)
//	race:l:<id>   Leave (the lobby, or the race from its scoreboard)
//	race:s:<id>   Start (the lobby)
//	race:p:<id>   Play: open your board (the scoreboard and the lobby)
const racePrefix = "race"

// The race's timings and sizes.
const (
	// raceCountdown is the time between Start and the race's start: the
	// thread is there, the scoreboard counts down.
	raceCountdown = 10 * time.Second
	// raceAnyoneStarts: after this long in the lobby, anyone in the race
	// may press Start, not only its starter (who may have gone).
	raceAnyoneStarts = 2 * time.Minute
	// raceLobbyLife: a lobby nobody starts is called off after this.
	raceLobbyLife = 30 * time.Minute
	// raceIdleAfter: a player with no move for this long is marked idle
	// (a move brings them back while the race runs).
	raceIdleAfter = 10 * time.Minute
	// raceMaxDuration ends a race however many still play.
	raceMaxDuration = 3 * time.Hour
	// raceMaxPlayers bounds a lobby: a scoreboard line each.
	raceMaxPlayers = 20
	// raceMinPlayers: a race of one is /play with extra messages.
	raceMinPlayers = 2
	// raceTickGrace: a tick leaves a player's end, and a race's end once
	// all are done, to the players' own requests for this long (they
	// record them at once; a tick repairs what a stopped process left).
	raceTickGrace = 30 * time.Second
	// raceTickBatch bounds the races one Tick looks at.
	raceTickBatch = 200
)

// The options of /race.
const (
	optDaily = "daily"
	optVs    = "vs"
)

// RaceStore keeps races and the co-op games (package store implements
// it).
type RaceStore interface {
	CreateRace(ctx context.Context, nr store.NewRace) (store.Race, error)
	Race(ctx context.Context, id int64) (store.Race, error)
	OpenRaces(ctx context.Context, limit int) ([]store.Race, error)
	JoinRace(ctx context.Context, id int64, userID, name string, most int, now time.Time) (store.Race, bool, error)
	LeaveRace(ctx context.Context, id int64, userID string, now time.Time) (store.Race, bool, error)
	StartRace(ctx context.Context, id int64, startAt time.Time) (store.Race, bool, error)
	EndRace(ctx context.Context, id int64, now time.Time) (store.Race, bool, error)
	SetRaceMessages(ctx context.Context, id int64, lobby, thread, board string) (store.Race, error)
	ClaimRaceBoard(ctx context.Context, id int64, claim string) (bool, error)
	ReleaseRaceBoard(ctx context.Context, id int64, claim string) error
	SetRaceGame(ctx context.Context, id, gameID int64) error
	RacerGame(ctx context.Context, id int64, userID string, ng store.NewGame) (store.Game, error)
	RacerMoved(ctx context.Context, id int64, userID, name string, mistakes int, now time.Time) error
	RacerDone(ctx context.Context, id int64, userID string, status store.RacerStatus, now time.Time) (bool, error)
	MarkIdle(ctx context.Context, id int64, cutoff, now time.Time) (store.Race, error)
	MoveBy(ctx context.Context, id int64, mover string, changes []store.Change, solved []uint8, now time.Time) (store.Finished, error)
	Movers(ctx context.Context, id int64) (map[string]int, error)
	RaceInstance(ctx context.Context, id int64) (string, error)
}

// chatRace loads race id, and says whether it is played in chat (not in
// an Activity instance: the board page follows those, board_rooms.go).
func (r *racing) chatRace(ctx context.Context, id int64) (store.Race, bool) {
	if rs, ok := r.p.games.(roomStore); ok {
		// An instance's race is known without a query once seen.
		if info, err := r.p.raceInfo(ctx, rs, id); err != nil || info.instance != "" {
			return store.Race{}, false
		}
	} else if instance, err := r.races.RaceInstance(ctx, id); err != nil || instance != "" {
		return store.Race{}, false
	}
	race, err := r.races.Race(ctx, id)
	if err != nil {
		r.p.s.logf("race %d: load: %v", id, err)
		return store.Race{}, false
	}
	return race, true
}

// racing is the race feature: the player's games, the races and the
// channels their messages go to.
type racing struct {
	p     *player
	races RaceStore
	ch    Channels

	// boards are this process's scoreboards being edited, by race.
	boardsMu sync.Mutex
	boards   map[int64]*raceBoard
}

// raceBoard orders one race's scoreboard edits in this process: each is
// drawn from the store under mu, so the last edit sent is the freshest,
// and last (what was sent) spares an edit that changes nothing. Two
// processes may still send theirs out of order: Tick redraws the running
// races this process has edited, and the one whose last edit differs from
// the store's state sends it again, so the scoreboard is never behind for
// longer than a tick.
type raceBoard struct {
	mu   sync.Mutex
	last string
}

// editing reports whether this process has edited race id's scoreboard.
func (r *racing) editing(id int64) bool {
	r.boardsMu.Lock()
	defer r.boardsMu.Unlock()
	_, ok := r.boards[id]
	return ok
}

// board returns race id's raceBoard, made at first use.
func (r *racing) board(id int64) *raceBoard {
	r.boardsMu.Lock()
	defer r.boardsMu.Unlock()
	if r.boards == nil {
		r.boards = map[int64]*raceBoard{}
	}
	b := r.boards[id]
	if b == nil {
		b = &raceBoard{}
		r.boards[id] = b
	}
	return b
}

// addRace registers /race and its buttons, with a store that keeps races
// and channels to post in.
func (p *player) addRace() {
	r := p.racing
	if r == nil {
		return
	}
	p.s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "race",
		Description: "Race others on the same puzzle, each on your own board, in a thread",
		Options: []OptionSpec{
			{Type: OptString, Name: optLevel, Description: "Difficulty (default medium)", Choices: levelChoices},
			{Type: OptString, Name: optSize, Description: "Grid size (default 9x9)", Choices: sizeChoices},
			{Type: OptString, Name: optDaily, Description: "Race today's daily at this level instead, as practice (never counted)", Choices: dailyLevelChoices},
			{Type: OptString, Name: optPuzzle, Description: "Race a puzzle of your own: paste it"},
			{Type: OptUser, Name: optVs, Description: "A duel: only this member may join"},
		},
	}, r.open, func(ctx context.Context, req Request) Plan { return Plan{Heavy: true, Ephemeral: true} })
	p.s.addComponent(racePrefix, r.button, func(ctx context.Context, req Request) Plan {
		switch action, _, _ := parseRaceButton(req.CustomID); action {
		case "p":
			return Plan{Ephemeral: true}
		case "s":
			// The thread and the scoreboard are two calls to Discord.
			return Plan{Heavy: true, Cheap: true, Update: true}
		}
		return Plan{Update: true}
	})
}

// raceButtonID is the custom id of race id's button for action.
func raceButtonID(action string, id int64) string {
	return mustID(racePrefix, action, strconv.FormatInt(id, 10))
}

// parseRaceButton reads a race button's action and race id.
func parseRaceButton(id string) (action string, race int64, ok bool) {
	f, ok := idFields(id, 2)
	if !ok || idPrefix(id) != racePrefix {
		return "", 0, false
	}
	race, ok = parseGameNumber(f[1])
	return f[0], race, ok
}

// open answers /race: a lobby.
func (r *racing) open(ctx context.Context, req Request) Response {
	if req.GuildID == "" {
		return ephemeral("Races are run in a server's channel, where others can join; here, play alone with /play.")
	}
	rival := strings.TrimSpace(req.Options[optVs])
	if rival == req.UserID {
		return ephemeral("You can't duel yourself. Name someone else with `vs`, or leave it out for an open race.")
	}
	nr, reply := r.puzzle(ctx, req)
	if reply != nil {
		return *reply
	}
	nr.Kind, nr.GuildID, nr.ChannelID = store.KindRace, req.GuildID, req.ChannelID
	nr.StarterID, nr.Starter, nr.RivalID, nr.Now = req.UserID, displayName(req), rival, req.Now
	what := "Race"
	if rival != "" {
		what = "Duel"
	}
	nr.Title = what + " · " + nr.Title
	race, err := r.races.CreateRace(ctx, nr)
	if err != nil {
		return storeError(err)
	}
	// The lobby is a message of the bot's own, not this answer: its id is
	// known, so a tick can edit it (a lobby nobody starts is called off),
	// and the thread is made from it.
	lobby, err := r.ch.Post(ctx, req.ChannelID, r.lobby(race, req.Now, ""))
	if err != nil {
		r.p.s.logf("race %d: post the lobby: %v", race.ID, err)
		if _, _, err := r.races.EndRace(ctx, race.ID, req.Now); err != nil {
			r.p.s.logf("race %d: call it off: %v", race.ID, err)
		}
		return ephemeral("I couldn't post the race's lobby in this channel, so there is no race. Check that I may send messages here, then try again.")
	}
	if _, err := r.races.SetRaceMessages(ctx, race.ID, lobby, "", ""); err != nil {
		r.p.s.logf("race %d: remember the lobby: %v", race.ID, err)
	}
	if rival != "" {
		return ephemeral(fmt.Sprintf("Your duel's lobby is the message above: <@%s> presses **Join** there, then you press **Start**.", rival))
	}
	return ephemeral("Your race's lobby is the message above: others press **Join** there, and you press **Start** when ready.")
}

// puzzle makes the race's puzzle from req's options: a pasted grid, the
// day's daily at a level, or a fresh one of a size and level. Title is
// what the puzzle is called ("Hard 9x9").
func (r *racing) puzzle(ctx context.Context, req Request) (store.NewRace, *Response) {
	fail := func(resp Response) (store.NewRace, *Response) { return store.NewRace{}, &resp }
	pasted, daily := strings.TrimSpace(req.Options[optPuzzle]), req.Options[optDaily]
	_, sized := req.Options[optSize]
	_, leveled := req.Options[optLevel]
	switch {
	case pasted != "" && (daily != "" || sized || leveled):
		return fail(ephemeral("A pasted puzzle is raced as it is: leave out `daily`, `size` and `level` with `puzzle`."))
	case daily != "" && (sized || leveled):
		return fail(ephemeral("The daily is a 9x9 of its own level: with `daily`, leave out `size` and `level`."))
	}
	switch {
	case pasted != "":
		g, reply := r.p.s.readPuzzle(pasted)
		if reply != nil {
			return fail(*reply)
		}
		if clashes := g.Clashes(); len(clashes) > 0 {
			return fail(ephemeral("That puzzle breaks the rules already: " + clashSentences(clashes, g) + ". Fix it and try again."))
		}
		res := r.p.s.solveFn(ctx, g, 2)
		switch {
		case ctx.Err() != nil && len(res.Solutions) < 2:
			return fail(r.p.s.stoppedOn(ctx, g))
		case len(res.Solutions) == 0:
			return fail(ephemeral("That puzzle has no solution, so nobody could finish the race. Check it was copied right."))
		case len(res.Solutions) > 1:
			return fail(ephemeral("That puzzle has more than one solution: a race needs a puzzle with exactly one. Add a clue or two, or race a fresh one (leave out `puzzle`)."))
		}
		return store.NewRace{Puzzle: g.String(), Shape: encodeShape(g), Solution: res.Solutions[0].String(),
			Title: "Pasted " + g.Shape.String()}, nil
	case daily != "":
		lvl, err := sudoku.ParseLevel(daily)
		if err != nil {
			return fail(ephemeral(err.Error()))
		}
		today, _, err := r.p.today(ctx, req.UserID, req.Now)
		if err != nil {
			return fail(storeError(err))
		}
		dp, err := r.p.daily.get(ctx, today, lvl)
		if err != nil {
			return fail(r.p.dailyError(ctx, req, daily, err))
		}
		return store.NewRace{Puzzle: dp.Grid.String(), Shape: encodeShape(dp.Grid), Solution: dp.Solution.String(),
			Level: daily, Title: fmt.Sprintf("Daily #%d · %s · practice", dp.Number, daily)}, nil
	}
	level, err := choiceOption(req.Options, optLevel, defaultLevelOption(req.Options), levelChoices)
	if err != nil {
		return fail(optionError(err))
	}
	size, err := choiceOption(req.Options, optSize, "9", sizeChoices)
	if err != nil {
		return fail(optionError(err))
	}
	puz, reply := r.p.generate(ctx, req, level, size)
	if reply != nil {
		return fail(*reply)
	}
	return store.NewRace{Puzzle: puz.Grid.String(), Shape: encodeShape(puz.Grid), Solution: puz.Solution.String(),
		Level: level, Title: capitalize(level) + " " + puz.Grid.Shape.String()}, nil
}

// lobby draws race's lobby message, public, under note: a Components V2
// card (a container with the race's colour, its words, the players and
// its buttons). A lobby stays V2 through its edits, as Discord wants.
func (r *racing) lobby(race store.Race, now time.Time, note string) Response {
	accent := colorNeutral
	starter := "**" + escapeMarkdown(race.Starter) + "**"
	var lines []string
	var row []Button
	switch race.Status {
	case store.RaceLobby:
		if race.RivalID != "" {
			lines = append(lines, fmt.Sprintf("%s challenges <@%s> to a duel: the same puzzle, each on your own board, against the clock. Only <@%[2]s> may join.", starter, race.RivalID))
		} else {
			lines = append(lines, starter+" opened a race: everyone plays the same puzzle on their own board, against the clock. Press **Join** to play.")
		}
		lines = append(lines, fmt.Sprintf("%s presses **Start** when ready (anyone in the race may from <t:%d:R>); a thread then shows the scoreboard: each player's progress, never their digits.",
			starter, race.CreatedAt.Add(raceAnyoneStarts).Unix()))
		if strings.Contains(race.Title, "practice") {
			lines = append(lines, "Practice: this race counts on no daily leaderboard or streak. Play your own daily first with /daily play if you want it to count.")
		}
		lines = append(lines, fmt.Sprintf("Unless it is started, it is called off <t:%d:R>.", race.CreatedAt.Add(raceLobbyLife).Unix()))
		row = []Button{
			{Label: "Join", CustomID: raceButtonID("j", race.ID), Style: Success},
			{Label: "Leave", CustomID: raceButtonID("l", race.ID), Style: Secondary},
			{Label: "Start", CustomID: raceButtonID("s", race.ID), Style: Primary},
		}
	case store.RaceRunning:
		where := "in the thread below"
		if race.ThreadID == "" {
			where = "here: the scoreboard is the next message"
		}
		lines = append(lines, fmt.Sprintf("Started by %s, %s. The start: <t:%d:R>. Players: press **Play** for your board.", starter, where, race.StartAt.Unix()))
		row = []Button{{Label: "Play", CustomID: raceButtonID("p", race.ID), Style: Primary}}
	case store.RaceOver:
		accent = colorGood
		lines = append(lines, "This race is over; the results are in its thread.")
	case store.RaceCancelled:
		accent = colorWarn
		if race.EndedAt.Sub(race.CreatedAt) >= raceLobbyLife {
			what := "race"
			if race.RivalID != "" {
				what = "duel"
			}
			lines = append(lines, fmt.Sprintf("Nobody started this %s within %d minutes, so it was called off. Open a new one with /race.", what, int(raceLobbyLife/time.Minute)))
		} else {
			lines = append(lines, "This race was called off before it started.")
		}
	}
	var names []string
	for _, pl := range race.Players {
		names = append(names, escapeMarkdown(pl.UserName))
	}
	players := "**Players:** nobody yet"
	if len(names) > 0 {
		players = fmt.Sprintf("**Players (%d of at most %d):** %s", len(names), raceMaxPlayers, strings.Join(names, ", "))
	}
	return raceCard(race, accent, note, "", strings.Join(lines, "\n"), players, row)
}

// raceCard lays out one of a race's messages as Components V2: note (if
// any) above a container in accent holding the heading ("## Title ·
// what"), the body, a rule, the list (a line a player), the race's number
// in small print, and its row of buttons (none once it is over). Seven
// components at most, and the list has what is left of the message's
// MaxTextV2 characters: 20 players' lines fit whole.
func raceCard(race store.Race, accent int, note, what, body, list string, row []Button) Response {
	head := "## " + escapeMarkdown(race.Title)
	if what != "" {
		head += " · " + what
	}
	top := clip(head+"\n"+body, maxRaceBody)
	foot := fmt.Sprintf("-# Race %d", race.ID)
	note = clip(note, maxRaceBody)
	room := MaxTextV2 - runeCount(top) - runeCount(foot) - runeCount(note)
	for _, b := range row {
		room -= runeCount(b.Label)
	}
	blocks := []Block{TextBlock{Text: top}}
	if list != "" {
		blocks = append(blocks, Separator{}, TextBlock{Text: clip(list, room)})
	}
	blocks = append(blocks, TextBlock{Text: foot})
	if len(row) > 0 {
		blocks = append(blocks, ActionRow{Buttons: row})
	}
	var out []Block
	if note != "" {
		out = append(out, TextBlock{Text: note})
	}
	return Response{Blocks: append(out, Container{Accent: accent, Blocks: blocks})}
}

// maxRaceBody bounds a race card's heading and words, and its note.
const maxRaceBody = 800

// runeCount is s's length as Discord counts it.
func runeCount(s string) int { return utf8.RuneCountInString(s) }

// button answers the race's buttons.
func (r *racing) button(ctx context.Context, req Request) Response {
	action, id, ok := parseRaceButton(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	race, err := r.races.Race(ctx, id)
	if err != nil {
		return raceStoreError(err)
	}
	if race.Kind != store.KindRace {
		return unknownRequest(req)
	}
	if race.GuildID != req.GuildID {
		// Discord sends a button's press from its own message only; a
		// press naming another server's race is forged or misrouted, and
		// changes nothing there.
		return ephemeral("That race belongs to another server. Open your own here with /race.")
	}
	race = r.settle(ctx, race, req.Now, false)
	switch action {
	case "j":
		return r.join(ctx, req, race)
	case "l":
		return r.leave(ctx, req, race)
	case "s":
		return r.start(ctx, req, race)
	case "p":
		return r.play(ctx, req, race)
	}
	return unknownRequest(req)
}

// raceStoreError is storeError for a race that can't be found.
func raceStoreError(err error) Response {
	if errors.Is(err, store.ErrNotFound) {
		return ephemeral("I can't find that race any more. Open a new one with /race.")
	}
	return storeError(err)
}

// duelNote turns away someone pressing a duel's buttons who is neither of
// its two.
func duelNote(race store.Race) string {
	return fmt.Sprintf("This is a duel between %s and <@%s>: only they play. Open your own race with /race.", escapeMarkdown(race.Starter), race.RivalID)
}

// closedNote says why a race takes no more players.
func closedNote(race store.Race) string {
	switch race.Status {
	case store.RaceRunning:
		return "This race has started, so it takes no more players: follow it on the scoreboard, or open your own with /race."
	case store.RaceCancelled:
		return "This race was called off before it started. Open a new one with /race."
	}
	return "This race is over. Open a new one with /race."
}

func (r *racing) join(ctx context.Context, req Request, race store.Race) Response {
	if race.Status != store.RaceLobby {
		return ephemeral(closedNote(race))
	}
	if race.RivalID != "" && req.UserID != race.RivalID && req.UserID != race.StarterID {
		return ephemeral(duelNote(race))
	}
	race, joined, err := r.races.JoinRace(ctx, race.ID, req.UserID, displayName(req), raceMaxPlayers, req.Now)
	switch {
	case errors.Is(err, store.ErrRaceFull):
		return ephemeral(fmt.Sprintf("This race is full (%d players). Open another with /race.", raceMaxPlayers))
	case errors.Is(err, store.ErrRaceClosed):
		race, _ = r.races.Race(ctx, race.ID)
		return ephemeral(closedNote(race))
	case err != nil:
		return raceStoreError(err)
	case !joined:
		return ephemeral("You're in this race already. Wait for Start.")
	}
	resp := r.lobby(race, req.Now, "")
	resp.Update = true
	return resp
}

func (r *racing) leave(ctx context.Context, req Request, race store.Race) Response {
	pl, in := race.Player(req.UserID)
	switch {
	case !in:
		return ephemeral("You're not in this race, so there is nothing to leave.")
	case race.Status == store.RaceOver || race.Status == store.RaceCancelled:
		return ephemeral(closedNote(race))
	case race.Status == store.RaceLobby && req.UserID == race.StarterID:
		race, won, err := r.races.EndRace(ctx, race.ID, req.Now)
		if err != nil {
			return raceStoreError(err)
		}
		if !won {
			return ephemeral(closedNote(race))
		}
		resp := r.lobby(race, req.Now, escapeMarkdown(race.Starter)+" called the race off.")
		resp.Update = true
		return resp
	case race.Status == store.RaceLobby:
		race, _, err := r.races.LeaveRace(ctx, race.ID, req.UserID, req.Now)
		if err != nil {
			return raceStoreError(err)
		}
		resp := r.lobby(race, req.Now, "")
		resp.Update = true
		return resp
	case race.Status != store.RaceRunning || pl.Status == store.RacerFinished || pl.Status == store.RacerLeft:
		return ephemeral("You're done in this race already.")
	}
	if _, _, err := r.races.LeaveRace(ctx, race.ID, req.UserID, req.Now); err != nil {
		return raceStoreError(err)
	}
	if pl.GameID != 0 {
		if _, err := r.p.games.Finish(ctx, pl.GameID, store.GaveUp, req.Now); err != nil && !errors.Is(err, store.ErrFinished) {
			r.p.s.logf("race %d: give up %s's game %d: %v", race.ID, req.UserID, pl.GameID, err)
		}
	}
	r.changed(ctx, race.ID, req.Now)
	return ephemeral("You left the race; the scoreboard says so. Open a new one with /race.")
}

func (r *racing) start(ctx context.Context, req Request, race store.Race) Response {
	if race.Status != store.RaceLobby {
		if race.Status == store.RaceRunning {
			return ephemeral("This race has started already. Players: press Play for your board.")
		}
		return ephemeral(closedNote(race))
	}
	if _, in := race.Player(req.UserID); !in {
		if race.RivalID != "" && req.UserID != race.RivalID {
			return ephemeral(duelNote(race))
		}
		return ephemeral("Only players in the race can start it: press Join first.")
	}
	opens := race.CreatedAt.Add(raceAnyoneStarts)
	if req.UserID != race.StarterID && req.Now.Before(opens) {
		return ephemeral(fmt.Sprintf("%s starts this race; if they don't, anyone in it may <t:%d:R>.", escapeMarkdown(race.Starter), opens.Unix()))
	}
	if race.RivalID != "" {
		if _, in := race.Player(race.RivalID); !in {
			return ephemeral(fmt.Sprintf("<@%s> hasn't joined yet: a duel starts once both of you are in.", race.RivalID))
		}
	}
	if len(race.Players) < raceMinPlayers {
		return ephemeral("A race needs two players: wait for someone to press Join. To play alone, use /play.")
	}
	startAt := req.Now.Add(raceCountdown)
	race, won, err := r.races.StartRace(ctx, race.ID, startAt)
	if err != nil {
		return raceStoreError(err)
	}
	if !won {
		return ephemeral("This race has started already. Players: press Play for your board.")
	}
	if race.LobbyID == "" && req.MessageID != "" {
		// A lobby posted as the answer to /race (before lobbies were
		// messages of their own): the thread is made from it.
		if race, err = r.races.SetRaceMessages(ctx, race.ID, req.MessageID, "", ""); err != nil {
			r.p.s.logf("race %d: remember the lobby message: %v", race.ID, err)
		}
	}
	race = r.postBoard(ctx, race, req.Now)
	resp := r.lobby(race, req.Now, "")
	resp.Update = true
	return resp
}

// postBoard makes the race's thread from its lobby message (or stays in
// the channel) and posts the scoreboard there, once: the caller claims it
// in the store first. It returns the race as stored after.
func (r *racing) postBoard(ctx context.Context, race store.Race, now time.Time) store.Race {
	claim := "posting"
	won, err := r.races.ClaimRaceBoard(ctx, race.ID, claim)
	if err != nil || !won {
		if err != nil {
			r.p.s.logf("race %d: claim the scoreboard: %v", race.ID, err)
		}
		return race
	}
	where, thread := race.ChannelID, race.ThreadID
	if thread == "" && race.LobbyID != "" {
		t, err := r.ch.StartThread(ctx, race.ChannelID, race.LobbyID, clip(race.Title, maxThreadName))
		switch {
		case err == nil:
			thread = t
		case !errors.Is(err, ErrNoThreads):
			r.p.s.logf("race %d: make its thread: %v", race.ID, err)
		}
	}
	if thread != "" {
		where = thread
	}
	race.ThreadID, race.BoardID = thread, ""
	note := ""
	if thread == "" {
		note = "I can't make a thread here, so the race runs in this channel."
	}
	msg := r.scoreboard(ctx, race, now, note)
	id, err := r.ch.Post(ctx, where, msg)
	if err != nil {
		r.p.s.logf("race %d: post the scoreboard: %v", race.ID, err)
		if err := r.races.ReleaseRaceBoard(ctx, race.ID, claim); err != nil {
			r.p.s.logf("race %d: release the scoreboard claim: %v", race.ID, err)
		}
		if thread != "" {
			if race2, err := r.races.SetRaceMessages(ctx, race.ID, "", thread, ""); err == nil {
				return race2
			}
		}
		return race
	}
	b := r.board(race.ID)
	b.mu.Lock()
	b.last = allEmbedText(msg) // what the scoreboard shows: no edit needed yet
	b.mu.Unlock()
	race2, err := r.races.SetRaceMessages(ctx, race.ID, "", thread, id)
	if err != nil {
		r.p.s.logf("race %d: remember the scoreboard: %v", race.ID, err)
		race.BoardID = id
		return race
	}
	return race2
}

// maxThreadName is Discord's limit on a thread's name.
const maxThreadName = 100

// play answers Play: the player's own board, made at their first press
// once the race has started, its clock running from the start.
func (r *racing) play(ctx context.Context, req Request, race store.Race) Response {
	pl, in := race.Player(req.UserID)
	switch {
	case race.Status == store.RaceLobby:
		return ephemeral("The race hasn't started yet: Join, and wait for Start.")
	case !in:
		return ephemeral(closedNote(race))
	case pl.Status == store.RacerLeft:
		return ephemeral("You left this race. Open a new one with /race.")
	case req.Now.Before(race.StartAt):
		return ephemeral(fmt.Sprintf("The race starts <t:%d:R>: press Play again then.", race.StartAt.Unix()))
	case race.Status != store.RaceRunning && pl.GameID == 0:
		return ephemeral("This race is over. Open a new one with /race.")
	}
	ng, err := raceGame(req, race)
	if err != nil {
		return storeError(err)
	}
	ng.GuildID, ng.ChannelID = race.GuildID, race.ChannelID
	ng.Now, ng.Viewed = race.StartAt, race.StartAt
	g, err := r.races.RacerGame(ctx, race.ID, req.UserID, ng)
	if err != nil {
		return storeError(err)
	}
	b, err := r.p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	note := "Your board in the race: Enter moves to play; the scoreboard shows your progress (never your digits)."
	if g.Status != store.Playing {
		note = ""
	}
	resp := r.p.gameMessage(b, req.Now, note, nil)
	resp.Ephemeral = true
	return resp
}

// settle brings race up to date at now: a lobby past its life is called
// off; in a running race, players with no move for raceIdleAfter are
// marked idle, and the race ends when nobody races any more or its time
// is up. The first process to claim a change makes it (and posts what it
// says); the others see the race as it then is.
//
// From Tick (tick), settle leaves to the players' own requests what they
// do at once: a player's end is theirs to record for raceTickGrace, and a
// race everyone has finished is theirs to end; a tick edits the scoreboard
// only in a process that edits it already. So a process that serves none
// of the race's players (another shard's) edits nothing while they play,
// and the channel's edit limit is not shared between processes.
func (r *racing) settle(ctx context.Context, race store.Race, now time.Time, tick bool) store.Race {
	if race.Kind != store.KindRace {
		return race
	}
	switch race.Status {
	case store.RaceLobby:
		if now.Sub(race.CreatedAt) < raceLobbyLife {
			return race
		}
		after, won, err := r.races.EndRace(ctx, race.ID, now)
		if err != nil {
			r.p.s.logf("race %d: call the lobby off: %v", race.ID, err)
			return race
		}
		if won && after.LobbyID != "" {
			// Its one winner says so on the lobby, and takes its buttons.
			if err := r.ch.Edit(ctx, race.ChannelID, after.LobbyID, r.lobby(after, now, "")); err != nil {
				r.p.s.logf("race %d: edit the lobby called off: %v", race.ID, err)
			}
		}
		return after
	case store.RaceRunning:
	default:
		return race
	}
	changed := false
	// A game finished whose race record was not made (the process
	// stopped between the two): the game says how it ended.
	for _, pl := range race.Players {
		if pl.GameID == 0 || (pl.Status != store.RacerJoined && pl.Status != store.RacerIdle) {
			continue
		}
		g, err := r.p.games.Game(ctx, pl.GameID)
		if err != nil || g.Status == store.Playing || (tick && now.Sub(g.FinishedAt) < raceTickGrace) {
			continue
		}
		status := store.RacerFinished
		if g.Status != store.Solved {
			status = store.RacerLeft
		}
		if done, err := r.races.RacerDone(ctx, race.ID, pl.UserID, status, g.FinishedAt); err == nil && done {
			changed = true
		}
	}
	if changed {
		if after, err := r.races.Race(ctx, race.ID); err == nil {
			race = after
		}
	}
	cutoff := now.Add(-raceIdleAfter)
	for _, pl := range race.Players {
		last := pl.LastMoveAt
		if last.IsZero() {
			last = race.StartAt
		}
		if pl.Status == store.RacerJoined && last.Before(cutoff) {
			after, err := r.races.MarkIdle(ctx, race.ID, cutoff, now)
			if err != nil {
				r.p.s.logf("race %d: mark idle players: %v", race.ID, err)
				return race
			}
			race, changed = after, true
			break
		}
	}
	if race.BoardID == "" && now.Sub(race.StartAt) >= 0 {
		// The process that won Start stopped before posting the
		// scoreboard: post it now (ClaimRaceBoard lets one do it).
		race = r.postBoard(ctx, race, now)
	}
	racing := 0
	var lastDone time.Time
	for _, pl := range race.Players {
		if pl.Status == store.RacerJoined {
			racing++
		}
		if (pl.Status == store.RacerFinished || pl.Status == store.RacerLeft) && pl.FinishedAt.After(lastDone) {
			lastDone = pl.FinishedAt // a player's own end (idle ones are the tick's)
		}
	}
	over := racing == 0 && (!tick || now.Sub(lastDone) >= raceTickGrace)
	if over || now.Sub(race.StartAt) >= raceMaxDuration {
		after, won, err := r.races.EndRace(ctx, race.ID, now)
		if err != nil {
			r.p.s.logf("race %d: end it: %v", race.ID, err)
			return race
		}
		if won {
			r.finish(ctx, after, now)
		}
		return after
	}
	if changed && (!tick || r.editing(race.ID)) {
		r.edit(ctx, race, now)
	}
	return race
}

// Tick settles every open race at now: idle players marked, races over
// ended and their results posted. The bot calls it every few seconds; any
// interaction with a race settles that race too, so a restart or a missed
// tick only delays what the stored times already say.
func (s *Service) Tick(ctx context.Context, now time.Time) {
	if s.playFeature == nil || s.playFeature.racing == nil {
		return
	}
	r := s.playFeature.racing
	races, err := r.races.OpenRaces(ctx, raceTickBatch)
	if err != nil {
		s.logf("races: list the open ones: %v", err)
		return
	}
	for _, race := range races {
		if ctx.Err() != nil {
			return
		}
		if after := r.settle(ctx, race, now, true); after.Status == store.RaceRunning && r.editing(race.ID) {
			// Catches up an edit of this process's that went out after
			// another's fresher one. A process that never edited this
			// scoreboard sent nothing stale, and leaves it alone: its
			// edits would only share the channel's rate limit.
			r.edit(ctx, after, now)
		}
	}
}

// changed reloads race id after a player's change, settles it and edits
// its scoreboard.
func (r *racing) changed(ctx context.Context, id int64, now time.Time) {
	race, ok := r.chatRace(ctx, id)
	if !ok {
		return
	}
	after := r.settle(ctx, race, now, false)
	if after.Status == store.RaceRunning {
		r.edit(ctx, after, now)
	}
}

// edit replaces the race's scoreboard with its state in the store, when
// that differs from what this process sent last.
func (r *racing) edit(ctx context.Context, race store.Race, now time.Time) {
	if race.BoardID == "" || race.BoardID == "posting" {
		return
	}
	b := r.board(race.ID)
	b.mu.Lock()
	defer b.mu.Unlock()
	if fresh, err := r.races.Race(ctx, race.ID); err == nil {
		race = fresh // read under the lock: no older state goes out after it
	}
	msg := r.scoreboard(ctx, race, now, "")
	key := allEmbedText(msg)
	if key == b.last {
		return
	}
	if err := r.ch.Edit(ctx, raceChannel(race), race.BoardID, msg); err != nil {
		r.p.s.logf("race %d: edit the scoreboard: %v", race.ID, err)
		return
	}
	b.last = key
	if race.Status != store.RaceRunning {
		r.boardsMu.Lock()
		delete(r.boards, race.ID) // its last edit is sent
		r.boardsMu.Unlock()
	}
}

// allEmbedText is a message's words and buttons, to tell two drawings of
// a scoreboard apart.
func allEmbedText(m Response) string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description)
	}
	for _, l := range LayoutLines(m.Blocks) {
		b.WriteString("\n" + l)
	}
	for _, bt := range append(LayoutButtons(m.Blocks), buttonsOf(m.Components)...) {
		b.WriteString("\n" + bt.CustomID)
	}
	return b.String()
}

// buttonsOf lists rows' buttons in order.
func buttonsOf(rows []ActionRow) []Button {
	var out []Button
	for _, row := range rows {
		out = append(out, row.Buttons...)
	}
	return out
}

// raceChannel is where a race's messages go: its thread, or its channel.
func raceChannel(race store.Race) string {
	if race.ThreadID != "" {
		return race.ThreadID
	}
	return race.ChannelID
}

// standing is one line of a scoreboard or the results.
type standing struct {
	racer      store.Racer
	game       store.Game
	filled, of int
	elapsed    time.Duration
	hasGame    bool
}

// standings reads each player's game and orders them: finished by time,
// then those racing by cells filled, then idle, then left.
func (r *racing) standings(ctx context.Context, race store.Race) []standing {
	puzzle, _ := decodeGrid(race.Puzzle, race.Shape)
	empty := 0
	if puzzle != nil {
		empty = len(puzzle.Cells) - puzzle.Clues()
	}
	out := make([]standing, 0, len(race.Players))
	for _, pl := range race.Players {
		st := standing{racer: pl, of: empty}
		if pl.GameID != 0 {
			if g, err := r.p.games.Game(ctx, pl.GameID); err == nil {
				st.game, st.hasGame = g, true
				for i, v := range g.Entries {
					if v != 0 && puzzle != nil && puzzle.Cells[i] == 0 {
						st.filled++
					}
				}
				if pl.Status == store.RacerFinished {
					st.elapsed = g.Elapsed(pl.FinishedAt)
				}
			}
		}
		out = append(out, st)
	}
	rank := func(s standing) int {
		switch s.racer.Status {
		case store.RacerFinished:
			return 0
		case store.RacerJoined:
			return 1
		case store.RacerIdle:
			return 2
		}
		return 3
	}
	slices.SortStableFunc(out, func(a, b standing) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a.racer.Status == store.RacerFinished {
			return a.racer.FinishedAt.Compare(b.racer.FinishedAt)
		}
		return b.filled - a.filled
	})
	return out
}

// scoreboard draws the race's live scoreboard: each player's progress
// (cells filled, mistakes, hints, checks), never a digit; a Components V2
// card whose buttons go once the race is over (above the first line, note
// if any: why the race is in the channel).
func (r *racing) scoreboard(ctx context.Context, race store.Race, now time.Time, note string) Response {
	accent, body := colorNeutral, fmt.Sprintf("The start: <t:%d:R>. Players: **Play** opens your own board from then on.", race.StartAt.Unix())
	var row []Button
	switch race.Status {
	case store.RaceOver:
		accent, body = colorGood, fmt.Sprintf("Over. It ran from <t:%d:t> to <t:%d:t>.", race.StartAt.Unix(), race.EndedAt.Unix())
	case store.RaceRunning:
		row = []Button{
			{Label: "Play", CustomID: raceButtonID("p", race.ID), Style: Primary},
			{Label: "Leave", CustomID: raceButtonID("l", race.ID), Style: Secondary},
		}
	}
	var lines []string
	for i, st := range r.standings(ctx, race) {
		lines = append(lines, fmt.Sprintf("%d. %s", i+1, standingLine(st)))
	}
	return raceCard(race, accent, note, "scoreboard", body, strings.Join(lines, "\n"), row)
}

// standingLine is a player's line: "**Ada** — finished in 4:32 · 1
// mistake · no hints · 1 check", "**Bob** — 34 of 51 · …", "idle", "left".
func standingLine(st standing) string {
	name := "**" + escapeMarkdown(st.racer.UserName) + "**"
	counts := fmt.Sprintf("%s · %s · %s", counted(st.racer.Mistakes, "mistake"), counted(st.game.Hints, "hint"), counted(st.game.Checks, "check"))
	progress := fmt.Sprintf("%d of %d cells", st.filled, st.of)
	switch st.racer.Status {
	case store.RacerFinished:
		return fmt.Sprintf("%s — finished in %s · %s", name, clock(st.elapsed), counts)
	case store.RacerIdle:
		return fmt.Sprintf("%s — idle (no move for %d minutes) · %s", name, int(raceIdleAfter/time.Minute), progress)
	case store.RacerLeft:
		return fmt.Sprintf("%s — left · %s", name, progress)
	}
	if !st.hasGame {
		return name + " — hasn't opened their board yet"
	}
	return fmt.Sprintf("%s — %s · %s", name, progress, counts)
}

// finish posts the results of race, which this process just ended, and
// turns the scoreboard into its final state.
func (r *racing) finish(ctx context.Context, race store.Race, now time.Time) {
	if race.Status != store.RaceOver {
		return // a lobby called off: nothing was posted
	}
	r.edit(ctx, race, now)
	if _, err := r.ch.Post(ctx, raceChannel(race), r.results(ctx, race)); err != nil {
		r.p.s.logf("race %d: post the results: %v", race.ID, err)
	}
}

// results draws race's results: those who finished in order, with their
// times, mistakes, hints and checks; then the others, and why.
func (r *racing) results(ctx context.Context, race store.Race) Response {
	var lines []string
	place := 0
	for _, st := range r.standings(ctx, race) {
		if st.racer.Status == store.RacerFinished {
			place++
			lines = append(lines, fmt.Sprintf("%d. **%s** %s · %s · %s · %s", place, escapeMarkdown(st.racer.UserName), clock(st.elapsed),
				counted(st.racer.Mistakes, "mistake"), counted(st.game.Hints, "hint"), counted(st.game.Checks, "check")))
			continue
		}
		how := "left"
		if st.racer.Status == store.RacerIdle {
			how = "idle"
		} else if st.racer.Status == store.RacerJoined {
			how = "still playing when time ran out"
		}
		lines = append(lines, fmt.Sprintf("– **%s** %s (%d of %d cells)", escapeMarkdown(st.racer.UserName), how, st.filled, st.of))
	}
	body := "In finishing order, with each one's time:"
	if place == 0 {
		body = "Nobody finished."
	}
	return raceCard(race, colorGood, "", "results", body, strings.Join(lines, "\n"), nil)
}

// raceMoved records a move by req's user in race game g (mistakes: wrong
// digits it placed) and updates the scoreboard.
func (r *racing) raceMoved(ctx context.Context, req Request, g store.Game, mistakes int) {
	if err := r.races.RacerMoved(ctx, g.RaceID, req.UserID, displayName(req), mistakes, req.Now); err != nil {
		r.p.s.logf("race %d: record a move: %v", g.RaceID, err)
	}
	if g.Status == store.Solved {
		if _, err := r.races.RacerDone(ctx, g.RaceID, g.UserID, store.RacerFinished, g.FinishedAt); err != nil {
			r.p.s.logf("race %d: mark %s finished: %v", g.RaceID, g.UserID, err)
		}
	}
	r.changed(ctx, g.RaceID, req.Now)
}

// raceBookkeeping bounds what a race records after a move that is
// already saved.
const raceBookkeeping = 5 * time.Second

// bookkeeping is the context of a race's records after a change to a
// game: the request's deadline may be spent by the moves themselves, but a
// saved move's race record (finished, the scoreboard) must still be made.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), raceBookkeeping)
}

// touched updates the scoreboard of g's race after a hint, check or undo
// in g.
func (p *player) touched(ctx context.Context, g store.Game, now time.Time) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	if g.RaceID != 0 && p.racing != nil {
		p.racing.changed(ctx, g.RaceID, now)
	}
}

// raceGaveUp marks the player of race game g as left.
func (r *racing) raceGaveUp(ctx context.Context, req Request, g store.Game) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	if _, ok := r.chatRace(ctx, g.RaceID); !ok {
		return
	}
	if _, err := r.races.RacerDone(ctx, g.RaceID, g.UserID, store.RacerLeft, req.Now); err != nil {
		r.p.s.logf("race %d: mark %s left: %v", g.RaceID, g.UserID, err)
	}
	r.changed(ctx, g.RaceID, req.Now)
}

// raceGame is a new game of race's puzzle for req's player: a racer's
// board, or a co-op game's one board.
func raceGame(req Request, race store.Race) (store.NewGame, error) {
	puzzle, err := decodeGrid(race.Puzzle, race.Shape)
	if err != nil {
		return store.NewGame{}, err
	}
	solution, err := decodeGrid(race.Solution, race.Shape)
	if err != nil {
		return store.NewGame{}, err
	}
	return newGame(req, puzzle, solution, race.Level), nil
}
