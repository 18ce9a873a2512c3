package bot

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// Channels sends the messages that answer no interaction: mention replies,
// daily posts, and for the product (commands.Channels) race lobbies,
// scoreboards, results and threads. It makes its REST calls itself, as
// respond.go does, for what discordgo v0.29 cannot do:
//
//   - a message is posted with a nonce and enforce_nonce (discordgo's
//     MessageSend has no enforce_nonce): Discord then returns the message
//     already made for a repeated nonce, so a 5xx or a cut connection is
//     retried without ever posting twice;
//   - edits are coalesced per message and paced by the channel's rate-limit
//     bucket as Discord's headers describe it (X-RateLimit-Remaining and
//     -Reset-After, learned from every answer, never assumed), so a
//     scoreboard edited on every move stays within the limit and shows the
//     latest body within a bucket's window;
//   - discordgo keeps a rate-limit bucket per URL for ever
//     (bwmarrin/discordgo#1333): an edit per message id would leak one.
type Channels struct {
	client    *http.Client
	auth      string // "Bot …"; empty without a token
	userAgent string
	logf      func(format string, args ...any)
	// base ends when the bot's REST calls must stop (shutdown).
	base context.Context

	// backoff is the first retry's wait; it doubles up to backoffMax.
	backoff, backoffMax time.Duration
	// budget is how long a post, an edit or a thread keeps retrying.
	budget time.Duration

	// count, when set, counts each attempt by route (post, edit,
	// thread) and outcome (ok, rate_limited, server_error, network,
	// refused), and each body an edit replaced unsent (coalesced).
	count func(route, outcome string)

	mu      sync.Mutex
	buckets map[string]*bucketState // by route and channel (bucketKey)
	sweepAt int                     // buckets swept past this many (learn)
	queues  map[string]*editQueue   // by channel
}

// bucketState is what Discord's headers last said of one bucket.
type bucketState struct {
	remaining int       // calls left before reset
	reset     time.Time // when the bucket refills
}

// editQueue holds a channel's edits waiting for its bucket: per message
// only the latest body, in the order the messages were first queued.
type editQueue struct {
	order   []string
	pending map[string]*pendingEdit
	running bool
	last    time.Time // when the queue last sent
}

// pendingEdit is the body a message is to get, and who waits for it.
type pendingEdit struct {
	contentType string
	body        []byte
	waiters     []chan error
	first       time.Time // when the first waiter queued it
	attempts    int
}

// Defaults of a Channels' waits.
const (
	channelBackoff    = 200 * time.Millisecond
	channelBackoffMax = 5 * time.Second
	channelBudget     = 30 * time.Second
	// threadArchive is how long a thread lives without a message, in
	// minutes: a day outlasts any race.
	threadArchive = 1440
)

// newChannels returns a Channels sending through client with the bot
// token (empty: every call fails saying so); base ends its work.
func newChannels(base context.Context, client *http.Client, token, userAgent string, logf func(string, ...any)) *Channels {
	auth := ""
	if token != "" {
		auth = "Bot " + token
	}
	return &Channels{client: client, auth: auth, userAgent: userAgent, logf: logf, base: base,
		backoff: channelBackoff, backoffMax: channelBackoffMax, budget: channelBudget,
		buckets: map[string]*bucketState{}, queues: map[string]*editQueue{}}
}

var _ commands.Channels = (*Channels)(nil)

// errNoToken is returned by every call of a bot without a gateway token.
var errNoToken = errors.New("channel messages need DISCORD_TOKEN")

// Post sends r to a channel or thread once, whatever retries it takes,
// and returns the message's id.
func (c *Channels) Post(ctx context.Context, channelID string, r commands.Response) (string, error) {
	return c.post(ctx, channelID, toMessage(r), nil, newNonce())
}

// post sends m to channelID, as a reply to ref when set. The nonce makes
// every retry return the message the first attempt made, if it made one;
// a caller that may send the same message again later (the next round of
// the daily poster) passes a nonce derived from what the message is, so
// that a later try within Discord's few minutes finds it too.
func (c *Channels) post(ctx context.Context, channelID string, m message, ref *discordgo.MessageReference, nonce string) (string, error) {
	if c.auth == "" {
		return "", errNoToken
	}
	payload := m.channelPayload(false)
	payload["nonce"] = nonce
	payload["enforce_nonce"] = true
	if ref != nil {
		payload["message_reference"] = ref
	}
	ct, body, err := encode(payload, m.files)
	if err != nil {
		return "", err
	}
	var sent struct {
		ID string `json:"id"`
	}
	url := discordgo.EndpointChannelMessages(channelID)
	data, err := c.retry(ctx, bucketKey("post", channelID), http.MethodPost, url, ct, body)
	if err != nil {
		return "", fmt.Errorf("post in channel %s: %w", channelID, err)
	}
	if err := json.Unmarshal(data, &sent); err != nil || sent.ID == "" {
		return "", fmt.Errorf("post in channel %s: Discord's answer has no message id", channelID)
	}
	return sent.ID, nil
}

// StartThread makes a public thread from a message and returns its id
// (Discord gives it the message's). It returns commands.ErrNoThreads when
// the bot may not make one there: no permission, a DM, a thread.
func (c *Channels) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	if c.auth == "" {
		return "", errNoToken
	}
	body, _ := json.Marshal(map[string]any{"name": commands.Clip(name, commands.MaxThreadName), "auto_archive_duration": threadArchive})
	url := discordgo.EndpointChannelMessageThread(channelID, messageID)
	data, err := c.retry(ctx, "thread/"+channelID, http.MethodPost, url, "application/json", body)
	var re *restError
	switch {
	case err == nil:
		var th struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(data, &th) != nil || th.ID == "" {
			return "", fmt.Errorf("thread from message %s: Discord's answer has no id", messageID)
		}
		return th.ID, nil
	case errors.As(err, &re) && re.Code == codeThreadExists:
		// Made already: by an attempt whose answer was lost, or by
		// another process. A thread from a message has the message's id.
		return messageID, nil
	case errors.As(err, &re) && (re.Code == codeMissingPermissions || re.Code == codeMissingAccess || re.Code == codeWrongChannelType):
		return "", fmt.Errorf("%w: %s", commands.ErrNoThreads, re.Message)
	}
	return "", fmt.Errorf("thread from message %s in channel %s: %w", messageID, channelID, err)
}

// Discord's codes that StartThread tells apart.
const (
	codeMissingAccess      = 50001
	codeMissingPermissions = 50013
	codeWrongChannelType   = 50024
	codeThreadExists       = 160004
)

// Edit replaces a message's body. It queues the edit and returns at once,
// so a player's answer never waits for a scoreboard: the edit goes out
// when the channel's bucket allows, and bodies queued meanwhile for the
// same message are coalesced (only the latest is sent). A failure is
// logged; the error is only for an edit that cannot be queued.
func (c *Channels) Edit(ctx context.Context, channelID, messageID string, r commands.Response) error {
	return c.queueEdit(channelID, messageID, r, nil)
}

// editAndWait is Edit waiting until this body, or a later one for the
// same message, has been sent, and returning that send's error (or ctx's:
// the edit then still goes out).
func (c *Channels) editAndWait(ctx context.Context, channelID, messageID string, r commands.Response) error {
	done := make(chan error, 1)
	if err := c.queueEdit(channelID, messageID, r, done); err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// queueEdit queues an edit; done, when set, gets the outcome of the send
// that carries it (buffered: the sender never waits).
func (c *Channels) queueEdit(channelID, messageID string, r commands.Response, done chan error) error {
	if c.auth == "" {
		return errNoToken
	}
	if err := c.base.Err(); err != nil {
		return fmt.Errorf("edit message %s: the bot is stopping: %w", messageID, err)
	}
	m := toMessage(r)
	ct, body, err := encode(m.channelPayload(true), m.files)
	if err != nil {
		return err
	}
	var waiters []chan error
	if done != nil {
		waiters = []chan error{done}
	}
	c.mu.Lock()
	q := c.queues[channelID]
	if q == nil {
		q = &editQueue{pending: map[string]*pendingEdit{}}
		c.queues[channelID] = q
	}
	if p := q.pending[messageID]; p != nil {
		p.contentType, p.body = ct, body
		c.counted("edit", "coalesced")
		p.waiters = append(p.waiters, waiters...)
	} else {
		q.pending[messageID] = &pendingEdit{contentType: ct, body: body, waiters: waiters, first: time.Now()}
		q.order = append(q.order, messageID)
	}
	if !q.running {
		q.running = true
		go c.runEdits(channelID, q)
	}
	c.mu.Unlock()
	return nil
}

// runEdits sends a channel's queued edits, each when the bucket allows,
// until none is left.
func (c *Channels) runEdits(channelID string, q *editQueue) {
	key := bucketKey("edit", channelID)
	for {
		c.mu.Lock()
		if len(q.order) == 0 {
			q.running = false
			delete(c.queues, channelID)
			c.mu.Unlock()
			return
		}
		if wait := c.reservePaced(key, q.last); wait > 0 {
			c.mu.Unlock()
			if !c.sleep(wait) {
				c.failQueue(q, c.base.Err())
				return
			}
			continue // the latest bodies are taken after the wait
		}
		id := q.order[0]
		q.order = q.order[1:]
		p := q.pending[id]
		delete(q.pending, id)
		q.last = time.Now()
		c.mu.Unlock()

		url := discordgo.EndpointChannelMessage(channelID, id)
		_, err := c.once(c.base, key, http.MethodPatch, url, p.contentType, p.body)
		if err != nil && transient(err) && time.Since(p.first) < c.budget && c.base.Err() == nil {
			var re *restError
			wait := c.backoffAfter(p.attempts)
			if errors.As(err, &re) && re.Status == http.StatusTooManyRequests {
				wait = 0 // the bucket now knows when it refills
			}
			p.attempts++
			c.mu.Lock()
			if newer := q.pending[id]; newer != nil {
				// A later body replaces this one; its send answers all.
				newer.waiters = append(newer.waiters, p.waiters...)
			} else {
				q.pending[id] = p
				q.order = append([]string{id}, q.order...)
			}
			c.mu.Unlock()
			if !c.sleep(wait) {
				c.failQueue(q, c.base.Err())
				return
			}
			continue
		}
		if err != nil {
			err = fmt.Errorf("edit message %s in channel %s: %w", id, channelID, err)
			c.logf("%v", err)
		}
		for _, w := range p.waiters {
			w <- err
		}
	}
}

// failQueue answers every edit still queued with err (the bot stops).
func (c *Channels) failQueue(q *editQueue, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range q.pending {
		for _, w := range p.waiters {
			w <- err
		}
	}
	q.pending, q.order, q.running = map[string]*pendingEdit{}, nil, false
}

// retry makes a call until it succeeds, fails for good, or the budget
// (or ctx) ends. Waits grow from backoff, doubling, with jitter; a 429
// waits what the bucket says. key names the call's bucket ("" for none
// known).
func (c *Channels) retry(ctx context.Context, key, method, url, contentType string, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.budget)
	defer cancel()
	stop := context.AfterFunc(c.base, cancel)
	defer stop()
	for attempt := 0; ; attempt++ {
		if key != "" {
			c.mu.Lock()
			wait := c.reserve(key)
			c.mu.Unlock()
			if wait > 0 {
				if err := sleepCtx(ctx, wait); err != nil {
					return nil, err
				}
				attempt--
				continue
			}
		}
		data, err := c.once(ctx, key, method, url, contentType, body)
		if err == nil || !transient(err) || ctx.Err() != nil {
			if err != nil && attempt > 0 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return data, err
		}
		var re *restError
		wait := c.backoffAfter(attempt)
		if errors.As(err, &re) && re.Status == http.StatusTooManyRequests {
			wait = re.RetryAfter
		}
		if sleepCtx(ctx, wait) != nil {
			return nil, fmt.Errorf("%w (after %d attempts)", err, attempt+1)
		}
	}
}

// backoffAfter is the wait after the given number of failed attempts.
func (c *Channels) backoffAfter(attempts int) time.Duration {
	wait := c.backoff
	for range attempts {
		wait = min(2*wait, c.backoffMax)
	}
	return wait + rand.N(wait/2+1)
}

// sleep waits d unless the bot stops first; it reports whether it slept.
func (c *Channels) sleep(d time.Duration) bool {
	return sleepCtx(c.base, d) == nil
}

// once makes one attempt and learns the bucket's state from the answer.
func (c *Channels) once(ctx context.Context, key, method, url, contentType string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", c.userAgent)
	route, _, _ := strings.Cut(key, "/")
	resp, err := c.client.Do(req)
	if err != nil {
		c.counted(route, "network")
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var re *restError
	switch {
	case resp.StatusCode < 300:
		c.counted(route, "ok")
	case resp.StatusCode == http.StatusTooManyRequests:
		c.counted(route, "rate_limited")
	case resp.StatusCode >= 500:
		c.counted(route, "server_error")
	default:
		c.counted(route, "refused")
	}
	if resp.StatusCode >= 300 {
		re = errorFrom(resp, data)
	}
	if route != "thread" {
		c.learn(key, resp.Header, re)
	}
	if re != nil {
		return data, re
	}
	return data, nil
}

// counted counts one outcome of route, when counting.
func (c *Channels) counted(route, outcome string) {
	if c.count == nil {
		return
	}
	c.count(route, outcome)
}

// bucketKey names the bucket of a route ("post" or "edit" of messages)
// in a channel: Discord keys message buckets by channel. Its route is
// also what the attempts are counted by.
func bucketKey(route, channelID string) string { return route + "/" + channelID }

// reserve takes a call from key's bucket when its headers say one is
// left (or nothing is known yet), returning 0; else it returns how long
// until the bucket refills. c.mu is held.
func (c *Channels) reserve(key string) time.Duration {
	st := c.buckets[key]
	now := time.Now()
	if st == nil || !now.Before(st.reset) {
		return 0
	}
	if st.remaining > 0 {
		st.remaining--
		return 0
	}
	return st.reset.Sub(now)
}

// reservePaced is reserve for a queue of edits: what is left of the
// bucket is spread evenly over what is left of its window, one call every
// (time to reset) / (calls left) after the queue's last, so a message
// edited on every move trails by about that gap (a second under Discord's
// 5 per 5 s), not by a whole window after a burst. The first edit after a
// pause goes at once. c.mu is held.
func (c *Channels) reservePaced(key string, last time.Time) time.Duration {
	st := c.buckets[key]
	now := time.Now()
	if st != nil && st.remaining > 0 && now.Before(st.reset) && !last.IsZero() {
		gap := st.reset.Sub(now) / time.Duration(st.remaining)
		if wait := last.Add(gap).Sub(now); wait > 0 {
			return wait
		}
	}
	return c.reserve(key)
}

// learn records what an answer's rate-limit headers (or a 429's
// retry_after) say of key's bucket.
func (c *Channels) learn(key string, h http.Header, re *restError) {
	now := time.Now()
	rem, errRem := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	after, errAfter := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.buckets[key]
	if st == nil {
		st = &bucketState{}
		c.buckets[key] = st
	}
	if errRem == nil && errAfter == nil {
		st.remaining = rem
		st.reset = now.Add(time.Duration(after * float64(time.Second)))
	}
	if re != nil && re.Status == http.StatusTooManyRequests {
		st.remaining = 0
		if r := now.Add(re.RetryAfter); r.After(st.reset) {
			st.reset = r
		}
	}
	// Forget buckets long refilled, so the map holds live channels only;
	// once it has doubled since the last sweep, so that many live buckets
	// are not all scanned on every answer.
	if len(c.buckets) > max(c.sweepAt, 1024) {
		for k, b := range c.buckets {
			if now.After(b.reset) {
				delete(c.buckets, k)
			}
		}
		c.sweepAt = 2 * len(c.buckets)
	}
}

// keyNonce is the nonce of the message that key names (a daily post: its
// server, channel and day): 17 characters, the same in every round and
// every process, so a post whose first try made the message and lost the
// answer is found again by the next round's try, not made twice.
func keyNonce(kind byte, key string) string {
	sum := sha256.Sum256([]byte(key))
	return string(kind) + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// newNonce is a message nonce: 16 characters (Discord takes up to 25),
// random enough never to meet another within Discord's few minutes.
func newNonce() string {
	var b [12]byte
	crand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
