package activity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"os"
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
	if p.srv, err = New(Config{Boards: p.svc, Local: &ada, SessionKey: key, Now: now, Changes: storeChanges{st}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.srv.Run(ctx); close(done) }()
	hs := httptest.NewServer(p.srv)
	p.url = hs.URL
	t.Cleanup(func() { cancel(); <-done; hs.Close(); st.Close() })
	return p
}

// TestLiveAcrossProcesses: two processes on one PostgreSQL database; a
// page's socket on one sees the moves made through the other (its HTTP
// API, and chat's board API), through LISTEN/NOTIFY.
func TestLiveAcrossProcesses(t *testing.T) {
	dbURL := pgSchema(t)
	key := []byte("a key both processes share")
	clock := &clock{t: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}
	a := newProcess(t, dbURL, key, clock.now)
	b := newProcess(t, dbURL, key, clock.now)
	e := &env{st: nil, svc: a.svc, srv: a.srv, clock: clock}
	tok := e.token(ada)
	start := e.do(t, "POST", "/api/game", tok, `{"size":4,"level":"easy"}`)
	if start.status != 200 {
		t.Fatalf("start: %d %s", start.status, start.Error)
	}
	g := start.Game
	sock := dial(t, b.url, helloFor(tok, g.ID)) // the page is on process b
	if m := sock.next(); m.Game.ID != g.ID {
		t.Fatalf("first message = %+v, want game %d", m, g.ID)
	}
	free := emptyCells(g)
	// Process a's HTTP API (the move, not the page's socket, is on a).
	mv := e.do(t, "POST", fmt.Sprintf("/api/games/%d/move", g.ID), tok, fmt.Sprintf(`{"cell":%d,"kind":"notes","notes":3}`, free[0]))
	if mv.status != 200 {
		t.Fatalf("move on a: %d %s", mv.status, mv.Error)
	}
	if m := sock.until("the move made on the other process", func(m liveMsg) bool { return m.Game.Notes[free[0]] == 3 }); m.By != ada.UserID {
		t.Errorf("the move came by %q, want %s", m.By, ada.UserID)
	}
	// Chat's board API on process a.
	if _, err := a.svc.PlayBoard(context.Background(), ada, g.ID, []commands.BoardMove{{Cell: free[1], Kind: commands.MoveNotes, Notes: 5}}, clock.now()); err != nil {
		t.Fatal(err)
	}
	sock.until("chat's move on the other process", func(m liveMsg) bool { return m.Game.Notes[free[1]] == 5 })
}
