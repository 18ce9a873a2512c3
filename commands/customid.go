package commands

import (
	"strconv"
	"strings"
)

// Custom ids. Every button and modal the commands send carries one: the
// prefix that routes it back (addComponent, addModal) and the fields its
// handler needs, joined by ':', at most Discord's 100 characters. They are
// built by newID and read by idFields, nowhere else by hand.
//
// The last field takes the rest of the id, so it may hold ':' itself (an
// option list, a state); the others may not.

// newID joins prefix and fields into a custom id. ok is false when the id
// would be over Discord's limit, or a field other than the last holds ':'
// (it would read back as two).
func newID(prefix string, fields ...string) (id string, ok bool) {
	if prefix == "" || strings.Contains(prefix, ":") {
		return "", false
	}
	for i, f := range fields {
		if i < len(fields)-1 && strings.Contains(f, ":") {
			return "", false
		}
	}
	id = strings.Join(append([]string{prefix}, fields...), ":")
	return id, len(id) <= maxCustomID
}

// mustID is newID for ids whose fields are known to fit (numbers, fixed
// words); it panics otherwise, which the tests catch.
func mustID(prefix string, fields ...string) string {
	id, ok := newID(prefix, fields...)
	if !ok {
		panic("commands: custom id over the limit or with ':' in a field: " + prefix + ":" + strings.Join(fields, ":"))
	}
	return id
}

// idPrefix is the routing key of a custom id: the text before the first ':'.
func idPrefix(id string) string {
	prefix, _, _ := strings.Cut(id, ":")
	return prefix
}

// idFields reads the n fields after a custom id's prefix, the last taking
// the rest of the id. ok is false when the id has fewer, or is over
// Discord's limit (it can't have come from Discord).
func idFields(id string, n int) (fields []string, ok bool) {
	if len(id) > maxCustomID || n < 1 {
		return nil, false
	}
	parts := strings.SplitN(id, ":", n+1)
	if len(parts) != n+1 {
		return nil, false
	}
	return parts[1:], true
}

// The game buttons and the moves modal carry a game's id:
// game:<action>:<id> and gmove:<id> (see play.go).

// gameButtonID is the custom id of a game's button for action.
func gameButtonID(action string, game int64) string {
	return mustID(gamePrefix, action, strconv.FormatInt(game, 10))
}

// parseGameButton reads a game button's action and game id.
func parseGameButton(id string) (action string, game int64, ok bool) {
	f, ok := idFields(id, 2)
	if !ok || idPrefix(id) != gamePrefix {
		return "", 0, false
	}
	game, ok = parseGameNumber(f[1])
	return f[0], game, ok
}

// movesModalID is the custom id of game's moves modal.
func movesModalID(game int64) string {
	return mustID(gmovePrefix, strconv.FormatInt(game, 10))
}

// parseMovesModal reads the game id of a moves modal.
func parseMovesModal(id string) (game int64, ok bool) {
	f, ok := idFields(id, 1)
	if !ok || idPrefix(id) != gmovePrefix {
		return 0, false
	}
	return parseGameNumber(f[0])
}

func parseGameNumber(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}
