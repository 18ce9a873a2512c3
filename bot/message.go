package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// onReady remembers the bot's own user id, needed to spot mentions; it
// runs again when a new session is identified.
func (b *Bot) onReady(s *discordgo.Session, r *discordgo.Ready) {
	if r == nil || r.User == nil || r.User.ID == "" {
		return
	}
	b.mu.Lock()
	b.botID = r.User.ID
	b.mu.Unlock()
	select {
	case b.ready <- readyInfo{user: r.User.String(), guilds: len(r.Guilds)}:
	default: // a later READY (a new session) needs no announcement
	}
}

// onMessage is discordgo's MESSAGE_CREATE handler. A message that
// mentions the bot (or replies to one of its messages) is solved in place,
// as a reply; any other message with visible text is offered to the
// handler's Plan, which ignores it unless its channel is watched. Events
// may arrive half-parsed, so every pointer is checked.
func (b *Bot) onMessage(s *discordgo.Session, mc *discordgo.MessageCreate) {
	if mc == nil || mc.Message == nil {
		return
	}
	m := mc.Message
	if m.Author == nil || m.Author.ID == "" || m.Author.Bot || m.WebhookID != "" || m.ID == "" || m.ChannelID == "" {
		return
	}
	me := b.self()
	if me == "" || m.Author.ID == me {
		return
	}
	mentioned := mentions(m, me)
	if !mentioned && strings.TrimSpace(m.Content) == "" && len(imageAttachments(m.Attachments)) == 0 {
		return // nothing to read (without Message Content, that is most messages)
	}
	if !b.begin() {
		return // shutting down: a message can wait for the next start
	}
	defer b.end()
	defer func() {
		if r := recover(); r != nil {
			b.logf("panic in message %s: %v\n%s", m.ID, r, debug.Stack())
		}
	}()
	b.serveMessage(s, m, me, mentioned)
}

// mentions reports whether m mentions the user id me, or replies to one
// of its messages.
func mentions(m *discordgo.Message, me string) bool {
	if ref := m.ReferencedMessage; ref != nil && ref.Author != nil && ref.Author.ID == me {
		return true
	}
	for _, u := range m.Mentions {
		if u != nil && u.ID == me {
			return true
		}
	}
	return strings.Contains(m.Content, "<@"+me+">") || strings.Contains(m.Content, "<@!"+me+">")
}

// stripMention removes the bot's mention from text.
func stripMention(text, me string) string {
	text = strings.ReplaceAll(text, "<@!"+me+">", "")
	return strings.TrimSpace(strings.ReplaceAll(text, "<@"+me+">", ""))
}

func (b *Bot) serveMessage(s *discordgo.Session, m *discordgo.Message, me string, mentioned bool) {
	now := b.now()
	req := commands.Request{
		Kind:      commands.Mention,
		ID:        m.ID,
		UserID:    m.Author.ID,
		UserName:  m.Author.Username,
		GuildID:   m.GuildID,
		ChannelID: m.ChannelID,
		Text:      stripMention(m.Content, me),
		Now:       now,
		Mentioned: mentioned,
		HasImage:  len(imageAttachments(m.Attachments)) > 0,
	}
	ctx, cancel := context.WithTimeout(b.work, 10*time.Second)
	defer cancel()

	if !mentioned {
		// Most messages end here: the plan reads the settings and the
		// text, and says to ignore them. Nothing is fetched before.
		if b.plan(ctx, req).Ignore {
			return
		}
	}
	var atts []*discordgo.MessageAttachment
	if mentioned {
		atts = append(textAttachments(m.Attachments), imageAttachments(m.Attachments)...)
	} else if req.HasImage {
		// A watched channel's message the plan kept: its picture is read.
		atts = imageAttachments(m.Attachments)
	}
	// A reply to a message holding the grid: Discord usually sends the
	// referenced message along; when not, it is fetched.
	if ref := m.MessageReference; mentioned && ref != nil && ref.MessageID != "" {
		target := m.ReferencedMessage
		if target == nil {
			ch := ref.ChannelID
			if ch == "" {
				ch = m.ChannelID
			}
			var err error
			target, err = s.ChannelMessage(ch, ref.MessageID, discordgo.WithContext(ctx))
			if err != nil {
				b.logf("message %s: fetch referenced message %s: %v", m.ID, ref.MessageID, err)
			}
		}
		if target != nil {
			req.Text = joinText(req.Text, target.Content)
			atts = append(atts, textAttachments(target.Attachments)...)
			atts = append(atts, imageAttachments(target.Attachments)...)
		}
	}
	reply := &discordgo.MessageReference{MessageID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, FailIfNotExists: new(bool)}
	// The nonces come from the message answered and the reply's place, so
	// a MESSAGE_CREATE seen twice (replayed on a resume) is answered once.
	sent := 0
	send := func(resp commands.Response) {
		msg := toMessage(resp)
		if msg.content == "" && len(msg.embeds) == 0 && len(msg.files) == 0 && !msg.v2 {
			return // nothing to say (a watched message without a grid)
		}
		sent++
		if _, err := b.channels.post(ctx, m.ChannelID, msg, reply, keyNonce('r', fmt.Sprintf("%s/%d", m.ID, sent))); err != nil {
			b.logf("message %s: reply: %v", m.ID, err)
		}
		reply = nil // follow-ups are plain messages after the reply
	}

	if len(atts) > 0 {
		text, err := b.readAttachments(ctx, s, atts)
		if err == nil {
			req.Images, err = b.readImages(ctx, s, atts)
		}
		if err != nil {
			if mentioned {
				send(commands.Response{Content: err.Error()})
			} // a watched channel is not told about pictures it can't read
			return
		}
		req.Text = joinText(req.Text, text)
	}
	plan := b.plan(ctx, req)
	if plan.Ignore {
		return
	}
	heavy := plan.Heavy
	if msg, ok := b.admit(req.UserID, heavy, now); !ok {
		if b.limits.shouldNotice(req.UserID, time.Minute, now) {
			send(commands.Response{Content: msg})
		}
		return
	}
	result, started, _, ok := b.start(req, plan)
	if !ok {
		send(commands.Response{Content: b.busyNotice()})
		return
	}
	overrun := newRestartableTimer()
	defer overrun.stop()
	for {
		select {
		case o := <-result:
			send(o.resp)
			for _, f := range o.resp.FollowUps {
				send(f)
			}
			return
		case <-started:
			overrun.reset(b.cfg.SolveTimeout + b.waits.grace)
		case <-overrun.c():
			b.logf("message %s: handler still running %s past its deadline", m.ID, b.waits.grace)
			send(b.stoppedNotice())
			return
		case <-b.work.Done():
			send(commands.Response{Content: commands.RestartingNotice})
			return
		}
	}
}

// attachmentHosts are the hosts attachments are fetched from; the API base
// is added when set. Anything else in an attachment URL is refused rather
// than fetched (the bot must not be made to request arbitrary URLs).
var attachmentHosts = []string{"cdn.discordapp.com", "media.discordapp.net", discordHost}

// readAttachments downloads .txt attachments through the session's client
// (so DISCORD_API_BASE applies), each at most MaxAttachmentBytes, and
// returns their text joined. Its errors are worded for the user.
func (b *Bot) readAttachments(ctx context.Context, s *discordgo.Session, atts []*discordgo.MessageAttachment) (string, error) {
	var parts []string
	for i, a := range atts {
		if isImage(a) {
			continue // read by readImages
		}
		if i == 3 {
			break // a grid fits in one file; three is generous
		}
		limit := b.cfg.MaxAttachmentBytes
		if int64(a.Size) > limit {
			return "", replyError(commands.FileTooBigNotice(a.Filename, false, int64(a.Size), limit))
		}
		u, err := url.Parse(a.URL)
		if err != nil || !b.allowedAttachmentHost(u) {
			b.logf("attachment %s: refused URL %q", a.ID, a.URL)
			return "", replyError(commands.FileUnreadableNotice(a.Filename, false, nil))
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return "", replyError(commands.FileUnreadableNotice(a.Filename, false, nil))
		}
		resp, err := b.attachmentClient(s.Client).Do(req)
		if err != nil {
			b.logf("attachment %s: %v", a.ID, err)
			return "", replyError(commands.FileDownloadNotice(a.Filename, false))
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.logf("attachment %s: status %d: %v", a.ID, resp.StatusCode, err)
			return "", replyError(commands.FileDownloadNotice(a.Filename, false))
		}
		if int64(len(data)) > limit {
			return "", replyError(commands.FileTooBigNotice(a.Filename, false, int64(len(data)), limit))
		}
		parts = append(parts, string(data))
	}
	return joinText(parts...), nil
}

// attachmentClient is c checking every redirect against the attachment
// hosts: a redirect must not lead the bot to a host it would refuse to
// fetch from directly (an internal address, say).
func (b *Bot) attachmentClient(c *http.Client) *http.Client {
	cc := *c
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("more than 3 redirects")
		}
		if !b.allowedAttachmentHost(req.URL) {
			return fmt.Errorf("redirect to %s refused", req.URL.Host)
		}
		return nil
	}
	return &cc
}

func (b *Bot) allowedAttachmentHost(u *url.URL) bool {
	if u.Scheme != "https" && u.Scheme != "http" {
		return false
	}
	if b.cfg.APIBase != "" {
		if base, err := url.Parse(b.cfg.APIBase); err == nil && strings.EqualFold(base.Host, u.Host) {
			return true
		}
	}
	if u.Scheme != "https" {
		return false
	}
	for _, h := range attachmentHosts {
		if strings.EqualFold(u.Hostname(), h) {
			return true
		}
	}
	return false
}

// replyError is an error whose text is written for the user (one of the
// commands' notices), to be sent as it is.
type replyError string

func (e replyError) Error() string { return string(e) }
