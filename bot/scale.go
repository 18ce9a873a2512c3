package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Pinger is the database as the readiness check sees it; both stores
// implement it.
type Pinger interface {
	Ping(ctx context.Context) error
}

// IdentifyLimiter hands out gateway Identify slots shared by every
// process (the store keeps them): 0 means identify now, else how long to
// wait before asking again.
type IdentifyLimiter interface {
	ClaimIdentify(ctx context.Context, bucket int, every time.Duration, now time.Time) (time.Duration, error)
}

// ReplayGuard records signed HTTP requests for every process (the store
// keeps them): FirstSeen is true only for the first to record signature,
// which is remembered until expires.
type ReplayGuard interface {
	FirstSeen(ctx context.Context, signature string, expires, now time.Time) (bool, error)
}

// scale is the part of the Bot that runs beyond one gateway session: its
// shards, the HTTP interactions endpoint, health and metrics.
type scale struct {
	metrics  *metrics
	restOnly *discordgo.Session // REST-only session for HTTP interactions; guarded by Bot.mu

	db       Pinger
	identify IdentifyLimiter
	replays  ReplayGuard

	// shards are the gateway sessions of this process, by shard id
	// (guarded by Bot.mu); one entry, id 0, on the unsharded path.
	shards map[int]*discordgo.Session

	httpAddr atomic.Value // string: where the HTTP server listens
	httpUp   atomic.Bool

	// identifyWait waits d before the next Identify of a rate-limit
	// bucket; tests replace it to run fast and see the pacing.
	identifyWait func(ctx context.Context, d time.Duration) error

	gw gatewayState // the gateway clients' timing and identify pace (gateway.go)
}

// identifyEvery is Discord's pace: one Identify per rate-limit bucket
// every 5 seconds.
const identifyEvery = 5 * time.Second

// SetDatabase gives the readiness check a database to ping.
func (b *Bot) SetDatabase(p Pinger) { b.db = p }

// SetIdentifyLimiter makes the shards of this process take their Identify
// slots from l, shared with the other processes, instead of pacing only
// among themselves.
func (b *Bot) SetIdentifyLimiter(l IdentifyLimiter) { b.identify = l }

// SetReplayGuard makes the interactions endpoint refuse a request any
// process has already served, not only this one.
func (b *Bot) SetReplayGuard(g ReplayGuard) { b.replays = g }

// HTTPAddr is the address the interactions endpoint (or, without it, the
// operations server) listens on, once Run has started it; "" before.
func (b *Bot) HTTPAddr() string {
	a, _ := b.httpAddr.Load().(string)
	return a
}

// startHTTP starts the interactions endpoint and the operations server
// as configured, and returns a function that stops them.
func (b *Bot) startHTTP() (func(), error) {
	var servers []*http.Server
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b.httpUp.Store(false)
		for _, s := range servers {
			s.Shutdown(ctx)
		}
	}
	// listen serves h on addr and returns the address it got.
	listen := func(addr string, h http.Handler) (string, error) {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return "", err
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
			WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
		servers = append(servers, srv)
		go srv.Serve(ln)
		return ln.Addr().String(), nil
	}
	if b.cfg.InteractionsAddr != "" {
		mux := b.opsMux()
		mux.Handle(b.cfg.InteractionsPath, newEndpoint(b))
		addr, err := listen(b.cfg.InteractionsAddr, mux)
		if err != nil {
			return nil, fmt.Errorf("INTERACTIONS_ADDR=%s: %w", b.cfg.InteractionsAddr, err)
		}
		// Up before the address is published: whoever learns the
		// address from HTTPAddr finds /readyz ready.
		b.httpUp.Store(true)
		b.httpAddr.Store(addr)
		b.logf("serving HTTP interactions at %s%s", addr, b.cfg.InteractionsPath)
	}
	if b.cfg.OpsAddr != "" {
		addr, err := listen(b.cfg.OpsAddr, b.opsMux())
		if err != nil {
			stop()
			return nil, fmt.Errorf("OPS_ADDR=%s: %w", b.cfg.OpsAddr, err)
		}
		if b.HTTPAddr() == "" {
			b.httpAddr.Store(addr)
		}
	}
	return stop, nil
}

// opsMux serves /healthz, /readyz and /metrics.
func (b *Bot) opsMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := b.readiness(r.Context()); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", b.metrics.handler())
	return mux
}

// readiness reports why the bot cannot serve, or nil: it is shutting down, a
// shard of this process is not connected (or, without a gateway, the
// endpoint is not serving), or the database does not answer.
func (b *Bot) readiness(ctx context.Context) error {
	b.mu.Lock()
	stopping := b.stopping
	b.mu.Unlock()
	sessions := b.localShards()
	var errs []error
	if stopping {
		errs = append(errs, errors.New("shutting down"))
	}
	if len(sessions) == 0 && !b.httpUp.Load() {
		errs = append(errs, errors.New("no gateway session and no HTTP endpoint"))
	}
	for id, s := range sessions {
		if !sessionReady(s) {
			errs = append(errs, fmt.Errorf("shard %d not connected", id))
		}
	}
	if b.db != nil {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := b.db.Ping(pctx)
		cancel()
		if err != nil {
			b.metrics.dbErrors.Add(1)
			errs = append(errs, fmt.Errorf("database: %w", err))
		}
	}
	return errors.Join(errs...)
}

// sessionReady reports whether s has a live, identified connection.
func sessionReady(s *discordgo.Session) bool {
	s.RLock()
	defer s.RUnlock()
	return s.DataReady
}

// localShards lists this process's gateway sessions by shard id.
func (b *Bot) localShards() map[int]*discordgo.Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[int]*discordgo.Session, len(b.shards))
	for id, s := range b.shards {
		out[id] = s
	}
	if len(out) == 0 && b.session != nil {
		out[0] = b.session // the unsharded path
	}
	return out
}

// runEndpointOnly serves the HTTP endpoint without a gateway session
// until ctx ends, then shuts down like Run.
func (b *Bot) runEndpointOnly(ctx context.Context) error {
	b.logf("no DISCORD_TOKEN: serving the HTTP endpoint only (no gateway, no daily posts)")
	prune := time.NewTicker(time.Minute)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			b.shutdown()
			return nil
		case <-prune.C:
			b.limits.prune(b.now())
		}
	}
}
