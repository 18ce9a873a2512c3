package bot

import (
	"math"
	"sync"
	"time"
)

// The limiter is hand-rolled rather than golang.org/x/time/rate because each
// user needs more than a bucket (a job-in-flight flag, deadline strikes and a
// cool-down) under one lock, the clock must be injectable for tests, and the
// bucket itself is a dozen lines; it also keeps the module free of one more
// dependency.

// denial says why a request was turned away and when to come back.
type denial int

const (
	allowed     denial = iota
	rateLimited        // the token bucket is empty
	busyUser           // the user already has a heavy job in flight
	coolingOff         // the user hit the deadline too often
)

// userLimit is one user's state.
type userLimit struct {
	tokens    float64
	last      time.Time // when tokens was computed
	inFlight  bool
	busyUntil time.Time // when the job in flight will have hit its deadline
	strikes   int
	lastTry   time.Time // last deadline hit
	coolUntil time.Time
	noticed   time.Time // last over-limit notice sent for a message (not an interaction)
}

// limiter holds per-user token buckets, in-flight flags and cool-downs.
type limiter struct {
	perSec       float64
	burst        float64
	strikes      int
	strikeWindow time.Duration
	cooldown     time.Duration

	mu    sync.Mutex
	users map[string]*userLimit
}

func newLimiter(c Config) *limiter {
	return &limiter{
		perSec:       c.RatePerMinute / 60,
		burst:        float64(c.RateBurst),
		strikes:      c.Strikes,
		strikeWindow: c.StrikeWindow,
		cooldown:     c.Cooldown,
		users:        make(map[string]*userLimit),
	}
}

// user returns the state of id, creating it with a full bucket. mu is held.
func (l *limiter) user(id string, now time.Time) *userLimit {
	u := l.users[id]
	if u == nil {
		u = &userLimit{tokens: l.burst, last: now}
		l.users[id] = u
	}
	// Refill.
	if el := now.Sub(u.last); el > 0 {
		u.tokens = math.Min(l.burst, u.tokens+el.Seconds()*l.perSec)
		u.last = now
	}
	return u
}

// take spends one token of user id; when heavy it also claims the user's
// single in-flight slot (for at most jobTime), to be given back with done.
// It returns allowed, or why not and how long until trying again makes
// sense.
func (l *limiter) take(id string, heavy bool, now time.Time, jobTime time.Duration) (denial, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.user(id, now)
	if now.Before(u.coolUntil) {
		return coolingOff, u.coolUntil.Sub(now)
	}
	if heavy && u.inFlight {
		return busyUser, u.busyUntil.Sub(now)
	}
	if u.tokens < 1 {
		wait := time.Duration((1 - u.tokens) / l.perSec * float64(time.Second))
		return rateLimited, wait.Round(time.Millisecond) // no 5.999999999s

	}
	u.tokens--
	if heavy {
		u.inFlight = true
		u.busyUntil = now.Add(jobTime)
	}
	return allowed, 0
}

// done gives back the in-flight slot of a heavy job. hitDeadline records a
// strike; enough strikes close together start a cool-down. It reports
// whether a cool-down started.
func (l *limiter) done(id string, hitDeadline bool, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.user(id, now)
	u.inFlight = false
	if !hitDeadline {
		return false
	}
	if now.Sub(u.lastTry) > l.strikeWindow {
		u.strikes = 0
	}
	u.strikes++
	u.lastTry = now
	if u.strikes >= l.strikes {
		u.strikes = 0
		u.coolUntil = now.Add(l.cooldown)
		return true
	}
	return false
}

// release gives back a heavy slot that was claimed but never ran (the queue
// was full, or the bot is shutting down), refunding its token too.
func (l *limiter) release(id string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.user(id, now)
	u.inFlight = false
	u.tokens = math.Min(l.burst, u.tokens+1)
}

// shouldNotice reports whether an over-limit notice may be posted for a
// message now. Interactions always get an (ephemeral) answer, but a reply
// to every message of a flood would make the bot the flood, so messages get
// one notice per window.
func (l *limiter) shouldNotice(id string, window time.Duration, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.user(id, now)
	if now.Sub(u.noticed) < window {
		return false
	}
	u.noticed = now
	return true
}

// prune forgets users whose state is back to the default (full bucket,
// nothing in flight, no cool-down or strikes pending), so the map stays as
// small as the set of recently active users.
func (l *limiter) prune(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, u := range l.users {
		full := u.tokens+now.Sub(u.last).Seconds()*l.perSec >= l.burst
		if full && !u.inFlight && now.After(u.coolUntil) && now.Sub(u.lastTry) > l.strikeWindow && now.Sub(u.noticed) > time.Hour {
			delete(l.users, id)
		}
	}
}

// busy reports whether user id has a heavy job in flight.
func (l *limiter) busy(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.users[id]
	return u != nil && u.inFlight
}

// size is the number of users tracked (for tests).
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.users)
}
