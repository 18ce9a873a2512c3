package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// End-to-end: the real commands.Service behind the real discordgo session,
// against the fake Discord. These check what a user would see, through
// every layer.

// The Service is the bot's Handler.
var _ Handler = (*commands.Service)(nil)

const (
	uniquePuzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	uniqueAnswer = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
	multiPuzzle  = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
	clashPuzzle  = "55..............................................................................."
)

// newServiceBot is a bot serving the real commands with the deadline
// timeout. Outside the deadline test it is the production 5 s: under -race
// on a loaded machine, drawing a PNG alone can take a few hundred ms.
func newServiceBot(t *testing.T, timeout time.Duration, mod func(*Config)) *testBot {
	t.Helper()
	svc := commands.New(commands.Config{SolveTimeout: timeout, Settings: commands.NewMemSettings()})
	return newTestBot(t, svc, func(c *Config) {
		c.SolveTimeout = timeout
		if mod != nil {
			mod(c)
		}
	})
}

// text is everything a message call shows: content, embed titles,
// descriptions, fields and footers.
func text(c fakediscord.Call) string {
	m, _ := c.Message()
	var b strings.Builder
	s, _ := m["content"].(string)
	b.WriteString(s)
	embeds, _ := m["embeds"].([]any)
	for _, e := range embeds {
		e, _ := e.(map[string]any)
		for _, k := range []string{"title", "description"} {
			s, _ := e[k].(string)
			b.WriteString("\n" + s)
		}
		fields, _ := e["fields"].([]any)
		for _, f := range fields {
			f, _ := f.(map[string]any)
			n, _ := f["name"].(string)
			v, _ := f["value"].(string)
			b.WriteString("\n" + n + ": " + v)
		}
		if f, ok := e["footer"].(map[string]any); ok {
			s, _ := f["text"].(string)
			b.WriteString("\n" + s)
		}
	}
	return b.String()
}

// buttons maps the labels of a message's buttons to their custom ids.
func buttons(c fakediscord.Call) map[string]string {
	m, _ := c.Message()
	return messageButtons(m)
}

// messageButtons maps the labels of message m's buttons to their custom
// ids, nested ones included.
func messageButtons(m map[string]any) map[string]string {
	out := map[string]string{}
	walkComponents(m["components"], func(b map[string]any) {
		if t, _ := b["type"].(float64); t == 2 {
			l, _ := b["label"].(string)
			id, _ := b["custom_id"].(string)
			out[l] = id
		}
	})
	return out
}

// walkComponents calls f on every component of cs (a message's
// "components"), nested ones included (rows' buttons, containers'
// blocks, a section's texts and accessory), in reading order.
func walkComponents(cs any, f func(map[string]any)) {
	list, _ := cs.([]any)
	for _, c := range list {
		c, _ := c.(map[string]any)
		if c == nil {
			continue
		}
		f(c)
		walkComponents(c["components"], f)
		if a, ok := c["accessory"].(map[string]any); ok {
			f(a)
		}
	}
}

// wantImage checks that c shows a board image: one uploaded PNG that
// decodes, shown by an embed (attachment://).
func wantImage(t *testing.T, c fakediscord.Call) {
	t.Helper()
	if len(c.Files) == 0 {
		t.Errorf("no board image uploaded with %q", text(c))
		return
	}
	if n := decodePNGs(t, c); n != 1 {
		t.Errorf("%d PNGs decoded, want 1", n)
	}
	if !strings.Contains(string(c.Body), "attachment://"+c.Files[0].Name) {
		t.Errorf("no embed shows attachment://%s", c.Files[0].Name)
	}
}

// wantBoard checks that c shows a board: an image (see wantImage) or, when
// the commands chose text, a code block.
func wantBoard(t *testing.T, c fakediscord.Call) {
	t.Helper()
	if len(c.Files) == 0 {
		if !strings.Contains(text(c), "```") {
			t.Errorf("no board image and no text board in %q", text(c))
		}
		return
	}
	wantImage(t, c)
}

// decodePNGs decodes every PNG a call uploads and returns how many.
func decodePNGs(t *testing.T, c fakediscord.Call) int {
	t.Helper()
	n := 0
	for _, f := range c.Files {
		if f.ContentType != "image/png" {
			continue
		}
		img, err := png.Decode(bytes.NewReader(f.Data))
		if err != nil {
			t.Errorf("%s does not decode: %v", f.Name, err)
			continue
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("%s is %dx%d, too small for a board", f.Name, b.Dx(), b.Dy())
		}
		n++
	}
	return n
}

// answer waits for the message that answers p, whether it came at once or
// after a deferral.
func (tb *testBot) answer(p fakediscord.Pending) fakediscord.Call {
	tb.t.Helper()
	c := tb.firstAnswer(p)
	if t := c.CallbackType(); t == 5 || t == 6 || (t == 4 && isQueuedNotice(c)) {
		return tb.finalAnswer(p)
	}
	return c
}

func TestE2ESlashCommands(t *testing.T) {
	t.Parallel()
	tb := newServiceBot(t, 5*time.Second, nil)
	// Registered what the Service specifies.
	names := map[string]bool{}
	for _, c := range tb.fake.Registered("") {
		names[c["name"].(string)] = true
	}
	for _, want := range []string{"solve", "hint", "check", "generate", "help", "Solve Sudoku", "Sudoku hint", "Check Sudoku"} {
		if !names[want] {
			t.Errorf("command %q not registered (got %v)", want, names)
		}
	}

	t.Run("help", func(t *testing.T) {
		c := tb.answer(tb.slash(alice, "help"))
		if !strings.Contains(text(c), "/solve") || !strings.Contains(text(c), "/hint") {
			t.Errorf("/help says %q", text(c))
		}
	})
	t.Run("solve image", func(t *testing.T) {
		c := tb.answer(tb.slash(alice, "solve", fakediscord.Str("puzzle", uniquePuzzle)))
		if !strings.Contains(text(c), uniqueAnswer) || c.Ephemeral() {
			t.Errorf("/solve says %q (ephemeral %v), want the public one-line solution", text(c), c.Ephemeral())
		}
		wantImage(t, c)
	})
	t.Run("solve text private", func(t *testing.T) {
		c := tb.answer(tb.slash(bob, "solve", fakediscord.Str("puzzle", uniquePuzzle), fakediscord.Str("output", "text"), fakediscord.Bool("private", true)))
		if !strings.Contains(text(c), "```") || !strings.Contains(text(c), uniqueAnswer) || !c.Ephemeral() || len(c.Files) != 0 {
			t.Errorf("/solve output:text private:true = %q, ephemeral %v, %d files", text(c), c.Ephemeral(), len(c.Files))
		}
	})
	t.Run("clash", func(t *testing.T) {
		c := tb.answer(tb.slash(alice, "solve", fakediscord.Str("puzzle", clashPuzzle)))
		// The two clashing cells are named (and, in an image, marked).
		if !c.Ephemeral() || !strings.Contains(text(c), "A1") || !strings.Contains(text(c), "A2") {
			t.Errorf("clash answer %q ephemeral %v", text(c), c.Ephemeral())
		}
	})
	t.Run("several solutions", func(t *testing.T) {
		c := tb.answer(tb.slash(bob, "solve", fakediscord.Str("puzzle", multiPuzzle)))
		if !strings.Contains(text(c), "more than one solution") && !strings.Contains(text(c), "More than one solution") {
			t.Errorf("non-unique answer %q", text(c))
		}
	})
	t.Run("check", func(t *testing.T) {
		c := tb.answer(tb.slash(alice, "check", fakediscord.Str("puzzle", multiPuzzle)))
		if !strings.Contains(text(c), "2 or more") || !strings.Contains(text(c), "34") {
			t.Errorf("/check says %q", text(c))
		}
	})
	t.Run("hint and its buttons", func(t *testing.T) {
		c := tb.answer(tb.slash(alice, "hint", fakediscord.Str("puzzle", uniquePuzzle)))
		if !c.Ephemeral() {
			t.Error("/hint is not ephemeral")
		}
		bs := buttons(c)
		for _, l := range []string{"More", "Show step", "Next hint"} {
			if bs[l] == "" {
				t.Fatalf("/hint buttons %v lack %q", bs, l)
			}
		}
		level1 := text(c)
		more := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button(bs["More"])}))
		if text(more) == "" || text(more) == level1 {
			t.Errorf("More gave %q after %q", text(more), level1)
		}
		step := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button(bs["Show step"])}))
		wantImage(t, step)
		next := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button(bs["Next hint"])}))
		if text(next) == "" {
			t.Error("Next hint said nothing")
		}
	})
	t.Run("generate", func(t *testing.T) {
		c := tb.answer(tb.slash(bob, "generate", fakediscord.Str("level", "easy")))
		if text(c) == "" {
			t.Fatal("/generate said nothing")
		}
		if id := buttons(c)["Solution"]; id != "" {
			sol := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.MessageComponent, GuildID: "500", Data: fakediscord.Button(id)}))
			if !sol.Ephemeral() {
				t.Errorf("the Solution button answered publicly: %q", text(sol))
			}
		} else {
			t.Logf("/generate offered no Solution button (generator not built?): %q", text(c))
		}
	})
}

func TestE2EModalPath(t *testing.T) {
	t.Parallel()
	tb := newServiceBot(t, 5*time.Second, nil)
	for _, cmd := range []string{"solve", "hint", "check"} {
		t.Run(cmd, func(t *testing.T) {
			c := tb.firstAnswer(tb.slash(alice, cmd))
			var modal struct {
				Type int `json:"type"`
				Data struct {
					CustomID   string `json:"custom_id"`
					Components []struct {
						Components []struct {
							CustomID string `json:"custom_id"`
							Style    int    `json:"style"`
						} `json:"components"`
					} `json:"components"`
				} `json:"data"`
			}
			if err := c.Decode(&modal); err != nil || modal.Type != 9 || len(modal.Data.Components) == 0 {
				t.Fatalf("/%s without a puzzle answered %s, want a modal", cmd, c.Body)
			}
			input := modal.Data.Components[0].Components[0]
			if input.Style != 2 {
				t.Errorf("input style %d, want paragraph (2)", input.Style)
			}
			// Paste a multi-line grid into it.
			var grid strings.Builder
			for r := range 9 {
				grid.WriteString(uniquePuzzle[r*9:r*9+9] + "\n")
			}
			p := tb.interact(fakediscord.Interaction{Type: fakediscord.ModalSubmit, GuildID: "500",
				Data: fakediscord.Modal(modal.Data.CustomID, map[string]string{input.CustomID: grid.String()})})
			got := tb.answer(p)
			if text(got) == "" {
				t.Fatalf("modal submit for /%s said nothing", cmd)
			}
			if cmd == "solve" && !strings.Contains(text(got), uniqueAnswer) {
				t.Errorf("solve via modal: %q", text(got))
			}
		})
	}
}

func TestE2EMessageCommandsAndMentions(t *testing.T) {
	t.Parallel()
	tb := newServiceBot(t, 5*time.Second, nil)
	f := tb.fake
	target := map[string]any{"id": "t1", "channel_id": "300", "author": bob,
		"content": uniquePuzzle}
	for _, name := range []string{"Solve Sudoku", "Sudoku hint", "Check Sudoku"} {
		c := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.MessageCommand(name, target)}))
		if text(c) == "" {
			t.Errorf("%s said nothing", name)
		}
		if name == "Solve Sudoku" && !strings.Contains(text(c), uniqueAnswer) {
			t.Errorf("Solve Sudoku: %q", text(c))
		}
	}
	// The grid in a .txt attachment of the target.
	att := f.AddAttachment("puzzle.txt", "text/plain; charset=utf-8", []byte(uniquePuzzle+"\n"))
	target = map[string]any{"id": "t2", "channel_id": "300", "author": bob, "content": "", "attachments": []any{att}}
	c := tb.answer(tb.interact(fakediscord.Interaction{Type: fakediscord.ApplicationCommand, GuildID: "500", Data: fakediscord.MessageCommand("Solve Sudoku", target)}))
	if !strings.Contains(text(c), uniqueAnswer) {
		t.Errorf("Solve Sudoku on a .txt attachment: %q", text(c))
	}

	// A mention with a grid: solved in place, as a reply with an image.
	me := f.BotUser()
	m := fakediscord.Message("m1", "300", "500", alice, "<@"+me.ID+"> "+uniquePuzzle)
	m["mentions"] = []any{me}
	if err := f.Dispatch("MESSAGE_CREATE", m); err != nil {
		t.Fatal(err)
	}
	reply, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool { return c.IsChannelMessage() })
	if err != nil {
		t.Fatalf("no reply to the mention: %v", err)
	}
	var body struct {
		Ref struct {
			MessageID string `json:"message_id"`
		} `json:"message_reference"`
	}
	reply.Decode(&body)
	if body.Ref.MessageID != "m1" || !strings.Contains(text(reply), uniqueAnswer) {
		t.Errorf("mention reply to %q: %q", body.Ref.MessageID, text(reply))
	}
	wantImage(t, reply)
}

func TestE2EHard25HitsDeadline(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/hard25.txt")
	if err != nil {
		t.Fatal(err)
	}
	puzzle := strings.TrimSpace(string(data))
	// Long enough for the other user's check to finish meanwhile on a
	// loaded machine (3 s under -race), short enough for a quick test.
	deadline := time.Second
	if raceEnabled {
		deadline = 3 * time.Second
	}
	tb := newServiceBot(t, deadline, func(c *Config) { c.DeferAfter = 100 * time.Millisecond })

	p := tb.slash(alice, "solve", fakediscord.Str("puzzle", puzzle))
	first := tb.firstAnswer(p)
	if first.CallbackType() != 5 {
		t.Fatalf("first answer to a hard 25x25: type %d, want 5 (deferred)", first.CallbackType())
	}
	// The bot answers others, heavy jobs too, while the search runs.
	other := tb.answer(tb.slash(bob, "check", fakediscord.Str("puzzle", uniquePuzzle)))
	if !strings.Contains(text(other), "Clues: 30") {
		t.Errorf("meanwhile: %q", text(other))
	}
	// At the deadline: the stopped notice, or, when the search found a
	// solution in time (it does in about 2.5 s on a quiet machine without
	// -race) but not the proof that it is the only one, that solution.
	final := tb.finalAnswer(p)
	if got := text(final); !strings.Contains(got, fmt.Sprintf("topped after %d s", int(deadline.Seconds()))) ||
		!strings.Contains(got, "too hard") && !strings.Contains(got, "before I could check that it is the only one") {
		t.Errorf("after the deadline: %q", got)
	}
	if other.At.After(final.At) {
		t.Errorf("the other user was answered only after the 25x25 finished")
	}
}

func TestE2EFloodAndMalformed(t *testing.T) {
	t.Parallel()
	tb := newServiceBot(t, 5*time.Second, func(c *Config) { c.RateBurst = 5; c.RatePerMinute = 20 })
	// /help is light, so only the token bucket (burst 5) applies: the
	// test stays cheap under -race. The in-flight limit of heavy jobs is
	// covered with a scripted handler in TestOneHeavyJobPerUserAndQueueBound.
	var ps []fakediscord.Pending
	for range 50 {
		ps = append(ps, tb.slash(alice, "help"))
	}
	tb.fake.InteractRaw(func(id, tok string) json.RawMessage {
		return json.RawMessage(`{"id":"` + id + `","token":"` + tok + `","type":2,"application_id":"100","user":{"id":"14"},"data":{"name":"solve","type":1,"options":[{"name":"puzzle","type":3,"value":17}]}}`)
	})
	limited, served := 0, 0
	for _, p := range ps {
		c := tb.answer(p)
		switch {
		case strings.Contains(c.Content(), "try again in") && c.Ephemeral():
			limited++
		case strings.Contains(text(c), "/solve"):
			served++
		default:
			t.Errorf("flood answer %q", text(c))
		}
	}
	if served != 5 || limited != 45 {
		t.Errorf("served %d, limited %d of 50; want 5 and 45", served, limited)
	}
	if c := tb.answer(tb.slash(bob, "solve", fakediscord.Str("puzzle", uniquePuzzle))); !strings.Contains(text(c), uniqueAnswer) {
		t.Errorf("bob during alice's flood: %q", text(c))
	}
}
