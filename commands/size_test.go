package commands

import (
	"context"
	"strings"
	"testing"
)

// TestRequestSize checks the one bound on a request's size: characters
// (not bytes) of every part together, refused before any command reads
// them, the refusal private except in a channel message.
func TestRequestSize(t *testing.T) {
	s := newTestService(t, Config{MaxInput: 100})
	ctx := context.Background()
	over := strings.Repeat("1", 101)
	for _, tc := range []struct {
		name      string
		req       Request
		refused   bool
		ephemeral bool
	}{
		{"an option at the limit", slash("solve", "puzzle", strings.Repeat(".", 100)), false, true},
		{"an option over it", slash("solve", "puzzle", over), true, true},
		{"two options over it together", slash("solve", "puzzle", strings.Repeat(".", 60), "output", strings.Repeat("x", 41)), true, true},
		{"multi-byte characters count once", slash("solve", "puzzle", strings.Repeat("é", 100)), false, true},
		{"a modal's moves", Request{Kind: ModalSubmit, CustomID: "gmove:1", Fields: map[string]string{"moves": over}}, true, true},
		{"a message", Request{Kind: Mention, Mentioned: true, Text: over}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := s.Plan(ctx, tc.req); tc.refused && p != (Plan{}) {
				t.Errorf("Plan = %+v, want a light plan for the refusal", p)
			}
			r := s.Handle(ctx, tc.req)
			refused := strings.Contains(r.Content, "I read at most 100 at once")
			if refused != tc.refused {
				t.Fatalf("Handle refused = %v, want %v: %q", refused, tc.refused, allText(r))
			}
			if refused && r.Ephemeral != tc.ephemeral {
				t.Errorf("refusal ephemeral = %v, want %v", r.Ephemeral, tc.ephemeral)
			}
		})
	}
}
