package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/internal/fakediscord"
)

func TestRunWithoutTokenExplains(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), nil, IO{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
	// 2, a configuration error: deploy/sudokubot.service does not restart
	// on it.
	if code != exitUsage {
		t.Fatalf("exit code %d without a token, want %d", code, exitUsage)
	}
	msg := errOut.String()
	for _, want := range []string{"DISCORD_TOKEN", "discord.com/developers/applications", "applications.commands", "oauth2/authorize", "go run . console"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

func TestRunRejectsBadSettings(t *testing.T) {
	var errOut bytes.Buffer
	env := map[string]string{"DISCORD_TOKEN": "x", "SOLVE_TIMEOUT": "soon"}
	code := Run(context.Background(), []string{"run"}, IO{Stdout: &bytes.Buffer{}, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
	if code != 2 || !strings.Contains(errOut.String(), "SOLVE_TIMEOUT") {
		t.Errorf("exit %d, stderr %q; want 2 naming SOLVE_TIMEOUT", code, errOut.String())
	}
	if strings.Contains(errOut.String(), "x\n") {
		t.Errorf("token echoed")
	}
}

func TestRunDatabaseInMissingFolder(t *testing.T) {
	var errOut bytes.Buffer
	dir := filepath.Join(t.TempDir(), "nowhere")
	env := map[string]string{"DISCORD_TOKEN": "x", "DATABASE_PATH": filepath.Join(dir, "bot.db")}
	code := Run(context.Background(), []string{"run"}, IO{Stdout: &bytes.Buffer{}, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
	msg := errOut.String()
	if code != 1 || !strings.Contains(msg, "the folder \""+dir+"\" does not exist") || strings.Contains(msg, "out of memory") {
		t.Errorf("exit %d, stderr %q; want 1 and the missing folder named", code, msg)
	}
}

// syncBuf is a concurrency-safe stderr for the running bot.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunServesAgainstFakeDiscord runs `sudokubot` (no arguments) as main
// does, with the environment pointing at a fake Discord: it registers the
// commands, answers one, and stops cleanly on cancel.
func TestRunServesAgainstFakeDiscord(t *testing.T) {
	const token = "cli-token-SECRET"
	fake := fakediscord.New(t, fakediscord.Options{Token: token, Guilds: []string{"1"}})
	env := map[string]string{
		"DISCORD_TOKEN":    token,
		"DISCORD_API_BASE": fake.URL(),
		"DISCORD_GUILD_ID": "42",
		"DATABASE_PATH":    filepath.Join(t.TempDir(), "bot.db"),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &syncBuf{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, nil, IO{Stdout: &bytes.Buffer{}, Stderr: stderr, Getenv: func(k string) string { return env[k] }})
	}()
	if _, err := fake.WaitCall(20*time.Second, func(c fakediscord.Call) bool {
		return c.Method == "PUT" && c.Path == "/api/v9/applications/100/guilds/42/commands"
	}); err != nil {
		t.Fatalf("commands not registered in guild 42: %v\n%s", err, stderr)
	}
	// The Service was given the bot's channels: races are on.
	var names []string
	for _, cmd := range fake.Registered("42") {
		names = append(names, fmt.Sprint(cmd["name"]))
	}
	if !slices.Contains(names, "race") {
		t.Errorf("registered %v, want /race (the Service has no channels to post in)", names)
	}
	p, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "1",
		User: fakediscord.User{ID: "7", Username: "u"}, Data: fakediscord.Slash("help")})
	if err != nil {
		t.Fatal(err)
	}
	c, err := fake.WaitCall(20*time.Second, func(c fakediscord.Call) bool { return c.Interaction == p.ID && c.IsCallback() })
	if err != nil || c.CallbackType() != 4 {
		t.Fatalf("/help answer %+v, %v", c, err)
	}
	// The PUT is recorded when it arrives, before its answer reaches the bot:
	// wait for the ready line (logged after registration) before stopping.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(stderr.String(), "ready as") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after a clean stop\n%s", code, stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bot did not stop after cancel")
	}
	log := stderr.String()
	if !strings.Contains(log, "ready as sudokubot#1234 in 1 guilds (commands registered in guild 42)") {
		t.Errorf("no ready line in:\n%s", log)
	}
	if strings.Contains(log, token) {
		t.Errorf("the token is in the log:\n%s", log)
	}
}

// TestRunSignsInThroughDiscord: with DISCORD_CLIENT_ID and _SECRET, the
// board run beside the bot signs a player in with the code Discord's
// authorize() gave (exchanged at the fake's token endpoint, then
// users/@me) and hands back Discord's access token for the SDK; a
// replayed or forged code is refused; no secret, code or token reaches
// the log or the refusals.
func TestRunSignsInThroughDiscord(t *testing.T) {
	const token, secret = "cli-token-SECRET", "client-SECRET-1"
	fake := fakediscord.New(t, fakediscord.Options{Token: token, ClientSecret: secret, Guilds: []string{"1"}, Activities: true})
	fake.AddOAuthCode("code-ada-SECRET", fakediscord.User{ID: "7", Username: "ada", GlobalName: "Ada"})
	env := map[string]string{
		"DISCORD_TOKEN":         token,
		"DISCORD_API_BASE":      fake.URL(),
		"DISCORD_CLIENT_ID":     fake.AppID(),
		"DISCORD_CLIENT_SECRET": secret,
		"ACTIVITY_ADDR":         "127.0.0.1:0",
		"DATABASE_PATH":         filepath.Join(t.TempDir(), "bot.db"),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &syncBuf{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, nil, IO{Stdout: &bytes.Buffer{}, Stderr: stderr, Getenv: func(k string) string { return env[k] }})
	}()
	served := regexp.MustCompile(`the game board is served at (http://\S+/)`)
	var base string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := served.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		t.Fatalf("no board URL in the log:\n%s", stderr)
	}
	signIn := func(body string) (int, map[string]any, string) {
		resp, err := http.Post(base+"api/session", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var v map[string]any
		json.Unmarshal(raw, &v)
		return resp.StatusCode, v, string(raw)
	}
	status, got, raw := signIn(`{"code":"code-ada-SECRET"}`)
	user, _ := got["user"].(map[string]any)
	access, _ := got["accessToken"].(string)
	if status != 200 || user["id"] != "7" || user["name"] != "Ada" || got["token"] == "" || !strings.HasPrefix(access, "atoken-") {
		t.Fatalf("sign-in with Ada's code: %d %s", status, raw)
	}
	// The session works on the API as Ada.
	req, _ := http.NewRequest("GET", base+"api/game", nil)
	req.Header.Set("Authorization", "Bearer "+got["token"].(string))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound { // signed in, no game yet
		t.Errorf("GET /api/game with Ada's session: %d, want 404 (no game)", resp.StatusCode)
	}
	var refusals []string
	for _, body := range []string{`{"code":"code-ada-SECRET"}`, `{"code":"forged-SECRET"}`, `{}`} {
		status, got, raw := signIn(body)
		if status == 200 || got["token"] != nil || got["error"] == "" {
			t.Errorf("sign-in %s: %d %s, want a refusal", body, status, raw)
		}
		refusals = append(refusals, raw)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the bot did not stop after cancel")
	}
	// The fake saw the client authenticate and each code tried once.
	exchanges := 0
	for _, c := range fake.Calls() {
		if c.Path == "/api/v10/oauth2/token" {
			exchanges++
		}
	}
	if exchanges != 3 {
		t.Errorf("%d token exchanges, want 3 (Ada's, her replay, the forged code)", exchanges)
	}
	shown := stderr.String() + strings.Join(refusals, "\n")
	for _, s := range []string{secret, "code-ada", "forged-SECRET", access, token} {
		if strings.Contains(shown, s) {
			t.Errorf("%q is in the log or a refusal:\n%s", s, shown)
		}
	}
	if !strings.Contains(stderr.String(), "activity sign-in refused: discord sign-in: token exchange: status 400 invalid_grant") {
		t.Errorf("the refused sign-ins are not logged with their reason:\n%s", stderr)
	}
}
