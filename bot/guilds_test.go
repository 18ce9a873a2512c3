package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
)

// forgettingHandler is a scriptHandler that records the servers it is
// told to forget.
type forgettingHandler struct {
	*scriptHandler
	mu      sync.Mutex
	removed []string
}

func (h *forgettingHandler) GuildRemoved(ctx context.Context, guildID string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removed = append(h.removed, guildID)
	return nil
}

func (h *forgettingHandler) forgotten() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.removed)
}

// TestGuildDeleteForgetsTheServer: GUILD_DELETE without "unavailable" (the
// bot was removed) has the handler forget the server, once; with it (an
// outage) nothing happens.
func TestGuildDeleteForgetsTheServer(t *testing.T) {
	h := &forgettingHandler{scriptHandler: &scriptHandler{specs: testSpecs}}
	tb := newTestBot(t, h, nil)
	if err := tb.fake.Dispatch("GUILD_DELETE", map[string]any{"id": "500", "unavailable": true}); err != nil {
		t.Fatal(err)
	}
	if err := tb.fake.Dispatch("GUILD_DELETE", map[string]any{"id": "501"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the removal logged", func() bool {
		return strings.Contains(tb.logs.String(), "removed from guild 501: its settings are deleted")
	})
	if got := h.forgotten(); !slices.Equal(got, []string{"501"}) {
		t.Errorf("servers forgotten = %v, want [501] (500 only went unavailable)", got)
	}
}
