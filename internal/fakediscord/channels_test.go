package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rest makes one bot-authorized call and returns the status, the body and
// the headers.
func rest(t *testing.T, s *Server, method, path string, body any) (int, string, http.Header) {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		rd = jsonOf(t, body)
	} else {
		rd = strings.NewReader("")
	}
	req, err := http.NewRequest(method, s.URL()+"/api/v9/"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bot tok")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String(), resp.Header
}

// postMessage posts content in channel and returns the message's id.
func postMessage(t *testing.T, s *Server, channel string, body map[string]any) string {
	t.Helper()
	code, reply, _ := rest(t, s, "POST", "channels/"+channel+"/messages", body)
	if code != 200 {
		t.Fatalf("post in %s: %d %s", channel, code, reply)
	}
	var m struct {
		ID string `json:"id"`
	}
	json.Unmarshal([]byte(reply), &m)
	return m.ID
}

// wantCode checks a refusal's status and Discord's error code.
func wantCode(t *testing.T, what string, status int, body string, wantStatus, wantCode int) {
	t.Helper()
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal([]byte(body), &e)
	if status != wantStatus || e.Code != wantCode || e.Message == "" {
		t.Errorf("%s: %d %s, want %d with code %d", what, status, body, wantStatus, wantCode)
	}
}

func TestThreads(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true})
	ws := dial(t, s, "Bot tok")
	if !s.WaitSessions(5*time.Second, 1, 0) {
		t.Fatal("no session")
	}
	s.AddChannel(ChannelInfo{ID: "10", GuildID: "1", Type: GuildText})
	lobby := postMessage(t, s, "10", map[string]any{"content": "Race lobby"})

	// Refusals before anything is made.
	for _, tc := range []struct {
		name string
		body map[string]any
		path string
	}{
		{"no name", map[string]any{}, "name"},
		{"name of 101", map[string]any{"name": strings.Repeat("é", 101)}, "name"},
		{"archive after 30 minutes", map[string]any{"name": "Race", "auto_archive_duration": 30}, "auto_archive_duration"},
		{"slow mode of 7 hours", map[string]any{"name": "Race", "rate_limit_per_user": 25200}, "rate_limit_per_user"},
	} {
		code, body, _ := rest(t, s, "POST", "channels/10/messages/"+lobby+"/threads", tc.body)
		wantRefusal(t, code, body, 50035, tc.path, map[string]string{"name": "BASE_TYPE_BAD_LENGTH", "auto_archive_duration": "BASE_TYPE_CHOICES", "rate_limit_per_user": "NUMBER_TYPE_MAX"}[tc.path])
	}
	code, body, _ := rest(t, s, "POST", "channels/10/messages/999/threads", map[string]any{"name": "Race"})
	wantCode(t, "unknown message", code, body, 404, 10008)

	// The bot may not: 403 Missing Permissions, in the guild or the channel.
	s.Deny("1", PermCreatePublicThreads)
	code, body, _ = rest(t, s, "POST", "channels/10/messages/"+lobby+"/threads", map[string]any{"name": "Race"})
	wantCode(t, "denied in the guild", code, body, 403, 50013)
	// An interaction there says so in app_permissions.
	perms := func() int64 {
		_, d := s.newInteraction(Interaction{Type: ApplicationCommand, GuildID: "1", ChannelID: "10", User: User{ID: "5"}, Data: Slash("race")})
		n, _ := strconv.ParseInt(d["app_permissions"].(string), 10, 64)
		return n
	}
	if p := perms(); p&PermCreatePublicThreads != 0 || p&PermSendMessages == 0 {
		t.Errorf("app_permissions %d with threads denied in the guild", p)
	}
	s.Deny("1", 0)
	if p := perms(); p != BotPermissions {
		t.Errorf("app_permissions %d, want %d", p, BotPermissions)
	}
	s.Deny("10", PermCreatePublicThreads|PermSendMessages)
	code, body, _ = rest(t, s, "POST", "channels/10/messages/"+lobby+"/threads", map[string]any{"name": "Race"})
	wantCode(t, "denied in the channel", code, body, 403, 50013)
	code, body, _ = rest(t, s, "POST", "channels/10/messages", map[string]any{"content": "x"})
	wantCode(t, "post denied", code, body, 403, 50013)
	s.Deny("10", 0)

	// Made: a public thread whose id is the message's.
	code, body, _ = rest(t, s, "POST", "channels/10/messages/"+lobby+"/threads", map[string]any{"name": "Race #1", "auto_archive_duration": 60})
	var th struct {
		ID, ParentID, GuildID, Name string
		Type                        int
		Meta                        struct {
			Archive int `json:"auto_archive_duration"`
		} `json:"thread_metadata"`
	}
	json.Unmarshal([]byte(body), &th)
	json.Unmarshal([]byte(strings.NewReplacer(`"parent_id"`, `"ParentID"`, `"guild_id"`, `"GuildID"`).Replace(body)), &th)
	if code != 201 || th.ID != lobby || th.Type != PublicThread || th.ParentID != "10" || th.GuildID != "1" || th.Name != "Race #1" || th.Meta.Archive != 60 {
		t.Fatalf("thread = %d %s", code, body)
	}
	if got := s.Threads("10"); len(got) != 1 || got[0].ID != lobby {
		t.Errorf("Threads(10) = %v", got)
	}
	// The gateway says so.
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var f struct {
			T string          `json:"t"`
			D json.RawMessage `json:"d"`
		}
		if err := ws.ReadJSON(&f); err != nil {
			t.Fatalf("no THREAD_CREATE: %v", err)
		}
		if f.T == "THREAD_CREATE" {
			if !strings.Contains(string(f.D), `"newly_created":true`) || !strings.Contains(string(f.D), `"id":"`+lobby+`"`) {
				t.Errorf("THREAD_CREATE %s", f.D)
			}
			break
		}
	}
	// One thread per message.
	code, body, _ = rest(t, s, "POST", "channels/10/messages/"+lobby+"/threads", map[string]any{"name": "Again"})
	wantCode(t, "second thread", code, body, 400, 160004)
	// No thread from a thread's message, a DM or a voice channel.
	inThread := postMessage(t, s, lobby, map[string]any{"content": "Scoreboard"})
	code, body, _ = rest(t, s, "POST", "channels/"+lobby+"/messages/"+inThread+"/threads", map[string]any{"name": "Nested"})
	wantCode(t, "thread in a thread", code, body, 400, 50024)
	s.AddChannel(ChannelInfo{ID: "20", Type: DMChannel})
	dm := postMessage(t, s, "20", map[string]any{"content": "hi"})
	code, body, _ = rest(t, s, "POST", "channels/20/messages/"+dm+"/threads", map[string]any{"name": "DM"})
	wantCode(t, "thread in a DM", code, body, 400, 50024)

	// Messages in the thread: posted, edited, shown; a thread loses what
	// its parent lost.
	code, body, _ = rest(t, s, "PATCH", "channels/"+lobby+"/messages/"+inThread, map[string]any{"content": "Scoreboard: 3 players"})
	if code != 200 || !strings.Contains(body, "3 players") || !strings.Contains(body, "edited_timestamp") {
		t.Errorf("edit in the thread: %d %s", code, body)
	}
	if msgs := s.Messages(lobby); len(msgs) != 1 || msgs[0]["content"] != "Scoreboard: 3 players" {
		t.Errorf("Messages(thread) = %v", msgs)
	}
	code, body, _ = rest(t, s, "PATCH", "channels/"+lobby+"/messages/404", map[string]any{"content": "x"})
	wantCode(t, "edit of an unknown message", code, body, 404, 10008)
	s.AddMessage("10", map[string]any{"id": "77", "content": "a player's", "author": map[string]any{"id": "5"}})
	code, body, _ = rest(t, s, "PATCH", "channels/10/messages/77", map[string]any{"content": "x"})
	wantCode(t, "edit of another's message", code, body, 403, 50005)
	s.Deny("10", PermSendMessagesInThread)
	code, body, _ = rest(t, s, "POST", "channels/"+lobby+"/messages", map[string]any{"content": "x"})
	wantCode(t, "post in a thread denied by its parent", code, body, 403, 50013)
	if code, _, _ := rest(t, s, "POST", "channels/10/messages", map[string]any{"content": "the channel still takes messages"}); code != 200 {
		t.Errorf("post in the channel: %d", code)
	}
	code, body, _ = rest(t, s, "GET", "channels/"+lobby, nil)
	if code != 200 || !strings.Contains(body, `"type":11`) {
		t.Errorf("GET thread: %d %s", code, body)
	}
	// Lobby message shows its thread.
	code, body, _ = rest(t, s, "GET", "channels/10/messages/"+lobby, nil)
	if code != 200 || !strings.Contains(body, `"thread":{`) {
		t.Errorf("the lobby message: %d %s", code, body)
	}
}

func TestNonce(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true, MessageRate: RateLimit{Limit: -1}})
	send := func(nonce any, enforce bool) string {
		t.Helper()
		return postMessage(t, s, "30", map[string]any{"content": "results", "nonce": nonce, "enforce_nonce": enforce})
	}
	a := send("race-1-results", true)
	if b := send("race-1-results", true); b != a {
		t.Errorf("a repeated nonce made message %s, want %s again", b, a)
	}
	if c := send("race-2-results", true); c == a {
		t.Error("another nonce returned the same message")
	}
	// Without enforce_nonce, the nonce is only echoed: two messages.
	x, y := send("plain", false), send("plain", false)
	if x == y {
		t.Error("a nonce without enforce_nonce was enforced")
	}
	// Same nonce in another channel: its own message.
	if other := postMessage(t, s, "31", map[string]any{"content": "r", "nonce": "race-1-results", "enforce_nonce": true}); other == a {
		t.Error("a nonce crossed channels")
	}
	if n := len(s.Messages("30")); n != 4 {
		t.Errorf("%d messages in channel 30, want 4", n)
	}
	code, body, _ := rest(t, s, "POST", "channels/30/messages", map[string]any{"content": "x", "nonce": strings.Repeat("n", 26)})
	wantRefusal(t, code, body, 50035, "nonce", "BASE_TYPE_MAX_LENGTH")

	// The fault a blind retry double-posts on: stored, then a 500.
	s.Inject(Fault{Match: Call.IsChannelMessage, Status: 500, Applied: true})
	body1 := map[string]any{"content": "final results", "nonce": "race-3", "enforce_nonce": true}
	if code, _, _ := rest(t, s, "POST", "channels/32/messages", body1); code != 500 {
		t.Fatalf("applied fault: %d, want 500", code)
	}
	if n := len(s.Messages("32")); n != 1 {
		t.Fatalf("%d messages after the failed create, want 1 (stored before the failure)", n)
	}
	postMessage(t, s, "32", body1)
	if n := len(s.Messages("32")); n != 1 {
		t.Errorf("%d messages after a retry with the nonce, want 1", n)
	}
}

func TestNonceWindow(t *testing.T) {
	s := New(t, Options{Token: "tok", NonceWindow: 50 * time.Millisecond, MessageRate: RateLimit{Limit: -1}})
	a := postMessage(t, s, "30", map[string]any{"content": "x", "nonce": "n", "enforce_nonce": true})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b := postMessage(t, s, "30", map[string]any{"content": "x", "nonce": "n", "enforce_nonce": true}); b != a {
			return // the window passed: a new message
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("a nonce never expired")
}

func TestChannelRateLimits(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true, MessageRate: RateLimit{Limit: 3, Per: time.Hour}, EditRate: RateLimit{Limit: 2, Per: 300 * time.Millisecond}})
	var ids []string
	for i := range 3 {
		code, body, h := rest(t, s, "POST", "channels/40/messages", map[string]any{"content": fmt.Sprint(i)})
		if code != 200 || h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) ||
			h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset") == "" {
			t.Fatalf("create %d: %d %s %v", i, code, body, h)
		}
		if ra, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err != nil || ra <= 3500 || ra > 3600 {
			t.Errorf("create %d: Reset-After %q", i, h.Get("X-RateLimit-Reset-After"))
		}
		var m struct{ ID string }
		json.Unmarshal([]byte(body), &m)
		ids = append(ids, m.ID)
	}
	code, body, h := rest(t, s, "POST", "channels/40/messages", map[string]any{"content": "one too many"})
	var lim struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	json.Unmarshal([]byte(body), &lim)
	if code != 429 || lim.RetryAfter < 3500 || lim.Global || h.Get("X-RateLimit-Scope") != "user" || h.Get("Retry-After") == "" || h.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("fourth create: %d %s %v", code, body, h)
	}
	if n := len(s.Messages("40")); n != 3 {
		t.Errorf("%d messages, want 3: a limited call does not happen", n)
	}
	// Another channel has its own bucket; edits have theirs.
	if code, _, _ := rest(t, s, "POST", "channels/41/messages", map[string]any{"content": "x"}); code != 200 {
		t.Errorf("create in another channel: %d", code)
	}
	edit := func(i int) (int, http.Header) {
		code, _, h := rest(t, s, "PATCH", "channels/40/messages/"+ids[i%3], map[string]any{"content": fmt.Sprint("edit ", i)})
		return code, h
	}
	for i := range 2 {
		if code, h := edit(i); code != 200 || h.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("edit %d: %d %v", i, code, h)
		}
	}
	// Edits of different messages share the channel's bucket.
	code, h = edit(2)
	if code != 429 {
		t.Fatalf("third edit: %d, want 429", code)
	}
	wait, _ := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
	time.Sleep(time.Duration(wait*1000)*time.Millisecond + 20*time.Millisecond)
	if code, h := edit(3); code != 200 || h.Get("X-RateLimit-Remaining") != "1" {
		t.Errorf("edit after the reset: %d %v", code, h)
	}
	got := s.RateLimited()
	if got.Limited != 2 || got.ByRoute["create"] != 1 || got.ByRoute["edit"] != 1 {
		t.Errorf("RateLimited() = %+v, want one create and one edit", got)
	}
	var flagged int
	for _, c := range s.Calls() {
		if c.Limited {
			flagged++
		}
	}
	if flagged != 2 || len(s.Refused()) != 0 {
		t.Errorf("%d calls flagged Limited (want 2), %d refused (want 0)", flagged, len(s.Refused()))
	}

	// A negative limit switches a bucket off.
	off := New(t, Options{Token: "tok", MessageRate: RateLimit{Limit: -1}})
	for i := range 8 {
		if code, _, h := rest(t, off, "POST", "channels/1/messages", map[string]any{"content": "x"}); code != 200 || h.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("create %d without limits: %d %v", i, code, h)
		}
	}
}

// v2 is a Components V2 message body.
func v2(comps ...any) map[string]any {
	return map[string]any{"flags": flagComponentsV2, "components": comps}
}

func text(s string) map[string]any { return map[string]any{"type": 10, "content": s} }

func container(kids ...any) map[string]any {
	return map[string]any{"type": 17, "accent_color": 0x2B7A78, "components": kids}
}

func gallery(urls ...string) map[string]any {
	var items []any
	for _, u := range urls {
		items = append(items, map[string]any{"media": map[string]any{"url": u}, "description": "the board"})
	}
	return map[string]any{"type": 12, "items": items}
}

func button(id string) map[string]any {
	return map[string]any{"type": 2, "style": 1, "label": "Join", "custom_id": id}
}

// postMultipart posts body with one PNG named name.
func postMultipart(t *testing.T, s *Server, channel string, body map[string]any, name string) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	pj, _ := json.Marshal(body)
	mw.WriteField("payload_json", string(pj))
	fw, _ := mw.CreateFormFile("files[0]", name)
	fw.Write([]byte("\x89PNG"))
	mw.Close()
	return do(t, "POST", s.URL()+"/api/v9/channels/"+channel+"/messages", "Bot tok", mw.FormDataContentType(), &buf)
}

func TestComponentsV2(t *testing.T) {
	s := New(t, Options{Token: "tok", ExpectRefusals: true, MessageRate: RateLimit{Limit: -1}, EditRate: RateLimit{Limit: -1}})
	many := func(n int) []any {
		var out []any
		for i := range n {
			out = append(out, text(fmt.Sprint("line ", i)))
		}
		return out
	}
	section := func(texts int, acc any) map[string]any {
		m := map[string]any{"type": 9, "components": many(texts)}
		if acc != nil {
			m["accessory"] = acc
		}
		return m
	}
	thumb := map[string]any{"type": 11, "media": map[string]any{"url": "https://example.org/a.png"}}
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = "https://example.org/a.png"
	}
	// 8 containers of 4 texts: 40 components; one text more is 41.
	var forty []any
	for range 8 {
		forty = append(forty, container(many(4)...))
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		path string
		kind string
	}{
		{"content beside the flag", map[string]any{"flags": flagComponentsV2, "content": "hi", "components": []any{text("x")}}, "content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{"embeds beside the flag", map[string]any{"flags": flagComponentsV2, "embeds": []any{embed("title", "t")}, "components": []any{text("x")}}, "embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{"a button at the top", v2(button("a")), "components.0.type", "UNION_TYPE_CHOICES"},
		{"a text display without the flag", map[string]any{"components": []any{text("x")}}, "components.0.type", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"},
		{"41 components", v2(append(forty, text("one more"))...), "components", "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED"},
		{"4001 characters of text", v2(text(strings.Repeat("é", 2000)), text(strings.Repeat("é", 2001))), "components", "COMPONENT_DISPLAYABLE_TEXT_SIZE_EXCEEDED"},
		{"empty text display", v2(text("")), "components.0.content", "BASE_TYPE_REQUIRED"},
		{"section of 4 texts", v2(section(4, thumb)), "components.0.components", "BASE_TYPE_BAD_LENGTH"},
		{"section without accessory", v2(section(1, nil)), "components.0.accessory", "BASE_TYPE_REQUIRED"},
		{"section with a text as accessory", v2(section(1, text("no"))), "components.0.accessory.type", "UNION_TYPE_CHOICES"},
		{"gallery of 11", v2(gallery(eleven...)), "components.0.items", "BASE_TYPE_BAD_LENGTH"},
		{"empty gallery", v2(map[string]any{"type": 12, "items": []any{}}), "components.0.items", "BASE_TYPE_BAD_LENGTH"},
		{"gallery of a missing attachment", v2(gallery("attachment://board.png")), "components.0.items.0.media.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"},
		{"gallery of a bad URL", v2(gallery("ftp://e.org/a.png")), "components.0.items.0.media.url", "UNFURLED_MEDIA_ITEM_INVALID_URL"},
		{"alt text of 1025", v2(map[string]any{"type": 12, "items": []any{map[string]any{"media": map[string]any{"url": "https://e.org/a.png"}, "description": strings.Repeat("d", 1025)}}}),
			"components.0.items.0.description", "BASE_TYPE_MAX_LENGTH"},
		{"file from a URL", v2(map[string]any{"type": 13, "file": map[string]any{"url": "https://e.org/a.txt"}}), "components.0.file.url", "UNFURLED_MEDIA_ITEM_INVALID_URL"},
		{"separator spacing 3", v2(text("a"), map[string]any{"type": 14, "spacing": 3}), "components.1.spacing", "BASE_TYPE_CHOICES"},
		{"container in a container", v2(container(container(text("x")))), "components.0.components.0.type", "UNION_TYPE_CHOICES"},
		{"empty container", v2(map[string]any{"type": 17, "components": []any{}}), "components.0.components", "BASE_TYPE_BAD_LENGTH"},
		{"container of 11", v2(container(many(11)...)), "components.0.components", "BASE_TYPE_BAD_LENGTH"},
		{"accent colour past white", v2(map[string]any{"type": 17, "accent_color": 0x1000000, "components": []any{text("x")}}), "components.0.accent_color", "NUMBER_TYPE_MAX"},
		{"repeated custom id in a container", v2(container(row(button("j")), section(1, button("j")))), "components.0.components.1.accessory.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"repeated component id", v2(map[string]any{"type": 10, "id": 7, "content": "a"}, map[string]any{"type": 10, "id": 7, "content": "b"}), "components.1.id", "COMPONENT_ID_DUPLICATED"},
		{"six buttons in a row", v2(container(row(button("1"), button("2"), button("3"), button("4"), button("5"), button("6")))), "components.0.components.0.components", "BASE_TYPE_BAD_LENGTH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, _ := rest(t, s, "POST", "channels/50/messages", tc.body)
			wantRefusal(t, code, body, 50035, tc.path, tc.kind)
		})
	}
	if n := len(s.Messages("50")); n != 0 {
		t.Fatalf("%d refused messages were stored", n)
	}

	// A scoreboard as the product would send it: accepted, with its picture.
	board := v2(container(
		text("## Race #1"),
		map[string]any{"type": 14, "divider": true, "spacing": 1},
		section(2, button("race:leave:1")),
		gallery("attachment://board.png"),
		row(button("race:join:1"), map[string]any{"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"}),
	), text("-# updated live"))
	board["nonce"] = "sb-1"
	code, body := postMultipart(t, s, "50", board, "board.png")
	if code != 200 || !strings.Contains(body, `"flags":32768`) {
		t.Fatalf("a valid V2 message: %d %s", code, body)
	}
	// 40 exactly is allowed.
	if code, body, _ := rest(t, s, "POST", "channels/50/messages", v2(forty...)); code != 200 {
		t.Errorf("40 components: %d %s", code, body)
	}
	var m struct{ ID string }
	json.Unmarshal([]byte(body), &m)

	// Edits: the flag stays (an edit may not remove it, nor add content);
	// the picture uploaded first can still be shown.
	edit := func(body map[string]any) (int, string) {
		code, reply, _ := rest(t, s, "PATCH", "channels/50/messages/"+m.ID, body)
		return code, reply
	}
	code, body = edit(map[string]any{"flags": 0, "content": "plain again"})
	wantRefusal(t, code, body, 50035, "flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG")
	code, body = edit(map[string]any{"content": "words"})
	wantRefusal(t, code, body, 50035, "content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	if code, body := edit(map[string]any{"components": []any{container(text("## Race #1 — 2 finished"), gallery("attachment://board.png"))}}); code != 200 || !strings.Contains(body, `"flags":32768`) {
		t.Errorf("an edit keeping the picture: %d %s", code, body)
	}
	// A plain message becomes V2 by an edit only once its content is gone.
	plain := postMessage(t, s, "50", map[string]any{"content": "lobby"})
	code, body, _ = rest(t, s, "PATCH", "channels/50/messages/"+plain, v2(text("x")))
	wantRefusal(t, code, body, 50035, "content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	up := v2(text("x"))
	up["content"] = nil
	if code, body, _ := rest(t, s, "PATCH", "channels/50/messages/"+plain, up); code != 200 {
		t.Errorf("an upgrade clearing content: %d %s", code, body)
	}

	// The same rules hold for an interaction's answer.
	cbS := newSession(t, Options{})
	cb, orig, _ := pending(t, cbS)
	code, body = do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 4, "data": map[string]any{"flags": flagComponentsV2, "content": "x", "components": []any{text("y")}}}))
	wantRefusal(t, code, body, 50035, "data.content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	if code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 4, "data": v2(container(text("board")))})); code != 204 {
		t.Fatalf("a V2 answer: %d %s", code, body)
	}
	code, body = do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"flags": 0, "components": []any{row(button("x"))}}))
	wantRefusal(t, code, body, 50035, "flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG")
	if code, body := do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"components": []any{text("edited")}})); code != 200 || !strings.Contains(body, `"flags":32768`) {
		t.Errorf("a V2 edit of @original: %d %s", code, body)
	}
}

// TestAnswersAreChannelMessages: a public answer to an interaction is a
// message of its channel (a race's lobby: a thread is made from it, edits
// of @original show there); an ephemeral one is not.
func TestAnswersAreChannelMessages(t *testing.T) {
	s := newSession(t, Options{})
	answer := func(flags int, deferFirst bool) (string, string) {
		t.Helper()
		p, err := s.Interact(Interaction{Type: ApplicationCommand, GuildID: "1", ChannelID: "60", User: User{ID: "5"}, Data: Slash("race")})
		if err != nil {
			t.Fatal(err)
		}
		cb := s.URL() + "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback"
		orig := s.URL() + "/api/v9/webhooks/100/" + p.Token + "/messages/@original"
		if deferFirst {
			do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 5, "data": map[string]any{"flags": flags}}))
			do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"content": "Race lobby (deferred)"}))
		} else {
			do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 4, "data": map[string]any{"content": "Race lobby", "flags": flags}}))
		}
		_, body := do(t, "GET", orig, "", "", nil)
		var m struct{ ID string }
		json.Unmarshal([]byte(body), &m)
		return m.ID, orig
	}
	lobby, orig := answer(0, false)
	deferred, _ := answer(0, true)
	private, _ := answer(64, false)
	privateDeferred, _ := answer(64, true)
	if code, body, _ := rest(t, s, "POST", "channels/60/messages/"+lobby+"/threads", map[string]any{"name": "Race"}); code != 201 {
		t.Errorf("thread from a public answer: %d %s", code, body)
	}
	do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"content": "Race lobby: started"}))
	if code, body, _ := rest(t, s, "GET", "channels/60/messages/"+lobby, nil); code != 200 || !strings.Contains(body, "started") {
		t.Errorf("the lobby in its channel: %d %s", code, body)
	}
	if code, body, _ := rest(t, s, "GET", "channels/60/messages/"+deferred, nil); code != 200 || !strings.Contains(body, "deferred") {
		t.Errorf("a deferred public answer in its channel: %d %s", code, body)
	}
	for _, id := range []string{private, privateDeferred} {
		code, body, _ := rest(t, s, "POST", "channels/60/messages/"+id+"/threads", map[string]any{"name": "Race"})
		wantCode(t, "thread from an ephemeral answer", code, body, 404, 10008)
	}
	do(t, "DELETE", orig, "", "", nil)
	if code, _, _ := rest(t, s, "GET", "channels/60/messages/"+lobby, nil); code != 404 {
		t.Errorf("a deleted answer is still in its channel: %d", code)
	}
}

// TestUpdatesKeepV2: a button on a V2 message is answered by updates that
// keep the flag, at once (type 7) or after a deferral (type 6, then an
// edit of @original).
func TestUpdatesKeepV2(t *testing.T) {
	s := newSession(t, Options{})
	click := func() (cb, orig string) {
		t.Helper()
		p, err := s.Interact(Interaction{Type: MessageComponent, GuildID: "1", User: User{ID: "5"}, Data: map[string]any{"custom_id": "race:j:1", "component_type": 2},
			Message: map[string]any{"id": "77", "flags": flagComponentsV2, "components": []any{text("lobby")}}})
		if err != nil {
			t.Fatal(err)
		}
		return s.URL() + "/api/v9/interactions/" + p.ID + "/" + p.Token + "/callback", s.URL() + "/api/v9/webhooks/100/" + p.Token + "/messages/@original"
	}
	cb, _ := click()
	code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 7, "data": map[string]any{"content": "joined"}}))
	wantRefusal(t, code, body, 50035, "data.content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	code, body = do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 7, "data": map[string]any{"flags": 0, "components": []any{row(button("x"))}}}))
	wantRefusal(t, code, body, 50035, "data.flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG")
	if code, body := do(t, "POST", cb, "", "application/json", jsonOf(t, map[string]any{"type": 7, "data": map[string]any{"components": []any{text("lobby: 2 players")}}})); code != 204 {
		t.Errorf("a V2 update: %d %s", code, body)
	}
	cb, orig := click()
	do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":6}`))
	code, body = do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"content": "joined"}))
	wantRefusal(t, code, body, 50035, "content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	if code, body := do(t, "PATCH", orig, "", "application/json", jsonOf(t, map[string]any{"components": []any{text("lobby: 3 players")}})); code != 200 {
		t.Errorf("a V2 edit after a deferred update: %d %s", code, body)
	}
}
