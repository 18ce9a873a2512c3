package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sudokubot/commands"
	"sudokubot/store"
)

// storeChanges is cli's adapter: the store's watch as Changes.
type storeChanges struct {
	w interface {
		WatchGames(ctx context.Context, fn func(store.GameChange)) error
	}
}

func (c storeChanges) Watch(ctx context.Context, fn func(Change)) error {
	return c.w.WatchGames(ctx, func(ch store.GameChange) { fn(Change{Game: ch.Game, Race: ch.Race, By: ch.By}) })
}

// liveEnv is env served over HTTP, with the server watching the store.
type liveEnv struct {
	*env
	url string
}

func newLiveEnv(t testing.TB, cfg Config) *liveEnv {
	t.Helper()
	e := newEnv(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	watching := &readyChanges{Changes: storeChanges{e.st}, ready: make(chan struct{})}
	e.srv.cfg.Changes = watching
	done := make(chan struct{})
	go func() { e.srv.Run(ctx); close(done) }()
	hs := httptest.NewServer(e.srv)
	t.Cleanup(func() { cancel(); <-done; hs.Close() })
	watching.wait(t)
	return &liveEnv{env: e, url: hs.URL}
}

// readyChanges tells when the server is watching the store (the watch's
// first call), so a test's moves come after it.
type readyChanges struct {
	Changes
	ready chan struct{}
	once  sync.Once
}

func (r *readyChanges) Watch(ctx context.Context, fn func(Change)) error {
	return r.Changes.Watch(ctx, func(ch Change) {
		if ch.Game == 0 {
			r.once.Do(func() { close(r.ready) })
		}
		fn(ch)
	})
}

func (r *readyChanges) wait(t testing.TB) {
	t.Helper()
	select {
	case <-r.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the server isn't watching the store after 10 s")
	}
}

// socket is a test page's live socket.
type socket struct {
	t    testing.TB
	conn *websocket.Conn
}

// dial opens a socket on base (an http:// URL) and sends hello (a JSON
// value, or a string sent as it is).
func dial(t testing.TB, base string, hello any) *socket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/live", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	b, ok := hello.(string)
	if !ok {
		j, _ := json.Marshal(hello)
		b = string(j)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte(b)); err != nil {
		t.Fatalf("send hello: %v", err)
	}
	return &socket{t: t, conn: conn}
}

// liveMsg is any message the server sends.
type liveMsg struct {
	Type   string             `json:"type"`
	Game   commands.BoardView `json:"game"`
	By     string             `json:"by"`
	ByName string             `json:"byName"`
	Cells  []int              `json:"cells"`
}

// next reads the next message, failing on a close or after 10 s.
func (s *socket) next() liveMsg {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := s.conn.Read(ctx)
	if err != nil {
		s.t.Fatalf("read: %v", err)
	}
	var m liveMsg
	if err := json.Unmarshal(data, &m); err != nil {
		s.t.Fatalf("message %q: %v", data, err)
	}
	return m
}

// until reads messages until one satisfies ok.
func (s *socket) until(what string, ok func(liveMsg) bool) liveMsg {
	s.t.Helper()
	for range 50 {
		if m := s.next(); ok(m) {
			return m
		}
	}
	s.t.Fatalf("no message with %s in 50", what)
	return liveMsg{}
}

// closed reads until the server closes the socket and returns its code
// and reason.
func (s *socket) closed() (websocket.StatusCode, string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := s.conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code, ce.Reason
		}
		s.t.Fatalf("read ended without a close: %v", err)
	}
}

func helloFor(token string, game int64) map[string]any {
	return map[string]any{"type": "hello", "token": token, "game": game}
}

// TestLiveSeesMovesFromAnywhere: two pages of Ada's game (two tabs) see a
// move made on the page, and one made elsewhere (chat's board API), at
// once, with who made it and which cell changed.
func TestLiveSeesMovesFromAnywhere(t *testing.T) {
	e := newLiveEnv(t, Config{})
	g, sol := e.start(t, ada)
	tab1 := dial(t, e.url, helloFor(e.token(ada), g.ID))
	tab2 := dial(t, e.url, helloFor(e.token(ada), g.ID))
	for _, s := range []*socket{tab1, tab2} {
		if m := s.next(); m.Type != "game" || m.Game.ID != g.ID {
			t.Fatalf("first message = %+v, want game %d", m, g.ID)
		}
	}
	empty := emptyCells(g)
	a := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), e.token(ada), fmt.Sprintf(`{"cell":%d,"kind":"digit","value":%d}`, empty[0], sol[empty[0]]))
	if a.status != 200 {
		t.Fatalf("move: %d %s", a.status, a.Error)
	}
	for i, s := range []*socket{tab1, tab2} {
		m := s.until("the page's move", func(m liveMsg) bool { return m.Game.Entries[empty[0]] != 0 })
		if m.By != ada.UserID || m.ByName != ada.UserName || fmt.Sprint(m.Cells) != fmt.Sprint([]int{empty[0]}) {
			t.Errorf("tab %d: move heard by %q (%q) cells %v, want %s (%s) cells [%d]", i+1, m.By, m.ByName, m.Cells, ada.UserID, ada.UserName, empty[0])
		}
	}
	// Elsewhere: the board API as chat's buttons use it, not through
	// this server's HTTP.
	if _, err := e.svc.PlayBoard(context.Background(), ada, g.ID, []commands.BoardMove{{Cell: empty[1], Kind: commands.MoveDigit, Value: sol[empty[1]]}}, e.clock.now()); err != nil {
		t.Fatal(err)
	}
	for i, s := range []*socket{tab1, tab2} {
		if m := s.until("the move from elsewhere", func(m liveMsg) bool { return m.Game.Entries[empty[1]] != 0 }); m.Game.Moves != 2 {
			t.Errorf("tab %d: %d moves after the second, want 2", i+1, m.Game.Moves)
		}
	}
}

// TestLiveRefusals: each bad socket is closed with its code and a
// sentence, and changes nothing.
func TestLiveRefusals(t *testing.T) {
	var logMu sync.Mutex
	var logged strings.Builder
	logf := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(&logged, format+"\n", args...)
	}
	e := newLiveEnv(t, Config{RatePerMinute: 60, RateBurst: 5, Logf: logf})
	g, _ := e.start(t, ada)
	before := e.snapshot(t, g.ID)
	expired, _ := e.srv.sessions.issue(ada, e.clock.now().Add(-2*time.Hour))
	forged := e.token(ada)
	forged = forged[:len(forged)-3] + "AAA"
	cases := []struct {
		name   string
		hello  any
		code   websocket.StatusCode
		reason string
	}{
		{"forged session", helloFor(forged, g.ID), closeNoSession, "isn't valid"},
		{"expired session", helloFor(expired, g.ID), closeNoSession, "expired"},
		{"no session", helloFor("", g.ID), closeNoSession, "isn't valid"},
		{"someone else's game", helloFor(e.token(bob), g.ID), closeForbidden, "someone else"},
		{"no such game", helloFor(e.token(ada), 9999), closeNotFound, "find that game"},
		{"not JSON", "hello?", closeBadMessage, "first message"},
		{"unknown field", `{"type":"hello","token":"x","game":1,"admin":true}`, closeBadMessage, "first message"},
		{"wrong type", map[string]any{"type": "move", "token": e.token(ada), "game": g.ID}, closeBadMessage, "first message"},
		{"huge frame", `{"type":"hello","token":"` + strings.Repeat("x", MaxFrame) + `"}`, websocket.StatusMessageTooBig, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := dial(t, e.url, c.hello)
			code, reason := s.closed()
			if code != c.code || !strings.Contains(reason, c.reason) {
				t.Errorf("closed with %d %q, want %d with %q", code, reason, c.code, c.reason)
			}
		})
	}
	t.Run("unknown message after hello", func(t *testing.T) {
		s := dial(t, e.url, helloFor(e.token(ada), g.ID))
		s.next()
		s.conn.Write(context.Background(), websocket.MessageText, []byte(`{"type":"move","cell":1}`))
		if code, reason := s.closed(); code != closeBadMessage || reason == "" {
			t.Errorf("closed with %d %q, want %d with a reason", code, reason, closeBadMessage)
		}
	})
	t.Run("flood", func(t *testing.T) {
		s := dial(t, e.url, helloFor(e.token(ada), g.ID))
		s.next()
		for range 20 {
			if s.conn.Write(context.Background(), websocket.MessageText, []byte(`{"type":"ping"}`)) != nil {
				break
			}
		}
		if code, reason := s.closed(); code != closeTooMany || !strings.Contains(reason, "a lot of messages") {
			t.Errorf("closed with %d %q, want %d", code, reason, closeTooMany)
		}
	})
	t.Run("too many sockets", func(t *testing.T) {
		e := newLiveEnv(t, Config{})
		g, _ := e.start(t, ada)
		for range maxSocketsPerUser {
			dial(t, e.url, helloFor(e.token(ada), g.ID)).next()
		}
		s := dial(t, e.url, helloFor(e.token(ada), g.ID))
		if code, reason := s.closed(); code != closeTooMany || !strings.Contains(reason, "boards open") {
			t.Errorf("closed with %d %q, want %d", code, reason, closeTooMany)
		}
	})
	if after := e.snapshot(t, g.ID); after != before {
		t.Errorf("the refusals changed the game:\n%s\nwant\n%s", after, before)
	}
	logMu.Lock()
	defer logMu.Unlock()
	for _, tok := range []string{forged, expired, e.token(ada), e.token(bob)} {
		if strings.Contains(logged.String(), tok[:20]) {
			t.Errorf("the log shows a session token:\n%s", logged.String())
		}
	}
}

// TestLiveSessionEnds: a socket closes when its session expires.
func TestLiveSessionEnds(t *testing.T) {
	e := newLiveEnv(t, Config{})
	g, _ := e.start(t, ada)
	tok, _ := e.srv.sessions.issue(ada, e.clock.now().Add(-DefaultSessionTTL+time.Second))
	s := dial(t, e.url, helloFor(tok, g.ID))
	if m := s.next(); m.Game.ID != g.ID { // one second left: it opens
		t.Fatalf("first message = %+v, want the game", m)
	}
	if code, _ := s.closed(); code != closeNoSession {
		t.Errorf("closed with %d, want %d", code, closeNoSession)
	}
}

// TestLiveIdle: a page that stops answering pings is closed (and leaves
// the hub) after a ping and its wait.
func TestLiveIdle(t *testing.T) {
	e := newLiveEnv(t, Config{PingEvery: 50 * time.Millisecond})
	g, _ := e.start(t, ada)
	s := dial(t, e.url, helloFor(e.token(ada), g.ID))
	s.next()
	// The page reads nothing now, so it answers no ping.
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.srv.hub.mu.Lock()
		open := e.srv.hub.users[ada.UserID]
		e.srv.hub.mu.Unlock()
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the silent socket is still open after 10 s")
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}
	if code, _ := s.closed(); code != closeTimeout {
		t.Errorf("closed with %d, want %d", code, closeTimeout)
	}
}

// TestLiveOrigins: a socket opens from the page's own origin and from
// Discord's Activity proxy, never from another site's page.
func TestLiveOrigins(t *testing.T) {
	e := newLiveEnv(t, Config{})
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{e.url, true},
		{"https://1234567890.discordsays.com", true},
		{"https://evil.example", false},
		{"https://discordsays.com.evil.example", false},
	} {
		h := http.Header{}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.url, "http")+"/api/live", &websocket.DialOptions{HTTPHeader: h})
		cancel()
		if conn != nil {
			conn.CloseNow()
		}
		if (err == nil) != c.ok {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			t.Errorf("origin %q: dial = %v (status %d), want ok %v", c.origin, err, status, c.ok)
		}
	}
}

// TestLiveHubForgets: once its last page closes, a game is no longer
// watched, even when the page left during a load.
func TestLiveHubForgets(t *testing.T) {
	e := newLiveEnv(t, Config{})
	g, _ := e.start(t, ada)
	for range 3 {
		s := dial(t, e.url, helloFor(e.token(ada), g.ID))
		s.next()
		e.srv.hub.changed(Change{Game: g.ID}) // a load, maybe running as the page leaves
		s.conn.Close(websocket.StatusNormalClosure, "")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.srv.hub.mu.Lock()
		games, users := len(e.srv.hub.games), len(e.srv.hub.users)
		e.srv.hub.mu.Unlock()
		if games == 0 && users == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after its pages closed the hub still holds %d games and %d users", games, users)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}
}
