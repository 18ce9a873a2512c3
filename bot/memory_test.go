package bot

import (
	"context"
	"flag"
	"fmt"
	"log"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

var memoryN = flag.Int("memory.n", 500, "interactions TestInteractionMemoryBounded drives")

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// buckets is the number of rate-limit buckets discordgo's limiter holds.
// The map is unexported; reflection may read its length.
func buckets(b *Bot) int {
	b.mu.Lock()
	s := b.session
	b.mu.Unlock()
	s.Ratelimiter.Lock()
	defer s.Ratelimiter.Unlock()
	return reflect.ValueOf(s.Ratelimiter).Elem().FieldByName("buckets").Len()
}

// quietHandler answers without remembering anything (scriptHandler keeps
// every request, which would be measured): "slow" takes longer than
// DeferAfter, so it is deferred, then edited; both get a follow-up.
type quietHandler struct{}

func (quietHandler) Specs() []commands.CommandSpec { return nil }

func (quietHandler) Plan(_ context.Context, req commands.Request) commands.Plan {
	return commands.Plan{Heavy: true, Cheap: true, Ephemeral: req.Command == "slow"}
}

func (quietHandler) Handle(_ context.Context, req commands.Request) commands.Response {
	if req.Command == "slow" {
		time.Sleep(15 * time.Millisecond)
	}
	return commands.Response{Content: "ok", Ephemeral: req.Command == "slow", FollowUps: []commands.Response{{Content: "more"}}}
}

// TestInteractionMemoryBounded drives many interactions, half answered at
// once and half deferred then edited, with follow-ups, and checks that
// nothing per interaction stays behind: discordgo kept a rate-limit bucket
// per interaction URL (the URL holds the token), ~400 bytes each for ever.
//
//	go test ./bot -run TestInteractionMemoryBounded -v -memory.n 20000
//
// prints the live heap per interaction.
func TestInteractionMemoryBounded(t *testing.T) {
	answered := make(chan string, 1<<16)
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Forget: true,
		OnCall: func(c fakediscord.Call) {
			// An interaction is done at its answer: an immediate message,
			// or the edit after a deferral.
			if c.Interaction != "" && c.Status < 300 && (c.CallbackType() == 4 || c.IsOriginalEdit()) {
				answered <- c.Interaction
			}
		}})
	h := quietHandler{}
	logs := &syncBuffer{}
	b, err := New(Config{Token: testToken, APIBase: fake.URL(), DeferAfter: 5 * time.Millisecond,
		RateBurst: 1 << 20, RatePerMinute: 1 << 20, Queue: 1 << 12}, h, log.New(logs, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- b.Run(ctx) }()
	defer func() { cancel(); <-ran }()
	eventually(t, "the bot to be ready", func() bool { return b.self() != "" })

	// drive sends n interactions, 50 at a time, each batch waiting for its
	// answers (one user per interaction of a batch: one job each).
	next := 0
	drive := func(n int) {
		t.Helper()
		const batch = 50
		for sent := 0; sent < n; {
			k := min(batch, n-sent)
			for j := range k {
				name := "quick"
				if next%2 == 0 {
					name = "slow"
				}
				next++
				user := fakediscord.User{ID: fmt.Sprint("u", j), Username: "u"}
				if _, err := fake.Interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", User: user,
					Data: fakediscord.Slash(name)}); err != nil {
					t.Fatal(err)
				}
			}
			for range k {
				select {
				case <-answered:
				case <-time.After(waitLong):
					t.Fatalf("interaction %d of %d not answered\n%s", sent, n, logs)
				}
			}
			sent += k
		}
	}
	// Two equal rounds after a warm-up: what a round leaves for good shows
	// as growth from the first to the second. Before each measurement the
	// last follow-ups go out and the fake forgets its interactions.
	settle := func() uint64 {
		time.Sleep(100 * time.Millisecond) // follow-ups are sent after the answers waited for
		fake.ForgetInteractions()
		return liveHeap()
	}
	n := *memoryN
	if raceEnabled {
		n = min(n, 200)
	}
	drive(200)
	base := settle()
	start := time.Now()
	drive(n)
	mid, bucketsMid := settle(), buckets(b)
	drive(n)
	elapsed := time.Since(start)
	end, bucketsEnd := settle(), buckets(b)
	per := (float64(end) - float64(mid)) / float64(n)
	t.Logf("2 × %d interactions in %s: rate-limit buckets %d → %d; live heap %d → %d → %d KB: %.0f bytes per interaction left for good",
		n, elapsed.Round(time.Millisecond), bucketsMid, bucketsEnd, base>>10, mid>>10, end>>10, per)
	if grown := bucketsEnd - bucketsMid; grown > 0 {
		t.Errorf("%d rate-limit buckets added by %d interactions, want none per interaction", grown, n)
	}
	if per > 400 && !raceEnabled { // the race detector's own bookkeeping grows
		t.Errorf("the live heap grew by %.0f bytes per interaction, want no per-interaction state", per)
	}
	if l := logs.String(); l != "" && !strings.HasPrefix(l, "ready as") {
		t.Errorf("errors while answering:\n%.3000s", l)
	}
}
