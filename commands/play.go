package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sudokubot/render"
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
//	game:u:<id>   Undo
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
	Move(ctx context.Context, id int64, changes []store.Change, solved []uint8, now time.Time) (store.Finished, error)
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
}

// addPlay registers /play, /daily and the game buttons when a store is
// configured.
func (s *Service) addPlay() {
	if s.cfg.Games == nil {
		return
	}
	p := &player{s: s, games: s.cfg.Games, dailies: s.cfg.Games, puzzles: s.cfg.Puzzles}
	if p.puzzles == nil {
		p.puzzles = enginePuzzles{secret: s.cfg.DailySecret}
	}
	p.daily = newDailyCache(p.puzzles)
	s.playFeature = p
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "play",
		Description: "Play a fresh puzzle on your own board",
		Options: []OptionSpec{
			{Type: OptString, Name: optLevel, Description: "Difficulty (default medium)", Choices: levelChoices},
			{Type: OptString, Name: optSize, Description: "Grid size (default 9x9); extreme comes in 8x8 and 9x9, and 4x4 only in easy", Choices: sizeChoices},
		},
	}, p.play, heavyEphemeral)
	s.addComponent(gamePrefix, p.button, func(ctx context.Context, req Request) Plan {
		// Only a hint does engine work; the other buttons are a store
		// write and a picture, answered at once.
		if action, _, _ := splitGameID(req.CustomID); action == "h" || action == "h2" || action == "h3" {
			return Plan{Heavy: true, Ephemeral: true, Update: true}
		}
		return Plan{}
	})
	s.addModal(gmovePrefix, p.movesSubmit, nil)
	p.addDaily()
}

func heavyEphemeral(ctx context.Context, req Request) Plan {
	return Plan{Heavy: true, Ephemeral: true}
}

// play answers /play: a new personal game.
func (p *player) play(ctx context.Context, req Request) Response {
	level, err := choiceOption(req.Options, optLevel, defaultLevelOption(req.Options), levelChoices)
	if err != nil {
		return optionError(err)
	}
	size, err := choiceOption(req.Options, optSize, "9", sizeChoices)
	if err != nil {
		return optionError(err)
	}
	n, _ := strconv.Atoi(size)
	opts := sudoku.GenerateOptions{Symmetry: sudoku.Rotate180, Seed: p.s.nextSeed(req.Now)}
	opts.Shape, _ = sudoku.ShapeFor(n)
	opts.Level, _ = sudoku.ParseLevel(level)
	if r, bad := levelOutOfReach(opts); bad {
		return r
	}
	puz, err := p.puzzles.Generate(ctx, opts)
	if err == nil && puz.Grid == nil {
		err = errors.New("the generator returned no grid")
	}
	if err != nil {
		return p.s.generateError(ctx, req, opts, err)
	}
	g, _, err := p.games.StartGame(ctx, newGame(req, puz.Grid, puz.Solution, level))
	if err != nil {
		return storeError(err)
	}
	return p.show(ctx, req, g, "")
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

// encodeShape writes a puzzle's box shape as "3x3", with its alphabet after
// a ':' when it is not the default one, so decodeGrid can read the one-line
// form back exactly.
func encodeShape(g *sudoku.Grid) string {
	s := fmt.Sprintf("%dx%d", g.Shape.BoxRows, g.Shape.BoxCols)
	if g.Alphabet != sudoku.DefaultAlphabet(g.N()) {
		s += ":" + string(g.Alphabet)
	}
	return s
}

// decodeGrid reads a one-line grid stored with encodeShape's shape text.
func decodeGrid(line, shape string) (*sudoku.Grid, error) {
	dims, alpha, _ := strings.Cut(shape, ":")
	rs, cs, ok := strings.Cut(dims, "x")
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	sh := sudoku.Shape{BoxRows: r, BoxCols: c}
	if !ok || err1 != nil || err2 != nil || !sh.Valid() {
		return nil, fmt.Errorf("stored shape %q is not a box shape", shape)
	}
	g := sudoku.New(sh)
	if alpha != "" {
		g.Alphabet = sudoku.Alphabet(alpha)
	}
	i := 0
	for _, ch := range line {
		if i >= len(g.Cells) {
			return nil, fmt.Errorf("stored puzzle has more than %d cells", len(g.Cells))
		}
		if v := g.Alphabet.Value(ch); v != 0 {
			g.Cells[i] = uint8(v)
		}
		i++
	}
	if i != len(g.Cells) {
		return nil, fmt.Errorf("stored puzzle has %d cells, want %d", i, len(g.Cells))
	}
	return g, nil
}

// board is a stored game read back: the puzzle, the position (givens plus
// entries) and the solution.
type board struct {
	game     store.Game
	puzzle   *sudoku.Grid
	position *sudoku.Grid
	solution *sudoku.Grid
}

// load reads a game's grids, solving the puzzle when no solution was stored.
func (p *player) load(ctx context.Context, g store.Game) (board, error) {
	puzzle, err := decodeGrid(g.Puzzle, g.Shape)
	if err != nil {
		return board{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	if len(g.Entries) != len(puzzle.Cells) || len(g.Pencil) != len(puzzle.Cells) {
		return board{}, fmt.Errorf("game %d: board has %d cells, puzzle %d", g.ID, len(g.Entries), len(puzzle.Cells))
	}
	b := board{game: g, puzzle: puzzle, position: puzzle.Clone()}
	for i, v := range g.Entries {
		if puzzle.Cells[i] == 0 {
			b.position.Cells[i] = v
		}
	}
	if g.Solution != "" {
		if b.solution, err = decodeGrid(g.Solution, g.Shape); err != nil {
			return board{}, fmt.Errorf("game %d solution: %w", g.ID, err)
		}
	} else {
		res := sudoku.Solve(ctx, puzzle, 1)
		if len(res.Solutions) == 0 {
			return board{}, fmt.Errorf("game %d: puzzle has no solution", g.ID)
		}
		b.solution = res.Solutions[0]
	}
	return b, nil
}

// solved reports whether the position is the solution.
func (b board) solved() bool { return b.position.Equal(b.solution) }

// show marks the game viewed (the clock starts at the first view) and
// returns its message, as a new ephemeral reply.
func (p *player) show(ctx context.Context, req Request, g store.Game, note string) Response {
	if g.ViewedAt.IsZero() && g.Status == store.Playing {
		var err error
		if g, err = p.games.MarkViewed(ctx, g.ID, req.Now); err != nil {
			return storeError(err)
		}
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	r := p.gameMessage(b, req.Now, note, nil)
	r.Ephemeral = true
	return r
}

// title names a game: "Daily #325 · hard" or "Medium 9x9".
func (p *player) title(g store.Game) string {
	if g.IsDaily() {
		return fmt.Sprintf("Daily #%d · %s", sudoku.DailyNumber(g.DailyDate), g.DailyLevel)
	}
	shape, _ := decodeGrid(g.Puzzle, g.Shape)
	if shape != nil {
		return strings.TrimSpace(capitalize(g.Level) + " " + shape.Shape.String())
	}
	return capitalize(g.Level)
}

// gameMessage draws the game: board picture, counts, and the buttons while
// it is being played. mark, when not nil, adds highlights (a check's wrong
// entries, a hint's cells).
func (p *player) gameMessage(b board, now time.Time, note string, mark func(*render.Board)) Response {
	g := b.game
	e := Embed{Title: p.title(g), Color: colorNeutral}
	var lines []string
	switch g.Status {
	case store.Solved:
		e.Color = colorGood
		lines = append(lines, fmt.Sprintf("**Solved** in %s · %s · %s", clock(g.Elapsed(now)), counted(g.Hints, "hint"), counted(g.Checks, "check")))
	case store.GaveUp:
		e.Color = colorWarn
		lines = append(lines, fmt.Sprintf("Given up after %s. The solution is shown.", clock(g.Elapsed(now))))
	default:
		filled := 0
		for i, v := range b.position.Cells {
			if v != 0 && b.puzzle.Cells[i] == 0 {
				filled++
			}
		}
		lines = append(lines, fmt.Sprintf("%d of %d cells filled · %s · %s", filled, len(b.puzzle.Cells)-b.puzzle.Clues(),
			counted(g.Hints, "hint"), counted(g.Checks, "check")))
		lines = append(lines, movesHelp)
	}
	lines = append(lines, "Puzzle: `"+b.puzzle.String()+"`")
	e.Description = clip(strings.Join(lines, "\n"), maxEmbedDescription)
	e.Footer = fmt.Sprintf("Game %d", g.ID)

	rb := render.Playing(b.puzzle, b.position)
	if g.Status == store.GaveUp {
		rb = render.Solved(b.puzzle, b.solution)
		for i, v := range b.position.Cells {
			if v != 0 && v != b.solution.Cells[i] {
				rb.MarkCells(render.Wrong, i)
			}
		}
	} else {
		// Entries that break a rule are shown at once (that is no
		// spoiler); whether an entry is right only Check tells.
		rb.WithClashes(b.position.Clashes())
		rb.Pencil = make([]uint32, len(g.Pencil))
		for i, m := range g.Pencil {
			if b.position.Cells[i] == 0 {
				rb.Pencil[i] = m
			}
		}
	}
	if mark != nil {
		mark(rb)
	}
	files := p.s.boardEmbed(&e, rb, outputImage, "board.png")
	r := Response{Content: clip(note, maxContent), Embeds: []Embed{e}, Files: files}
	if g.Status == store.Playing {
		id := strconv.FormatInt(g.ID, 10)
		r.Components = []ActionRow{{Buttons: []Button{
			{Label: "Enter moves", CustomID: gamePrefix + ":m:" + id, Style: Primary},
			{Label: "Hint", CustomID: gamePrefix + ":h:" + id, Style: Secondary},
			{Label: "Check", CustomID: gamePrefix + ":c:" + id, Style: Secondary},
			{Label: "Undo", CustomID: gamePrefix + ":u:" + id, Style: Secondary},
			{Label: "Give up", CustomID: gamePrefix + ":g:" + id, Style: Danger},
		}}}
	}
	return r
}

// colorGood marks a solved game.
const colorGood = 0x3BA55D

// clock writes a playing time as people read a stopwatch: "6:41", "1:02:03".
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// counted writes "no hints", "1 hint", "3 hints".
func counted(n int, what string) string {
	if n == 0 {
		return "no " + what + "s"
	}
	return Plural(n, what, what+"s")
}

// splitGameID reads "game:<action>:<id>".
func splitGameID(customID string) (action string, id int64, ok bool) {
	parts := strings.Split(customID, ":")
	if len(parts) != 3 {
		return "", 0, false
	}
	id, err := strconv.ParseInt(parts[2], 10, 64)
	return parts[1], id, err == nil && id > 0
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

// button answers the game's buttons.
func (p *player) button(ctx context.Context, req Request) Response {
	action, id, ok := splitGameID(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	g, refusal := p.owned(ctx, req, id)
	if refusal != nil {
		return *refusal
	}
	if g.Status != store.Playing {
		b, err := p.load(ctx, g)
		if err != nil {
			return storeError(err)
		}
		r := p.gameMessage(b, req.Now, "This game is over.", nil)
		r.Ephemeral, r.Update = true, true
		return r
	}
	var r Response
	switch action {
	case "m":
		return movesModal(g)
	case "h":
		r = p.hint(ctx, req, g, sudoku.HintTechnique)
	case "h2":
		r = p.hint(ctx, req, g, sudoku.HintWhere)
	case "h3":
		r = p.hint(ctx, req, g, sudoku.HintStep)
	case "c":
		r = p.check(ctx, req, g)
	case "u":
		r = p.undo(ctx, req, g)
	case "g":
		r = p.confirmGiveUp(ctx, req, g)
	case "G":
		r = p.giveUp(ctx, req, g)
	case "k":
		b, err := p.load(ctx, g)
		if err != nil {
			return storeError(err)
		}
		r = p.gameMessage(b, req.Now, "", nil)
	default:
		return unknownRequest(req)
	}
	if r.Embeds != nil { // a board, not an error
		r.Update = true
	}
	r.Ephemeral = true
	return r
}

func movesModal(g store.Game) Response {
	return Response{Modal: &Modal{
		CustomID: gmovePrefix + ":" + strconv.FormatInt(g.ID, 10),
		Title:    "Enter moves",
		Inputs: []TextInput{{
			CustomID:    movesField,
			Label:       "Moves (A1 5, r1c1=5, A1 . to clear, A1 p12)",
			Paragraph:   true,
			Placeholder: "A1 5, B3 7\nC2 p12",
			Required:    true,
			MaxLength:   DefaultMaxInput,
		}},
	}}
}

// movesSubmit applies a batch of moves from the modal.
func (p *player) movesSubmit(ctx context.Context, req Request) Response {
	idText := strings.TrimPrefix(req.CustomID, gmovePrefix+":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return unknownRequest(req)
	}
	g, refusal := p.owned(ctx, req, id)
	if refusal != nil {
		return *refusal
	}
	if g.Status != store.Playing {
		return storeError(store.ErrFinished)
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	text := req.Fields[movesField]
	moves, bad, pasted := parseMoves(text, b.puzzle)
	changes := make([]store.Change, 0, len(moves))
	for _, m := range moves {
		c := store.Change{Cell: m.Cell, Value: g.Entries[m.Cell], Pencil: g.Pencil[m.Cell]}
		switch m.Kind {
		case movePlace:
			c.Value = m.Value // pencil marks stay underneath, back on a clear
		case moveClear:
			c.Value, c.Pencil = 0, 0
		case movePencil:
			c.Value, c.Pencil = 0, m.Pencil
		}
		changes = append(changes, c)
		// Later moves of the batch build on this one.
		g.Entries[m.Cell], g.Pencil[m.Cell] = c.Value, c.Pencil
	}
	var note strings.Builder
	var fin store.Finished
	if len(changes) > 0 {
		// The move that solves the board finishes the game (and records a
		// daily's result) in the same transaction.
		if fin, err = p.games.Move(ctx, id, changes, solvedEntries(b), req.Now); err != nil {
			return storeError(err)
		}
		g = fin.Game
		if b, err = p.load(ctx, g); err != nil {
			return storeError(err)
		}
		if pasted {
			note.WriteString("Board replaced by the pasted grid.")
		} else {
			fmt.Fprintf(&note, "Played %s.", Plural(len(moves), "move", "moves"))
		}
	}
	if len(bad) > 0 {
		if note.Len() > 0 {
			note.WriteString(" ")
		}
		fmt.Fprintf(&note, "Couldn't play %s:", Plural(len(bad), "move", "moves"))
		const maxListed = 8
		for i, e := range bad {
			if i == maxListed {
				fmt.Fprintf(&note, "\n- … and %d more", len(bad)-maxListed)
				break
			}
			note.WriteString("\n- " + e.String())
		}
	}
	if clashes := b.position.Clashes(); len(changes) > 0 && len(clashes) > 0 {
		note.WriteString("\nBreaking a rule (red on the board):\n" + clashList(b.puzzle, clashes, 3))
	}
	if len(moves) == 0 && len(bad) == 0 {
		note.WriteString("I found no moves there. Write them as `A1 5`, one or more, separated by commas or new lines.")
	}
	if b.position.Complete() {
		if b.solved() {
			return p.finishSolved(ctx, req, b, fin)
		}
		note.WriteString("\nEvery cell is filled, but something is wrong — press Check to see which entries.")
	}
	r := p.gameMessage(b, req.Now, note.String(), nil)
	r.Ephemeral, r.Update = true, true
	return r
}

// solvedEntries are the entries of b's game once solved: the solution in
// every cell the puzzle leaves empty, 0 on the givens (store.Move's
// "solved").
func solvedEntries(b board) []uint8 {
	if b.solution == nil {
		return nil
	}
	w := make([]uint8, len(b.puzzle.Cells))
	for i, v := range b.puzzle.Cells {
		if v == 0 {
			w[i] = b.solution.Cells[i]
		}
	}
	return w
}

// finishSolved answers a solved game with the result and, when this
// request finished it, a public one-line announcement (names, no pings).
// f is what the winning move's store.Move did; a board found solved
// without it (a game left complete by an older version) is finished here.
func (p *player) finishSolved(ctx context.Context, req Request, b board, f store.Finished) Response {
	if f.Game.Status != store.Solved {
		var err error
		if f, err = p.games.Finish(ctx, b.game.ID, store.Solved, req.Now); err != nil {
			return storeError(err)
		}
	}
	b.game = f.Game
	g := f.Game
	note := fmt.Sprintf("Solved in %s with %s and %s. Well done!", clock(g.Elapsed(req.Now)), counted(g.Hints, "hint"), counted(g.Checks, "check"))
	if f.Result != nil && g.GuildID != "" {
		if board, err := p.dailies.Leaderboard(ctx, g.GuildID, g.DailyDate, g.DailyLevel, 0); err == nil {
			for _, r := range board {
				if r.UserID == g.UserID {
					note += fmt.Sprintf(" You are #%d of %d on this server's %s leaderboard.", r.Rank, len(board), g.DailyLevel)
				}
			}
		}
	}
	r := p.gameMessage(b, req.Now, note, nil)
	r.Ephemeral, r.Update = true, true
	if f.Now {
		r.FollowUps = []Response{{Content: clip(p.announcement(g, req), maxContent)}}
	}
	return r
}

// announcement is the public line about a solve: "Ada solved today's hard
// daily in 6:41, no hints".
func (p *player) announcement(g store.Game, req Request) string {
	name := g.UserName
	if name == "" {
		name = displayName(req)
	}
	name = escapeMarkdown(name)
	what := article(strings.ToLower(p.title(g)))
	if g.IsDaily() {
		what = "today's " + g.DailyLevel + " daily"
		if day(g.DailyDate) != day(req.Now) {
			what = "the " + g.DailyLevel + " daily of " + g.DailyDate.Format("2 Jan")
		}
		what += fmt.Sprintf(" (#%d)", sudoku.DailyNumber(g.DailyDate))
	}
	hints := "no hints"
	if g.Hints > 0 {
		hints = "with " + Plural(g.Hints, "hint", "hints")
	}
	return fmt.Sprintf("%s solved %s in %s, %s.", name, what, clock(g.Elapsed(req.Now)), hints)
}

// article puts "a" or "an" before a level name.
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// escapeMarkdown keeps a display name from formatting the line around it.
func escapeMarkdown(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`, "@", "@\u200b")
	return r.Replace(s)
}

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// hint gives the hint at level for the game's position, reasoning from the
// player's own pencil marks. The first hint on a position counts; opening
// its other levels (or pressing Hint again before a move) does not.
func (p *player) hint(ctx context.Context, req Request, g store.Game, level sudoku.HintLevel) Response {
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	pos := b.position.Clone()
	for i, m := range g.Pencil {
		if m != 0 && pos.Cells[i] == 0 {
			if pos.Marks == nil {
				pos.Marks = make([]uint32, len(pos.Cells))
			}
			pos.Marks[i] = m
		}
	}
	h, err := sudoku.Hint(ctx, b.puzzle, pos, level)
	if err != nil {
		return p.s.hintError(ctx, err, b.puzzle)
	}
	if g.HintStage == 0 {
		if g, err = p.games.RecordHint(ctx, g.ID, int(level)); err != nil {
			return storeError(err)
		}
		b.game = g
	}
	wrong := len(h.Wrong) > 0 || len(h.WrongMarks) > 0
	note := fmt.Sprintf("**%s:** %s", hintTitle(h), h.Text)
	r := p.gameMessage(b, req.Now, note, func(rb *render.Board) {
		switch {
		case len(h.Wrong) > 0:
			rb.MarkCells(render.Wrong, h.Wrong...)
		case len(h.WrongMarks) > 0:
			for _, c := range h.WrongMarks {
				rb.MarkCells(render.Wrong, c.Cell)
			}
			rb.MarkCandidates(true, h.WrongMarks...)
		case level >= sudoku.HintStep:
			zoomStep(rb.WithStep(h.Step))
		}
	})
	if wrong || level >= sudoku.HintStep || len(r.Components) == 0 {
		return r
	}
	id := strconv.FormatInt(g.ID, 10)
	var more []Button
	switch {
	case h.NeedsTrial:
		more = []Button{{Label: "Reveal a cell", CustomID: gamePrefix + ":h3:" + id, Style: Secondary}}
	case level == sudoku.HintWhere:
		more = []Button{{Label: "Show step (level 3)", CustomID: gamePrefix + ":h3:" + id, Style: Secondary}}
	default:
		more = []Button{
			{Label: "Where? (level 2)", CustomID: gamePrefix + ":h2:" + id, Style: Secondary},
			{Label: "Show step (level 3)", CustomID: gamePrefix + ":h3:" + id, Style: Secondary},
		}
	}
	r.Components = append(r.Components, ActionRow{Buttons: more})
	return r
}

// check marks the entries that disagree with the solution.
func (p *player) check(ctx context.Context, req Request, g store.Game) Response {
	g, err := p.games.RecordCheck(ctx, g.ID)
	if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	var wrong []int
	entries := 0
	for i, v := range b.position.Cells {
		if v != 0 && b.puzzle.Cells[i] == 0 {
			entries++
			if v != b.solution.Cells[i] {
				wrong = append(wrong, i)
			}
		}
	}
	var note string
	switch {
	case entries == 0:
		note = "Check: nothing entered yet."
	case len(wrong) == 0 && entries == 1:
		note = "Check: your one entry is right so far."
	case len(wrong) == 0:
		note = fmt.Sprintf("Check: all %d entries are right so far.", entries)
	case len(wrong) == 1:
		note = fmt.Sprintf("Check: %s is wrong (red). Undo, or overwrite it.", cellList(b.puzzle.Shape, wrong))
	default:
		note = fmt.Sprintf("Check: %d entries are wrong (red): %s. Undo, or overwrite them.", len(wrong), cellList(b.puzzle.Shape, wrong))
	}
	return p.gameMessage(b, req.Now, note, func(rb *render.Board) { rb.WithWrong(b.solution) })
}

// undo takes back the last batch of moves and says which cells it touched.
func (p *player) undo(ctx context.Context, req Request, g store.Game) Response {
	before := g
	g, err := p.games.Undo(ctx, g.ID)
	var note string
	if errors.Is(err, store.ErrNothingToUndo) {
		if g, err = p.games.Game(ctx, before.ID); err != nil {
			return storeError(err)
		}
		note = "Nothing to undo."
	} else if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	if note == "" {
		var cells []int
		for i := range g.Entries {
			if i < len(before.Entries) && i < len(before.Pencil) &&
				(g.Entries[i] != before.Entries[i] || g.Pencil[i] != before.Pencil[i]) {
				cells = append(cells, i)
			}
		}
		note = fmt.Sprintf("Undid %s: %s.", Plural(len(cells), "move", "moves"), cellList(b.puzzle.Shape, cells))
		if len(cells) == 0 {
			note = "Undid your last moves."
		}
	}
	return p.gameMessage(b, req.Now, note, nil)
}

// cellList names cells as the board labels them: "A1", "A1 and B3", "A1,
// B3, C5 and 4 more".
func cellList(sh sudoku.Shape, cells []int) string {
	const maxNamed = 8
	var names []string
	for i, c := range cells {
		if i == maxNamed {
			return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", len(cells)-maxNamed)
		}
		names = append(names, sh.CellName(c))
	}
	return andList(names)
}

// confirmGiveUp asks before ending the game: one stray click must not
// cost a daily.
func (p *player) confirmGiveUp(ctx context.Context, req Request, g store.Game) Response {
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	note := "Give up and see the solution? The game ends"
	if g.IsDaily() {
		note += " and today's " + g.DailyLevel + " daily can't be played again"
	}
	r := p.gameMessage(b, req.Now, note+".", nil)
	id := strconv.FormatInt(g.ID, 10)
	r.Components = []ActionRow{{Buttons: []Button{
		{Label: "Yes, give up", CustomID: gamePrefix + ":G:" + id, Style: Danger},
		{Label: "Keep playing", CustomID: gamePrefix + ":k:" + id, Style: Primary},
	}}}
	return r
}

func (p *player) giveUp(ctx context.Context, req Request, g store.Game) Response {
	f, err := p.games.Finish(ctx, g.ID, store.GaveUp, req.Now)
	if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, f.Game)
	if err != nil {
		return storeError(err)
	}
	note := "You gave up; here is the solution (your wrong entries in red). /play for another."
	if f.Game.Status == store.Solved {
		note = "This game was already solved."
	}
	return p.gameMessage(b, req.Now, note, nil)
}
