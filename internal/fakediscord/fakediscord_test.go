package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// These check the fake's own rules with plain HTTP and a bare websocket;
// the bot's tests exercise it through discordgo.

func do(t *testing.T, method, url, auth, contentType string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// dial connects to the gateway and identifies, returning the connection
// after READY.
func dial(t *testing.T, s *Server, token string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(s.wsURL()+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	var hello struct {
		Op int `json:"op"`
		D  struct {
			Interval int `json:"heartbeat_interval"`
		} `json:"d"`
	}
	if err := ws.ReadJSON(&hello); err != nil || hello.Op != 10 || hello.D.Interval != 41250 {
		t.Fatalf("hello = %+v, %v", hello, err)
	}
	ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": token, "intents": 513}})
	return ws
}

func TestGatewayHandshake(t *testing.T) {
	s := New(t, Options{Token: "tok", Guilds: []string{"1"}})
	ws := dial(t, s, "Bot tok")
	var ready struct {
		Op int    `json:"op"`
		S  int    `json:"s"`
		T  string `json:"t"`
		D  struct {
			SessionID string           `json:"session_id"`
			User      User             `json:"user"`
			Guilds    []map[string]any `json:"guilds"`
			App       struct{ ID string }
		} `json:"d"`
	}
	if err := ws.ReadJSON(&ready); err != nil || ready.T != "READY" || ready.S != 1 || ready.D.User.ID != "100" || len(ready.D.Guilds) != 1 {
		t.Fatalf("READY = %+v, %v", ready, err)
	}
	ws.WriteJSON(map[string]any{"op": 1, "d": 1})
	var ack struct{ Op int }
	if err := ws.ReadJSON(&ack); err != nil || ack.Op != 11 {
		t.Fatalf("heartbeat answer = %+v, %v; want op 11", ack, err)
	}
	if err := s.Dispatch("MESSAGE_CREATE", map[string]any{"id": "5"}); err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Op int
		S  int
		T  string
	}
	if err := ws.ReadJSON(&ev); err != nil || ev.Op != 0 || ev.S != 2 || ev.T != "MESSAGE_CREATE" {
		t.Fatalf("dispatch = %+v, %v; want op 0, seq 2", ev, err)
	}

	// Resume after a drop: what was sent meanwhile, then RESUMED (as
	// Discord documents it).
	s.Drop()
	s.Dispatch("MESSAGE_CREATE", map[string]any{"id": "6"})
	resume := func(seq int, frames int) string {
		t.Helper()
		ws := openGateway(t, s)
		ws.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot tok", "session_id": ready.D.SessionID, "seq": seq}})
		var got []string
		for range frames {
			ev.T, ev.S = "", 0
			ws.ReadJSON(&ev)
			got = append(got, fmt.Sprintf("%s#%d", ev.T, ev.S))
		}
		return strings.Join(got, ",")
	}
	if got := resume(2, 2); got != "MESSAGE_CREATE#3,RESUMED#4" {
		t.Errorf("after resume from seq 2: %s, want the missed event (3), then RESUMED", got)
	}
	// A client that never read event 2 (it went out on a connection that
	// died) gets it again, whatever the server wrote.
	s.Drop()
	if got := resume(1, 3); got != "MESSAGE_CREATE#2,MESSAGE_CREATE#3,RESUMED#5" {
		t.Errorf("after resume from seq 1: %s, want events 2 and 3, then RESUMED", got)
	}
	if id, res, _ := s.Sessions(); id != 1 || res != 2 {
		t.Errorf("sessions: %d identifies, %d resumes; want 1, 2", id, res)
	}
}

type hello struct{ Op int }

// openGateway connects to s's gateway and reads its Hello; the connection
// closes with the test.
func openGateway(t *testing.T, s *Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(s.wsURL()+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	ws.ReadJSON(&hello{})
	return ws
}

func TestGatewayRejectsBadToken(t *testing.T) {
	s := New(t, Options{Token: "tok"})
	ws := dial(t, s, "Bot wrong")
	_, _, err := ws.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != 4004 {
		t.Errorf("bad token: %v, want close 4004", err)
	}
}

func TestInteractionRules(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true, InteractionDeadline: 200 * time.Millisecond})
	dial(t, s, "Bot tok")
	if !s.WaitSessions(5*time.Second, 1, 0) {
		t.Fatal("no session")
	}
	p, err := s.Interact(Interaction{Type: ApplicationCommand, User: User{ID: "1"}, Data: Slash("help")})
	if err != nil {
		t.Fatal(err)
	}
	cb := s.URL() + "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback"
	orig := s.URL() + "/api/v9/webhooks/100/" + p.Token + "/messages/@original"

	if code, _ := do(t, "PATCH", orig, "", "application/json", strings.NewReader(`{"content":"x"}`)); code != 404 {
		t.Errorf("edit before any answer: %d, want 404", code)
	}
	// A multipart answer with a file.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("payload_json", `{"type":4,"data":{"content":"hi","allowed_mentions":{"parse":[]}}}`)
	fw, _ := mw.CreateFormFile("files[0]", "a.png")
	fw.Write([]byte("PNGDATA"))
	mw.Close()
	if code, b := do(t, "POST", cb, "", mw.FormDataContentType(), &body); code != 204 {
		t.Fatalf("first answer: %d %s", code, b)
	}
	if code, b := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":4,"data":{"content":"again"}}`)); code != 400 || !strings.Contains(b, "40060") {
		t.Errorf("second answer: %d %s, want 400 code 40060", code, b)
	}
	if code, b := do(t, "PATCH", orig, "", "application/json", strings.NewReader(`{"content":"edited"}`)); code != 200 || !strings.Contains(b, `"edited"`) {
		t.Errorf("edit: %d %s", code, b)
	}
	calls := s.CallsFor(p.ID)
	if len(calls) != 4 || calls[1].Content() != "hi" || len(calls[1].Files) != 1 || string(calls[1].Files[0].Data) != "PNGDATA" {
		t.Fatalf("recorded %d calls: %+v", len(calls), calls)
	}
	if m, _ := calls[1].Message(); m["allowed_mentions"] == nil {
		t.Error("payload_json not decoded")
	}

	// Too late.
	late, _ := s.Interact(Interaction{Type: ApplicationCommand, User: User{ID: "1"}, Data: Slash("help")})
	time.Sleep(250 * time.Millisecond) // the deadline itself is what is tested
	if code, _ := do(t, "POST", s.URL()+"/api/v9/interactions/"+late.ID+"/"+late.Token+"/callback", "", "application/json",
		strings.NewReader(`{"type":5}`)); code != 404 {
		t.Errorf("late answer: %d, want 404", code)
	}
	if c := s.CallsFor(late.ID); len(c) != 1 || !c[0].Late {
		t.Errorf("late call not flagged: %+v", c)
	}
}

func TestRESTAuthAndRegistration(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true})
	if code, _ := do(t, "GET", s.URL()+"/api/v9/gateway", "", "", nil); code != 401 {
		t.Errorf("no token: %d, want 401", code)
	}
	code, b := do(t, "GET", s.URL()+"/api/v9/gateway", "Bot tok", "", nil)
	var gw struct{ URL string }
	json.Unmarshal([]byte(b), &gw)
	if code != 200 || !strings.HasPrefix(gw.URL, "ws://127.0.0.1:") {
		t.Errorf("gateway: %d %s", code, b)
	}
	code, b = do(t, "PUT", s.URL()+"/api/v9/applications/100/guilds/7/commands", "Bot tok", "application/json",
		strings.NewReader(`[{"name":"solve","type":1,"description":"d"}]`))
	if code != 200 || !strings.Contains(b, `"guild_id":"7"`) {
		t.Errorf("register: %d %s", code, b)
	}
	if r := s.Registered("7"); len(r) != 1 || r[0]["name"] != "solve" {
		t.Errorf("Registered = %v", r)
	}
	if code, _ := do(t, "POST", s.URL()+"/api/v9/channels/3/messages", "Bot tok", "application/json", strings.NewReader(`{bad`)); code != 400 {
		t.Errorf("bad JSON: %d, want 400", code)
	}
}
