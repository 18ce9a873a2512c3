package fakediscord

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestInjectedFaults(t *testing.T) {
	s := newSession(t, Options{})
	cb, _, _ := pending(t, s)
	isCallback := Call.IsCallback

	// Two 503s, then the call goes through.
	s.Inject(Fault{Match: isCallback, Status: 503, Times: 2})
	for i := range 2 {
		if code, _ := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":5}`)); code != 503 {
			t.Fatalf("attempt %d: %d, want 503", i, code)
		}
	}
	if code, body := do(t, "POST", cb, "", "application/json", strings.NewReader(`{"type":5}`)); code != 204 {
		t.Fatalf("after the faults: %d %s", code, body)
	}
	if n := s.FaultsLeft(); n != 0 {
		t.Errorf("%d faults left, want 0", n)
	}

	// A rate limit carries Discord's headers and retry_after.
	s.Inject(Fault{Status: 429, RetryAfter: 1500 * time.Millisecond})
	req, _ := http.NewRequest("GET", s.URL()+"/api/v9/gateway", nil)
	req.Header.Set("Authorization", "Bot tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 429 || h.Get("Retry-After") != "2" || h.Get("X-RateLimit-Reset-After") != "1.500" ||
		h.Get("X-RateLimit-Remaining") != "0" || h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Scope") != "user" {
		t.Errorf("429 = %d with headers %v", resp.StatusCode, h)
	}

	// A cut connection is a network error for the client.
	s.Inject(Fault{Drop: true})
	if _, err := http.Get(s.URL() + "/api/v9/gateway"); err == nil {
		t.Error("a dropped call returned no error")
	}

	// Applied: the callback takes effect and its answer is lost, so a retry
	// meets "already acknowledged".
	cb2, _, _ := pending(t, s)
	s.Inject(Fault{Match: isCallback, Status: 502, Applied: true})
	if code, _ := do(t, "POST", cb2, "", "application/json", strings.NewReader(`{"type":5}`)); code != 502 {
		t.Fatalf("applied fault: %d, want 502", code)
	}
	if code, body := do(t, "POST", cb2, "", "application/json", strings.NewReader(`{"type":5}`)); code != 400 || !strings.Contains(body, "40060") {
		t.Errorf("retry after an applied fault: %d %s, want 400 code 40060", code, body)
	}
	// The retry's 40060 follows from the fault: flagged, not a refusal.
	for _, c := range s.Calls() {
		if c.Status == 400 && !c.Fault {
			t.Errorf("call %d %s %s: a refusal not flagged as the fault's doing: %s", c.Seq, c.Method, c.Path, c.Reply)
		}
	}
	if n := len(s.Refused()); n != 0 {
		t.Errorf("Refused() lists %d calls, want 0", n)
	}
	if n := s.FaultsLeft(); n != 0 {
		t.Errorf("%d faults left, want 0", n)
	}
}
