package bot

import (
	"context"
	"time"
)

// Ticker keeps the product's clocks going: races' countdowns, players who
// idle, results once a race is over. *commands.Service implements it; every
// process may tick, the product claims what must happen once.
type Ticker interface {
	Tick(ctx context.Context, now time.Time)
}

// DefaultTickEvery is how often RunTicks ticks: a race's 10 s countdown
// ends within 2 s of its time even when nobody clicks.
const DefaultTickEvery = 2 * time.Second

// RunTicks calls t.Tick every `every` (DefaultTickEvery when zero) until
// ctx ends, once READY has been seen (what a tick posts needs the token),
// and not while the bot shuts down.
func (b *Bot) RunTicks(ctx context.Context, t Ticker, every time.Duration) {
	if every <= 0 {
		every = DefaultTickEvery
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if b.self() == "" || !b.begin() {
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, max(every, 10*time.Second))
		t.Tick(tctx, b.now())
		cancel()
		b.end()
	}
}
