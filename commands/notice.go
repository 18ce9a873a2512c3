package commands

import (
	"fmt"
	"time"
)

// StoppedNotice is the answer to work stopped at the per-user deadline
// limit, whether the commands noticed it (a search that honoured its
// context) or the bot did (a handler that overran it).
func StoppedNotice(limit time.Duration) string {
	return fmt.Sprintf("Stopped after %s: this puzzle is too hard for me to finish in that time.", humanDuration(limit))
}

// RestartingNotice is the answer to work cut short, or turned away, because
// the bot is shutting down.
const RestartingNotice = "I'm restarting — please try again in a moment."
