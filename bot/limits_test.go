package bot

import (
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	l := newLimiter(Config{RatePerMinute: 6, RateBurst: 3, Strikes: 3, StrikeWindow: time.Minute, Cooldown: time.Minute})
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if d, _ := l.take("u", false, t0, time.Second); d != allowed {
			t.Fatalf("request %d of a burst of 3: %v", i, d)
		}
	}
	d, wait := l.take("u", false, t0, time.Second)
	if d != rateLimited || wait != 10*time.Second {
		t.Errorf("4th request = %v, wait %s; want rateLimited, 10s (6 a minute)", d, wait)
	}
	if d, _ := l.take("other", false, t0, time.Second); d != allowed {
		t.Errorf("another user = %v, want allowed", d)
	}
	// 4 s later: 0.4 of a token, 6 s to go.
	if d, wait := l.take("u", false, t0.Add(4*time.Second), time.Second); d != rateLimited || wait != 6*time.Second {
		t.Errorf("after 4 s = %v, wait %s; want rateLimited, 6s", d, wait)
	}
	if d, _ := l.take("u", false, t0.Add(10*time.Second), time.Second); d != allowed {
		t.Errorf("after 10 s = %v, want allowed", d)
	}
	// A long pause refills to the burst, not beyond.
	later := t0.Add(time.Hour)
	for i := range 3 {
		if d, _ := l.take("u", false, later, time.Second); d != allowed {
			t.Fatalf("after an hour, request %d: %v", i, d)
		}
	}
	if d, _ := l.take("u", false, later, time.Second); d != rateLimited {
		t.Errorf("bucket overfilled: 4th request after an hour = %v", d)
	}
}

func TestInFlightAndCooldown(t *testing.T) {
	l := newLimiter(Config{RatePerMinute: 600, RateBurst: 100, Strikes: 2, StrikeWindow: time.Minute, Cooldown: 30 * time.Second})
	t0 := time.Unix(1000, 0)
	if d, _ := l.take("u", true, t0, 5*time.Second); d != allowed {
		t.Fatalf("first heavy job: %v", d)
	}
	if d, wait := l.take("u", true, t0.Add(time.Second), 5*time.Second); d != busyUser || wait != 4*time.Second {
		t.Errorf("second heavy job = %v wait %s, want busyUser 4s", d, wait)
	}
	if d, _ := l.take("u", false, t0.Add(time.Second), 5*time.Second); d != allowed {
		t.Errorf("light request during a heavy job = %v, want allowed", d)
	}
	if l.done("u", true, t0.Add(5*time.Second)) {
		t.Error("cool-down after one strike, want two")
	}
	if d, _ := l.take("u", true, t0.Add(6*time.Second), 5*time.Second); d != allowed {
		t.Fatalf("heavy job after done = %v", d)
	}
	if !l.done("u", true, t0.Add(11*time.Second)) {
		t.Error("no cool-down after two strikes")
	}
	if d, wait := l.take("u", false, t0.Add(21*time.Second), time.Second); d != coolingOff || wait != 20*time.Second {
		t.Errorf("during cool-down = %v wait %s, want coolingOff 20s", d, wait)
	}
	if d, _ := l.take("u", true, t0.Add(42*time.Second), time.Second); d != allowed {
		t.Errorf("after cool-down = %v, want allowed", d)
	}
	// Strikes far apart do not add up.
	l.done("u", true, t0.Add(50*time.Second))
	l.take("u", true, t0.Add(5*time.Minute), time.Second)
	if l.done("u", true, t0.Add(5*time.Minute)) {
		t.Error("strikes 4 minutes apart (window 1 minute) started a cool-down")
	}
}

func TestReleaseRefunds(t *testing.T) {
	l := newLimiter(Config{RatePerMinute: 1, RateBurst: 1, Strikes: 1, StrikeWindow: time.Minute, Cooldown: time.Minute})
	t0 := time.Unix(1000, 0)
	if d, _ := l.take("u", true, t0, time.Second); d != allowed {
		t.Fatal(d)
	}
	l.release("u", t0)
	if d, _ := l.take("u", true, t0, time.Second); d != allowed {
		t.Errorf("after release = %v, want allowed (token refunded, slot free)", d)
	}
}

func TestPruneAndNotice(t *testing.T) {
	l := newLimiter(Config{RatePerMinute: 60, RateBurst: 2, Strikes: 3, StrikeWindow: time.Minute, Cooldown: time.Minute})
	t0 := time.Unix(1000, 0)
	l.take("idle", false, t0, time.Second)
	l.take("busy", true, t0, time.Second)
	if !l.shouldNotice("busy", time.Minute, t0) || l.shouldNotice("busy", time.Minute, t0.Add(30*time.Second)) {
		t.Error("shouldNotice: want one notice per minute")
	}
	l.prune(t0.Add(2 * time.Hour))
	if l.size() != 1 || !l.busy("busy") {
		t.Errorf("after prune: %d users, want only the one in flight", l.size())
	}
}
