package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"sudokubot/render"
	"sudokubot/store"
	"sudokubot/sudoku"
)

// The game's buttons: Hint, Check, Undo and Give up.

// button answers the game's buttons.
func (p *player) button(ctx context.Context, req Request) Response {
	action, id, ok := parseGameButton(req.CustomID)
	if !ok {
		return unknownRequest(req)
	}
	g, refusal := p.owned(ctx, req, id)
	if refusal != nil {
		return *refusal
	}
	coop := g.RaceID != 0 && p.coopPlayer(ctx, req, g)
	if g.Status != store.Playing {
		if coop {
			return ephemeral("This co-op game is over. Start another with /play together:True.")
		}
		b, err := p.load(ctx, g)
		if err != nil {
			return storeError(err)
		}
		r := p.gameMessage(b, req.Now, "This game is over.", nil)
		r.Ephemeral, r.Update = true, true
		return r
	}
	if coop {
		switch {
		case action == "b":
			return ephemeral("A co-op game is played here in the thread, where everyone sees the one board.")
		case (action == "g" || action == "G") && g.UserID != req.UserID:
			return ephemeral(fmt.Sprintf("Only %s, who started this co-op game, can give it up.", escapeMarkdown(g.UserName)))
		}
	}
	r := p.gameAction(ctx, req, g, action)
	if coop && len(r.Embeds) > 0 && action != "m" {
		if action == "G" {
			if _, _, err := p.racing.races.EndRace(ctx, g.RaceID, req.Now); err != nil {
				p.s.logf("co-op %d: end it: %v", g.RaceID, err)
			}
		}
		return p.coopDecorate(ctx, r, g, req, action)
	}
	if g.RaceID != 0 && p.racing != nil && !coop {
		switch action {
		case "G":
			p.racing.raceGaveUp(ctx, req, g)
		case "h", "h2", "h3", "c", "u", "Y":
			p.touched(ctx, g, req.Now)
		}
	}
	return r
}

// gameAction does a game button's action on g, which req's user may play.
func (p *player) gameAction(ctx context.Context, req Request, g store.Game, action string) Response {
	var r Response
	switch action {
	case "b":
		// The Activity opens on the player's running game (the same game).
		return p.openBoard(ctx, req)
	case "m":
		puzzle, err := decodeGrid(g.Puzzle, g.Shape)
		if err != nil {
			return storeError(err)
		}
		return movesModal(g, puzzle)
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
	case "U":
		r = p.confirmUndoAll(ctx, req, g)
	case "Y":
		r = p.undoAll(ctx, req, g)
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

// hint gives the hint at level for the game's position, reasoning from the
// player's own pencil marks. The first hint on a position counts; opening
// its other levels (or pressing Hint again before a move) does not.
func (p *player) hint(ctx context.Context, req Request, g store.Game, level sudoku.HintLevel) Response {
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	if clashes := b.position.Clashes(); len(clashes) > 0 {
		// A clash on the board is a mistake the player can see for
		// themselves once it is named; no hint is needed, or counted.
		var yours []int // the clashing cells the player can change
		seen := map[int]bool{}
		for _, c := range clashes {
			for _, cell := range c.Cells {
				if b.puzzle.Cells[cell] == 0 && !seen[cell] {
					seen[cell] = true
					yours = append(yours, cell)
				}
			}
		}
		slices.Sort(yours)
		note := fmt.Sprintf("**Clash:** %s. Change %s, then ask for a hint (this one isn't counted).",
			clashSentences(clashes, b.puzzle), orList(cellNames(b.puzzle.Shape, yours)))
		return p.gameMessage(b, req.Now, note, nil)
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
		if !markWrongWork(rb, h) && level >= sudoku.HintStep {
			zoomStep(rb.WithStep(h.Step))
		}
	})
	if len(r.Components) == 0 {
		return r
	}
	var more []Button
	switch {
	case len(h.Wrong) == 0 && len(h.WrongMarks) > 0 && level == sudoku.HintTechnique:
		// Level 1 named the cells; the candidates they need come next.
		label := "Which candidate?"
		if len(h.WrongMarks) > 1 {
			label = "Which candidates?"
		}
		more = []Button{{Label: label, CustomID: gameButtonID("h2", g.ID), Style: Secondary}}
	case wrong || level >= sudoku.HintStep:
		return r
	case h.NeedsTrial:
		more = []Button{{Label: "Reveal a cell", CustomID: gameButtonID("h3", g.ID), Style: Secondary}}
	case level == sudoku.HintWhere:
		more = []Button{{Label: "Show step (level 3)", CustomID: gameButtonID("h3", g.ID), Style: Secondary}}
	default:
		more = []Button{
			{Label: "Where? (level 2)", CustomID: gameButtonID("h2", g.ID), Style: Secondary},
			{Label: "Show step (level 3)", CustomID: gameButtonID("h3", g.ID), Style: Secondary},
		}
	}
	r.Components = append(r.Components, ActionRow{Buttons: more})
	return r
}

// checkEntries counts the player's entries on b and returns the cells
// whose entry disagrees with the solution.
func (b board) checkEntries() (wrong []int, entries int) {
	for i, v := range b.position.Cells {
		if v != 0 && b.puzzle.Cells[i] == 0 {
			entries++
			if v != b.solution.Cells[i] {
				wrong = append(wrong, i)
			}
		}
	}
	return wrong, entries
}

// checkNote says what a check found, in lower case after "Check: "; mark
// says how the wrong cells are shown ("red" in a picture, "marked" on
// the page).
func checkNote(shape sudoku.Shape, wrong []int, entries int, mark string) string {
	switch {
	case entries == 0:
		return "nothing entered yet, so there is nothing to check (this one isn't counted)."
	case len(wrong) == 0 && entries == 1:
		return "your one entry is right so far."
	case len(wrong) == 0:
		return fmt.Sprintf("all %d entries are right so far.", entries)
	case len(wrong) == 1:
		return fmt.Sprintf("%s is wrong (%s). Undo, or overwrite it.", cellList(shape, wrong), mark)
	}
	return fmt.Sprintf("%d entries are wrong (%s): %s. Undo, or overwrite them.", len(wrong), mark, cellList(shape, wrong))
}

// check marks the entries that disagree with the solution. A board with
// no entries has nothing to check, and the check is not counted.
func (p *player) check(ctx context.Context, req Request, g store.Game) Response {
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	wrong, entries := b.checkEntries()
	if entries == 0 {
		return p.gameMessage(b, req.Now, "Check: "+checkNote(b.puzzle.Shape, wrong, entries, "red"), nil)
	}
	if b.game, err = p.games.RecordCheck(ctx, g.ID); err != nil {
		return storeError(err)
	}
	note := "Check: " + checkNote(b.puzzle.Shape, wrong, entries, "red")
	return p.gameMessage(b, req.Now, note, func(rb *render.Board) { rb.WithWrong(b.solution) })
}

// undo takes back the last move (one typed move, or a whole pasted grid)
// and says which cells it touched.
func (p *player) undo(ctx context.Context, req Request, g store.Game) Response {
	before := g
	g, err := p.games.Undo(ctx, g.ID)
	if errors.Is(err, store.ErrNothingToUndo) {
		return p.redraw(ctx, req, before.ID, "Nothing to undo.")
	}
	if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	cells := changedCells(before, g)
	note := "Undid your last move."
	switch {
	case len(cells) == 1:
		note = fmt.Sprintf("Undid `%s`.", moveText(b.puzzle, before, g, cells[0]))
	case len(cells) > 1:
		note = fmt.Sprintf("Undid %d cells changed at once: %s.", len(cells), cellList(b.puzzle.Shape, cells))
	}
	return p.gameMessage(b, req.Now, note, nil)
}

// confirmUndoAll asks before taking back every move: one stray click must
// not wipe a board.
func (p *player) confirmUndoAll(ctx context.Context, req Request, g store.Game) Response {
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	note := fmt.Sprintf("Undo all %s and go back to the puzzle as it started? Your time keeps running.", Plural(g.Moves, "move", "moves"))
	r := p.gameMessage(b, req.Now, note, nil)
	r.Components = []ActionRow{{Buttons: []Button{
		{Label: "Yes, undo all", CustomID: gameButtonID("Y", g.ID), Style: Danger},
		{Label: "Keep playing", CustomID: gameButtonID("k", g.ID), Style: Primary},
	}}}
	return r
}

// maxUndoAll bounds the moves Undo all takes back in one click: more than
// any game has (every cell of a 25x25 set and changed a few times).
const maxUndoAll = 8 * 25 * 25

// undoAll takes back every move, one at a time (each a step of its own in
// the store), and says how many.
func (p *player) undoAll(ctx context.Context, req Request, g store.Game) Response {
	start := g
	undone := 0
	for ; undone < maxUndoAll; undone++ {
		next, err := p.games.Undo(ctx, g.ID)
		if errors.Is(err, store.ErrNothingToUndo) {
			break
		}
		if err != nil {
			if undone == 0 {
				return storeError(err)
			}
			b, lerr := p.load(ctx, g)
			if lerr != nil {
				return storeError(err)
			}
			r := p.gameMessage(b, req.Now, fmt.Sprintf("Undid %s; then my database failed, so the rest are still on the board. Please try again in a moment.",
				Plural(undone, "move", "moves")), nil)
			r.failure = err
			return r
		}
		g = next
	}
	if undone == 0 {
		return p.redraw(ctx, req, start.ID, "Nothing to undo.")
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	return p.gameMessage(b, req.Now, fmt.Sprintf("Undid all %s: the board is as it started.", Plural(undone, "move", "moves")), nil)
}

// redraw answers with game id's board as it is, under note.
func (p *player) redraw(ctx context.Context, req Request, id int64, note string) Response {
	g, err := p.games.Game(ctx, id)
	if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, g)
	if err != nil {
		return storeError(err)
	}
	return p.gameMessage(b, req.Now, note, nil)
}

// moveText writes the move that took cell from its state in was to its
// state in became, as the player would type it: "B2 5", "B2 .", "B2 p38".
func moveText(puzzle *sudoku.Grid, became, was store.Game, cell int) string {
	name := puzzle.Shape.CellName(cell)
	switch {
	case became.Entries[cell] != 0:
		return fmt.Sprintf("%s %c", name, puzzle.Alphabet.Symbol(int(became.Entries[cell])))
	case became.Pencil[cell] != was.Pencil[cell]:
		var marks []rune
		for v := 1; v <= puzzle.N(); v++ {
			if became.Pencil[cell]&(1<<(v-1)) != 0 {
				marks = append(marks, puzzle.Alphabet.Symbol(v))
			}
		}
		return name + " p" + string(marks)
	}
	return name + " ."
}

// changedCells lists the cells whose entry or pencil marks differ between
// two states of a game.
func changedCells(a, b store.Game) []int {
	var cells []int
	for i := range b.Entries {
		if i < len(a.Entries) && i < len(a.Pencil) && i < len(b.Pencil) &&
			(a.Entries[i] != b.Entries[i] || a.Pencil[i] != b.Pencil[i]) {
			cells = append(cells, i)
		}
	}
	return cells
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
	r.Components = []ActionRow{{Buttons: []Button{
		{Label: "Yes, give up", CustomID: gameButtonID("G", g.ID), Style: Danger},
		{Label: "Keep playing", CustomID: gameButtonID("k", g.ID), Style: Primary},
	}}}
	return r
}

func (p *player) giveUp(ctx context.Context, req Request, g store.Game) Response {
	f, note, rating, err := p.endGame(ctx, g.ID, req.Now)
	if err != nil {
		return storeError(err)
	}
	b, err := p.load(ctx, f.Game)
	if err != nil {
		return storeError(err)
	}
	if f.Game.Status == store.GaveUp {
		note += " /play for another."
	}
	return p.gameMessage(b, req.Now, note+rating, nil)
}

// endGame gives up game id at now, for chat's "Yes, give up" and the
// board page's Give up alike, and says what happened: given up (and what
// it did to the player's rating), or already solved (a last move got
// there first).
func (p *player) endGame(ctx context.Context, id int64, now time.Time) (f store.Finished, note, rating string, err error) {
	if f, err = p.games.Finish(ctx, id, store.GaveUp, now); err != nil {
		return f, "", "", err
	}
	if f.Game.Status == store.Solved {
		return f, "This game was already solved.", "", nil
	}
	return f, "You gave up; here is the solution (your wrong entries in red).", ratingNote(p.rate(ctx, f.Game, 0)), nil
}

// cellNames names cells as the board labels them.
func cellNames(sh sudoku.Shape, cells []int) []string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = sh.CellName(c)
	}
	return names
}
