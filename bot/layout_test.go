package bot

import (
	"bytes"
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
	if err := c.editAndWait(ctx, "60", id, scoreboard(2)); err != nil {
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

// FuzzLayout builds layouts from arbitrary bytes and checks the converter
// keeps every rule Discord holds a V2 message to.
func FuzzLayout(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 200, 17, 99})
	f.Add(bytes.Repeat([]byte{5, 0, 1, 2, 250}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &layoutGen{data: data}
		var blocks []commands.Block
		for range 10 {
			if b := g.block(2); b != nil {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) == 0 {
			return // not a V2 message
		}
		r := commands.Response{Blocks: blocks, Files: []commands.File{{Name: "a.png"}}}
		for range g.n(7) {
			r.Components = append(r.Components, commands.ActionRow{Buttons: g.buttons()})
		}
		m := toMessage(r)
		count, text := measure(m.components)
		if count > commands.MaxComponentsV2 || text > commands.MaxTextV2 {
			t.Fatalf("%d components, %d characters", count, text)
		}
		b, _ := json.Marshal(m.components)
		var top []any
		json.Unmarshal(b, &top)
		seen := map[string]bool{}
		var check func(v any, depth int, inContainer bool)
		check = func(v any, depth int, inContainer bool) {
			c, _ := v.(map[string]any)
			kids, _ := c["components"].([]any)
			switch c["type"] {
			case 17.0:
				if inContainer || len(kids) < 1 || len(kids) > commands.MaxContainerBlocks {
					t.Fatalf("container of %d in a container %v: %s", len(kids), inContainer, b)
				}
			case 9.0:
				if len(kids) < 1 || len(kids) > commands.MaxSectionTexts || c["accessory"] == nil {
					t.Fatalf("section of %d texts, accessory %v: %s", len(kids), c["accessory"], b)
				}
				check(c["accessory"], depth+1, inContainer)
			case 12.0:
				items, _ := c["items"].([]any)
				if len(items) < 1 || len(items) > commands.MaxGalleryItems {
					t.Fatalf("gallery of %d: %s", len(items), b)
				}
			case 10.0:
				if s, _ := c["content"].(string); strings.TrimSpace(s) == "" {
					t.Fatalf("empty text: %s", b)
				}
			case 1.0:
				if len(kids) < 1 || len(kids) > commands.MaxButtonsPerRow {
					t.Fatalf("row of %d: %s", len(kids), b)
				}
			case 2.0:
				id, _ := c["custom_id"].(string)
				if id == "" || seen[id] {
					t.Fatalf("custom id %q empty or repeated: %s", id, b)
				}
				seen[id] = true
			}
			for _, k := range kids {
				check(k, depth+1, inContainer || c["type"] == 17.0)
			}
		}
		for _, v := range top {
			check(v, 0, false)
		}
	})
}

// layoutGen draws layouts from fuzz bytes.
type layoutGen struct {
	data []byte
	i    int
}

func (g *layoutGen) n(k int) int {
	if g.i >= len(g.data) {
		return 0
	}
	g.i++
	return int(g.data[g.i-1]) % k
}

func (g *layoutGen) text() string {
	return strings.Repeat("é", []int{0, 1, 5, 90, 1100, 4100}[g.n(6)]) + []string{"", " ", "x"}[g.n(3)]
}

func (g *layoutGen) buttons() []commands.Button {
	var out []commands.Button
	for range g.n(8) {
		out = append(out, commands.Button{Label: g.text(), CustomID: fmt.Sprint([]string{"", "a", "b", "c"}[g.n(4)], g.n(3))})
	}
	return out
}

func (g *layoutGen) media() commands.Media {
	return commands.Media{URL: []string{"attachment://a.png", "attachment://b.png", "https://e.org/x.png", "", "ftp://x"}[g.n(5)], Description: g.text()}
}

func (g *layoutGen) block(depth int) commands.Block {
	if g.i >= len(g.data) {
		return nil
	}
	switch g.n(7) {
	case 0:
		return commands.TextBlock{Text: g.text()}
	case 1:
		s := commands.Section{}
		for range g.n(6) {
			s.Texts = append(s.Texts, g.text())
		}
		switch g.n(3) {
		case 0:
			if bs := g.buttons(); len(bs) > 0 {
				s.Button = &bs[0]
			}
		case 1:
			m := g.media()
			s.Thumbnail = &m
		}
		return s
	case 2:
		return commands.Separator{Invisible: g.n(2) == 0, Large: g.n(2) == 0}
	case 3:
		gal := commands.Gallery{}
		for range g.n(14) {
			gal.Items = append(gal.Items, g.media())
		}
		return gal
	case 4:
		return commands.ActionRow{Buttons: g.buttons()}
	case 5:
		if depth == 0 {
			return nil
		}
		c := commands.Container{Accent: g.n(3) * 0xFFFFFF}
		for range g.n(12) {
			if b := g.block(depth - 1); b != nil {
				c.Blocks = append(c.Blocks, b)
			}
		}
		return &c
	}
	return nil
}
