package bot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// TestAttachmentRedirects: a redirect is followed only to a host the bot
// would fetch from directly; one to any other host (an internal address,
// a metadata service) is refused before it is requested.
func TestAttachmentRedirects(t *testing.T) {
	t.Parallel()
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		w.Write([]byte("secret from elsewhere"))
	}))
	defer foreign.Close()
	h := &scriptHandler{handle: func(ctx context.Context, req commands.Request) commands.Response {
		return commands.Response{Content: "read: " + req.Text}
	}}
	tb := newTestBot(t, h, nil)
	f := tb.fake

	same := f.AddAttachment("real.txt", "text/plain", []byte("the grid"))
	for _, tc := range []struct {
		name, to, want string
	}{
		{"to the same host", same["url"].(string), "read: the grid"},
		{"to another host", foreign.URL + "/latest/meta-data", "couldn't download"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := map[string]any{"id": "t-" + tc.name, "channel_id": "300", "content": "", "author": bob,
				"attachments": []any{f.AddRedirect("grid.txt", tc.to)}}
			c := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500",
				Data: fakediscord.MessageCommand("Solve Sudoku", target)}))
			if !strings.Contains(c.Content(), tc.want) {
				t.Errorf("answer %q, want %q", c.Content(), tc.want)
			}
		})
	}
	if n := foreignHits.Load(); n != 0 {
		t.Errorf("the foreign host was requested %d times", n)
	}
}
