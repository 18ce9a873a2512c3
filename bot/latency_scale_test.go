package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
)

// BenchmarkLatencyScale compares the two ways to run the bot under the
// same load: simulated users each playing games (/play, then one move per
// modal submit, so every request writes to the store), against one process
// on SQLite, one process on PostgreSQL, and two processes (one shard each)
// on PostgreSQL. Like BenchmarkLatency, b.N is the requests sent in all:
//
//	DATABASE_URL_TEST=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//	  go test ./bot -run '^$' -bench LatencyScale -benchtime 4000x
//
// (-latency.users and -latency.think apply; without DATABASE_URL_TEST
// only SQLite is measured). Both "processes" live in the test binary: they
// share its two cores exactly as two real processes on this machine would,
// but not its garbage collector.
func BenchmarkLatencyScale(t *testing.B) {
	t.Run("sqlite-1-process", func(t *testing.B) {
		path := filepath.Join(t.TempDir(), "load.db")
		measurePlayLoad(t, 1, func() playStore {
			st, err := store.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			return st
		})
	})
	// One process on PostgreSQL separates the store's share from the
	// processes'.
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprintf("postgres-%d-processes", procs), func(t *testing.B) {
			url := pgTestURL(t)
			measurePlayLoad(t, procs, func() playStore {
				st, err := store.OpenPostgres(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				return st
			})
		})
	}
}

// playStore is what a process of the load test needs from its store.
type playStore interface {
	commands.PlayStore
	commands.Settings
	Close() error
}

func measurePlayLoad(t *testing.B, procs int, open func() playStore) {
	var (
		mu      sync.Mutex
		waiters = map[string]chan fakediscord.Call{}
	)
	// One guild per shard, so the users spread evenly over the processes.
	var guilds []string
	for s := range procs {
		guilds = append(guilds, fakediscord.GuildOnShard(s, procs, 0))
	}
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: guilds, OnCall: func(c fakediscord.Call) {
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
	fake.SetShards(procs, 1)
	for p := range procs {
		st := open()
		defer st.Close()
		svc := commands.New(commands.Config{SolveTimeout: 5 * time.Second, Settings: st, Games: st, Puzzles: testPuzzles{}})
		cfg := Config{Token: testToken, APIBase: fake.URL(), RatePerMinute: 1e6, RateBurst: 1000, Queue: *latencyUsers + 1}
		if procs > 1 {
			cfg.Shards = ShardSet{IDs: []int{p}, Count: procs}
		}
		b, err := New(cfg, svc, nil)
		if err != nil {
			t.Fatal(err)
		}
		logs := &syncBuffer{}
		b.logf = func(f string, a ...any) { fmt.Fprintf(logs, f+"\n", a...) }
		b.identifyWait = func(context.Context, time.Duration) error { return nil }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.Run(ctx) }()
		defer func() { cancel(); <-done }()
	}
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" }); err != nil {
		t.Fatalf("bot not ready: %v", err)
	}
	if procs > 1 && !fake.WaitShards(waitLong, 0, 1) {
		t.Fatal("shards not connected")
	}

	var (
		rmu            sync.Mutex
		finals, firsts []time.Duration
		failed         int
		moves, starts  int
	)
	var tickets atomic.Int64 // requests left to send, among all users
	tickets.Store(int64(t.N))
	t.ResetTimer()
	start := time.Now()
	cpu0, pg0 := cpuTime(), postgresCPU()
	var wg sync.WaitGroup
	for u := range *latencyUsers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(u), 11))
			user := fakediscord.User{ID: fmt.Sprintf("%d", 900000+u), Username: "player"}
			guild := guilds[u%len(guilds)]
			n := 0
			send := func(typ int, data any) (first, final fakediscord.Call, ok bool) {
				if tickets.Add(-1) < 0 {
					return first, final, false // the budget is spent
				}
				n++
				id := fmt.Sprintf("%d%06d", u+1, n)
				ch := make(chan fakediscord.Call, 8)
				mu.Lock()
				waiters[id] = ch
				mu.Unlock()
				defer func() {
					mu.Lock()
					delete(waiters, id)
					mu.Unlock()
				}()
				if _, err := fake.Interact(fakediscord.Interaction{ID: id, Type: typ, GuildID: guild, User: user, Data: data}); err != nil {
					return first, final, false
				}
				first, final, ok = awaitFinal(ch)
				rmu.Lock()
				if !ok || first.Status >= 300 || final.Status >= 300 {
					if failed == 0 {
						t.Logf("first failure: ok %v, first %d %s %s, final %d %s", ok, first.Status, first.Path, first.Body, final.Status, final.Body)
					}
					failed++
					ok = false
				} else {
					firsts = append(firsts, first.Since)
					finals = append(finals, final.Since)
				}
				rmu.Unlock()
				return first, final, ok
			}
			pause(rng, *latencyThink)
			for tickets.Load() > 0 {
				_, c, ok := send(fakediscord.ApplicationCommand, fakediscord.Slash("play", fakediscord.Str("level", "easy")))
				if !ok {
					return
				}
				rmu.Lock()
				starts++
				rmu.Unlock()
				enter := buttons(c)["Enter moves"]
				m := puzzleLine.FindStringSubmatch(text(c))
				if !strings.HasPrefix(enter, "game:m:") || m == nil {
					t.Errorf("no game in %s", c.Body)
					return
				}
				id, puzzle := strings.TrimPrefix(enter, "game:m:"), m[1]
				solution := solutionOf(t, puzzle)
				for i := range puzzle {
					if puzzle[i] != '.' {
						continue
					}
					pause(rng, *latencyThink)
					move := fmt.Sprintf("%c%d %c", 'A'+i/9, i%9+1, solution[i])
					if _, _, ok := send(fakediscord.ModalSubmit, fakediscord.Modal("gmove:"+id, map[string]string{"moves": move})); !ok {
						return
					}
					rmu.Lock()
					moves++
					rmu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	cpu, pg := cpuTime()-cpu0, postgresCPU()-pg0
	secs := time.Since(start).Seconds()
	t.StopTimer()
	t.Logf("%d process(es), %d users, think %s, %.1f s: %d games started, %d moves (%.0f requests/s), %d failed",
		procs, *latencyUsers, *latencyThink, secs, starts, moves, float64(len(finals))/secs, failed)
	t.ReportMetric(ms(pct(finals, 50)), "p50-ms")
	t.ReportMetric(ms(pct(finals, 99)), "p99-ms")
	t.Logf("  first answer:  p50 %s  p90 %s  p99 %s  max %s", pct(firsts, 50), pct(firsts, 90), pct(firsts, 99), pct(firsts, 100))
	t.Logf("  final answer:  p50 %s  p90 %s  p99 %s  max %s", pct(finals, 50), pct(finals, 90), pct(finals, 99), pct(finals, 100))
	if len(finals) > 0 {
		n := time.Duration(len(finals))
		t.Logf("  CPU per request: %s in this process (bots, fake, users), %s in PostgreSQL's processes (all of its clients)",
			(cpu / n).Round(10*time.Microsecond), (pg / n).Round(10*time.Microsecond))
	}
	if failed > 0 {
		t.Errorf("%d requests failed or got no answer", failed)
	}
}

// isQueuedNotice reports whether c is the slow lane's "wait in line"
// answer, which the real answer replaces by an edit.
func isQueuedNotice(c fakediscord.Call) bool {
	marker, _, _ := strings.Cut(commands.QueuedNotice(1), ":")
	return strings.HasPrefix(c.Content(), marker)
}

// awaitFinal reads an interaction's calls until its answer is complete: a
// first answer that is not a deferral (a message, an update, a modal), or
// a deferral followed by its edit or follow-up.
func awaitFinal(ch <-chan fakediscord.Call) (first, final fakediscord.Call, ok bool) {
	timeout := time.After(waitLong)
	for {
		select {
		case c := <-ch:
			switch {
			case c.IsCallback() && first.Seq == 0:
				first = c
				if t := c.CallbackType(); c.Status >= 300 || (t != 5 && t != 6 && !isQueuedNotice(c)) {
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

// postgresCPU is the CPU time used so far by the processes named postgres
// on this machine (Linux /proc; 0 elsewhere). Other clients of the server
// count too, so it is an upper bound for the test's share.
func postgresCPU() time.Duration {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open || s[open+1:close] != "postgres" {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 15 {
			continue
		}
		// utime, stime, and the same of reaped children (a backend's time
		// moves to the postmaster when its connection ends): fields 14-17.
		for _, f := range fields[11:15] {
			v, _ := strconv.ParseInt(f, 10, 64)
			ticks += v
		}
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ is 100 on Linux
}
