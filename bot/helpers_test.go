package bot

import (
	"bytes"
	"context"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// testToken is the token of every test bot; tests check it never shows up
// in logs.
const testToken = "test-token-SECRET"

// waitLong bounds every wait in these tests; it is generous for -race on a
// busy machine, and only reached when something is broken.
const waitLong = 10 * time.Second

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// scriptHandler is a Handler whose behaviour each test scripts.
type scriptHandler struct {
	specs  []commands.CommandSpec
	handle func(ctx context.Context, req commands.Request) commands.Response
	plan   func(req commands.Request) commands.Plan

	mu    sync.Mutex
	reqs  []commands.Request // handled
	plans []string           // ids of the requests planned
}

func (h *scriptHandler) Specs() []commands.CommandSpec { return h.specs }

func (h *scriptHandler) Handle(ctx context.Context, req commands.Request) commands.Response {
	h.mu.Lock()
	h.reqs = append(h.reqs, req)
	h.mu.Unlock()
	if h.handle == nil {
		return commands.Response{Content: "ok " + req.Command + req.CustomID}
	}
	return h.handle(ctx, req)
}

func (h *scriptHandler) Plan(ctx context.Context, req commands.Request) commands.Plan {
	h.mu.Lock()
	h.plans = append(h.plans, req.ID)
	h.mu.Unlock()
	if h.plan == nil {
		return commands.Plan{}
	}
	return h.plan(req)
}

// heavy is a plan: every request is heavy.
func heavy(commands.Request) commands.Plan { return commands.Plan{Heavy: true} }

// planned reports whether the request id was planned.
func (h *scriptHandler) planned(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.plans {
		if p == id {
			return true
		}
	}
	return false
}

// requests returns the requests handled so far.
func (h *scriptHandler) requests() []commands.Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]commands.Request(nil), h.reqs...)
}

// testSpecs is a small command set in the shape commands.Service registers.
var testSpecs = []commands.CommandSpec{
	{Type: commands.ChatInput, Name: "solve", Description: "Solve a puzzle", Options: []commands.OptionSpec{
		{Type: commands.OptString, Name: "puzzle", Description: "the grid"},
		{Type: commands.OptString, Name: "output", Description: "image or text", Choices: []commands.Choice{{Name: "image", Value: "image"}, {Name: "text", Value: "text"}}},
		{Type: commands.OptBool, Name: "private", Description: "only you see it"},
	}},
	{Type: commands.ChatInput, Name: "daily", Description: "Daily puzzle", Options: []commands.OptionSpec{
		{Type: commands.OptSubcommand, Name: "play", Description: "play today's"},
	}},
	{Type: commands.MessageAction, Name: "Solve Sudoku"},
}

// testBot is a bot connected to a fake Discord.
type testBot struct {
	t    *testing.T
	fake *fakediscord.Server
	bot  *Bot
	h    Handler
	logs *syncBuffer
	stop context.CancelFunc
	done chan error
}

var (
	alice = fakediscord.User{ID: "11", Username: "alice", Discriminator: "0"}
	bob   = fakediscord.User{ID: "12", Username: "bob", Discriminator: "0"}
)

// newTestBot starts a fake Discord and a bot on it with short timeouts,
// waits until the commands are registered, and checks at the end that every
// message the bot sent had empty allowed mentions and that no interaction
// was answered late.
func newTestBot(t *testing.T, h Handler, mod func(*Config)) *testBot {
	t.Helper()
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500", "501"}})
	cfg := Config{
		Token:        testToken,
		APIBase:      fake.URL(),
		SolveTimeout: 400 * time.Millisecond,
		// Long enough that a quick answer is never deferred on a loaded
		// machine under -race; tests of deferral shorten it.
		DeferAfter:    time.Second,
		ShutdownWait:  3 * time.Second,
		RateBurst:     100,
		RatePerMinute: 6000,
	}
	if mod != nil {
		mod(&cfg)
	}
	logs := &syncBuffer{}
	b, err := New(cfg, h, log.New(logs, "", 0))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	// Retries of a failed reply in milliseconds, not tenths of a second:
	// what is tested is that they happen.
	b.waits.replyBackoff, b.waits.replyBackoffMax = 2*time.Millisecond, 50*time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	tb := &testBot{t: t, fake: fake, bot: b, h: h, logs: logs, stop: cancel, done: make(chan error, 1)}
	go func() { tb.done <- b.Run(ctx) }()
	if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" && strings.Contains(c.Path, "/commands") }); err != nil {
		cancel()
		t.Fatalf("bot never registered its commands: %v\nlogs:\n%s", err, logs)
	}
	t.Cleanup(func() {
		tb.shutdown()
		tb.checkInvariants()
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	})
	return tb
}

// shutdown cancels the bot and waits for Run to return (idempotent).
func (tb *testBot) shutdown() error {
	tb.t.Helper()
	tb.stop()
	select {
	case err, ok := <-tb.done:
		if ok {
			close(tb.done)
		}
		return err
	case <-time.After(waitLong):
		tb.t.Fatalf("Run did not return within %s of cancel", waitLong)
		return nil
	}
}

// checkInvariants asserts what must hold for every call of a test.
func (tb *testBot) checkInvariants() {
	tb.t.Helper()
	for _, c := range tb.fake.Calls() {
		msg, ok := c.Message()
		if !ok {
			continue
		}
		am, present := msg["allowed_mentions"].(map[string]any)
		if !present {
			tb.t.Errorf("call %d %s %s: no allowed_mentions in %s", c.Seq, c.Method, c.Path, c.Body)
			continue
		}
		if p, _ := am["parse"].([]any); len(p) != 0 || am["users"] != nil || am["roles"] != nil || am["replied_user"] == true {
			tb.t.Errorf("call %d %s %s: allowed_mentions = %v, want nothing allowed", c.Seq, c.Method, c.Path, am)
		}
	}
	if strings.Contains(tb.logs.String(), testToken) {
		tb.t.Errorf("the token appears in the logs:\n%s", tb.logs)
	}
	if strings.Contains(tb.logs.String(), "itoken-") {
		tb.t.Errorf("an interaction token appears in the logs:\n%s", tb.logs)
	}
}

// interact injects an interaction and fails the test if that fails.
func (tb *testBot) interact(in fakediscord.Interaction) fakediscord.Pending {
	tb.t.Helper()
	if in.User.ID == "" {
		in.User = alice
	}
	p, err := tb.fake.Interact(in)
	if err != nil {
		tb.t.Fatalf("Interact: %v", err)
	}
	return p
}

// slash injects /name with options from alice in guild 500.
func (tb *testBot) slash(user fakediscord.User, name string, opts ...fakediscord.Option) fakediscord.Pending {
	tb.t.Helper()
	return tb.interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", User: user, Data: fakediscord.Slash(name, opts...)})
}

// firstAnswer waits for the first accepted callback of p.
func (tb *testBot) firstAnswer(p fakediscord.Pending) fakediscord.Call {
	tb.t.Helper()
	c, err := tb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.Interaction == p.ID && c.IsCallback()
	})
	if err != nil {
		tb.t.Fatalf("interaction %s: no callback: %v\nlogs:\n%s", p.ID, err, tb.logs)
	}
	if c.Status >= 300 {
		tb.t.Fatalf("interaction %s: callback refused with %d: %s", p.ID, c.Status, c.Body)
	}
	return c
}

// finalAnswer waits for the message that completes a deferred interaction
// (an edit of @original or a follow-up).
func (tb *testBot) finalAnswer(p fakediscord.Pending) fakediscord.Call {
	tb.t.Helper()
	c, err := tb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.Interaction == p.ID && (c.IsOriginalEdit() || c.IsFollowUp())
	})
	if err != nil {
		tb.t.Fatalf("interaction %s: no edit or follow-up: %v\nlogs:\n%s", p.ID, err, tb.logs)
	}
	if c.Status >= 300 {
		tb.t.Fatalf("interaction %s: %s %s refused with %d", p.ID, c.Method, c.Path, c.Status)
	}
	return c
}

// eventually polls cond until it holds or waitLong passes; for state the
// fake cannot signal (the bot's own flags, its log).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}
