package activity

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"sudokubot/commands"
	"sudokubot/store"
)

// pgSchema makes an empty schema on DATABASE_URL_TEST's server for t
// (dropped after it) and returns a URL that uses it; it skips t without
// the variable.
func pgSchema(t testing.TB) string {
	t.Helper()
	url := os.Getenv("DATABASE_URL_TEST")
	if url == "" {
		t.Skip("DATABASE_URL_TEST is not set: the two-process test needs PostgreSQL")
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "sudokubot_test_" + hex.EncodeToString(b[:])
	admin, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(context.Background(), `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}

// process is one bot process's board server: its own store handle (its
// own connections and LISTEN), service and HTTP server.
type process struct {
	st  *store.Postgres
	svc *commands.Service
	srv *Server
	url string
}

func newProcess(t testing.TB, dbURL string, key []byte, now func() time.Time) *process {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &process{st: st, svc: commands.New(commands.Config{Games: st, Puzzles: testPuzzles{}})}
	watching := &readyChanges{Changes: storeChanges{st}, ready: make(chan struct{})}
	if p.srv, err = New(Config{Boards: p.svc, Local: &ada, SessionKey: key, Now: now, Changes: watching}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.srv.Run(ctx); close(done) }()
	hs := httptest.NewServer(p.srv)
	p.url = hs.URL
	t.Cleanup(func() { cancel(); <-done; hs.Close(); st.Close() })
	watching.wait(t) // LISTENing: no move is missed from here on
	return p
}

// liveChildEnv, set, makes TestLiveAcrossProcesses the second process: a
// board server on the PostgreSQL database it names.
const liveChildEnv = "SUDOKUBOT_LIVE_CHILD_DB"

// liveKey is the session key both processes share (as the store keeps
// one for every process).
var liveKey = []byte("a key both processes share")

// liveClock is both processes' time, so one's sessions hold on the other.
func liveClock() *clock { return &clock{t: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)} }

// TestLiveAcrossProcesses: two processes (this test and a second run of
// its binary) on one PostgreSQL database; a page's socket on the second
// sees the moves made through the first (its HTTP API, and chat's board
// API), through LISTEN/NOTIFY.
func TestLiveAcrossProcesses(t *testing.T) {
	if db := os.Getenv(liveChildEnv); db != "" {
		runLiveChild(t, db)
		return
	}
	dbURL := pgSchema(t)
	clock := liveClock()
	a := newProcess(t, dbURL, liveKey, clock.now)
	bURL := startLiveChild(t, dbURL)
	e := &env{svc: a.svc, srv: a.srv, clock: clock}
	tok := e.token(ada)
	start := e.do(t, "POST", "/api/game", tok, `{"size":4,"level":"easy"}`)
	if start.status != 200 {
		t.Fatalf("start: %d %s", start.status, start.Error)
	}
	g := start.Game
	sock := dial(t, bURL, helloFor(tok, g.ID)) // the page is on the other process
	if m := sock.next(); m.Game.ID != g.ID {
		t.Fatalf("first message = %+v, want game %d", m, g.ID)
	}
	free := emptyCells(g)
	mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":3}`, free[0]))
	if mv.status != 200 {
		t.Fatalf("move on this process: %d %s", mv.status, mv.Error)
	}
	if m := sock.until("the move made on the other process", func(m liveMsg) bool { return m.Game.Notes[free[0]] == 3 }); m.By != ada.UserID {
		t.Errorf("the move came by %q, want %s", m.By, ada.UserID)
	}
	if _, err := a.svc.PlayBoard(context.Background(), ada, g.ID, []commands.BoardMove{{Cell: free[1], Kind: commands.MoveNotes, Notes: 5}}, clock.now()); err != nil {
		t.Fatal(err)
	}
	sock.until("chat's move on the other process", func(m liveMsg) bool { return m.Game.Notes[free[1]] == 5 })
}

// startLiveChild runs this test binary as the second process and returns
// its board's URL.
func startLiveChild(t *testing.T, dbURL string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLiveAcrossProcesses$", "-test.count=1")
	cmd.Env = append(os.Environ(), liveChildEnv+"="+dbURL)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "live child at "); ok {
				url <- u
				return
			}
		}
		url <- ""
	}()
	select {
	case u := <-url:
		if u == "" {
			t.Fatal("the second process ended before it served")
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the second process didn't serve within 30 s")
	}
	return ""
}

// runLiveChild is the second process: a board server on dbURL until the
// first process ends it.
func runLiveChild(t *testing.T, dbURL string) {
	p := newProcess(t, dbURL, liveKey, liveClock().now)
	fmt.Printf("live child at %s\n", p.url)
	<-time.After(2 * time.Minute) // the parent kills it long before
}
