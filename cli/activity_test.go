package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestActivitySettings(t *testing.T) {
	tests := []struct {
		env       map[string]string
		addr      string
		local     bool
		errSaying string
	}{
		{env: map[string]string{}},
		{env: map[string]string{"ACTIVITY_ADDR": ":8090"}, addr: ":8090"},
		{env: map[string]string{"ACTIVITY_ADDR": "127.0.0.1:8090", "ACTIVITY_LOCAL": "1"}, addr: "127.0.0.1:8090", local: true},
		{env: map[string]string{"ACTIVITY_LOCAL": "true"}, errSaying: "ACTIVITY_ADDR is not"},
		{env: map[string]string{"ACTIVITY_ADDR": ":8090", "ACTIVITY_LOCAL": "maybe"}, errSaying: "not true or false"},
	}
	for _, tt := range tests {
		addr, local, err := activitySettings(func(k string) string { return tt.env[k] })
		if tt.errSaying != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errSaying) {
				t.Errorf("%v: error %v, want one saying %q", tt.env, err, tt.errSaying)
			}
			continue
		}
		if err != nil || addr != tt.addr || local != tt.local {
			t.Errorf("%v: got %q %v %v, want %q %v", tt.env, addr, local, err, tt.addr, tt.local)
		}
	}
}

func TestActivityLocalOnlyOnLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", "example.com:0", "nonsense"} {
		var out, errOut strings.Builder
		code := Run(context.Background(), []string{"console", "-out", t.TempDir(), "-activity", addr}, IO{
			Stdin: strings.NewReader("quit\n"), Stdout: &out, Stderr: &errOut,
		})
		if code != 2 || errOut.Len() == 0 {
			t.Errorf("-activity %s: exit %d, stderr %q; want 2 and a reason", addr, code, errOut.String())
		}
	}
}

// syncBuffer is a strings.Builder safe to write and read from two
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestConsoleServesTheBoard: the console prints the board's URL, the page
// signs in as the console's user, and a game started at the prompt is the
// page's current game.
func TestConsoleServesTheBoard(t *testing.T) {
	in, feed := io.Pipe()
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- Run(context.Background(), []string{"console", "-out", t.TempDir(), "-activity", "127.0.0.1:0"}, IO{Stdin: in, Stdout: &out, Stderr: &errOut})
	}()
	urlRE := regexp.MustCompile(`The game board: (http://127\.0\.0\.1:\d+/)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("no board URL printed; stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `id="board"`) {
		t.Fatalf("the page: %d %.200s", resp.StatusCode, page)
	}
	resp, err = http.Post(url+"api/session", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	var sess struct {
		Token string `json:"token"`
	}
	json.NewDecoder(resp.Body).Decode(&sess)
	resp.Body.Close()
	if sess.Token == "" {
		t.Fatalf("local sign-in gave no token (%d)", resp.StatusCode)
	}
	io.WriteString(feed, "/play level:easy size:4\n")
	var game struct {
		Game struct {
			ID    int64  `json:"id"`
			Title string `json:"title"`
		} `json:"game"`
	}
	for deadline := time.Now().Add(10 * time.Second); game.Game.ID == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest("GET", url+"api/game", nil)
		req.Header.Set("Authorization", "Bearer "+sess.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == 200 {
			json.NewDecoder(resp.Body).Decode(&game)
		}
		resp.Body.Close()
	}
	if game.Game.ID == 0 || !strings.Contains(game.Game.Title, "4x4") {
		t.Fatalf("the page does not see the game started at the prompt: %+v\nstdout:\n%s", game, out.String())
	}
	io.WriteString(feed, "quit\n")
	feed.Close()
	if code := <-done; code != 0 {
		t.Fatalf("console exit %d: %s", code, errOut.String())
	}
}
