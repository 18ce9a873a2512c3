package fakediscord

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Fault makes matching REST calls fail the way Discord or the network
// sometimes do: a rate limit (429 with retry_after and X-RateLimit
// headers), a server error (500, 502, 503), or a connection cut without an
// answer. Gateway drops are Drop's business.
type Fault struct {
	// Match selects the calls that fail, judged on the request alone
	// (method, path, body; Call.IsCallback and friends work). Nil matches
	// every call.
	Match func(Call) bool
	// Status is the HTTP status of the failure: 429, 500, 502, 503, ...
	// Ignored with Drop.
	Status int
	// Times is how many matching calls fail before the fault is spent (0
	// means 1).
	Times int
	// RetryAfter is the wait a 429 asks for (default 100 ms).
	RetryAfter time.Duration
	// Global marks a 429 as the global rate limit.
	Global bool
	// Drop cuts the connection without an answer: the client sees a
	// network error.
	Drop bool
	// Applied lets the call take effect before it fails: the request
	// reached Discord and the answer was lost on the way back (a retry
	// then meets the state the first attempt left).
	Applied bool
}

// fault is an injected fault and how many more calls it fails.
type fault struct {
	Fault
	left int
}

// Inject adds a fault; faults are tried in the order injected, and each
// call meets at most one.
func (s *Server) Inject(f Fault) {
	if f.Times <= 0 {
		f.Times = 1
	}
	if f.RetryAfter <= 0 {
		f.RetryAfter = 100 * time.Millisecond
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{Fault: f, left: f.Times})
}

// FaultsLeft is how many injected failures have not happened yet.
func (s *Server) FaultsLeft() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.faults {
		n += f.left
	}
	return n
}

// takeFault returns the fault c meets, spending one of its failures, or nil.
func (s *Server) takeFault(c Call) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.left > 0 && (f.Match == nil || f.Match(c)) {
			f.left--
			ff := f.Fault
			return &ff
		}
	}
	return nil
}

// writeFault answers with the fault's failure. It reports the status
// recorded for the call (0 for a cut connection).
func writeFault(w http.ResponseWriter, f *Fault) int {
	if f.Drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return 0
			}
		}
		// No hijacking (HTTP/2): the closest is an aborted handler.
		panic(http.ErrAbortHandler)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if f.Status == http.StatusTooManyRequests {
		secs := f.RetryAfter.Seconds()
		scope := "user"
		if f.Global {
			scope = "global"
			h.Set("X-RateLimit-Global", "true")
		}
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(f.RetryAfter).UnixMilli())/1000, 'f', 3, 64))
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
		h.Set("X-RateLimit-Bucket", "fakebucket")
		h.Set("X-RateLimit-Scope", scope)
		w.WriteHeader(f.Status)
		json.NewEncoder(w).Encode(map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": f.Global, "code": 0})
		return f.Status
	}
	w.WriteHeader(f.Status)
	json.NewEncoder(w).Encode(map[string]any{"message": strconv.Itoa(f.Status) + ": " + http.StatusText(f.Status), "code": 0})
	return f.Status
}
