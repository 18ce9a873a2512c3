package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Playing: /play starts a personal game, /daily play the day's puzzle. A game
// lives in the store; its message is ephemeral to the player and carries
// buttons whose custom ids hold the game id, so every button works after a
// restart:
//
//	game:m:<id>   Enter moves (opens the moves modal)
//	game:h:<id>   Hint: the technique of the next step (level 1), with
//	              game:h2:<id> (where) and game:h3:<id> (the step) to go
//	              further; one hint is counted per position, however many
//	              levels are opened
//	game:c:<id>   Check (marks wrong entries red)
//	game:u:<id>   Undo: the last move (a typed move, or a pasted grid)
//	game:U:<id>   Undo all (asks first: game:Y:<id> confirms, game:k:<id>
//	              goes back to the board); shown from two moves on
//	game:g:<id>   Give up (asks first: game:G:<id> confirms, game:k:<id>
//	              goes back to the board)
//	gmove:<id>    the moves modal, field "moves"
//
// The clicking user is checked against the game's player on every click.
const (
	gamePrefix  = "game"
	gmovePrefix = "gmove"
	movesField  = "moves"
)

// PlayStore is what Config.Games must hold: the games of /play and the
// dailies of /daily (package store implements both).
type PlayStore interface {
	GameStore
	DailyStore
}

// GameStore keeps the games in progress, for the board and its buttons.
type GameStore interface {
	StartGame(ctx context.Context, ng store.NewGame) (store.Game, bool, error)
	Game(ctx context.Context, id int64) (store.Game, error)
	MarkViewed(ctx context.Context, id int64, now time.Time) (store.Game, error)
	ActiveGames(ctx context.Context, userID string, limit int) ([]store.Game, error)
	Move(ctx context.Context, id int64, changes []store.Change, solved []uint8, now time.Time, judge store.Judge) (store.Finished, error)
	Undo(ctx context.Context, id int64) (store.Game, error)
	RecordHint(ctx context.Context, id int64, stage int) (store.Game, error)
	RecordCheck(ctx context.Context, id int64) (store.Game, error)
	Finish(ctx context.Context, id int64, status store.Status, now time.Time) (store.Finished, error)
}

// Puzzles makes the puzzles of /play and /daily. The engine's functions are
// used when Config.Puzzles is nil; tests pass fixed puzzles.
type Puzzles interface {
	Generate(ctx context.Context, opts sudoku.GenerateOptions) (sudoku.Puzzle, error)
	Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error)
}

// enginePuzzles are the engine's generator and daily puzzle.
type enginePuzzles struct{ secret []byte }

func (enginePuzzles) Generate(ctx context.Context, opts sudoku.GenerateOptions) (sudoku.Puzzle, error) {
	return sudoku.Generate(ctx, opts)
}

func (e enginePuzzles) Daily(ctx context.Context, date time.Time, level sudoku.Level) (sudoku.DailyPuzzle, error) {
	return sudoku.Daily(ctx, e.secret, date, level)
}

// player is the /play and /daily feature: the store, the puzzle source and
// a cache of the day's puzzles.
type player struct {
	s       *Service
	games   GameStore
	dailies DailyStore
	puzzles Puzzles
	daily   *dailyCache
	guard   countingDailies
	// profiles holds the players' time zones; nil when Config.Games
	// doesn't keep them (every player then follows UTC).
	profiles ProfileStore
	// skills keeps the ratings (skill.go) and boards the boards beyond
	// one server and day (boards.go); nil when Config.Games doesn't.
	skills SkillStore
	boards BoardStore
	// racing is /race and /play together; nil without a RaceStore and
	// Config.Channels.
	racing *racing
	// raceInfos caches what never changes of a race (board_rooms.go).
	raceInfos sync.Map
}

// addPlay registers /play, /daily and the game buttons when a store is
// configured.
func (s *Service) addPlay() {
	if s.cfg.Games == nil {
		return
	}
	p := &player{s: s, games: s.cfg.Games, dailies: s.cfg.Games, puzzles: s.cfg.Puzzles}
	p.profiles, _ = s.cfg.Games.(ProfileStore)
	p.skills, _ = s.cfg.Games.(SkillStore)
	p.boards, _ = s.cfg.Games.(BoardStore)
	if p.puzzles == nil {
		p.puzzles = enginePuzzles{secret: s.cfg.DailySecret}
	}
	p.daily = newDailyCache(p.puzzles)
	s.playFeature = p
	if races, ok := s.cfg.Games.(RaceStore); ok && s.cfg.Channels != nil {
		p.racing = &racing{p: p, races: races, ch: s.cfg.Channels}
	}
	playOptions := []OptionSpec{
		{Type: OptString, Name: optLevel, Description: "Difficulty (default medium)", Choices: levelChoices},
		{Type: OptString, Name: optSize, Description: "Grid size (default 9x9); extreme comes in 8x8 and 9x9, and 4x4 only in easy", Choices: sizeChoices},
		{Type: OptAttachment, Name: optImage, Description: "Or go on from a picture of a puzzle: its givens, with your entries and pencil marks"},
	}
	if p.racing != nil {
		playOptions = append(playOptions, OptionSpec{Type: OptBool, Name: optTogether, Description: "One board in a thread that everyone there plays together"})
	}
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "play",
		Description: "Play a fresh puzzle on your own board",
		Options:     playOptions,
	}, p.play, heavyEphemeral) // with together, the reply only points to the thread
	s.addComponent(gamePrefix, p.button, func(ctx context.Context, req Request) Plan {
		// Only a hint does engine work; the other buttons are store
		// writes and a picture, answered at once. Should the store be
		// slow (Undo all is one write per move), the deferral is the
		// silent kind and the board is edited in place.
		switch action, _, _ := parseGameButton(req.CustomID); action {
		case "h", "h2", "h3":
			return Plan{Heavy: true, Ephemeral: true, Update: true}
		case "m", "b":
			return Plan{} // a modal or the Activity's launch: never deferred
		}
		return Plan{Ephemeral: true, Update: true}
	})
	// A batch of moves is one store write per move: if it outlasts the
	// defer time, the "thinking…" is private, like the board.
	s.addModal(gmovePrefix, p.movesSubmit, func(ctx context.Context, req Request) Plan { return Plan{Ephemeral: true} })
	p.addDaily()
	p.addProfile()
	p.addRace()
}

func heavyEphemeral(ctx context.Context, req Request) Plan {
	return Plan{Heavy: true, Ephemeral: true}
}

// play answers /play: a new personal game.
func (p *player) play(ctx context.Context, req Request) Response {
	if len(req.Images) > 0 {
		if boolOption(req.Options, optTogether) {
			return ephemeral("A co-op game starts from a fresh puzzle: leave out `image` with `together`.")
		}
		return p.playPicture(ctx, req)
	}
	level, err := choiceOption(req.Options, optLevel, defaultLevelOption(req.Options), levelChoices)
	if err != nil {
		return optionError(err)
	}
	size, err := choiceOption(req.Options, optSize, "9", sizeChoices)
	if err != nil {
		return optionError(err)
	}
	if boolOption(req.Options, optTogether) && p.racing != nil {
		return p.racing.startTogether(ctx, req, level, size)
	}
	g, reply := p.startPlay(ctx, req, level, size)
	if reply != nil {
		return *reply
	}
	return p.show(ctx, req, g, "")
}

// startPlay makes a fresh puzzle of level and size (a choice's value, "9")
// and starts req's user on it. A refusal or failure comes back as the
// reply to send instead.
func (p *player) startPlay(ctx context.Context, req Request, level, size string) (store.Game, *Response) {
	puz, reply := p.generate(ctx, req, level, size)
	if reply != nil {
		return store.Game{}, reply
	}
	ng := newGame(req, puz.Grid, puz.Solution, level)
	ng.Score = puz.Rating.Score
	g, _, err := p.games.StartGame(ctx, ng)
	if err != nil {
		r := storeError(err)
		return store.Game{}, &r
	}
	return g, nil
}

// generate makes a fresh puzzle of size and level for req, or the reply
// that says why not.
func (p *player) generate(ctx context.Context, req Request, level, size string) (sudoku.Puzzle, *Response) {
	n, _ := strconv.Atoi(size)
	opts := sudoku.GenerateOptions{Symmetry: sudoku.Rotate180, Seed: p.s.nextSeed(req.Now)}
	opts.Shape, _ = sudoku.ShapeFor(n)
	opts.Level, _ = sudoku.ParseLevel(level)
	if r, bad := levelOutOfReach(opts); bad {
		return sudoku.Puzzle{}, &r
	}
	puz, err := p.puzzles.Generate(ctx, opts)
	if err == nil && puz.Grid == nil {
		err = errors.New("the generator returned no grid")
	}
	if err != nil {
		r := p.s.generateError(ctx, req, opts, err)
		return sudoku.Puzzle{}, &r
	}
	return puz, nil
}

// dailyError is the reply when the day's puzzle can't be had; the details
// go to the log.
func (p *player) dailyError(ctx context.Context, req Request, level string, err error) Response {
	p.s.logf("request %s: daily %s puzzle of %s: %v", req.ID, level, day(req.Now), err)
	if errors.Is(err, sudoku.ErrNoDailySecret) {
		return ephemeral("The daily puzzles aren't set up on this bot (it has no daily secret); /play works.")
	}
	if ctx.Err() != nil {
		return p.s.stopped(ctx)
	}
	return ephemeral("I couldn't get today's " + level + " puzzle ready. Please try again in a minute.")
}

func newGame(req Request, puzzle, solution *sudoku.Grid, level string) store.NewGame {
	ng := store.NewGame{
		UserID: req.UserID, UserName: displayName(req), GuildID: req.GuildID, ChannelID: req.ChannelID,
		Puzzle: puzzle.String(), Shape: encodeShape(puzzle), Level: level,
		Cells: len(puzzle.Cells), Now: req.Now,
	}
	if solution != nil {
		ng.Solution = solution.String()
	}
	return ng
}

func displayName(req Request) string {
	if req.UserName != "" {
		return req.UserName
	}
	return "Someone"
}

// owned loads game id for req's user. A refusal or failure comes back as
// the reply to send instead.
func (p *player) owned(ctx context.Context, req Request, id int64) (store.Game, *Response) {
	g, err := p.games.Game(ctx, id)
	if err != nil {
		r := storeError(err)
		return g, &r
	}
	if g.UserID != req.UserID {
		where, coop := p.coopChannel(ctx, g)
		switch {
		case coop && req.ChannelID == where:
			return g, nil
		case coop:
			r := ephemeral(fmt.Sprintf("This co-op board is played in <#%s>, where everyone may move: join in there.", where))
			return g, &r
		}
		r := ephemeral(fmt.Sprintf("This board belongs to %s — only they can play it. Start your own with /play or /daily play.", g.UserName))
		return g, &r
	}
	return g, nil
}

// storeError is the reply when the store fails or a game is missing,
// worded by what failed. A failure of the database itself is kept on the
// reply for Service.Handle to log.
func storeError(err error) Response {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return ephemeral("I can't find that game any more. Start a new one with /play or /daily play.")
	case errors.Is(err, store.ErrFinished):
		return ephemeral("That game is over. Start a new one with /play or /daily play.")
	}
	var r Response
	switch {
	case errors.Is(err, store.ErrReadOnly):
		r = ephemeral("I couldn't save that: my database is read-only at the moment, so nothing changed. My operator can see why in my log; please try again later.")
	case errors.Is(err, store.ErrFull):
		r = ephemeral("I couldn't save that: the disk that holds my database is full, so nothing changed. My operator can see it in my log; please try again later.")
	case errors.Is(err, store.ErrUnavailable):
		r = ephemeral("I can't reach my database just now, so nothing changed. Please try again in a moment.")
	default:
		r = ephemeral("My database failed on that, so nothing changed. Please try again in a moment.")
	}
	r.failure = err
	return r
}

// coopChannel reports whether g is a co-op game played in chat, and
// where: anyone in its thread (or its channel, when it has none) may play
// it.
func (p *player) coopChannel(ctx context.Context, g store.Game) (string, bool) {
	if !p.chatCoop(ctx, g) {
		return "", false
	}
	race, chat := p.racing.chatRace(ctx, g.RaceID)
	if !chat || race.Kind != store.KindTogether || race.GameID != g.ID {
		return "", false
	}
	return raceChannel(race), true
}

// coopPlayer reports whether g is a co-op game and req comes from where
// it is played.
func (p *player) coopPlayer(ctx context.Context, req Request, g store.Game) bool {
	where, coop := p.coopChannel(ctx, g)
	return coop && req.ChannelID == where
}

// chatCoop reports whether g belongs to a co-op game played in chat.
// What it asks never changes once the race is set up, and is cached
// (raceInfo): a race's games, moved in often, don't load their race to
// learn that it is no co-op game.
func (p *player) chatCoop(ctx context.Context, g store.Game) bool {
	if g.RaceID == 0 || p.racing == nil {
		return false
	}
	rs, ok := p.games.(roomStore)
	if !ok {
		race, chat := p.racing.chatRace(ctx, g.RaceID)
		return chat && race.Kind == store.KindTogether
	}
	info, err := p.raceInfo(ctx, rs, g.RaceID)
	return err == nil && info.instance == "" && info.kind == store.KindTogether
}
