package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// TestCheapWorkIsNotStuckBehindHeavy is the mix that starved everyone
// when the pool was one FIFO blind to cost: 10 users sending hard 25x25
// puzzles (each runs to the deadline) while 100 users send ordinary 9x9s,
// with 2 workers. Every 9x9 must be answered, fast; every 25x25 user must
// hear at once where they stand (deferred, or told their place in line)
// and get their turn.
//
// It measures latency, so it does not run in parallel with other tests;
// under the race detector (several times slower) the crowd is smaller.
func TestCheapWorkIsNotStuckBehindHeavy(t *testing.T) {
	heavyUsers, lightUsers := 10, 100
	if raceEnabled {
		heavyUsers, lightUsers = 3, 20
	}
	hard, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	hard25 := strings.TrimSpace(string(hard))
	data, err := os.ReadFile("testdata/top200.txt")
	if err != nil {
		t.Fatal(err)
	}
	nines := strings.Fields(string(data))

	const timeout = 500 * time.Millisecond
	var (
		mu      sync.Mutex
		waiters = map[string]chan fakediscord.Call{}
	)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, OnCall: func(c fakediscord.Call) {
		mu.Lock()
		ch := waiters[c.Interaction]
		mu.Unlock()
		if ch != nil {
			ch <- c
		}
	}})
	svc := commands.New(commands.Config{SolveTimeout: timeout, Settings: commands.NewMemSettings()})
	logs := &syncBuffer{}
	b, err := New(Config{Token: testToken, APIBase: fake.URL(), Workers: 2, SolveTimeout: timeout, DeferAfter: time.Second,
		RatePerMinute: 6000, RateBurst: 100}, svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.logf = func(f string, a ...any) { fmt.Fprintf(logs, f+"\n", a...) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	eventually(t, "the bot to be ready", func() bool { return b.self() != "" })

	// ask sends /solve and waits for its first and its final answer.
	var idMu sync.Mutex
	next := 0
	ask := func(user fakediscord.User, puzzle string) (first, final fakediscord.Call, ok bool) {
		idMu.Lock()
		next++
		id := fmt.Sprint(9000000 + next)
		idMu.Unlock()
		ch := make(chan fakediscord.Call, 8)
		mu.Lock()
		waiters[id] = ch
		mu.Unlock()
		defer func() { mu.Lock(); delete(waiters, id); mu.Unlock() }()
		if _, err := fake.Interact(fakediscord.Interaction{ID: id, Type: fakediscord.ApplicationCommand, GuildID: "500", User: user,
			Data: fakediscord.Slash("solve", fakediscord.Str("puzzle", puzzle), fakediscord.Str("output", "text"))}); err != nil {
			t.Error(err)
			return first, final, false
		}
		timeoutC := time.After(waitLong)
		for {
			select {
			case c := <-ch:
				switch {
				case c.IsCallback() && first.Seq == 0:
					first = c
					if c.Status >= 300 || (c.CallbackType() == 4 && !strings.Contains(c.Content(), "in line") && !strings.Contains(c.Content(), "yours is next")) {
						return first, c, c.Status < 300
					}
				case c.IsOriginalEdit() || c.IsFollowUp():
					return first, c, c.Status < 300
				}
			case <-timeoutC:
				return first, final, false
			}
		}
	}

	var (
		wg         sync.WaitGroup
		rmu        sync.Mutex
		unanswered int
		heavyFirst []fakediscord.Call
		heavyFinal []string
	)
	// light has every light user ask rounds 9x9 puzzles, spread over about
	// rounds × 1.5 s, and returns the final answers' latencies.
	light := func(rounds int) []time.Duration {
		var (
			lw        sync.WaitGroup
			latencies []time.Duration
		)
		for u := range lightUsers {
			lw.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(u), 3))
				user := fakediscord.User{ID: fmt.Sprint("l", u), Username: "light"}
				for range rounds {
					time.Sleep(time.Duration(rng.Int64N(int64(1500 * time.Millisecond))))
					_, final, ok := ask(user, nines[rng.IntN(len(nines))])
					rmu.Lock()
					if ok && strings.Contains(text(final), "Solution") || strings.Contains(text(final), "olved") {
						latencies = append(latencies, final.Since)
					} else {
						unanswered++
						t.Errorf("9x9 answer: ok %v, %q", ok, text(final))
					}
					rmu.Unlock()
				}
			})
		}
		lw.Wait()
		return latencies
	}
	stopHeavy := make(chan struct{})
	for u := range heavyUsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fakediscord.User{ID: fmt.Sprint("h", u), Username: "heavy"}
			for {
				first, final, ok := ask(user, hard25)
				rmu.Lock()
				heavyFirst = append(heavyFirst, first)
				if ok {
					heavyFinal = append(heavyFinal, final.Content()+text(final))
				} else {
					heavyFinal = append(heavyFinal, "")
				}
				rmu.Unlock()
				select {
				case <-stopHeavy:
					return
				default:
				}
			}
		}()
	}
	latencies := light(2)
	close(stopHeavy)
	wg.Wait()

	p50, p99, worst := pct(latencies, 50), pct(latencies, 99), pct(latencies, 100)
	t.Logf("%d 9x9 answered, %d not; final answer p50 %s p99 %s max %s; %d 25x25 requests meanwhile",
		len(latencies), unanswered, p50, p99, worst, len(heavyFinal))
	// Under a second. On a machine running well over one runnable thread
	// per core besides this test (other packages' tests beside it), wall
	// time says little, so the bound is 3 s there: stuck behind the heavy
	// jobs, answers took 2-3 s even on a quiet machine, and more than a
	// third were refused as busy, which fails above whatever the load.
	bound := time.Second
	if raceEnabled {
		bound = 4 * time.Second
	}
	if load := loadAverage(); load > float64(2*runtime.NumCPU()) {
		t.Logf("load average %.1f on %d cores: the p99 bound is 3 s", load, runtime.NumCPU())
		bound = max(bound, 3*time.Second)
	}
	if p99 > bound {
		t.Errorf("9x9 p99 %s, want under %s", p99, bound)
	}
	// The heavy users: each request heard at once where it stands, then got
	// its turn (the deadline notice: these puzzles are too hard for 500 ms).
	for i, first := range heavyFirst {
		switch {
		case first.Seq == 0:
			t.Errorf("25x25 request %d: no first answer", i)
		case first.Since > 3*time.Second:
			t.Errorf("25x25 request %d: first answer after %s", i, first.Since)
		case first.CallbackType() == 5, strings.Contains(first.Content(), "in line"), strings.Contains(first.Content(), "yours is next"),
			strings.Contains(first.Content(), "busy"), strings.Contains(first.Content(), "pausing you"), strings.Contains(first.Content(), "still working on your previous puzzle"), strings.HasPrefix(first.Content(), "Stopped after 500 ms"):
		default:
			t.Errorf("25x25 request %d: first answer %d %q, want a deferral, a place in line or busy", i, first.CallbackType(), first.Content())
		}
		if !strings.Contains(heavyFinal[i], "busy") && !strings.Contains(heavyFinal[i], "pausing you") && !strings.Contains(heavyFinal[i], "still working") && !strings.Contains(heavyFinal[i], "Stopped after 500 ms") && !strings.Contains(heavyFinal[i], "Solution") &&
			!strings.Contains(heavyFinal[i], "stopped after 500 ms, before I could check") {
			t.Errorf("25x25 request %d: final %q, want its turn (stopped at the deadline)", i, heavyFinal[i])
		}
	}
	if len(heavyFirst) < heavyUsers {
		t.Errorf("%d 25x25 requests, want at least one per heavy user", len(heavyFirst))
	}
	if n := strings.Count(logs.String(), "moved to the slow lane"); n > 0 {
		t.Errorf("%d 9x9 jobs overran the fast lane", n)
	}
}

// loadAverage is the one-minute load average, or 0 where /proc/loadavg
// can't be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b) + " 0")[0], 64)
	return f
}
