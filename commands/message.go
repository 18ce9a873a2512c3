package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// discordTokens matches the markup Discord puts in message text for
// mentions, channels, custom emoji and timestamps. Their digits are ids, not
// cells, so they are removed before a grid is looked for.
var discordTokens = regexp.MustCompile(`<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:-?\d+(?::\w)?|/[\w -]+:\d+)>`)

// messageText is text with Discord's markup removed.
func messageText(text string) string {
	return discordTokens.ReplaceAllString(text, " ")
}

// planMessage decides whether a message deserves any work: always when it
// mentions the bot; in a watched channel only when it holds a grid, or a
// picture and no text grid.
func (s *Service) planMessage(ctx context.Context, req Request) Plan {
	if req.Mentioned {
		return Plan{Heavy: true, Cheap: len(req.Images) == 0 && cheapText(req.Text)}
	}
	if !s.Watched(ctx, req.GuildID, req.ChannelID) {
		return Plan{Ignore: true}
	}
	text := messageText(req.Text)
	if s.looksLikeGrid(text) {
		return Plan{Heavy: true, Cheap: cheapText(req.Text)}
	}
	if (req.HasImage || len(req.Images) > 0) && cellLike(text) < 16 {
		return Plan{Heavy: true} // a picture, read for a grid
	}
	return Plan{Ignore: true}
}

// Watched reports whether the server asked for grids posted in the channel
// to get Solve / Hint / Check buttons. The bot asks it before forwarding a
// message that does not mention it. A settings store that fails reads as
// "not watched": staying quiet is the safe side for a bot that would
// otherwise talk in every channel.
func (s *Service) Watched(ctx context.Context, guildID, channelID string) bool {
	if guildID == "" {
		return false
	}
	on, err := s.settings.Watched(ctx, guildID, channelID)
	return err == nil && on
}

// mentioned reports whether a message should be treated as a mention. The
// bot forwards only mentions and messages in watched channels, so a message
// from a channel that is not watched is a mention even when the bot did not
// say so.
func (s *Service) mentioned(ctx context.Context, req Request) bool {
	return req.Mentioned || !s.Watched(ctx, req.GuildID, req.ChannelID)
}

// handleMessage answers a message: a mention with a grid is solved in
// place; a grid posted in a watched channel gets an offer of buttons; any
// other message gets nothing (a zero Response). Message replies can't be
// ephemeral, so every reply here is public.
func (s *Service) handleMessage(ctx context.Context, req Request) Response {
	text := messageText(req.Text)
	if !s.mentioned(ctx, req) {
		if !s.looksLikeGrid(text) {
			if wantsPicture(req, text) {
				return s.watchedPicture(ctx, req)
			}
			return Response{}
		}
		if r, ok := s.refuseDailyText(ctx, req, text, "solve"); ok {
			r.Ephemeral = false // no buttons under a daily that counts
			return r
		}
		return s.offer(text)
	}
	if wantsPicture(req, text) {
		if pc, ok := s.askers["solve"]; ok {
			r := s.runPicture(ctx, pc, req, nil)
			r.Ephemeral = false
			return r
		}
	}
	if cellLike(text) < 16 {
		// A mention with no grid: say what I can do rather than report a
		// parse error on "hi".
		return Response{Content: "Hi! Mention me in a message that holds a Sudoku grid (or in a reply to one) and I'll solve it. " +
			"Type /help for everything else."}
	}
	g, bad := s.readPuzzle(text)
	if bad != nil {
		r := *bad
		r.Ephemeral = false
		return r
	}
	if r, ok := s.refuseDaily(ctx, req, g, "solve"); ok {
		r.Ephemeral = false
		return r
	}
	r := s.solveGrid(ctx, g, outputImage)
	r.Ephemeral = false
	return r
}

// cellLike counts the characters of text that could be cells of a grid.
func cellLike(text string) int {
	n := 0
	for _, r := range text {
		if unicode.IsDigit(r) || r == '.' || r == '_' {
			n++
		}
	}
	return n
}

// offer is the reply under a grid posted in a watched channel: what it is,
// and buttons that answer the clicker privately.
func (s *Service) offer(text string) Response {
	g, bad := s.readPuzzle(text)
	if bad != nil {
		return Response{} // looksLikeGrid said yes; a parser that disagrees now stays quiet
	}
	return Response{
		Content: fmt.Sprintf("That looks like a %s Sudoku with %d clues. Want a hand? (Only you will see the answer.)", g.Shape, g.Clues()),
		Components: []ActionRow{{Buttons: []Button{
			{Label: "Solve", CustomID: s.customID(actPrefix+":solve", gridState{Puzzle: g}), Style: Primary},
			{Label: "Hint", CustomID: s.customID(hintPrefix+":1:n", gridState{Puzzle: g, Position: g}), Style: Secondary},
			{Label: "Check", CustomID: s.customID(actPrefix+":check", gridState{Puzzle: g}), Style: Secondary},
		}}},
	}
}

// actPrefix starts the custom id of the Solve and Check buttons offered
// under a watched grid: "act:solve:<state>", "act:check:<state>".
const actPrefix = "act"

// Discord permission bits.
const (
	permAdministrator int64 = 1 << 3
	permManageGuild   int64 = 1 << 5
)

var modeChoices = []Choice{{"on", "on"}, {"off", "off"}, {"status", "status"}}

func (s *Service) addWatch() {
	perm := permManageGuild
	s.addCommand(CommandSpec{
		Type:        ChatInput,
		Name:        "watch",
		Description: "Offer Solve / Hint / Check buttons under every grid posted in a channel",
		Options: []OptionSpec{
			{Type: OptString, Name: optMode, Description: "Turn watching on or off, or see its status", Required: true, Choices: modeChoices},
			{Type: OptChannel, Name: optChannel, Description: "The channel (default: this one)"},
		},
		DefaultMemberPermissions: &perm,
	}, s.watch, nil)
	s.addComponent(actPrefix, s.act, func(ctx context.Context, req Request) Plan {
		return Plan{Heavy: true, Ephemeral: true}
	})
}

// watch answers /watch. Discord hides the command from members without
// Manage Server by default, but a server can change that, so it is checked
// again here.
func (s *Service) watch(ctx context.Context, req Request) Response {
	if req.GuildID == "" {
		return ephemeral("Watching works in server channels, not in direct messages.")
	}
	if req.Permissions&(permManageGuild|permAdministrator) == 0 {
		return ephemeral("Only members with the Manage Server permission can change which channels I watch.")
	}
	mode, err := choiceOption(req.Options, optMode, "status", modeChoices)
	if err != nil {
		return optionError(err)
	}
	channel := strings.TrimSpace(req.Options[optChannel])
	if channel == "" {
		channel = req.ChannelID
	}
	where := "<#" + channel + ">" // a channel link, which pings no one
	var msg string
	switch mode {
	case "on":
		if err := s.settings.SetWatched(ctx, req.GuildID, channel, true); err != nil {
			return ephemeral("I couldn't save that setting; please try again later.")
		}
		msg = "I'm now watching " + where + ": under every Sudoku grid posted there I'll offer Solve / Hint / Check buttons."
	case "off":
		if err := s.settings.SetWatched(ctx, req.GuildID, channel, false); err != nil {
			return ephemeral("I couldn't save that setting; please try again later.")
		}
		msg = "I've stopped watching " + where + ". Mentioning me with a grid still works everywhere."
	default:
		on, err := s.settings.Watched(ctx, req.GuildID, channel)
		if err != nil {
			return ephemeral("I couldn't read that setting; please try again later.")
		}
		if on {
			msg = "I'm watching " + where + " for pasted grids."
		} else {
			msg = "I'm not watching " + where + ". `/watch mode:on` turns it on."
		}
	}
	if mode != "off" && s.cfg.ContentIntent != nil && !s.cfg.ContentIntent() {
		msg += "\n**But I can't see messages yet:** watching needs the Message Content intent. " +
			"Turn it on in the Discord Developer Portal → your application → Bot → Privileged Gateway Intents → Message Content, then restart me. " +
			"Until then, mentions and the Apps menu still work."
	}
	return ephemeral(msg)
}

// act answers the Solve and Check buttons under a watched grid, privately
// to whoever clicked.
func (s *Service) act(ctx context.Context, req Request) Response {
	head, st, err := s.splitCustomID(req.CustomID, 2)
	if err != nil {
		return stateError(err)
	}
	if r, ok := s.refuseDaily(ctx, req, st.Puzzle, head[1]); ok {
		return r
	}
	var r Response
	switch head[1] {
	case "solve":
		r = s.solveGrid(ctx, st.Puzzle, outputImage)
	case "check":
		// A picture's entries, when it held some: whoever posted it.
		r = s.checkPosition(ctx, st.Puzzle, st.Position, false)
	default:
		return unknownRequest(req)
	}
	r.Ephemeral = true
	return r
}

// stateError is the reply to a button whose state can't be read.
func stateError(err error) Response {
	if err == errExpired {
		return ephemeral("This button has expired (I only remember big grids for a while). Run the command again.")
	}
	return ephemeral("That button no longer works. Run the command again.")
}
