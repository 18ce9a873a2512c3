// Package activity serves the Sudoku board as a web page (the Discord
// Activity's page, or a local page without Discord) and the JSON API the
// page plays through. Games are the ones /play and /daily keep: every
// action goes through package commands' board API, so a move made on the
// page is in the chat game and the other way round, and every move is
// checked on the server (whose game, which cell, finished or not) with the
// server's clock.
//
// The API, all JSON, all but the sign-in behind "Authorization: Bearer
// <token>":
//
//	GET  /api/config                {clientId}: what the page inside Discord gives the SDK
//	POST /api/session               {code, instance, guild, channel} or {} (local mode) → {token, user, expires, accessToken}
//	                                (accessToken: Discord's, for the SDK's authenticate(); with a code only;
//	                                instance: the SDK's instanceId, whose server, asked of Discord, is the session's)
//	GET  /api/game                  the player's newest running game (404 when none)
//	POST /api/game                  {size, level} or {daily: level}: start one
//	GET  /api/games/{id}            one of the player's games
//	POST /api/games/{id}/move       {cell, kind: digit|clear|notes, value, notes}
//	POST /api/games/{id}/undo       take back the last move
//	POST /api/games/{id}/redo       put back the last undone one (while nothing else changed)
//	POST /api/games/{id}/check      mark the wrong entries
//	POST /api/games/{id}/hint       {level: 1..3}; level 3 carries the step and its id
//	POST /api/games/{id}/step       {step: id}: apply that hint's step as one move (counts as a hint)
//	POST /api/games/{id}/giveup     end the game and show the solution (a daily can't be replayed)
//	GET  /api/live                  a WebSocket: the game as it changes (live.go)
//
// Every answer with a game is {game, canRedo}; every refusal is {error} with
// a sentence for the player and a status: 400 bad input, 401 no or bad
// session, 403 someone else's game (or a room's, once Discord says the
// player left its Activity), 404 no game, 409 finished, 413 body
// too big, 429 too many actions (with Retry-After) or a new puzzle or hint
// still being made for the player, 503 the store failed, every worker is
// busy, or Discord couldn't say who is in the player's Activity.
// A refusal changes nothing.
package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokubot/commands"
)

// Boards is the game logic the server drives (commands.Service).
type Boards interface {
	CurrentBoard(ctx context.Context, who commands.Player, now time.Time) (commands.BoardView, error)
	Board(ctx context.Context, who commands.Player, id int64, now time.Time) (commands.BoardView, error)
	StartBoard(ctx context.Context, who commands.Player, st commands.BoardStart, now time.Time) (commands.BoardView, error)
	PlayBoard(ctx context.Context, who commands.Player, id int64, moves []commands.BoardMove, now time.Time) (commands.BoardView, error)
	UndoBoard(ctx context.Context, who commands.Player, id int64, now time.Time) (commands.BoardView, error)
	CheckBoard(ctx context.Context, who commands.Player, id int64, now time.Time) (commands.BoardView, error)
	HintBoard(ctx context.Context, who commands.Player, id int64, level int, now time.Time) (commands.BoardView, error)
	RoomBoard(ctx context.Context, who commands.Player, st commands.RoomStart, now time.Time) (commands.BoardView, error)
	RaceStandings(ctx context.Context, who commands.Player, id int64, now time.Time) (commands.RaceView, error)
	ApplyBoardStep(ctx context.Context, who commands.Player, id int64, stepID string, now time.Time) (commands.BoardView, error)
	GiveUpBoard(ctx context.Context, who commands.Player, id int64, now time.Time) (commands.BoardView, error)
}

// Defaults of Config.
const (
	DefaultSessionTTL    = time.Hour
	DefaultRatePerMinute = 240 // a fast player makes a move a second or two
	DefaultRateBurst     = 40
	DefaultRoomRecheck   = time.Minute
	// MaxBody bounds a request body: the biggest is a move, ~60 bytes.
	MaxBody = 4 << 10
	// actionTimeout bounds one action (a hint on a big board is the slowest).
	actionTimeout = 10 * time.Second
)

// Config configures a Server.
type Config struct {
	// Boards is the game logic (required).
	Boards Boards
	// Local, when set, lets POST /api/session sign anyone who opens the
	// page in as this player: the local mode, for trying the board
	// without Discord (the page signs in through the SDK's mock, whose
	// code is sdkMockCode, or with no code). Never set it on a server
	// others can reach.
	Local *commands.Player
	// SignIn, when set, signs in the requests that carry a code (Discord's
	// OAuth code from the SDK's authorize(), exchanged for the user).
	// Local mode, when set too, takes the requests without a code.
	SignIn SignIn
	// ClientID is the Discord application's id, which the page gives the
	// Embedded App SDK inside Discord (GET /api/config); empty outside.
	ClientID string
	// SessionKey signs session tokens; empty means a random key, so
	// sessions end with the process (the page signs in again).
	SessionKey []byte
	// SessionTTL is how long a session lasts (DefaultSessionTTL).
	SessionTTL time.Duration
	// RatePerMinute and RateBurst limit each player's actions.
	RatePerMinute, RateBurst int
	// HeavyWorkers bounds the new puzzles and hints worked on at once
	// (GOMAXPROCS when 0); more wait, until their deadline.
	HeavyWorkers int
	// Now is the clock (time.Now).
	Now func() time.Time
	// Logf logs failures of the store or engine; nil logs nothing.
	Logf func(format string, args ...any)
	// Instances tells whether a Discord user is in an Activity instance
	// (DiscordInstances), before they join its co-op game or race; nil:
	// only local sessions play together.
	Instances Instances
	// RoomRecheck is how long Discord's word that a player is in their
	// room holds for the room's HTTP actions (DefaultRoomRecheck); then
	// the next action asks again.
	RoomRecheck time.Duration
	// PingEvery is how often a live socket is pinged (DefaultPingEvery).
	PingEvery time.Duration
	// Changes tells the live sockets of every committed change to a
	// game, wherever it was made (see Run); nil: the server tells them of
	// its own actions only.
	Changes Changes
}

// Server is the Activity's HTTP handler. It is safe for concurrent use.
type Server struct {
	cfg      Config
	sessions *sessions
	limits   *limiter
	redo     *redoLog
	assets   *assets
	mux      *http.ServeMux

	heavy  chan struct{} // a place per heavy action running
	busyMu sync.Mutex
	busy   map[string]bool // players with a heavy action running

	members  members       // who was last found in which room (rooms.go)
	hub      *hub          // the live sockets (live.go, hub.go)
	stopping chan struct{} // closed by stop: the live sockets close
	stopOnce sync.Once
}

// heavyStart takes user's one heavy place and a worker, or refuses.
func (s *Server) heavyStart(ctx context.Context, user string) (release func(), err error) {
	s.busyMu.Lock()
	if s.busy[user] {
		s.busyMu.Unlock()
		return nil, &httpError{http.StatusTooManyRequests, "I'm still working on your last request (a new puzzle or a hint): wait for it, then try again."}
	}
	s.busy[user] = true
	s.busyMu.Unlock()
	done := func() {
		s.busyMu.Lock()
		delete(s.busy, user)
		s.busyMu.Unlock()
	}
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy; done() }, nil
	case <-ctx.Done():
		done()
		return nil, &httpError{http.StatusServiceUnavailable, "I'm busy with other players' puzzles just now, so nothing changed: try again in a moment."}
	}
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Boards == nil {
		return nil, errors.New("activity: no Boards")
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.RatePerMinute <= 0 {
		cfg.RatePerMinute = DefaultRatePerMinute
	}
	if cfg.RateBurst <= 0 {
		cfg.RateBurst = DefaultRateBurst
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.RoomRecheck <= 0 {
		cfg.RoomRecheck = DefaultRoomRecheck
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = DefaultPingEvery
	}
	if cfg.HeavyWorkers <= 0 {
		cfg.HeavyWorkers = runtime.GOMAXPROCS(0)
	}
	a, err := loadAssets()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg, sessions: newSessions(cfg.SessionKey, cfg.SessionTTL),
		limits: newLimiter(cfg.RatePerMinute, cfg.RateBurst), redo: newRedoLog(), assets: a,
		heavy: make(chan struct{}, cfg.HeavyWorkers), busy: map[string]bool{},
		mux: http.NewServeMux(), stopping: make(chan struct{}),
	}
	s.hub = newHub(s)
	s.mux.HandleFunc("GET /{$}", a.serveIndex)
	s.mux.HandleFunc("GET /assets/{name}", a.serveAsset)
	s.mux.HandleFunc("POST /api/session", s.signIn)
	s.mux.HandleFunc("GET /api/config", s.config)
	s.mux.HandleFunc("GET /api/game", s.api(read, s.current))
	s.mux.HandleFunc("POST /api/game", s.api(heavy, s.start))
	s.mux.HandleFunc("GET /api/games/{id}", s.api(read, s.game))
	s.mux.HandleFunc("POST /api/games/{id}/move", s.api(write, s.move))
	s.mux.HandleFunc("POST /api/games/{id}/undo", s.api(write, s.undo))
	s.mux.HandleFunc("POST /api/games/{id}/redo", s.api(write, s.redoMove))
	s.mux.HandleFunc("POST /api/games/{id}/check", s.api(write, s.check))
	s.mux.HandleFunc("POST /api/games/{id}/hint", s.api(heavy, s.hint))
	s.mux.HandleFunc("POST /api/games/{id}/step", s.api(heavy, s.step))
	s.mux.HandleFunc("POST /api/games/{id}/giveup", s.api(write, s.giveUp))
	s.mux.HandleFunc("GET /api/live", s.live)
	s.mux.HandleFunc("POST /api/room", s.joinRoom)
	return s, nil
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// reply is every answer that carries a game.
type reply struct {
	Game    commands.BoardView `json:"game"`
	CanRedo bool               `json:"canRedo"`
	// Token replaces the page's session token (after joining a room).
	Token string `json:"token,omitempty"`
}

// refusal is every answer that refuses.
type refusal struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func refuse(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, refusal{Error: msg})
}

// action is one API call for a signed-in player: it returns the game to
// send back, or an error (a *commands.BoardError, or a *httpError).
type action func(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error)

// httpError is a refusal made here, with its status.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// apiKind says what an action costs: a read, a write (rate limited), or
// engine work (a new puzzle, a hint: rate limited, one at a time per player
// and at most Config.HeavyWorkers at once, as chat's slow work is).
type apiKind int

const (
	read apiKind = iota
	write
	heavy
)

// api wraps an action: the session, the limits, the deadline, and the
// answer.
func (s *Server) api(kind apiKind, act action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, ctx, done, ok := s.begin(w, r, kind)
		if !ok {
			return
		}
		defer done()
		if err := s.stillInRoom(ctx, sess); err != nil {
			s.fail(w, r, err)
			return
		}
		v, err := act(ctx, sess.Player, r, sess.now)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.answer(w, sess, kind, v, "")
	}
}

// started is a request begun by begin: its session and the server's time
// at its start.
type started struct {
	Session
	now time.Time
}

// begin checks a request's session and the limits of kind, and returns
// the session, the action's context (with its deadline) and done, to call
// at the end; when ok is false the refusal is written.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, kind apiKind) (st started, ctx context.Context, done func(), ok bool) {
	now := s.cfg.Now()
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	sess, err := s.sessions.verify(strings.TrimSpace(token), now)
	if err != nil {
		msg := "You're not signed in: reload the board."
		switch {
		case errors.Is(err, ErrExpiredSession):
			msg = "Your session has expired: reload the board."
		case errors.Is(err, ErrForgedSession):
			msg = "Your session isn't valid: reload the board."
		}
		refuse(w, http.StatusUnauthorized, msg)
		return started{}, nil, nil, false
	}
	if kind != read {
		if ok, wait := s.limits.allow(sess.Player.UserID, now); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
			refuse(w, http.StatusTooManyRequests, fmt.Sprintf("That's a lot of moves at once: wait %d s and try again.", int(wait/time.Second)))
			return started{}, nil, nil, false
		}
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	ctx, cancel := context.WithTimeout(r.Context(), actionTimeout)
	done = cancel
	if kind == heavy {
		release, err := s.heavyStart(ctx, sess.Player.UserID)
		if err != nil {
			cancel()
			s.fail(w, r, err)
			return started{}, nil, nil, false
		}
		done = func() { release(); cancel() }
	}
	return started{Session: sess, now: now}, ctx, done, true
}

// answer sends v (and a new session token, when one was issued) and, with
// no store watching, tells the live sockets of a change.
func (s *Server) answer(w http.ResponseWriter, st started, kind apiKind, v commands.BoardView, token string) {
	if kind != read && s.cfg.Changes == nil {
		s.hub.changed(Change{Game: v.ID, By: st.Player.UserID})
	}
	writeJSON(w, http.StatusOK, reply{Game: v, CanRedo: s.redo.can(v), Token: token})
}

// fail answers an action's error with its status and sentence.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	if errors.As(err, &he) {
		refuse(w, he.status, he.msg)
		return
	}
	var be *commands.BoardError
	if !errors.As(err, &be) {
		s.logf("activity %s %s: %v", r.Method, r.URL.Path, err)
		refuse(w, http.StatusInternalServerError, "Something went wrong, so nothing changed. Please try again.")
		return
	}
	status := map[commands.BoardErrorKind]int{
		commands.BoardInvalid:     http.StatusBadRequest,
		commands.BoardNotFound:    http.StatusNotFound,
		commands.BoardNotYours:    http.StatusForbidden,
		commands.BoardFinished:    http.StatusConflict,
		commands.BoardUnavailable: http.StatusServiceUnavailable,
	}[be.Kind]
	if be.Kind == commands.BoardUnavailable {
		s.logf("activity %s %s: %v", r.Method, r.URL.Path, err)
	}
	refuse(w, status, be.Msg)
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}

// decode reads a JSON body into v, refusing unknown fields, trailing data
// and bodies over MaxBody. An empty body leaves v as it is.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case errors.As(err, &tooBig):
		return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("That request is over %d bytes; nothing changed.", MaxBody)}
	case err != nil:
		return badRequest("That request isn't valid JSON for this action (%v); nothing changed.", err)
	}
	if dec.More() {
		return badRequest("That request has data after its JSON; nothing changed.")
	}
	return nil
}

// gameID reads the {id} of the path.
func gameID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, &httpError{http.StatusNotFound, "There is no such game."}
	}
	return id, nil
}

// SignIn turns a sign-in code into the player it belongs to: Discord's
// OAuth exchange (code → token → users/@me) is one. Its errors are logged,
// never shown to the player, and hold no secret.
type SignIn interface {
	SignIn(ctx context.Context, code string) (SignedIn, error)
}

// SignedIn is who a code belongs to and, from Discord, the user's access
// token, which the page hands to the SDK's authenticate(). The server
// passes the token on in the sign-in's answer and keeps nothing of it.
type SignedIn struct {
	Player      commands.Player
	AccessToken string
}

// config answers GET /api/config: the application id the page inside
// Discord starts the SDK with (nothing secret).
func (s *Server) config(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"clientId": s.cfg.ClientID})
}

// signInBody is what POST /api/session takes.
type signInBody struct {
	Code string `json:"code"`
	// As names a local player of one's own (local mode only), so two
	// browsers on one machine can play together: see localPlayer.
	As string `json:"as"`
	// Instance is the Activity instance the page runs in (the SDK's
	// instanceId). Discord's users/@me names no server: the instance's,
	// asked of Discord, is the player's (see instanceServer).
	Instance string `json:"instance"`
	// Guild and Channel are the SDK's guildId and channelId: the page's
	// word, never trusted for a server. Only a page that says it runs
	// outside a server (no guild) spares the question to Discord, and
	// then the player has no server.
	Guild   string `json:"guild"`
	Channel string `json:"channel"`
}

// sdkMockCode is the code the Embedded App SDK's mock (DiscordSDKMock)
// hands out from authorize(): outside Discord the page signs in through
// the mock, and local mode takes its code for the local player.
const sdkMockCode = "mock_code"

// signIn issues a session: for the SDK mock's code or none, the local
// player when local mode is on; for another code, through Config.SignIn.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	var body signInBody
	if err := decode(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	var who commands.Player
	var accessToken string
	local := false
	switch {
	case (body.Code == "" || body.Code == sdkMockCode) && s.cfg.Local != nil:
		var err error
		if who, err = localPlayer(*s.cfg.Local, body.As); err != nil {
			s.fail(w, r, err)
			return
		}
		local = true
	case body.Code != "" && s.cfg.SignIn != nil:
		ctx, cancel := context.WithTimeout(r.Context(), actionTimeout)
		defer cancel()
		in, err := s.cfg.SignIn.SignIn(ctx, body.Code)
		if err != nil || in.Player.UserID == "" {
			refuse(w, http.StatusUnauthorized, "Discord didn't confirm who you are: close the board and open it again.")
			s.logf("activity sign-in refused: %v", err)
			return
		}
		who, accessToken = in.Player, in.AccessToken
		if who, err = s.instanceServer(ctx, who, body); err != nil {
			s.fail(w, r, err)
			return
		}
	default:
		refuse(w, http.StatusForbidden, "Signing in without Discord is off on this server: open the board from Discord.")
		return
	}
	token, sess := s.sessions.sign(Session{Player: who, Expires: s.cfg.Now().Add(s.cfg.SessionTTL).Truncate(time.Second), Local: local})
	answer := map[string]any{
		"token": token, "expires": sess.Expires.UTC().Format(time.RFC3339),
		"user": map[string]string{"id": sess.Player.UserID, "name": sess.Player.UserName},
	}
	if accessToken != "" {
		answer["accessToken"] = accessToken
	}
	writeJSON(w, http.StatusOK, answer)
}

// instanceServer gives a player signed in through Discord the server of
// the Activity instance their page runs in, once Discord says they are in
// it: their games and dailies then count there. An instance in a DM or
// group DM has none (a daily there counts on the global boards only), and
// so has a player whose page names no instance (or no guild), or a server
// with no way to ask Discord (Config.Instances nil).
func (s *Server) instanceServer(ctx context.Context, who commands.Player, body signInBody) (commands.Player, error) {
	if body.Instance == "" || body.Guild == "" || s.cfg.Instances == nil {
		return who, nil
	}
	if !roomPattern.MatchString(body.Instance) {
		return who, badRequest("That isn't an Activity this board knows: close the board and open it again from Discord.")
	}
	inst, in, err := s.inInstance(ctx, body.Instance, who.UserID)
	if err != nil {
		s.logf("activity sign-in: ask Discord about an instance: %v", err)
		return who, &httpError{http.StatusServiceUnavailable, "I couldn't ask Discord where this Activity runs, so you aren't signed in: close the board and open it again in a moment."}
	}
	if !in {
		return who, &httpError{http.StatusForbidden, "You're not in this Activity: open the board from the channel where it runs."}
	}
	who.GuildID, who.ChannelID = inst.GuildID, inst.ChannelID
	return who, nil
}

func (s *Server) current(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	return s.cfg.Boards.CurrentBoard(ctx, who, now)
}

func (s *Server) game(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	return s.cfg.Boards.Board(ctx, who, id, now)
}

func (s *Server) start(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	var st commands.BoardStart
	if err := decode(r, &st); err != nil {
		return commands.BoardView{}, err
	}
	return s.cfg.Boards.StartBoard(ctx, who, st, now)
}

func (s *Server) move(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	m := commands.BoardMove{Cell: -1}
	if err := decode(r, &m); err != nil {
		return commands.BoardView{}, err
	}
	if m.Kind == commands.MoveSet {
		return commands.BoardView{}, badRequest("%q is not a move: use digit, clear or notes.", m.Kind)
	}
	v, err := s.cfg.Boards.PlayBoard(ctx, who, id, []commands.BoardMove{m}, now)
	if err == nil {
		s.redo.forget(id)
	}
	return v, err
}

func (s *Server) undo(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	before, err := s.cfg.Boards.Board(ctx, who, id, now)
	if err != nil {
		return commands.BoardView{}, err
	}
	after, err := s.cfg.Boards.UndoBoard(ctx, who, id, now)
	if err != nil {
		return commands.BoardView{}, err
	}
	s.redo.push(before, after)
	return after, nil
}

func (s *Server) redoMove(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	cur, err := s.cfg.Boards.Board(ctx, who, id, now)
	if err != nil {
		return commands.BoardView{}, err
	}
	moves, ok := s.redo.top(cur)
	if !ok {
		return commands.BoardView{}, badRequest("Nothing to redo.")
	}
	v, err := s.cfg.Boards.PlayBoard(ctx, who, id, moves, now)
	if err != nil {
		return commands.BoardView{}, err
	}
	s.redo.pop(id)
	return v, nil
}

func (s *Server) check(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	return s.cfg.Boards.CheckBoard(ctx, who, id, now)
}

func (s *Server) hint(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	var body struct {
		Level int `json:"level"`
	}
	if err := decode(r, &body); err != nil {
		return commands.BoardView{}, err
	}
	return s.cfg.Boards.HintBoard(ctx, who, id, body.Level, now)
}

func (s *Server) step(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	var body struct {
		Step string `json:"step"`
	}
	if err := decode(r, &body); err != nil {
		return commands.BoardView{}, err
	}
	v, err := s.cfg.Boards.ApplyBoardStep(ctx, who, id, body.Step, now)
	if err == nil {
		s.redo.forget(id)
	}
	return v, err
}

func (s *Server) giveUp(ctx context.Context, who commands.Player, r *http.Request, now time.Time) (commands.BoardView, error) {
	id, err := gameID(r)
	if err != nil {
		return commands.BoardView{}, err
	}
	if err := decode(r, &struct{}{}); err != nil {
		return commands.BoardView{}, err
	}
	return s.cfg.Boards.GiveUpBoard(ctx, who, id, now)
}
