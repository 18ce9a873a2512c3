package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The REST calls of an interaction (its callback, the edit of @original,
// its deletion, follow-ups) are made here rather than through discordgo's
// helpers, for three reasons:
//
//   - discordgo's rate limiter keeps a bucket per URL for ever, and these
//     URLs hold the interaction's token: one bucket (~400 bytes) per
//     interaction stayed live (bwmarrin/discordgo#1333, still open in
//     v0.29.0). Discord does not put interaction calls under the global
//     limit, so they need no shared bucket: a 429 is honoured here by
//     waiting its retry_after.
//   - a 5xx or a network error is retried with backoff while the
//     interaction lives (3 s for the first answer, 15 min after), instead
//     of losing the reply.
//   - errors never carry the URL, so the token is never logged.

// Lifetimes of an interaction's token, as Discord sets them, less a margin
// for the clocks and the trip.
const (
	firstAnswerWithin = 3*time.Second - 150*time.Millisecond
	tokenLifetime     = 15*time.Minute - 10*time.Second
)

// restError is a refusal by Discord: the status and Discord's code and
// message, without the URL.
type restError struct {
	Status  int
	Code    int
	Message string
	// RetryAfter is a 429's wait.
	RetryAfter time.Duration
}

func (e *restError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("HTTP %d: %s (code %d)", e.Status, e.Message, e.Code)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// transient reports whether err may pass on a retry: a server error or a
// failure to reach Discord (not our own context ending).
func transient(err error) bool {
	var re *restError
	if errors.As(err, &re) {
		return re.Status >= 500 || re.Status == http.StatusTooManyRequests
	}
	return err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// codeAlreadyAcked is Discord's "Interaction has already been acknowledged".
const codeAlreadyAcked = 40060

// replyClient makes one interaction's REST calls.
type replyClient struct {
	client    *http.Client
	userAgent string
	in        *discordgo.Interaction
	arrived   time.Time // by the real clock: Discord's deadlines are real
	// firstBackoff is the first retry's wait; it doubles up to maxBackoff.
	firstBackoff, maxBackoff time.Duration
}

func newReplyClient(s *discordgo.Session, in *discordgo.Interaction, arrived time.Time) *replyClient {
	return &replyClient{client: s.Client, userAgent: s.UserAgent, in: in, arrived: arrived,
		firstBackoff: replyBackoff, maxBackoff: replyBackoffMax}
}

// respond sends the interaction's first answer (its callback). It retries
// until Discord's 3 s are nearly up. A retry told "already acknowledged"
// after an attempt whose fate was unknown (a cut connection, a 5xx) means
// that attempt did arrive: that is success.
func (c *replyClient) respond(ctx context.Context, r *discordgo.InteractionResponse) error {
	ct, body, err := encode(r, filesOf(r.Data))
	if err != nil {
		return err
	}
	url := discordgo.EndpointInteractionResponse(c.in.ID, c.in.Token)
	return c.do(ctx, c.arrived.Add(firstAnswerWithin), http.MethodPost, url, ct, body, true)
}

// editOriginal replaces the first answer's message.
func (c *replyClient) editOriginal(ctx context.Context, e *editBody) error {
	ct, body, err := encode(e, e.Files)
	if err != nil {
		return err
	}
	url := discordgo.EndpointWebhookMessage(c.in.AppID, c.in.Token, "@original")
	return c.do(ctx, c.arrived.Add(tokenLifetime), http.MethodPatch, url, ct, body, false)
}

// deleteOriginal deletes the first answer's message.
func (c *replyClient) deleteOriginal(ctx context.Context) error {
	url := discordgo.EndpointWebhookMessage(c.in.AppID, c.in.Token, "@original")
	return c.do(ctx, c.arrived.Add(tokenLifetime), http.MethodDelete, url, "", nil, false)
}

// followUp posts a follow-up message.
func (c *replyClient) followUp(ctx context.Context, p *discordgo.WebhookParams) error {
	ct, body, err := encode(p, p.Files)
	if err != nil {
		return err
	}
	url := discordgo.EndpointWebhookToken(c.in.AppID, c.in.Token) + "?wait=true"
	return c.do(ctx, c.arrived.Add(tokenLifetime), http.MethodPost, url, ct, body, false)
}

func filesOf(d *discordgo.InteractionResponseData) []*discordgo.File {
	if d == nil {
		return nil
	}
	return d.Files
}

// encode is v as JSON, or as multipart with files (payload_json first).
func encode(v any, files []*discordgo.File) (string, []byte, error) {
	if len(files) > 0 {
		ct, body, err := discordgo.MultipartBodyWithJSON(v, files)
		if err != nil {
			return "", nil, fmt.Errorf("encode the reply with %d files: %w", len(files), err)
		}
		return ct, body, nil
	}
	body, err := json.Marshal(v)
	if err != nil {
		return "", nil, fmt.Errorf("encode the reply: %w", err)
	}
	return "application/json", body, nil
}

// do sends the request until it succeeds, fails for good, or deadline
// would pass before the next try. Waits grow from firstBackoff, doubling,
// with jitter; a 429 waits what it asks.
func (c *replyClient) do(ctx context.Context, deadline time.Time, method, url, contentType string, body []byte, callback bool) error {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	wait := c.firstBackoff
	unsure := false // an earlier attempt may have arrived
	for attempt := 1; ; attempt++ {
		err := c.once(ctx, method, url, contentType, body)
		if err == nil {
			return nil
		}
		var re *restError
		if callback && unsure && errors.As(err, &re) && re.Code == codeAlreadyAcked {
			return nil
		}
		if !transient(err) || ctx.Err() != nil {
			return c.redact(err, attempt)
		}
		unsure = true
		pause := wait + rand.N(wait/2+1)
		if errors.As(err, &re) && re.RetryAfter > 0 {
			pause = re.RetryAfter
		}
		if time.Now().Add(pause).After(deadline) {
			return c.redact(err, attempt)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.redact(err, attempt)
		case <-t.C:
		}
		wait = min(2*wait, c.maxBackoff)
	}
}

// once makes one attempt.
func (c *replyClient) once(ctx context.Context, method, url, contentType string, body []byte) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("User-Agent", c.userAgent)
	// No Authorization: the token in the URL is what Discord checks, and the
	// bot token has no business on these calls.
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 300 {
		return nil
	}
	return errorFrom(resp, data)
}

// errorFrom reads Discord's refusal: its status, code, message and, for
// a 429, the wait it asks for.
func errorFrom(resp *http.Response, data []byte) *restError {
	re := &restError{Status: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	var v struct {
		Code       int     `json:"code"`
		Message    string  `json:"message"`
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(data, &v) == nil {
		re.Code = v.Code
		if v.Message != "" {
			re.Message = v.Message
		}
		if v.RetryAfter > 0 {
			re.RetryAfter = time.Duration(v.RetryAfter * float64(time.Second))
		}
	}
	if re.RetryAfter == 0 && resp.StatusCode == http.StatusTooManyRequests {
		if s, err := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64); err == nil {
			re.RetryAfter = time.Duration(s * float64(time.Second))
		}
	}
	if re.Status == http.StatusBadRequest && len(data) > 0 {
		// Discord says which field broke which rule: keep it for the log.
		re.Message += " " + string(bytes.TrimSpace(data))
	}
	return re
}

// redact removes the interaction's token from err (a network error
// quotes the whole URL) and says how many attempts were made.
func (c *replyClient) redact(err error, attempts int) error {
	msg := err.Error()
	if c.in.Token != "" {
		msg = strings.ReplaceAll(msg, c.in.Token, "<token>")
	}
	if attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", attempts)
	}
	var re *restError
	if errors.As(err, &re) {
		return &redacted{msg: msg, err: re}
	}
	return &redacted{msg: msg}
}

// redacted is an error whose text is safe to log; it still unwraps to a
// restError for callers that look at Discord's code.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
