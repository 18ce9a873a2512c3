package activity

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"sudokubot/commands"
)

// Session is who a request acts for: a player signed in until Expires.
// The server issues it (after a local sign-in now; after Discord's OAuth
// exchange in a later step) and the page sends it back as a bearer token:
// an Activity runs in an iframe, where cookies are third-party.
type Session struct {
	Player  commands.Player
	Expires time.Time
	// Local is set on a session of local mode (no Discord): its player
	// may name any room (see rooms.go).
	Local bool
}

// Errors a token can fail with.
var (
	ErrNoSession      = errors.New("not signed in")
	ErrForgedSession  = errors.New("the session token is not one this server issued")
	ErrExpiredSession = errors.New("the session has expired")
)

// sessions signs and verifies session tokens with an HMAC-SHA256 key held
// by the process: a token is base64url(JSON) "." base64url(MAC).
type sessions struct {
	key []byte
	ttl time.Duration
}

// tokenBody is what a token carries; short names keep it small.
type tokenBody struct {
	User    string `json:"u"`
	Name    string `json:"n,omitempty"`
	Guild   string `json:"g,omitempty"`
	Channel string `json:"c,omitempty"`
	Room    string `json:"r,omitempty"` // the room the player was checked to be in
	Local   bool   `json:"l,omitempty"`
	Expires int64  `json:"e"` // Unix seconds
}

func newSessions(key []byte, ttl time.Duration) *sessions {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &sessions{key: key, ttl: ttl}
}

func (s *sessions) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// issue returns a token for who, valid for the sessions' TTL from now.
func (s *sessions) issue(who commands.Player, now time.Time) (string, Session) {
	return s.sign(Session{Player: who, Expires: now.Add(s.ttl).Truncate(time.Second)})
}

// sign returns the token of sess.
func (s *sessions) sign(sess Session) (string, Session) {
	who := sess.Player
	body, _ := json.Marshal(tokenBody{User: who.UserID, Name: who.UserName, Guild: who.GuildID, Channel: who.ChannelID,
		Room: who.Room, Local: sess.Local, Expires: sess.Expires.Unix()})
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.mac(payload)), sess
}

// verify reads a token back, refusing one not signed with the key or past
// its expiry.
func (s *sessions) verify(token string, now time.Time) (Session, error) {
	if token == "" {
		return Session{}, ErrNoSession
	}
	payload, sig, ok := strings.Cut(token, ".")
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err != nil || !hmac.Equal(got, s.mac(payload)) {
		return Session{}, ErrForgedSession
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var b tokenBody
	if err != nil || json.Unmarshal(raw, &b) != nil || b.User == "" {
		return Session{}, ErrForgedSession
	}
	sess := Session{
		Player:  commands.Player{UserID: b.User, UserName: b.Name, GuildID: b.Guild, ChannelID: b.Channel, Room: b.Room},
		Expires: time.Unix(b.Expires, 0), Local: b.Local,
	}
	if !now.Before(sess.Expires) {
		return Session{}, ErrExpiredSession
	}
	return sess, nil
}
