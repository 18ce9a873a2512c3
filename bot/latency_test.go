package bot

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// The latency measurements are benchmarks: b.N is the number of requests
// the simulated users send in all, so -benchtime 4000x is 200 users
// sending 20 each. Run them with
//
//	go test ./bot -run '^$' -bench 'Latency$' -benchtime 4000x
//
// ns/op is wall time per request (all users together); p50-ms and p99-ms
// are the latencies a user sees.
var (
	latencyUsers = flag.Int("latency.users", 200, "concurrent simulated users")
	latencyThink = flag.Duration("latency.think", time.Second, "mean pause of a user between an answer and the next request (0: back to back)")
	latencyStub  = flag.Bool("latency.stub", false, "answer every /solve with one precomputed reply, to measure the bot (and discordgo and the fake) without the engine and renderer")
	latencyFile  = flag.String("latency.puzzles", "testdata/top200.txt", "9x9 puzzles to solve, one per line (the default: 200 hard ones of magictour's top1465)")
)

// timedHandler records when Handle ran, by request id.
type timedHandler struct {
	Handler
	mu    sync.Mutex
	times map[string][2]time.Time
}

func (h *timedHandler) Handle(ctx context.Context, req commands.Request) commands.Response {
	start := time.Now()
	r := h.Handler.Handle(ctx, req)
	end := time.Now()
	h.mu.Lock()
	h.times[req.ID] = [2]time.Time{start, end}
	h.mu.Unlock()
	return r
}

// BenchmarkLatency measures /solve as simulated users see it, through the
// fake Discord, for text and image answers.
func BenchmarkLatency(b *testing.B) {
	data, err := os.ReadFile(*latencyFile)
	if err != nil {
		b.Fatal(err)
	}
	puzzles := strings.Fields(string(data))
	for _, output := range []string{"text", "image"} {
		b.Run(output, func(b *testing.B) {
			measureLatency(b, puzzles, output)
		})
	}
}

func measureLatency(t *testing.B, puzzles []string, output string) {
	var (
		mu      sync.Mutex
		waiters = map[string]chan fakediscord.Call{}
	)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, OnCall: func(c fakediscord.Call) {
		if c.Interaction == "" {
			return
		}
		mu.Lock()
		ch := waiters[c.Interaction]
		mu.Unlock()
		if ch != nil {
			ch <- c
		}
	}})
	svc := commands.New(commands.Config{Settings: commands.NewMemSettings()})
	var inner Handler = svc
	if *latencyStub {
		canned := svc.Handle(context.Background(), commands.Request{Kind: commands.SlashCommand, Command: "solve", UserID: "u",
			Options: map[string]string{"puzzle": puzzles[0], "output": output}, Now: time.Now()})
		inner = &scriptHandler{specs: svc.Specs(), plan: heavy,
			handle: func(context.Context, commands.Request) commands.Response { return canned }}
	}
	h := &timedHandler{Handler: inner, times: map[string][2]time.Time{}}
	cfg := Config{
		Token: testToken, APIBase: fake.URL(),
		// Limits out of the way: this measures speed, not fairness. Each
		// user has at most one request in flight, so the queue never holds
		// more than the number of users.
		RatePerMinute: 1e6, RateBurst: 1000, Queue: *latencyUsers + 1,
	}
	logs := &syncBuffer{}
	b, err := New(cfg, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.logf = func(f string, a ...any) { fmt.Fprintf(logs, f+"\n", a...) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" }); err != nil {
		t.Fatalf("bot not ready: %v\n%s", err, logs)
	}

	var (
		rmu       sync.Mutex
		latencies []time.Duration
		firsts    []fakediscord.Call
		deferred  int
		failed    int
		// deferredTimes are the times to the final edit of deferred ones.
		deferredTimes []time.Duration
	)
	var tickets atomic.Int64 // requests left to send, among all users
	tickets.Store(int64(t.N))
	t.ResetTimer()
	start := time.Now()
	cpu0 := cpuTime()
	var wg sync.WaitGroup
	for u := range *latencyUsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(u), 7))
			user := fakediscord.User{ID: fmt.Sprintf("u%d", u), Username: "user"}
			// Spread the first requests over one think time.
			pause(rng, *latencyThink)
			n := 0
			for tickets.Add(-1) >= 0 {
				puzzle := puzzles[rng.IntN(len(puzzles))]
				// Every call of the interaction comes through ch; the
				// channel is registered before the interaction exists.
				ch := make(chan fakediscord.Call, 8)
				n++
				id := fmt.Sprintf("%d%06d", u+1, n)
				mu.Lock()
				waiters[id] = ch
				mu.Unlock()
				p, err := fake.Interact(fakediscord.Interaction{ID: id, Type: fakediscord.ApplicationCommand, GuildID: "500", User: user,
					Data: fakediscord.Slash("solve", fakediscord.Str("puzzle", puzzle), fakediscord.Str("output", output))})
				if err != nil || p.ID != id {
					t.Errorf("Interact = %v, %v; want id %s", p, err, id)
					return
				}
				first, final, ok := awaitAnswer(ch)
				mu.Lock()
				delete(waiters, id)
				mu.Unlock()
				rmu.Lock()
				switch {
				case !ok || first.Status >= 300:
					failed++
				case first.CallbackType() != 4:
					deferred++
					deferredTimes = append(deferredTimes, final.Since)
				default:
					latencies = append(latencies, first.Since)
					firsts = append(firsts, first)
				}
				rmu.Unlock()
				pause(rng, *latencyThink)
			}
		}()
	}
	wg.Wait()
	cpu := cpuTime() - cpu0
	secs := time.Since(start).Seconds()
	t.StopTimer()

	// The time around Handle: before it (gateway, decoding, routing, limits,
	// waiting for a worker) and after it (encoding, posting the reply).
	var handle, before, after []time.Duration
	notices := 0
	h.mu.Lock()
	for _, c := range firsts {
		se, ok := h.times[c.Interaction]
		if !ok {
			notices++ // answered by the bot itself (a limit)
			continue
		}
		injected := c.At.Add(-c.Since)
		handle = append(handle, se[1].Sub(se[0]))
		before = append(before, se[0].Sub(injected))
		after = append(after, c.At.Sub(se[1]))
	}
	h.mu.Unlock()
	answered := len(latencies) + deferred
	if *latencyStub {
		t.Logf("(stub handler: one precomputed reply, no engine or rendering)")
	}
	t.Logf("/solve output:%s, %d users, think %s, %.1f s: %d answered at once (%.0f/s), %d deferred (final edit p50 %s p99 %s), %d limit notices, %d failed",
		output, *latencyUsers, *latencyThink, secs, len(latencies), float64(len(latencies))/secs, deferred,
		pct(deferredTimes, 50), pct(deferredTimes, 99), notices, failed)
	t.Logf("  inject → callback at the fake: p50 %s  p90 %s  p99 %s  max %s", pct(latencies, 50), pct(latencies, 90), pct(latencies, 99), pct(latencies, 100))
	t.Logf("  Handle alone:                  p50 %s  p99 %s  max %s", pct(handle, 50), pct(handle, 99), pct(handle, 100))
	t.Logf("  before Handle (incl. queue):   p50 %s  p99 %s  max %s", pct(before, 50), pct(before, 99), pct(before, 100))
	t.Logf("  after Handle (reply posted):   p50 %s  p99 %s  max %s", pct(after, 50), pct(after, 99), pct(after, 100))
	if answered > 0 {
		t.Logf("  CPU (bot + fake + test, whole process): %s per answer", (cpu / time.Duration(answered)).Round(10*time.Microsecond))
		t.ReportMetric(float64(cpu.Microseconds())/float64(answered), "CPU-µs/answer")
	}
	t.ReportMetric(ms(pct(latencies, 50)), "p50-ms")
	t.ReportMetric(ms(pct(latencies, 99)), "p99-ms")
	t.ReportMetric(float64(deferred), "deferred")
	if failed > 0 {
		t.Errorf("%d requests failed or got no answer\n%s", failed, logs)
	}
}

// awaitAnswer reads an interaction's calls until its answer is complete:
// an immediate message (type 4), or a deferral followed by its edit or
// follow-up.
func awaitAnswer(ch <-chan fakediscord.Call) (first, final fakediscord.Call, ok bool) {
	timeout := time.After(waitLong)
	for {
		select {
		case c := <-ch:
			switch {
			case c.IsCallback() && first.Seq == 0:
				first = c
				if c.Status >= 300 || c.CallbackType() == 4 {
					return first, c, true
				}
			case c.IsOriginalEdit() || c.IsFollowUp():
				return first, c, first.Seq != 0
			}
		case <-timeout:
			return first, final, false
		}
	}
}

// pause waits a random time around mean (uniform in [0.5, 1.5]·mean): it
// paces simulated users, it synchronises nothing.
func pause(rng *rand.Rand, mean time.Duration) {
	if mean <= 0 {
		return
	}
	time.Sleep(mean/2 + time.Duration(rng.Int64N(int64(mean))))
}

// ms is d in milliseconds, for a benchmark metric.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// pct is the p-th percentile of ds (nearest rank), rounded for reading.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return s[i-1].Round(10 * time.Microsecond)
}
