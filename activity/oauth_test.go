package activity

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeOAuth is Discord's token endpoint and users/@me as the Activity uses
// them: a code works once, for one user; the token works for users/@me.
type fakeOAuth struct {
	mu    sync.Mutex
	codes map[string]string // code → user id
	users map[string]string // token → user id
	down  bool
}

func (f *fakeOAuth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		w.WriteHeader(502)
		return
	}
	switch r.URL.Path {
	case "/api/v10/oauth2/token":
		r.ParseForm()
		if r.Form.Get("client_id") != "app" || r.Form.Get("client_secret") != "s3cret" {
			w.WriteHeader(401)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client"})
			return
		}
		user, ok := f.codes[r.Form.Get("code")]
		if !ok || r.Form.Get("grant_type") != "authorization_code" {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant", "error_description": "Invalid \"code\" in request."})
			return
		}
		delete(f.codes, r.Form.Get("code")) // a code works once
		tok := "tok-" + user
		f.users[tok] = user
		json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"})
	case "/api/v10/users/@me":
		user, ok := f.users[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		if !ok {
			w.WriteHeader(401)
			json.NewEncoder(w).Encode(map[string]any{"message": "401: Unauthorized", "code": 0})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": user, "username": "ada", "global_name": "Ada"})
	default:
		http.NotFound(w, r)
	}
}

func TestDiscordOAuth(t *testing.T) {
	fake := &fakeOAuth{codes: map[string]string{"code-ada": "100"}, users: map[string]string{}}
	ts := httptest.NewServer(fake)
	defer ts.Close()
	oauth := DiscordOAuth{ClientID: "app", ClientSecret: "s3cret", APIBase: ts.URL}
	ctx := context.Background()

	in, err := oauth.SignIn(ctx, "code-ada")
	if err != nil || in.Player.UserID != "100" || in.Player.UserName != "Ada" || in.AccessToken != "tok-100" {
		t.Fatalf("sign-in: %+v, %v", in, err)
	}
	tests := []struct {
		name  string
		o     DiscordOAuth
		code  string
		says  string
		setup func()
	}{
		{name: "replayed code", o: oauth, code: "code-ada", says: "token exchange: status 400 invalid_grant"},
		{name: "unknown code", o: oauth, code: "forged", says: "status 400 invalid_grant"},
		{name: "wrong secret", o: DiscordOAuth{ClientID: "app", ClientSecret: "nope", APIBase: ts.URL}, code: "x", says: "status 401 invalid_client"},
		{name: "no secret", o: DiscordOAuth{ClientID: "app", APIBase: ts.URL}, code: "x", says: "no client id or secret"},
		{name: "no code", o: oauth, code: "", says: "no code"},
		{name: "huge code", o: oauth, code: strings.Repeat("c", 600), says: "too long"},
		{name: "Discord down", o: oauth, code: "x", says: "status 502", setup: func() { fake.mu.Lock(); fake.down = true; fake.mu.Unlock() }},
	}
	for _, tt := range tests {
		if tt.setup != nil {
			tt.setup()
		}
		_, err := tt.o.SignIn(ctx, tt.code)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.says)
			continue
		}
		for _, secret := range []string{"s3cret", "nope", "tok-", "code-ada", "forged"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error %q shows %q", tt.name, err, secret)
			}
		}
	}
	// Through the server: a code signs in as Discord's user.
	fake.mu.Lock()
	fake.down = false
	fake.codes["code-bob"] = "200"
	fake.mu.Unlock()
	e := newEnv(t, Config{})
	srv, err := New(Config{Boards: e.svc, SignIn: oauth, Now: e.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/api/session", strings.NewReader(`{"code":"code-bob"}`)))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"id":"200"`) {
		t.Errorf("sign-in through the server: %d %s", rec.Code, rec.Body)
	}
}
