package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// These tests drive a real discordgo session against the fake Discord with
// a scripted handler: they check the Discord side (routing, answer types,
// deferral, limits, recovery) independently of the product.

func TestRegistersAndLogsReady(t *testing.T) {
	for _, tc := range []struct {
		name, guild, where, path string
	}{
		{"global", "", "commands registered globally", "/api/v9/applications/100/commands"},
		{"guild", "777", "commands registered in guild 777", "/api/v9/applications/100/guilds/777/commands"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &scriptHandler{specs: testSpecs}
			tb := newTestBot(t, h, func(c *Config) { c.GuildID = tc.guild })
			want := "ready as sudokubot#1234 in 2 guilds (" + tc.where + ")"
			eventually(t, "the ready line "+want, func() bool { return strings.Contains(tb.logs.String(), want) })
			if n := strings.Count(tb.logs.String(), "ready as"); n != 1 {
				t.Errorf("%d ready lines, want 1", n)
			}
			put, _ := tb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.Method == "PUT" })
			if put.Path != tc.path {
				t.Errorf("registered at %s, want %s", put.Path, tc.path)
			}
			var cmds []struct {
				Name    string `json:"name"`
				Type    int    `json:"type"`
				Options []struct {
					Name    string `json:"name"`
					Type    int    `json:"type"`
					Choices []struct{ Name, Value string }
				} `json:"options"`
			}
			if err := put.Decode(&cmds); err != nil {
				t.Fatal(err)
			}
			if len(cmds) != 3 || cmds[0].Name != "solve" || cmds[2].Name != "Solve Sudoku" || cmds[2].Type != 3 {
				t.Fatalf("registered %+v, want solve, daily, Solve Sudoku", cmds)
			}
			if o := cmds[0].Options; len(o) != 3 || o[1].Type != 3 || len(o[1].Choices) != 2 || o[2].Type != 5 {
				t.Errorf("solve options = %+v", o)
			}
			if cmds[1].Options[0].Type != 1 {
				t.Errorf("daily play has type %d, want 1 (sub-command)", cmds[1].Options[0].Type)
			}
			id := tb.fake.Identify()
			intents, _ := id["intents"].(float64)
			if int(intents)&(1<<15) != 0 {
				t.Errorf("identify asked for the Message Content intent (%d) without MESSAGE_CONTENT", int(intents))
			}
			if int(intents)&(1<<9) == 0 {
				t.Errorf("identify intents %d lack guild messages", int(intents))
			}
		})
	}
}

func TestMessageContentIntentIsOptIn(t *testing.T) {
	t.Parallel()
	tb := newTestBot(t, &scriptHandler{}, func(c *Config) { c.MessageContent = true })
	intents, _ := tb.fake.Identify()["intents"].(float64)
	if int(intents)&(1<<15) == 0 {
		t.Errorf("intents = %d, want the Message Content bit with MESSAGE_CONTENT=true", int(intents))
	}
}

func TestSlashCommandBecomesRequest(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{specs: testSpecs}
	tb := newTestBot(t, h, nil)

	p := tb.slash(alice, "solve", fakediscord.Str("puzzle", "1.3"), fakediscord.Bool("private", true), fakediscord.Int("size", 9))
	c := tb.firstAnswer(p)
	if c.CallbackType() != 4 || c.Content() != "ok solve" {
		t.Errorf("answer type %d %q, want 4 \"ok solve\"", c.CallbackType(), c.Content())
	}
	if c.Since > time.Second {
		t.Errorf("a quick answer took %s", c.Since)
	}
	p2 := tb.slash(bob, "daily", fakediscord.Sub("play", fakediscord.Str("level", "hard")))
	tb.firstAnswer(p2)

	reqs := h.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	r := reqs[0]
	if r.Kind != commands.SlashCommand || r.ID != p.ID || r.UserID != alice.ID || r.UserName != "alice" || r.GuildID != "500" || r.ChannelID != "300" {
		t.Errorf("request = %+v", r)
	}
	want := map[string]string{"puzzle": "1.3", "private": "true", "size": "9"}
	for k, v := range want {
		if r.Options[k] != v {
			t.Errorf("option %s = %q, want %q", k, r.Options[k], v)
		}
	}
	if r.Permissions != 2147483647 {
		t.Errorf("permissions = %d", r.Permissions)
	}
	if r.Now.IsZero() {
		t.Error("Now not set")
	}
	if r2 := reqs[1]; r2.Command != "daily" || r2.Subcommand != "play" || r2.Options["level"] != "hard" || r2.UserID != bob.ID {
		t.Errorf("sub-command request = %+v", r2)
	}
}

func TestAnswerTypes(t *testing.T) {
	t.Parallel()
	pngData := testPNG(t)
	h := &scriptHandler{handle: func(ctx context.Context, req commands.Request) commands.Response {
		switch {
		case req.Command == "solve" && req.Options["puzzle"] == "":
			return commands.Response{Modal: &commands.Modal{CustomID: "solve:modal", Title: "Paste your puzzle", Inputs: []commands.TextInput{
				{CustomID: "puzzle", Label: "Puzzle", Paragraph: true, Required: true}}}}
		case req.Command == "solve":
			return commands.Response{Content: "solved", Files: []commands.File{{Name: "board.png", ContentType: "image/png", Data: pngData}},
				Embeds: []commands.Embed{{Title: "Solution", Image: "attachment://board.png", Footer: "took 1 ms"}}}
		case req.Kind == commands.ModalSubmit:
			return commands.Response{Content: "modal:" + req.CustomID + ":" + req.Fields["puzzle"], Ephemeral: true}
		case req.CustomID == "hint:more":
			return commands.Response{Content: "level 2", Update: true, Components: []commands.ActionRow{{Buttons: []commands.Button{{Label: "Show step", CustomID: "hint:step", Style: commands.Primary}}}}}
		case req.Command == "empty":
			return commands.Response{}
		case req.CustomID == "gen:solution":
			return commands.Response{Content: "||solution||", Ephemeral: true, FollowUps: []commands.Response{{Content: "public note"}}}
		}
		return commands.Response{Content: "?"}
	}}
	tb := newTestBot(t, h, nil)

	t.Run("modal opens", func(t *testing.T) {
		c := tb.firstAnswer(tb.slash(alice, "solve"))
		var body struct {
			Type int `json:"type"`
			Data struct {
				CustomID   string `json:"custom_id"`
				Title      string `json:"title"`
				Components []struct {
					Components []struct {
						Type     int    `json:"type"`
						CustomID string `json:"custom_id"`
						Style    int    `json:"style"`
					} `json:"components"`
				} `json:"components"`
			} `json:"data"`
		}
		if err := c.Decode(&body); err != nil {
			t.Fatal(err)
		}
		if body.Type != 9 || body.Data.CustomID != "solve:modal" || len(body.Data.Components) != 1 {
			t.Fatalf("modal answer = %s", c.Body)
		}
		if in := body.Data.Components[0].Components[0]; in.Type != 4 || in.Style != 2 || in.CustomID != "puzzle" {
			t.Errorf("text input = %+v, want a paragraph input \"puzzle\"", in)
		}
	})
	t.Run("modal submitted", func(t *testing.T) {
		p := tb.interact(fakediscord.Interaction{Type: fakediscord.ModalSubmit, GuildID: "500",
			Data: fakediscord.Modal("solve:modal", map[string]string{"puzzle": "row1\nrow2"})})
		c := tb.firstAnswer(p)
		if c.CallbackType() != 4 || c.Content() != "modal:solve:modal:row1\nrow2" || !c.Ephemeral() {
			t.Errorf("answer %d %q ephemeral=%v", c.CallbackType(), c.Content(), c.Ephemeral())
		}
	})
	t.Run("files as multipart", func(t *testing.T) {
		c := tb.firstAnswer(tb.slash(alice, "solve", fakediscord.Str("puzzle", "x")))
		if !strings.HasPrefix(c.ContentType, "multipart/form-data") || len(c.Files) != 1 {
			t.Fatalf("content type %q with %d files, want multipart with 1", c.ContentType, len(c.Files))
		}
		f := c.Files[0]
		if f.Name != "board.png" || f.ContentType != "image/png" {
			t.Errorf("file %q %q", f.Name, f.ContentType)
		}
		img, err := png.Decode(bytes.NewReader(f.Data))
		if err != nil {
			t.Fatalf("uploaded PNG does not decode: %v", err)
		}
		if img.Bounds().Dx() != 4 {
			t.Errorf("PNG width %d, want 4", img.Bounds().Dx())
		}
		m, _ := c.Message()
		embeds, _ := m["embeds"].([]any)
		if len(embeds) != 1 || !strings.Contains(string(c.Body), `"url":"attachment://board.png"`) {
			t.Errorf("embeds = %v", embeds)
		}
	})
	t.Run("empty answer still answers", func(t *testing.T) {
		c := tb.firstAnswer(tb.slash(alice, "empty"))
		if c.CallbackType() != 4 || c.Content() == "" || !c.Ephemeral() {
			t.Errorf("empty handler answer became %d %q", c.CallbackType(), c.Content())
		}
	})
	t.Run("button updates its message", func(t *testing.T) {
		p := tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button("hint:more"),
			Message: map[string]any{"id": "70", "channel_id": "300", "content": "level 1"}})
		c := tb.firstAnswer(p)
		if c.CallbackType() != 7 || c.Content() != "level 2" || !strings.Contains(string(c.Body), `"custom_id":"hint:step"`) {
			t.Errorf("answer %d %s", c.CallbackType(), c.Body)
		}
	})
	t.Run("button posts ephemeral then follow-up", func(t *testing.T) {
		p := tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button("gen:solution")})
		c := tb.firstAnswer(p)
		if c.CallbackType() != 4 || !c.Ephemeral() {
			t.Errorf("answer %d ephemeral=%v, want 4 ephemeral", c.CallbackType(), c.Ephemeral())
		}
		f := tb.finalAnswer(p)
		if !f.IsFollowUp() || f.Content() != "public note" || f.Ephemeral() {
			t.Errorf("follow-up %s %q", f.Path, f.Content())
		}
	})
}

// testPNG is a tiny valid PNG.
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSlowJobIsDeferredThenEdited(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan {
			return commands.Plan{Heavy: true, Update: req.CustomID == "update", Ephemeral: req.CustomID == "new" || req.Options["private"] == "true"}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			select {
			case <-release:
			case <-ctx.Done():
				return commands.Response{Content: "stopped by handler"}
			}
			switch {
			case req.CustomID == "update":
				return commands.Response{Content: "updated", Update: true}
			case req.CustomID == "new":
				return commands.Response{Content: "new message", Ephemeral: true}
			case req.Options["private"] == "true":
				return commands.Response{Content: "private result", Ephemeral: true}
			case req.Options["puzzle"] == "bad":
				return commands.Response{Content: "clash in row 1", Ephemeral: true}
			}
			return commands.Response{Content: "done " + req.Command}
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.SolveTimeout = 5 * time.Second; c.DeferAfter = 150 * time.Millisecond })

	edited := func(want string) func(*testing.T, fakediscord.Pending) {
		return func(t *testing.T, p fakediscord.Pending) {
			c := tb.finalAnswer(p)
			if !c.IsOriginalEdit() || c.Content() != want {
				t.Errorf("final %s %s %q, want an edit of @original to %q", c.Method, c.Path, c.Content(), want)
			}
		}
	}
	for _, tc := range []struct {
		name      string
		in        fakediscord.Interaction
		deferType int
		ephemeral bool // the deferral
		check     func(t *testing.T, p fakediscord.Pending)
	}{
		{"slash", fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.Slash("solve")}, 5, false,
			edited("done solve")},
		{"private slash", fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.Slash("solve", fakediscord.Bool("private", true))}, 5, true,
			edited("private result")},
		{"public deferral, private answer", fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.Slash("solve", fakediscord.Str("puzzle", "bad"))}, 5, false,
			func(t *testing.T, p fakediscord.Pending) {
				c := tb.finalAnswer(p)
				if !c.IsFollowUp() || !c.Ephemeral() || c.Content() != "clash in row 1" {
					t.Errorf("final %s %s %q ephemeral=%v, want an ephemeral follow-up", c.Method, c.Path, c.Content(), c.Ephemeral())
				}
				if _, err := tb.fake.WaitCall(waitLong, func(c fakediscord.Call) bool {
					return c.Interaction == p.ID && c.Method == "DELETE"
				}); err != nil {
					t.Errorf("public placeholder not deleted: %v", err)
				}
			}},
		{"button update", fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button("update")}, 6, false,
			edited("updated")},
		{"button new message", fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button("new")}, 5, true,
			edited("new message")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.User = fakediscord.User{ID: "u-" + tc.name, Username: "u"}
			p := tb.interact(tc.in)
			c := tb.firstAnswer(p)
			var body struct {
				Type int `json:"type"`
				Data *struct {
					Flags int `json:"flags"`
				} `json:"data"`
			}
			c.Decode(&body)
			if body.Type != tc.deferType {
				t.Fatalf("first answer type %d, want %d (deferred)", body.Type, tc.deferType)
			}
			if eph := body.Data != nil && body.Data.Flags&64 != 0; eph != tc.ephemeral {
				t.Errorf("deferral ephemeral = %v, want %v", eph, tc.ephemeral)
			}
			if c.Since > 2*time.Second {
				t.Errorf("deferred after %s, want ≈150ms", c.Since)
			}
			release <- struct{}{}
			tc.check(t, p)
		})
	}
}

func TestDeadline(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan { return commands.Plan{Heavy: req.Command == "solve"} },
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			switch req.Options["mode"] {
			case "polite":
				<-ctx.Done()
				return commands.Response{Content: "stopped after the deadline, said the handler"}
			case "stubborn":
				<-block // ignores ctx: the bot must answer anyway
				return commands.Response{Content: "too late"}
			}
			return commands.Response{Content: "quick " + req.Command}
		},
	}
	tb := newTestBot(t, h, func(c *Config) {
		c.SolveTimeout = 300 * time.Millisecond
		c.DeferAfter = 150 * time.Millisecond
		c.Workers = 2
	})

	polite := tb.slash(alice, "solve", fakediscord.Str("mode", "polite"))
	stubborn := tb.slash(bob, "solve", fakediscord.Str("mode", "stubborn"))
	if c := tb.firstAnswer(polite); c.CallbackType() != 5 {
		t.Errorf("polite: first answer %d, want 5", c.CallbackType())
	}
	if c := tb.firstAnswer(stubborn); c.CallbackType() != 5 {
		t.Errorf("stubborn: first answer %d, want 5", c.CallbackType())
	}
	// Meanwhile others are answered.
	carol := fakediscord.User{ID: "13", Username: "carol"}
	if c := tb.firstAnswer(tb.slash(carol, "help")); c.Content() != "quick help" {
		t.Errorf("others meanwhile: %q", c.Content())
	}
	if c := tb.finalAnswer(polite); c.Content() != "stopped after the deadline, said the handler" {
		t.Errorf("polite final = %q", c.Content())
	}
	c := tb.finalAnswer(stubborn)
	if c.Content() != commands.StoppedNotice(300*time.Millisecond) {
		t.Errorf("stubborn final = %q, want the bot's own stopped notice", c.Content())
	}
	if c.Since < 300*time.Millisecond {
		t.Errorf("stopped notice after %s, before the deadline", c.Since)
	}
}

// TestRateLimitFlood sends one user's 50 commands at once: five (the
// burst) are served, the rest told to wait, and another user is served
// meanwhile. discordgo runs each event's handler on its own goroutine, so
// which five get through is not fixed: every refusal is checked.
func TestRateLimitFlood(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{}
	tb := newTestBot(t, h, func(c *Config) { c.RateBurst = 5; c.RatePerMinute = 6 })

	const flood = 50
	var ps []fakediscord.Pending
	for range flood {
		ps = append(ps, tb.slash(alice, "check"))
	}
	other := tb.slash(bob, "check")
	limited, served := 0, 0
	for _, p := range ps {
		c := tb.firstAnswer(p)
		switch {
		case c.Content() == "ok check" && !c.Ephemeral():
			served++
		case strings.Contains(c.Content(), "try again in") && c.Ephemeral():
			limited++
			// The burst is spent, and at 6 a minute the next token is
			// about 10 s away.
			if !strings.Contains(c.Content(), "try again in 10 s") && !strings.Contains(c.Content(), "try again in 9 s") {
				t.Errorf("limited answer %q, want a wait of about 10 s (6 a minute)", c.Content())
			}
		default:
			t.Errorf("unexpected answer %q", c.Content())
		}
	}
	if served != 5 || limited != flood-5 {
		t.Errorf("served %d, limited %d; want 5 and %d", served, limited, flood-5)
	}
	if c := tb.firstAnswer(other); c.Content() != "ok check" {
		t.Errorf("another user got %q during the flood", c.Content())
	}
}

func TestOneHeavyJobPerUserAndQueueBound(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	h := &scriptHandler{
		plan: heavy,
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return commands.Response{Content: "done"}
		},
	}
	tb := newTestBot(t, h, func(c *Config) {
		c.Workers, c.Queue = 1, 1
		c.SolveTimeout, c.DeferAfter = 5*time.Second, 150*time.Millisecond
	})

	first := tb.slash(alice, "solve")
	tb.firstAnswer(first) // deferred: alice's job holds the only worker
	if c := tb.firstAnswer(tb.slash(alice, "solve")); !strings.Contains(c.Content(), "still working on your previous puzzle") || !c.Ephemeral() {
		t.Errorf("second job of the same user: %q", c.Content())
	}
	// One of bob and carol fits in the queue, the other is turned away;
	// which one depends on which event discordgo hands over first.
	carol := fakediscord.User{ID: "13", Username: "carol"}
	pb, pc := tb.slash(bob, "solve"), tb.slash(carol, "solve")
	var queued fakediscord.Pending
	refused := 0
	for _, p := range []fakediscord.Pending{pb, pc} {
		c := tb.firstAnswer(p)
		switch {
		case c.CallbackType() == 4 && c.Content() == commands.QueuedNotice(1):
			queued = p // told its place in line at once
		case strings.Contains(c.Content(), "busy") && strings.Contains(c.Content(), "try again in") && c.Ephemeral():
			refused++
		default:
			t.Errorf("answer %d %q", c.CallbackType(), c.Content())
		}
	}
	if refused != 1 || queued.ID == "" {
		t.Fatalf("%d refused, queued %q; want one of each", refused, queued.ID)
	}
	free()
	if c := tb.finalAnswer(first); c.Content() != "done" {
		t.Errorf("first final %q", c.Content())
	}
	if c := tb.finalAnswer(queued); c.Content() != "done" {
		t.Errorf("queued final %q", c.Content())
	}
}

func TestRepeatedDeadlinesCoolDown(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: heavy,
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			<-ctx.Done()
			return commands.Response{Content: "stopped"}
		},
	}
	tb := newTestBot(t, h, func(c *Config) {
		c.SolveTimeout = 50 * time.Millisecond
		c.DeferAfter = time.Second
		c.Strikes = 2
		c.Cooldown = time.Minute
	})
	for i := range 2 {
		// The handler's "stopped", or on a starved machine the bot's own.
		if c := tb.firstAnswer(tb.slash(alice, "solve")); !strings.Contains(c.Content(), "topped") {
			t.Fatalf("job %d: %q", i, c.Content())
		}
		// The in-flight slot is freed right after the answer is sent; wait
		// for it so the next request is judged on strikes alone.
		eventually(t, "alice's slot to free", func() bool { return !tb.bot.limits.busy(alice.ID) })
	}
	c := tb.firstAnswer(tb.slash(alice, "solve"))
	if !strings.Contains(c.Content(), "pausing you") || !strings.Contains(c.Content(), "try again in 60 s") || !c.Ephemeral() {
		t.Errorf("after two deadline hits: %q", c.Content())
	}
	if c := tb.firstAnswer(tb.slash(bob, "solve")); !strings.Contains(c.Content(), "topped") {
		t.Errorf("another user: %q", c.Content())
	}
}

func TestHandlerPanicIsAnswered(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{handle: func(ctx context.Context, req commands.Request) commands.Response {
		if req.Command == "boom" {
			var m map[string]int
			//lint:ignore SA5000 the test needs a real runtime panic, not a call to panic
			m["x"]++ // nil map write: a runtime panic
		}
		return commands.Response{Content: "fine"}
	}}
	tb := newTestBot(t, h, nil)
	p := tb.slash(alice, "boom")
	c := tb.firstAnswer(p)
	if !strings.Contains(c.Content(), "went wrong") || !strings.Contains(c.Content(), p.ID) || !c.Ephemeral() {
		t.Errorf("panic answer %q", c.Content())
	}
	if !strings.Contains(tb.logs.String(), "panic handling "+p.ID) {
		t.Errorf("log lacks the interaction id:\n%s", tb.logs)
	}
	if c := tb.firstAnswer(tb.slash(alice, "other")); c.Content() != "fine" {
		t.Errorf("after the panic: %q", c.Content())
	}
}

func TestMalformedPayloads(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{}
	tb := newTestBot(t, h, nil)
	f := tb.fake

	mustNil := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustNil(f.SendRaw([]byte(`{"op":0,"t":"INTERACTION_CREATE","s":`)))    // cut short
	mustNil(f.SendRaw([]byte(`not json at all`)))                          // not JSON
	mustNil(f.Dispatch("INTERACTION_CREATE", json.RawMessage(`null`)))     // null data
	mustNil(f.Dispatch("INTERACTION_CREATE", json.RawMessage(`{"id":5}`))) // wrong type
	mustNil(f.Dispatch("MESSAGE_CREATE", json.RawMessage(`null`)))         // nil message
	mustNil(f.Dispatch("MESSAGE_CREATE", json.RawMessage(`{"id":"1","author":null,"content":"<@100>"}`)))
	mustNil(f.Dispatch("MESSAGE_CREATE", json.RawMessage(`{"id":"2","channel_id":"3","author":{"id":7},"mentions":[null]}`)))
	mustNil(f.Dispatch("UNKNOWN_EVENT", map[string]any{"x": 1}))

	// Interactions whose data are of the wrong shape, each must be
	// answered (they have a token) or ignored, never crash the bot.
	bad := []struct {
		name string
		body func(id, token string) string
	}{
		{"command data is a string", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":2,"application_id":"100","channel_id":"3","user":{"id":"11"},"data":"oops"}`, id, tok)
		}},
		{"bool option holds a string", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":2,"application_id":"100","channel_id":"3","user":{"id":"11"},"data":{"name":"solve","type":1,"options":[{"name":"private","type":5,"value":"yes"},{"name":"n","type":4,"value":{"a":1}},null]}}`, id, tok)
		}},
		{"no user", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":2,"application_id":"100","channel_id":"3","data":{"name":"solve","type":1}}`, id, tok)
		}},
		{"member without user", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":2,"application_id":"100","guild_id":"500","channel_id":"3","member":{"permissions":"8"},"data":{"name":"solve","type":1}}`, id, tok)
		}},
		{"component without data", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":3,"application_id":"100","channel_id":"3","user":{"id":"11"},"message":null}`, id, tok)
		}},
		{"modal with odd components", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":5,"application_id":"100","channel_id":"3","user":{"id":"11"},"data":{"custom_id":"m","components":[{"type":99}]}}`, id, tok)
		}},
		{"message command without resolved", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":2,"application_id":"100","channel_id":"3","user":{"id":"11"},"data":{"name":"Solve Sudoku","type":3,"target_id":"9"}}`, id, tok)
		}},
		{"unknown interaction type", func(id, tok string) string {
			return fmt.Sprintf(`{"id":%q,"token":%q,"type":42,"application_id":"100","channel_id":"3","user":{"id":"11"}}`, id, tok)
		}},
	}
	for _, b := range bad {
		p, err := f.InteractRaw(func(id, tok string) json.RawMessage { return json.RawMessage(b.body(id, tok)) })
		mustNil(err)
		c := tb.firstAnswer(p)
		if c.CallbackType() != 4 {
			t.Errorf("%s: answer type %d", b.name, c.CallbackType())
		}
		t.Logf("%s → %q", b.name, c.Content())
	}
	// The mistyped options were dropped, the good request still served.
	for _, r := range h.requests() {
		if _, ok := r.Options["n"]; ok {
			t.Errorf("an object-valued option reached the handler: %+v", r.Options)
		}
	}
	// Still alive and answering.
	if c := tb.firstAnswer(tb.slash(alice, "help")); c.Content() != "ok help" {
		t.Errorf("after malformed payloads: %q", c.Content())
	}
}

func TestGatewayDropResumes(t *testing.T) {
	t.Parallel()
	tb := newTestBot(t, &scriptHandler{}, nil)
	if c := tb.firstAnswer(tb.slash(alice, "help")); c.Content() != "ok help" {
		t.Fatalf("before the drop: %q", c.Content())
	}
	tb.fake.Drop()
	// An event sent while the connection is down is replayed after Resume.
	missed := tb.slash(alice, "missed")
	if !tb.fake.WaitSessions(waitLong, 1, 1) {
		id, res, _ := tb.fake.Sessions()
		t.Fatalf("no resume after the drop (identifies %d, resumes %d)\n%s", id, res, tb.logs)
	}
	if c := tb.firstAnswer(missed); c.Content() != "ok missed" {
		t.Errorf("missed event: %q", c.Content())
	}
	if c := tb.firstAnswer(tb.slash(bob, "after")); c.Content() != "ok after" {
		t.Errorf("after the resume: %q", c.Content())
	}
	if id, _, _ := tb.fake.Sessions(); id != 1 {
		t.Errorf("identifies %d, want 1 (resumed, not re-identified)", id)
	}
}

func TestMentionsAndReplies(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan {
			// As commands.Service: only mentions, and grids in channel 301
			// (watched), deserve work.
			return commands.Plan{Heavy: true, Ignore: !req.Mentioned && (req.ChannelID != "301" || !strings.Contains(req.Text, "grid"))}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if req.Text == "" {
				return commands.Response{}
			}
			return commands.Response{Content: "got: " + req.Text, Ephemeral: true}
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.MaxAttachmentBytes = 100 })
	f := tb.fake
	me := f.BotUser()

	wait := func(ref string) fakediscord.Call {
		t.Helper()
		c, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool {
			return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"`+ref+`"`)
		})
		if err != nil {
			t.Fatalf("no reply to %s: %v\n%s", ref, err, tb.logs)
		}
		return c
	}

	// A mention with the grid in it.
	m := fakediscord.Message("m1", "300", "500", alice, "<@"+me.ID+"> 12.4")
	m["mentions"] = []any{me}
	f.Dispatch("MESSAGE_CREATE", m)
	c := wait("m1")
	if c.Content() != "got: 12.4" || c.Path != "/api/v9/channels/300/messages" || c.Ephemeral() {
		t.Errorf("reply %s %q", c.Path, c.Content())
	}

	// A mention in a reply to a message Discord did not include: fetched.
	f.AddMessage("300", map[string]any{"id": "g1", "content": "the grid", "author": bob})
	m = fakediscord.Message("m2", "300", "500", alice, "<@!"+me.ID+"> please")
	m["message_reference"] = map[string]any{"message_id": "g1", "channel_id": "300"}
	f.Dispatch("MESSAGE_CREATE", m)
	if c := wait("m2"); c.Content() != "got: please\n\nthe grid" {
		t.Errorf("reply to a reply: %q", c.Content())
	}
	if _, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.Method == "GET" && c.Path == "/api/v9/channels/300/messages/g1"
	}); err != nil {
		t.Error("referenced message not fetched")
	}

	// A .txt attachment, served by the fake through DISCORD_API_BASE.
	m = fakediscord.Message("m3", "300", "500", alice, "<@"+me.ID+">")
	m["attachments"] = []any{f.AddAttachment("grid.txt", "text/plain", []byte("from file"))}
	f.Dispatch("MESSAGE_CREATE", m)
	if c := wait("m3"); c.Content() != "got: from file" {
		t.Errorf("attachment: %q", c.Content())
	}
	// Too big.
	m = fakediscord.Message("m4", "300", "500", alice, "<@"+me.ID+">")
	m["attachments"] = []any{f.AddAttachment("big.txt", "text/plain", bytes.Repeat([]byte("x"), 500))}
	f.Dispatch("MESSAGE_CREATE", m)
	if c := wait("m4"); !strings.Contains(c.Content(), "big.txt") || !strings.Contains(c.Content(), "at most") {
		t.Errorf("big attachment: %q", c.Content())
	}
	// An attachment on a foreign host is not fetched.
	m = fakediscord.Message("m5", "300", "500", alice, "<@"+me.ID+">")
	m["attachments"] = []any{map[string]any{"id": "9", "filename": "x.txt", "url": "http://169.254.169.254/latest", "size": 3}}
	f.Dispatch("MESSAGE_CREATE", m)
	if c := wait("m5"); !strings.Contains(c.Content(), "couldn't read") {
		t.Errorf("foreign attachment: %q", c.Content())
	}

	// A reply to one of the bot's messages counts as a mention.
	m = fakediscord.Message("m7", "300", "500", alice, "and this one?")
	m["message_reference"] = map[string]any{"message_id": "b1", "channel_id": "300"}
	m["referenced_message"] = map[string]any{"id": "b1", "channel_id": "300", "content": "solved!", "author": me}
	f.Dispatch("MESSAGE_CREATE", m)
	if c := wait("m7"); c.Content() != "got: and this one?\n\nsolved!" {
		t.Errorf("reply to the bot: %q", c.Content())
	}
	// A grid in a watched channel, no mention.
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("w1", "301", "500", alice, "a grid"))
	if c := wait("w1"); c.Content() != "got: a grid" {
		t.Errorf("watched channel: %q", c.Content())
	}

	// Not mentioned, from a bot, from itself, an empty answer: no reply.
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("n1", "300", "500", alice, "12.4 no mention"))
	botMsg := fakediscord.Message("n2", "300", "500", fakediscord.User{ID: "99", Username: "otherbot", Bot: true}, "<@"+me.ID+"> hi")
	f.Dispatch("MESSAGE_CREATE", botMsg)
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("n3", "300", "500", me, "<@"+me.ID+"> echo"))
	// n4 is a heavy mention with nothing to answer. It comes from its own
	// user: discordgo runs each handler on its own goroutine, so two of
	// Alice's heavy messages sent back to back would race for her one slot
	// and the loser would be told to wait.
	carol := fakediscord.User{ID: "13", Username: "carol", Discriminator: "0"}
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("n4", "300", "500", carol, "<@"+me.ID+">"))
	// A marker message proves the ones before it were processed.
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("m6", "300", "500", alice, "<@"+me.ID+"> marker"))
	wait("m6")
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("n5", "301", "500", alice, "chatter in a watched channel"))
	f.Dispatch("MESSAGE_CREATE", fakediscord.Message("m8", "300", "500", alice, "<@"+me.ID+"> marker"))
	wait("m8")
	// n1, n4 and n5 reach the handler's Plan; once planned, any reply
	// would follow at once. (n2 and n3 leave no trace by design; the
	// marker is their best-effort witness.)
	eventually(t, "n1, n4, n5 planned", func() bool { return h.planned("n1") && h.planned("n4") && h.planned("n5") })
	if _, err := f.WaitCall(200*time.Millisecond, func(c fakediscord.Call) bool {
		return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"n`)
	}); err == nil {
		t.Error("a message that should be ignored got a reply")
	}
	for _, c := range f.Calls() {
		for _, id := range []string{"n1", "n2", "n3", "n4", "n5"} {
			if c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"`+id+`"`) {
				t.Errorf("replied to %s: %q", id, c.Content())
			}
		}
	}
}

func TestMessageCommandReadsTargetAndAttachment(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{handle: func(ctx context.Context, req commands.Request) commands.Response {
		return commands.Response{Content: fmt.Sprintf("%d %s|%s", req.Kind, req.Command, req.Text)}
	}}
	tb := newTestBot(t, h, nil)
	target := map[string]any{"id": "t1", "channel_id": "300", "content": "grid text", "author": bob,
		"attachments": []any{tb.fake.AddAttachment("more.txt", "text/plain; charset=utf-8", []byte("file text"))}}
	p := tb.interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.MessageCommand("Solve Sudoku", target)})
	c := tb.firstAnswer(p)
	if want := fmt.Sprintf("%d Solve Sudoku|grid text\n\nfile text", commands.MessageCommand); c.Content() != want {
		t.Errorf("answer %q, want %q", c.Content(), want)
	}
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	h := &scriptHandler{
		plan: heavy,
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			started <- struct{}{}
			<-release
			return commands.Response{Content: "finished in flight"}
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.SolveTimeout = 5 * time.Second; c.DeferAfter = 150 * time.Millisecond })
	p := tb.slash(alice, "solve")
	<-started
	tb.firstAnswer(p) // deferred
	done := make(chan error, 1)
	go func() { done <- tb.shutdown() }()
	// New work during shutdown is turned away politely.
	eventually(t, "the bot to start stopping", func() bool {
		tb.bot.mu.Lock()
		defer tb.bot.mu.Unlock()
		return tb.bot.stopping
	})
	late := tb.slash(bob, "solve")
	if c := tb.firstAnswer(late); !strings.Contains(c.Content(), "restarting") {
		t.Errorf("during shutdown: %q", c.Content())
	}
	select {
	case <-done:
		t.Fatal("Run returned with a reply in flight")
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Errorf("Run = %v, want nil after a clean shutdown", err)
	}
	if c := tb.finalAnswer(p); c.Content() != "finished in flight" {
		t.Errorf("in-flight reply %q", c.Content())
	}
	if tb.fake.Connected() {
		t.Error("gateway still connected after shutdown")
	}
}

func TestRejectedTokenIsExplained(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.Options{Token: "the-right-one"})
	logs := &syncBuffer{}
	b, err := New(Config{Token: "a-wrong-one", APIBase: fake.URL()}, &scriptHandler{}, log.New(logs, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	err = b.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "rejected DISCORD_TOKEN") {
		t.Errorf("Run with a wrong token = %v, want an error explaining the token was rejected", err)
	}
	if strings.Contains(fmt.Sprint(err)+logs.String(), "a-wrong-one") {
		t.Error("the token appears in the error or the log")
	}
}

// TestShutdownWithinWait: with many jobs in flight, some of them ignoring
// their context, Run returns within SHUTDOWN_WAIT in all, and every job
// cut short is answered "restarting".
func TestShutdownWithinWait(t *testing.T) {
	// It measures time: not in parallel with other tests.
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	h := &scriptHandler{
		plan: heavy,
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if req.Options["mode"] == "stubborn" {
				<-block // ignores ctx
			} else {
				<-ctx.Done()
			}
			return commands.Response{Content: "finished"}
		},
	}
	const wait = 2 * time.Second
	tb := newTestBot(t, h, func(c *Config) {
		c.SolveTimeout, c.DeferAfter, c.ShutdownWait = 30*time.Second, 100*time.Millisecond, wait
		c.Workers, c.Queue = 2, 64
	})
	var ps []fakediscord.Pending
	for i := range 32 {
		mode := "polite"
		if i%2 == 0 {
			mode = "stubborn"
		}
		ps = append(ps, tb.slash(fakediscord.User{ID: fmt.Sprint("s", i), Username: "u"}, "solve", fakediscord.Str("mode", mode)))
	}
	for _, p := range ps {
		tb.firstAnswer(p) // deferred, or told its place in line
	}
	start := time.Now()
	if err := tb.shutdown(); err != nil {
		t.Errorf("Run = %v", err)
	}
	took := time.Since(start)
	t.Logf("32 jobs in flight: SIGTERM to exit %s (SHUTDOWN_WAIT %s)", took.Round(time.Millisecond), wait)
	if took > wait {
		t.Errorf("shutdown took %s, over SHUTDOWN_WAIT %s", took, wait)
	}
	for _, p := range ps {
		if c := tb.finalAnswer(p); c.Content() != commands.RestartingNotice {
			t.Errorf("job cut short answered %q, want %q", c.Content(), commands.RestartingNotice)
		}
	}
}

// TestCheapOverrunMovesToSlowLane: work planned cheap that runs past the
// fast lane's budget is cancelled there and run again in the slow lane,
// with the whole deadline; the user gets the second run's answer.
func TestCheapOverrunMovesToSlowLane(t *testing.T) {
	t.Parallel()
	var runs sync.Map
	h := &scriptHandler{
		plan: func(commands.Request) commands.Plan { return commands.Plan{Heavy: true, Cheap: true} },
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if _, again := runs.LoadOrStore(req.ID, true); !again {
				<-ctx.Done() // the first run overruns the budget
				return commands.Response{Content: "cut short"}
			}
			return commands.Response{Content: "done in the slow lane"}
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.SolveTimeout = 5 * time.Second; c.DeferAfter = 200 * time.Millisecond })
	p := tb.slash(alice, "solve")
	if c := tb.finalAnswer(p); c.Content() != "done in the slow lane" || c.Since < fastBudget {
		t.Errorf("answer %q after %s, want the slow lane's after the %s budget", c.Content(), c.Since, fastBudget)
	}
	if !strings.Contains(tb.logs.String(), "moved to the slow lane") {
		t.Errorf("the move was not logged:\n%s", tb.logs)
	}
}
