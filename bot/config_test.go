package bot

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfig(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{
		"DISCORD_TOKEN": " Bot abc ", "DISCORD_GUILD_ID": "42", "DISCORD_API_BASE": "http://127.0.0.1:9",
		"SOLVE_TIMEOUT": "3s", "RATE_PER_MINUTE": "12.5", "RATE_BURST": "4", "COOLDOWN": "1m",
		"WORKERS": "3", "QUEUE": "7", "MESSAGE_CONTENT": "true", "DATABASE_PATH": "/tmp/x.db",
		"MAX_ATTACHMENT_BYTES": "1000", "DISCORD_CLIENT_ID": "100", "DISCORD_CLIENT_SECRET": " s3cret ",
	}))
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if c.Token != "abc" || c.GuildID != "42" || c.APIBase != "http://127.0.0.1:9" || c.SolveTimeout != 3*time.Second ||
		c.RatePerMinute != 12.5 || c.RateBurst != 4 || c.Cooldown != time.Minute || c.Workers != 3 || c.Queue != 7 ||
		!c.MessageContent || c.DatabasePath != "/tmp/x.db" || c.MaxAttachmentBytes != 1000 ||
		c.ClientID != "100" || c.ClientSecret != "s3cret" {
		t.Errorf("LoadConfig = %+v", c)
	}
	if c.DeferAfter != 2*time.Second {
		t.Errorf("DeferAfter default = %s, want 2s", c.DeferAfter)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"no token", map[string]string{}, []string{"DISCORD_TOKEN is not set"}},
		{"bad values", map[string]string{"DISCORD_TOKEN": "x", "SOLVE_TIMEOUT": "five", "RATE_BURST": "-1", "MESSAGE_CONTENT": "maybe"},
			[]string{`SOLVE_TIMEOUT="five"`, `RATE_BURST="-1"`, `MESSAGE_CONTENT="maybe"`}},
		{"bad base", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "127.0.0.1:80"}, []string{"DISCORD_API_BASE"}},
		{"defer too late", map[string]string{"DISCORD_TOKEN": "x", "DEFER_AFTER": "3s"}, []string{"DEFER_AFTER=3s"}},
		{"client id alone", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_CLIENT_ID": "100"}, []string{"DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together"}},
		{"client secret alone", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_CLIENT_SECRET": "s"}, []string{"DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together"}},
		{"client id not an id", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_CLIENT_ID": "my-app", "DISCORD_CLIENT_SECRET": "s"}, []string{`DISCORD_CLIENT_ID="my-app"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadConfig(env(tc.env))
			if err == nil {
				t.Fatal("LoadConfig succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if tc.name == "no token" && !errors.Is(err, ErrNoToken) {
				t.Errorf("error %v is not ErrNoToken", err)
			}
		})
	}
}

func TestTokenHelp(t *testing.T) {
	for _, want := range []string{"discord.com/developers/applications", "New Application", "bot+applications.commands",
		"client_id=APP_ID", "permissions=" + InvitePermissions, "go run . console", "DISCORD_TOKEN"} {
		if !strings.Contains(TokenHelp, want) {
			t.Errorf("TokenHelp lacks %q", want)
		}
	}
	perms := discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks |
		discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory | discordgo.PermissionSendMessagesInThreads |
		discordgo.PermissionCreatePublicThreads
	if got := strconv.FormatInt(int64(perms), 10); got != InvitePermissions {
		t.Errorf("InvitePermissions = %s, want %s", InvitePermissions, got)
	}
}

func TestRewriteTransport(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Host+" "+r.URL.RequestURI())
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	rt, err := newRewriteTransport(srv.URL+"/prefix/", nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rt}
	req, _ := http.NewRequest("GET", "https://discord.com/api/v9/gateway?x=1", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("rewritten request: %v", err)
	}
	resp.Body.Close()
	if req.URL.Host != "discord.com" {
		t.Errorf("the caller's request was modified: %s", req.URL)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	if len(seen) != 1 || seen[0] != host+" /prefix/api/v9/gateway?x=1" {
		t.Errorf("server saw %q", seen)
	}
	if _, err := newRewriteTransport("ftp://x", nil); err == nil {
		t.Error("ftp base accepted")
	}
	if got, _ := newRewriteTransport("", http.DefaultTransport); got != http.DefaultTransport {
		t.Error("empty base should leave the transport alone")
	}
}

func TestToMessageClipsToDiscordLimits(t *testing.T) {
	long := strings.Repeat("é", 3000)
	var rows []commands.ActionRow
	for range 7 {
		rows = append(rows, commands.ActionRow{Buttons: make([]commands.Button, 7)})
	}
	m := toMessage(commands.Response{Content: long, Embeds: []commands.Embed{{Description: strings.Repeat("x", 5000)}}, Components: rows, Ephemeral: true})
	if n := utf8.RuneCountInString(m.content); n != commands.MaxContent || !strings.HasSuffix(m.content, "…") {
		t.Errorf("content clipped to %d runes, want %d ending in …", n, commands.MaxContent)
	}
	if n := utf8.RuneCountInString(m.embeds[0].Description); n != commands.MaxEmbedDescription {
		t.Errorf("description %d runes, want %d", n, commands.MaxEmbedDescription)
	}
	if len(m.components) != commands.MaxActionRows || len(m.components[0].(discordgo.ActionsRow).Components) != commands.MaxButtonsPerRow {
		t.Errorf("components not clipped to 5x5")
	}
	two := toMessage(commands.Response{Embeds: []commands.Embed{{Description: strings.Repeat("a", 4000)}, {Title: "t", Description: strings.Repeat("b", 4000)}}})
	total := 0
	for _, e := range two.embeds {
		total += utf8.RuneCountInString(e.Title + e.Description)
	}
	if total != commands.MaxEmbedTotal {
		t.Errorf("two long embeds hold %d characters, want %d", total, commands.MaxEmbedTotal)
	}
	if m.flags != discordgo.MessageFlagsEphemeral {
		t.Errorf("flags = %d, want 64", m.flags)
	}
	if b := m.components[0].(discordgo.ActionsRow).Components[0].(discordgo.Button); b.Style != discordgo.SecondaryButton {
		t.Errorf("zero style became %d, want secondary", b.Style)
	}
}

func TestOptionText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
		ok   bool
	}{{"a", "a", true}, {true, "true", true}, {float64(9), "9", true}, {1.5, "1.5", true}, {nil, "", false}, {map[string]any{}, "", false}} {
		got, ok := optionText(tc.v)
		if got != tc.want || ok != tc.ok {
			t.Errorf("optionText(%v) = %q, %v; want %q, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}
