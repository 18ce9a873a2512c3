package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sudokubot/internal/fakediscord"
)

// TestRunJSONLogsAndEndpoint runs `sudokubot` with the gateway and the HTTP
// endpoint together and LOG_FORMAT=json: an interaction signed by the fake
// is answered through the endpoint, every log line is a JSON object, and
// the token appears in none.
func TestRunJSONLogsAndEndpoint(t *testing.T) {
	const token = "cli-json-token-SECRET"
	fake := fakediscord.New(t, fakediscord.Options{Token: token, Guilds: []string{"1"}})
	env := map[string]string{
		"DISCORD_TOKEN":      token,
		"DISCORD_API_BASE":   fake.URL(),
		"DATABASE_PATH":      filepath.Join(t.TempDir(), "bot.db"),
		"INTERACTIONS_ADDR":  "127.0.0.1:0",
		"INTERACTIONS_PATH":  "/discord",
		"DISCORD_PUBLIC_KEY": fake.PublicKey(),
		"LOG_FORMAT":         "json",
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &syncBuf{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, nil, IO{Stdout: &bytes.Buffer{}, Stderr: stderr, Getenv: func(k string) string { return env[k] }})
	}()
	addr := regexp.MustCompile(`serving HTTP interactions at (127\.0\.0\.1:\d+)/discord`)
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(stderr.String()); m != nil {
			url = "http://" + m[1] + "/discord"
		}
	}
	if url == "" {
		t.Fatalf("no endpoint address in the log:\n%s", stderr)
	}
	if _, err := fake.WaitCall(20*time.Second, func(c fakediscord.Call) bool { return c.Method == "PUT" }); err != nil {
		t.Fatalf("commands not registered: %v\n%s", err, stderr)
	}
	p, err := fake.InteractHTTP(url, fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "1",
		User: fakediscord.User{ID: "7", Username: "u"}, Data: fakediscord.Slash("help")})
	if err != nil {
		t.Fatalf("InteractHTTP: %v\n%s", err, stderr)
	}
	c, err := fake.WaitCall(time.Second, func(c fakediscord.Call) bool { return c.Interaction == p.ID && c.IsCallback() })
	if err != nil || !c.HTTP || c.CallbackType() != 4 || c.Content()+string(c.Body) == "" {
		t.Fatalf("/help through the endpoint answered %+v, %v", c, err)
	}
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
	if strings.Contains(log, token) {
		t.Errorf("the token is in the log:\n%s", log)
	}
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) < 2 {
		t.Fatalf("only %d log lines:\n%s", len(lines), log)
	}
	for _, line := range lines {
		var rec struct {
			Time  string `json:"time"`
			Level string `json:"level"`
			Msg   string `json:"msg"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Time == "" || rec.Level != "INFO" || rec.Msg == "" {
			t.Errorf("log line is not a JSON record with time, level and msg: %q (%v)", line, err)
		}
	}
}
