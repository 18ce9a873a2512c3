package fakediscord

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Channels, threads and the bot's messages in them, as Discord keeps
// them:
//
//   - a channel the fake was not told of is a guild text channel (type 0)
//     of no guild; AddChannel makes one of another kind or guild;
//   - POST /channels/{id}/messages/{message}/threads makes a public thread
//     (type 11, or 10 in an announcement channel) from a message: its id is
//     the message's, its parent the channel; a name of 1 to 100
//     characters, auto_archive_duration one of 60, 1440, 4320, 10080
//     minutes; one thread per message (160004); none from a thread, a DM
//     or a voice channel (50024); THREAD_CREATE goes out on the gateway;
//   - a public answer to an interaction (callback type 4, or 5 then edits,
//     without flag 64) is a message of the interaction's channel, as on
//     Discord: a thread can be made from it, and deleting @original
//     deletes it;
//   - messages are posted (POST /channels/{id}/messages) and edited (PATCH
//     /channels/{id}/messages/{message}) in threads as in channels; only
//     the author may edit (50005);
//   - Deny takes permissions from the bot in a guild, a channel, or a
//     thread (a thread also loses what its parent and guild lost): Send
//     Messages, Send Messages in Threads, Create Public Threads; a call
//     that needs one gets 403 Missing Permissions (50013);
//   - a message posted with a nonce and enforce_nonce true is created once:
//     the same nonce from the same author in the same channel within
//     NonceWindow gets the message already made, not a new one;
//   - message creates and edits are rate limited per channel (ratelimit.go).

// Permission bits the fake checks, as Discord numbers them.
const (
	PermSendMessages         int64 = 1 << 11
	PermCreatePublicThreads  int64 = 1 << 35
	PermSendMessagesInThread int64 = 1 << 38
)

// Channel types, as Discord numbers them.
const (
	GuildText          = 0
	DMChannel          = 1
	GuildVoice         = 2
	GuildAnnouncement  = 5
	AnnouncementThread = 10
	PublicThread       = 11
)

// ChannelInfo is a channel (or thread) as the fake keeps it.
type ChannelInfo struct {
	ID      string
	GuildID string
	Type    int
	// ParentID is a thread's channel.
	ParentID string
	// Name is a thread's name.
	Name string
	// AutoArchive is a thread's auto_archive_duration, in minutes.
	AutoArchive int
}

// IsThread reports whether c is a thread.
func (c ChannelInfo) IsThread() bool {
	return c.Type == PublicThread || c.Type == AnnouncementThread || c.Type == 12
}

// json is the channel object Discord returns.
func (c ChannelInfo) json(owner string, created time.Time) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type}
	if c.GuildID != "" {
		m["guild_id"] = c.GuildID
	}
	if c.IsThread() {
		m["parent_id"] = c.ParentID
		m["name"] = c.Name
		m["owner_id"] = owner
		m["message_count"] = 0
		m["member_count"] = 1
		m["rate_limit_per_user"] = 0
		m["thread_metadata"] = map[string]any{
			"archived": false, "auto_archive_duration": c.AutoArchive, "locked": false,
			"archive_timestamp": created.UTC().Format(time.RFC3339),
		}
	}
	return m
}

// DefaultNonceWindow is how long a nonce keeps its message: Discord says
// "the past few minutes"; two is the fake's reading.
const DefaultNonceWindow = 2 * time.Minute

// nonceKey identifies a nonce: channel, author, nonce.
type nonceKey struct{ channel, author, nonce string }

// nonceSeen is the message a nonce made, and when.
type nonceSeen struct {
	id string
	at time.Time
}

// AddChannel tells the fake of a channel (its guild and type); a channel
// it was not told of is a text channel of no guild.
func (s *Server) AddChannel(c ChannelInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cc := c
	s.channels[c.ID] = &cc
}

// Channel returns the channel or thread id as the fake knows it.
func (s *Server) Channel(id string) (ChannelInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[id]
	if !ok {
		return ChannelInfo{}, false
	}
	return *c, true
}

// Threads returns the threads made in channel, oldest first.
func (s *Server) Threads(channelID string) []ChannelInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ChannelInfo
	for _, c := range s.channels {
		if c.IsThread() && c.ParentID == channelID {
			out = append(out, *c)
		}
	}
	slices.SortFunc(out, func(a, b ChannelInfo) int { return compareIDs(a.ID, b.ID) })
	return out
}

// Messages returns the messages of a channel or thread as they are now
// (edits applied), oldest first.
func (s *Server) Messages(channelID string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Shallow copies: a message's answer is encoded, and a test reads it,
	// outside the fake's lock while edits replace its fields.
	var out []map[string]any
	for _, m := range s.messages[channelID] {
		out = append(out, maps.Clone(m))
	}
	slices.SortFunc(out, func(a, b map[string]any) int {
		x, _ := a["id"].(string)
		y, _ := b["id"].(string)
		return compareIDs(x, y)
	})
	return out
}

// compareIDs orders snowflakes: by length, then as text.
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// Deny takes perms (Perm* bits) from the bot in a guild, channel or
// thread id; Deny(id, 0) gives them back.
func (s *Server) Deny(id string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if perms == 0 {
		delete(s.denied, id)
		return
	}
	s.denied[id] = perms
}

// channelOf is the channel id as the fake knows it, or a text channel of
// no guild. s.mu is held.
func (s *Server) channelOf(id string) ChannelInfo {
	if c, ok := s.channels[id]; ok {
		return *c
	}
	return ChannelInfo{ID: id, Type: GuildText}
}

// BotPermissions are the bot's permissions where nothing was denied: those
// its invite asks for (View Channels, Send Messages, Embed Links, Attach
// Files, Read Message History, Create Public Threads, Send Messages in
// Threads).
const BotPermissions int64 = 1<<10 | 1<<11 | 1<<14 | 1<<15 | 1<<16 | PermCreatePublicThreads | PermSendMessagesInThread

// appPermissions is what an interaction in channel c says the bot may do
// there (its app_permissions). s.mu is held.
func (s *Server) appPermissions(c ChannelInfo) int64 {
	p := BotPermissions
	for _, perm := range []int64{PermSendMessages, PermCreatePublicThreads, PermSendMessagesInThread} {
		if s.lacks(c, perm) {
			p &^= perm
		}
	}
	return p
}

// lacks reports whether the bot lacks perm in channel c: denied there, in
// its parent (for a thread) or in its guild. s.mu is held.
func (s *Server) lacks(c ChannelInfo, perm int64) bool {
	for _, id := range []string{c.ID, c.ParentID, c.GuildID} {
		if id != "" && s.denied[id]&perm != 0 {
			return true
		}
	}
	if c.IsThread() {
		if p, ok := s.channels[c.ParentID]; ok && p.GuildID != "" && s.denied[p.GuildID]&perm != 0 {
			return true
		}
	}
	return false
}

var (
	errMissingPerms   = apiError{"Missing Permissions", 50013}
	errUnknownMessage = apiError{"Unknown Message", 10008}
	errNotAuthor      = apiError{"Cannot edit a message authored by another user", 50005}
	errThreadExists   = apiError{"A thread has already been created for this message", 160004}
	errChannelType    = apiError{"Cannot execute action on this channel type", 50024}
)

// fileNames lists the names of uploaded files.
func fileNames(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

// attachmentNames lists the file names of the attachments a stored
// message m keeps through an edit: those the edit's "attachments" lists
// (by id), or all when it has none.
func attachmentNames(m, edit map[string]any) []string {
	keep, listed := edit["attachments"]
	ids := map[string]bool{}
	for _, a := range list(keep) {
		if id, ok := object(a)["id"].(string); ok {
			ids[id] = true
		}
	}
	var out []string
	for _, a := range list(m["attachments"]) {
		id, _ := object(a)["id"].(string)
		if n, ok := object(a)["filename"].(string); ok && (!listed || ids[id]) {
			out = append(out, n)
		}
	}
	return out
}

// checkNonce validates a message's nonce: a string of at most 25
// characters or an integer. It returns the nonce as text ("" for none).
func checkNonce(e *formErrors, body map[string]any) string {
	switch v := body["nonce"].(type) {
	case nil:
		return ""
	case string:
		maxLen(e, "nonce", v, 25)
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	default:
		e.add("nonce", "BASE_TYPE_BAD_TYPE", "Must be a string or an integer.")
		return ""
	}
}

func (s *Server) channelMessage(c *Call, channel string) (int, any) {
	var body map[string]any
	if err := c.Decode(&body); err != nil {
		return http.StatusBadRequest, apiError{"Invalid Form Body", 50035}
	}
	var e formErrors
	checkMessage(&e, "", body, msgCtx{files: fileNames(c.Files), v2: isV2(body["flags"])})
	nonce := checkNonce(&e, body)
	if !e.ok() {
		return invalid(&e)
	}
	if emptyMessage(body, len(c.Files)) {
		return http.StatusBadRequest, errEmpty
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channelOf(channel)
	perm := PermSendMessages
	if ch.IsThread() {
		perm = PermSendMessagesInThread
	}
	if s.lacks(ch, perm) {
		return http.StatusForbidden, errMissingPerms
	}
	enforce, _ := body["enforce_nonce"].(bool)
	key := nonceKey{channel, s.opts.BotUser.ID, nonce}
	if enforce && nonce != "" {
		if seen, ok := s.nonces[key]; ok && time.Since(seen.at) < s.opts.NonceWindow {
			if m := s.messages[channel][seen.id]; m != nil {
				return 200, maps.Clone(m)
			}
		}
	}
	m := s.messageFrom(body, channel, c.Files)
	if v, ok := body["nonce"]; ok && v != nil {
		m["nonce"] = v
	}
	if ref := object(body["message_reference"]); ref != nil {
		m["message_reference"] = ref
	}
	if s.messages[channel] == nil {
		s.messages[channel] = map[string]map[string]any{}
	}
	s.messages[channel][m["id"].(string)] = m
	if nonce != "" {
		s.nonces[key] = nonceSeen{id: m["id"].(string), at: time.Now()}
	}
	return 200, maps.Clone(m)
}

// editChannelMessage is PATCH /channels/{channel}/messages/{id}.
func (s *Server) editChannelMessage(c *Call, channel, id string) (int, any) {
	var body map[string]any
	if err := c.Decode(&body); err != nil {
		return http.StatusBadRequest, apiError{"Invalid Form Body", 50035}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[channel][id]
	if m == nil {
		return http.StatusNotFound, errUnknownMessage
	}
	if a, ok := m["author"].(User); !ok || a.ID != s.opts.BotUser.ID {
		return http.StatusForbidden, errNotAuthor
	}
	var e formErrors
	after := s.editedMessage(&e, m, body, c.Files)
	if !e.ok() {
		return invalid(&e)
	}
	if emptyMessage(after, len(c.Files)) {
		return http.StatusBadRequest, errEmpty
	}
	for k := range m {
		delete(m, k)
	}
	for k, v := range after {
		m[k] = v
	}
	if len(c.Files) > 0 {
		m["attachments"] = append(list(m["attachments"]), s.attachmentsFor(c.Files)...)
	}
	m["edited_timestamp"] = time.Now().UTC().Format(time.RFC3339)
	return 200, maps.Clone(m)
}

// editedMessage validates an edit of m and returns m as the edit would
// leave it (m itself is untouched). Discord's rules: the body is checked
// as a message; IS_COMPONENTS_V2 can be set by an edit (the legacy fields
// must then be cleared) but never removed. s.mu is held.
func (s *Server) editedMessage(e *formErrors, m, body map[string]any, files []File) map[string]any {
	wasV2 := isV2(m["flags"])
	flags, hasFlags := body["flags"]
	if wasV2 && hasFlags && !isV2(flags) {
		e.add("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message that has it.")
	}
	after := map[string]any{}
	for k, v := range m {
		after[k] = v
	}
	for k, v := range body {
		switch k {
		case "content", "embeds", "components", "allowed_mentions":
			after[k] = v
		}
	}
	if keep, ok := body["attachments"]; ok {
		ids := map[string]bool{}
		for _, a := range list(keep) {
			if id, ok := object(a)["id"].(string); ok {
				ids[id] = true
			}
		}
		var kept []any
		for _, a := range list(m["attachments"]) {
			if id, _ := object(a)["id"].(string); ids[id] {
				kept = append(kept, a)
			}
		}
		after["attachments"] = kept
	}
	f, _ := number(m["flags"])
	if hasFlags {
		nf, _ := number(flags)
		f = nf | f&flagComponentsV2
	}
	after["flags"] = float64(f)
	names := append(fileNames(files), attachmentNames(m, body)...)
	checkMessage(e, "", body, msgCtx{files: names, v2: wasV2 || isV2(flags), after: after})
	return after
}

// autoArchive are the thread lifetimes Discord accepts, in minutes.
var autoArchive = map[int]bool{60: true, 1440: true, 4320: true, 10080: true}

// startThread is POST /channels/{channel}/messages/{id}/threads.
func (s *Server) startThread(c *Call, channel, id string) (int, any) {
	var body map[string]any
	if err := c.Decode(&body); err != nil {
		return http.StatusBadRequest, apiError{"Invalid Form Body", 50035}
	}
	var e formErrors
	between(&e, "name", body["name"], 1, 100)
	minutes := 4320 // the channel's default; Discord's is 3 days
	if v, ok := body["auto_archive_duration"]; ok && v != nil {
		n, isNum := number(v)
		if !isNum || !autoArchive[n] {
			e.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
		}
		minutes = n
	}
	if v, ok := body["rate_limit_per_user"]; ok && v != nil {
		if n, _ := number(v); n < 0 || n > 21600 {
			e.add("rate_limit_per_user", "NUMBER_TYPE_MAX", "int value should be between 0 and 21600.")
		}
	}
	if !e.ok() {
		return invalid(&e)
	}
	s.mu.Lock()
	ch := s.channelOf(channel)
	if ch.IsThread() || (ch.Type != GuildText && ch.Type != GuildAnnouncement) {
		s.mu.Unlock()
		return http.StatusBadRequest, errChannelType
	}
	if s.lacks(ch, PermCreatePublicThreads) {
		s.mu.Unlock()
		return http.StatusForbidden, errMissingPerms
	}
	m := s.messages[channel][id]
	if m == nil {
		s.mu.Unlock()
		return http.StatusNotFound, errUnknownMessage
	}
	if _, taken := s.channels[id]; taken || m["thread"] != nil {
		s.mu.Unlock()
		return http.StatusBadRequest, errThreadExists
	}
	kind := PublicThread
	if ch.Type == GuildAnnouncement {
		kind = AnnouncementThread
	}
	name, _ := body["name"].(string)
	th := ChannelInfo{ID: id, GuildID: ch.GuildID, Type: kind, ParentID: channel, Name: name, AutoArchive: minutes}
	s.channels[id] = &th
	obj := th.json(s.opts.BotUser.ID, time.Now())
	m["thread"] = obj
	f, _ := number(m["flags"])
	m["flags"] = float64(f | 1<<5) // HAS_THREAD
	s.mu.Unlock()
	ev := map[string]any{"newly_created": true}
	for k, v := range obj {
		ev[k] = v
	}
	s.Dispatch("THREAD_CREATE", ev) // no gateway session: nobody to tell
	return http.StatusCreated, obj
}

// getChannel is GET /channels/{id}.
func (s *Server) getChannel(id string) (int, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return 200, s.channelOf(id).json(s.opts.BotUser.ID, time.Now())
}
