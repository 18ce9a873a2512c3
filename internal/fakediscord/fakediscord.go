// Package fakediscord is an in-process stand-in for Discord, for tests: the
// REST API on an httptest server and the gateway on a loopback websocket. A
// real, unmodified discordgo session connects to it when its REST calls are
// sent to URL() instead of https://discord.com (the bot's DISCORD_API_BASE).
//
// The fake records every REST call, lets a test inject gateway events
// (INTERACTION_CREATE, MESSAGE_CREATE, raw frames), drop the gateway
// connection, and wait for the calls it expects. It refuses what Discord
// refuses, with Discord's error bodies (validate.go): messages over
// Discord's limits or with repeated custom ids, empty messages, bad modals
// and command definitions, a second answer to an interaction, an answer
// after the 3 s deadline, edits after the token's 15 minutes, bad
// authorization, Components V2 messages that break its rules
// (components_v2.go). It keeps channels, threads made from messages, the
// bot's permissions in them and messages' nonces (channels.go), and
// limits message creates and edits per channel with Discord's headers and
// 429s (ratelimit.go). Refused lists what a bot got refused, so tests can run
// strict. For the Activity (activity.go): the OAuth2 token endpoint,
// users/@me with a user's token, activity instances, the LAUNCH_ACTIVITY
// callback and the entry-point command, with Discord's refusals. Inject adds failures Discord and networks produce (faults.go): 429
// with its headers, 5xx, cut connections.
package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// User is a Discord user as the fake describes it.
type User struct {
	ID            string `json:"id"`
	Username      string `json:"username"`
	Discriminator string `json:"discriminator"`
	Bot           bool   `json:"bot,omitempty"`
	// GlobalName is the display name users/@me gives with a user's own
	// (OAuth) token.
	GlobalName string `json:"global_name,omitempty"`
}

// Options configure a fake. Zero values get usable defaults.
type Options struct {
	// Token is the bot token the fake accepts (without "Bot "); empty
	// accepts any.
	Token string
	// AppID is the application id sent in READY (default "100").
	AppID string
	// BotUser is the bot's own user (default id AppID, "sudokubot#1234").
	BotUser User
	// Guilds are the guild ids listed in READY.
	Guilds []string
	// HeartbeatInterval is sent in Hello (default 41.25 s, as Discord).
	HeartbeatInterval time.Duration
	// InteractionDeadline is how long after an interaction is injected its
	// first callback is accepted (default 3 s, as Discord).
	InteractionDeadline time.Duration
	// TokenLifetime is how long after an interaction is injected its token
	// accepts edits and follow-ups (default 15 min, as Discord).
	TokenLifetime time.Duration
	// OnCall, when set, is called with every REST call after it is
	// recorded, outside the fake's lock: load tests use it instead of
	// WaitCall, which rescans all calls on every change.
	OnCall func(Call)
	// ExpectRefusals is for tests that provoke refusals on purpose (the
	// fake's own). Otherwise the fake fails the test, when it ends, for
	// every call Discord would have refused (see Refused): every test that
	// uses the fake runs strict.
	ExpectRefusals bool
	// ClientSecret is the application's OAuth2 client secret (its client
	// id is AppID); empty refuses every token exchange.
	ClientSecret string
	// Activities makes the app an embedded one (Activities enabled in the
	// Developer Portal): Discord then keeps an entry-point command of its
	// own ("launch", type 4, handler 2) among the global commands, refuses
	// a global bulk overwrite that leaves it out (50240), and accepts the
	// LAUNCH_ACTIVITY callback (type 12). See activity.go.
	Activities bool
	// Forget keeps no record of REST calls (Calls, WaitCall and Refused
	// see none; OnCall still sees each): for load tests that measure
	// memory (see ForgetInteractions).
	Forget bool
	// MessageRate and EditRate are the per-channel buckets of message
	// creates and of message edits (ratelimit.go); zero values are
	// Discord's 5 per 5 s, a negative Limit switches one off.
	MessageRate, EditRate RateLimit
	// NonceWindow is how long a message's nonce, sent with enforce_nonce,
	// keeps returning that message (default DefaultNonceWindow).
	NonceWindow time.Duration
}

// File is one uploaded file of a multipart request.
type File struct {
	Field       string // form field, e.g. "files[0]"
	Name        string
	ContentType string
	Data        []byte
}

// Call is one REST request the fake received.
type Call struct {
	Seq         int
	At          time.Time
	Method      string
	Path        string // e.g. /api/v9/interactions/5/tok/callback
	Query       url.Values
	Auth        string // the Authorization header
	ContentType string
	// Body is the JSON body, or the payload_json part of a multipart one.
	Body  []byte
	Files []File
	// Status is the HTTP status the fake answered with.
	Status int
	// Interaction is the id of the interaction a callback or webhook call
	// belongs to ("" for other calls).
	Interaction string
	// Late is set on a first callback that came after the deadline.
	Late bool
	// Since is the time from the interaction's injection to this call (for
	// interaction calls).
	Since time.Duration
	// Reply is the body the fake answered with (a refusal says why).
	Reply []byte
	// Fault is set when the call met an injected fault (Status is then
	// the fault's, 0 for a cut connection).
	Fault bool
	// HTTP is set on a first answer that came as the HTTP response to an
	// interaction delivered to the bot's endpoint (see InteractHTTP).
	HTTP bool
	// Limited is set on a call a per-channel rate limit answered with
	// 429 (ratelimit.go).
	Limited bool
	// Untrusted is set on a refusal of input the bot passed on from a
	// client (a forged or replayed OAuth code): not the bot's fault, so
	// Refused leaves it out.
	Untrusted bool
}

// Decode unmarshals the call's JSON body into v.
func (c Call) Decode(v any) error {
	if len(c.Body) == 0 {
		return errors.New("empty body")
	}
	return json.Unmarshal(c.Body, v)
}

// IsCallback reports whether c answers an interaction (POST .../callback).
func (c Call) IsCallback() bool {
	return c.Method == http.MethodPost && strings.HasPrefix(c.Path, "/api/v9/interactions/") && strings.HasSuffix(c.Path, "/callback")
}

// CallbackType is the "type" of an interaction callback, or 0.
func (c Call) CallbackType() int {
	if !c.IsCallback() {
		return 0
	}
	var v struct {
		Type int `json:"type"`
	}
	if c.Decode(&v) != nil {
		return 0
	}
	return v.Type
}

// IsOriginalEdit reports whether c edits an interaction's first reply.
func (c Call) IsOriginalEdit() bool {
	return c.Method == http.MethodPatch && strings.HasPrefix(c.Path, "/api/v9/webhooks/") && strings.HasSuffix(c.Path, "/messages/@original")
}

// IsFollowUp reports whether c posts a follow-up message.
func (c Call) IsFollowUp() bool {
	return c.Method == http.MethodPost && strings.HasPrefix(c.Path, "/api/v9/webhooks/") && strings.Count(c.Path, "/") == 5
}

// IsChannelMessage reports whether c posts a message in a channel.
func (c Call) IsChannelMessage() bool {
	return c.Method == http.MethodPost && strings.HasPrefix(c.Path, "/api/v9/channels/") && strings.HasSuffix(c.Path, "/messages")
}

// IsChannelEdit reports whether c edits a message in a channel.
func (c Call) IsChannelEdit() bool {
	return c.Method == http.MethodPatch && strings.HasPrefix(c.Path, "/api/v9/channels/") && strings.Count(c.Path, "/") == 6 &&
		strings.Contains(c.Path, "/messages/")
}

// Message is the message a call sends (callback data, edit, follow-up or
// channel message), decoded loosely, and whether the call sends one.
func (c Call) Message() (map[string]any, bool) {
	var body map[string]any
	if c.Decode(&body) != nil {
		return nil, false
	}
	switch {
	case c.IsCallback():
		switch c.CallbackType() {
		case 4, 7:
			d, ok := body["data"].(map[string]any)
			return d, ok
		}
		return nil, false
	case c.IsOriginalEdit(), c.IsFollowUp(), c.IsChannelMessage(), c.IsChannelEdit():
		return body, true
	}
	return nil, false
}

// Content is the content of the message c sends ("" when none).
func (c Call) Content() string {
	m, _ := c.Message()
	s, _ := m["content"].(string)
	return s
}

// Ephemeral reports whether the message c sends has flag 64.
func (c Call) Ephemeral() bool {
	m, _ := c.Message()
	f, _ := m["flags"].(float64)
	return int(f)&64 != 0
}

// Server is a running fake Discord.
type Server struct {
	opts Options
	http *httptest.Server

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever something is recorded
	calls   []Call
	seqs    int // calls numbered so far
	nextID  int64

	// gateway state
	conn       *gwConn
	conns      map[*gwConn]bool
	sessionID  string
	seq        int64
	sent       sentLog // the session's dispatches, replayed on resume
	identifies int
	resumes    int
	heartbeats int
	identify   map[string]any

	faults       []*fault
	interactions map[string]*interaction // by token
	messages     map[string]map[string]map[string]any
	attachments  map[string][]byte // by path
	redirects    map[string]string // attachment path → where it redirects
	registered   map[string][]map[string]any
	codes        map[string]oauthGrant // OAuth codes not yet exchanged
	tokens       map[string]oauthGrant // OAuth access tokens
	instances    map[string]activityInstance

	// channels and threads (channels.go), rate limits (ratelimit.go)
	channels  map[string]*ChannelInfo
	denied    map[string]int64 // permissions taken from the bot, by guild, channel or thread
	nonces    map[nonceKey]nonceSeen
	buckets   map[string]*bucket
	limited   int
	limitedBy map[string]int

	out    *outgoing // HTTP delivery of interactions (outgoing.go)
	shards shardState
}

type interaction struct {
	id, token string
	injected  time.Time
	kind      int  // the interaction's type (Autocomplete, …); 0 when injected raw
	acked     int  // callback type, 0 before the first
	lost      bool // the accepted callback's answer was lost (an Applied fault)
	original  map[string]any
	choices   any    // an autocomplete result's choices
	channel   string // where it was used: a public answer is a message there
	msgFlags  any    // the flags of the message a component is on
}

// New starts a fake Discord; it is closed when the test ends.
func New(tb testing.TB, opts Options) *Server {
	tb.Helper()
	if opts.AppID == "" {
		opts.AppID = "100"
	}
	if opts.BotUser.ID == "" {
		opts.BotUser = User{ID: opts.AppID, Username: "sudokubot", Discriminator: "1234", Bot: true}
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = 41250 * time.Millisecond
	}
	if opts.InteractionDeadline <= 0 {
		opts.InteractionDeadline = 3 * time.Second
	}
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = 15 * time.Minute
	}
	if opts.MessageRate == (RateLimit{}) {
		opts.MessageRate = DefaultChannelRate
	}
	if opts.EditRate == (RateLimit{}) {
		opts.EditRate = DefaultChannelRate
	}
	if opts.NonceWindow <= 0 {
		opts.NonceWindow = DefaultNonceWindow
	}
	s := &Server{
		opts:         opts,
		changed:      make(chan struct{}),
		nextID:       1000,
		conns:        map[*gwConn]bool{},
		interactions: map[string]*interaction{},
		messages:     map[string]map[string]map[string]any{},
		attachments:  map[string][]byte{},
		redirects:    map[string]string{},
		registered:   map[string][]map[string]any{},
		codes:        map[string]oauthGrant{},
		tokens:       map[string]oauthGrant{},
		instances:    map[string]activityInstance{},
		channels:     map[string]*ChannelInfo{},
		denied:       map[string]int64{},
		nonces:       map[nonceKey]nonceSeen{},
		buckets:      map[string]*bucket{},
		limitedBy:    map[string]int{},
	}
	if opts.Activities {
		// Discord's own entry point, made when Activities are switched on.
		s.registered[""] = []map[string]any{{"id": s.id(), "application_id": opts.AppID, "version": "1",
			"type": float64(EntryPointCommand), "name": "launch", "description": "Launch an activity",
			"handler": float64(EntryPointLaunchHandler), "integration_types": []any{0.0, 1.0}, "contexts": []any{0.0, 1.0, 2.0}}}
	}
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	tb.Cleanup(func() {
		s.Close()
		if !opts.ExpectRefusals {
			s.failRefused(tb)
		}
	})
	return s
}

// URL is the fake's origin, for DISCORD_API_BASE.
func (s *Server) URL() string { return s.http.URL }

// AppID is the application id the fake announces.
func (s *Server) AppID() string { return s.opts.AppID }

// BotUser is the bot's own user.
func (s *Server) BotUser() User { return s.opts.BotUser }

// Close drops every gateway connection and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
	s.http.Close()
}

// id returns a fresh snowflake-like id. s.mu is held.
func (s *Server) id() string {
	s.nextID++
	return strconv.FormatInt(s.nextID, 10)
}

// notify wakes waiters. s.mu is held.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Calls returns a copy of every REST call so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Refused returns the calls Discord would have refused for the bot's own
// fault: a body that breaks its rules, an empty message, a second answer to
// an interaction (all 400), and answers that came too late (Late). Calls
// that met an injected fault are not counted. A test that ends with none
// has run strict.
func (s *Server) Refused() []Call {
	var out []Call
	for _, c := range s.Calls() {
		if !c.Fault && !c.Untrusted && (c.Status == http.StatusBadRequest || c.Late) {
			out = append(out, c)
		}
	}
	return out
}

// failRefused fails tb for each call Discord would have refused.
func (s *Server) failRefused(tb testing.TB) {
	tb.Helper()
	for _, c := range s.Refused() {
		if c.Late {
			tb.Errorf("fakediscord: call %d %s %s came %s after the interaction, past Discord's deadline", c.Seq, c.Method, c.Path, c.Since)
			continue
		}
		tb.Errorf("fakediscord: Discord would refuse call %d %s %s: %s\nbody: %.2000s", c.Seq, c.Method, c.Path, c.Reply, c.Body)
	}
}

// CallsFor returns the calls that belong to the interaction id.
func (s *Server) CallsFor(interactionID string) []Call {
	var out []Call
	for _, c := range s.Calls() {
		if c.Interaction == interactionID {
			out = append(out, c)
		}
	}
	return out
}

// WaitFor waits until cond, evaluated under the fake's lock after every
// change, holds, or timeout passes; it reports which. It never sleeps: it
// wakes on each recorded call or gateway event.
func (s *Server) WaitFor(timeout time.Duration, cond func(calls []Call) bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := cond(s.calls)
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// WaitCall waits for a call matching match (one already made counts) and
// returns the first.
func (s *Server) WaitCall(timeout time.Duration, match func(Call) bool) (Call, error) {
	var found Call
	ok := s.WaitFor(timeout, func(calls []Call) bool {
		for _, c := range calls {
			if match(c) {
				found = c
				return true
			}
		}
		return false
	})
	if !ok {
		return Call{}, fmt.Errorf("no matching call within %s (%d calls so far)", timeout, len(s.Calls()))
	}
	return found, nil
}

// WaitCalls waits for n calls matching match and returns them.
func (s *Server) WaitCalls(timeout time.Duration, n int, match func(Call) bool) ([]Call, error) {
	var found []Call
	ok := s.WaitFor(timeout, func(calls []Call) bool {
		found = found[:0]
		for _, c := range calls {
			if match(c) {
				found = append(found, c)
			}
		}
		return len(found) >= n
	})
	if !ok {
		return found, fmt.Errorf("%d matching calls within %s, want %d", len(found), timeout, n)
	}
	return found, nil
}

// Registered returns the commands last registered globally (guild "") or
// in a guild.
func (s *Server) Registered(guildID string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.registered[guildID]
}

// AddMessage stores a message the bot may fetch with GET
// /channels/{channel}/messages/{id}. msg needs at least "id"; "channel_id"
// is set.
func (s *Server) AddMessage(channelID string, msg map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg["channel_id"] = channelID
	if s.messages[channelID] == nil {
		s.messages[channelID] = map[string]map[string]any{}
	}
	id, _ := msg["id"].(string)
	s.messages[channelID][id] = msg
}

// AddAttachment serves data as a file and returns the attachment object
// (id, filename, size, url, content_type) to put in a message.
func (s *Server) AddAttachment(name, contentType string, data []byte) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.id()
	path := "/attachments/" + id + "/" + name
	s.attachments[path] = data
	return map[string]any{
		"id": id, "filename": name, "size": len(data), "url": s.http.URL + path,
		"proxy_url": s.http.URL + path, "content_type": contentType,
	}
}

// AddRedirect returns an attachment object (as AddAttachment) whose URL
// answers 302 Found with Location: to, which may be any URL: another host
// included, as a hostile CDN entry or a tampered link would.
func (s *Server) AddRedirect(name, to string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.id()
	path := "/attachments/" + id + "/" + name
	s.redirects[path] = to
	return map[string]any{
		"id": id, "filename": name, "size": 10, "url": s.http.URL + path,
		"proxy_url": s.http.URL + path, "content_type": "text/plain",
	}
}

// Original is the message an interaction's answer shows, as stored by the fake (the "original"
// of an interaction after callbacks and edits).
func (s *Server) Original(interactionID string) (map[string]any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.interactions {
		if in.id == interactionID {
			return in.original, in.original != nil
		}
	}
	return nil, false
}

// --- REST ---------------------------------------------------------------

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/gw") {
		s.serveGateway(w, r)
		return
	}
	c := Call{
		At: time.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
		Auth: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type"),
	}
	if err := readBody(r, &c); err != nil {
		s.record(&c, http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, 50109, "The request body contains invalid JSON: "+err.Error())
		return
	}
	f := s.takeFault(c)
	if f != nil && !f.Applied {
		c.Fault = true
		s.finish(&c, writeFault(w, f))
		return
	}
	if limited, after := s.rateLimit(&c, w.Header()); limited {
		c.Limited = true
		c.Reply = writeLimited(w, after)
		s.finish(&c, http.StatusTooManyRequests)
		return
	}
	status, body := s.route(&c)
	if f != nil {
		if c.IsCallback() && status < 300 {
			s.lostAnswer(c.Path)
		}
		c.Fault = true
		s.finish(&c, writeFault(w, f))
		return
	}
	switch b := body.(type) {
	case nil:
		w.WriteHeader(status)
	case rawBytes:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(status)
		w.Write(b)
	case redirect:
		http.Redirect(w, r, string(b), status)
	default:
		c.Reply = must(b)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(c.Reply)
	}
	s.finish(&c, status)
}

// lostAnswer notes that the callback at path was accepted but its answer
// was lost.
func (s *Server) lostAnswer(path string) {
	parts := strings.Split(path, "/") // "", api, v9, interactions, id, token, callback
	if len(parts) != 7 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.interactions[parts[5]]; in != nil {
		in.lost = true
	}
}

// finish records c and tells OnCall.
func (s *Server) finish(c *Call, status int) {
	s.record(c, status)
	if s.opts.OnCall != nil {
		s.opts.OnCall(*c)
	}
}

// record stores c with its status.
func (s *Server) record(c *Call, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.Status = status
	s.seqs++
	c.Seq = s.seqs
	if !s.opts.Forget {
		s.calls = append(s.calls, *c)
	}
	s.notify()
}

// readBody fills c.Body and c.Files from a JSON or multipart body.
func readBody(r *http.Request, c *Call) error {
	mt, params, _ := mime.ParseMediaType(c.ContentType)
	if mt == "application/x-www-form-urlencoded" {
		b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		c.Body = b
		return err
	}
	if mt != "multipart/form-data" {
		b, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
		if err != nil {
			return err
		}
		c.Body = b
		if len(b) > 0 && !json.Valid(b) {
			return errors.New("not JSON")
		}
		return nil
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := io.ReadAll(io.LimitReader(p, 32<<20))
		if err != nil {
			return err
		}
		if p.FormName() == "payload_json" {
			if !json.Valid(data) {
				return errors.New("payload_json is not JSON")
			}
			c.Body = data
			continue
		}
		c.Files = append(c.Files, File{Field: p.FormName(), Name: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
	}
}

func writeError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"message": msg, "code": code})
}

type apiError struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
}

// errEmpty is Discord's answer to a message with nothing to show.
var errEmpty = apiError{"Cannot send an empty message", 50006}

// invalid is the 400 answer to a body that breaks Discord's rules.
func invalid(e *formErrors) (int, any) {
	return http.StatusBadRequest, e.body()
}

// route answers one REST call: a status and a JSON body (nil for none).
func (s *Server) route(c *Call) (int, any) {
	if strings.HasPrefix(c.Path, "/attachments/") {
		return s.serveAttachment(c)
	}
	p, ok := strings.CutPrefix(c.Path, "/api/v9/")
	if !ok {
		// v10 too, for what the Activity's backend calls (OAuth, users/@me).
		if p, ok = strings.CutPrefix(c.Path, "/api/v10/"); !ok {
			return http.StatusNotFound, apiError{"404: Not Found", 0}
		}
	}
	parts := strings.Split(p, "/")
	// The OAuth2 token endpoint authenticates the client itself, users/@me
	// takes a user's bearer token too.
	switch {
	case c.Method == "POST" && p == "oauth2/token":
		return s.token(c)
	case c.Method == "GET" && p == "users/@me" && strings.HasPrefix(c.Auth, "Bearer "):
		return s.bearerMe(c)
	}
	// Interaction callbacks and webhooks are authorized by their token,
	// everything else by the bot token.
	if parts[0] != "interactions" && parts[0] != "webhooks" {
		if !s.authorized(c.Auth) {
			return http.StatusUnauthorized, apiError{"401: Unauthorized", 0}
		}
	}
	switch {
	case c.Method == "GET" && p == "gateway":
		return 200, map[string]any{"url": s.wsURL()}
	case c.Method == "GET" && p == "gateway/bot":
		return 200, s.gatewayBot()
	case c.Method == "GET" && p == "users/@me":
		return 200, s.opts.BotUser
	case c.Method == "GET" && len(parts) == 4 && parts[0] == "applications" && parts[2] == "activity-instances":
		return s.activityInstance(parts[1], parts[3])
	case c.Method == "GET" && len(parts) == 3 && parts[0] == "applications" && parts[2] == "commands":
		if parts[1] != s.opts.AppID {
			return http.StatusNotFound, apiError{"Unknown Application", 10002}
		}
		return 200, s.Registered("")
	case c.Method == "PUT" && len(parts) == 3 && parts[0] == "applications" && parts[2] == "commands":
		return s.registerCommands(c, parts[1], "")
	case c.Method == "PUT" && len(parts) == 5 && parts[0] == "applications" && parts[2] == "guilds" && parts[4] == "commands":
		return s.registerCommands(c, parts[1], parts[3])
	case c.Method == "POST" && len(parts) == 4 && parts[0] == "interactions" && parts[3] == "callback":
		return s.callback(c, parts[1], parts[2])
	case parts[0] == "webhooks" && len(parts) >= 3:
		return s.webhook(c, parts[1], parts[2], parts[3:])
	case len(parts) == 3 && parts[0] == "channels" && parts[2] == "messages" && c.Method == "POST":
		return s.channelMessage(c, parts[1])
	case len(parts) == 4 && parts[0] == "channels" && parts[2] == "messages" && c.Method == "PATCH":
		return s.editChannelMessage(c, parts[1], parts[3])
	case len(parts) == 5 && parts[0] == "channels" && parts[2] == "messages" && parts[4] == "threads" && c.Method == "POST":
		return s.startThread(c, parts[1], parts[3])
	case len(parts) == 2 && parts[0] == "channels" && c.Method == "GET":
		return s.getChannel(parts[1])
	case len(parts) == 4 && parts[0] == "channels" && parts[2] == "messages" && c.Method == "GET":
		s.mu.Lock()
		defer s.mu.Unlock()
		m := s.messages[parts[1]][parts[3]]
		if m == nil {
			return http.StatusNotFound, apiError{"Unknown Message", 10008}
		}
		return 200, maps.Clone(m)
	}
	return http.StatusNotFound, apiError{"404: Not Found", 0}
}

func (s *Server) authorized(auth string) bool {
	if s.opts.Token == "" {
		return strings.HasPrefix(auth, "Bot ")
	}
	return auth == "Bot "+s.opts.Token
}

func (s *Server) serveAttachment(c *Call) (int, any) {
	s.mu.Lock()
	data, ok := s.attachments[c.Path]
	to, moved := s.redirects[c.Path]
	s.mu.Unlock()
	if moved {
		return http.StatusFound, redirect(to)
	}
	if !ok {
		return http.StatusNotFound, apiError{"404: Not Found", 0}
	}
	return 200, rawBytes(data)
}

// rawBytes is a body served as it is (an attachment), not as JSON.
type rawBytes []byte

// redirect is an answer that sends the client elsewhere (Location).
type redirect string

func (s *Server) registerCommands(c *Call, app, guild string) (int, any) {
	if app != s.opts.AppID {
		return http.StatusNotFound, apiError{"Unknown Application", 10002}
	}
	var cmds []map[string]any
	if err := c.Decode(&cmds); err != nil {
		return http.StatusBadRequest, apiError{"Invalid Form Body: " + err.Error(), 50035}
	}
	var e formErrors
	checkCommands(&e, cmds)
	checkEntryPoints(&e, cmds, s.opts.Activities, guild)
	if !e.ok() {
		return invalid(&e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if guild == "" && hasEntryPoint(s.registered[""]) && !hasEntryPoint(cmds) {
		return http.StatusBadRequest, errEntryPointDropped
	}
	for _, cmd := range cmds {
		cmd["id"] = s.id()
		cmd["application_id"] = app
		if guild != "" {
			cmd["guild_id"] = guild
		}
		cmd["version"] = "1"
	}
	s.registered[guild] = cmds
	return 200, cmds
}

func (s *Server) callback(c *Call, id, token string) (int, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.interactions[token]
	if in == nil || in.id != id {
		return http.StatusNotFound, apiError{"Unknown interaction", 10062}
	}
	c.Interaction = in.id
	c.Since = c.At.Sub(in.injected)
	if in.acked != 0 {
		// A retry of an answer whose reply an injected fault cut off is
		// what a client should do, not its fault.
		c.Fault = in.lost
		return http.StatusBadRequest, apiError{"Interaction has already been acknowledged.", 40060}
	}
	if c.Since > s.opts.InteractionDeadline {
		c.Late = true
		return http.StatusNotFound, apiError{"Unknown interaction", 10062}
	}
	var body struct {
		Type int            `json:"type"`
		Data map[string]any `json:"data"`
	}
	var raw map[string]json.RawMessage
	c.Decode(&raw)
	if err := c.Decode(&body); err != nil || body.Type == 0 {
		var e formErrors
		e.add("type", "BASE_TYPE_REQUIRED", "This field is required")
		return invalid(&e)
	}
	var e formErrors
	// An autocomplete interaction takes only an autocomplete result, and
	// only it does.
	if body.Type == 12 {
		d, hasData := raw["data"]
		s.checkLaunch(&e, in, hasData && string(d) != "null")
		if !e.ok() {
			return invalid(&e)
		}
	} else if (in.kind == Autocomplete) != (body.Type == 8) && (in.kind != 0 || body.Type == 8) {
		e.add("type", "INTERACTION_CALLBACK_TYPE_INVALID", "Callback type %d does not answer an interaction of type %d.", body.Type, in.kind)
		return invalid(&e)
	}
	switch body.Type {
	case 8:
		if body.Data == nil {
			e.add("data", "BASE_TYPE_REQUIRED", "This field is required")
			return invalid(&e)
		}
		checkAutocomplete(&e, body.Data)
		if !e.ok() {
			return invalid(&e)
		}
		in.choices = body.Data["choices"]
	case 4, 7:
		if body.Data == nil {
			e.add("data", "BASE_TYPE_REQUIRED", "This field is required")
			return invalid(&e)
		}
		v2 := isV2(body.Data["flags"])
		if body.Type == 7 && isV2(in.msgFlags) {
			// An update edits the component's message: its V2 flag stays.
			if flags, ok := body.Data["flags"]; ok && !isV2(flags) {
				e.add("data.flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message that has it.")
			}
			v2 = true
		}
		checkMessage(&e, "data", body.Data, msgCtx{files: fileNames(c.Files), v2: v2})
		if !e.ok() {
			return invalid(&e)
		}
		if body.Type == 4 && emptyMessage(body.Data, len(c.Files)) {
			return http.StatusBadRequest, errEmpty
		}
		in.original = s.messageFrom(body.Data, "", c.Files)
	case 5:
		flags, _ := number(body.Data["flags"])
		in.original = s.messageFrom(map[string]any{"content": "", "flags": float64(128 | flags&64)}, "", nil) // "thinking…"
	case 6:
		// The component's message, to be edited: it keeps its V2 flag.
		flags, _ := number(in.msgFlags)
		in.original = s.messageFrom(map[string]any{"content": "", "flags": float64(flags & flagComponentsV2)}, "", nil)
	case 9:
		checkModal(&e, body.Data)
		if !e.ok() {
			return invalid(&e)
		}
	case 12:
		// Discord opens the Activity: no message to show or edit.
	default:
		e.add("type", "BASE_TYPE_CHOICES", "Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.")
		return invalid(&e)
	}
	if f, _ := number(in.original["flags"]); (body.Type == 4 || body.Type == 5) && f&64 == 0 && in.channel != "" && !s.opts.Forget {
		// A public answer is a message of its channel like any other: a
		// thread can be made from it, and it can be fetched; edits of
		// @original show there (the same map). A fake that forgets keeps
		// no messages (memory tests).
		in.original["channel_id"] = in.channel
		if s.messages[in.channel] == nil {
			s.messages[in.channel] = map[string]map[string]any{}
		}
		s.messages[in.channel][in.original["id"].(string)] = in.original
	}
	in.acked = body.Type
	return http.StatusNoContent, nil
}

func (s *Server) webhook(c *Call, app, token string, rest []string) (int, any) {
	s.settleHTTP(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.interactions[token]
	if in == nil || app != s.opts.AppID {
		return http.StatusNotFound, apiError{"Unknown Webhook", 10015}
	}
	c.Interaction = in.id
	c.Since = c.At.Sub(in.injected)
	if in.acked == 0 || in.acked == 8 || in.acked == 12 {
		// An autocomplete result or a launched Activity ends the
		// interaction: no message to edit.
		return http.StatusNotFound, apiError{"Unknown Webhook (interaction not acknowledged)", 10015}
	}
	if c.Since > s.opts.TokenLifetime {
		c.Late = true
		return http.StatusUnauthorized, apiError{"Invalid Webhook Token", 50027}
	}
	original := len(rest) == 2 && rest[0] == "messages" && rest[1] == "@original"
	switch {
	case c.Method == "POST" && len(rest) == 0:
		var body map[string]any
		if err := c.Decode(&body); err != nil {
			return http.StatusBadRequest, apiError{"Invalid Form Body", 50035}
		}
		var e formErrors
		if checkMessage(&e, "", body, msgCtx{files: fileNames(c.Files), v2: isV2(body["flags"])}); !e.ok() {
			return invalid(&e)
		}
		if emptyMessage(body, len(c.Files)) {
			return http.StatusBadRequest, errEmpty
		}
		m := s.messageFrom(body, "", c.Files)
		if c.Query.Get("wait") == "true" {
			return 200, m
		}
		return http.StatusNoContent, nil
	case original && c.Method == "PATCH":
		if in.original == nil {
			return http.StatusNotFound, apiError{"Unknown Message", 10008}
		}
		var body map[string]any
		if err := c.Decode(&body); err != nil {
			return http.StatusBadRequest, apiError{"Invalid Form Body", 50035}
		}
		var e formErrors
		wasV2 := isV2(in.original["flags"])
		if flags, ok := body["flags"]; ok && wasV2 && !isV2(flags) {
			e.add("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message that has it.")
		}
		after := map[string]any{}
		for k, v := range in.original {
			after[k] = v
		}
		for k, v := range body {
			after[k] = v
		}
		v2 := wasV2 || isV2(body["flags"])
		names := append(fileNames(c.Files), attachmentNames(in.original, body)...)
		if checkMessage(&e, "", body, msgCtx{files: names, v2: v2, after: after}); !e.ok() {
			return invalid(&e)
		}
		if emptyMessage(after, len(c.Files)) {
			return http.StatusBadRequest, errEmpty
		}
		for k, v := range body {
			in.original[k] = v
		}
		if len(c.Files) > 0 {
			in.original["attachments"] = s.attachmentsFor(c.Files)
		}
		// The edit ends "thinking…" and any other flag but the layout's.
		delete(in.original, "flags")
		if v2 {
			in.original["flags"] = float64(flagComponentsV2)
		}
		return 200, in.original
	case original && c.Method == "GET":
		if in.original == nil {
			return http.StatusNotFound, apiError{"Unknown Message", 10008}
		}
		return 200, in.original
	case original && c.Method == "DELETE":
		if in.original == nil {
			return http.StatusNotFound, apiError{"Unknown Message", 10008}
		}
		if id, _ := in.original["id"].(string); in.channel != "" {
			delete(s.messages[in.channel], id) // gone from its channel too
		}
		in.original = nil
		return http.StatusNoContent, nil
	}
	return http.StatusNotFound, apiError{"404: Not Found", 0}
}

// messageFrom builds the message object Discord would return for a sent
// payload. s.mu is held.
func (s *Server) messageFrom(payload map[string]any, channel string, files []File) map[string]any {
	m := map[string]any{
		"id": s.id(), "channel_id": channel, "author": s.opts.BotUser,
		"content": "", "embeds": []any{}, "components": []any{}, "attachments": []any{},
		"timestamp": time.Now().UTC().Format(time.RFC3339),
	}
	for _, k := range []string{"content", "embeds", "components", "flags"} {
		if v, ok := payload[k]; ok && v != nil {
			m[k] = v
		}
	}
	if len(files) > 0 {
		m["attachments"] = s.attachmentsFor(files)
	}
	return m
}

// attachmentsFor serves uploaded files back as attachments. s.mu is held.
func (s *Server) attachmentsFor(files []File) []any {
	var out []any
	for _, f := range files {
		id := s.id()
		path := "/attachments/" + id + "/" + f.Name
		s.attachments[path] = f.Data
		out = append(out, map[string]any{"id": id, "filename": f.Name, "size": len(f.Data),
			"url": s.http.URL + path, "proxy_url": s.http.URL + path, "content_type": f.ContentType})
	}
	return out
}

func (s *Server) wsURL() string {
	return "ws" + strings.TrimPrefix(s.http.URL, "http") + "/gw"
}

// must is json.Marshal for values known to marshal.
func must(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
