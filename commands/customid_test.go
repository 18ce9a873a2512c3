package commands

import (
	"slices"
	"strings"
	"testing"
)

func TestNewID(t *testing.T) {
	long := strings.Repeat("x", 100-len("ask:solve:"))
	for _, tc := range []struct {
		name   string
		prefix string
		fields []string
		want   string
		ok     bool
	}{
		{"a prefix alone", "dlb", nil, "dlb", true},
		{"fields", "game", []string{"h2", "42"}, "game:h2:42", true},
		{"':' in the last field", "ask", []string{"solve", "a=1:b"}, "ask:solve:a=1:b", true},
		{"':' in another field", "ask", []string{"so:lve", "x"}, "", false},
		{"':' in the prefix", "a:b", []string{"x"}, "", false},
		{"no prefix", "", []string{"x"}, "", false},
		{"exactly 100 characters", "ask", []string{"solve", long}, "ask:solve:" + long, true},
		{"101 characters", "ask", []string{"solve", long + "y"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := newID(tc.prefix, tc.fields...)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Errorf("newID(%q, %q) = %q, %v; want %q, %v", tc.prefix, tc.fields, got, ok, tc.want, tc.ok)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("mustID over the limit did not panic")
		}
	}()
	mustID("ask", strings.Repeat("x", 100))
}

func TestIDFields(t *testing.T) {
	for _, tc := range []struct {
		id   string
		n    int
		want []string
	}{
		{"game:h:42", 2, []string{"h", "42"}},
		{"hint:1:n:AB:CD", 3, []string{"1", "n", "AB:CD"}},
		{"ask:solve:", 2, []string{"solve", ""}},
		{"dlb:20260314", 1, []string{"20260314"}},
		{"game:h", 2, nil},
		{"game", 1, nil},
		{"game:h:42", 0, nil},
		{"ask:solve:" + strings.Repeat("x", 91), 2, nil}, // 101 characters: not from Discord
	} {
		got, ok := idFields(tc.id, tc.n)
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("idFields(%q, %d) = %q, %v; want %q", tc.id, tc.n, got, ok, tc.want)
		}
	}
}

func TestGameIDs(t *testing.T) {
	for _, action := range []string{"m", "h", "h2", "h3", "c", "u", "U", "Y", "g", "G", "k"} {
		for _, game := range []int64{1, 42, 1<<63 - 1} {
			id := gameButtonID(action, game)
			if a, g, ok := parseGameButton(id); !ok || a != action || g != game {
				t.Errorf("parseGameButton(%q) = %q, %d, %v; want %q, %d", id, a, g, ok, action, game)
			}
		}
	}
	if g, ok := parseMovesModal(movesModalID(7)); !ok || g != 7 {
		t.Errorf("parseMovesModal(movesModalID(7)) = %d, %v", g, ok)
	}
	for _, bad := range []string{"game:h:0", "game:h:-3", "game:h:x", "game:h", "game:h:1:2", "dlb:h:1", "gmove:1"} {
		if a, g, ok := parseGameButton(bad); ok {
			t.Errorf("parseGameButton(%q) = %q, %d, true; want refused", bad, a, g)
		}
	}
	for _, bad := range []string{"gmove:0", "gmove:", "gmove", "game:7", "gmove:9223372036854775808"} {
		if g, ok := parseMovesModal(bad); ok {
			t.Errorf("parseMovesModal(%q) = %d, true; want refused", bad, g)
		}
	}
}
