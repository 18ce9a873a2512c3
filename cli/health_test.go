package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealthURL(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{":9090", "http://127.0.0.1:9090/healthz"},
		{"0.0.0.0:9090", "http://127.0.0.1:9090/healthz"},
		{"[::]:8080", "http://127.0.0.1:8080/healthz"},
		{"10.0.0.5:9090", "http://10.0.0.5:9090/healthz"},
		{"localhost:9090", "http://localhost:9090/healthz"},
		{"[::1]:9090", "http://[::1]:9090/healthz"},
	} {
		if got, err := healthURL(tt.addr); err != nil || got != tt.want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", tt.addr, got, err, tt.want)
		}
	}
	if _, err := healthURL("9090"); err == nil {
		t.Error("healthURL(\"9090\") = nil error, want one")
	}
}

// TestHealth: exit 0 when /healthz answers 200, 1 when it answers
// otherwise or nothing listens, 2 when there is no address to ask.
func TestHealth(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
		w.Write([]byte("ok\n"))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://127.0.0.1")
	run := func(env map[string]string, args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), append([]string{"health"}, args...), IO{Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string { return env[k] }})
		return code, out.String() + errOut.String()
	}
	if code, out := run(map[string]string{"OPS_ADDR": addr}); code != 0 || !strings.Contains(out, "/healthz: ok") {
		t.Errorf("health with OPS_ADDR=%s = %d, %q; want 0", addr, code, out)
	}
	if code, out := run(map[string]string{"INTERACTIONS_ADDR": addr}); code != 0 {
		t.Errorf("health with INTERACTIONS_ADDR=%s = %d, %q; want 0", addr, code, out)
	}
	if code, out := run(nil, "-url", srv.URL+"/healthz"); code != 0 {
		t.Errorf("health -url = %d, %q; want 0", code, out)
	}
	status = http.StatusServiceUnavailable
	if code, out := run(map[string]string{"OPS_ADDR": addr}); code != 1 || !strings.Contains(out, "503") {
		t.Errorf("health on a 503 = %d, %q; want 1 and the status", code, out)
	}
	srv.Close()
	if code, _ := run(map[string]string{"OPS_ADDR": addr}); code != 1 {
		t.Errorf("health with nothing listening = %d, want 1", code)
	}
	if code, out := run(nil); code != 2 || !strings.Contains(out, "set OPS_ADDR") {
		t.Errorf("health with no address = %d, %q; want 2", code, out)
	}
}
