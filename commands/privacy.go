package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sudokubot/store"
)

// /privacy shows a player what the bot keeps about them and deletes it;
// GuildRemoved forgets a server that removed the bot. What is kept, and for
// how long, is in the README ("Your data").
//
// The delete confirmation's buttons carry the asker's user id:
//
//	privacy:delete:<user>   delete everything (the confirm button)
//	privacy:keep:<user>     keep it

const privacyPrefix = "privacy"

// PrivacyStore is what /privacy needs of the store (package store has it).
// /privacy is offered when Config.Games has it too.
type PrivacyStore interface {
	PlayerData(ctx context.Context, userID string) (store.PlayerData, error)
	ForgetPlayer(ctx context.Context, userID string) (store.Forgotten, error)
}

// GuildForgetter is a store that can delete what it keeps about a server
// (package store and MemSettings are).
type GuildForgetter interface {
	ForgetGuild(ctx context.Context, guildID string) error
}

// privacy answers /privacy and its buttons.
type privacy struct {
	store PrivacyStore
}

func (s *Service) addPrivacy() {
	ps, ok := s.cfg.Games.(PrivacyStore)
	if !ok {
		return
	}
	p := privacy{store: ps}
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "privacy",
		Description: "See what I keep about you, or delete it",
		Options: []OptionSpec{
			{Type: OptSubcommand, Name: "show", Description: "What I keep about you, with all of it as a file"},
			{Type: OptSubcommand, Name: "delete", Description: "Delete your games and daily results (asks first)"},
		},
	}, p.command, heavyEphemeral)
	s.addComponent(privacyPrefix, p.button, func(ctx context.Context, req Request) Plan {
		return Plan{Heavy: true, Ephemeral: true, Update: true}
	})
}

// command answers /privacy show and /privacy delete, to the asker alone.
func (p privacy) command(ctx context.Context, req Request) Response {
	d, err := p.store.PlayerData(ctx, req.UserID)
	if err != nil {
		return storeError(err)
	}
	games, playing := len(d.Games), 0
	for _, g := range d.Games {
		if g.Status == store.Playing {
			playing++
		}
	}
	kept := fmt.Sprintf("%s (%d being played) and %s", Plural(games, "game", "games"), playing,
		Plural(len(d.Results), "daily result", "daily results"))
	if len(d.Races) > 0 {
		kept += fmt.Sprintf(", with your places in %s", Plural(len(d.Races), "race or co-op game", "races or co-op games"))
	}
	switch req.Subcommand {
	case "delete":
		if games+len(d.Results)+len(d.Races) == 0 {
			return ephemeral("I keep nothing about you, so there is nothing to delete.")
		}
		r := ephemeral("This deletes, for good, your " + kept + ": your boards, times, " +
			"leaderboard places, streak and rating. Other players keep theirs. Delete it all?")
		r.Components = []ActionRow{{Buttons: []Button{
			{Label: "Delete everything", CustomID: mustID(privacyPrefix, "delete", req.UserID), Style: Danger},
			{Label: "Keep it", CustomID: mustID(privacyPrefix, "keep", req.UserID), Style: Secondary},
		}}}
		return r
	case "show", "":
	default:
		return unknownRequest(req)
	}
	if games+len(d.Results)+len(d.Races) == 0 {
		return ephemeral("I keep nothing about you: no games, no daily results. " + notKept)
	}
	data, err := exportPlayer(d).encode()
	if err != nil {
		return storeError(err)
	}
	r := ephemeral("I keep your " + kept + ".\n" +
		"• A game: the puzzle, your board and pencil marks, when you started, first saw it and finished, " +
		"hints, checks and moves, and the name, server and channel you played under. " +
		"The moves you can still undo, until the game ends.\n" +
		"• A daily result: the day, level, time, hints and checks, for the leaderboards and your streak, and why it was kept off them if it was.\n" +
		"• Your time zone, if you set one with /profile, and whether you hide your name on global boards.\n" +
		"• Your rating: its numbers and, for each rated game, your score, the puzzle's rating and yours before and after.\n" +
		"All of it is in the file below. " + notKept + " `/privacy delete` deletes it all.")
	r.Files = []File{{Name: "sudokubot-data.json", ContentType: "application/json", Data: data}}
	return r
}

// notKept says what /privacy has nothing to show of.
const notKept = "Your messages are not stored, nor are the grids you ask me to solve, hint or check " +
	"(a big one stays in my memory a while, for its buttons)."

// button answers the confirmation's buttons, in place.
func (p privacy) button(ctx context.Context, req Request) Response {
	f, ok := idFields(req.CustomID, 2)
	if !ok {
		return unknownRequest(req)
	}
	if f[1] != req.UserID {
		return ephemeral("Those buttons belong to someone else's /privacy.")
	}
	var r Response
	switch f[0] {
	case "keep":
		r = ephemeral("Nothing deleted.")
	case "delete":
		n, err := p.store.ForgetPlayer(ctx, req.UserID)
		if err != nil {
			return storeError(err)
		}
		r = ephemeral(fmt.Sprintf("Deleted your %s and %s. I keep nothing more about you; "+
			"a game you start from now on is kept until you delete it.",
			Plural(n.Games, "game", "games"), Plural(n.Results, "daily result", "daily results")))
	default:
		return unknownRequest(req)
	}
	r.Update = true
	return r
}

// GuildRemoved forgets a server that removed the bot (the bot calls it on
// Discord's GUILD_DELETE without "unavailable"): its daily post settings,
// its watched channels and the daily posts made there. Its members' games
// and results are theirs and stay until they delete them (/privacy).
func (s *Service) GuildRemoved(ctx context.Context, guildID string) error {
	var errs []error
	for i, st := range []any{s.settings, s.cfg.Games} {
		f, ok := st.(GuildForgetter)
		if !ok || (i == 1 && st == any(s.settings)) {
			continue // not a store of servers, or the same store again
		}
		errs = append(errs, f.ForgetGuild(ctx, guildID))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("forget server %s: %w", guildID, err)
	}
	return nil
}

// ForgetGuild implements GuildForgetter: guildID's watched channels go.
func (m *MemSettings) ForgetGuild(ctx context.Context, guildID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for key := range m.watched {
		if key[0] == guildID {
			delete(m.watched, key)
		}
	}
	return nil
}

// The file /privacy show attaches: what the store keeps, field by field,
// with lower-case keys and times in RFC 3339 (UTC).
type (
	playerExport struct {
		UserID       string         `json:"user_id"`
		TimeZone     string         `json:"time_zone,omitempty"`
		Games        []gameExport   `json:"games"`
		DailyResults []resultExport `json:"daily_results"`
		// Settings are the player's own choices; Rating their skill
		// rating (nil when never rated) and RatingHistory each rated game.
		Settings      settingsExport `json:"settings"`
		Rating        *ratingExport  `json:"rating,omitempty"`
		RatingHistory []ratedExport  `json:"rating_history"`
		// Races are their places in races and co-op games.
		Races []raceExport `json:"races"`
	}
	raceExport struct {
		RaceID     int64      `json:"race_id"`
		Kind       string     `json:"kind"`
		Title      string     `json:"title"`
		UserName   string     `json:"user_name"`
		JoinedAt   time.Time  `json:"joined_at"`
		GameID     int64      `json:"game_id,omitempty"`
		Status     string     `json:"status"`
		LastMoveAt *time.Time `json:"last_move_at,omitempty"`
		FinishedAt *time.Time `json:"finished_at,omitempty"`
		Mistakes   int        `json:"mistakes"`
		// Placed counts the values of a co-op board credited to them.
		Placed int `json:"placed,omitempty"`
	}
	settingsExport struct {
		TimeZone string `json:"time_zone,omitempty"`
		HideName bool   `json:"hide_name,omitempty"`
	}
	ratingExport struct {
		Rating     float64 `json:"rating"`
		Deviation  float64 `json:"deviation"`
		Volatility float64 `json:"volatility"`
		Games      int     `json:"games"`
	}
	ratedExport struct {
		GameID       int64     `json:"game_id"`
		At           time.Time `json:"at"`
		Score        float64   `json:"score"`
		PuzzleRating float64   `json:"puzzle_rating"`
		Before       float64   `json:"before"`
		After        float64   `json:"after"`
		Deviation    float64   `json:"deviation"`
	}
	gameExport struct {
		ID        int64  `json:"id"`
		UserName  string `json:"user_name"`
		GuildID   string `json:"guild_id,omitempty"`
		ChannelID string `json:"channel_id,omitempty"`
		Puzzle    string `json:"puzzle"`
		Shape     string `json:"shape"`
		Level     string `json:"level,omitempty"`
		// Entries are the values entered, cell by cell (0: empty); Pencil
		// the pencil marks, bit v-1 set for v.
		Entries    []int      `json:"entries"`
		Pencil     []uint32   `json:"pencil"`
		Status     string     `json:"status"`
		StartedAt  time.Time  `json:"started_at"`
		ViewedAt   *time.Time `json:"viewed_at,omitempty"`
		FinishedAt *time.Time `json:"finished_at,omitempty"`
		Hints      int        `json:"hints"`
		Checks     int        `json:"checks"`
		Moves      int        `json:"moves"`
		DailyDate  string     `json:"daily_date,omitempty"`
		DailyLevel string     `json:"daily_level,omitempty"`
		// Flag is why a solve was kept off the boards ("bulk", "fast").
		Flag string `json:"flag,omitempty"`
	}
	resultExport struct {
		Date       string    `json:"date"`
		Level      string    `json:"level"`
		UserName   string    `json:"user_name"`
		GuildID    string    `json:"guild_id,omitempty"`
		GameID     int64     `json:"game_id"`
		Seconds    float64   `json:"seconds"`
		Hints      int       `json:"hints"`
		Checks     int       `json:"checks"`
		FinishedAt time.Time `json:"finished_at"`
		Flag       string    `json:"flag,omitempty"`
	}
)

func exportPlayer(d store.PlayerData) playerExport {
	x := playerExport{UserID: d.UserID, TimeZone: d.Profile.TimeZone, Games: []gameExport{}, DailyResults: []resultExport{},
		Settings: settingsExport{TimeZone: d.Profile.TimeZone, HideName: d.Profile.HideName}, RatingHistory: []ratedExport{},
		Races: []raceExport{}}
	for _, r := range d.Races {
		x.Races = append(x.Races, raceExport{RaceID: r.RaceID, Kind: string(r.Kind), Title: r.Title, UserName: r.UserName,
			JoinedAt: r.JoinedAt, GameID: r.GameID, Status: string(r.Status), LastMoveAt: timeOrNil(r.LastMoveAt),
			FinishedAt: timeOrNil(r.FinishedAt), Mistakes: r.Mistakes, Placed: r.Placed})
	}
	if d.Rating.Games > 0 {
		x.Rating = &ratingExport{d.Rating.Rating, d.Rating.Deviation, d.Rating.Volatility, d.Rating.Games}
	}
	for _, c := range d.Ratings {
		x.RatingHistory = append(x.RatingHistory, ratedExport{c.GameID, c.At, c.Score, c.PuzzleRating, c.Before, c.After, c.Deviation})
	}
	for _, g := range d.Games {
		e := gameExport{ID: g.ID, UserName: g.UserName, GuildID: g.GuildID, ChannelID: g.ChannelID,
			Puzzle: g.Puzzle, Shape: g.Shape, Level: g.Level, Pencil: g.Pencil, Status: string(g.Status),
			StartedAt: g.StartedAt, ViewedAt: timeOrNil(g.ViewedAt), FinishedAt: timeOrNil(g.FinishedAt),
			Hints: g.Hints, Checks: g.Checks, Moves: g.Moves, DailyLevel: g.DailyLevel, Flag: g.Flag}
		for _, v := range g.Entries {
			e.Entries = append(e.Entries, int(v))
		}
		if g.IsDaily() {
			e.DailyDate = g.DailyDate.Format(time.DateOnly)
		}
		x.Games = append(x.Games, e)
	}
	for _, r := range d.Results {
		x.DailyResults = append(x.DailyResults, resultExport{Date: r.Date.Format(time.DateOnly), Level: r.Level,
			UserName: r.UserName, GuildID: r.GuildID, GameID: r.GameID, Seconds: r.Duration.Seconds(),
			Hints: r.Hints, Checks: r.Checks, FinishedAt: r.FinishedAt, Flag: r.Flag})
	}
	return x
}

// encode writes x as JSON with one game or result a line: readable, and a
// tenth of the size of indenting every cell of every board.
func (x playerExport) encode() ([]byte, error) {
	var b bytes.Buffer
	id, err := json.Marshal(x.UserID)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "{\"user_id\": %s,\n\"games\": [", id)
	if err := encodeLines(&b, x.Games); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"daily_results\": [")
	if err := encodeLines(&b, x.DailyResults); err != nil {
		return nil, err
	}
	settings, err := json.Marshal(x.Settings)
	if err != nil {
		return nil, err
	}
	rating, err := json.Marshal(x.Rating)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "],\n\"settings\": %s,\n\"rating\": %s,\n\"rating_history\": [", settings, rating)
	if err := encodeLines(&b, x.RatingHistory); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"races\": [")
	if err := encodeLines(&b, x.Races); err != nil {
		return nil, err
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// encodeLines writes the items of list as JSON, one a line.
func encodeLines[T any](b *bytes.Buffer, list []T) error {
	for i, v := range list {
		line, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(line)
	}
	if len(list) > 0 {
		b.WriteString("\n")
	}
	return nil
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
