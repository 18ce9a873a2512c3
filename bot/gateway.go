package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The bot's own gateway client. discordgo v0.29 keeps REST, the types and
// the event structs, but not the websocket: its read loop and heartbeat
// goroutine of a connection each call Close (code 1000, which ends the
// session on Discord's side) and reconnect, and Close acts on whatever
// connection is current, so after a burst of drops one of them closes the
// new connection and the next, in a loop of Identifies (bwmarrin/discordgo
// #406). It also answers Invalid Session with an Identify sent at once
// (unpaced, whatever d says) and never uses resume_gateway_url. None of
// that can be switched off while keeping its websocket.
//
// Here one goroutine per shard owns the connection (gateway.run): it
// dials, identifies or resumes, reads, and when the connection is lost
// waits a jittered exponential backoff and reconnects, resuming whenever
// Discord still allows it. The heartbeat goroutine of a connection only
// ever closes that connection. Nothing closes with 1000 or 1001 except a
// shutdown; an Identify goes out only when there is no session to resume,
// through the identify slots (paceIdentify).

// gatewayTiming is how the gateway client waits; tests shorten it.
type gatewayTiming struct {
	// backoffMin is the first wait after a lost connection; each failure
	// in a row doubles it, up to backoffMax. The wait is jittered, between
	// half of it and all of it.
	backoffMin, backoffMax time.Duration
	// stable is how long a connection must have been up for the next loss
	// to start the backoff afresh: a gateway that accepts and drops again
	// at once keeps backing off, one that held a while is retried soon.
	stable time.Duration
	// handshake bounds the dial, Hello, and READY or RESUMED.
	handshake time.Duration
}

var defaultGatewayTiming = gatewayTiming{backoffMin: time.Second, backoffMax: time.Minute, stable: 5 * time.Second, handshake: 30 * time.Second}

// backoff is the wait before reconnect attempt n (from 0), jittered by r.
func (t gatewayTiming) backoff(n int, r *rand.Rand) time.Duration {
	d := t.backoffMin
	for range n {
		if d >= t.backoffMax/2 {
			d = t.backoffMax
			break
		}
		d *= 2
	}
	d = min(d, t.backoffMax)
	return d/2 + time.Duration(r.Int64N(int64(d/2)+1))
}

// gatewayState is the Bot's part of the gateway clients: their timing
// and the identify pace kept in this process.
type gatewayState struct {
	timing *gatewayTiming // nil: defaultGatewayTiming

	mu       sync.Mutex
	next     map[int]time.Time // by rate-limit bucket: the earliest next Identify
	gateways []*gateway        // every gateway client made (tests look at them)
}

// reserve books the next Identify of bucket in this process and says how
// long to wait for it.
func (g *gatewayState) reserve(bucket int, now time.Time) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next == nil {
		g.next = map[int]time.Time{}
	}
	at := g.next[bucket]
	if at.Before(now) {
		at = now
	}
	g.next[bucket] = at.Add(identifyEvery)
	return at.Sub(now)
}

// gateway is one shard's connection to Discord's gateway, with the
// session it resumes.
type gateway struct {
	b      *Bot
	s      *discordgo.Session // REST, and the session handlers are given
	shard  int
	count  int // shard count; 0 or 1 means unsharded
	bucket int // identify rate-limit bucket
	name   string
	timing gatewayTiming
	rand   *rand.Rand // backoff jitter; the run goroutine's
	wait   func(context.Context, time.Duration) error

	// Owned by the run goroutine.
	url       string // where to identify (from GET /gateway)
	resumeURL string
	sessionID string
	seq       atomic.Int64
	upAt      time.Time
	downAt    time.Time
	first     chan<- error // open's, until the first connection is up

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex
	conn *gwConn // the connection, while one is open

	live, maxLive atomic.Int32 // connections open now, and at most (tests)
}

// gwConn is one websocket connection; one writer at a time.
type gwConn struct {
	ws  *websocket.Conn
	wmu sync.Mutex
}

func (c *gwConn) writeJSON(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.ws.WriteJSON(v)
}

// close sends a close frame with code and closes the connection.
func (c *gwConn) close(code int) {
	c.wmu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
	c.wmu.Unlock()
	c.ws.Close()
}

// Close codes the gateway client sends: resumable keeps the session (any
// code but 1000 and 1001 does); ending is for a shutdown.
const (
	closeResumable = 4000
	closeEnding    = websocket.CloseNormalClosure
)

// newGateway prepares shard's connection over s (count 0: unsharded).
func (b *Bot) newGateway(s *discordgo.Session, shard, count, maxConcurrency int) *gateway {
	name := "gateway"
	if count > 1 {
		name = fmt.Sprintf("shard %d of %d", shard, count)
	}
	t := defaultGatewayTiming
	if b.gw.timing != nil {
		t = *b.gw.timing
	}
	wait := b.identifyWait
	if wait == nil {
		wait = sleepCtx
	}
	g := &gateway{b: b, s: s, shard: shard, count: count, bucket: shard % max(maxConcurrency, 1), name: name,
		timing: t, rand: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(shard))), wait: wait}
	b.gw.mu.Lock()
	b.gw.gateways = append(b.gw.gateways, g)
	b.gw.mu.Unlock()
	return g
}

// open makes the first connection and identifies (the caller has taken
// the identify slot), then keeps the shard connected until Close. An
// error means the first connection failed; nothing keeps running then.
func (g *gateway) open(ctx context.Context) error {
	g.ctx, g.cancel = context.WithCancel(context.Background())
	g.done = make(chan struct{})
	first := make(chan error, 1)
	go g.run(first)
	select {
	case err := <-first:
		return err
	case <-ctx.Done():
		g.Close()
		return ctx.Err()
	}
}

// Close ends the session (close code 1000: Discord shows the bot
// offline at once) and stops reconnecting. It waits up to closeWait for
// Discord to answer the close frame, as the websocket close handshake
// asks.
func (g *gateway) Close() error {
	if g.cancel == nil {
		return nil
	}
	g.cancel()
	g.mu.Lock()
	c := g.conn
	g.mu.Unlock()
	if c != nil {
		c.wmu.Lock()
		c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeEnding, ""), time.Now().Add(closeWait))
		c.wmu.Unlock()
		select {
		case <-g.done:
			return nil
		case <-time.After(closeWait):
			c.ws.Close()
		}
	}
	<-g.done
	return nil
}

// closeWait bounds the wait for Discord's answer to a close frame.
const closeWait = time.Second

// lost is why a connection ended.
type lost struct {
	err     error
	ended   bool // Discord ended the session (close 4007 or 4009): identify
	fatal   bool // reconnecting cannot help (bad token, intents, shard)
	soon    bool // Discord asked for a reconnect: no backoff
	wasUp   bool // READY or RESUMED had come
	refused bool // a resume answered with Invalid Session
}

// run owns the shard's connection: the first one (its outcome sent on
// first), then every reconnection, until Close.
func (g *gateway) run(first chan<- error) {
	defer close(g.done)
	defer g.setUp(false)
	g.first = first
	attempt := 0
	for {
		identify := g.sessionID == ""
		if identify && g.first == nil {
			if err := g.b.paceIdentify(g.ctx, g.bucket, g.wait); err != nil {
				return // closed while waiting
			}
		}
		l := g.connect(identify)
		if g.first != nil {
			g.first <- l.err
			return
		}
		if g.ctx.Err() != nil {
			return
		}
		if l.fatal {
			g.b.logf("%s: Discord refused the connection for good (%v): not reconnecting", g.name, l.err)
			return
		}
		if l.ended {
			g.sessionID, g.resumeURL = "", ""
			g.seq.Store(0)
		}
		if l.wasUp && time.Since(g.upAt) >= g.timing.stable {
			attempt = 0
		}
		var d time.Duration
		if !l.soon {
			d = g.timing.backoff(attempt, g.rand)
			attempt++
		}
		next := "resuming"
		if g.sessionID == "" {
			next = "identifying"
		}
		switch {
		case l.refused:
			g.b.logf("%s: resume refused (session ended); identifying in %s", g.name, d.Round(time.Millisecond))
		case l.wasUp:
			g.b.logf("%s: connection lost (%v); %s in %s", g.name, l.err, next, d.Round(time.Millisecond))
		default:
			g.b.logf("%s: reconnect failed (%v); %s in %s (attempt %d)", g.name, l.err, next, d.Round(time.Millisecond), attempt)
		}
		if err := sleepCtx(g.ctx, d); err != nil {
			return
		}
		g.b.metrics.gwReconnects.With(strconv.Itoa(g.shard)).Inc()
	}
}

// sleepCtx waits d, or less when ctx ends (its error then).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// setUp records whether the shard is connected, for readiness, shard_up
// and the time disconnected.
func (g *gateway) setUp(up bool) {
	g.s.Lock()
	was := g.s.DataReady
	g.s.DataReady = up
	g.s.Unlock()
	now := time.Now()
	switch {
	case up && !was:
		g.upAt = now
		if !g.downAt.IsZero() {
			g.b.metrics.gwDown.With(strconv.Itoa(g.shard)).Add(now.Sub(g.downAt).Seconds())
		}
	case !up && was:
		g.downAt = now
	}
}

// gatewayURL is where to identify: asked of Discord once, and again
// after a dial there failed.
func (g *gateway) gatewayURL() (string, error) {
	if g.url != "" {
		return g.url, nil
	}
	ctx, cancel := context.WithTimeout(g.ctx, g.timing.handshake)
	defer cancel()
	u, err := g.s.Gateway(discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	g.url = u
	return u, nil
}

// withQuery adds the API version and encoding to a gateway address.
func withQuery(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("gateway address %q: %w", u, err)
	}
	q := p.Query()
	q.Set("v", discordgo.APIVersion)
	q.Set("encoding", "json")
	p.RawQuery = q.Encode()
	return p.String(), nil
}

// frame is a gateway payload as read.
type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int64           `json:"s"`
	T  string          `json:"t"`
}

// connect runs one connection: dial, Hello, Identify or Resume, then
// events until it is lost.
func (g *gateway) connect(identify bool) lost {
	where := g.resumeURL
	if identify || where == "" {
		u, err := g.gatewayURL()
		if err != nil {
			return lost{err: fmt.Errorf("GET /gateway: %w", err)}
		}
		where = u
	}
	addr, err := withQuery(where)
	if err != nil {
		g.url = ""
		return lost{err: err}
	}
	dctx, cancel := context.WithTimeout(g.ctx, g.timing.handshake)
	ws, resp, err := websocket.DefaultDialer.DialContext(dctx, addr, http.Header{})
	cancel()
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if identify {
			g.url = "" // ask Discord again next time
		} else {
			g.resumeURL = ""
		}
		return lost{err: fmt.Errorf("dial: %w", err)}
	}
	// gorilla answers a close frame with the same code by default: a 1001
	// from Discord echoed back would end the session. The read error
	// says the rest; the connection is closed right after.
	ws.SetCloseHandler(func(int, string) error { return nil })
	c := &gwConn{ws: ws}
	g.mu.Lock()
	if g.ctx.Err() != nil {
		g.mu.Unlock()
		ws.Close()
		return lost{err: g.ctx.Err()}
	}
	g.conn = c
	g.mu.Unlock()
	if n := g.live.Add(1); n > g.maxLive.Load() {
		g.maxLive.Store(n)
	}
	defer func() {
		g.mu.Lock()
		g.conn = nil
		g.mu.Unlock()
		ws.Close()
		g.live.Add(-1)
		g.setUp(false)
	}()
	return g.serve(c, identify)
}

// serve speaks the protocol on c until it is lost.
func (g *gateway) serve(c *gwConn, identify bool) (l lost) {
	ws := c.ws
	ws.SetReadDeadline(time.Now().Add(g.timing.handshake))
	var hello frame
	if err := ws.ReadJSON(&hello); err != nil {
		return readLost(err, false)
	}
	var h struct {
		Interval float64 `json:"heartbeat_interval"`
	}
	if hello.Op != 10 || json.Unmarshal(hello.D, &h) != nil || h.Interval <= 0 {
		return lost{err: fmt.Errorf("expected Hello, got op %d", hello.Op)}
	}
	acked := make(chan struct{}, 1)
	beat := make(chan struct{}, 1)
	hbDone := make(chan struct{})
	defer close(hbDone)
	go g.heartbeat(c, time.Duration(h.Interval*float64(time.Millisecond)), acked, beat, hbDone)

	shard := strconv.Itoa(g.shard)
	if identify {
		if err := c.writeJSON(map[string]any{"op": 2, "d": g.identifyData()}); err != nil {
			return lost{err: fmt.Errorf("send Identify: %w", err)}
		}
		g.b.metrics.gwIdentifies.With(shard).Inc()
	} else {
		resume := map[string]any{"token": g.s.Token, "session_id": g.sessionID, "seq": g.seq.Load()}
		if err := c.writeJSON(map[string]any{"op": 6, "d": resume}); err != nil {
			return lost{err: fmt.Errorf("send Resume: %w", err)}
		}
	}
	up := false
	defer func() { l.wasUp = up }()
	for {
		var f frame
		_, msg, err := ws.ReadMessage()
		if err != nil {
			if g.ctx.Err() != nil { // closed by Close
				return lost{err: g.ctx.Err()}
			}
			return readLost(err, up)
		}
		if json.Unmarshal(msg, &f) != nil {
			g.b.logf("%s: unreadable gateway frame ignored", g.name)
			continue
		}
		switch f.Op {
		case 0:
			g.seq.Store(f.S)
			switch f.T {
			case "READY":
				ws.SetReadDeadline(time.Time{})
				if !g.onReady(f.D) {
					return lost{err: errors.New("READY without a session id")}
				}
				up = true
				g.setUp(true)
				if g.first != nil {
					g.first <- nil // open returns (its caller logs it); this goroutine keeps the shard up
					g.first = nil
				} else {
					g.b.logf("%s: connected (identified, new session)", g.name)
				}
			case "RESUMED":
				ws.SetReadDeadline(time.Time{})
				up = true
				g.setUp(true)
				g.b.metrics.gwResumes.With(shard).Inc()
				g.b.logf("%s: resumed (session kept, missed events replayed)", g.name)
			default:
				g.dispatch(f.T, f.D)
			}
		case 1:
			select {
			case beat <- struct{}{}:
			default:
			}
		case 7:
			c.close(closeResumable)
			return lost{err: errors.New("reconnect asked by Discord (op 7)"), soon: true}
		case 9:
			var resumable bool
			json.Unmarshal(f.D, &resumable)
			c.close(closeResumable)
			if !resumable {
				refused := !identify
				g.sessionID, g.resumeURL = "", ""
				g.seq.Store(0)
				return lost{err: errors.New("invalid session"), refused: refused}
			}
			return lost{err: errors.New("invalid session (resumable)")}
		case 11:
			select {
			case acked <- struct{}{}:
			default:
			}
		}
	}
}

// readLost classifies a read error: the close codes Discord uses to say
// reconnecting will not help, or that the session is over.
func readLost(err error, wasUp bool) lost {
	l := lost{err: err, wasUp: wasUp}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		switch ce.Code {
		case 4004, 4010, 4011, 4012, 4013, 4014: // authentication, shard, sharding required, version, intents
			l.fatal = true
			l.err = fmt.Errorf("close %d %s", ce.Code, ce.Text)
		case 4007, 4009: // invalid seq, session timed out
			l.ended = true
		}
	}
	return l
}

// identifyData is the Identify payload: discordgo's, uncompressed, with
// the shard.
func (g *gateway) identifyData() discordgo.Identify {
	id := g.s.Identify
	id.Token = g.s.Token
	id.Compress = false
	id.Shard = nil
	if g.count > 1 {
		id.Shard = &[2]int{g.shard, g.count}
	}
	return id
}

// heartbeat beats every interval (the first after a random part of it,
// as Discord asks) and when Discord asks (beat). A beat not acknowledged
// by the next one means a dead connection: it closes c, resumably, and
// the reader takes it from there. It only ever closes its own c.
func (g *gateway) heartbeat(c *gwConn, interval time.Duration, acked, beat <-chan struct{}, done <-chan struct{}) {
	t := time.NewTimer(time.Duration(rand.Float64() * float64(interval)))
	defer t.Stop()
	waiting := false
	send := func() bool {
		return c.writeJSON(map[string]any{"op": 1, "d": g.seq.Load()}) == nil
	}
	for {
		select {
		case <-done:
			return
		case <-acked:
			waiting = false
		case <-beat:
			if !send() {
				return
			}
		case <-t.C:
			if waiting {
				g.b.logf("%s: no heartbeat ACK in %s; reconnecting", g.name, interval)
				c.close(closeResumable)
				return
			}
			if !send() {
				return
			}
			waiting = true
			t.Reset(interval)
		}
	}
}

// onReady takes the new session from READY and tells the bot; false when
// READY carries no session id.
func (g *gateway) onReady(d json.RawMessage) bool {
	var r discordgo.Ready
	var extra struct {
		ResumeURL string `json:"resume_gateway_url"`
	}
	if json.Unmarshal(d, &r) != nil || r.SessionID == "" {
		return false
	}
	json.Unmarshal(d, &extra)
	g.sessionID, g.resumeURL = r.SessionID, extra.ResumeURL
	g.s.State.Lock()
	g.s.State.Ready = r
	g.s.State.Unlock()
	g.b.onReady(g.s, &r)
	return true
}

// dispatch hands an event to the bot's handler on a goroutine of its
// own, as discordgo does. Events the bot does not handle are dropped.
func (g *gateway) dispatch(t string, d json.RawMessage) {
	switch t {
	case "INTERACTION_CREATE":
		ic := &discordgo.InteractionCreate{}
		if err := json.Unmarshal(d, ic); err != nil {
			g.b.logf("%s: INTERACTION_CREATE not understood: %v", g.name, err)
		}
		go g.b.onInteraction(g.s, ic)
	case "MESSAGE_CREATE":
		mc := &discordgo.MessageCreate{}
		if err := json.Unmarshal(d, mc); err != nil {
			g.b.logf("%s: MESSAGE_CREATE not understood: %v", g.name, err)
		}
		go g.b.onMessage(g.s, mc)
	case "GUILD_DELETE":
		gd := &discordgo.GuildDelete{}
		if err := json.Unmarshal(d, gd); err != nil {
			g.b.logf("%s: GUILD_DELETE not understood: %v", g.name, err)
		}
		go g.b.onGuildDelete(g.s, gd)
	}
}
