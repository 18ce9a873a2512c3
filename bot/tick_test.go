package bot

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/commands"
)

type countTicker struct{ n atomic.Int32 }

func (c *countTicker) Tick(ctx context.Context, now time.Time) {
	if now.IsZero() || ctx.Err() != nil {
		return
	}
	c.n.Add(1)
}

// TestRunTicks: ticks come once the bot is ready, and stop with ctx.
func TestRunTicks(t *testing.T) {
	t.Parallel()
	tb := newTestBot(t, &scriptHandler{handle: func(ctx context.Context, req commands.Request) commands.Response {
		return commands.Response{Content: "x"}
	}}, nil)
	var c countTicker
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { tb.bot.RunTicks(ctx, &c, 5*time.Millisecond); close(done) }()
	eventually(t, "three ticks", func() bool { return c.n.Load() >= 3 })
	cancel()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("RunTicks did not return after its context ended")
	}
}
