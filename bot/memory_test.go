package bot

import (
	"context"
	"flag"
	"fmt"
	"log"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
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
	var followUps atomic.Int64
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Forget: true,
		OnCall: func(c fakediscord.Call) {
			// An interaction is done at its answer: an immediate message,
			// or the edit after a deferral.
			if c.Interaction != "" && c.Status < 300 && (c.CallbackType() == 4 || c.IsOriginalEdit()) {
				answered <- c.Interaction
			}
			if c.IsFollowUp() && c.Status < 300 {
				followUps.Add(1)
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
	// Three equal rounds after a warm-up. What a round leaves for good
	// shows as growth in every round; the heap also moves for reasons of
	// its own (pools, connections, a loaded machine's timing), once, so
	// the smaller of the last two rounds' growth is what stays per round.
	// Before each measurement the last follow-ups have gone out and the
	// fake forgets its interactions.
	settle := func() uint64 {
		want := int64(next) // one follow-up per interaction
		eventually(t, "the follow-ups to go out", func() bool { return followUps.Load() >= want })
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
	heaps := []uint64{base}
	bucketCounts := []int{buckets(b)}
	for range 3 {
		drive(n)
		heaps = append(heaps, settle())
		bucketCounts = append(bucketCounts, buckets(b))
	}
	elapsed := time.Since(start)
	grew := func(i int) float64 { return float64(heaps[i]) - float64(heaps[i-1]) }
	per := min(grew(2), grew(3)) / float64(n)
	bucketsMid, bucketsEnd := bucketCounts[1], bucketCounts[3]
	kb := make([]string, len(heaps))
	for i, h := range heaps {
		kb[i] = fmt.Sprint(h >> 10)
	}
	t.Logf("3 × %d interactions in %s: rate-limit buckets %d → %d; live heap %s KB: %.0f bytes per interaction left for good",
		n, elapsed.Round(time.Millisecond), bucketsMid, bucketsEnd, strings.Join(kb, " → "), per)
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
