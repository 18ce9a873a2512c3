package bot

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// callbackOfType matches an interaction callback of type t.
func callbackOfType(t int) func(fakediscord.Call) bool {
	return func(c fakediscord.Call) bool { return c.CallbackType() == t }
}

// TestTransientErrorsAreRetried injects the failures a real network and
// Discord produce into each REST call of an answer and checks the user
// still gets exactly one answer.
func TestTransientErrorsAreRetried(t *testing.T) {
	t.Parallel()
	var f *fakediscord.Server
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan {
			return commands.Plan{Heavy: req.Command == "slow", Cheap: true}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if req.Command == "slow" {
				// A job that outlasts DeferAfter: it answers once the
				// deferral has been tried.
				f.WaitCall(waitLong, func(c fakediscord.Call) bool {
					return c.IsCallback() && strings.Contains(c.Path, "/interactions/"+req.ID+"/")
				})
			}
			return commands.Response{Content: "answer " + req.Command}
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.DeferAfter = 50 * time.Millisecond; c.SolveTimeout = 5 * time.Second })
	f = tb.fake
	for _, tc := range []struct {
		name  string
		cmd   string
		fault fakediscord.Fault
		// want: the answer is the first callback (true) or the edit after
		// a deferral.
		immediate bool
	}{
		{"503 twice on the answer", "quick", fakediscord.Fault{Match: callbackOfType(4), Status: 503, Times: 2}, true},
		{"500 on the answer", "quick", fakediscord.Fault{Match: callbackOfType(4), Status: 500}, true},
		{"502 three times on the answer", "quick", fakediscord.Fault{Match: callbackOfType(4), Status: 502, Times: 3}, true},
		{"429 on the answer", "quick", fakediscord.Fault{Match: callbackOfType(4), Status: 429, RetryAfter: 20 * time.Millisecond}, true},
		{"connection cut before the answer arrived", "quick", fakediscord.Fault{Match: callbackOfType(4), Drop: true}, true},
		{"connection cut after the answer arrived", "quick", fakediscord.Fault{Match: callbackOfType(4), Drop: true, Applied: true}, true},
		{"503 on the deferral", "slow", fakediscord.Fault{Match: callbackOfType(5), Status: 503}, false},
		{"500 twice on the edit", "slow", fakediscord.Fault{Match: fakediscord.Call.IsOriginalEdit, Status: 500, Times: 2}, false},
		{"connection cut on the edit", "slow", fakediscord.Fault{Match: fakediscord.Call.IsOriginalEdit, Drop: true}, false},
		{"deferral refused for good: a plain answer instead", "slow", fakediscord.Fault{Match: callbackOfType(5), Status: 404}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.Inject(tc.fault)
			p := tb.slash(fakediscord.User{ID: "u-" + tc.name, Username: "u"}, tc.cmd)
			want := "answer " + tc.cmd
			ok := f.WaitFor(waitLong, func(calls []fakediscord.Call) bool {
				for _, c := range calls {
					if c.Interaction == p.ID && (!c.Fault || tc.fault.Applied) && (c.Status < 300 || c.Fault) && (c.CallbackType() == 4 || c.IsOriginalEdit()) {
						return true
					}
				}
				return false
			})
			if !ok {
				t.Fatalf("no answer got through\n%s", tb.logs)
			}
			var answers []fakediscord.Call
			for _, c := range f.CallsFor(p.ID) {
				if c.Content() == want && c.Status < 300 && !c.Fault || (c.Fault && tc.fault.Applied) {
					answers = append(answers, c)
				}
			}
			if len(answers) != 1 {
				t.Fatalf("%d answers reached Discord, want 1: %+v", len(answers), f.CallsFor(p.ID))
			}
			if got := answers[0].IsCallback(); got != tc.immediate {
				t.Errorf("answered as a callback: %v, want %v", got, tc.immediate)
			}
			if n := f.FaultsLeft(); n != 0 {
				t.Errorf("%d injected failures never happened", n)
			}
		})
	}
	// The retry of the answer whose reply was cut off met "already
	// acknowledged", which is success, not an error to log. (Not one other
	// refused call, and no token in the log: checked at cleanup.)
	if strings.Contains(tb.logs.String(), "respond (type") {
		t.Errorf("an answer failed:\n%s", tb.logs)
	}
}

// TestReplyErrorsHideTheToken: a network error quotes the URL, which holds
// the interaction's token.
func TestReplyErrorsHideTheToken(t *testing.T) {
	srv := httptest.NewServer(nil)
	base := srv.URL
	srv.Close() // nothing listens: every call is a network error
	tr, err := newRewriteTransport(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := discordgo.New("Bot x")
	s.Client.Transport = tr
	in := &discordgo.Interaction{ID: "1", AppID: "2", Token: "SECRET-interaction-token"}
	// Arrived 2.8 s ago: one attempt, and no time left for another.
	rc := newReplyClient(s, in, time.Now().Add(-2800*time.Millisecond))
	err = rc.respond(context.Background(), &discordgo.InteractionResponse{Type: 5})
	if err == nil {
		t.Fatal("respond to a dead server succeeded")
	}
	if strings.Contains(err.Error(), in.Token) || !strings.Contains(err.Error(), "<token>") {
		t.Errorf("error %q: want the token replaced by <token>", err)
	}
}
