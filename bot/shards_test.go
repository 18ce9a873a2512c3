package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
	"sudokubot/store"
)

func TestParseShards(t *testing.T) {
	tests := []struct {
		in      string
		ids     []int
		count   int
		wantErr string
	}{
		{"0-1/4", []int{0, 1}, 4, ""},
		{"2/4", []int{2}, 4, ""},
		{"0,2-3/8", []int{0, 2, 3}, 8, ""},
		{" 0 - 3 / 4 ", []int{0, 1, 2, 3}, 4, ""},
		{"0-1", nil, 0, "no /COUNT"},
		{"4/4", nil, 0, "not below the count"},
		{"1-0/4", nil, 0, "not a shard id or a range"},
		{"0,0/2", nil, 0, "listed twice"},
		{"0/0", nil, 0, "count must be"},
		{"x/4", nil, 0, "not a shard id"},
	}
	for _, tt := range tests {
		s, err := ParseShards(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "SHARDS=") {
				t.Errorf("ParseShards(%q) = %v, %v; want an error about %q", tt.in, s, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(s.IDs, tt.ids) || s.Count != tt.count {
			t.Errorf("ParseShards(%q) = %v, %v; want %v/%d", tt.in, s, err, tt.ids, tt.count)
		}
	}
	if s, _ := ParseShards("0,2-3/8"); s.String() != "0,2-3/8" {
		t.Errorf("String() = %q, want 0,2-3/8", s.String())
	}
}

func TestIdentifyOrder(t *testing.T) {
	tests := []struct {
		ids  []int
		mc   int
		want [][]int
	}{
		{[]int{0, 1, 2, 3}, 1, [][]int{{0, 1, 2, 3}}},
		{[]int{0, 1, 2, 3}, 2, [][]int{{0, 2}, {1, 3}}},
		{[]int{3, 2, 1, 0}, 16, [][]int{{0}, {1}, {2}, {3}}},
		{[]int{2, 3}, 2, [][]int{{2}, {3}}},
	}
	for _, tt := range tests {
		got := identifyOrder(tt.ids, tt.mc)
		if !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("identifyOrder(%v, %d) = %v, want %v", tt.ids, tt.mc, got, tt.want)
		}
	}
}

// TestShardsIdentifyAtDiscordsPace runs all four shards Discord
// recommends in one process: two may identify at once (max_concurrency 2),
// so each bucket waits once, and only shard 0 registers the commands.
func TestShardsIdentifyAtDiscordsPace(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken})
	fake.SetShards(4, 2)
	var mu sync.Mutex
	var waits []time.Duration
	cfg := Config{Token: testToken, APIBase: fake.URL(), ShutdownWait: time.Second}
	b, err := New(cfg, &scriptHandler{specs: testSpecs}, log.New(&syncBuffer{}, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	b.identifyWait = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	if !fake.WaitShards(waitLong, 0, 1, 2, 3) {
		t.Fatalf("shards connected: %v, want 0-3", fake.ShardsConnected())
	}
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" }); err != nil {
		t.Fatal("commands never registered")
	}
	mu.Lock()
	// The second shard of each bucket waits for what is left of the
	// first one's 5 s.
	if len(waits) != 2 || waits[0] <= identifyEvery-time.Second || waits[0] > identifyEvery || waits[1] <= identifyEvery-time.Second {
		t.Errorf("identify waits %v, want two of nearly %s (one per bucket)", waits, identifyEvery)
	}
	mu.Unlock()
	ids := fake.ShardIdentifies()
	pos := map[int]int{}
	for i, id := range ids {
		pos[id.Shard] = i
		if id.Count != 4 {
			t.Errorf("shard %d identified with count %d, want 4", id.Shard, id.Count)
		}
	}
	if len(ids) != 4 || pos[2] < pos[0] || pos[3] < pos[1] {
		t.Errorf("identify order %v: want 4, each bucket in order (0 before 2, 1 before 3)", ids)
	}
	puts := 0
	for _, c := range fake.Calls() {
		if c.Method == "PUT" {
			puts++
		}
	}
	if puts != 1 {
		t.Errorf("%d command registrations, want 1 (by shard 0)", puts)
	}
	eventually(t, "readiness", func() bool { return b.readiness(context.Background()) == nil })
	rec := httptest.NewRecorder()
	b.metrics.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for id := range 4 {
		if want := fmt.Sprintf("sudokubot_shard_up{shard=\"%d\"} 1", id); !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// pgTestURL returns a URL to a fresh schema on the PostgreSQL server named
// by DATABASE_URL_TEST (dropped at the end), skips when it is unset, and
// fails when it is set but the server does not answer.
func pgTestURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("DATABASE_URL_TEST")
	if url == "" {
		t.Skip("DATABASE_URL_TEST is not set: the PostgreSQL end-to-end test is skipped")
	}
	ctx := context.Background()
	admin, err := pgxpool.New(ctx, url)
	if err == nil {
		err = admin.Ping(ctx)
	}
	if err != nil {
		t.Fatalf("DATABASE_URL_TEST is set but the server does not answer: %v", err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "sudokubot_e2e_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}

// guildCounter wraps a Handler and counts the requests it handled by guild.
type guildCounter struct {
	Handler
	mu     sync.Mutex
	guilds map[string]int
}

func (g *guildCounter) Handle(ctx context.Context, req commands.Request) commands.Response {
	g.mu.Lock()
	g.guilds[req.GuildID]++
	g.mu.Unlock()
	return g.Handler.Handle(ctx, req)
}

func (g *guildCounter) count(guild string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.guilds[guild]
}

// process is one bot process of a sharded deployment: its own store
// handle, commands, bot and gateway sessions.
type process struct {
	st      *store.Postgres
	svc     *commands.Service
	h       *guildCounter
	bot     *Bot
	logs    *syncBuffer
	cancel  context.CancelFunc
	done    chan error
	stopped bool
}

// processClock is the clock of every process the tests start: the real
// time plus a skip a test can add, so a daily can take minutes to solve.
var processClock struct{ skip atomic.Int64 }

func processNow() time.Time { return time.Now().Add(time.Duration(processClock.skip.Load())) }

func startProcess(t *testing.T, fake *fakediscord.Server, url string, shards ShardSet) *process {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	svc := commands.New(commands.Config{SolveTimeout: 2 * time.Second, Settings: st, Games: st, Puzzles: testPuzzles{}})
	h := &guildCounter{Handler: svc, guilds: map[string]int{}}
	cfg := Config{Token: testToken, APIBase: fake.URL(), SolveTimeout: 2 * time.Second, DeferAfter: 1500 * time.Millisecond,
		ShutdownWait: 3 * time.Second, RateBurst: 1 << 20, RatePerMinute: 1 << 20}
	cfg.Shards = shards
	logs := &syncBuffer{}
	b, err := New(cfg, h, log.New(logs, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	b.identifyWait = func(context.Context, time.Duration) error { return nil }
	b.now = processNow
	b.SetDatabase(st)
	ctx, cancel := context.WithCancel(context.Background())
	p := &process{st: st, svc: svc, h: h, bot: b, logs: logs, cancel: cancel, done: make(chan error, 1)}
	go func() { p.done <- b.Run(ctx) }()
	if !fake.WaitShards(waitLong, shards.IDs...) {
		t.Fatalf("shards %s never connected\nlogs:\n%s", shards, logs)
	}
	eventually(t, "shards "+shards.String()+" ready", func() bool { return b.readiness(context.Background()) == nil })
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			t.Logf("log of shards %s:\n%s", shards, logs)
		}
	})
	return p
}

func (p *process) stop(t *testing.T) {
	if p.stopped {
		return
	}
	p.stopped = true
	p.cancel()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(waitLong):
		t.Errorf("Run did not return")
	}
	p.st.Close()
}

// TestTwoProcessesFourShards is the scaled-out deployment: two processes
// with two shards each, one PostgreSQL. Every guild is served by exactly
// one shard, the daily is posted once per guild, a finish both processes
// see counts once, and a process stopped and restarted loses nothing while
// the other keeps serving.
func TestTwoProcessesFourShards(t *testing.T) {
	url := pgTestURL(t)
	const n = 4
	var guilds []string
	for shard := range n {
		guilds = append(guilds, fakediscord.GuildOnShard(shard, n, 0), fakediscord.GuildOnShard(shard, n, 1))
	}
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: guilds})
	fake.SetShards(n, 2)
	a := startProcess(t, fake, url, ShardSet{IDs: []int{0, 1}, Count: n})
	b := startProcess(t, fake, url, ShardSet{IDs: []int{2, 3}, Count: n})
	owner := func(guild string) *process {
		if fakediscord.ShardOf(guild, n) < 2 {
			return a
		}
		return b
	}
	pb := &playBot{tb: t, fake: fake, logs: &syncBuffer{}}
	ctx := context.Background()

	t.Run("each guild served by exactly one shard", func(t *testing.T) {
		for i, g := range guilds {
			u := fakediscord.User{ID: "9" + string(rune('0'+i)), Username: "player", Discriminator: "0"}
			c := pb.slash(u, g, "daily", fakediscord.Sub("stats"))
			if text(c) == "" {
				t.Errorf("guild %s: /daily stats answered %q", g, text(c))
			}
			if got, other := owner(g).h.count(g), a.h.count(g)+b.h.count(g)-owner(g).h.count(g); got != 1 || other != 0 {
				t.Errorf("guild %s (shard %d): served %d times by its shard's process and %d by the other; want 1 and 0",
					g, fakediscord.ShardOf(g, n), got, other)
			}
		}
		for _, r := range fake.Routed() {
			if r.GuildID != "" && r.Shard != fakediscord.ShardOf(r.GuildID, n) {
				t.Errorf("event %s of guild %s went to shard %d", r.Type, r.GuildID, r.Shard)
			}
		}
		puts := 0
		for _, c := range fake.Calls() {
			if c.Method == "PUT" && strings.Contains(c.Path, "/commands") {
				puts++
			}
		}
		if puts != 1 {
			t.Errorf("%d command registrations, want 1 (shard 0 only)", puts)
		}
		// Each process counts what it served (recorded just after the
		// answer went out).
		for _, p := range []*process{a, b} {
			eventually(t, "the requests counted", func() bool {
				rec := httptest.NewRecorder()
				p.bot.metrics.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
				return strings.Contains(rec.Body.String(), `sudokubot_requests_total{command="daily",outcome="answered",transport="gateway"} 4`)
			})
		}
	})

	t.Run("daily posted once per guild", func(t *testing.T) {
		now := time.Now()
		for _, g := range guilds {
			if err := a.st.SetDaily(ctx, g, "ch"+g, 0, now); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for _, p := range []*process{a, b, a, b} {
			wg.Go(func() {
				if _, err := NewPoster(p.bot, p.svc, 0).PostDue(ctx); err != nil {
					t.Errorf("PostDue: %v", err)
				}
			})
		}
		wg.Wait()
		for _, g := range guilds {
			posts := 0
			for _, c := range fake.Calls() {
				if c.IsChannelMessage() && strings.Contains(c.Path, "/channels/ch"+g+"/") && c.Status < 300 {
					posts++
				}
			}
			if posts != 1 {
				t.Errorf("guild %s: %d daily posts, want 1", g, posts)
			}
		}
	})

	t.Run("a finish both processes see counts once", func(t *testing.T) {
		ga, gb := fakediscord.GuildOnShard(0, n, 0), fakediscord.GuildOnShard(3, n, 0)
		carol := fakediscord.User{ID: "13", Username: "carol", Discriminator: "0"}
		c := pb.slash(carol, ga, "daily", fakediscord.Sub("play", fakediscord.Str("level", "easy")))
		id, puzzle := game(t, c)
		// Carol types most of the solution, then, a few minutes on, the
		// same last moves reach both processes at once (two clicks, two
		// servers): a fair finish (commands/fair.go), raced.
		moves := strings.Split(fillMoves(puzzle, solutionOf(t, puzzle)), "\n")
		pb.submitMoves(carol, ga, id, strings.Join(moves[:len(moves)-5], "\n"))
		processClock.skip.Add(int64(5 * time.Minute))
		last := strings.Join(moves[len(moves)-5:], "\n")
		var wg sync.WaitGroup
		for _, g := range []string{ga, gb} {
			wg.Go(func() { pb.submitMoves(carol, g, id, last) })
		}
		wg.Wait()
		st, err := b.st.Stats(ctx, carol.ID, processNow())
		if err != nil || st.Solved != 1 || st.Flagged != 0 {
			t.Errorf("carol's stats = %+v, %v; want exactly 1 daily solved, none flagged", st, err)
		}
		board, err := a.st.Leaderboard(ctx, ga, processNow(), "easy", 0)
		if err != nil || len(board) != 1 {
			t.Errorf("leaderboard of %s = %+v, %v; want carol once", ga, board, err)
		}
	})

	t.Run("a process stopped and restarted loses nothing", func(t *testing.T) {
		gb := fakediscord.GuildOnShard(2, n, 1)
		dave := fakediscord.User{ID: "14", Username: "dave", Discriminator: "0"}
		c := pb.slash(dave, gb, "daily", fakediscord.Sub("play", fakediscord.Str("level", "hard")))
		id, puzzle := game(t, c)
		solution := solutionOf(t, puzzle)
		blank := strings.IndexByte(puzzle, '.')
		first := fillMoves(puzzle[:blank+1], solution[:blank+1])
		pb.submitMoves(dave, gb, id, first)

		b.stop(t) // the connections drop; the store keeps the game
		ga := fakediscord.GuildOnShard(1, n, 1)
		if c := pb.slash(dave, ga, "daily", fakediscord.Sub("stats")); text(c) == "" {
			t.Errorf("the surviving process did not answer in guild %s", ga)
		}
		b = startProcess(t, fake, url, ShardSet{IDs: []int{2, 3}, Count: n})
		g, err := b.st.DailyGame(ctx, dave.ID, time.Now(), "hard")
		if err != nil || g.Moves != 1 || g.Status != store.Playing {
			t.Fatalf("dave's game after the restart = moves %d status %s, %v; want the move kept, still playing", g.Moves, g.Status, err)
		}
		_, done := pb.submitMoves(dave, gb, id, fillMoves(puzzle, solution))
		if !strings.Contains(text(done), "Solved") {
			t.Errorf("finishing after the restart answered %q", text(done))
		}
		if b.h.count(gb) != 1 {
			t.Errorf("the restarted process served guild %s %d times, want 1", gb, b.h.count(gb))
		}
	})
}

// grantLog wraps a limiter and records when it granted a slot.
type grantLog struct {
	IdentifyLimiter
	mu     sync.Mutex
	grants []time.Time
}

func (g *grantLog) ClaimIdentify(ctx context.Context, bucket int, every time.Duration, now time.Time) (time.Duration, error) {
	d, err := g.IdentifyLimiter.ClaimIdentify(ctx, bucket, every, now)
	if err == nil && d == 0 {
		g.mu.Lock()
		g.grants = append(g.grants, now)
		g.mu.Unlock()
	}
	return d, err
}

// TestShardsPaceAcrossProcesses starts two processes at once, shards 0-1
// and 2-3 of 4 with max_concurrency 1, sharing their store: the four
// Identify slots they are granted are 5 s apart on the (injected) clock,
// whichever process asked.
func TestShardsPaceAcrossProcesses(t *testing.T) {
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken})
	fake.SetShards(4, 1)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pace.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := newFakeClock(time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC))
	grants := &grantLog{IdentifyLimiter: st}
	for _, set := range []ShardSet{{IDs: []int{0, 1}, Count: 4}, {IDs: []int{2, 3}, Count: 4}} {
		cfg := Config{Token: testToken, APIBase: fake.URL(), ShutdownWait: time.Second}
		cfg.Shards = set
		b, err := New(cfg, &scriptHandler{specs: testSpecs}, log.New(&syncBuffer{}, "", 0))
		if err != nil {
			t.Fatal(err)
		}
		b.now = clock.Now
		b.identifyWait = func(ctx context.Context, d time.Duration) error {
			clock.ns.Add(int64(d)) // time passes for the waiter
			return nil
		}
		b.SetIdentifyLimiter(grants)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- b.Run(ctx) }()
		defer func() { cancel(); <-done }()
	}
	if !fake.WaitShards(waitLong, 0, 1, 2, 3) {
		t.Fatalf("shards connected: %v, want 0-3", fake.ShardsConnected())
	}
	grants.mu.Lock()
	defer grants.mu.Unlock()
	if len(grants.grants) != 4 {
		t.Fatalf("%d identify slots granted, want 4", len(grants.grants))
	}
	got := slices.Clone(grants.grants)
	slices.SortFunc(got, func(a, b time.Time) int { return a.Compare(b) })
	for i := 1; i < len(got); i++ {
		if d := got[i].Sub(got[i-1]); d < identifyEvery {
			t.Errorf("slots %d and %d granted %s apart, want at least %s: %v", i-1, i, d, identifyEvery, got)
		}
	}
}
