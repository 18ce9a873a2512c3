package bot

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// This file translates between discordgo's types and the commands package's
// plain ones, in both directions. It never calls discordgo's typed helpers
// (ApplicationCommandData, BoolValue, ...): they panic on a payload of the
// wrong type, and a half-parsed event leaves Data nil. Type switches with
// comma-ok are used instead.

// errUnreadable is returned for an interaction the bot cannot make sense of.
var errUnreadable = errors.New("unreadable interaction")

// interactionRequest turns an interaction into a request. It also returns
// the .txt attachments of a message command's target, which the caller
// downloads (that is I/O, kept out of here).
func interactionRequest(in *discordgo.Interaction, now time.Time) (commands.Request, []*discordgo.MessageAttachment, error) {
	req := commands.Request{
		ID:        in.ID,
		GuildID:   in.GuildID,
		ChannelID: in.ChannelID,
		Now:       now,
	}
	var user *discordgo.User
	if in.Member != nil {
		user = in.Member.User
		req.Permissions = in.Member.Permissions
	}
	if user == nil {
		user = in.User
	}
	if user == nil || user.ID == "" {
		return req, nil, fmt.Errorf("%w %s: no user", errUnreadable, in.ID)
	}
	req.UserID, req.UserName = user.ID, user.Username

	var atts []*discordgo.MessageAttachment
	switch in.Type {
	case discordgo.InteractionApplicationCommand:
		d, ok := in.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok || d.Name == "" {
			return req, nil, fmt.Errorf("%w %s: command data missing", errUnreadable, in.ID)
		}
		req.Command = d.Name
		switch d.CommandType {
		case discordgo.MessageApplicationCommand:
			req.Kind = commands.MessageCommand
			var target *discordgo.Message
			if d.Resolved != nil {
				target = d.Resolved.Messages[d.TargetID]
			}
			if target != nil {
				req.Text = target.Content
				atts = textAttachments(target.Attachments)
			}
		default:
			req.Kind = commands.SlashCommand
			req.Options = map[string]string{}
			opts := d.Options
			// A sub-command (type 1) or group (type 2) holds the real options.
			for len(opts) == 1 && opts[0] != nil &&
				(opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				if req.Subcommand == "" {
					req.Subcommand = opts[0].Name
				} else {
					req.Subcommand += " " + opts[0].Name
				}
				opts = opts[0].Options
			}
			for _, o := range opts {
				if o == nil || o.Name == "" {
					continue
				}
				if v, ok := optionText(o.Value); ok {
					req.Options[o.Name] = v
				}
			}
			if d.Resolved != nil && len(d.Resolved.Channels) > 0 {
				req.ChannelGuilds = make(map[string]string, len(d.Resolved.Channels))
				for id, ch := range d.Resolved.Channels {
					if ch != nil {
						req.ChannelGuilds[id] = ch.GuildID
					}
				}
			}
		}
	case discordgo.InteractionMessageComponent:
		d, ok := in.Data.(discordgo.MessageComponentInteractionData)
		if !ok || d.CustomID == "" {
			return req, nil, fmt.Errorf("%w %s: component data missing", errUnreadable, in.ID)
		}
		req.Kind = commands.Component
		req.CustomID = d.CustomID
		req.Values = d.Values
		// The message the button is on, and the one it replies to: a
		// button offered under a pasted grid needs that grid, and a
		// custom id (100 chars) cannot carry it.
		if m := in.Message; m != nil {
			req.Text = m.Content
			if ref := m.ReferencedMessage; ref != nil && ref.Content != "" {
				req.Text = joinText(ref.Content, req.Text)
			}
		}
	case discordgo.InteractionModalSubmit:
		d, ok := in.Data.(discordgo.ModalSubmitInteractionData)
		if !ok || d.CustomID == "" {
			return req, nil, fmt.Errorf("%w %s: modal data missing", errUnreadable, in.ID)
		}
		req.Kind = commands.ModalSubmit
		req.CustomID = d.CustomID
		req.Fields = map[string]string{}
		collectFields(d.Components, req.Fields)
	default:
		return req, nil, fmt.Errorf("%w %s: interaction type %d not handled", errUnreadable, in.ID, in.Type)
	}
	return req, atts, nil
}

// optionText renders an option value as text. JSON numbers arrive as
// float64 whatever the option's declared type, so the value decides.
func optionText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	default:
		return "", false
	}
}

// collectFields walks a modal's rows for text inputs.
func collectFields(cs []discordgo.MessageComponent, into map[string]string) {
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if c != nil {
				collectFields(c.Components, into)
			}
		case discordgo.ActionsRow:
			collectFields(c.Components, into)
		case *discordgo.TextInput:
			if c != nil && c.CustomID != "" {
				into[c.CustomID] = c.Value
			}
		case discordgo.TextInput:
			if c.CustomID != "" {
				into[c.CustomID] = c.Value
			}
		}
	}
}

// textAttachments picks the attachments that may hold a pasted grid.
func textAttachments(all []*discordgo.MessageAttachment) []*discordgo.MessageAttachment {
	var out []*discordgo.MessageAttachment
	for _, a := range all {
		if a == nil || a.URL == "" {
			continue
		}
		ct := strings.ToLower(a.ContentType)
		if strings.HasSuffix(strings.ToLower(a.Filename), ".txt") || strings.HasPrefix(ct, "text/plain") {
			out = append(out, a)
		}
	}
	return out
}

// joinText joins non-empty pieces of text with a blank line.
func joinText(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p)
	}
	return b.String()
}

// inputChars is the number of characters the user sent in req, for the
// input bound.
func inputChars(req commands.Request) int {
	n := utf8.RuneCountInString(req.Text)
	for _, v := range req.Options {
		n += utf8.RuneCountInString(v)
	}
	for _, v := range req.Fields {
		n += utf8.RuneCountInString(v)
	}
	for _, v := range req.Values {
		n += utf8.RuneCountInString(v)
	}
	return n
}

// Discord's limits, enforced here as a last line of defence: a reply over a
// limit is rejected with a 400 and the user would see nothing.
const (
	maxContent     = 2000
	maxEmbeds      = 10
	maxEmbedTitle  = 256
	maxEmbedDesc   = 4096
	maxEmbedFields = 25
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFooter      = 2048
	maxRows        = 5
	maxButtons     = 5
	maxLabel       = 80
	maxCustomID    = 100
	maxModalTitle  = 45
	maxModalInputs = 5
	maxInputLen    = 4000
	maxFiles       = 10
)

// clip shortens s to at most n characters, marking the cut with "…". It
// counts runes, as Discord does, and never splits one.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// allowNoMentions is set on every message the bot sends: an empty parse
// list means nobody is pinged, whatever the text echoes. The explicit empty
// slice is sent as "parse": [], Discord's documented way to suppress all.
func allowNoMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// message is a reply converted to discordgo's pieces.
type message struct {
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	files      []*discordgo.File
	flags      discordgo.MessageFlags
}

// toMessage converts a response's message part. Files get fresh readers on
// every call, so the same response can be sent twice (a retry, a fallback).
func toMessage(r commands.Response) message {
	m := message{
		content:    clip(r.Content, maxContent),
		embeds:     []*discordgo.MessageEmbed{},
		components: []discordgo.MessageComponent{},
	}
	for i, e := range r.Embeds {
		if i == maxEmbeds {
			break
		}
		me := &discordgo.MessageEmbed{
			Type:        discordgo.EmbedTypeRich,
			Title:       clip(e.Title, maxEmbedTitle),
			Description: clip(e.Description, maxEmbedDesc),
			Color:       e.Color,
		}
		for j, f := range e.Fields {
			if j == maxEmbedFields {
				break
			}
			me.Fields = append(me.Fields, &discordgo.MessageEmbedField{
				Name: clip(f.Name, maxFieldName), Value: clip(f.Value, maxFieldValue), Inline: f.Inline,
			})
		}
		if e.Footer != "" {
			me.Footer = &discordgo.MessageEmbedFooter{Text: clip(e.Footer, maxFooter)}
		}
		if e.Image != "" {
			me.Image = &discordgo.MessageEmbedImage{URL: e.Image}
		}
		m.embeds = append(m.embeds, me)
	}
	for i, row := range r.Components {
		if i == maxRows {
			break
		}
		ar := discordgo.ActionsRow{}
		for j, b := range row.Buttons {
			if j == maxButtons {
				break
			}
			style := discordgo.ButtonStyle(b.Style)
			if style < discordgo.PrimaryButton || style > discordgo.DangerButton {
				style = discordgo.SecondaryButton
			}
			ar.Components = append(ar.Components, discordgo.Button{
				Label:    clip(b.Label, maxLabel),
				CustomID: clip(b.CustomID, maxCustomID),
				Style:    style,
				Disabled: b.Disabled,
			})
		}
		if len(ar.Components) > 0 {
			m.components = append(m.components, ar)
		}
	}
	for i, f := range r.Files {
		if i == maxFiles {
			break
		}
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		m.files = append(m.files, &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)})
	}
	if r.Ephemeral {
		m.flags = discordgo.MessageFlagsEphemeral
	}
	return m
}

// toModal converts a modal to the data of a type-9 response.
func toModal(md *commands.Modal) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		CustomID: clip(md.CustomID, maxCustomID),
		Title:    clip(md.Title, maxModalTitle),
	}
	for i, in := range md.Inputs {
		if i == maxModalInputs {
			break
		}
		style := discordgo.TextInputShort
		if in.Paragraph {
			style = discordgo.TextInputParagraph
		}
		max := in.MaxLength
		if max <= 0 || max > maxInputLen {
			max = maxInputLen
		}
		d.Components = append(d.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{
				CustomID:    clip(in.CustomID, maxCustomID),
				Label:       clip(in.Label, 45),
				Style:       style,
				Placeholder: clip(in.Placeholder, 100),
				Value:       clip(in.Value, max),
				Required:    in.Required,
				MaxLength:   max,
			},
		}})
	}
	return d
}

// responseData is a message as the data of a type-4 or type-7 callback.
func (m message) responseData() *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		Flags:           m.flags,
		AllowedMentions: allowNoMentions(),
	}
}

// webhookEdit is a message as an edit of @original. Every part is set, so
// the edit replaces the "thinking…" placeholder completely.
func (m message) webhookEdit() *discordgo.WebhookEdit {
	return &discordgo.WebhookEdit{
		Content:         &m.content,
		Embeds:          &m.embeds,
		Components:      &m.components,
		Files:           m.files,
		AllowedMentions: allowNoMentions(),
	}
}

// webhookParams is a message as a follow-up.
func (m message) webhookParams() *discordgo.WebhookParams {
	return &discordgo.WebhookParams{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		Flags:           m.flags,
		AllowedMentions: allowNoMentions(),
	}
}

// messageSend is a message posted in a channel, as a reply to ref when set.
// Channel messages cannot be ephemeral; the flag is dropped.
func (m message) messageSend(ref *discordgo.MessageReference) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		Reference:       ref,
		AllowedMentions: allowNoMentions(),
	}
}

// toCommand converts a command spec for registration.
func toCommand(s commands.CommandSpec) *discordgo.ApplicationCommand {
	c := &discordgo.ApplicationCommand{
		Type:                     discordgo.ApplicationCommandType(s.Type),
		Name:                     s.Name,
		DefaultMemberPermissions: s.DefaultMemberPermissions,
	}
	if s.Type != commands.MessageAction {
		c.Description = s.Description
		c.Options = toOptions(s.Options)
	}
	return c
}

func toOptions(specs []commands.OptionSpec) []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, o := range specs {
		opt := &discordgo.ApplicationCommandOption{
			Type:        discordgo.ApplicationCommandOptionType(o.Type),
			Name:        o.Name,
			Description: o.Description,
			Required:    o.Required,
			Options:     toOptions(o.Options),
		}
		for _, ch := range o.Choices {
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value})
		}
		out = append(out, opt)
	}
	return out
}
