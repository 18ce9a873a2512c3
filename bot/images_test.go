package bot

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// TestMentionPictures: a picture attached to a mention reaches the handler
// as bytes; one that is too big, by Discord's word or by its own header, is
// refused with a message and never decoded.
func TestMentionPictures(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan { return commands.Plan{Heavy: true, Ignore: !req.Mentioned} },
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			sizes := make([]string, len(req.Images))
			for i, im := range req.Images {
				sizes[i] = fmt.Sprint(len(im))
			}
			return commands.Response{Content: fmt.Sprintf("images: %s", strings.Join(sizes, ","))}
		},
	}
	tb := newTestBot(t, h, nil)
	f := tb.fake
	me := f.BotUser()
	wait := func(ref string) string {
		t.Helper()
		c, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool {
			return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"`+ref+`"`)
		})
		if err != nil {
			t.Fatalf("no reply to %s: %v\n%s", ref, err, tb.logs)
		}
		return c.Content()
	}
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	small := b.Bytes()
	bomb := append([]byte(nil), small...)
	copy(bomb[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0}) // 100000x100000
	crc := crc32.ChecksumIEEE(bomb[12:29])
	copy(bomb[29:33], []byte{byte(crc >> 24), byte(crc >> 16), byte(crc >> 8), byte(crc)})

	tests := []struct {
		name string
		att  map[string]any
		want string
	}{
		{"png", f.AddAttachment("grid.png", "image/png", small), fmt.Sprintf("images: %d", len(small))},
		{"by extension", f.AddAttachment("grid.PNG", "", small), fmt.Sprintf("images: %d", len(small))},
		{"bomb", f.AddAttachment("bomb.png", "image/png", bomb), "megapixels"},
		{"huge by Discord's size", func() map[string]any {
			a := f.AddAttachment("big.jpg", "image/jpeg", small)
			a["size"] = 11 << 20
			return a
		}(), "at most 10 MB"},
		{"huge by Discord's dimensions", func() map[string]any {
			a := f.AddAttachment("wide.webp", "image/webp", small)
			a["width"], a["height"] = 10000, 5000
			return a
		}(), "10000x5000"},
		{"a gif is not read", f.AddAttachment("anim.gif", "image/gif", small), "images: "},
	}
	for i, tt := range tests {
		id := fmt.Sprintf("p%d", i)
		m := fakediscord.Message(id, "300", "500", alice, "<@"+me.ID+">")
		m["mentions"] = []any{me}
		m["attachments"] = []any{tt.att}
		f.Dispatch("MESSAGE_CREATE", m)
		if got := wait(id); !strings.Contains(got, tt.want) || (strings.HasPrefix(tt.want, "images: ") && got != tt.want) {
			t.Errorf("%s: reply %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestWatchedPictures: a picture posted with no text and no mention reaches
// the plan with HasImage set, before anything is downloaded; when the plan
// keeps it (a watched channel) the picture is downloaded and handled. One
// that is refused (too big) gets no reply there.
func TestWatchedPictures(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{
		plan: func(req commands.Request) commands.Plan {
			watched := req.ChannelID == "301" && (req.HasImage || len(req.Images) > 0)
			return commands.Plan{Heavy: true, Ignore: !req.Mentioned && !watched}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if len(req.Images) == 0 {
				return commands.Response{Content: "no images"}
			}
			return commands.Response{Content: fmt.Sprintf("images: %d", len(req.Images[0]))}
		},
	}
	tb := newTestBot(t, h, nil)
	f := tb.fake
	me := f.BotUser()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	small := b.Bytes()
	post := func(id, channel string, att map[string]any) {
		m := fakediscord.Message(id, channel, "500", alice, "")
		m["attachments"] = []any{att}
		f.Dispatch("MESSAGE_CREATE", m)
	}
	post("w1", "301", f.AddAttachment("grid.png", "image/png", small))
	c, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"w1"`)
	})
	if err != nil {
		t.Fatalf("no reply to a picture in a watched channel: %v\n%s", err, tb.logs)
	}
	if want := fmt.Sprintf("images: %d", len(small)); c.Content() != want {
		t.Errorf("reply %q, want %q", c.Content(), want)
	}
	// Not watched; watched but too big by Discord's word; a text file.
	post("n1", "300", f.AddAttachment("grid.png", "image/png", small))
	big := f.AddAttachment("big.png", "image/png", small)
	big["size"] = 11 << 20
	post("n2", "301", big)
	post("n3", "301", f.AddAttachment("grid.txt", "text/plain", []byte("1.3")))
	m := fakediscord.Message("m1", "300", "500", alice, "<@"+me.ID+"> marker")
	m["mentions"] = []any{me}
	f.Dispatch("MESSAGE_CREATE", m)
	if _, err := f.WaitCall(waitLong, func(c fakediscord.Call) bool {
		return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"m1"`)
	}); err != nil {
		t.Fatalf("no reply to the marker: %v", err)
	}
	eventually(t, "n1, n2 planned", func() bool { return h.planned("n1") && h.planned("n2") })
	if _, err := f.WaitCall(200*time.Millisecond, func(c fakediscord.Call) bool {
		return c.IsChannelMessage() && strings.Contains(string(c.Body), `"message_id":"n`)
	}); err == nil {
		t.Error("a picture that should be ignored got a reply")
	}
	if h.planned("n3") {
		t.Error("a message with no text and no picture reached the plan")
	}
}

// TestSlashImageOption: a picture given as /solve's image option is among
// the attachments the bot downloads; a file that is not a picture is not.
func TestSlashImageOption(t *testing.T) {
	in := &discordgo.Interaction{
		ID: "1", Type: discordgo.InteractionApplicationCommand,
		User: &discordgo.User{ID: "11", Username: "alice"},
		Data: discordgo.ApplicationCommandInteractionData{
			Name: "solve", CommandType: discordgo.ChatApplicationCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "image", Type: discordgo.ApplicationCommandOptionAttachment, Value: "a1"},
				{Name: "output", Type: discordgo.ApplicationCommandOptionString, Value: "text"},
			},
			Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Attachments: map[string]*discordgo.MessageAttachment{
				"a1": {ID: "a1", Filename: "grid.jpg", ContentType: "image/jpeg", URL: "https://cdn.discordapp.com/a1/grid.jpg"},
				"a2": {ID: "a2", Filename: "notes.pdf", ContentType: "application/pdf", URL: "https://cdn.discordapp.com/a2/notes.pdf"},
			}},
		},
	}
	req, atts, err := interactionRequest(in, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(atts) != 1 || atts[0].ID != "a1" || req.Options["image"] != "a1" || req.Options["output"] != "text" {
		t.Errorf("interactionRequest = %+v, atts %v", req.Options, atts)
	}
	in.Data.(discordgo.ApplicationCommandInteractionData).Options[0].Value = "a2"
	if _, atts, _ := interactionRequest(in, time.Unix(0, 0)); len(atts) != 0 {
		t.Errorf("a PDF given as the image option is downloaded: %v", atts)
	}
}
