package commands

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The daily post: every server that ran /daily setup gets the day's message
// in its channel once its UTC hour has come. Which posts are due, and the
// claim that lets exactly one process send each (whatever the restarts and
// shards), are decided here; the bot only sends what DuePosts returns and
// reports the ones that failed with PostFailed.

// DuePost is one daily post claimed for sending.
type DuePost struct {
	GuildID, ChannelID string
	// Day is the UTC day the post is for (its claim's key).
	Day time.Time
	// Message is what to send.
	Message Response
}

// DuePosts claims, in the name of by (the process, for the store's
// record), every daily post whose server's hour has come at now and that
// no process has claimed today, and returns them with the message to send.
// A post that then fails to send must be given back with PostFailed, so a
// later round tries again. Errors on some servers do not stop the others:
// the posts claimed are returned with the errors joined. (A process that
// dies between the claim and the send loses that day's post: at most once,
// never twice.)
func (s *Service) DuePosts(ctx context.Context, now time.Time, by string) ([]DuePost, error) {
	p := s.playFeature
	if p == nil {
		return nil, errors.New("daily posts: no game store configured")
	}
	now = now.UTC()
	guilds, err := p.dailies.DailyGuilds(ctx)
	if err != nil {
		return nil, fmt.Errorf("daily posts: list servers: %w", err)
	}
	var (
		due  []DuePost
		msg  *Response
		errs []error
	)
	for _, g := range guilds {
		if now.Hour() < g.DailyHour {
			continue
		}
		won, err := p.dailies.ClaimPost(ctx, g.GuildID, g.DailyChannel, now, by, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !won {
			continue
		}
		post := DuePost{GuildID: g.GuildID, ChannelID: g.DailyChannel, Day: now}
		if msg == nil {
			m, err := s.DailyPost(ctx, now)
			if err != nil {
				// Nothing can be sent today until the puzzles can be made:
				// give every claim back for the next round.
				for _, d := range append(due, post) {
					if rerr := s.PostFailed(ctx, d); rerr != nil {
						errs = append(errs, rerr)
					}
				}
				return nil, errors.Join(append(errs, fmt.Errorf("make the post of %s: %w", now.Format(time.DateOnly), err))...)
			}
			msg = &m
		}
		post.Message = *msg
		due = append(due, post)
	}
	return due, errors.Join(errs...)
}

// PostFailed gives back the claim of a post DuePosts returned that did not
// go out, so the next round tries it again. It is bounded by its own short
// timeout, so a cancelled ctx (a shutdown) still releases the claim.
func (s *Service) PostFailed(ctx context.Context, post DuePost) error {
	p := s.playFeature
	if p == nil {
		return errors.New("daily posts: no game store configured")
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := p.dailies.ReleasePost(rctx, post.GuildID, post.ChannelID, post.Day); err != nil {
		return fmt.Errorf("release the claim on the post to channel %s of guild %s: %w", post.ChannelID, post.GuildID, err)
	}
	return nil
}
