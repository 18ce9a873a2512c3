package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MaxInteractionBody bounds one request to the HTTP interactions endpoint.
// Discord's interactions are a few kilobytes; a megabyte leaves room for
// long modal text and refuses floods early.
const MaxInteractionBody = 1 << 20

// SignatureWindow is how far a request's signed timestamp may be from the
// clock. Older requests are refused, so a captured request cannot be
// replayed later; within the window, the replay cache refuses repeats.
const SignatureWindow = 5 * time.Minute

// firstAnswerWait bounds how long the endpoint holds Discord's request
// while the bot prepares its first answer. The bot defers after
// DeferAfter (under 2.5 s), so this is only reached when something hangs.
const firstAnswerWait = 2900 * time.Millisecond

// endpoint serves Discord's outgoing webhooks: POST requests signed with
// the application's key, each carrying one interaction. The first answer
// is the HTTP response itself; later edits and follow-ups go through the
// REST webhooks, exactly as on the gateway path. It keeps no state beyond
// the replay cache; with a shared ReplayGuard (the store), any number of
// processes can stand behind a load balancer and a request replayed to
// another process is refused there too.
type endpoint struct {
	b    *Bot
	key  ed25519.PublicKey
	seen *replayCache
}

func newEndpoint(b *Bot) *endpoint {
	return &endpoint{b: b, key: b.cfg.PublicKey, seen: newReplayCache(SignatureWindow)}
}

// refuse answers a refused request; the reason is counted, not logged
// per request (a flood would drown the log).
func (e *endpoint) refuse(w http.ResponseWriter, status int, reason, msg string) {
	e.b.metrics.endpointRefused(reason)
	http.Error(w, msg, status)
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := e.b.now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		e.refuse(w, http.StatusMethodNotAllowed, "method", "POST only")
		return
	}
	if r.ContentLength > MaxInteractionBody {
		e.refuse(w, http.StatusRequestEntityTooLarge, "too_large", "request body too large")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxInteractionBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			e.refuse(w, http.StatusRequestEntityTooLarge, "too_large", "request body too large")
			return
		}
		e.refuse(w, http.StatusBadRequest, "unreadable", "could not read the body")
		return
	}
	sig := r.Header.Get("X-Signature-Ed25519")
	ts := r.Header.Get("X-Signature-Timestamp")
	if reason := e.verify(sig, ts, body, arrived); reason != "" {
		e.refuse(w, http.StatusUnauthorized, reason, "invalid request signature")
		return
	}
	if !e.seen.add(sig, arrived) || !e.firstSeen(r.Context(), sig, ts, arrived) {
		e.refuse(w, http.StatusUnauthorized, "replay", "request already seen")
		return
	}
	var in discordgo.Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		e.b.logf("http interaction: unreadable body: %v", err)
		e.refuse(w, http.StatusBadRequest, "malformed", "malformed interaction")
		return
	}
	if in.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	if in.ID == "" || in.Token == "" {
		e.refuse(w, http.StatusBadRequest, "malformed", "interaction without id or token")
		return
	}
	e.serveInteraction(r.Context(), w, &in, arrived)
}

// verify checks the signature over timestamp+body and the timestamp's
// age; it returns why the request is refused, or "".
func (e *endpoint) verify(sig, ts string, body []byte, now time.Time) string {
	if sig == "" || ts == "" {
		return "unsigned"
	}
	raw, err := hex.DecodeString(sig)
	if err != nil || len(raw) != ed25519.SignatureSize || len(e.key) != ed25519.PublicKeySize {
		return "signature"
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(e.key, msg, raw) {
		return "signature"
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "stale"
	}
	if d := now.Sub(time.Unix(sec, 0)); d > SignatureWindow || d < -SignatureWindow {
		return "stale"
	}
	return ""
}

// replayCheckWait bounds the shared replay check, so a slow database
// costs a request little of its 3 seconds.
const replayCheckWait = 500 * time.Millisecond

// firstSeen asks the shared replay guard, when there is one, whether any
// process has served this signature before. If the guard can't answer the
// request is served: the signature and timestamp were good, and this
// process's own cache has already refused a repeat here.
func (e *endpoint) firstSeen(ctx context.Context, sig, ts string, now time.Time) bool {
	if e.b.replays == nil {
		return true
	}
	sec, _ := strconv.ParseInt(ts, 10, 64) // verify has parsed it already
	ctx, cancel := context.WithTimeout(ctx, replayCheckWait)
	defer cancel()
	first, err := e.b.replays.FirstSeen(ctx, sig, time.Unix(sec, 0).Add(SignatureWindow), now)
	if err != nil {
		e.b.logf("http interaction: the shared replay check failed, serving on this process's check alone: %v", err)
		return true
	}
	return first
}

// serveInteraction runs the interaction exactly as the gateway path does,
// with one difference: the first answer (an answer, a modal or a deferral)
// is written as this request's response instead of being POSTed to the
// callback URL.
func (e *endpoint) serveInteraction(ctx context.Context, w http.ResponseWriter, in *discordgo.Interaction, arrived time.Time) {
	first := make(chan *discordgo.InteractionResponse, 1)
	written := make(chan struct{})
	defer close(written)
	x := &exchange{b: e.b, s: e.b.restSession(), in: in, transport: "http"}
	x.reply = func(r *discordgo.InteractionResponse) error {
		first <- r
		// Edits must not overtake the response that acknowledges the
		// interaction, so the exchange waits until it is on the wire.
		<-written
		return nil
	}
	go e.b.interact(x, arrived)
	t := time.NewTimer(firstAnswerWait - e.b.now().Sub(arrived))
	defer t.Stop()
	select {
	case r := <-first:
		writeResponse(w, r)
	case <-t.C:
		e.b.logf("http interaction %s: no first answer within %s", in.ID, firstAnswerWait)
		http.Error(w, "no answer in time", http.StatusServiceUnavailable)
	case <-ctx.Done():
	}
}

// writeResponse writes an interaction response as JSON, or as multipart
// form data when it carries files (as Discord accepts for callbacks).
func writeResponse(w http.ResponseWriter, r *discordgo.InteractionResponse) {
	if r.Data != nil && len(r.Data.Files) > 0 {
		ct, body, err := discordgo.MultipartBodyWithJSON(r, r.Data.Files)
		if err != nil {
			http.Error(w, "could not encode the answer", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.Write(body)
		return
	}
	writeJSON(w, r)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "could not encode the answer", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// replayCache remembers the signatures seen within the window: Discord
// never sends the same signed request twice, so a repeat is a replay.
type replayCache struct {
	window time.Duration
	mu     sync.Mutex
	seen   map[string]time.Time
	sweep  time.Time
}

func newReplayCache(window time.Duration) *replayCache {
	return &replayCache{window: window, seen: map[string]time.Time{}}
}

// add records sig at now and reports whether it was new. Entries older
// than the window are swept at most once a window (a stale timestamp is
// refused before it gets here, so an expired entry cannot come back).
func (c *replayCache) add(sig string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.sweep) > c.window {
		for k, at := range c.seen {
			if now.Sub(at) > 2*c.window {
				delete(c.seen, k)
			}
		}
		c.sweep = now
	}
	if _, ok := c.seen[sig]; ok {
		return false
	}
	c.seen[sig] = now
	return true
}

// restSession is the session that sends edits and follow-ups for HTTP
// interactions: the gateway's when there is one, else a REST-only session
// (webhook calls are authorized by the interaction's token).
func (b *Bot) restSession() *discordgo.Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session != nil {
		return b.session
	}
	if b.restOnly == nil {
		auth := "" // webhook calls need no Authorization, and an empty "Bot " is refused
		if b.cfg.Token != "" {
			auth = "Bot " + b.cfg.Token
		}
		s, err := discordgo.New(auth)
		if err == nil {
			base := http.DefaultTransport.(*http.Transport).Clone()
			base.MaxIdleConnsPerHost = 64
			rt, _ := newRewriteTransport(b.cfg.APIBase, base) // validated in New
			s.Client = &http.Client{Timeout: 20 * time.Second, Transport: rt}
			s.StateEnabled = false
		}
		b.restOnly = s
	}
	return b.restOnly
}
