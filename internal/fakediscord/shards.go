package fakediscord

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/gorilla/websocket"
)

// Sharding as Discord does it: GET /gateway/bot recommends a shard count
// and says how many shards may identify at once (max_concurrency); each
// session identifies with "shard": [id, count]; guild events go to shard
// (guild_id >> 22) % count, and direct messages to shard 0. An Identify
// without a shard (or with count 1) is the plain single session the rest
// of the fake serves.

// shardState is the fake's sharded gateway. Guarded by Server.mu.
type shardState struct {
	recommended    int // for /gateway/bot; 0 means 1
	maxConcurrency int // for /gateway/bot; 0 means 1
	count          int // count of the sharded sessions; 0 until one identifies
	sessions       map[int]*shardSession
	identifies     []ShardIdentify
	routed         []Route

	// The gateway's record and faults, sharded or not (faults.go): by
	// shard (0 on the unsharded path).
	stats   map[int]*GatewayStats
	armed   map[int][]int // close codes of drops waiting for a connection
	stalled bool          // heartbeats go unacknowledged
}

// shardSession is one shard's session.
type shardSession struct {
	conn      *gwConn
	sessionID string
	seq       int64
	sent      sentLog
	ended     bool // closed by its client with 1000/1001, or invalidated
}

// ShardIdentify is one accepted sharded Identify.
type ShardIdentify struct {
	Shard, Count int
	At           time.Time
}

// Route is one event dispatched to a shard.
type Route struct {
	Type, GuildID string
	Shard         int
}

// SetShards sets what GET /gateway/bot answers: the recommended shard
// count and max_concurrency.
func (s *Server) SetShards(recommended, maxConcurrency int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shards.recommended, s.shards.maxConcurrency = recommended, maxConcurrency
}

// gatewayBot is the body of GET /gateway/bot.
func (s *Server) gatewayBot() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]any{"url": s.wsURL(), "shards": max(s.shards.recommended, 1), "session_start_limit": map[string]any{
		"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": max(s.shards.maxConcurrency, 1)}}
}

// ShardOf is the shard that receives guildID's events among count shards.
func ShardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// GuildOnShard returns the k-th (k ≥ 0) guild id whose events go to shard
// among count shards.
func GuildOnShard(shard, count, k int) string {
	return strconv.FormatUint(uint64(k*count+shard)<<22|4242, 10)
}

// identifyShard handles a sharded Identify; handled is false for an
// unsharded one (the caller serves it). ok false closes the connection.
func (s *Server) identifyShard(c *gwConn, d json.RawMessage) (handled, ok bool) {
	var id struct {
		Shard *[2]int `json:"shard"`
	}
	json.Unmarshal(d, &id)
	if id.Shard == nil || id.Shard[1] <= 1 {
		return false, false
	}
	shard, count := id.Shard[0], id.Shard[1]
	s.mu.Lock()
	defer s.mu.Unlock()
	if shard < 0 || shard >= count || (s.shards.count != 0 && s.shards.count != count) {
		c.wmu.Lock()
		c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4010, "Invalid shard."))
		c.wmu.Unlock()
		return true, false
	}
	if s.shards.sessions == nil {
		s.shards.sessions = map[int]*shardSession{}
	}
	s.shards.count = count
	var raw map[string]any
	json.Unmarshal(d, &raw)
	s.identify = raw
	s.identifies++
	sess := &shardSession{conn: c, sessionID: "session-" + s.id()}
	st := s.gwStats(shard)
	st.Identifies++
	old := s.shards.sessions[shard]
	if old != nil && !old.ended {
		st.IdentifiesWhileResumable++
	}
	if old != nil && old.conn != nil && old.conn != c {
		go old.conn.kill() // a shard identifies once: the newer session wins
	}
	c.shard, c.session = shard, sess.sessionID
	s.shards.sessions[shard] = sess
	s.shards.identifies = append(s.shards.identifies, ShardIdentify{Shard: shard, Count: count, At: time.Now()})
	guilds := []any{}
	for _, g := range s.opts.Guilds {
		if ShardOf(g, count) == shard {
			guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
		}
	}
	ready := map[string]any{
		"v": 9, "session_id": sess.sessionID, "user": s.opts.BotUser, "guilds": guilds,
		"application":        map[string]any{"id": s.opts.AppID, "flags": 0},
		"resume_gateway_url": s.wsURL(), "private_channels": []any{}, "shard": []int{shard, count},
	}
	sess.seq++
	seq := sess.seq
	err := c.write(must(frame{Op: 0, T: "READY", S: &seq, D: must(ready)}))
	s.notify()
	return true, err == nil
}

// resumeShard resumes a shard's session; handled is false when the
// session id is not a shard's.
func (s *Server) resumeShard(c *gwConn, d json.RawMessage) (handled, ok bool) {
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	json.Unmarshal(d, &rs)
	s.mu.Lock()
	defer s.mu.Unlock()
	var sess *shardSession
	shard := -1
	for id, ss := range s.shards.sessions {
		if rs.SessionID != "" && ss.sessionID == rs.SessionID {
			sess, shard = ss, id
		}
	}
	if sess == nil {
		return false, false
	}
	if sess.ended || (s.opts.Token != "" && rs.Token != "Bot "+s.opts.Token) {
		s.gwStats(shard).ResumesRefused++
		s.notify()
		return true, c.write([]byte(`{"op":9,"d":false}`)) == nil
	}
	s.resumes++
	s.gwStats(shard).Resumes++
	sess.conn = c
	c.shard, c.session = shard, sess.sessionID
	out := resumeFrames(&sess.sent, rs.Seq, &sess.seq)
	s.notify()
	for _, b := range out {
		if c.write(b) != nil {
			return true, false
		}
	}
	return true, true
}

// dispatchSharded sends an event to the shard its guild belongs to, once
// sessions are sharded; handled is false otherwise.
func (s *Server) dispatchSharded(t string, raw json.RawMessage) (handled bool, err error) {
	var g struct {
		GuildID string `json:"guild_id"`
	}
	json.Unmarshal(raw, &g)
	s.mu.Lock()
	if s.shards.count == 0 {
		s.mu.Unlock()
		return false, nil
	}
	shard := ShardOf(g.GuildID, s.shards.count)
	sess := s.shards.sessions[shard]
	if sess == nil || sess.ended {
		s.mu.Unlock()
		return true, ErrNotConnected
	}
	sess.seq++
	seq := sess.seq
	b, merr := json.Marshal(frame{Op: 0, T: t, S: &seq, D: raw})
	if merr != nil {
		b = []byte(`{"op":0,"t":"` + t + `","s":` + itoa(seq) + `,"d":` + string(raw) + `}`)
	}
	s.shards.routed = append(s.shards.routed, Route{Type: t, GuildID: g.GuildID, Shard: shard})
	sess.sent.add(seq, b)
	c := sess.conn
	s.mu.Unlock()
	if c != nil {
		c.write(b) // a failed write is replayed on resume, as any missed one
	}
	return true, nil
}

// forgetShardConn marks c's shard as disconnected. s.mu is held.
func (s *Server) forgetShardConn(c *gwConn) {
	for _, ss := range s.shards.sessions {
		if ss.conn == c {
			ss.conn = nil
		}
	}
}

// ShardsConnected lists the shards whose session is connected now.
func (s *Server) ShardsConnected() map[int]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int]bool{}
	for id, ss := range s.shards.sessions {
		if ss.conn != nil {
			out[id] = true
		}
	}
	return out
}

// WaitShards waits until every shard in ids has a connected session.
func (s *Server) WaitShards(timeout time.Duration, ids ...int) bool {
	return s.WaitFor(timeout, func([]Call) bool {
		for _, id := range ids {
			if ss := s.shards.sessions[id]; ss == nil || ss.conn == nil {
				return false
			}
		}
		return true
	})
}

// WaitShardsDown waits until no shard in ids has a connected session.
func (s *Server) WaitShardsDown(timeout time.Duration, ids ...int) bool {
	return s.WaitFor(timeout, func([]Call) bool {
		for _, id := range ids {
			if ss := s.shards.sessions[id]; ss != nil && ss.conn != nil {
				return false
			}
		}
		return true
	})
}

// ShardIdentifies lists the sharded Identify packets accepted, in order.
func (s *Server) ShardIdentifies() []ShardIdentify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ShardIdentify(nil), s.shards.identifies...)
}

// Routed lists the events dispatched to shards, in order.
func (s *Server) Routed() []Route {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Route(nil), s.shards.routed...)
}

// DropShard cuts shard's connection without a close frame, as a network
// failure or a killed process would.
func (s *Server) DropShard(shard int) {
	s.mu.Lock()
	var c *gwConn
	if ss := s.shards.sessions[shard]; ss != nil {
		c, ss.conn = ss.conn, nil
	}
	if c != nil {
		s.gwStats(shard).Drops++
	}
	s.mu.Unlock()
	if c != nil {
		c.kill()
	}
}
