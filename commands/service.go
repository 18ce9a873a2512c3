package commands

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"sudokubot/sudoku"
)

// Defaults for Config fields left zero.
const (
	DefaultSolveTimeout = 5 * time.Second
	// DefaultMaxInput bounds what one request carries, in characters (see
	// Config.MaxInput): far more than any grid needs (a 25x25 with
	// decoration is about 2,000) and room for a full modal field
	// (MaxTextInputLength) beside the rest. It is the one default: the
	// bot's MAX_INPUT_CHARS (bot.Default) and the console take it.
	DefaultMaxInput = 6000
	// DefaultStateCacheSize bounds the button states kept in memory for grids
	// too big to fit in a custom id.
	DefaultStateCacheSize = 4096
)

// Config configures a Service. The zero value works.
type Config struct {
	// SolveTimeout is the per-request deadline the bot puts on ctx. The
	// service does not enforce it (the bot does); it only uses it to tell the
	// user how long it tried.
	SolveTimeout time.Duration
	// MaxInput is the most a request may carry, in characters (as Discord
	// counts them): its text, options, modal fields and select values
	// together. Service.Handle refuses more before any command reads it.
	MaxInput int
	// Settings stores per-server choices (watched channels). Nil means an
	// in-memory store that forgets on restart.
	Settings Settings
	// Seed returns a fresh seed for /generate. Nil means one derived from the
	// request time and a counter, so two requests in the same nanosecond still
	// differ.
	Seed func() uint64
	// ContentIntent reports whether the bot receives message content in
	// guild channels (Discord's privileged Message Content intent). Nil means
	// unknown. /watch uses it to warn that watching cannot work without it.
	ContentIntent func() bool
	// StateCacheSize bounds the in-memory button states (see DefaultStateCacheSize).
	StateCacheSize int
	// Games keeps the games, daily results and daily settings of /play and
	// /daily (package store implements it). Nil leaves those commands out.
	Games PlayStore
	// Puzzles makes the puzzles of /play and /daily. Nil means the engine's
	// generator and daily puzzle, keyed by DailySecret.
	Puzzles Puzzles
	// Logf logs what a reply leaves out or can only apologise for: an
	// engine error's details and seed, the database failing. Nil logs
	// nothing.
	Logf func(format string, args ...any)
	// DailySecret keys the engine's daily puzzles (sudoku.Daily): every
	// shard must share it, and nobody without it can work out a coming
	// day's puzzle. Empty, /daily can't make its puzzles.
	DailySecret []byte
	// Activity says the app's Activity (the board page inside Discord) is
	// set up (DISCORD_CLIENT_ID): a game being played then carries an
	// "Open board" button that launches it. False: no such button.
	Activity bool
	// Channels posts and edits the messages no interaction answers: the
	// races' threads, scoreboards and results. Nil leaves /race and /play
	// together out.
	Channels Channels
}

// handler answers one request.
type handler func(ctx context.Context, req Request) Response

// planner says, before any work, how the bot should treat a request.
type planner func(ctx context.Context, req Request) Plan

// route is one entry of the routing table: a command (by name) or a
// component / modal (by the custom id's prefix, the text before the first
// ':').
type route struct {
	handle handler
	plan   planner
}

// Service turns requests into responses. It is safe for concurrent use.
//
// How the bot drives it, per request:
//
//  1. plan := s.Plan(ctx, req). Ignore → do nothing at all (not even rate
//     limiting: the message was chatter).
//  2. If plan.Heavy, run Handle in the worker pool under the per-user
//     deadline (SOLVE_TIMEOUT). For an interaction, defer if the answer is
//     not ready in time: components with plan.Update as type 6 (deferred
//     update), everything else as type 5 with flag 64 when plan.Ephemeral.
//     A light request (help, a modal to open) is answered at once.
//  3. Send the Response:
//     - Modal: callback type 9 (only ever returned for light requests).
//     - Update: callback type 7 (or, after a type-6 deferral, an edit of
//     the component's message); otherwise type 4 / an edit of the
//     deferred original.
//     - Ephemeral: flag 64. If the deferral was public but the Response is
//     ephemeral (an error found during the work), delete the deferred
//     original and send the Response as an ephemeral follow-up.
//     - Content, Embeds, Components as they are; Files as attachments
//     (an Embed.Image "attachment://x.png" names one of them).
//     - FollowUps: sent in order after the first message, as follow-ups.
//     - Allowed mentions empty on every message.
//  4. For a Mention (a message), reply to the message (message reference)
//     unless the Response is zero; Ephemeral is meaningless there and is
//     never set.
type Service struct {
	cfg      Config
	settings Settings
	states   *stateCache
	seedSeq  atomic.Uint64

	specs      []CommandSpec
	commands   map[string]route // by command name, slash and message
	components map[string]route // by custom id prefix
	modals     map[string]route // by custom id prefix
	// completers answer Autocomplete requests, by command name.
	completers map[string]handler
	// askers are the commands a puzzle modal can belong to, by name.
	askers map[string]puzzleCommand
	// playFeature is /play and /daily (play.go), nil without Config.Games.
	playFeature *player
	// solveFn is the search behind /solve and /check: sudoku.Solve. Tests
	// put a search in its place that stops right after a first solution,
	// which a deadline does only by chance.
	solveFn func(ctx context.Context, g *sudoku.Grid, limit int) sudoku.Result
}

// New returns a Service configured by cfg.
func New(cfg Config) *Service {
	if cfg.SolveTimeout <= 0 {
		cfg.SolveTimeout = DefaultSolveTimeout
	}
	if cfg.MaxInput <= 0 {
		cfg.MaxInput = DefaultMaxInput
	}
	if cfg.StateCacheSize <= 0 {
		cfg.StateCacheSize = DefaultStateCacheSize
	}
	s := &Service{
		cfg:        cfg,
		settings:   cfg.Settings,
		states:     newStateCache(cfg.StateCacheSize),
		commands:   make(map[string]route),
		components: make(map[string]route),
		modals:     make(map[string]route),
		completers: make(map[string]handler),
		solveFn:    sudoku.Solve,
	}
	if s.settings == nil {
		s.settings = NewMemSettings()
	}
	// Each feature registers its commands, buttons and modals; the order is
	// the order of Specs.
	s.addSolve()
	s.addHint()
	s.addCheck()
	s.addGenerate()
	s.addPlay() // /play and /daily, only with Config.Games
	s.addWatch()
	s.addPicture() // buttons under a grid read from a picture
	s.addPrivacy() // only with a Config.Games that can show and delete
	s.addHelp()
	return s
}

// addCommand registers a command spec and its handler. plan may be nil for
// light commands.
func (s *Service) addCommand(spec CommandSpec, h handler, p planner) {
	if _, dup := s.commands[spec.Name]; dup {
		panic(fmt.Sprintf("commands: command %q registered twice", spec.Name))
	}
	s.specs = append(s.specs, spec)
	s.commands[spec.Name] = route{h, p}
}

// addCompleter registers the handler of Autocomplete requests for command
// name.
func (s *Service) addCompleter(name string, h handler) {
	s.completers[name] = h
}

// addComponent registers the handler of components whose custom id starts
// with prefix + ":".
func (s *Service) addComponent(prefix string, h handler, p planner) {
	if _, dup := s.components[prefix]; dup {
		panic(fmt.Sprintf("commands: component prefix %q registered twice", prefix))
	}
	s.components[prefix] = route{h, p}
}

// addModal registers the handler of modals whose custom id starts with
// prefix + ":".
func (s *Service) addModal(prefix string, h handler, p planner) {
	if _, dup := s.modals[prefix]; dup {
		panic(fmt.Sprintf("commands: modal prefix %q registered twice", prefix))
	}
	s.modals[prefix] = route{h, p}
}

// Specs returns every command to register with Discord: slash commands and
// message (Apps menu) commands.
func (s *Service) Specs() []CommandSpec {
	return append([]CommandSpec(nil), s.specs...)
}

// EntryPoint is the app's entry-point command (PrimaryEntryPoint), and
// whether the Activity is set up (Config.Activity). It is not among
// Specs: it is registered globally only, and Discord, not the bot, answers
// it by opening the board.
func (s *Service) EntryPoint() (CommandSpec, bool) {
	return CommandSpec{Type: PrimaryEntryPoint, Name: "launch", Description: "Open the Sudoku board: today's dailies or a new game"}, s.cfg.Activity
}

// lookup finds the route for req.
func (s *Service) lookup(req Request) (route, bool) {
	switch req.Kind {
	case SlashCommand, MessageCommand:
		r, ok := s.commands[req.Command]
		return r, ok
	case Component:
		r, ok := s.components[idPrefix(req.CustomID)]
		return r, ok
	case ModalSubmit:
		r, ok := s.modals[idPrefix(req.CustomID)]
		return r, ok
	case Mention:
		return route{s.handleMessage, s.planMessage}, true
	case Autocomplete:
		h, ok := s.completers[req.Command]
		return route{h, nil}, ok // no plan: answered at once
	}
	return route{}, false
}

// Plan says how the bot should treat req before doing the work: whether to
// ignore it, run it in the worker pool, and how to defer it. It does no
// engine work; for messages it reads the settings (is the channel watched?)
// and parses the text, which takes microseconds.
func (s *Service) Plan(ctx context.Context, req Request) Plan {
	if _, over := s.tooLong(req); over {
		return Plan{} // refused at once by Handle
	}
	r, ok := s.lookup(req)
	if !ok || r.plan == nil {
		return Plan{}
	}
	return r.plan(ctx, req)
}

// Handle answers req. ctx carries the per-user deadline; when it ends during
// the work, Handle returns the message that says so rather than an error.
// A zero Response means "send nothing" (a message in a watched channel that
// holds no grid).
func (s *Service) Handle(ctx context.Context, req Request) Response {
	if refusal, over := s.tooLong(req); over {
		return refusal
	}
	r, ok := s.lookup(req)
	if !ok {
		return unknownRequest(req)
	}
	resp := r.handle(ctx, req)
	if resp.failure != nil && s.cfg.Logf != nil {
		what := req.Command
		if what == "" {
			what = idPrefix(req.CustomID)
		}
		s.cfg.Logf("request %s (%s by user %s): %v", req.ID, what, req.UserID, resp.failure)
	}
	return resp
}

func unknownRequest(req Request) Response {
	switch req.Kind {
	case Component, ModalSubmit:
		// Buttons from an older version of the bot, or a custom id mangled on
		// the way: say so rather than fail silently.
		return ephemeral("That button belongs to an older version of me and no longer works. Run the command again.")
	case Mention, Autocomplete:
		return Response{} // no choices
	}
	return ephemeral(fmt.Sprintf("I don't know the command %q. Try /help.", req.Command))
}

// ephemeral is a plain text reply only the asker sees.
func ephemeral(text string) Response {
	return Response{Content: clip(text, maxContent), Ephemeral: true}
}

// stopped is the answer when ctx ended before the work did.
func (s *Service) stopped(ctx context.Context) Response {
	if ctx.Err() == context.Canceled {
		return ephemeral(RestartingNotice)
	}
	return ephemeral(StoppedNotice(s.cfg.SolveTimeout))
}

// stoppedOn is stopped for work on g, saying why by what the search saw
// (see stoppedNoticeFor).
func (s *Service) stoppedOn(ctx context.Context, g *sudoku.Grid) Response {
	if ctx.Err() == context.Canceled || g == nil {
		return s.stopped(ctx)
	}
	return ephemeral(s.stoppedText(g))
}

func (s *Service) stoppedText(g *sudoku.Grid) string {
	return stoppedNoticeFor(s.cfg.SolveTimeout, g)
}

// humanDuration writes d the way people say it: "5 s", "1.5 s", "250 ms".
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		sec := d.Seconds()
		if sec == float64(int64(sec)) {
			return fmt.Sprintf("%d s", int64(sec))
		}
		return fmt.Sprintf("%.1f s", sec)
	case d >= time.Millisecond:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d >= time.Microsecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	}
	return fmt.Sprintf("%d ns", d.Nanoseconds())
}

// logf writes to the configured log, if any.
func (s *Service) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}

// nextSeed returns a seed for the generator.
func (s *Service) nextSeed(now time.Time) uint64 {
	if s.cfg.Seed != nil {
		return s.cfg.Seed()
	}
	// splitmix64 of time and a counter: distinct for every call.
	x := uint64(now.UnixNano()) + s.seedSeq.Add(1)*0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}
