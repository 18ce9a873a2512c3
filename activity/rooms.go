package activity

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"sudokubot/commands"
)

// Playing together, per Activity instance: POST /api/room
//
//	{room, mode: coop|race, size, level, fresh} → {game, canRedo, token}
//
// checks that the player is in the room (inside Discord, the instance id
// the SDK gives, asked of Discord: GET /applications/{app}/activity-
// instances/{id}; in local mode any room code), starts or joins its co-op
// game or race (commands.RoomBoard), and answers with a new session token
// that carries the room, so the player's later actions on the room's
// co-op board are theirs to make. A race's page watches the standings on
// its live socket (hello with "race"): {"type":"race","race":RaceView}.

// Instances is Discord's record of an Activity instance (DiscordInstances):
// who is in it and where it runs; found is false for an instance Discord
// doesn't know (or no longer runs).
type Instances interface {
	Instance(ctx context.Context, instanceID string) (in Instance, found bool, err error)
}

// Instance is an Activity instance as Discord describes it.
type Instance struct {
	Users []string
	// GuildID and ChannelID are where it runs (no guild in a DM).
	GuildID, ChannelID string
}

// inInstance asks whether userID is in instance id, and returns it.
func (s *Server) inInstance(ctx context.Context, id, userID string) (Instance, bool, error) {
	in, found, err := s.cfg.Instances.Instance(ctx, id)
	if err != nil {
		return Instance{}, false, err
	}
	yes := found && slices.Contains(in.Users, userID)
	s.members.set(id, userID, yes, s.cfg.Now())
	return in, yes, nil
}

// stillInRoom checks again, at most every Config.RoomRecheck, that the
// player of a session that carries a room (checked when it was issued) is
// in it: one who left the Activity can't go on acting on its boards over
// HTTP until the session ends (the live sockets ask on every hello).
func (s *Server) stillInRoom(ctx context.Context, st started) error {
	who := st.Player
	if who.Room == "" || st.Local || s.cfg.Instances == nil || s.members.fresh(who.Room, who.UserID, st.now, s.cfg.RoomRecheck) {
		return nil
	}
	_, in, err := s.inInstance(ctx, who.Room, who.UserID)
	if err != nil {
		s.logf("activity: ask Discord about an instance: %v", err)
		return &httpError{http.StatusServiceUnavailable, "I couldn't ask Discord who is in this Activity, so nothing changed: try again in a moment."}
	}
	if !in {
		return &httpError{http.StatusForbidden, "You're not in this Activity any more, so nothing changed: open it again from its channel."}
	}
	return nil
}

// members remembers when each player was last found in a room, so a
// room's HTTP actions ask Discord at most every Config.RoomRecheck.
type members struct {
	mu   sync.Mutex
	seen map[[2]string]time.Time // {room, user} → when Discord last listed them
}

// maxMembers bounds the players remembered; past it the stale ones go.
const maxMembers = 100_000

func (m *members) set(room, user string, in bool, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !in {
		delete(m.seen, [2]string{room, user})
		return
	}
	if m.seen == nil {
		m.seen = map[[2]string]time.Time{}
	}
	if len(m.seen) >= maxMembers {
		for k, t := range m.seen {
			if now.Sub(t) > time.Hour {
				delete(m.seen, k)
			}
		}
		if len(m.seen) >= maxMembers {
			clear(m.seen)
		}
	}
	m.seen[[2]string{room, user}] = now
}

// fresh reports whether user was found in room less than every ago.
func (m *members) fresh(room, user string, now time.Time, every time.Duration) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.seen[[2]string{room, user}]
	return ok && now.Sub(t) < every && !now.Before(t)
}

// roomPattern is what a room (an instance id, or a local room code) looks
// like.
var roomPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// localName is what a local player's own name (?as=) may be.
var localName = regexp.MustCompile(`^[\p{L}\p{N} _-]{1,32}$`)

// roomBody is what POST /api/room takes.
type roomBody struct {
	Room string `json:"room"`
	commands.RoomStart
}

// joinRoom serves POST /api/room.
func (s *Server) joinRoom(w http.ResponseWriter, r *http.Request) {
	st, ctx, done, ok := s.begin(w, r, heavy)
	if !ok {
		return
	}
	defer done()
	var body roomBody
	if err := decode(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if !roomPattern.MatchString(body.Room) {
		refuse(w, http.StatusBadRequest, "That isn't a room this board knows: open the board from an Activity in Discord (or, locally, add ?room=NAME to its address).")
		return
	}
	if !st.Local {
		if s.cfg.Instances == nil {
			refuse(w, http.StatusForbidden, "Playing together isn't switched on for this board.")
			return
		}
		inst, in, err := s.inInstance(ctx, body.Room, st.Player.UserID)
		if err != nil {
			s.logf("activity room: ask Discord about an instance: %v", err)
			refuse(w, http.StatusServiceUnavailable, "I couldn't ask Discord who is in this Activity, so you haven't joined: try again in a moment.")
			return
		}
		if !in {
			refuse(w, http.StatusForbidden, "You're not in this Activity: join it from the channel where it runs, then try again.")
			return
		}
		// Discord's sign-in names no server: the instance's is the
		// player's from here on (their games and dailies count there).
		st.Player.GuildID = cmp.Or(st.Player.GuildID, inst.GuildID)
		st.Player.ChannelID = cmp.Or(st.Player.ChannelID, inst.ChannelID)
	}
	who := st.Player
	who.Room = body.Room
	v, err := s.cfg.Boards.RoomBoard(ctx, who, body.RoomStart, st.now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	token, _ := s.sessions.sign(Session{Player: who, Expires: st.Expires, Local: st.Local})
	s.answer(w, st, heavy, v, token)
}

// localPlayer is who signs in locally: the local player, or with as, a
// player of that name of their own (for trying co-op and race in two
// browsers on one machine).
func localPlayer(local commands.Player, as string) (commands.Player, error) {
	if as == "" {
		return local, nil
	}
	if !localName.MatchString(as) {
		return commands.Player{}, badRequest("%q can't be a player's name here: use up to 32 letters, digits, spaces, - or _.", as)
	}
	who := local
	who.UserID = local.UserID + "-" + strings.ToLower(strings.ReplaceAll(as, " ", "_"))
	who.UserName = as
	return who, nil
}

// liveRace is the message with a race's standings.
type liveRace struct {
	Type string            `json:"type"` // "race"
	Race commands.RaceView `json:"race"`
}

// sendRace sends race id's standings to its watchers.
func (s *Server) sendRace(id int64) {
	s.hub.mu.Lock()
	t := s.hub.races[id]
	var subs []*client
	if t != nil {
		subs = s.hub.watchers(t)
	}
	s.hub.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	v, err := s.cfg.Boards.RaceStandings(ctx, subs[0].who, id, s.cfg.Now())
	if err != nil {
		s.logf("activity live: standings of race %d: %v", id, err)
		return
	}
	b, _ := json.Marshal(liveRace{Type: "race", Race: v})
	for _, c := range subs {
		c.post(b)
	}
}

// DiscordInstances asks Discord whether a user is in an Activity
// instance, with the bot's token. Its errors name Discord's status and
// error code, never the token.
type DiscordInstances struct {
	AppID, BotToken string
	// APIBase is Discord's origin ("https://discord.com"; a fake in tests).
	APIBase string
	// Client makes the requests (a 10 s timeout when nil).
	Client *http.Client
}

// Instance returns instance instanceID of the application; found is
// false for one Discord doesn't know.
func (d DiscordInstances) Instance(ctx context.Context, instanceID string) (Instance, bool, error) {
	if d.AppID == "" || d.BotToken == "" {
		return Instance{}, false, errors.New("activity instances: no application id or bot token")
	}
	base := strings.TrimSuffix(d.APIBase, "/")
	if base == "" {
		base = "https://discord.com"
	}
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/v10/applications/"+url.PathEscape(d.AppID)+"/activity-instances/"+url.PathEscape(instanceID), nil)
	if err != nil {
		return Instance{}, false, errors.New("activity instances: bad API base")
	}
	req.Header.Set("Authorization", "Bot "+strings.TrimPrefix(d.BotToken, "Bot "))
	resp, err := client.Do(req)
	if err != nil {
		return Instance{}, false, fmt.Errorf("activity instances: %w", errors.Unwrap(err))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	var body struct {
		Users    []string `json:"users"`
		Location struct {
			GuildID   string `json:"guild_id"`
			ChannelID string `json:"channel_id"`
		} `json:"location"`
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &body)
	switch {
	case resp.StatusCode == http.StatusNotFound && body.Code != 10002: // 10002: Unknown Application
		return Instance{}, false, nil
	case resp.StatusCode != http.StatusOK:
		return Instance{}, false, fmt.Errorf("activity instances: Discord answered %d (code %d: %s)", resp.StatusCode, body.Code, body.Message)
	}
	return Instance{Users: body.Users, GuildID: body.Location.GuildID, ChannelID: body.Location.ChannelID}, true, nil
}
