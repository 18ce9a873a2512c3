package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// scoreboard is a race's scoreboard as Components V2: a container with an
// accent colour, a title, a separator, a section per player with a
// button, the board's picture, and a row of buttons below.
func scoreboard(move int) commands.Response {
	c := commands.Container{Accent: 0x2B7A78, Blocks: []commands.Block{
		commands.TextBlock{Text: fmt.Sprintf("## Race #7 — move %d", move)},
		commands.Separator{},
		commands.Section{Texts: []string{"**alice** 41/51 filled", "0 mistakes · 1 hint"}, Button: &commands.Button{Label: "Watch", CustomID: "race:watch:7:alice"}},
		commands.Section{Texts: []string{"**bob** 12/51 filled"}, Thumbnail: &commands.Media{URL: "attachment://board.png", Description: "bob's progress"}},
		commands.Gallery{Items: []commands.Media{{URL: "attachment://board.png", Description: "the starting grid"}}},
	}}
	return commands.Response{
		Blocks:     []commands.Block{c, commands.TextBlock{Text: "-# updated live"}},
		Components: []commands.ActionRow{{Buttons: []commands.Button{{Label: "Leave", CustomID: "race:leave:7", Style: commands.Danger}}}},
		Files:      []commands.File{{Name: "board.png", ContentType: "image/png", Data: []byte("\x89PNG fake")}},
		Content:    "ignored beside blocks",
		Embeds:     []commands.Embed{{Title: "ignored too"}},
	}
}

// TestLayoutThroughTheFake sends a V2 scoreboard, then edits it, through
// the strict fake: any refusal fails the test.
func TestLayoutThroughTheFake(t *testing.T) {
	t.Parallel()
	f, c := newTestChannels(t, fakediscord.Options{})
	ctx := context.Background()
	id, err := c.Post(ctx, "60", scoreboard(1))
	if err != nil {
		t.Fatalf("Post: %v", err)
	}
	if err := c.Edit(ctx, "60", id, scoreboard(2)); err != nil {
		t.Fatalf("Edit: %v", err)
	}
	m := f.Messages("60")[0]
	if fl, _ := m["flags"].(float64); int(fl)&(1<<15) == 0 || m["content"] != nil && m["content"] != "" {
		t.Errorf("message flags %v content %q", m["flags"], m["content"])
	}
	b, _ := json.Marshal(m["components"])
	for _, want := range []string{`"type":17`, `"accent_color":2849400`, "move 2", `"race:leave:7"`, `"attachment://board.png"`, `"type":14`, `"type":9`, `"type":12`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("components lack %s: %s", want, b)
		}
	}
	// The JSON carried neither content nor embeds, and the edit cleared them.
	for _, call := range f.Calls() {
		msg, ok := call.Message()
		if !ok {
			continue
		}
		if s, _ := msg["content"].(string); s != "" {
			t.Errorf("call %d sent content %q beside the V2 flag", call.Seq, s)
		}
		if e, _ := msg["embeds"].([]any); len(e) > 0 {
			t.Errorf("call %d sent embeds beside the V2 flag", call.Seq)
		}
	}
}

// TestLayoutIsClipped gives the converter a layout over every limit and
// checks Discord would take what comes out.
func TestLayoutIsClipped(t *testing.T) {
	t.Parallel()
	var texts []commands.Block
	for i := range 14 {
		texts = append(texts, commands.TextBlock{Text: strings.Repeat(fmt.Sprint(i%10), 300)})
	}
	var gallery []commands.Media
	for range 12 {
		gallery = append(gallery, commands.Media{URL: "https://example.org/a.png", Description: strings.Repeat("d", 1100)})
	}
	gallery = append(gallery, commands.Media{URL: "attachment://missing.png"}, commands.Media{URL: "ftp://x"})
	sixButtons := commands.ActionRow{}
	for i := range 6 {
		sixButtons.Buttons = append(sixButtons.Buttons, commands.Button{Label: strings.Repeat("L", 90), CustomID: fmt.Sprint("b", i)})
	}
	r := commands.Response{
		Blocks: []commands.Block{
			commands.Container{Accent: 0x1FFFFFF, Blocks: append(texts, commands.Container{Blocks: texts[:2]})},
			commands.Section{Texts: []string{"no", "accessory", "so", "plain", "texts"}},
			commands.Section{Texts: []string{"a", "b", "c", "d"}, Button: &commands.Button{Label: "Go", CustomID: "b0"}},
			commands.Gallery{Items: gallery},
			commands.Gallery{Items: []commands.Media{{URL: "attachment://missing.png"}}},
			commands.Container{},
			commands.TextBlock{Text: "   "},
			commands.Container{Blocks: texts},
			commands.Container{Blocks: texts},
			commands.Container{Blocks: texts},
		},
		Components: []commands.ActionRow{sixButtons, sixButtons, sixButtons, sixButtons, sixButtons, sixButtons},
	}
	m := toMessage(r)
	count, text := measure(m.components)
	if count > commands.MaxComponentsV2 || text > commands.MaxTextV2 || (count < commands.MaxComponentsV2 && text < commands.MaxTextV2-300) {
		t.Errorf("%d components with %d characters, want at most %d and %d (and the room used)", count, text, commands.MaxComponentsV2, commands.MaxTextV2)
	}
	_, c := newTestChannels(t, fakediscord.Options{}) // strict: a refusal fails the test
	if _, err := c.Post(context.Background(), "61", r); err != nil {
		t.Fatalf("Post of the clipped layout: %v", err)
	}
	// Short blocks: the count binds, at exactly 40.
	var short []commands.Block
	for i := range 60 {
		short = append(short, commands.Section{Texts: []string{fmt.Sprint("player ", i)}, Button: &commands.Button{Label: "x", CustomID: fmt.Sprint("p", i)}})
	}
	r = commands.Response{Blocks: []commands.Block{commands.Container{Blocks: short}}, Components: []commands.ActionRow{{Buttons: []commands.Button{{Label: "Leave", CustomID: "leave"}}}}}
	if count, _ := measure(toMessage(r).components); count != 33 { // a container of 10 sections of 3, and the row of 2
		t.Errorf("%d components, want 33", count)
	}
	r.Blocks = short
	if count, _ := measure(toMessage(r).components); count != 40 { // the row of 2, 12 sections of 3, two texts of sections with no room left for their buttons
		t.Errorf("%d components, want 40", count)
	}
	if _, err := c.Post(context.Background(), "61", r); err != nil {
		t.Fatalf("Post of 40 components: %v", err)
	}
}

// measure counts components (nested ones too) and characters of text as
// Discord does.
func measure(cs []discordgo.MessageComponent) (count, text int) {
	b, _ := json.Marshal(cs)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			if _, ok := v["type"]; ok {
				count++
			}
			for _, k := range []string{"content", "label", "description"} {
				if s, ok := v[k].(string); ok {
					text += utf8.RuneCountInString(s)
				}
			}
			for k, x := range v {
				if k == "items" || k == "components" || k == "accessory" {
					walk(x)
				}
			}
		}
	}
	var top []any
	json.Unmarshal(b, &top)
	walk(top)
	return count, text
}

// TestLayoutAnswers sends a layout as an interaction's answer, at once
// and after a deferral (an edit of @original that turns "thinking…" into
// a V2 message).
func TestLayoutAnswers(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan {
			return commands.Plan{Heavy: req.Command == "daily", Cheap: true}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if req.Command == "daily" {
				time.Sleep(150 * time.Millisecond) // past DeferAfter
			}
			return scoreboard(3)
		},
	}
	tb := newTestBot(t, h, func(c *Config) { c.DeferAfter = 50 * time.Millisecond })
	p := tb.slash(alice, "solve")
	first := tb.firstAnswer(p)
	if msg, _ := first.Message(); msg == nil || int(msg["flags"].(float64))&(1<<15) == 0 {
		t.Errorf("first answer %s, want the V2 flag", first.Body)
	}
	p = tb.slash(alice, "daily")
	final := tb.finalAnswer(p)
	orig, _ := tb.fake.Original(p.ID)
	if fl, _ := orig["flags"].(float64); !final.IsOriginalEdit() || int(fl)&(1<<15) == 0 {
		t.Errorf("deferred answer %s %s, original flags %v", final.Method, final.Body, orig["flags"])
	}
}
