package fakediscord

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The gateway speaks the part of Discord's protocol a bot uses: Hello
// (op 10) on connect; Identify (op 2) answered by a READY dispatch; Resume
// (op 6) answered by the dispatches after the client's seq, then RESUMED;
// Heartbeat (op 1) answered by an ACK (op 11); dispatches (op 0) with
// increasing sequence numbers. Frames are uncompressed JSON text.
//
// As Discord does, it ends a session whose client closes a connection with
// code 1000 or 1001: a later Resume of it gets Invalid Session (op 9,
// d=false). Closing with any other code (4000, 1012, ...) or losing the
// connection keeps the session resumable. Drops and bursts of drops are
// injected with DropGateway and Burst (faults.go).

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gwConn is one gateway connection; gorilla allows one writer at a time.
type gwConn struct {
	ws   *websocket.Conn
	wmu  sync.Mutex
	once sync.Once
	// shard and session are what the connection carries once it has
	// identified or resumed (shard 0 on the unsharded path). Guarded by
	// Server.mu.
	shard   int
	session string
}

func (c *gwConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

// kill closes the connection without a close frame, as a network failure.
func (c *gwConn) kill() {
	c.once.Do(func() { c.ws.UnderlyingConn().Close() })
}

// closeWith sends a close frame with code, then cuts the connection; code
// 0 (or 1006, which is never sent on the wire) cuts it without a frame.
func (c *gwConn) closeWith(code int) {
	if code != 0 && code != websocket.CloseAbnormalClosure {
		c.wmu.Lock()
		c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
		c.wmu.Unlock()
	}
	c.kill()
}

type frame struct {
	Op   int             `json:"op"`
	D    json.RawMessage `json:"d"`
	S    *int64          `json:"s,omitempty"`
	T    string          `json:"t,omitempty"`
	Seq  int64           `json:"-"`
	Sent time.Time       `json:"-"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws}
	// A client's close frame is recorded before it is answered, so a
	// client that waits for the answer finds its session ended.
	ws.SetCloseHandler(func(code int, text string) error {
		s.clientClosed(c, code)
		c.wmu.Lock()
		defer c.wmu.Unlock()
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
		return nil
	})
	s.mu.Lock()
	s.conns[c] = true
	s.mu.Unlock()
	defer func() {
		c.kill()
		s.mu.Lock()
		delete(s.conns, c)
		if s.conn == c {
			s.conn = nil
		}
		s.forgetShardConn(c)
		s.notify()
		s.mu.Unlock()
	}()

	hello := must(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}})
	if c.write(hello) != nil {
		return
	}
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var f frame
		if json.Unmarshal(msg, &f) != nil {
			continue
		}
		switch f.Op {
		case 1:
			s.mu.Lock()
			s.heartbeats++
			stalled := s.shards.stalled
			s.notify()
			s.mu.Unlock()
			if !stalled && c.write([]byte(`{"op":11}`)) != nil {
				return
			}
		case 2:
			if s.armedDrop(c, f.D) {
				return
			}
			if !s.onIdentify(c, f.D) {
				return
			}
		case 6:
			if s.armedDrop(c, f.D) {
				return
			}
			if !s.onResume(c, f.D) {
				return
			}
		}
	}
}

// onIdentify starts a new session and sends READY; false closes the
// connection.
func (s *Server) onIdentify(c *gwConn, d json.RawMessage) bool {
	var id struct {
		Token   string `json:"token"`
		Intents int    `json:"intents"`
	}
	json.Unmarshal(d, &id)
	if s.opts.Token != "" && id.Token != "Bot "+s.opts.Token {
		c.wmu.Lock()
		c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."))
		c.wmu.Unlock()
		return false
	}
	if handled, ok := s.identifyShard(c, d); handled {
		return ok
	}
	guilds := []any{}
	for _, g := range s.opts.Guilds {
		guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
	}
	s.mu.Lock()
	var raw map[string]any
	json.Unmarshal(d, &raw)
	s.identify = raw
	s.identifies++
	st := s.gwStats(0)
	st.Identifies++
	if s.sessionID != "" {
		st.IdentifiesWhileResumable++
	}
	s.sessionID = "session-" + s.id()
	c.shard, c.session = 0, s.sessionID
	s.seq = 0
	s.sent = sentLog{}
	s.conn = c
	ready := map[string]any{
		"v": 9, "session_id": s.sessionID, "user": s.opts.BotUser, "guilds": guilds,
		"application":        map[string]any{"id": s.opts.AppID, "flags": 0},
		"resume_gateway_url": s.wsURL(), "private_channels": []any{},
	}
	// Written under the lock, so no injected event overtakes READY.
	defer s.mu.Unlock()
	err := c.write(s.dispatchFrame("READY", must(ready)))
	s.notify()
	return err == nil
}

// sentLog keeps a session's dispatches for Resume. Discord replays every
// dispatch numbered after the last one the client says it has, whether
// it was never sent or went out on a connection that died before the
// client read it.
type sentLog struct {
	frames []sentFrame
}

type sentFrame struct {
	seq int64
	b   []byte
}

// sentLogMax is how many dispatches a session keeps for replay.
const sentLogMax = 1000

func (l *sentLog) add(seq int64, b []byte) {
	if len(l.frames) == sentLogMax {
		l.frames = append(l.frames[:0], l.frames[1:]...)
	}
	l.frames = append(l.frames, sentFrame{seq, b})
}

// after returns the dispatches numbered after seq, in order.
func (l *sentLog) after(seq int64) [][]byte {
	var out [][]byte
	for _, f := range l.frames {
		if f.seq > seq {
			out = append(out, f.b)
		}
	}
	return out
}

// resumeFrames is what a resumed session gets, as Discord sends it: the
// dispatches after the client's seq, then RESUMED (numbered next).
func resumeFrames(l *sentLog, clientSeq int64, seq *int64) [][]byte {
	out := l.after(clientSeq)
	*seq++
	n := *seq
	return append(out, must(frame{Op: 0, T: "RESUMED", S: &n, D: []byte(`{}`)}))
}

// onResume continues the session: what the client missed, then RESUMED.
func (s *Server) onResume(c *gwConn, d json.RawMessage) bool {
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	json.Unmarshal(d, &rs)
	if handled, ok := s.resumeShard(c, d); handled {
		return ok
	}
	s.mu.Lock()
	if rs.SessionID == "" || rs.SessionID != s.sessionID || (s.opts.Token != "" && rs.Token != "Bot "+s.opts.Token) {
		s.gwStats(0).ResumesRefused++
		s.notify()
		s.mu.Unlock()
		// Invalid session, not resumable: the client must identify again.
		return c.write([]byte(`{"op":9,"d":false}`)) == nil
	}
	defer s.mu.Unlock()
	s.resumes++
	s.gwStats(0).Resumes++
	s.conn = c
	c.shard, c.session = 0, s.sessionID
	out := resumeFrames(&s.sent, rs.Seq, &s.seq)
	s.notify()
	for _, b := range out {
		if c.write(b) != nil {
			return false
		}
	}
	return true
}

// dispatchFrame numbers a dispatch. s.mu is held.
func (s *Server) dispatchFrame(t string, d []byte) []byte {
	s.seq++
	seq := s.seq
	return must(frame{Op: 0, T: t, S: &seq, D: d})
}

// ErrNotConnected is returned when an event cannot be queued because no
// session was ever identified.
var ErrNotConnected = errors.New("fakediscord: no gateway session")

// Dispatch sends an event (op 0) of type t with data d (any JSON value, or
// json.RawMessage to send bytes as they are, malformed included). The
// session keeps it: a Resume replays it if the client had not read it, as
// Discord does, whether the connection was down or died under the write.
func (s *Server) Dispatch(t string, d any) error {
	raw, ok := d.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(d); err != nil {
			return err
		}
	}
	if handled, err := s.dispatchSharded(t, raw); handled {
		return err
	}
	s.mu.Lock()
	if s.sessionID == "" {
		s.mu.Unlock()
		return ErrNotConnected
	}
	f := frame{Op: 0, T: t, D: raw}
	s.seq++
	seq := s.seq
	f.S = &seq
	b, err := json.Marshal(f)
	if err != nil {
		// Malformed data: write the frame by hand so the client sees it.
		b = []byte(`{"op":0,"t":"` + t + `","s":` + itoa(seq) + `,"d":` + string(raw) + `}`)
	}
	s.sent.add(seq, b)
	c := s.conn
	s.mu.Unlock()
	if c != nil {
		c.write(b) // a failed write is replayed on resume, as any missed one
	}
	return nil
}

// SendRaw writes bytes as one gateway text frame (a malformed frame, say).
func (s *Server) SendRaw(b []byte) error {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return ErrNotConnected
	}
	return c.write(b)
}

// Drop cuts the current gateway connection without a close frame, as a
// network failure would; the client is expected to resume.
func (s *Server) Drop() {
	s.mu.Lock()
	c := s.conn
	s.conn = nil
	if c != nil {
		s.gwStats(0).Drops++
	}
	s.mu.Unlock()
	if c != nil {
		c.kill()
	}
}

// Sessions reports how many Identify and Resume packets the gateway
// accepted, and how many heartbeats it acknowledged.
func (s *Server) Sessions() (identifies, resumes, heartbeats int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies, s.resumes, s.heartbeats
}

// Identify is the last Identify payload received (token included).
func (s *Server) Identify() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identify
}

// WaitSessions waits until at least identifies Identify and resumes Resume
// packets were accepted.
func (s *Server) WaitSessions(timeout time.Duration, identifies, resumes int) bool {
	return s.WaitFor(timeout, func([]Call) bool {
		return s.identifies >= identifies && s.resumes >= resumes && s.conn != nil
	})
}

// Connected reports whether a gateway session is live.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn != nil
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
