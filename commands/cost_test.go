package commands

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestCheapText(t *testing.T) {
	hard25, err := os.ReadFile("../bot/testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for r := range 9 {
		rows = append(rows, strings.Join(strings.Split(uniquePuzzle[r*9:r*9+9], ""), " "))
	}
	decorated := strings.Join(rows, "\n------+-------+------\n")
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"one line 9x9", uniquePuzzle, true},
		{"9x9 with chatter", "solve this pls: " + uniquePuzzle + " thanks!", true},
		{"9x9 with a separator under every row", decorated, true},
		{"25x25", string(hard25), false},
		{"16x16", strings.Repeat(".", 256), false},
		{"empty", "", true},
	} {
		if got := cheapText(tc.text); got != tc.want {
			t.Errorf("%s: cheapText = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPlanCheapByGridSize(t *testing.T) {
	s := New(Config{})
	hard25, err := os.ReadFile("../bot/testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		req  Request
		want bool
	}{
		{"solve 9x9", Request{Kind: SlashCommand, Command: "solve", Options: map[string]string{"puzzle": uniquePuzzle}}, true},
		{"solve 25x25", Request{Kind: SlashCommand, Command: "solve", Options: map[string]string{"puzzle": string(hard25)}}, false},
		{"check 9x9", Request{Kind: SlashCommand, Command: "check", Options: map[string]string{"puzzle": uniquePuzzle}}, true},
		{"generate", Request{Kind: SlashCommand, Command: "generate"}, false},
		{"mention 9x9", Request{Kind: Mention, Mentioned: true, Text: uniquePuzzle}, true},
	} {
		p := s.Plan(ctx, tc.req)
		if !p.Heavy || p.Cheap != tc.want {
			t.Errorf("%s: Plan = %+v, want heavy with Cheap %v", tc.name, p, tc.want)
		}
	}
	// A hint's buttons: cheap for a 9x9 state, not for a cached big one.
	r := s.Handle(ctx, Request{Kind: SlashCommand, Command: "hint", Options: map[string]string{"puzzle": uniquePuzzle}})
	if len(r.Components) == 0 {
		t.Fatalf("/hint gave no buttons: %+v", r)
	}
	for _, b := range r.Components[0].Buttons {
		if p := s.Plan(ctx, Request{Kind: Component, CustomID: b.CustomID}); !p.Cheap {
			t.Errorf("button %q (%s): Plan = %+v, want cheap", b.Label, b.CustomID, p)
		}
	}
	if p := s.Plan(ctx, Request{Kind: Component, CustomID: "hint:2:u:~123"}); p.Cheap {
		t.Errorf("a cached (big) state planned cheap: %+v", p)
	}
}

// TestHintButtonsHaveDistinctIDs: Discord refuses a message whose
// components repeat a custom id; at level 2, "More" is the step.
func TestHintButtonsHaveDistinctIDs(t *testing.T) {
	s := New(Config{})
	ctx := context.Background()
	r := s.Handle(ctx, Request{Kind: SlashCommand, Command: "hint", Options: map[string]string{"puzzle": uniquePuzzle}})
	for level := 1; level <= 3 && len(r.Components) > 0; level++ {
		seen := map[string]string{}
		var more string
		for _, row := range r.Components {
			for _, b := range row.Buttons {
				if prev, dup := seen[b.CustomID]; dup {
					t.Errorf("level %d: %q and %q share the custom id %q", level, prev, b.Label, b.CustomID)
				}
				seen[b.CustomID] = b.Label
				if b.Label == "More" {
					more = b.CustomID
				}
			}
		}
		if more == "" {
			break
		}
		r = s.Handle(ctx, Request{Kind: Component, CustomID: more})
	}
}
