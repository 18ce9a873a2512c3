package fakediscord

import (
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// identifyAs connects and identifies (as shard of count when count > 1),
// returning the connection and the session id.
func identifyAs(t *testing.T, s *Server, shard, count int) (*websocket.Conn, string) {
	t.Helper()
	ws := openGateway(t, s)
	d := map[string]any{"token": "Bot tok", "intents": 513}
	if count > 1 {
		d["shard"] = []int{shard, count}
	}
	ws.WriteJSON(map[string]any{"op": 2, "d": d})
	var ready struct {
		T string
		D struct {
			SessionID string `json:"session_id"`
		}
	}
	if err := ws.ReadJSON(&ready); err != nil || ready.T != "READY" || ready.D.SessionID == "" {
		t.Fatalf("READY = %+v, %v", ready, err)
	}
	return ws, ready.D.SessionID
}

// resumeAs resumes session on a new connection and returns the first
// frame's op and type: op 0 RESUMED when resumed, op 9 when refused.
func resumeAs(t *testing.T, s *Server, session string) (int, string) {
	t.Helper()
	ws := openGateway(t, s)
	ws.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot tok", "session_id": session, "seq": 1}})
	var f struct {
		Op int
		T  string
	}
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := ws.ReadJSON(&f); err != nil {
		t.Fatalf("after Resume: %v", err)
	}
	return f.Op, f.T
}

// TestClientCloseEndsSession: as on Discord, a client that closes with
// 1000 or 1001 ends its session (Resume gets op 9); any other close code,
// or a lost connection, keeps it resumable.
func TestClientCloseEndsSession(t *testing.T) {
	tests := []struct {
		code      int // 0: the connection is cut, no close frame
		resumable bool
	}{
		{websocket.CloseNormalClosure, false},
		{websocket.CloseGoingAway, false},
		{4000, true},
		{websocket.CloseServiceRestart, true},
		{0, true},
	}
	for _, count := range []int{1, 4} {
		for _, tt := range tests {
			s := New(t, Options{Token: "tok"})
			ws, session := identifyAs(t, s, 2, count)
			if tt.code != 0 {
				ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(tt.code, ""))
				ws.ReadMessage() // the server's answer to the close
			}
			ws.Close()
			shard := 0
			if count > 1 {
				shard = 2
			}
			if !s.WaitFor(5*time.Second, func([]Call) bool { return s.shards.stats[shard].ClientCloses[tt.code] > 0 || tt.code == 0 }) {
				t.Fatalf("shards %d: close %d not recorded", count, tt.code)
			}
			op, typ := resumeAs(t, s, session)
			st := s.GatewayStats(shard)
			if got := op == 0 && typ == "RESUMED"; got != tt.resumable {
				t.Errorf("shards %d, close %d: Resume answered op %d %s, want resumable %v", count, tt.code, op, typ, tt.resumable)
			}
			if !tt.resumable && (st.ResumesRefused != 1 || st.Resumes != 0) {
				t.Errorf("shards %d, close %d: stats %+v, want 1 resume refused", count, tt.code, st)
			}
			// A new Identify now is no waste when the session ended.
			identifyAs(t, s, 2, count)
			if st := s.GatewayStats(shard); st.Identifies != 2 || (st.IdentifiesWhileResumable == 1) != tt.resumable {
				t.Errorf("shards %d, close %d: %d identifies, %d while resumable; want 2, and 1 only if the session lived",
					count, tt.code, st.Identifies, st.IdentifiesWhileResumable)
			}
		}
	}
}

// TestDropGateway: a drop cuts the live connection (with a close code if
// given); one that finds none does nothing, or, with Wait, cuts the next
// connection at its Resume.
func TestDropGateway(t *testing.T) {
	s := New(t, Options{Token: "tok"})
	ws, session := identifyAs(t, s, 0, 1)
	if !s.DropGateway(GatewayDrop{Code: 4000}) {
		t.Fatal("no live connection cut")
	}
	_, _, err := ws.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != 4000 {
		t.Errorf("after the drop: %v, want close 4000", err)
	}
	if s.DropGateway(GatewayDrop{}) {
		t.Error("a drop with no connection up reported a cut")
	}
	s.DropGateway(GatewayDrop{Wait: true})
	ws2 := openGateway(t, s)
	ws2.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot tok", "session_id": session, "seq": 1}})
	if _, _, err := ws2.ReadMessage(); err == nil {
		t.Error("the waiting drop did not cut the resuming connection")
	}
	if op, typ := resumeAs(t, s, session); op != 0 || typ != "RESUMED" {
		t.Errorf("after the drops: op %d %s, want RESUMED (drops keep the session)", op, typ)
	}
	if st := s.GatewayStats(0); st.Drops != 2 || st.Resumes != 1 {
		t.Errorf("stats %+v, want 2 drops and 1 resume", st)
	}

	// A burst: every drop of every shard counted, After called for each.
	s = New(t, Options{Token: "tok"})
	s.SetShards(2, 1)
	identifyAs(t, s, 0, 2)
	identifyAs(t, s, 1, 2)
	calls := 0
	s.Burst(Burst{Shards: []int{0, 1}, Drops: 3, Within: 30 * time.Millisecond, Wait: true, After: func(int) { calls++ }})
	for _, shard := range []int{0, 1} {
		st := s.GatewayStats(shard)
		s.mu.Lock()
		armed := len(s.shards.armed[shard])
		s.mu.Unlock()
		if st.Drops+armed != 3 || st.Drops < 1 {
			t.Errorf("shard %d: %d drops done and %d waiting, want 3 in all, the first done", shard, st.Drops, armed)
		}
	}
	if calls != 3 {
		t.Errorf("After called %d times, want 3", calls)
	}
}

// TestStallHeartbeats: stalled heartbeats go unanswered, then are
// acknowledged again.
func TestStallHeartbeats(t *testing.T) {
	s := New(t, Options{Token: "tok"})
	ws, _ := identifyAs(t, s, 0, 1)
	s.StallHeartbeats(true)
	ws.WriteJSON(map[string]any{"op": 1, "d": 1})
	ws.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, msg, err := ws.ReadMessage(); err == nil {
		t.Errorf("stalled heartbeat answered: %s", msg)
	}
	ws2, _ := identifyAs(t, s, 0, 1)
	s.StallHeartbeats(false)
	ws2.WriteJSON(map[string]any{"op": 1, "d": 1})
	var f struct{ Op int }
	ws2.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := ws2.ReadJSON(&f); err != nil || f.Op != 11 {
		t.Errorf("heartbeat answered op %d, %v; want 11", f.Op, err)
	}
}
