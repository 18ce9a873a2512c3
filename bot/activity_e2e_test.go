package bot

import (
	"path/filepath"
	"testing"

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
