package fakediscord

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func form(kv ...string) *strings.Reader {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return strings.NewReader(v.Encode())
}

const formType = "application/x-www-form-urlencoded"

func TestOAuthToken(t *testing.T) {
	s := New(t, Options{Token: "tok", ClientSecret: "s3cret", ExpectRefusals: true})
	ada := User{ID: "7", Username: "ada", GlobalName: "Ada"}
	s.AddOAuthCode("code-ada", ada)
	s.AddOAuthCode("code-2", ada)
	tokenURL := s.URL() + "/api/v9/oauth2/token"
	good := func(code string) *strings.Reader {
		return form("client_id", "100", "client_secret", "s3cret", "grant_type", "authorization_code", "code", code)
	}
	for _, tc := range []struct {
		name, contentType, auth string
		body                    *strings.Reader
		status                  int
		err                     string
	}{
		{"JSON body", "application/json", "", strings.NewReader(`{"code":"code-ada"}`), 400, "invalid_request"},
		{"wrong secret", formType, "", form("client_id", "100", "client_secret", "nope", "grant_type", "authorization_code", "code", "code-ada"), 401, "invalid_client"},
		{"wrong client id", formType, "", form("client_id", "101", "client_secret", "s3cret", "grant_type", "authorization_code", "code", "code-ada"), 401, "invalid_client"},
		{"no grant type", formType, "", form("client_id", "100", "client_secret", "s3cret", "code", "code-ada"), 400, "invalid_request"},
		{"other grant", formType, "", form("client_id", "100", "client_secret", "s3cret", "grant_type", "client_credentials"), 400, "unsupported_grant_type"},
		{"unknown code", formType, "", good("forged"), 400, "invalid_grant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := do(t, "POST", tokenURL, tc.auth, tc.contentType, tc.body)
			var e struct{ Error string }
			json.Unmarshal([]byte(body), &e)
			if status != tc.status || e.Error != tc.err {
				t.Errorf("got %d %s, want %d %s", status, body, tc.status, tc.err)
			}
		})
	}

	status, body := do(t, "POST", tokenURL, "", formType, good("code-ada"))
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if json.Unmarshal([]byte(body), &tok); status != 200 || tok.AccessToken == "" || tok.TokenType != "Bearer" {
		t.Fatalf("exchange: %d %s", status, body)
	}
	if status, body := do(t, "POST", tokenURL, "", formType, good("code-ada")); status != 400 || !strings.Contains(body, "invalid_grant") {
		t.Errorf("a code works once: the replay got %d %s", status, body)
	}
	// HTTP Basic authenticates the client as well as the form does.
	basic := "Basic " + "MTAwOnMzY3JldA==" // 100:s3cret
	if status, body := do(t, "POST", tokenURL, basic, formType, form("grant_type", "authorization_code", "code", "code-2")); status != 200 {
		t.Errorf("basic auth: %d %s", status, body)
	}

	me := s.URL() + "/api/v10/users/@me"
	status, body = do(t, "GET", me, "Bearer "+tok.AccessToken, "", nil)
	var u map[string]any
	if json.Unmarshal([]byte(body), &u); status != 200 || u["id"] != "7" || u["global_name"] != "Ada" {
		t.Errorf("users/@me with the token: %d %s", status, body)
	}
	if status, _ := do(t, "GET", me, "Bearer forged", "", nil); status != 401 {
		t.Errorf("users/@me with a forged token: %d, want 401", status)
	}
	if status, body := do(t, "GET", me, "Bot tok", "", nil); status != 200 || !strings.Contains(body, `"bot":true`) {
		t.Errorf("users/@me with the bot token is the bot: %d %s", status, body)
	}
	// The replayed and forged codes came from the page, not the bot: only
	// the bot's own mistakes count.
	for _, c := range s.Refused() {
		if strings.Contains(c.Path, "oauth2") && strings.Contains(string(c.Reply), "invalid_grant") {
			t.Errorf("an invalid code counted as the bot's refusal: %s", c.Reply)
		}
	}
	if n := len(s.Refused()); n != 3 {
		t.Errorf("Refused: %d calls, want the bot's 3 bad requests (JSON body, no grant, other grant)", n)
	}
}

func TestActivityInstance(t *testing.T) {
	for _, activities := range []bool{true, false} {
		s := New(t, Options{Token: "tok", Activities: activities})
		s.SetActivityInstance("i-1", "300", "7", "8")
		status, body := do(t, "GET", s.URL()+"/api/v9/applications/100/activity-instances/i-1", "Bot tok", "", nil)
		if !activities {
			if status != 404 {
				t.Errorf("not embedded: %d %s, want 404", status, body)
			}
			continue
		}
		var in struct {
			InstanceID string   `json:"instance_id"`
			Users      []string `json:"users"`
			Location   struct {
				Kind      string `json:"kind"`
				ChannelID string `json:"channel_id"`
				GuildID   string `json:"guild_id"`
			} `json:"location"`
		}
		if json.Unmarshal([]byte(body), &in); status != 200 || in.InstanceID != "i-1" || strings.Join(in.Users, ",") != "7,8" || in.Location.ChannelID != "300" || in.Location.Kind != "pc" {
			t.Errorf("instance: %d %s", status, body)
		}
		s.SetGuildActivityInstance("i-3", "900", "301", "7")
		status, body = do(t, "GET", s.URL()+"/api/v9/applications/100/activity-instances/i-3", "Bot tok", "", nil)
		if json.Unmarshal([]byte(body), &in); status != 200 || in.Location.Kind != "gc" || in.Location.GuildID != "900" || in.Location.ChannelID != "301" {
			t.Errorf("an instance in a server's channel: %d %s", status, body)
		}
		for _, tc := range []struct{ path, auth string }{
			{"/api/v9/applications/100/activity-instances/i-2", "Bot tok"},
			{"/api/v9/applications/101/activity-instances/i-1", "Bot tok"},
			{"/api/v9/applications/100/activity-instances/i-1", "Bearer x"},
		} {
			if status, _ := do(t, "GET", s.URL()+tc.path, tc.auth, "", nil); status != 404 && status != 401 {
				t.Errorf("%s with %q: %d, want a refusal", tc.path, tc.auth, status)
			}
		}
	}
}

func TestLaunchActivityCallback(t *testing.T) {
	s := newSession(t, Options{Activities: true})
	launch := func(kind int, body string) (int, string) {
		p, err := s.Interact(Interaction{Type: kind, User: User{ID: "1"}, Data: Slash("play")})
		if err != nil {
			t.Fatal(err)
		}
		return do(t, "POST", s.URL()+"/api/v9/interactions/"+p.ID+"/"+p.Token+"/callback", "", "application/json", strings.NewReader(body))
	}
	for _, kind := range []int{ApplicationCommand, MessageComponent} {
		if status, body := launch(kind, `{"type":12}`); status != 204 {
			t.Errorf("launch for interaction type %d: %d %s", kind, status, body)
		}
	}
	if status, body := launch(ApplicationCommand, `{"type":12,"data":null}`); status != 204 {
		t.Errorf("launch with data null: %d %s", status, body)
	}
	for _, tc := range []struct {
		kind             int
		body, path, want string
	}{
		{ModalSubmit, `{"type":12}`, "type", "INTERACTION_CALLBACK_TYPE_INVALID"},
		{Autocomplete, `{"type":12}`, "type", "INTERACTION_CALLBACK_TYPE_INVALID"},
		{ApplicationCommand, `{"type":12,"data":{"content":"hi"}}`, "data", "INTERACTION_CALLBACK_DATA_INVALID"},
		{MessageComponent, `{"type":12,"data":{}}`, "data", "INTERACTION_CALLBACK_DATA_INVALID"},
	} {
		status, body := launch(tc.kind, tc.body)
		wantRefusal(t, status, body, 50035, tc.path, tc.want)
	}
	// The launched interaction has no message to edit.
	p, _ := s.Interact(Interaction{Type: ApplicationCommand, User: User{ID: "1"}, Data: Slash("play")})
	do(t, "POST", s.URL()+"/api/v9/interactions/"+p.ID+"/"+p.Token+"/callback", "", "application/json", strings.NewReader(`{"type":12}`))
	if status, _ := do(t, "PATCH", s.URL()+"/api/v9/webhooks/100/"+p.Token+"/messages/@original", "", "application/json", strings.NewReader(`{"content":"x"}`)); status != 404 {
		t.Errorf("edit after a launch: %d, want 404", status)
	}

	plain := newSession(t, Options{})
	p, _ = plain.Interact(Interaction{Type: ApplicationCommand, User: User{ID: "1"}, Data: Slash("play")})
	status, body := do(t, "POST", plain.URL()+"/api/v9/interactions/"+p.ID+"/"+p.Token+"/callback", "", "application/json", strings.NewReader(`{"type":12}`))
	wantRefusal(t, status, body, 50035, "type", "INTERACTION_CALLBACK_TYPE_INVALID")
}

func TestEntryPointCommands(t *testing.T) {
	chat := map[string]any{"type": 1, "name": "play", "description": "Play"}
	entry := func(kv ...any) map[string]any {
		m := map[string]any{"type": 4, "name": "launch", "description": "Open the board", "handler": 2}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	s := New(t, Options{Token: "tok", Activities: true, ExpectRefusals: true})
	global := s.URL() + "/api/v9/applications/100/commands"
	if got := s.Registered(""); len(got) != 1 || got[0]["type"] != float64(4) {
		t.Fatalf("with Activities on, Discord's own entry point is registered: %v", got)
	}
	for _, tc := range []struct {
		name string
		cmds []any
		path string
		want string
	}{
		{"two entry points", []any{entry(), entry("name", "open")}, "", "APPLICATION_COMMANDS_TOO_MANY"},
		{"handler 3", []any{chat, entry("handler", 3)}, "1.handler", "BASE_TYPE_CHOICES"},
		{"handler on a chat command", []any{map[string]any{"type": 1, "name": "play", "description": "Play", "handler": 2}, entry()}, "0.handler", "APPLICATION_COMMAND_INVALID_HANDLER"},
		{"options on an entry point", []any{entry("options", []any{map[string]any{"type": 3, "name": "a", "description": "d"}})}, "0.options", "APPLICATION_COMMAND_INVALID_OPTIONS"},
		{"type 5", []any{map[string]any{"type": 5, "name": "x", "description": "x"}, entry()}, "0.type", "BASE_TYPE_CHOICES"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := do(t, "PUT", global, "Bot tok", "application/json", jsonOf(t, tc.cmds))
			wantRefusal(t, code, body, 50035, tc.path, tc.want)
		})
	}
	// Leaving Discord's entry point out of a global overwrite is refused,
	// and nothing changes.
	code, body := do(t, "PUT", global, "Bot tok", "application/json", jsonOf(t, []any{chat}))
	if code != 400 || !strings.Contains(body, "50240") {
		t.Errorf("overwrite without the entry point: %d %s, want 400 50240", code, body)
	}
	if got := s.Registered(""); len(got) != 1 || got[0]["name"] != "launch" {
		t.Errorf("a refused overwrite changed the commands: %v", got)
	}
	if code, body := do(t, "PUT", global, "Bot tok", "application/json", jsonOf(t, []any{chat, entry()})); code != 200 {
		t.Errorf("overwrite with the entry point: %d %s", code, body)
	}
	if got := s.Registered(""); len(got) != 2 {
		t.Errorf("after the overwrite: %v", got)
	}
	// Guild commands never hold one, and the guild overwrite needs none.
	guild := s.URL() + "/api/v9/applications/100/guilds/5/commands"
	code, body = do(t, "PUT", guild, "Bot tok", "application/json", jsonOf(t, []any{chat, entry()}))
	wantRefusal(t, code, body, 50035, "1.type", "APPLICATION_COMMAND_TYPE_INVALID")
	if code, body := do(t, "PUT", guild, "Bot tok", "application/json", jsonOf(t, []any{chat})); code != 200 {
		t.Errorf("guild overwrite: %d %s", code, body)
	}

	// An app without Activities has no entry point and may not make one.
	plain := New(t, Options{Token: "tok", ExpectRefusals: true})
	if got := plain.Registered(""); len(got) != 0 {
		t.Errorf("no Activities, yet commands: %v", got)
	}
	code, body = do(t, "PUT", plain.URL()+"/api/v9/applications/100/commands", "Bot tok", "application/json", jsonOf(t, []any{chat, entry()}))
	wantRefusal(t, code, body, 50035, "1.type", "APPLICATION_COMMAND_TYPE_INVALID")
	if code, body := do(t, "PUT", plain.URL()+"/api/v9/applications/100/commands", "Bot tok", "application/json", jsonOf(t, []any{chat})); code != 200 {
		t.Errorf("plain overwrite: %d %s", code, body)
	}
}
