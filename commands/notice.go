package commands

import (
	"fmt"
	"math"
	"time"

	"sudokubot/sudoku"
)

// StoppedNotice is the answer to work stopped at the per-user deadline
// limit, whether the commands noticed it (a search that honoured its
// context) or the bot did (a handler that overran it).
func StoppedNotice(limit time.Duration) string {
	return fmt.Sprintf("Stopped after %s: this puzzle is too hard for me to finish in that time.", humanDuration(limit))
}

// stoppedNoticeFor is StoppedNotice for a search on g, worded by what it
// saw: a grid with too few clues can be filled in a great many ways (a clue
// is probably missing); one with plenty is simply too hard in the time.
func stoppedNoticeFor(limit time.Duration, g *sudoku.Grid) string {
	if fewClues(g) {
		return fmt.Sprintf("Stopped after %s: with only %d clues of %d, this %s can be filled in too many ways to search. Check no clue is missing.",
			humanDuration(limit), g.Clues(), len(g.Cells), sizeName(g.Shape))
	}
	return fmt.Sprintf("Stopped after %s: this %s (%d clues of %d) is too hard for me to finish in that time.",
		humanDuration(limit), sizeName(g.Shape), g.Clues(), len(g.Cells))
}

// fewClues reports whether g has fewer clues than any puzzle with one
// solution is known to need: a fifth of the cells is below the known
// minimums (17 of 81, about 55 of 256 and 150 of 625).
func fewClues(g *sudoku.Grid) bool {
	return g.Clues()*5 < len(g.Cells)
}

// RestartingNotice is the answer to work cut short, or turned away, because
// the bot is shutting down.
const RestartingNotice = "I'm restarting — please try again in a moment."

// The bot's own answers, for requests it turns away or can't hand to the
// commands. They live here with every other sentence a user reads; the bot
// only picks which one to send.

// BusyNotice is the answer when the worker pool's queue is full; wait is
// how long until it likely has room.
func BusyNotice(wait time.Duration) string {
	return fmt.Sprintf("I'm busy with other puzzles right now — try again in %d s.", retrySeconds(wait))
}

// RateLimitedNotice is the answer to a user over their rate budget.
func RateLimitedNotice(wait time.Duration) string {
	return fmt.Sprintf("You're going a bit fast — try again in %d s.", retrySeconds(wait))
}

// StillWorkingNotice is the answer to a user whose previous heavy request
// is still running.
func StillWorkingNotice(wait time.Duration) string {
	return fmt.Sprintf("I'm still working on your previous puzzle — try again in %d s.", retrySeconds(wait))
}

// CoolingOffNotice is the answer to a user paused after several requests
// in a row hit the time limit.
func CoolingOffNotice(wait time.Duration) string {
	return fmt.Sprintf("Your last few puzzles all hit the time limit, so I'm pausing you for a moment — try again in %d s.", retrySeconds(wait))
}

// QueuedNotice says a heavy request waits in line at place (1 = next); the
// answer replaces it when it comes.
func QueuedNotice(place int) string {
	if place <= 1 {
		return "Big puzzles take turns: yours is next. I'll answer here as soon as it's done."
	}
	return fmt.Sprintf("Big puzzles take turns: yours is number %d in line. I'll answer here as soon as it's done.", place)
}

// ErrorNotice is the answer when a handler panicked; ref is the request id
// the log line carries.
func ErrorNotice(ref string) string {
	return fmt.Sprintf("Something went wrong on my side (ref %s). It has been logged; please try again.", ref)
}

// UnreadableRequestNotice is the answer to an interaction the bot could
// not turn into a request.
const UnreadableRequestNotice = "Sorry, I couldn't read that request. Please try the command again."

// FormTooLateNotice is the answer when a form (modal) is ready only after
// the interaction was deferred: a modal can only be the first answer.
const FormTooLateNotice = "That took too long to open the form — please run the command again."

// LaunchTooLateNotice is the answer when opening the board comes only after
// the interaction was deferred: a launch can only be the first answer.
const LaunchTooLateNotice = "That took too long to open the board — please press the button again."

// ActivityOffNotice answers an "Open board" button when the board is no
// longer set up on this bot.
const ActivityOffNotice = "The board isn't available on this bot any more: play with the buttons here."

// EmptyAnswerNotice replaces an answer with nothing in it, which Discord
// would refuse.
const EmptyAnswerNotice = "I have nothing to show for that."

// FileTooBigNotice is the answer to an attached file over the size the
// bot reads (size and limit in bytes); picture says what kind of file.
func FileTooBigNotice(name string, picture bool, size, limit int64) string {
	if picture {
		return fmt.Sprintf("%s is %d MB; I read pictures of at most %d MB.", name, (size+(1<<20)-1)>>20, limit>>20)
	}
	return fmt.Sprintf("%s is %d KB; I read text files of at most %d KB.", name, (size+1023)/1024, limit/1024)
}

// PictureTooLargeNotice is the answer to a picture of more pixels than the
// bot reads.
func PictureTooLargeNotice(name string, width, height int, maxPixels int64) string {
	return fmt.Sprintf("%s is %dx%d; I read pictures of at most %d megapixels.", name, width, height, maxPixels/1_000_000)
}

// FileUnreadableNotice is the answer to an attachment the bot refuses to
// fetch or can't decode; why, when not nil, says what is wrong with it.
func FileUnreadableNotice(name string, picture bool, why error) string {
	what := "the attachment"
	if picture {
		what = "the picture"
	}
	if why != nil {
		return fmt.Sprintf("I couldn't read %s %s: %v.", what, name, why)
	}
	return fmt.Sprintf("I couldn't read %s %s.", what, name)
}

// FileDownloadNotice is the answer when an attachment could not be
// downloaded (a network failure: trying again may work).
func FileDownloadNotice(name string, picture bool) string {
	what := "the attachment"
	if picture {
		what = "the picture"
	}
	return fmt.Sprintf("I couldn't download %s %s; please try again.", what, name)
}

// retrySeconds rounds a wait up to whole seconds, at least 1, for "try
// again in 12 s".
func retrySeconds(d time.Duration) int {
	return max(int(math.Ceil(d.Seconds())), 1)
}
