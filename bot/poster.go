package bot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"sudokubot/commands"
)

// DailyPosts decides which daily posts are due and holds their claims;
// *commands.Service implements it. The poster only sends.
type DailyPosts interface {
	// DuePosts claims and returns the posts due at now, for by.
	DuePosts(ctx context.Context, now time.Time, by string) ([]commands.DuePost, error)
	// PostFailed gives back the claim of a post that did not go out.
	PostFailed(ctx context.Context, post commands.DuePost) error
}

// DefaultPostEvery is how often the poster looks for servers whose hour
// has come: a minute keeps the post within a minute of the hour.
const DefaultPostEvery = time.Minute

// Poster sends the day's daily post to every server whose hour has come,
// as DailyPosts decides; a post that fails to send is reported back, so its
// claim is released and the next round tries again.
type Poster struct {
	b     *Bot
	posts DailyPosts
	every time.Duration
	by    string
}

// NewPoster returns a poster that sends through b's session, checking every
// `every` (DefaultPostEvery when zero).
func NewPoster(b *Bot, posts DailyPosts, every time.Duration) *Poster {
	if every <= 0 {
		every = DefaultPostEvery
	}
	host, _ := os.Hostname()
	return &Poster{b: b, posts: posts, every: every, by: fmt.Sprintf("%s pid %d", host, os.Getpid())}
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

// PostDue sends the posts that are due now and returns how many went out.
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
	due, err := p.posts.DuePosts(ctx, p.b.now(), p.by)
	errs := []error{err}
	sent := 0
	for _, post := range due {
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		nonce := keyNonce('d', post.GuildID+"/"+post.ChannelID+"/"+post.Day.Format(time.DateOnly))
		_, err := p.b.channels.post(sctx, post.ChannelID, toMessage(post.Message), nil, nonce)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("post to channel %s of guild %s: %w", post.ChannelID, post.GuildID, err))
			if err := p.posts.PostFailed(ctx, post); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}
