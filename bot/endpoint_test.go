package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
)

// httpBot is a bot serving the HTTP interactions endpoint of a fake
// Discord, with no gateway (no token).
type httpBot struct {
	*testBot
	url string // the endpoint's URL
}

func newHTTPBot(t *testing.T, h Handler, mod func(*Config)) *httpBot {
	t.Helper()
	return newHTTPBotDB(t, h, mod, nil)
}

func newHTTPBotDB(t *testing.T, h Handler, mod func(*Config), db Pinger) *httpBot {
	t.Helper()
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken})
	return newHTTPBotOn(t, fake, h, mod, func(b *Bot) {
		if db != nil {
			b.SetDatabase(db)
		}
	})
}

// newHTTPBotOn starts an endpoint-only bot for fake's application, with
// setup applied before it runs; several may share one fake, as processes
// behind one load balancer share one application.
func newHTTPBotOn(t *testing.T, fake *fakediscord.Server, h Handler, mod func(*Config), setup func(*Bot)) *httpBot {
	t.Helper()
	key, err := hex.DecodeString(fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		APIBase: fake.URL(), SolveTimeout: 400 * time.Millisecond, DeferAfter: time.Second,
		ShutdownWait: 3 * time.Second, RateBurst: 100, RatePerMinute: 6000,
	}
	cfg.InteractionsAddr = "127.0.0.1:0"
	cfg.InteractionsPath = DefaultInteractionsPath
	cfg.PublicKey = ed25519.PublicKey(key)
	if mod != nil {
		mod(&cfg)
	}
	logs := &syncBuffer{}
	b, err := New(cfg, h, log.New(logs, "", 0))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	setup(b)
	ctx, cancel := context.WithCancel(context.Background())
	tb := &testBot{t: t, fake: fake, bot: b, h: h, logs: logs, stop: cancel, done: make(chan error, 1)}
	go func() { tb.done <- b.Run(ctx) }()
	eventually(t, "the endpoint to listen", func() bool { return b.HTTPAddr() != "" })
	t.Cleanup(func() {
		tb.shutdown()
		tb.checkInvariants()
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	})
	return &httpBot{testBot: tb, url: "http://" + b.HTTPAddr() + cfg.InteractionsPath}
}

// slashHTTP delivers /name from user in guild 500 through the endpoint.
func (hb *httpBot) slashHTTP(user fakediscord.User, name string, opts ...fakediscord.Option) fakediscord.Pending {
	hb.t.Helper()
	p, err := hb.fake.InteractHTTP(hb.url, fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500",
		User: user, Data: fakediscord.Slash(name, opts...)})
	if err != nil {
		hb.t.Fatalf("InteractHTTP /%s: %v\nlogs:\n%s", name, err, hb.logs)
	}
	return p
}

func TestHTTPEndpointServesLikeTheGateway(t *testing.T) {
	h := &scriptHandler{specs: testSpecs, plan: func(req commands.Request) commands.Plan {
		return commands.Plan{Heavy: req.Command == "solve"}
	}, handle: func(ctx context.Context, req commands.Request) commands.Response {
		if req.Command == "solve" {
			select { // slower than DeferAfter: deferred, then edited
			case <-time.After(300 * time.Millisecond):
			case <-ctx.Done():
			}
			return commands.Response{Content: "solved " + req.Options["puzzle"]}
		}
		return commands.Response{Content: "ok " + req.Command, Ephemeral: true}
	}}
	hb := newHTTPBot(t, h, func(c *Config) { c.DeferAfter = 100 * time.Millisecond })

	// PING: answered with PONG and nothing else.
	ping, _ := json.Marshal(map[string]any{"id": "1", "type": 1, "application_id": hb.fake.AppID(), "token": "t", "version": 1})
	req, _ := hb.fake.SignedRequest(hb.url, ping)
	status, body, err := hb.fake.Send(req)
	if err != nil || status != 200 || strings.TrimSpace(string(body)) != `{"type":1}` {
		t.Fatalf("PING = %d %s, %v; want 200 {\"type\":1}", status, body, err)
	}

	// A quick answer is the HTTP response itself.
	p := hb.slashHTTP(alice, "daily", fakediscord.Sub("play"))
	c := hb.firstAnswer(p)
	if !c.HTTP || c.CallbackType() != 4 || c.Content() != "ok daily" || !c.Ephemeral() {
		t.Errorf("first answer = HTTP %v type %d %q ephemeral %v; want the HTTP response, type 4, \"ok daily\", ephemeral",
			c.HTTP, c.CallbackType(), c.Content(), c.Ephemeral())
	}
	// A slow one is deferred in the response, then edited through the
	// webhook, as on the gateway path.
	p = hb.slashHTTP(bob, "solve", fakediscord.Str("puzzle", "abc"))
	if c := hb.firstAnswer(p); !c.HTTP || c.CallbackType() != 5 {
		t.Errorf("first answer to a slow job = HTTP %v type %d, want a deferral (5) in the response", c.HTTP, c.CallbackType())
	}
	if c := hb.finalAnswer(p); c.Content() != "solved abc" {
		t.Errorf("final answer = %q, want \"solved abc\"", c.Content())
	}
	if n := len(h.requests()); n != 2 {
		t.Errorf("handler saw %d requests, want 2", n)
	}
	for _, c := range hb.fake.Calls() {
		if c.Auth != "" {
			t.Errorf("%s %s sent Authorization %q; with no token the endpoint sends none", c.Method, c.Path, c.Auth)
		}
	}

	// Health, readiness and the metrics are served beside the endpoint
	// (an interaction is counted just after its final answer went out).
	base := "http://" + hb.bot.HTTPAddr()
	eventually(t, "the slow job counted", func() bool {
		return strings.Contains(httpGet(t, base+"/metrics"), `sudokubot_final_answer_seconds_count{transport="http"} 2`)
	})
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready",
		"/metrics": `sudokubot_requests_total{command="solve",outcome="answered",transport="http"} 1`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d, want 200 containing %q; got:\n%.2000s", path, resp.StatusCode, want, b)
		}
		if strings.Contains(string(b), testToken) {
			t.Errorf("GET %s shows the token", path)
		}
	}
}

func TestHTTPEndpointRefusesForgeries(t *testing.T) {
	h := &scriptHandler{specs: testSpecs}
	hb := newHTTPBot(t, h, nil)
	_, body := hb.fake.InteractionBody(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500",
		User: alice, Data: fakediscord.Slash("daily", fakediscord.Sub("play"))})
	stale := strconv.FormatInt(time.Now().Add(-6*time.Minute).Unix(), 10)

	// The genuine request, sent once, is served; the tests below replay
	// or forge it.
	first, _ := hb.fake.SignedRequest(hb.url, body)
	firstSig, firstTS := first.Header.Get("X-Signature-Ed25519"), first.Header.Get("X-Signature-Timestamp")
	if status, b, err := hb.fake.Send(first); err != nil || status != 200 {
		t.Fatalf("genuine request = %d %s, %v", status, b, err)
	}
	if n := len(h.requests()); n != 1 {
		t.Fatalf("handler saw %d requests after the genuine one, want 1", n)
	}
	calls := len(hb.fake.Calls())

	tests := []struct {
		name   string
		body   []byte
		edit   func(r *http.Request)
		status int
	}{
		{"replayed body", body, func(r *http.Request) {
			r.Header.Set("X-Signature-Ed25519", firstSig)
			r.Header.Set("X-Signature-Timestamp", firstTS)
		}, 401},
		{"wrong signature", body, func(r *http.Request) {
			sig := []byte(r.Header.Get("X-Signature-Ed25519"))
			if sig[0] = '0'; r.Header.Get("X-Signature-Ed25519")[0] == '0' {
				sig[0] = '1' // still hex, no longer the signature
			}
			r.Header.Set("X-Signature-Ed25519", string(sig))
		}, 401},
		{"signature of another body", []byte(strings.Replace(string(body), `"daily"`, `"solve"`, 1)), func(r *http.Request) {
			r.Header.Set("X-Signature-Ed25519", hb.fake.Sign(r.Header.Get("X-Signature-Timestamp"), body))
		}, 401},
		{"old timestamp", body, func(r *http.Request) {
			r.Header.Set("X-Signature-Timestamp", stale)
			r.Header.Set("X-Signature-Ed25519", hb.fake.Sign(stale, body))
		}, 401},
		{"no signature", body, func(r *http.Request) { r.Header.Del("X-Signature-Ed25519") }, 401},
		{"10 MiB body", bytes.Repeat([]byte("x"), 10<<20), nil, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := hb.fake.SignedRequest(hb.url, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if tt.edit != nil {
				tt.edit(req)
			}
			status, b, err := hb.fake.Send(req)
			if err != nil {
				t.Fatalf("send: %v", err)
			}
			if status != tt.status {
				t.Errorf("status %d (%s), want %d", status, b, tt.status)
			}
		})
	}
	if n := len(h.requests()); n != 1 {
		t.Errorf("handler saw %d requests, want only the genuine one", n)
	}
	if n := len(hb.fake.Calls()); n != calls {
		t.Errorf("the refused requests made %d REST calls, want none", n-calls)
	}
	resp, err := http.Get("http://" + hb.bot.HTTPAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`reason="replay"} 1`, `reason="signature"} 2`, `reason="stale"} 1`, `reason="too_large"} 1`, `reason="unsigned"} 1`} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// httpGet returns the body of GET url.
func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// failingGuard is a replay guard whose database is down.
type failingGuard struct{}

func (failingGuard) FirstSeen(context.Context, string, time.Time, time.Time) (bool, error) {
	return false, errors.New("database is closed")
}

// TestHTTPEndpointRefusesReplayToAnotherProcess: two processes behind one
// load balancer share the store; a request served by the first and
// replayed to the second is refused there, without reaching its handler.
// When the shared check can't answer, requests are still served.
func TestHTTPEndpointRefusesReplayToAnotherProcess(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken})
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "replay.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h1, h2 := &scriptHandler{specs: testSpecs}, &scriptHandler{specs: testSpecs}
	shared := func(b *Bot) { b.SetReplayGuard(st) }
	p1 := newHTTPBotOn(t, fake, h1, nil, shared)
	p2 := newHTTPBotOn(t, fake, h2, nil, shared)

	_, body := fake.InteractionBody(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500",
		User: alice, Data: fakediscord.Slash("daily", fakediscord.Sub("play"))})
	first, err := fake.SignedRequest(p1.url, body)
	if err != nil {
		t.Fatal(err)
	}
	if status, b, err := fake.Send(first); err != nil || status != 200 {
		t.Fatalf("genuine request to process 1 = %d %s, %v", status, b, err)
	}
	replay, err := fake.SignedRequest(p2.url, body)
	if err != nil {
		t.Fatal(err)
	}
	replay.Header = first.Header.Clone()
	status, b, err := fake.Send(replay)
	if err != nil || status != http.StatusUnauthorized {
		t.Errorf("the same request replayed to process 2 = %d %s, %v; want 401", status, b, err)
	}
	if n1, n2 := len(h1.requests()), len(h2.requests()); n1 != 1 || n2 != 0 {
		t.Errorf("handlers saw %d and %d requests, want 1 and 0", n1, n2)
	}

	// A fresh request to process 2 is served as usual.
	if c := p2.firstAnswer(p2.slashHTTP(bob, "daily", fakediscord.Sub("play"))); c.Content() != "ok daily" {
		t.Errorf("a fresh request to process 2 was answered %q, want \"ok daily\"", c.Content())
	}
	if n := len(h2.requests()); n != 1 {
		t.Errorf("process 2's handler saw %d requests after a fresh one, want 1", n)
	}

	// With the database down, the endpoint serves on its own cache.
	p3 := newHTTPBotOn(t, fake, &scriptHandler{specs: testSpecs}, nil, func(b *Bot) { b.SetReplayGuard(failingGuard{}) })
	if c := p3.firstAnswer(p3.slashHTTP(alice, "daily", fakediscord.Sub("play"))); c.Content() != "ok daily" {
		t.Errorf("with the shared check failing, the answer was %q, want \"ok daily\"", c.Content())
	}
	if !strings.Contains(p3.logs.String(), "shared replay check failed") {
		t.Errorf("the failed shared check was not logged:\n%s", p3.logs)
	}
}
