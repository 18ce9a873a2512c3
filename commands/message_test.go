package commands

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func mention(text string, mentioned bool) Request {
	return Request{Kind: Mention, Text: text, Mentioned: mentioned, UserID: "u1", GuildID: "g1", ChannelID: "c1"}
}

func TestMentions(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	tests := []struct {
		name string
		req  Request
		says string // "" means a zero Response
	}{
		{"grid", mention("<@123456789012345678>\n"+spread(uniquePuzzle), true), uniqueSolution},
		{"reply to a grid", mention("<@!123456789012345678>\n"+uniquePuzzle, true), uniqueSolution},
		{"no grid", mention("<@123456789012345678> hi there", true), "Mention me in a message that holds a Sudoku grid"},
		{"bad grid", mention("<@123456789012345678> "+uniquePuzzle[:70], true), "couldn't read"},
		{"clash", mention("<@123456789012345678> "+clashPuzzle, true), "5 is twice"},
		// The bot forwards only mentions and watched channels' messages.
		{"unflagged, channel not watched", mention(uniquePuzzle, false), uniqueSolution},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A mention goes to the worker pool; an unflagged message from a
			// channel that is not watched never reaches Handle from the bot.
			if p := s.Plan(ctx, tt.req); tt.req.Mentioned && !p.Heavy {
				t.Errorf("Plan(mention) = %+v, want Heavy", p)
			} else if !tt.req.Mentioned && !p.Ignore {
				t.Errorf("Plan(unwatched message) = %+v, want Ignore", p)
			}
			r := s.Handle(ctx, tt.req)
			checkLimits(t, r)
			if tt.says == "" {
				if allText(r) != "" || len(r.Files) > 0 || len(r.Components) > 0 {
					t.Errorf("Handle(%s) = %+v, want a zero Response", tt.name, r)
				}
				return
			}
			if !strings.Contains(allText(r), tt.says) {
				t.Errorf("Handle(%s) says:\n%s\nwant %q", tt.name, allText(r), tt.says)
			}
			if r.Ephemeral {
				t.Errorf("Handle(%s) is ephemeral; a message reply can't be", tt.name)
			}
		})
	}
}

func TestWatch(t *testing.T) {
	intent := true
	s := newTestService(t, Config{ContentIntent: func() bool { return intent }})
	ctx := context.Background()
	admin := func(mode string, extra ...string) Request {
		req := slash("watch", append([]string{"mode", mode}, extra...)...)
		req.Permissions = permManageGuild
		return req
	}

	// Before watching, a pasted grid gets nothing.
	msg := mention(spread(uniquePuzzle), false)
	if p := s.Plan(ctx, msg); !p.Ignore {
		t.Fatalf("Plan(grid in unwatched channel) = %+v, want Ignore", p)
	}

	steps := []struct {
		name      string
		req       Request
		says      string
		watchedC1 bool
	}{
		{"not a manager", slash("watch", "mode", "on"), "Manage Server", false},
		{"in DMs", func() Request { r := admin("on"); r.GuildID = ""; return r }(), "not in direct messages", false},
		{"status off", admin("status"), "not watching <#c1>", false},
		{"bad mode", admin("maybe"), `There is no mode "maybe": pick on, off or status.`, false},
		{"on", admin("on"), "watching <#c1>", true},
		{"status on", admin("status"), "watching <#c1>", true},
		{"other channel", admin("on", "channel", "c2"), "watching <#c2>", true},
		{"administrator", func() Request { r := admin("status"); r.Permissions = permAdministrator; return r }(), "watching <#c1>", true},
	}
	for _, st := range steps {
		r := s.Handle(ctx, st.req)
		checkLimits(t, r)
		if !strings.Contains(r.Content, st.says) || !r.Ephemeral {
			t.Errorf("%s: Handle = %+v, want ephemeral saying %q", st.name, r, st.says)
		}
		if on, _ := s.settings.Watched(ctx, "g1", "c1"); on != st.watchedC1 {
			t.Errorf("%s: watched(c1) = %v, want %v", st.name, on, st.watchedC1)
		}
	}

	// Now grids posted in c1 get an offer; chatter gets nothing.
	if p := s.Plan(ctx, mention("good morning", false)); !p.Ignore {
		t.Errorf("Plan(chatter in watched channel) = %+v, want Ignore", p)
	}
	if r := s.Handle(ctx, mention("good morning", false)); allText(r) != "" {
		t.Errorf("Handle(chatter in watched channel) = %+v, want zero", r)
	}
	if p := s.Plan(ctx, msg); p.Ignore || !p.Heavy {
		t.Fatalf("Plan(grid in watched channel) = %+v, want heavy", p)
	}
	// A link to a puzzle (81 digits in it) is a grid posted; other links
	// are chatter.
	link := mention("this one took me an hour: https://www.sudokuwiki.org/sudoku.htm?bd="+strings.ReplaceAll(uniquePuzzle, ".", "0"), false)
	if r := s.Handle(ctx, link); !strings.Contains(r.Content, "9x9 Sudoku with 30 clues") {
		t.Errorf("Handle(a link to a puzzle in a watched channel) = %q, want the offer", r.Content)
	}
	if p := s.Plan(ctx, mention("see https://discord.com/channels/123456789012345678/123456789012345678/1234567890123456789", false)); !p.Ignore {
		t.Errorf("Plan(a link to a message in a watched channel) = %+v, want Ignore", p)
	}
	offer := s.Handle(ctx, msg)
	checkLimits(t, offer)
	if !strings.Contains(offer.Content, "9x9 Sudoku with 30 clues") {
		t.Errorf("offer = %q", offer.Content)
	}
	for _, c := range []struct{ label, says string }{
		{"Solve", uniqueSolution},
		{"Check", "Solutions: 1"},
	} {
		b := findButton(t, offer, c.label)
		req := click(b.CustomID)
		if p := s.Plan(ctx, req); !p.Heavy || !p.Ephemeral || p.Update {
			t.Errorf("Plan(%s button) = %+v", c.label, p)
		}
		r := s.Handle(ctx, req)
		checkLimits(t, r)
		if !r.Ephemeral || !strings.Contains(allText(r), c.says) {
			t.Errorf("%s button = %+v, want ephemeral saying %q", c.label, r, c.says)
		}
	}
	if r := s.Handle(ctx, mention(uniquePuzzle, true)); !strings.Contains(allText(r), uniqueSolution) {
		t.Errorf("a mention in a watched channel = %q, want it solved in place", allText(r))
	}
	if !s.Watched(ctx, "g1", "c1") || s.Watched(ctx, "g1", "c3") || s.Watched(ctx, "", "c1") {
		t.Errorf("Watched disagrees with the settings")
	}
	hint := click(findButton(t, offer, "Hint").CustomID)
	if p := s.Plan(ctx, hint); p.Update || !p.Ephemeral {
		t.Errorf("Plan(Hint button under a public offer) = %+v: want a new ephemeral reply, not an update", p)
	}

	// Off again, and the warning when the intent is missing.
	intent = false
	r := s.Handle(ctx, admin("on"))
	if !strings.Contains(r.Content, "Message Content intent") {
		t.Errorf("/watch on without the intent says %q; want the intent explained", r.Content)
	}
	s.Handle(ctx, admin("off"))
	if on, _ := s.settings.Watched(ctx, "g1", "c1"); on {
		t.Errorf("still watching after /watch mode:off")
	}
	if p := s.Plan(ctx, msg); !p.Ignore {
		t.Errorf("Plan(grid after watch off) = %+v, want Ignore", p)
	}
}

// failingSettings is a store that is down.
type failingSettings struct{}

func (failingSettings) Watched(ctx context.Context, g, c string) (bool, error) {
	return true, errors.New("disk on fire")
}
func (failingSettings) SetWatched(ctx context.Context, g, c string, on bool) error {
	return errors.New("disk on fire")
}

func TestWatchStoreDown(t *testing.T) {
	s := newTestService(t, Config{Settings: failingSettings{}})
	ctx := context.Background()
	if p := s.Plan(ctx, mention(uniquePuzzle, false)); !p.Ignore {
		t.Errorf("Plan with failing settings = %+v, want Ignore (stay quiet)", p)
	}
	req := slash("watch", "mode", "on")
	req.Permissions = permManageGuild
	if r := s.Handle(ctx, req); !strings.Contains(r.Content, "couldn't save") {
		t.Errorf("/watch on with failing settings = %q", r.Content)
	}
}

func TestMessageText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<@123> hi", "  hi"},
		{"<@!123><@&45><#67> x", "    x"},
		{"<:blob:123> <a:party:456> <t:1700000000:R>", "     "},
		{"12 <3 < 4>", "12 <3 < 4>"},
	}
	for _, tt := range tests {
		if got := messageText(tt.in); got != tt.want {
			t.Errorf("messageText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestChatterAroundGrids(t *testing.T) {
	s := newTestService(t, Config{})
	ctx := context.Background()
	s.settings.SetWatched(ctx, "g1", "c1", true)
	for _, req := range []Request{
		mention("<@123456789012345678> can you solve this?\n```\n"+spread(uniquePuzzle)+"```\nthanks!", true),
		{Kind: MessageCommand, Command: "Solve Sudoku", Text: "solve this pls:\n" + uniquePuzzle},
	} {
		if r := s.Handle(ctx, req); !strings.Contains(allText(r), uniqueSolution) {
			t.Errorf("Handle(%q) says:\n%s\nwant the solution", req.Text, allText(r))
		}
	}
	msg := mention("anyone?\n"+spread(uniquePuzzle), false)
	if p := s.Plan(ctx, msg); p.Ignore {
		t.Errorf("Plan(grid with chatter in a watched channel) = %+v, want an offer", p)
	}
}
