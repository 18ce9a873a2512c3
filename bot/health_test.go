package bot

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// togglePinger is a database whose ping fails while down is set.
type togglePinger struct{ down atomic.Bool }

func (p *togglePinger) Ping(context.Context) error {
	if p.down.Load() {
		return errors.New("connection refused")
	}
	return nil
}

func TestReadinessFollowsTheDatabase(t *testing.T) {
	db := &togglePinger{}
	hb := newHTTPBotDB(t, &scriptHandler{specs: testSpecs}, nil, db)
	base := "http://" + hb.bot.HTTPAddr()
	status := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := status("/readyz"); code != 200 {
		t.Errorf("/readyz with the database up = %d %q, want 200", code, body)
	}
	db.down.Store(true)
	if code, body := status("/readyz"); code != 503 || !strings.Contains(body, "database: connection refused") {
		t.Errorf("/readyz with the database down = %d %q, want 503 naming the database", code, body)
	}
	if code, _ := status("/healthz"); code != 200 {
		t.Errorf("/healthz with the database down = %d, want 200 (the process lives)", code)
	}
	if _, m := status("/metrics"); !strings.Contains(m, "sudokubot_database_errors_total 1") {
		t.Errorf("metrics lack one database error:\n%.1500s", m)
	}
	db.down.Store(false)
	if code, _ := status("/readyz"); code != 200 {
		t.Errorf("/readyz after the database came back = %d, want 200", code)
	}
	hb.shutdown()
	if err := hb.bot.readiness(context.Background()); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Errorf("readiness after shutdown = %v, want shutting down", err)
	}
}
