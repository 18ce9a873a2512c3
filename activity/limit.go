package activity

import (
	"math"
	"sync"
	"time"
)

// limiter is a token bucket per user: perMinute tokens a minute, up to
// burst saved. Buckets full again are dropped, so it holds only users who
// acted within the last refill time.
type limiter struct {
	mu        sync.Mutex
	perMinute float64
	burst     float64
	buckets   map[string]*bucket
	sweptAt   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(perMinute, burst int) *limiter {
	return &limiter{perMinute: float64(perMinute), burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow takes a token for user at now, or says how long until one is
// there.
func (l *limiter) allow(user string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rate := l.perMinute / 60 // tokens a second
	if now.Sub(l.sweptAt) > time.Minute {
		full := time.Duration(l.burst / rate * float64(time.Second))
		for u, b := range l.buckets {
			if now.Sub(b.at) > full {
				delete(l.buckets, u)
			}
		}
		l.sweptAt = now
	}
	b := l.buckets[user]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[user] = b
	}
	if d := now.Sub(b.at).Seconds(); d > 0 {
		b.tokens = math.Min(l.burst, b.tokens+d*rate)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / rate * float64(time.Second))
	return false, wait.Round(time.Second) + time.Second
}
