package bot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
	"sudokubot/store"
)

// DailyStore is what the daily poster needs from the store: the servers
// that asked for the post, and a claim per server, channel and day that
// exactly one caller wins, whatever the restarts and shards.
type DailyStore interface {
	DailyGuilds(ctx context.Context) ([]store.GuildSettings, error)
	ClaimPost(ctx context.Context, guildID, channelID string, date time.Time, by string, now time.Time) (bool, error)
	ReleasePost(ctx context.Context, guildID, channelID string, date time.Time) error
}

// DailyMaker makes the day's post; *commands.Service implements it.
type DailyMaker interface {
	DailyPost(ctx context.Context, date time.Time) (commands.Response, error)
}

// DefaultPostEvery is how often the poster looks for servers whose hour
// has come: a minute keeps the post within a minute of the hour.
const DefaultPostEvery = time.Minute

// Poster posts the day's three puzzles in every server that set up a daily
// channel, once the server's UTC hour has come. Each post is claimed in the
// store first, so a restart or a second shard never posts the same day to a
// channel twice; a post that fails to send gives its claim back and is tried
// again on the next round. (A process killed between the claim and the send
// loses that day's post: at most once, never twice.)
type Poster struct {
	b     *Bot
	st    DailyStore
	maker DailyMaker
	every time.Duration
	by    string
}

// NewPoster returns a poster that sends through b's session, checking every
// `every` (DefaultPostEvery when zero).
func NewPoster(b *Bot, st DailyStore, maker DailyMaker, every time.Duration) *Poster {
	if every <= 0 {
		every = DefaultPostEvery
	}
	host, _ := os.Hostname()
	return &Poster{b: b, st: st, maker: maker, every: every, by: fmt.Sprintf("%s pid %d", host, os.Getpid())}
}

// Run posts what is due every round until ctx ends. It waits for the bot to
// be connected; errors are logged and the next round tries again.
func (p *Poster) Run(ctx context.Context) {
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		if p.b.self() != "" { // READY seen: the session can send
			if _, err := p.PostDue(ctx); err != nil && ctx.Err() == nil {
				p.b.logf("daily post: %v", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// PostDue posts the day's puzzles to every channel whose hour has come and
// that has not had today's post, and returns how many it posted.
func (p *Poster) PostDue(ctx context.Context) (int, error) {
	if !p.b.begin() {
		return 0, nil // shutting down
	}
	defer p.b.end()
	p.b.mu.Lock()
	s := p.b.session
	p.b.mu.Unlock()
	if s == nil {
		return 0, errors.New("not connected")
	}
	now := p.b.now().UTC()
	guilds, err := p.st.DailyGuilds(ctx)
	if err != nil {
		return 0, err
	}
	var post *commands.Response
	posted := 0
	var errs []error
	for _, g := range guilds {
		if now.Hour() < g.DailyHour {
			continue
		}
		won, err := p.st.ClaimPost(ctx, g.GuildID, g.DailyChannel, now, p.by, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !won {
			continue
		}
		if post == nil {
			r, err := p.maker.DailyPost(ctx, now)
			if err != nil {
				p.release(g, now)
				return posted, fmt.Errorf("make the post of %s: %w", now.Format(time.DateOnly), err)
			}
			post = &r
		}
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err = s.ChannelMessageSendComplex(g.DailyChannel, toMessage(*post).messageSend(nil), discordgo.WithContext(sctx))
		cancel()
		if err != nil {
			p.release(g, now)
			errs = append(errs, fmt.Errorf("post to channel %s of guild %s: %w", g.DailyChannel, g.GuildID, err))
			continue
		}
		posted++
	}
	return posted, errors.Join(errs...)
}

// release gives back a claim whose post did not go out, so the next round
// tries again.
func (p *Poster) release(g store.GuildSettings, now time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.st.ReleasePost(ctx, g.GuildID, g.DailyChannel, now); err != nil {
		p.b.logf("daily post: release claim of %s in %s: %v", g.DailyChannel, g.GuildID, err)
	}
}
