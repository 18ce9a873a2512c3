package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// newTestChannels is a Channels on a fake Discord, with retries in
// milliseconds.
func newTestChannels(t *testing.T, opts fakediscord.Options) (*fakediscord.Server, *Channels) {
	t.Helper()
	opts.Token = testToken
	f := fakediscord.New(t, opts)
	client, err := restClient(f.URL())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := newChannels(ctx, client, testToken, userAgent, t.Logf)
	c.backoff, c.backoffMax = 2*time.Millisecond, 20*time.Millisecond
	return f, c
}

// TestPostNeverTwice fails a channel message the ways a network and
// Discord do, the worst after Discord made the message, and checks the
// channel gets it exactly once.
func TestPostNeverTwice(t *testing.T) {
	t.Parallel()
	isPost := fakediscord.Call.IsChannelMessage
	for i, tc := range []struct {
		name  string
		fault fakediscord.Fault
	}{
		{"500 after the message was made", fakediscord.Fault{Match: isPost, Status: 500, Applied: true}},
		{"connection cut after the message was made", fakediscord.Fault{Match: isPost, Drop: true, Applied: true}},
		{"502 twice after, then a cut before", fakediscord.Fault{Match: isPost, Status: 502, Applied: true, Times: 2}},
		{"503 before the message was made", fakediscord.Fault{Match: isPost, Status: 503, Times: 2}},
		{"429", fakediscord.Fault{Match: isPost, Status: 429, RetryAfter: 10 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, c := newTestChannels(t, fakediscord.Options{})
			f.Inject(tc.fault)
			ch := fmt.Sprint("70", i)
			id, err := c.Post(context.Background(), ch, commands.Response{Content: "Results: alice 4:12, bob 5:03"})
			if err != nil {
				t.Fatalf("Post: %v", err)
			}
			msgs := f.Messages(ch)
			if len(msgs) != 1 || msgs[0]["id"] != id || msgs[0]["content"] != "Results: alice 4:12, bob 5:03" {
				t.Fatalf("channel holds %v, want the one message %s", msgs, id)
			}
			// Every attempt carried the same nonce, enforced.
			var nonces []string
			for _, call := range f.Calls() {
				if isPost(call) {
					var b struct {
						Nonce   string `json:"nonce"`
						Enforce bool   `json:"enforce_nonce"`
					}
					call.Decode(&b)
					if !b.Enforce || b.Nonce == "" || len(b.Nonce) > 25 {
						t.Errorf("attempt %d: nonce %q enforce %v", call.Seq, b.Nonce, b.Enforce)
					}
					nonces = append(nonces, b.Nonce)
				}
			}
			if len(nonces) < 2 {
				t.Errorf("%d attempts, want a retry", len(nonces))
			}
			for _, n := range nonces {
				if n != nonces[0] {
					t.Errorf("nonces %v differ between attempts", nonces)
					break
				}
			}
		})
	}
	// A refusal is not retried.
	f, c := newTestChannels(t, fakediscord.Options{ExpectRefusals: true})
	if _, err := c.Post(context.Background(), "1", commands.Response{Content: "  "}); err == nil || !strings.Contains(err.Error(), "50006") {
		t.Errorf("empty post: %v, want Discord's 50006", err)
	}
	if n := len(f.Calls()); n != 1 {
		t.Errorf("%d calls for a refused post, want 1", n)
	}
	// A second post is a second message: nonces are per post.
	f2, c2 := newTestChannels(t, fakediscord.Options{})
	c2.Post(context.Background(), "1", commands.Response{Content: "a"})
	c2.Post(context.Background(), "1", commands.Response{Content: "a"})
	if n := len(f2.Messages("1")); n != 2 {
		t.Errorf("two posts made %d messages", n)
	}
}

// TestMentionReplayedAnsweredOnce: a MESSAGE_CREATE seen again after it
// was answered (a resume replays what the bot may already have answered)
// adds no message: the reply's nonces come from the message answered. The
// second handling may answer, or be refused as too soon (a notice with the
// reply's nonce): either way Discord returns the messages already made.
func TestMentionReplayedAnsweredOnce(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan { return commands.Plan{Heavy: true, Cheap: true} },
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			return commands.Response{Content: "solved", FollowUps: []commands.Response{{Content: "and more"}}}
		},
	}
	tb := newTestBot(t, h, nil)
	f := tb.fake
	me := f.BotUser()
	m := fakediscord.Message("m1", "310", "500", alice, "<@"+me.ID+"> 12.4")
	m["mentions"] = []any{me}
	f.Dispatch("MESSAGE_CREATE", m)
	eventually(t, "the reply and its follow-up", func() bool { return len(f.Messages("310")) == 2 })
	f.Dispatch("MESSAGE_CREATE", m)
	if _, err := f.WaitCalls(waitLong, 3, fakediscord.Call.IsChannelMessage); err != nil {
		t.Fatalf("the replayed message was not answered: %v\n%s", err, tb.logs)
	}
	var got []string
	for _, m := range f.Messages("310") {
		ref, _ := m["message_reference"].(map[string]any)
		got = append(got, fmt.Sprintf("%v→%v", m["content"], ref["message_id"]))
	}
	if strings.Join(got, " ") != "solved→m1 and more→<nil>" {
		t.Errorf("channel holds %v; want the message answered once, reply then follow-up", got)
	}
}

// TestMentionReplyNeverTwice: a mention's reply, failed after Discord
// made it, is retried and shows once.
func TestMentionReplyNeverTwice(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan { return commands.Plan{Heavy: true, Cheap: true} },
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			return commands.Response{Content: "solved"}
		},
	}
	tb := newTestBot(t, h, nil)
	tb.bot.channels.backoff = 2 * time.Millisecond
	f := tb.fake
	f.Inject(fakediscord.Fault{Match: fakediscord.Call.IsChannelMessage, Status: 500, Applied: true})
	me := f.BotUser()
	m := fakediscord.Message("m1", "310", "500", alice, "<@"+me.ID+"> 12.4")
	m["mentions"] = []any{me}
	f.Dispatch("MESSAGE_CREATE", m)
	if _, err := f.WaitCalls(waitLong, 2, fakediscord.Call.IsChannelMessage); err != nil {
		t.Fatalf("no retry: %v\n%s", err, tb.logs)
	}
	eventually(t, "the reply", func() bool { return len(f.Messages("310")) == 1 })
	msgs := f.Messages("310")
	ref, _ := msgs[0]["message_reference"].(map[string]any)
	if len(msgs) != 1 || msgs[0]["content"] != "solved" || ref["message_id"] != "m1" {
		t.Errorf("channel holds %v", msgs)
	}
	// The metrics count both attempts (the second once its answer is read).
	metrics := func() string {
		rec := httptest.NewRecorder()
		tb.bot.metrics.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		return rec.Body.String()
	}
	eventually(t, "both attempts counted", func() bool {
		m := metrics()
		return strings.Contains(m, `sudokubot_channel_requests_total{outcome="server_error",route="post"} 1`) &&
			strings.Contains(m, `sudokubot_channel_requests_total{outcome="ok",route="post"} 1`)
	})
	if n := len(f.Messages("310")); n != 1 {
		t.Errorf("%d replies after the retry, want 1", n)
	}
}

// TestEditsCoalesce drives many edits a second at one message (and two at
// another in the channel) under Discord's 5 edits per 5 s, and checks
// the bucket is never exceeded, the message ends with the last body, and
// it is never more than a few seconds behind: the bucket is spread over
// its window rather than spent at once (which would leave it 5 s behind).
//
// The bucket is learned from the answers' headers alone; the first edit
// is sent before any is known, and its answer says what is left, so even
// it cannot meet a 429 unless something else spent the bucket: the test
// asserts none at all.
func TestEditsCoalesce(t *testing.T) {
	t.Parallel()
	window := fakediscord.DefaultChannelRate.Per
	f, c := newTestChannels(t, fakediscord.Options{})
	id, err := c.Post(context.Background(), "80", commands.Response{Content: "Scoreboard"})
	if err != nil {
		t.Fatal(err)
	}
	// A second message in the same channel shares the edit bucket.
	other, _ := c.Post(context.Background(), "80", commands.Response{Content: "Lobby"})

	const edits = 100
	const every = 20 * time.Millisecond // 50 a second, for 2 s
	asked := make([]time.Time, edits)
	start := time.Now()
	tick := time.NewTicker(every)
	for i := range edits {
		<-tick.C
		asked[i] = time.Now()
		// Edit queues and returns: a move's answer never waits for it.
		if err := c.Edit(context.Background(), "80", id, commands.Response{Content: fmt.Sprintf("Scoreboard: move %d", i)}); err != nil {
			t.Fatalf("Edit %d: %v", i, err)
		}
		if i%50 == 0 {
			c.Edit(context.Background(), "80", other, commands.Response{Content: fmt.Sprintf("Lobby %d", i)})
		}
		if waited := time.Since(asked[i]); waited > 100*time.Millisecond {
			t.Errorf("Edit %d took %s to return", i, waited)
		}
	}
	tick.Stop()
	last := fmt.Sprintf("Scoreboard: move %d", edits-1)
	eventually(t, "the last body", func() bool {
		m := f.Messages("80")
		return m[0]["content"] == last && m[1]["content"] == "Lobby 50"
	})
	took := time.Since(start)
	if rl := f.RateLimited(); rl.Limited != 0 {
		t.Errorf("%d calls met a 429, want none", rl.Limited)
	}
	// How far behind the message was: for each body asked, the first edit
	// sent after it with it or a later one.
	var sent []fakediscord.Call
	for _, call := range f.Calls() {
		if call.IsChannelEdit() && call.Status == 200 && strings.HasSuffix(call.Path, "/"+id) {
			sent = append(sent, call)
		}
	}
	slowest := time.Duration(0)
	for i, at := range asked {
		var move int
		for _, call := range sent {
			fmt.Sscanf(call.Content(), "Scoreboard: move %d", &move)
			if !call.At.Before(at) && move >= i {
				slowest = max(slowest, call.At.Sub(at))
				break
			}
		}
	}
	// Each body was shown within a gap of about a second, two when the
	// lobby's edit took its turn: well within the 5 s window that spending
	// the bucket at once would cost, with room for the load of a -race run
	// on two cores.
	if slowest > 4*time.Second {
		t.Errorf("a body waited %s to show, want within 4s", slowest)
	}
	if most := 5 * (int(took/window) + 2); len(sent) > most || len(sent) >= edits {
		t.Errorf("%d edits sent for %d asked in %s, want at most %d (coalesced)", len(sent), edits, took, most)
	}
	t.Logf("%d edits asked, %d sent in %s; the message was at most %s behind", edits, len(sent), took, slowest)
}

// TestEditHonoursA429 meets a 429 the bot could not foresee (another
// process spent the bucket) and checks the edit still lands once its
// retry_after has passed.
func TestEditHonoursA429(t *testing.T) {
	t.Parallel()
	f, c := newTestChannels(t, fakediscord.Options{})
	id, _ := c.Post(context.Background(), "81", commands.Response{Content: "a"})
	f.Inject(fakediscord.Fault{Match: fakediscord.Call.IsChannelEdit, Status: 429, RetryAfter: 300 * time.Millisecond})
	f.Inject(fakediscord.Fault{Match: fakediscord.Call.IsChannelEdit, Status: 502})
	t0 := time.Now()
	if err := c.editAndWait(context.Background(), "81", id, commands.Response{Content: "b"}); err != nil {
		t.Fatalf("Edit: %v", err)
	}
	if waited := time.Since(t0); waited < 300*time.Millisecond {
		t.Errorf("the edit went out %s after a 429 asking 300 ms", waited)
	}
	if got := f.Messages("81")[0]["content"]; got != "b" {
		t.Errorf("message is %q, want b", got)
	}
	// An edit Discord refuses is not retried and says why.
	err := c.editAndWait(context.Background(), "81", "404", commands.Response{Content: "c"})
	if err == nil || !strings.Contains(err.Error(), "10008") {
		t.Errorf("edit of an unknown message: %v", err)
	}
}

func TestStartThread(t *testing.T) {
	t.Parallel()
	f, c := newTestChannels(t, fakediscord.Options{ExpectRefusals: true})
	ctx := context.Background()
	f.AddChannel(fakediscord.ChannelInfo{ID: "90", GuildID: "500", Type: fakediscord.GuildText})
	lobby, _ := c.Post(ctx, "90", commands.Response{Content: "Race lobby"})
	long := strings.Repeat("Race of the century ", 10)
	th, err := c.StartThread(ctx, "90", lobby, long)
	if err != nil || th != lobby {
		t.Fatalf("StartThread = %q, %v; want the lobby's id %s", th, err, lobby)
	}
	if info, _ := f.Channel(th); info.ParentID != "90" || info.Type != fakediscord.PublicThread || len([]rune(info.Name)) != 100 {
		t.Errorf("thread %+v", info)
	}
	// Messages go to the thread as to a channel.
	if _, err := c.Post(ctx, th, commands.Response{Content: "Scoreboard"}); err != nil || len(f.Messages(th)) != 1 {
		t.Errorf("post in the thread: %v", err)
	}
	// Asked again (another process, or a retry): the thread is the same.
	if again, err := c.StartThread(ctx, "90", lobby, "Race"); err != nil || again != lobby {
		t.Errorf("second StartThread = %q, %v", again, err)
	}
	// Made, but the answer lost: the retry meets 160004 and knows the id.
	lobby2, _ := c.Post(ctx, "90", commands.Response{Content: "Lobby 2"})
	f.Inject(fakediscord.Fault{Match: func(c fakediscord.Call) bool { return strings.HasSuffix(c.Path, "/threads") }, Status: 500, Applied: true})
	if th2, err := c.StartThread(ctx, "90", lobby2, "Race 2"); err != nil || th2 != lobby2 {
		t.Errorf("StartThread after a lost answer = %q, %v", th2, err)
	}
	if n := len(f.Threads("90")); n != 2 {
		t.Errorf("%d threads, want 2", n)
	}
	// Not allowed: the caller stays in the channel.
	lobby3, _ := c.Post(ctx, "90", commands.Response{Content: "Lobby 3"})
	f.Deny("500", fakediscord.PermCreatePublicThreads)
	if _, err := c.StartThread(ctx, "90", lobby3, "Race 3"); !errors.Is(err, commands.ErrNoThreads) {
		t.Errorf("StartThread without the permission: %v, want ErrNoThreads", err)
	}
	f.AddChannel(fakediscord.ChannelInfo{ID: "91", Type: fakediscord.DMChannel})
	dm, _ := c.Post(ctx, "91", commands.Response{Content: "hi"})
	if _, err := c.StartThread(ctx, "91", dm, "DM"); !errors.Is(err, commands.ErrNoThreads) {
		t.Errorf("StartThread in a DM: %v, want ErrNoThreads", err)
	}
}

// Buckets long refilled are forgotten once the map passes 1024, and the
// live ones are not scanned again on every answer: the next sweep waits
// until the map has doubled.
func TestBucketsSwept(t *testing.T) {
	c := newChannels(context.Background(), nil, testToken, userAgent, t.Logf)
	live := http.Header{"X-Ratelimit-Remaining": {"4"}, "X-Ratelimit-Reset-After": {"60"}}
	for i := range 1025 {
		c.learn(bucketKey("edit", fmt.Sprint(i)), live, nil)
	}
	if n := len(c.buckets); n != 1025 {
		t.Fatalf("after 1025 live buckets the map holds %d, want all 1025", n)
	}
	// Refilled buckets (no headers: nothing known) pile up to twice the
	// live ones before the next sweep forgets them.
	for i := range 1025 {
		c.learn(bucketKey("post", fmt.Sprint(i)), http.Header{}, nil)
	}
	if n := len(c.buckets); n != 2050 {
		t.Fatalf("before the next sweep the map holds %d buckets, want 2050", n)
	}
	c.learn(bucketKey("post", "one more"), http.Header{}, nil)
	if n := len(c.buckets); n != 1025 {
		t.Fatalf("after the sweep the map holds %d buckets, want the 1025 live ones", n)
	}
}
