package bot

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/internal/fakediscord"
)

var (
	flapRuns   = flag.Int("flapruns", 20, "runs of TestGatewayFlapping per deployment (each: 6 bursts of 5 drops)")
	flapWithin = flag.Duration("flapwithin", 250*time.Millisecond, "time each burst of TestGatewayFlapping spreads its 5 drops over")
	flapWait   = flag.Bool("flapwait", true, "in TestGatewayFlapping, a drop that finds the bot between connections cuts its next one")
	soak       = flag.Duration("soak", 0, "run TestGatewaySoak for this long (e.g. 10m); 0 skips it")
	// flapDeadline is how long after an interaction the fake of the
	// flapping tests accepts its first answer.
	flapDeadline = flag.Duration("flapdeadline", waitLong, "in TestGatewayFlapping, the fake's interaction deadline (Discord's is 3s)")
)

// flapCase is a deployment the flapping tests run: one unsharded session,
// or some shards of a sharded bot.
type flapCase struct {
	name   string
	shards ShardSet // zero: one session
}

var flapCases = []flapCase{
	{"one session", ShardSet{}},
	{"SHARDS=0-1/4", ShardSet{IDs: []int{0, 1}, Count: 4}},
}

// ids are the shards the bot of c runs (0 for the unsharded session).
func (c flapCase) ids() []int {
	if c.shards.IsZero() {
		return []int{0}
	}
	return c.shards.IDs
}

// guild is a guild whose events go to shard.
func (c flapCase) guild(shard int) string {
	if c.shards.IsZero() {
		return "500"
	}
	return fakediscord.GuildOnShard(shard, c.shards.Count, 0)
}

// flapBot is a bot of a flapCase on a fake Discord of its own.
type flapBot struct {
	c    flapCase
	fake *fakediscord.Server
	bot  *Bot
	logs *syncBuffer
	stop func()
}

// startFlapBot starts a bot for c on a fresh fake whose gateway
// heartbeats every heartbeat, with the gateway's backoffs shortened for
// tests, and waits until it has registered its commands. The fake takes
// answers up to flapDeadline after an interaction: these tests look for
// events lost with their session, and a shared machine under -race can
// be slow enough to miss Discord's 3 s with an event that was kept.
func startFlapBot(t *testing.T, c flapCase, heartbeat time.Duration) (*flapBot, error) {
	return startGatewayBot(t, c, heartbeat, *flapDeadline, true)
}

// startGatewayBot starts a bot for c on a fresh fake: heartbeats every
// heartbeat, first answers accepted until deadline after an interaction,
// and with the gateway's backoffs shortened when fast.
func startGatewayBot(t *testing.T, c flapCase, heartbeat, deadline time.Duration, fast bool) (*flapBot, error) {
	var guilds []string
	for _, id := range c.ids() {
		guilds = append(guilds, c.guild(id))
	}
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: guilds, HeartbeatInterval: heartbeat,
		InteractionDeadline: deadline, ExpectRefusals: true})
	if !c.shards.IsZero() {
		fake.SetShards(c.shards.Count, 1)
	}
	cfg := Config{Token: testToken, APIBase: fake.URL(), SolveTimeout: 2 * time.Second, DeferAfter: 2 * time.Second,
		ShutdownWait: 2 * time.Second, RateBurst: 1 << 20, RatePerMinute: 1 << 20}
	cfg.Shards = c.shards
	logs := &syncBuffer{}
	b, err := New(cfg, &scriptHandler{specs: testSpecs}, log.New(logs, "", log.Lmicroseconds))
	if err != nil {
		return nil, err
	}
	b.identifyWait = func(context.Context, time.Duration) error { return nil }
	if fast {
		fastGateway(b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	fb := &flapBot{c: c, fake: fake, bot: b, logs: logs, stop: func() {
		cancel()
		select {
		case <-done:
		case <-time.After(waitLong):
			t.Errorf("Run did not return within %s of cancel", waitLong)
		}
		if strings.Contains(logs.String(), testToken) {
			t.Errorf("the token appears in the logs:\n%s", logs)
		}
	}}
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" }); err != nil {
		fb.stop()
		return nil, fmt.Errorf("commands never registered: %v\n%s", err, logs)
	}
	return fb, nil
}

// connected reports whether every shard of the bot has a live session.
func (fb *flapBot) connected() bool {
	if fb.c.shards.IsZero() {
		return fb.fake.Connected()
	}
	up := fb.fake.ShardsConnected()
	for _, id := range fb.c.ids() {
		if !up[id] {
			return false
		}
	}
	return true
}

// sessions sums the Identify and Resume packets of every shard.
func (fb *flapBot) sessions() (identifies, resumes int) {
	for _, id := range fb.c.ids() {
		st := fb.fake.GatewayStats(id)
		identifies += st.Identifies
		resumes += st.Resumes
	}
	return identifies, resumes
}

// flapSettle is how long the gateway must stay connected, with no new
// Identify or Resume, to count as stable.
const flapSettle = 100 * time.Millisecond

// waitStable waits until every shard has stayed connected for flapSettle
// with no new Identify or Resume, at most until deadline, and returns when
// that quiet began; ok is false at the deadline.
func (fb *flapBot) waitStable(deadline time.Time) (since time.Time, ok bool) {
	id, res := fb.sessions()
	since = time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		id2, res2 := fb.sessions()
		if !fb.connected() || id2 != id || res2 != res {
			id, res, since = id2, res2, time.Now()
			continue
		}
		if time.Since(since) >= flapSettle {
			return since, true
		}
	}
	return since, false
}

// answered waits up to wait for an accepted first answer to p.
func answered(fake *fakediscord.Server, p fakediscord.Pending, wait time.Duration) bool {
	_, err := fake.WaitCall(wait, func(c fakediscord.Call) bool {
		return c.Interaction == p.ID && c.IsCallback() && c.Status < 300
	})
	return err == nil
}

// flapFigures are what the flapping runs of one deployment measured.
type flapFigures struct {
	mu         sync.Mutex
	identifies []int // per shard per run
	wasted     int   // identifies while a resume was possible
	closes1000 int   // client closes with 1000 or 1001 before shutdown
	resumes    int
	toStable   []time.Duration
	unstable   int // bursts after which the bot was not stable within 10 s
	events     int
	lost       int
}

func (f *flapFigures) String() string {
	slices.Sort(f.toStable)
	pct := func(p float64) time.Duration {
		if len(f.toStable) == 0 {
			return 0
		}
		return f.toStable[int(p*float64(len(f.toStable)-1))].Round(time.Millisecond)
	}
	total := 0
	for _, n := range f.identifies {
		total += n
	}
	return fmt.Sprintf("identifies %d over %d shard-runs (max %d in one), %d while a resume was possible, %d resumes, %d client closes with 1000/1001; "+
		"time to stable after the last drop: median %s, p95 %s, max %s, %d bursts not stable within 10 s; events lost %d of %d",
		total, len(f.identifies), slices.Max(append([]int{0}, f.identifies...)), f.wasted, f.resumes, f.closes1000,
		pct(0.5), pct(0.95), pct(1), f.unstable, f.lost, f.events)
}

// TestGatewayFlapping is a flapping network or a restarting gateway: six
// bursts of five drops (cut without a close frame, or closed with 4000,
// 1001 or 1006) within a short time, with an interaction sent to every
// shard after each drop; 20 runs per deployment. Every time the bot must
// be connected and stable within 10 s of the last drop, send no Identify
// while a resume is possible (one per shard in all), and answer every
// interaction (those sent during the drops are replayed on resume).
func TestGatewayFlapping(t *testing.T) {
	const (
		rounds    = 6
		drops     = 5
		stableBy  = 10 * time.Second
		heartbeat = time.Second
		parallel  = 10
	)
	for _, c := range flapCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fig := &flapFigures{}
			sem := make(chan struct{}, parallel)
			var wg sync.WaitGroup
			for run := range *flapRuns {
				sem <- struct{}{}
				wg.Go(func() {
					defer func() { <-sem }()
					flapRun(t, c, run, rounds, drops, *flapWithin, stableBy, heartbeat, fig)
				})
			}
			wg.Wait()
			t.Logf("%s, %d runs of %d bursts of %d drops within %s: %s", c.name, *flapRuns, rounds, drops, *flapWithin, fig)
		})
	}
}

// flapRun is one run of TestGatewayFlapping.
func flapRun(t *testing.T, c flapCase, run, rounds, drops int, within, stableBy, heartbeat time.Duration, fig *flapFigures) {
	fb, err := startFlapBot(t, c, heartbeat)
	if err != nil {
		t.Errorf("run %d: %v", run, err)
		return
	}
	defer fb.stop()
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		t.Errorf("%s run %d: %s", c.name, run, fmt.Sprintf(format, args...))
	}
	r := rand.New(rand.NewPCG(uint64(run), 33))
	for round := range rounds {
		var mu sync.Mutex
		var pending []fakediscord.Pending
		lost := 0
		fb.fake.Burst(fakediscord.Burst{Shards: c.ids(), Drops: drops, Within: within, Rand: r, Wait: *flapWait,
			Codes: []int{0, 4000, 1006, 1001, 0},
			After: func(int) {
				for _, id := range c.ids() {
					p, err := fb.fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: c.guild(id),
						User: alice, Data: fakediscord.Slash("solve")})
					mu.Lock()
					if err != nil {
						lost++ // the session was gone: Discord had nowhere to send it
					} else {
						pending = append(pending, p)
					}
					mu.Unlock()
				}
			}})
		last := time.Now()
		since, ok := fb.waitStable(last.Add(stableBy))
		fig.mu.Lock()
		fig.events += len(pending) + lost
		if ok {
			fig.toStable = append(fig.toStable, max(since.Sub(last), 0))
		} else {
			fig.unstable++
		}
		fig.mu.Unlock()
		if !ok {
			fail("round %d: not connected and stable within %s of the last drop", round, stableBy)
		}
		// Every event sent during the drops is answered: replayed on
		// resume.
		for _, p := range pending {
			if !answered(fb.fake, p, *flapDeadline) {
				lost++
			}
		}
		// And the bot answers what comes now.
		for _, id := range c.ids() {
			p, err := fb.fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: c.guild(id),
				User: bob, Data: fakediscord.Slash("solve")})
			fig.mu.Lock()
			fig.events++
			fig.mu.Unlock()
			if err != nil || !answered(fb.fake, p, *flapDeadline) {
				lost++
			}
		}
		fig.mu.Lock()
		fig.lost += lost
		fig.mu.Unlock()
		if lost > 0 {
			fail("round %d: %d events lost (not answered in time)", round, lost)
		}
	}
	for _, id := range c.ids() {
		st := fb.fake.GatewayStats(id)
		fig.mu.Lock()
		fig.identifies = append(fig.identifies, st.Identifies)
		fig.wasted += st.IdentifiesWhileResumable
		fig.resumes += st.Resumes
		fig.closes1000 += st.ClientCloses[1000] + st.ClientCloses[1001]
		fig.mu.Unlock()
		if st.Identifies != 1 || st.IdentifiesWhileResumable != 0 {
			fail("shard %d: %d identifies (%d while a resume was possible), want 1 and 0 (every drop resumable)", id, st.Identifies, st.IdentifiesWhileResumable)
		}
		if n := st.ClientCloses[1000] + st.ClientCloses[1001]; n != 0 {
			fail("shard %d: the bot closed %d connections with 1000/1001 (which ends the session)", id, n)
		}
	}
	if failed && strings.Count(fb.logs.String(), "\n") < 400 {
		t.Logf("%s run %d log:\n%s", c.name, run, fb.logs)
	}
}

// fastGateway shortens the gateway client's waits for tests: backoffs of
// milliseconds rather than seconds.
func fastGateway(b *Bot) {
	b.gw.timing = &gatewayTiming{backoffMin: 10 * time.Millisecond, backoffMax: 200 * time.Millisecond, stable: 300 * time.Millisecond, handshake: 5 * time.Second}
}

// gateways lists the gateway clients b made.
func gateways(b *Bot) []*gateway {
	b.gw.mu.Lock()
	defer b.gw.mu.Unlock()
	return slices.Clone(b.gw.gateways)
}

// claimLog is an IdentifyLimiter that grants every slot and records the
// claims, by bucket.
type claimLog struct {
	mu     sync.Mutex
	claims []int
}

func (c *claimLog) ClaimIdentify(_ context.Context, bucket int, _ time.Duration, _ time.Time) (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.claims = append(c.claims, bucket)
	return 0, nil
}

func (c *claimLog) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.claims)
}

// metricsText scrapes b's metrics.
func metricsText(b *Bot) string {
	rec := httptest.NewRecorder()
	b.metrics.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

// TestGatewayFailedResume ends each shard's session on Discord's side (as
// a session that timed out) and drops the connection: the resume is
// refused (one reconnection), and each shard then sends exactly one Identify (a second), through the
// identify slots, on one connection at a time, and serves again. The
// metrics count it all.
func TestGatewayFailedResume(t *testing.T) {
	for _, c := range flapCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fb, err := startFlapBot(t, c, 5*time.Second) // no heartbeat timeout on a slow machine: reconnections are counted
			if err != nil {
				t.Fatal(err)
			}
			defer fb.stop()
			claims := &claimLog{}
			fb.bot.identify = claims // from here on; the first Identify is done
			for _, id := range c.ids() {
				fb.fake.InvalidateSession(id)
				fb.fake.DropGateway(fakediscord.GatewayDrop{Shard: id, Code: 4000})
			}
			if _, ok := fb.waitStable(time.Now().Add(waitLong)); !ok {
				t.Fatalf("not stable after the failed resume\n%s", fb.logs)
			}
			for _, id := range c.ids() {
				st := fb.fake.GatewayStats(id)
				if st.ResumesRefused != 1 || st.Identifies != 2 || st.IdentifiesWhileResumable != 0 {
					t.Errorf("shard %d: %d resumes refused, %d identifies (%d while resumable); want 1, 2 (the first and one after the refusal), 0",
						id, st.ResumesRefused, st.Identifies, st.IdentifiesWhileResumable)
				}
				p, err := fb.fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: c.guild(id), User: alice, Data: fakediscord.Slash("solve")})
				if err != nil || !answered(fb.fake, p, waitLong) {
					t.Errorf("shard %d: not answering after the new session: %v", id, err)
				}
			}
			if n := claims.count(); n != len(c.ids()) {
				t.Errorf("%d identify slots claimed, want %d (one per shard)", n, len(c.ids()))
			}
			for _, g := range gateways(fb.bot) {
				if n := g.maxLive.Load(); n != 1 {
					t.Errorf("%s: %d connections open at once, want 1", g.name, n)
				}
			}
			m := metricsText(fb.bot)
			for _, id := range c.ids() {
				for _, want := range []string{
					fmt.Sprintf(`sudokubot_gateway_identifies_total{shard="%d"} 2`, id),
					fmt.Sprintf(`sudokubot_gateway_reconnects_total{shard="%d"} 2`, id),
					fmt.Sprintf(`sudokubot_gateway_disconnected_seconds_total{shard="%d"} `, id),
				} {
					if !strings.Contains(m, want) {
						t.Errorf("metrics lack %s", want)
					}
				}
			}
			if !strings.Contains(fb.logs.String(), "resume refused (session ended); identifying") {
				t.Errorf("the refused resume was not logged:\n%s", fb.logs)
			}
		})
	}
}

// TestGatewayReconnectAsked covers the other ways a connection ends:
// Discord asks for a reconnect (op 7), and heartbeats go unacknowledged
// (a dead connection nobody closed); both times the bot closes with 4000
// (never 1000, which would end the session) and resumes. Then Discord
// closes with 4009 (session timed out): the bot identifies, once.
func TestGatewayReconnectAsked(t *testing.T) {
	t.Parallel()
	c := flapCases[0]
	fb, err := startFlapBot(t, c, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer fb.stop()
	resumed := func(n int) {
		t.Helper()
		eventually(t, fmt.Sprintf("resume %d", n), func() bool { return fb.fake.GatewayStats(0).Resumes >= n })
	}
	if err := fb.fake.SendRaw([]byte(`{"op":7,"d":null}`)); err != nil {
		t.Fatal(err)
	}
	resumed(1)
	fb.fake.StallHeartbeats(true)
	eventually(t, "a reconnect on unacknowledged heartbeats", func() bool { return fb.fake.GatewayStats(0).ClientCloses[4000] >= 2 })
	fb.fake.StallHeartbeats(false)
	resumed(2)
	if _, ok := fb.waitStable(time.Now().Add(waitLong)); !ok {
		t.Fatalf("not stable\n%s", fb.logs)
	}
	st := fb.fake.GatewayStats(0)
	if st.Identifies != 1 || st.ClientCloses[1000]+st.ClientCloses[1001] != 0 {
		t.Errorf("identifies %d, closes %v; want 1 identify and no 1000/1001 close", st.Identifies, st.ClientCloses)
	}
	// A session Discord says timed out (close 4009) cannot be resumed:
	// one Identify, no resume tried.
	fb.fake.DropGateway(fakediscord.GatewayDrop{Code: 4009})
	eventually(t, "an identify after close 4009", func() bool { return fb.fake.GatewayStats(0).Identifies == 2 })
	if _, ok := fb.waitStable(time.Now().Add(waitLong)); !ok {
		t.Fatalf("not stable after close 4009\n%s", fb.logs)
	}
	if st := fb.fake.GatewayStats(0); st.Identifies != 2 || st.ResumesRefused != 0 || st.IdentifiesWhileResumable != 0 {
		t.Errorf("after close 4009: %+v, want 2 identifies, no resume refused, none wasted", st)
	}
	if _, _, hb := fb.fake.Sessions(); hb == 0 {
		t.Error("no heartbeats")
	}
	if !strings.Contains(fb.logs.String(), "no heartbeat ACK") {
		t.Errorf("the dead connection was not logged:\n%s", fb.logs)
	}
}

func TestGatewayBackoff(t *testing.T) {
	tm := gatewayTiming{backoffMin: time.Second, backoffMax: time.Minute}
	r := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		attempt int
		top     time.Duration
	}{
		{0, time.Second}, {1, 2 * time.Second}, {2, 4 * time.Second}, {5, 32 * time.Second},
		{6, time.Minute}, {7, time.Minute}, {100, time.Minute},
	}
	for _, tt := range tests {
		for range 200 {
			if d := tm.backoff(tt.attempt, r); d < tt.top/2 || d > tt.top {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", tt.attempt, d, tt.top/2, tt.top)
			}
		}
	}
	if d := defaultGatewayTiming.backoff(1000, r); d > time.Minute {
		t.Errorf("default backoff capped at %s, want at most 1m", d)
	}
}

// TestGatewaySoak runs a bot, with the gateway client's real timing and
// Discord's heartbeat interval and 3 s deadline, on a gateway that drops
// its connection every 5 to 60 s (cut, or closed with 4000, 1001 or
// 1012), with an interaction every 250 ms per shard, for -soak (skipped
// without it; not part of CI):
//
//	go test ./bot -run TestGatewaySoak -soak 10m -v
//
// Every interaction sent while the shard was connected must be answered;
// those sent while it was down are replayed on resume and counted apart.
// One Identify per shard in all.
func TestGatewaySoak(t *testing.T) {
	if *soak == 0 {
		t.Skip("a long test: run with -soak 10m")
	}
	for _, c := range flapCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fb, err := startGatewayBot(t, c, 41250*time.Millisecond, 3*time.Second, false)
			if err != nil {
				t.Fatal(err)
			}
			defer fb.stop()
			type sent struct {
				p  fakediscord.Pending
				up bool // the shard was connected when it was sent
			}
			var (
				mu     sync.Mutex
				all    []sent
				refuse int // Interact refused: no session at all
				drops  int
			)
			end := time.Now().Add(*soak)
			r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 33))
			codes := []int{0, 4000, 1001, 1012}
			var wg sync.WaitGroup
			wg.Go(func() {
				for {
					next := time.Now().Add(5*time.Second + time.Duration(r.Int64N(int64(55*time.Second))))
					if next.After(end) {
						return
					}
					time.Sleep(time.Until(next))
					code := codes[r.IntN(len(codes))]
					for _, id := range c.ids() {
						if fb.fake.DropGateway(fakediscord.GatewayDrop{Shard: id, Code: code}) {
							mu.Lock()
							drops++
							mu.Unlock()
						}
					}
				}
			})
			tick := time.NewTicker(250 * time.Millisecond)
			for time.Now().Before(end) {
				<-tick.C
				for _, id := range c.ids() {
					up := fb.shardUp(id)
					p, err := fb.fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: c.guild(id),
						User: alice, Data: fakediscord.Slash("solve")})
					mu.Lock()
					if err != nil {
						refuse++
					} else {
						all = append(all, sent{p, up})
					}
					mu.Unlock()
				}
			}
			tick.Stop()
			wg.Wait()
			time.Sleep(5 * time.Second) // the last answers
			answeredIDs := map[string]bool{}
			for _, call := range fb.fake.Calls() {
				if call.IsCallback() && call.Status < 300 {
					answeredIDs[call.Interaction] = true
				}
			}
			var whileUp, lostUp, whileDown, lostDown int
			for _, s := range all {
				switch {
				case s.up:
					whileUp++
					if !answeredIDs[s.p.ID] {
						lostUp++
					}
				default:
					whileDown++
					if !answeredIDs[s.p.ID] {
						lostDown++
					}
				}
			}
			m := metricsText(fb.bot)
			var gw []string
			for _, line := range strings.Split(m, "\n") {
				if strings.HasPrefix(line, "sudokubot_gateway_") {
					gw = append(gw, line)
				}
			}
			t.Logf("%s, %s: %d drops; sent while connected %d, unanswered %d; sent while down %d, unanswered %d; refused by the fake (no session) %d\n%s",
				c.name, *soak, drops, whileUp, lostUp, whileDown, lostDown, refuse, strings.Join(gw, "\n"))
			if lostUp > 0 || refuse > 0 {
				t.Errorf("%d interactions sent while connected went unanswered, %d found no session", lostUp, refuse)
			}
			if lostDown > 0 {
				t.Errorf("%d interactions sent during a drop were not replayed and answered", lostDown)
			}
			for _, id := range c.ids() {
				if st := fb.fake.GatewayStats(id); st.Identifies != 1 || st.IdentifiesWhileResumable != 0 {
					t.Errorf("shard %d: %+v, want 1 identify in all", id, st)
				}
			}
		})
	}
}

// shardUp reports whether shard's session is connected, as the fake
// sees it.
func (fb *flapBot) shardUp(shard int) bool {
	if fb.c.shards.IsZero() {
		return fb.fake.Connected()
	}
	return fb.fake.ShardsConnected()[shard]
}
