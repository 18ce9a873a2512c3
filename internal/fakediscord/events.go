package fakediscord

import (
	"encoding/json"
	"strconv"
	"time"
)

// Interaction types, as Discord numbers them.
const (
	ApplicationCommand = 2
	MessageComponent   = 3
	Autocomplete       = 4
	ModalSubmit        = 5
)

// Interaction is an interaction to inject. Data is the "data" object (see
// Slash, MessageCommand, Button, Modal); Message is the message a
// component is on.
type Interaction struct {
	// ID, when set, is the interaction's id (the caller keeps ids unique);
	// else the fake picks one.
	ID        string
	Type      int
	GuildID   string // empty: a DM, the user is sent as "user" instead of "member"
	ChannelID string
	User      User
	Data      any
	Message   map[string]any
}

// Pending identifies an injected interaction.
type Pending struct {
	ID, Token string
}

// Interact injects an INTERACTION_CREATE with a fresh id and token; the
// callback deadline starts now.
func (s *Server) Interact(in Interaction) (Pending, error) {
	p, d := s.newInteraction(in)
	return p, s.Dispatch("INTERACTION_CREATE", d)
}

// newInteraction registers a fresh id and token for in (so its callbacks
// and webhooks are accepted; the callback deadline starts now) and returns
// the interaction as Discord sends it, over the gateway or over HTTP.
func (s *Server) newInteraction(in Interaction) (Pending, map[string]any) {
	s.mu.Lock()
	p := Pending{ID: in.ID}
	if p.ID == "" {
		p.ID = s.id()
	}
	p.Token = "itoken-" + p.ID
	if in.ChannelID == "" {
		in.ChannelID = "300"
	}
	s.interactions[p.Token] = &interaction{id: p.ID, token: p.Token, injected: time.Now(), kind: in.Type, channel: in.ChannelID, msgFlags: in.Message["flags"]}
	ch := s.channelOf(in.ChannelID)
	if ch.GuildID == "" {
		ch.GuildID = in.GuildID
	}
	perms := s.appPermissions(ch)
	s.mu.Unlock()
	d := map[string]any{
		"id": p.ID, "application_id": s.opts.AppID, "type": in.Type, "token": p.Token,
		"version": 1, "channel_id": in.ChannelID, "data": in.Data, "locale": "en-US",
		"app_permissions": strconv.FormatInt(perms, 10),
	}
	if in.GuildID != "" {
		d["guild_id"] = in.GuildID
		d["member"] = map[string]any{"user": in.User, "permissions": "2147483647", "roles": []string{}}
	} else {
		d["user"] = in.User
	}
	if in.Message != nil {
		d["message"] = in.Message
	}
	resolveChannels(in)
	return p, d
}

// ForgetInteractions drops every interaction injected so far: their
// tokens stop working. With Options.Forget, a load test that measures
// memory calls it when the bot has answered, so the fake holds nothing.
func (s *Server) ForgetInteractions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interactions = map[string]*interaction{}
}

// InteractRaw injects an INTERACTION_CREATE whose id and token are
// registered (so callbacks are accepted) but whose body is d as given:
// d may be malformed. The caller puts id and token where it likes.
func (s *Server) InteractRaw(build func(id, token string) json.RawMessage) (Pending, error) {
	s.mu.Lock()
	p := Pending{ID: s.id()}
	p.Token = "itoken-" + p.ID
	s.interactions[p.Token] = &interaction{id: p.ID, token: p.Token, injected: time.Now()}
	s.mu.Unlock()
	return p, s.Dispatch("INTERACTION_CREATE", build(p.ID, p.Token))
}

// Option is one slash-command option.
type Option struct {
	Name    string   `json:"name"`
	Type    int      `json:"type"`
	Value   any      `json:"value,omitempty"`
	Options []Option `json:"options,omitempty"`
	// Guild is the server of a channel option (type 7) as Discord resolves
	// it; empty means the interaction's own server.
	Guild string `json:"-"`
	// Focused marks the option being typed in an autocomplete interaction.
	Focused bool `json:"focused,omitempty"`
}

// Typing is option o as the one being typed, in an autocomplete
// interaction's data.
func Typing(o Option) Option {
	o.Focused = true
	return o
}

// Channel builds a channel option (type 7) naming channel id of guild
// (empty: the interaction's server).
func Channel(name, id, guild string) Option {
	return Option{Name: name, Type: 7, Value: id, Guild: guild}
}

// resolveChannels adds Discord's "resolved" data for the channel options
// of a slash command's data, as Discord does: each channel with its server.
func resolveChannels(in Interaction) {
	data, ok := in.Data.(map[string]any)
	if !ok {
		return
	}
	opts, _ := data["options"].([]Option)
	channels := map[string]any{}
	var walk func([]Option)
	walk = func(opts []Option) {
		for _, o := range opts {
			walk(o.Options)
			id, ok := o.Value.(string)
			if o.Type != 7 || !ok {
				continue
			}
			guild := o.Guild
			if guild == "" {
				guild = in.GuildID
			}
			channels[id] = map[string]any{"id": id, "type": 0, "name": "channel-" + id, "guild_id": guild, "permissions": "2147483647"}
		}
	}
	walk(opts)
	if len(channels) > 0 {
		data["resolved"] = map[string]any{"channels": channels}
	}
}

// Str, Bool and Int build options of Discord's types 3, 5 and 4.
func Str(name, v string) Option       { return Option{Name: name, Type: 3, Value: v} }
func Bool(name string, v bool) Option { return Option{Name: name, Type: 5, Value: v} }
func Int(name string, v int) Option   { return Option{Name: name, Type: 4, Value: v} }

// Sub builds a sub-command option holding opts.
func Sub(name string, opts ...Option) Option {
	return Option{Name: name, Type: 1, Options: opts}
}

// Slash is the data of a slash command.
func Slash(name string, opts ...Option) map[string]any {
	if opts == nil {
		opts = []Option{}
	}
	return map[string]any{"id": "900", "name": name, "type": 1, "options": opts}
}

// MessageCommand is the data of an Apps-menu command on target (a message
// object with at least "id" and "content").
func MessageCommand(name string, target map[string]any) map[string]any {
	id, _ := target["id"].(string)
	return map[string]any{
		"id": "901", "name": name, "type": 3, "target_id": id,
		"resolved": map[string]any{"messages": map[string]any{id: target}},
	}
}

// Button is the data of a button click.
func Button(customID string) map[string]any {
	return map[string]any{"custom_id": customID, "component_type": 2}
}

// Modal is the data of a submitted modal with one paragraph input per field.
func Modal(customID string, fields map[string]string) map[string]any {
	rows := []any{}
	for id, v := range fields {
		rows = append(rows, map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 4, "custom_id": id, "value": v},
		}})
	}
	return map[string]any{"custom_id": customID, "components": rows}
}

// Message is a MESSAGE_CREATE payload from author in channel.
func Message(id, channelID, guildID string, author User, content string) map[string]any {
	m := map[string]any{
		"id": id, "channel_id": channelID, "author": author, "content": content,
		"timestamp": time.Now().UTC().Format(time.RFC3339), "mentions": []any{},
		"attachments": []any{}, "embeds": []any{}, "type": 0,
	}
	if guildID != "" {
		m["guild_id"] = guildID
	}
	return m
}
