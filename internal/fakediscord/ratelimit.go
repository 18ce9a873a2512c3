package fakediscord

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Per-channel rate limits, as Discord applies them to a bot: message
// creates in a channel (or thread) share one bucket, edits of any message
// in it another. Every answer on those routes carries Discord's headers
// (X-RateLimit-Limit, -Remaining, -Reset, -Reset-After, -Bucket); a call
// over the limit gets 429 with retry_after in its body, Retry-After and
// X-RateLimit-Scope: user, and does not happen. A bucket's window starts
// with its first call and lasts Per; Discord counts refused calls too, so
// the fake does.

// RateLimit is a bucket's size: Limit calls per Per. A negative Limit
// switches the bucket off (no headers, no 429).
type RateLimit struct {
	Limit int
	Per   time.Duration
}

// DefaultChannelRate is Discord's per-channel bucket for messages and for
// edits: 5 per 5 seconds.
var DefaultChannelRate = RateLimit{Limit: 5, Per: 5 * time.Second}

// bucket is one rate-limit bucket's window.
type bucket struct {
	start time.Time
	used  int
}

// RateLimits is what the per-channel limits did.
type RateLimits struct {
	// Limited counts the calls answered 429 by a bucket (injected faults
	// are not counted).
	Limited int
	// ByRoute counts them by route: "create" or "edit".
	ByRoute map[string]int
}

// RateLimited returns what the per-channel limits refused so far: a test
// that drives many edits asserts it stays at zero.
func (s *Server) RateLimited() RateLimits {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := RateLimits{Limited: s.limited, ByRoute: map[string]int{}}
	for k, v := range s.limitedBy {
		out.ByRoute[k] = v
	}
	return out
}

// rateRoute names the per-channel bucket a call falls in ("" for none)
// and its channel.
func rateRoute(c *Call) (route, channel string) {
	p, ok := strings.CutPrefix(c.Path, "/api/v9/")
	if !ok {
		return "", ""
	}
	parts := strings.Split(p, "/")
	if len(parts) < 3 || parts[0] != "channels" || parts[2] != "messages" {
		return "", ""
	}
	switch {
	case len(parts) == 3 && c.Method == http.MethodPost:
		return "create", parts[1]
	case len(parts) == 4 && c.Method == http.MethodPatch:
		return "edit", parts[1]
	}
	return "", ""
}

// bucketHash is the X-RateLimit-Bucket of a route: Discord's hashes are
// opaque and shared by every channel; the channel makes the bucket.
var bucketHash = map[string]string{"create": "80c17d2f203122d936070c88c8d10f33", "edit": "2c2a4b6d8e1f3a5c7e9b0d2f4a6c8e1b"}

// rateLimit spends one call of c's bucket. It sets the headers to send
// and reports whether the call is over the limit.
func (s *Server) rateLimit(c *Call, h http.Header) (limited bool, retryAfter time.Duration) {
	route, channel := rateRoute(c)
	if route == "" {
		return false, 0
	}
	rl := s.opts.MessageRate
	if route == "edit" {
		rl = s.opts.EditRate
	}
	if rl.Limit < 0 {
		return false, 0
	}
	now := time.Now()
	s.mu.Lock()
	key := route + "/" + channel
	b := s.buckets[key]
	if b == nil || !now.Before(b.start.Add(rl.Per)) {
		b = &bucket{start: now}
		s.buckets[key] = b
	}
	reset := b.start.Add(rl.Per)
	if b.used >= rl.Limit {
		limited = true
		s.limited++
		s.limitedBy[route]++
	} else {
		b.used++
	}
	remaining := rl.Limit - b.used
	s.mu.Unlock()
	after := reset.Sub(now)
	h.Set("X-RateLimit-Limit", strconv.Itoa(rl.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after.Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", bucketHash[route])
	if limited {
		h.Set("X-RateLimit-Scope", "user")
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
	}
	return limited, after
}

// writeLimited answers a call over its bucket's limit.
func writeLimited(w http.ResponseWriter, retryAfter time.Duration) []byte {
	body, _ := json.Marshal(map[string]any{"message": "You are being rate limited.", "retry_after": math.Round(retryAfter.Seconds()*1000) / 1000, "global": false, "code": 0})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(body)
	return body
}
