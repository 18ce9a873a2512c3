package bot

import (
	"context"
	"io"
	"log"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubot/commands"
	"sudokubot/internal/fakediscord"
)

// TestE2EOpenBoardLaunchesTheActivity: with the Activity set up, the
// /play and /daily play boards carry "Open board", and its click is
// answered with LAUNCH_ACTIVITY (callback type 12, no data), which the
// fake, strict as Discord, accepts for a component of an embedded app.
// Without the setting the board has no such button.
func TestE2EOpenBoardLaunchesTheActivity(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, Activities: true})
	pb := startPlayBotWith(t, fake, filepath.Join(t.TempDir(), "e2e.db"), newFakeClock(day1), func(c *Config, cc *commands.Config) {
		c.GuildID = "500"
		cc.Activity = true
	})
	for _, name := range []string{"play", "daily"} {
		var c fakediscord.Call
		if name == "play" {
			c = pb.slash(alice, "500", "play")
		} else {
			c = pb.slash(alice, "500", "daily", fakediscord.Sub("play", fakediscord.Str("level", "easy")))
		}
		open := buttons(c)["Open board"]
		if open == "" {
			t.Fatalf("/%s: no Open board button in %v", name, buttons(c))
		}
		launch := pb.click(alice, "500", open)
		if launch.CallbackType() != 12 || launch.Status != 204 || string(launch.Body) != `{"type":12}` {
			t.Errorf("/%s Open board answered %d %s (status %d), want {\"type\":12}", name, launch.CallbackType(), launch.Body, launch.Status)
		}
	}

	plainFake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}})
	plain := startPlayBot(t, plainFake, filepath.Join(t.TempDir(), "plain.db"), newFakeClock(day1))
	if c := plain.slash(alice, "500", "play"); buttons(c)["Open board"] != "" {
		t.Errorf("without the Activity: Open board in %v", buttons(c))
	}
}

// TestE2ERegistrationKeepsTheEntryPoint: once Activities are on for the
// app, Discord keeps an entry-point command of its own and refuses (50240)
// a global bulk overwrite that leaves it out. With the Activity set up the
// bot registers its own entry point (type 4, handler 2) with its commands;
// without, a refused overwrite is sent again once with Discord's entry
// point as it is. Either way the bot's commands register globally.
func TestE2ERegistrationKeepsTheEntryPoint(t *testing.T) {
	t.Parallel()
	for _, activity := range []bool{true, false} {
		fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, Activities: true, ExpectRefusals: true})
		pb := startPlayBotWith(t, fake, filepath.Join(t.TempDir(), "e2e.db"), newFakeClock(day1), func(c *Config, cc *commands.Config) {
			cc.Activity = activity
		})
		put := func(c fakediscord.Call) bool {
			return c.Method == "PUT" && c.Path == "/api/v9/applications/100/commands"
		}
		if _, err := fake.WaitCall(waitLong, func(c fakediscord.Call) bool { return put(c) && c.Status == 200 }); err != nil {
			t.Fatalf("activity %v: the global overwrite never went through: %v\nlogs:\n%s", activity, err, pb.logs)
		}
		var entry []map[string]any
		chat := 0
		for _, c := range fake.Registered("") {
			switch c["type"] {
			case float64(4):
				entry = append(entry, c)
			case float64(1):
				chat++
			}
		}
		if len(entry) != 1 || entry[0]["handler"] != float64(2) || chat < 5 {
			t.Errorf("activity %v: registered %d entry points %v and %d slash commands", activity, len(entry), entry, chat)
		}
		refused := fake.Refused()
		if activity && len(refused) != 0 {
			t.Errorf("with the Activity set up, refused: %v", refused)
		}
		if !activity {
			if len(refused) != 1 || !strings.Contains(string(refused[0].Reply), "50240") || entry[0]["description"] != "Launch an activity" {
				t.Errorf("without the Activity: want one 50240 refusal, then Discord's own entry point kept; refused %v, entry %v", refused, entry)
			}
			if !strings.Contains(pb.logs.String(), `keeping Discord's entry-point command "launch"`) {
				t.Errorf("the kept entry point is not logged:\n%s", pb.logs)
			}
		}
		if c := pb.slash(alice, "500", "help"); c.CallbackType() != 4 {
			t.Errorf("activity %v: /help answered %d", activity, c.CallbackType())
		}
	}
}

// TestE2EEntryPointWithoutActivities: the Activity set up on the bot but
// not switched on for the app: Discord refuses the entry point, and the
// bot's error says what to do.
func TestE2EEntryPointWithoutActivities(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t, fakediscord.Options{Token: testToken, Guilds: []string{"500"}, ExpectRefusals: true})
	svc := commands.New(commands.Config{Activity: true})
	b, err := New(Config{Token: testToken, APIBase: fake.URL(), ShutdownWait: time.Second}, svc, log.New(io.Discard, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	err = b.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "switch them on, or unset DISCORD_CLIENT_ID") {
		t.Errorf("Run = %v, want the registration refused with what to do", err)
	}
}

// TestLaunchOnlyAsFirstAnswer: Discord takes LAUNCH_ACTIVITY only as the
// first answer to a command or component. A launch that comes after a
// deferral, or answers a modal, is sent as a notice instead (the fake,
// strict, would refuse a type 12 there).
func TestLaunchOnlyAsFirstAnswer(t *testing.T) {
	t.Parallel()
	h := &scriptHandler{specs: testSpecs,
		plan: func(req commands.Request) commands.Plan {
			if req.Kind == commands.SlashCommand {
				return commands.Plan{Heavy: true}
			}
			return commands.Plan{}
		},
		handle: func(ctx context.Context, req commands.Request) commands.Response {
			if req.Kind == commands.SlashCommand {
				time.Sleep(150 * time.Millisecond) // past DeferAfter: deferred first
			}
			return commands.Response{LaunchActivity: true}
		}}
	tb := newTestBot(t, h, func(c *Config) { c.DeferAfter = 50 * time.Millisecond })
	late := tb.finalAnswer(tb.slash(alice, "daily", fakediscord.Sub("play")))
	if !strings.Contains(text(late), commands.LaunchTooLateNotice) {
		t.Errorf("a launch after a deferral sent %s, want the notice", late.Body)
	}
	modal := tb.interact(fakediscord.Interaction{Type: fakediscord.ModalSubmit, GuildID: "500", User: alice,
		Data: fakediscord.Modal("solve:modal", map[string]string{"puzzle": "x"})})
	c := tb.firstAnswer(modal)
	if c.CallbackType() != 4 || !strings.Contains(text(c), commands.LaunchTooLateNotice) {
		t.Errorf("a launch answering a modal sent %s, want the notice", c.Body)
	}
}
