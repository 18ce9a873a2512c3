package fakediscord

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// What the fake knows of Activities (Discord's Embedded App SDK side):
// the OAuth2 token endpoint the page's authorize() code is exchanged at,
// users/@me with the user's bearer token, activity instances, the
// LAUNCH_ACTIVITY callback (type 12) and the app's entry-point command.
// With Options.Activities unset the app is not embedded: Discord then
// refuses callback type 12 and entry-point commands.

// Discord's application command type and handlers of an entry point.
const (
	EntryPointCommand       = 4 // PRIMARY_ENTRY_POINT
	EntryPointAppHandler    = 1 // APP_HANDLER: the app answers the interaction
	EntryPointLaunchHandler = 2 // DISCORD_LAUNCH_ACTIVITY: Discord launches the Activity
)

// errEntryPointDropped is Discord's answer to a global bulk overwrite that
// leaves out the app's entry-point command.
var errEntryPointDropped = apiError{"You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.", 50240}

// oauthGrant is what a code or an access token stands for.
type oauthGrant struct {
	user User
}

// AddOAuthCode makes code a valid authorization code for u, as the SDK's
// authorize() hands one to the page. It can be exchanged once.
func (s *Server) AddOAuthCode(code string, u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = oauthGrant{user: u}
}

// SetActivityInstance makes an Activity instance with these users in it
// (replacing one of the same id), for GET
// /applications/{app}/activity-instances/{id}.
// Its location is a private channel (a DM or group DM: kind "pc"); see
// SetGuildActivityInstance for one in a server's channel.
func (s *Server) SetActivityInstance(instanceID, channelID string, userIDs ...string) {
	s.SetGuildActivityInstance(instanceID, "", channelID, userIDs...)
}

// SetGuildActivityInstance is SetActivityInstance for an instance in a
// channel of server guildID (location kind "gc", with the guild's id).
func (s *Server) SetGuildActivityInstance(instanceID, guildID, channelID string, userIDs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.instances[instanceID] = activityInstance{guild: guildID, channel: channelID, users: append([]string(nil), userIDs...)}
}

type activityInstance struct {
	guild, channel string
	users          []string
}

// oauthError is the OAuth2 error body (RFC 6749 §5.2), which Discord's
// token endpoint answers with instead of its usual {message, code}.
func oauthError(status int, code, desc string) (int, any) {
	b := map[string]any{"error": code}
	if desc != "" {
		b["error_description"] = desc
	}
	return status, b
}

// token answers POST /oauth2/token: an authorization_code grant, the
// client authenticated by client_id and client_secret in the form or by
// HTTP Basic, a form-encoded body. A code works once.
func (s *Server) token(c *Call) (int, any) {
	if mt := strings.TrimSpace(strings.Split(c.ContentType, ";")[0]); mt != "application/x-www-form-urlencoded" {
		return oauthError(http.StatusBadRequest, "invalid_request", "The request body must be application/x-www-form-urlencoded.")
	}
	form, err := url.ParseQuery(string(c.Body))
	if err != nil {
		return oauthError(http.StatusBadRequest, "invalid_request", "The request body is not a valid form.")
	}
	id, secret := form.Get("client_id"), form.Get("client_secret")
	if u, p, ok := basicAuth(c.Auth); ok {
		id, secret = u, p
	}
	if id != s.opts.AppID || s.opts.ClientSecret == "" || secret != s.opts.ClientSecret {
		return oauthError(http.StatusUnauthorized, "invalid_client", "")
	}
	switch form.Get("grant_type") {
	case "authorization_code":
	case "":
		return oauthError(http.StatusBadRequest, "invalid_request", "Missing \"grant_type\" in request.")
	default:
		return oauthError(http.StatusBadRequest, "unsupported_grant_type", "")
	}
	code := form.Get("code")
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.codes[code]
	if !ok {
		// The code came from the page: a replayed or forged one is not
		// the bot's fault (not counted by Refused).
		c.Untrusted = true
		return oauthError(http.StatusBadRequest, "invalid_grant", "Invalid \"code\" in request.")
	}
	delete(s.codes, code)
	tok := "atoken-" + s.id()
	s.tokens[tok] = g
	return 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": "rtoken-" + s.id(), "scope": "identify"}
}

// basicAuth reads an "Authorization: Basic" header.
func basicAuth(h string) (user, pass string, ok bool) {
	b64, found := strings.CutPrefix(h, "Basic ")
	if !found {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", "", false
	}
	user, pass, ok = strings.Cut(string(raw), ":")
	return user, pass, ok
}

// bearerMe answers GET /users/@me with a user's bearer token.
func (s *Server) bearerMe(c *Call) (int, any) {
	tok := strings.TrimPrefix(c.Auth, "Bearer ")
	s.mu.Lock()
	g, ok := s.tokens[tok]
	s.mu.Unlock()
	if !ok {
		return http.StatusUnauthorized, apiError{"401: Unauthorized", 0}
	}
	return 200, map[string]any{"id": g.user.ID, "username": g.user.Username, "global_name": g.user.GlobalName,
		"discriminator": "0", "avatar": nil}
}

// activityInstance answers GET /applications/{app}/activity-instances/{id}.
func (s *Server) activityInstance(app, id string) (int, any) {
	if app != s.opts.AppID {
		return http.StatusNotFound, apiError{"Unknown Application", 10002}
	}
	s.mu.Lock()
	in, ok := s.instances[id]
	s.mu.Unlock()
	if !ok || !s.opts.Activities {
		return http.StatusNotFound, apiError{"404: Not Found", 0}
	}
	return 200, map[string]any{
		"application_id": app, "instance_id": id, "launch_id": "1",
		"location": instanceLocation(in),
		"users":    in.users,
	}
}

// checkLaunch validates a LAUNCH_ACTIVITY callback: only an embedded app,
// only for an application command or a component, and no data.
func (s *Server) checkLaunch(e *formErrors, in *interaction, hasData bool) {
	switch {
	case !s.opts.Activities:
		e.add("type", "INTERACTION_CALLBACK_TYPE_INVALID", "Callback type 12 needs an application with Activities enabled.")
	case in.kind != ApplicationCommand && in.kind != MessageComponent:
		e.add("type", "INTERACTION_CALLBACK_TYPE_INVALID", "Callback type 12 does not answer an interaction of type %d.", in.kind)
	case hasData:
		e.add("data", "INTERACTION_CALLBACK_DATA_INVALID", "Callback type 12 takes no data.")
	}
}

// checkEntryPoints validates the entry-point commands of a bulk overwrite
// (global when guild is ""): only an embedded app has one, only globally,
// at most one; handler only on it, 1 or 2.
func checkEntryPoints(e *formErrors, cmds []map[string]any, embedded bool, guild string) {
	n := 0
	for i, c := range cmds {
		t, _ := number(c["type"])
		h, hasHandler := c["handler"]
		if t != EntryPointCommand {
			if hasHandler && h != nil {
				e.add(join(strconv.Itoa(i), "handler"), "APPLICATION_COMMAND_INVALID_HANDLER", "Only entry-point commands have a handler.")
			}
			continue
		}
		n++
		switch {
		case !embedded:
			e.add(join(strconv.Itoa(i), "type"), "APPLICATION_COMMAND_TYPE_INVALID", "Only applications with Activities enabled can have an entry-point command.")
		case guild != "":
			e.add(join(strconv.Itoa(i), "type"), "APPLICATION_COMMAND_TYPE_INVALID", "Entry-point commands are global only.")
		}
		if hasHandler {
			if v, ok := number(h); !ok || (v != EntryPointAppHandler && v != EntryPointLaunchHandler) {
				e.add(join(strconv.Itoa(i), "handler"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
			}
		}
	}
	if n > 1 {
		e.add("", "APPLICATION_COMMANDS_TOO_MANY", "An application can have only one entry-point command.")
	}
}

// hasEntryPoint reports whether cmds hold an entry-point command.
func hasEntryPoint(cmds []map[string]any) bool {
	for _, c := range cmds {
		if t, _ := number(c["type"]); t == EntryPointCommand {
			return true
		}
	}
	return false
}

// instanceLocation is an instance's location as Discord gives it: kind
// "gc" (a server's channel, with guild_id) or "pc" (a private channel).
func instanceLocation(in activityInstance) map[string]any {
	if in.guild == "" {
		return map[string]any{"id": "pc-" + in.channel, "kind": "pc", "channel_id": in.channel}
	}
	return map[string]any{"id": "gc-" + in.guild + "-" + in.channel, "kind": "gc", "channel_id": in.channel, "guild_id": in.guild}
}
