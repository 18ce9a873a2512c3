package fakediscord

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
)

// Fault makes matching REST calls fail the way Discord or the network
// sometimes do: a rate limit (429 with retry_after and X-RateLimit
// headers), a server error (500, 502, 503), or a connection cut without an
// answer. Gateway drops are DropGateway's and Burst's business.
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

// ClearFaults spends every injected failure not yet met: Discord is well
// again.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
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

// GatewayStats is what the gateway saw of one shard (shard 0 on the
// unsharded path).
type GatewayStats struct {
	// Identifies and Resumes count the accepted Identify and Resume
	// packets; ResumesRefused the resumes answered with Invalid Session.
	Identifies, Resumes, ResumesRefused int
	// IdentifiesWhileResumable counts the Identify packets sent while the
	// shard still had a session Discord would have resumed: each one is
	// an Identify spent for nothing (Discord allows 1,000 a day).
	IdentifiesWhileResumable int
	// Drops counts the connections the fake cut (DropGateway, Burst,
	// Drop, DropShard).
	Drops int
	// ClientCloses counts the close frames the client sent, by code.
	ClientCloses map[int]int
}

// gwStats is shard's record. s.mu is held.
func (s *Server) gwStats(shard int) *GatewayStats {
	if s.shards.stats == nil {
		s.shards.stats = map[int]*GatewayStats{}
	}
	st := s.shards.stats[shard]
	if st == nil {
		st = &GatewayStats{ClientCloses: map[int]int{}}
		s.shards.stats[shard] = st
	}
	return st
}

// GatewayStats returns what the gateway saw of shard so far (0 for the
// unsharded session).
func (s *Server) GatewayStats(shard int) GatewayStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := *s.gwStats(shard)
	st.ClientCloses = make(map[int]int, len(st.ClientCloses))
	for k, v := range s.shards.stats[shard].ClientCloses {
		st.ClientCloses[k] = v
	}
	return st
}

// clientClosed records the close frame c's client sent. As on Discord, a
// close with 1000 or 1001 ends the session the connection carries: it can
// no longer be resumed.
func (s *Server) clientClosed(c *gwConn, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.session == "" {
		return // closed before it identified or resumed
	}
	s.gwStats(c.shard).ClientCloses[code]++
	if code == websocket.CloseNormalClosure || code == websocket.CloseGoingAway {
		s.endSession(c.shard, c.session)
	}
	s.notify()
}

// endSession makes the session id of shard unresumable. s.mu is held.
func (s *Server) endSession(shard int, id string) {
	if ss := s.shards.sessions[shard]; ss != nil && ss.sessionID == id {
		ss.ended = true
		ss.conn = nil
	}
	if s.sessionID == id {
		s.sessionID = ""
		s.sent = sentLog{}
		s.conn = nil
	}
}

// InvalidateSession ends shard's session (0 for the unsharded one) as
// Discord does after a session times out: its next Resume gets Invalid
// Session and the client must identify. The connection, if any, stays up.
func (s *Server) InvalidateSession(shard int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.shards.sessions[shard]; s.shards.count != 0 && ss != nil {
		ss.ended = true
	} else if shard == 0 {
		s.sessionID = ""
		s.sent = sentLog{}
	}
	s.notify()
}

// GatewayDrop is one gateway connection failure.
type GatewayDrop struct {
	// Shard is the shard whose connection fails (0 for the unsharded
	// session).
	Shard int
	// Code is the close code the fake sends before cutting the
	// connection: 0 (or 1006) cuts it without a close frame, as a network
	// failure does; 4000 is Discord's "unknown error, reconnect", 1001 or
	// 1012 a gateway restart: the session stays resumable. 4007 (invalid
	// seq) and 4009 (session timed out) end the session, as on Discord.
	Code int
	// Wait makes a drop that finds no connection up (the client is
	// between connections) wait for the next one: it cuts that connection
	// when its Identify or Resume arrives, unanswered. Without it such a
	// drop does nothing.
	Wait bool
}

// DropGateway cuts shard's gateway connection (see GatewayDrop.Wait for
// when none is up). It reports whether a live connection was cut now.
func (s *Server) DropGateway(d GatewayDrop) bool {
	s.mu.Lock()
	var c *gwConn
	if s.shards.count != 0 {
		if ss := s.shards.sessions[d.Shard]; ss != nil {
			c, ss.conn = ss.conn, nil
		}
	} else if d.Shard == 0 {
		c, s.conn = s.conn, nil
	}
	if c == nil && !d.Wait {
		s.mu.Unlock()
		return false
	}
	if c == nil {
		if s.shards.armed == nil {
			s.shards.armed = map[int][]int{}
		}
		s.shards.armed[d.Shard] = append(s.shards.armed[d.Shard], d.Code)
		s.mu.Unlock()
		return false
	}
	s.gwStats(d.Shard).Drops++
	if d.Code == 4007 || d.Code == 4009 {
		s.endSession(c.shard, c.session)
	}
	s.notify()
	s.mu.Unlock()
	c.closeWith(d.Code)
	return true
}

// armedDrop spends a drop waiting for shard's next connection on c, whose
// client just sent Identify or Resume d: true means c was cut.
func (s *Server) armedDrop(c *gwConn, d json.RawMessage) bool {
	shard := 0
	var p struct {
		Shard     *[2]int `json:"shard"`
		SessionID string  `json:"session_id"`
	}
	json.Unmarshal(d, &p)
	s.mu.Lock()
	switch {
	case p.Shard != nil && p.Shard[1] > 1:
		shard = p.Shard[0]
	case p.SessionID != "":
		for id, ss := range s.shards.sessions {
			if ss.sessionID == p.SessionID {
				shard = id
			}
		}
	}
	codes := s.shards.armed[shard]
	if len(codes) == 0 {
		s.mu.Unlock()
		return false
	}
	code := codes[0]
	s.shards.armed[shard] = codes[1:]
	s.gwStats(shard).Drops++
	s.notify()
	s.mu.Unlock()
	c.closeWith(code)
	return true
}

// Burst is a flapping gateway: Drops connection failures of Shards
// within Within.
type Burst struct {
	// Shards lists the shards that flap together (nil: shard 0, or the
	// unsharded session).
	Shards []int
	// Drops is how many times each shard's connection is cut.
	Drops int
	// Within is the time the drops are spread over, at random moments.
	Within time.Duration
	// Codes are the close codes of the drops, used in turn (see
	// GatewayDrop.Code); nil cuts without a close frame.
	Codes []int
	// Rand picks the moments (nil: evenly spaced).
	Rand *rand.Rand
	// Wait makes a drop that finds the client between connections cut
	// its next one (GatewayDrop.Wait).
	Wait bool
	// After, when set, is called after each drop with its number (from
	// 0): a test injects the events that must survive the drops there.
	After func(i int)
}

// Burst runs b and returns when its last drop is done (or waiting for the
// client's next connection; see DropGateway).
func (s *Server) Burst(b Burst) {
	shards := b.Shards
	if len(shards) == 0 {
		shards = []int{0}
	}
	at := make([]time.Duration, b.Drops)
	for i := range at {
		if b.Rand != nil {
			at[i] = time.Duration(b.Rand.Int64N(int64(b.Within) + 1))
		} else if b.Drops > 1 {
			at[i] = b.Within * time.Duration(i) / time.Duration(b.Drops-1)
		}
	}
	slices.Sort(at)
	start := time.Now()
	for i, d := range at {
		time.Sleep(time.Until(start.Add(d)))
		code := 0
		if len(b.Codes) > 0 {
			code = b.Codes[i%len(b.Codes)]
		}
		for _, sh := range shards {
			s.DropGateway(GatewayDrop{Shard: sh, Code: code, Wait: b.Wait})
		}
		if b.After != nil {
			b.After(i)
		}
	}
}

// StallHeartbeats makes the gateway stop (true) or resume (false)
// acknowledging heartbeats, as a connection that died without either side
// noticing (a "zombie"): the client is expected to reconnect and resume.
func (s *Server) StallHeartbeats(stall bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shards.stalled = stall
}
