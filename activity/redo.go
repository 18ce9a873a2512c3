package activity

import (
	"slices"
	"sync"

	"sudokubot/commands"
)

// The store keeps a game's moves for Undo but forgets an undone one, so
// redo lives here, in memory: after an undo, the cells it changed and the
// board it left. Redo puts the cells back only while the board is still
// the one the undo left (no move since, here or in chat); any move here
// forgets the game's redo steps. A restart forgets them too.

const (
	maxRedoGames = 10000 // games with redo steps kept; beyond, the log starts afresh
	maxRedoSteps = 1000  // steps kept per game (a 25x25 fills 625 cells)
)

type redoStep struct {
	moves   []commands.BoardMove // put the undone cells back
	entries []int                // the board the undo left
	notes   []uint32
}

type redoLog struct {
	mu    sync.Mutex
	games map[int64][]redoStep
}

func newRedoLog() *redoLog { return &redoLog{games: map[int64][]redoStep{}} }

// push records an undo that took before to after.
func (l *redoLog) push(before, after commands.BoardView) {
	var moves []commands.BoardMove
	for i := range before.Entries {
		if before.Entries[i] != after.Entries[i] || before.Notes[i] != after.Notes[i] {
			moves = append(moves, commands.BoardMove{Cell: i, Kind: commands.MoveSet, Value: before.Entries[i], Notes: before.Notes[i]})
		}
	}
	if len(moves) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.games[after.ID]; !ok && len(l.games) >= maxRedoGames {
		l.games = map[int64][]redoStep{}
	}
	steps := append(l.games[after.ID], redoStep{moves: moves, entries: after.Entries, notes: after.Notes})
	if len(steps) > maxRedoSteps {
		steps = steps[1:]
	}
	l.games[after.ID] = steps
}

// top returns the moves that redo the last undo of cur's game, when cur is
// still the board that undo left.
func (l *redoLog) top(cur commands.BoardView) ([]commands.BoardMove, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	steps := l.games[cur.ID]
	if len(steps) == 0 {
		return nil, false
	}
	st := steps[len(steps)-1]
	if !slices.Equal(st.entries, cur.Entries) || !slices.Equal(st.notes, cur.Notes) {
		delete(l.games, cur.ID) // the board moved on: these steps no longer apply
		return nil, false
	}
	return st.moves, true
}

// can reports whether a redo of v's game would be taken.
func (l *redoLog) can(v commands.BoardView) bool {
	if v.Status != "playing" {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	steps := l.games[v.ID]
	if len(steps) == 0 {
		return false
	}
	st := steps[len(steps)-1]
	return slices.Equal(st.entries, v.Entries) && slices.Equal(st.notes, v.Notes)
}

// pop drops the last redo step of game id (it was redone).
func (l *redoLog) pop(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if steps := l.games[id]; len(steps) > 0 {
		l.games[id] = steps[:len(steps)-1]
	}
}

// forget drops game id's redo steps (a new move was made).
func (l *redoLog) forget(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.games, id)
}
