package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// Moves: the moves modal, a batch of moves played, and the end of a solved
// game.

// movesModal asks for moves in game g of puzzle, its examples fitting the
// puzzle's size and symbols.
func movesModal(g store.Game, puzzle *sudoku.Grid) Response {
	x := samplesFor(puzzle)
	return Response{Modal: &Modal{
		CustomID: movesModalID(g.ID),
		Title:    "Enter moves",
		Inputs: []TextInput{{
			CustomID:    movesField,
			Label:       fmt.Sprintf("Moves (A1 %s, r1c1=%[1]s, A1 . to clear, A1 p%s)", x.place, x.fewMarks),
			Paragraph:   true,
			Placeholder: fmt.Sprintf("A1 %s, B3 %s\nC2 p%s", x.place, x.other, x.fewMarks),
			Required:    true,
			MaxLength:   MaxTextInputLength,
		}},
	}}
}

// movesSubmit applies a batch of moves from the modal.
func (p *player) movesSubmit(ctx context.Context, req Request) Response {
	id, ok := parseMovesModal(req.CustomID)
	if !ok {
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
	before := slices.Clone(g.Entries)
	changes := make([]store.Change, 0, len(moves))
	// A race counts the wrong digits placed (its scoreboard shows them);
	// a co-op game credits each value to whoever placed it.
	mistakes, mover := 0, ""
	if g.UserID != req.UserID {
		mover = req.UserID // owned let them: a co-op game
	} else if g.RaceID != 0 && p.racing != nil && p.coopPlayer(ctx, req, g) {
		mover = req.UserID
	}
	for _, m := range moves {
		c := store.Change{Cell: m.Cell, Value: g.Entries[m.Cell], Pencil: g.Pencil[m.Cell]}
		switch m.Kind {
		case movePlace:
			c.Value = m.Value // pencil marks stay underneath, back on a clear
			if b.solution != nil && m.Value != b.solution.Cells[m.Cell] && m.Value != g.Entries[m.Cell] {
				mistakes++
			}
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
	var failure error
	if len(changes) > 0 {
		// Each typed move is its own step for Undo; a pasted grid is one.
		steps := [][]store.Change{changes}
		if !pasted {
			steps = steps[:0]
			for i := range changes {
				steps = append(steps, changes[i:i+1])
			}
		}
		solved := solvedEntries(b)
		var judge store.Judge
		if judged(g) {
			judge = judgeSolve(emptyCells(b), placedCells(before, g.Entries))
		}
		played := 0
		for _, step := range steps {
			// The move that solves the board finishes the game (and
			// records a daily's result) in the same transaction.
			var f store.Finished
			var err error
			if mover != "" {
				f, err = p.racing.races.MoveBy(ctx, id, mover, step, solved, req.Now)
			} else {
				f, err = p.games.Move(ctx, id, step, solved, req.Now, judge)
			}
			if err != nil {
				if played == 0 {
					return storeError(err)
				}
				failure = err // the moves before it are saved: say which
				break
			}
			fin = f
			played++
			if fin.Game.Status != store.Playing {
				break
			}
		}
		g = fin.Game
		if b, err = p.load(ctx, g); err != nil {
			return storeError(err)
		}
		if g.RaceID != 0 && p.racing != nil {
			p.racing.moved(ctx, req, g, mistakes)
		}
		switch {
		case pasted:
			note.WriteString("Board replaced by the pasted grid.")
		case failure != nil:
			fmt.Fprintf(&note, "Played %d of %s; then my database failed, so the rest are not saved. Please send them again in a moment.",
				played, Plural(len(moves), "move", "moves"))
		default:
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
		note.WriteString("\nClash (red on the board): " + clashSentences(clashes, b.puzzle) + ".")
	}
	if len(moves) == 0 && len(bad) == 0 {
		fmt.Fprintf(&note, "I found no moves there. Write them as `A1 %s`, one or more, separated by commas or new lines.", samplesFor(b.puzzle).place)
	}
	if b.position.Complete() {
		if b.solved() {
			return p.finishSolved(ctx, req, b, fin)
		}
		note.WriteString("\nEvery cell is filled, but something is wrong — press Check to see which entries.")
	}
	if mover != "" && len(changes) == 0 {
		// Nothing played: only the mover hears why.
		return ephemeral(note.String())
	}
	if mover != "" {
		// The board is everyone's: say who played.
		return p.coopMessage(ctx, b, req, "**"+escapeMarkdown(displayName(req))+"**: "+note.String(), failure)
	}
	r := p.gameMessage(b, req.Now, note.String(), nil)
	r.Ephemeral, r.Update = true, true
	r.failure = failure
	return r
}

// emptyCells counts the cells b's puzzle leaves to fill.
func emptyCells(b board) int {
	n := 0
	for _, v := range b.puzzle.Cells {
		if v == 0 {
			n++
		}
	}
	return n
}

// placedCells counts the cells that hold a new value in after.
func placedCells(before, after []uint8) int {
	n := 0
	for i, v := range after {
		if v != 0 && v != before[i] {
			n++
		}
	}
	return n
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
	if g.RaceID != 0 && p.racing != nil {
		if r, ok := p.racing.solved(ctx, req, b, f); ok {
			return r
		}
	}
	note := solvedNote(g, req.Now, emptyCells(b)) + ratingNote(p.rate(ctx, g, emptyCells(b)))
	if isArchive(g) {
		note += fmt.Sprintf(" This was the %s daily of %s from the archive: a replay counts on no leaderboard or streak.", g.Level, g.ArchiveDate.Format("2 January"))
	}
	if f.Result != nil && g.GuildID != "" && g.Flag == "" {
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
		today, _, _ := p.today(ctx, g.UserID, req.Now) // UTC's on a failure: only wording
		r.FollowUps = []Response{{Content: clip(p.announcement(g, req, today), maxContent)}}
	}
	return r
}

// announcement is the public line about a solve: "Ada solved today's hard
// daily in 6:41, no hints".
// today is the player's today.
func (p *player) announcement(g store.Game, req Request, today time.Time) string {
	name := g.UserName
	if name == "" {
		name = displayName(req)
	}
	name = escapeMarkdown(name)
	what := article(strings.ToLower(p.title(g)))
	if g.IsDaily() {
		what = "today's " + g.DailyLevel + " daily"
		if !g.DailyDate.Equal(today) {
			what = "the " + g.DailyLevel + " daily of " + g.DailyDate.Format("2 Jan")
		}
		what += fmt.Sprintf(" (#%d)", sudoku.DailyNumber(g.DailyDate))
	}
	if isArchive(g) {
		what = fmt.Sprintf("the %s daily of %s (#%d) from the archive", g.Level, g.ArchiveDate.Format("2 Jan"), sudoku.DailyNumber(g.ArchiveDate))
	}
	hints := "no hints"
	if g.Hints > 0 {
		hints = "with " + Plural(g.Hints, "hint", "hints")
	}
	line := fmt.Sprintf("%s solved %s in %s, %s", name, what, clock(g.Elapsed(req.Now)), hints)
	if g.Flag != "" {
		return line + " — not counted (" + flagShort(g.Flag) + ")."
	}
	return line + "."
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
