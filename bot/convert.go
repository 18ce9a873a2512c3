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
// the .txt and picture attachments of a message command's target, which the caller
// downloads (that is I/O, kept out of here).
func interactionRequest(in *discordgo.Interaction, now time.Time) (commands.Request, []*discordgo.MessageAttachment, error) {
	req := commands.Request{
		ID:        in.ID,
		GuildID:   in.GuildID,
		ChannelID: in.ChannelID,
		Now:       now,
		Locale:    string(in.Locale),
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
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
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
				atts = append(textAttachments(target.Attachments), imageAttachments(target.Attachments)...)
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
				if o.Focused {
					req.Focused = o.Name
				}
			}
			if in.Type == discordgo.InteractionApplicationCommandAutocomplete {
				// Only the options typed so far; nothing to download.
				req.Kind = commands.Autocomplete
				return req, nil, nil
			}
			// A picture given as an attachment option (/solve image:…).
			for _, o := range opts {
				if o != nil && o.Type == discordgo.ApplicationCommandOptionAttachment && d.Resolved != nil {
					if id, ok := o.Value.(string); ok {
						if a := d.Resolved.Attachments[id]; a != nil && isImage(a) {
							atts = append(atts, a)
						}
					}
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
			req.MessageID = m.ID
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
		if m := in.Message; m != nil { // a modal opened from a button
			req.MessageID = m.ID
		}
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

// clip is commands.Clip: Discord's limits (commands.Max*) are enforced
// here as a last line of defence, since a reply over one is refused with a
// 400 and the user would see nothing.
func clip(s string, n int) string { return commands.Clip(s, n) }

// fitEmbedTotal shortens descriptions, longest first, until all embeds
// together hold at most commands.MaxEmbedTotal characters.
func fitEmbedTotal(embeds []*discordgo.MessageEmbed) {
	runes := utf8.RuneCountInString
	total := 0
	for _, e := range embeds {
		total += runes(e.Title) + runes(e.Description)
		for _, f := range e.Fields {
			total += runes(f.Name) + runes(f.Value)
		}
		if e.Footer != nil {
			total += runes(e.Footer.Text)
		}
		if e.Author != nil {
			total += runes(e.Author.Name)
		}
	}
	for total > commands.MaxEmbedTotal {
		var longest *discordgo.MessageEmbed
		for _, e := range embeds {
			if longest == nil || runes(e.Description) > runes(longest.Description) {
				longest = e
			}
		}
		n := runes(longest.Description)
		if n == 0 {
			return // titles, fields and footers alone cannot exceed it within their own limits
		}
		keep := max(n-(total-commands.MaxEmbedTotal), 0)
		longest.Description = clip(longest.Description, keep)
		total -= n - runes(longest.Description)
	}
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
	// v2 is set for a Components V2 layout (flag IS_COMPONENTS_V2 in
	// flags): components are its blocks, content and embeds are empty.
	v2 bool
}

// toMessage converts a response's message part. Files get fresh readers on
// every call, so the same response can be sent twice (a retry, a fallback).
func toMessage(r commands.Response) message {
	m := message{
		content:    clip(r.Content, commands.MaxContent),
		embeds:     []*discordgo.MessageEmbed{},
		components: []discordgo.MessageComponent{},
	}
	for i, e := range r.Embeds {
		if i == commands.MaxEmbeds {
			break
		}
		me := &discordgo.MessageEmbed{
			Type:        discordgo.EmbedTypeRich,
			Title:       clip(e.Title, commands.MaxEmbedTitle),
			Description: clip(e.Description, commands.MaxEmbedDescription),
			Color:       e.Color,
		}
		for j, f := range e.Fields {
			if j == commands.MaxEmbedFields {
				break
			}
			me.Fields = append(me.Fields, &discordgo.MessageEmbedField{
				Name: clip(f.Name, commands.MaxEmbedFieldName), Value: clip(f.Value, commands.MaxEmbedFieldValue), Inline: f.Inline,
			})
		}
		if e.Footer != "" {
			me.Footer = &discordgo.MessageEmbedFooter{Text: clip(e.Footer, commands.MaxEmbedFooter)}
		}
		if e.Image != "" {
			me.Image = &discordgo.MessageEmbedImage{URL: e.Image}
		}
		m.embeds = append(m.embeds, me)
	}
	fitEmbedTotal(m.embeds)
	for i, row := range r.Components {
		if i == commands.MaxActionRows {
			break
		}
		ar := discordgo.ActionsRow{}
		for j, b := range row.Buttons {
			if j == commands.MaxButtonsPerRow {
				break
			}
			ar.Components = append(ar.Components, toButton(b))
		}
		if len(ar.Components) > 0 {
			m.components = append(m.components, ar)
		}
	}
	if len(r.Blocks) > 0 {
		m.content, m.embeds, m.v2 = "", []*discordgo.MessageEmbed{}, true
		m.components = toLayout(r.Blocks, r.Components, r.Files)
		m.flags |= discordgo.MessageFlagsIsComponentsV2
	}
	for i, f := range r.Files {
		if i == commands.MaxFiles {
			break
		}
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		m.files = append(m.files, &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)})
	}
	if r.Ephemeral {
		m.flags |= discordgo.MessageFlagsEphemeral
	}
	return m
}

// toButton converts a button, clipped to Discord's limits; an unknown
// style becomes Secondary.
func toButton(b commands.Button) discordgo.Button {
	style := discordgo.ButtonStyle(b.Style)
	if style < discordgo.PrimaryButton || style > discordgo.DangerButton {
		style = discordgo.SecondaryButton
	}
	return discordgo.Button{
		Label:    clip(b.Label, commands.MaxButtonLabel),
		CustomID: clip(b.CustomID, commands.MaxCustomID),
		Style:    style,
		Disabled: b.Disabled,
	}
}

// toModal converts a modal to the data of a type-9 response.
func toModal(md *commands.Modal) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		CustomID: clip(md.CustomID, commands.MaxCustomID),
		Title:    clip(md.Title, commands.MaxModalTitle),
	}
	for i, in := range md.Inputs {
		if i == commands.MaxModalRows {
			break
		}
		style := discordgo.TextInputShort
		if in.Paragraph {
			style = discordgo.TextInputParagraph
		}
		max := in.MaxLength
		if max <= 0 || max > commands.MaxTextInputLength {
			max = commands.MaxTextInputLength
		}
		d.Components = append(d.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{
				CustomID:    clip(in.CustomID, commands.MaxCustomID),
				Label:       clip(in.Label, commands.MaxTextInputLabel),
				Style:       style,
				Placeholder: clip(in.Placeholder, commands.MaxTextInputPlaceholder),
				Value:       clip(in.Value, max),
				Required:    in.Required,
				MaxLength:   max,
			},
		}})
	}
	return d
}

// responseData is a message as the data of a type-4 or type-7 callback.
// A V2 layout sends an empty content and no embeds, as Discord requires.
func (m message) responseData() *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		Flags:           m.flags,
		AllowedMentions: allowNoMentions(),
	}
	if m.v2 {
		d.Embeds = nil
	}
	return d
}

// editBody is an edit of @original: discordgo's WebhookEdit has no flags,
// which an edit into a V2 layout must carry.
type editBody struct {
	discordgo.WebhookEdit
	Flags discordgo.MessageFlags `json:"flags,omitempty"`
}

// webhookEdit is a message as an edit of @original. Every part is set, so
// the edit replaces the "thinking…" placeholder completely; a V2 layout
// leaves content and embeds out and sets its flag.
func (m message) webhookEdit() *editBody {
	e := &editBody{WebhookEdit: discordgo.WebhookEdit{
		Content:         &m.content,
		Embeds:          &m.embeds,
		Components:      &m.components,
		Files:           m.files,
		AllowedMentions: allowNoMentions(),
	}}
	if m.v2 {
		e.Content, e.Embeds = nil, nil
		e.Flags = discordgo.MessageFlagsIsComponentsV2
	}
	return e
}

// webhookParams is a message as a follow-up.
func (m message) webhookParams() *discordgo.WebhookParams {
	p := &discordgo.WebhookParams{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		Files:           m.files,
		Flags:           m.flags,
		AllowedMentions: allowNoMentions(),
	}
	if m.v2 {
		p.Embeds = nil
	}
	return p
}

// channelPayload is a message posted in a channel (edit false) or the
// body of an edit of one (edit true), as JSON fields. Channel messages
// cannot be ephemeral: the flag is dropped. An edit sets every part, so
// it replaces the message's body, files included (attachments: [] keeps
// none of the old ones; the edit's own files are added). A V2 layout
// sends no content or embeds (an edit clears them: content null), and its
// flag.
func (m message) channelPayload(edit bool) map[string]any {
	p := map[string]any{"allowed_mentions": allowNoMentions(), "components": m.components}
	if m.v2 {
		p["flags"] = discordgo.MessageFlagsIsComponentsV2
		if edit {
			p["content"] = nil
			p["embeds"] = []any{}
		}
	} else {
		if m.content != "" || edit {
			p["content"] = m.content
		}
		if len(m.embeds) > 0 || edit {
			p["embeds"] = m.embeds
		}
	}
	if edit {
		p["attachments"] = []any{}
	}
	return p
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
			Type:         discordgo.ApplicationCommandOptionType(o.Type),
			Name:         o.Name,
			Description:  o.Description,
			Required:     o.Required,
			Options:      toOptions(o.Options),
			Autocomplete: o.Autocomplete,
		}
		for _, ch := range o.Choices {
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value})
		}
		out = append(out, opt)
	}
	return out
}

// responseLaunchActivity is Discord's LAUNCH_ACTIVITY callback type (12),
// which discordgo v0.29 does not name: the client opens the app's
// Activity. It answers an application command or a component, with no
// data.
const responseLaunchActivity discordgo.InteractionResponseType = 12
