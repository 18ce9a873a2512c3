package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"sudokubot/commands"
)

// Live updates: GET /api/live is a WebSocket (github.com/coder/websocket)
// that shows a game as it changes. The page opens it on the same origin
// as its API (inside Discord, through the Activity's URL mapping) and
// first sends
//
//	{"type":"hello","token":"<session token>","game":<id>,"race":<id, optional>}
//
// (the token in a message, not the URL, so no log holds it). The server
// answers with the game, then sends it again after every change, made
// anywhere:
//
//	{"type":"game","game":{…BoardView},"canRedo":false,"by":"<user id>","byName":"Ada","cells":[12]}
//
// and, in a race (see race.go), {"type":"race",…}. The page sends nothing
// more but pings are answered. A socket refused or ended is closed with a
// code and a sentence for the player: the 4000s below, 1009 for a frame
// over MaxFrame, 1001 when the server stops.

// Limits of the live socket.
const (
	// MaxFrame bounds a message from the page (a hello is ~300 bytes).
	MaxFrame = 4 << 10
	// helloWait is how long a new socket may take to say hello.
	helloWait = 10 * time.Second
	// DefaultPingEvery is how often the server pings a socket (Config.
	// PingEvery); a socket whose pong doesn't come back within as long
	// again (at most maxPongWait) is closed.
	DefaultPingEvery = 20 * time.Second
	maxPongWait      = 15 * time.Second
	// sendQueue is how many messages may wait for a slow socket.
	sendQueue = 32
	// maxSocketsPerUser bounds one player's open sockets (tabs, devices).
	maxSocketsPerUser = 8
	// writeWait bounds one write to a socket.
	writeWait = 10 * time.Second
)

// Close codes of the live socket (4000-4999 are the application's).
const (
	closeBadMessage = 4000 // not a message this server knows
	closeNoSession  = 4001 // no, forged or expired session
	closeForbidden  = 4003 // someone else's game, or a room the player is not in
	closeNotFound   = 4004 // no such game
	closeTooMany    = 4029 // too many messages, or too many sockets
	closeTooSlow    = 4013 // the page didn't keep up with the updates
	closeFailed     = 4500 // the server failed; the page tries again
	closeTimeout    = 4408 // no pong in time (the page, if still there, connects again)
)

// hello is the first message of a socket.
type hello struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Game  int64  `json:"game"`
	// Race, when set, also watches that race's standings (the player
	// must be in it).
	Race int64 `json:"race,omitempty"`
}

// liveOrigins are the origins allowed to open a socket besides the
// page's own: Discord's Activity proxy.
var liveOrigins = []string{"*.discordsays.com"}

// live serves GET /api/live.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: liveOrigins})
	if err != nil {
		return // Accept answered the request
	}
	conn.SetReadLimit(MaxFrame)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	refuse := func(code int, reason string) {
		conn.Close(websocket.StatusCode(code), reason)
	}
	c, err := s.liveHello(ctx, conn)
	if err != nil {
		var le *liveError
		if errors.As(err, &le) {
			refuse(le.code, le.reason)
		} else {
			refuse(closeFailed, "Something went wrong: reconnecting.")
		}
		return
	}
	c.send = make(chan []byte, sendQueue)
	kicked := make(chan struct{})
	var (
		once        sync.Once
		closeCode   int
		closeReason string
	)
	c.kick = func(code int, reason string) {
		once.Do(func() {
			closeCode, closeReason = code, reason
			close(kicked)
		})
	}
	if !s.hub.join(c) {
		refuse(closeTooMany, fmt.Sprintf("You have %d boards open already: close one.", maxSocketsPerUser))
		return
	}
	defer s.hub.leave(c)
	s.hub.changed(Change{Game: c.game, Race: c.race}) // the first view, through the hub like every later one

	// The reader: the page sends nothing after its hello but control
	// frames; anything else counts against the player's rate and must be
	// a known message.
	readErr := make(chan error, 1)
	go func() {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				readErr <- err
				return
			}
			if ok, _ := s.limits.allow(c.who.UserID, s.cfg.Now()); !ok {
				c.kick(closeTooMany, "That's a lot of messages at once: wait a little, then reload.")
				return
			}
			var m struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(data, &m) != nil || m.Type != "ping" {
				c.kick(closeBadMessage, "That message isn't one this board knows.")
				return
			}
		}
	}()
	expires := time.NewTimer(c.expires.Sub(s.cfg.Now()))
	defer expires.Stop()
	ping := time.NewTicker(s.cfg.PingEvery)
	defer ping.Stop()
	for {
		select {
		case b := <-c.send:
			wctx, wcancel := context.WithTimeout(ctx, writeWait)
			err := conn.Write(wctx, websocket.MessageText, b)
			wcancel()
			if err != nil {
				return
			}
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, min(s.cfg.PingEvery, maxPongWait))
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				// The page isn't answering: it leaves the hub at once,
				// then hears why, should it read again.
				s.hub.leave(c)
				refuse(closeTimeout, "The board stopped answering: reconnecting.")
				return
			}
		case <-expires.C:
			refuse(closeNoSession, "Your session has expired: reload the board.")
			return
		case <-kicked:
			refuse(closeCode, closeReason)
			return
		case <-s.stopping:
			refuse(int(websocket.StatusGoingAway), "The server is restarting: reconnecting.")
			return
		case err := <-readErr:
			if websocket.CloseStatus(err) == -1 && !errors.Is(err, context.Canceled) {
				// Not a close from the page: a frame too big or broken
				// (the library closed the socket with its code), or the
				// connection dropped.
				conn.CloseNow()
			}
			return
		}
	}
}

// liveError is a refused hello.
type liveError struct {
	code   int
	reason string
}

func (e *liveError) Error() string { return e.reason }

// liveHello reads and checks a socket's hello: the session, the game and
// the player's right to watch it.
func (s *Server) liveHello(ctx context.Context, conn *websocket.Conn) (*client, error) {
	hctx, cancel := context.WithTimeout(ctx, helloWait)
	defer cancel()
	typ, data, err := conn.Read(hctx)
	if err != nil {
		if websocket.CloseStatus(err) == websocket.StatusMessageTooBig {
			return nil, &liveError{int(websocket.StatusMessageTooBig), fmt.Sprintf("That message is over %d bytes.", MaxFrame)}
		}
		return nil, &liveError{closeNoSession, "No hello came: reload the board."}
	}
	var h hello
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if typ != websocket.MessageText || dec.Decode(&h) != nil || h.Type != "hello" {
		return nil, &liveError{closeBadMessage, `The first message must be {"type":"hello","token":…,"game":…}.`}
	}
	now := s.cfg.Now()
	sess, err := s.sessions.verify(strings.TrimSpace(h.Token), now)
	switch {
	case errors.Is(err, ErrExpiredSession):
		return nil, &liveError{closeNoSession, "Your session has expired: reload the board."}
	case err != nil:
		return nil, &liveError{closeNoSession, "Your session isn't valid: reload the board."}
	}
	if ok, _ := s.limits.allow(sess.Player.UserID, now); !ok {
		return nil, &liveError{closeTooMany, "That's a lot of connections at once: wait a little, then reload."}
	}
	if h.Game <= 0 {
		return nil, &liveError{closeNotFound, "There is no such game."}
	}
	actx, acancel := context.WithTimeout(ctx, actionTimeout)
	defer acancel()
	if who := sess.Player; who.Room != "" && !sess.Local && s.cfg.Instances != nil {
		// A room's session is checked again on every socket: a player
		// who left the Activity no longer follows its boards.
		_, in, err := s.inInstance(actx, who.Room, who.UserID)
		if err != nil {
			s.logf("activity live: ask Discord about an instance: %v", err)
			return nil, &liveError{closeFailed, "I couldn't ask Discord who is in this Activity: reconnecting."}
		}
		if !in {
			return nil, &liveError{closeForbidden, "You're not in this Activity any more: open it again from its channel."}
		}
	}
	if _, err := s.cfg.Boards.Board(actx, sess.Player, h.Game, now); err != nil {
		var be *commands.BoardError
		if !errors.As(err, &be) {
			s.logf("activity live: hello for game %d: %v", h.Game, err)
			return nil, err
		}
		switch be.Kind {
		case commands.BoardNotYours:
			return nil, &liveError{closeForbidden, be.Msg}
		case commands.BoardNotFound:
			return nil, &liveError{closeNotFound, be.Msg}
		default:
			s.logf("activity live: hello for game %d: %v", h.Game, err)
			return nil, &liveError{closeFailed, be.Msg}
		}
	}
	if h.Race != 0 {
		if _, err := s.cfg.Boards.RaceStandings(actx, sess.Player, h.Race, now); err != nil {
			var be *commands.BoardError
			if errors.As(err, &be) && (be.Kind == commands.BoardNotYours || be.Kind == commands.BoardNotFound) {
				return nil, &liveError{closeForbidden, "You're not in that race."}
			}
			s.logf("activity live: hello for race %d: %v", h.Race, err)
			return nil, &liveError{closeFailed, "Something went wrong: reconnecting."}
		}
	}
	return &client{who: sess.Player, game: h.Game, race: h.Race, expires: sess.Expires}, nil
}

// Run watches for changes to games (Config.Changes) and sends them to the
// live sockets, until ctx ends; then it closes every socket. Without
// Config.Changes the server tells the sockets of its own actions only.
func (s *Server) Run(ctx context.Context) {
	if s.cfg.Changes != nil {
		s.hub.watch(ctx, s.cfg.Changes)
	} else {
		<-ctx.Done()
	}
	s.stop()
}

// stop closes every live socket with "going away".
func (s *Server) stop() {
	s.stopOnce.Do(func() { close(s.stopping) })
}
