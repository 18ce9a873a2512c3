// Package bot is sudokubot's Discord side: the discordgo session, command
// registration, the routing of interactions and messages to the commands
// package, the first answer within Discord's 3 seconds (answer or defer, then
// edit), per-user limits, the worker pool for heavy jobs and graceful
// shutdown. It holds no product logic: what to answer is the Handler's
// business.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/commands"
)

// Handler is what the bot needs from the product; *commands.Service
// implements it, and tests use small fakes.
type Handler interface {
	// Specs lists the commands to register with Discord.
	Specs() []commands.CommandSpec
	// Plan says, before any work and quickly, how to treat req: ignore it
	// (a message that is chatter), run it in the worker pool (Heavy), and
	// how to defer it (Ephemeral, Update).
	Plan(ctx context.Context, req commands.Request) commands.Plan
	// Handle answers one request; it honours ctx's deadline. A zero
	// Response to a message means "send nothing".
	Handle(ctx context.Context, req commands.Request) commands.Response
}

// Bot is a running (or ready to run) Discord bot.
type Bot struct {
	cfg  Config
	h    Handler
	logf func(format string, args ...any)
	now  func() time.Time

	limits *limiter
	waits  waits
	// fast and slow are the lanes of heavy work (lanes.go).
	fast, slow *pool

	// work is the parent of every job's context; cancelWork stops them all
	// when a shutdown can wait no longer.
	work       context.Context
	cancelWork context.CancelFunc
	// rest is the parent of the REST calls that answer; cancelRest ends
	// them when a shutdown's time is up.
	rest       context.Context
	cancelRest context.CancelFunc

	mu       sync.Mutex
	stopping bool
	inFlight sync.WaitGroup // event handlers that began before stopping
	session  *discordgo.Session
	botID    string
	ready    chan readyInfo

	// channels posts and edits channel messages (channels.go).
	channels *Channels

	scale // shards, HTTP endpoint, health and metrics (scale.go)
}

// readyInfo is what the ready log line says.
type readyInfo struct {
	user   string
	guilds int
}

// New returns a bot for cfg that answers with h. logger may be nil (the
// standard logger). The token is never logged.
func New(cfg Config, h Handler, logger *log.Logger) (*Bot, error) {
	if h == nil {
		return nil, errors.New("bot: nil handler")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = log.Default()
	}
	work, cancel := context.WithCancel(context.Background())
	rest, cancelRest := context.WithCancel(context.Background())
	fast, slow := newLanes(cfg)
	b := &Bot{
		cfg:        cfg,
		h:          h,
		logf:       logger.Printf,
		now:        time.Now,
		limits:     newLimiter(cfg),
		waits:      waits{grace: deadlineGrace, replyBackoff: replyBackoff, replyBackoffMax: replyBackoffMax},
		fast:       fast,
		slow:       slow,
		work:       work,
		cancelWork: cancel,
		rest:       rest,
		cancelRest: cancelRest,
		ready:      make(chan readyInfo, 1),
	}
	b.metrics = newMetrics(b)
	client, err := restClient(cfg.APIBase)
	if err != nil {
		return nil, err
	}
	b.channels = newChannels(rest, client, cfg.Token, userAgent, b.logf)
	b.channels.count = func(route, outcome string) { b.metrics.channel.With(route, outcome).Inc() }
	return b, nil
}

// userAgent is the User-Agent of the bot's own REST calls: discordgo's.
const userAgent = "DiscordBot (https://github.com/bwmarrin/discordgo, v" + discordgo.VERSION + ")"

// restClient is an HTTP client for Discord's REST API at apiBase (empty:
// Discord itself), keeping enough idle connections to reuse them when
// many replies go out at once.
func restClient(apiBase string) (*http.Client, error) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 64
	rt, err := newRewriteTransport(apiBase, base)
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: 20 * time.Second, Transport: rt}, nil
}

// Channels is what posts and edits the bot's own channel messages and
// makes threads (commands.Channels); it works once the bot has a token.
func (b *Bot) Channels() *Channels { return b.channels }

// Run connects, registers the commands, logs one line saying where the bot
// is ready, and serves until ctx is cancelled; then it stops taking new work,
// finishes the replies in flight (waiting at most Config.ShutdownWait) and
// closes the session. It returns nil after a clean shutdown.
//
// With INTERACTIONS_ADDR it also serves the HTTP interactions endpoint (and
// runs on it alone without a token); with SHARDS, or when Discord
// recommends more than one shard, it runs one session per shard instead
// (shards.go).
func (b *Bot) Run(ctx context.Context) error {
	stopHTTP, err := b.startHTTP()
	if err != nil {
		return err
	}
	defer stopHTTP()
	if b.cfg.Token == "" {
		if b.cfg.InteractionsAddr != "" {
			return b.runEndpointOnly(ctx)
		}
		return ErrNoToken
	}
	if set, ok := b.shardPlan(ctx); ok {
		return b.runShards(ctx, set)
	}
	s, err := b.newSession()
	if err != nil {
		return err
	}
	gw := b.newGateway(s, 0, 0, 1)
	if err := b.paceIdentify(ctx, 0, gw.wait); err != nil {
		b.shutdown()
		return err
	}
	if err := gw.open(ctx); err != nil {
		b.shutdown()
		return fmt.Errorf("connect to the Discord gateway: %w%s", err, b.openHint(err))
	}
	where, err := b.register(ctx, s)
	if err != nil {
		b.shutdown(gw)
		return err
	}

	// The READY handler has run once open returned.
	var info readyInfo
	select {
	case info = <-b.ready:
	case <-time.After(10 * time.Second):
		info = readyInfo{user: "?", guilds: -1}
	}
	b.logf("ready as %s in %d guilds (commands registered %s)", info.user, info.guilds, where)

	prune := time.NewTicker(time.Minute)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			b.shutdown(gw)
			return nil
		case <-prune.C:
			b.limits.prune(b.now())
		}
	}
}

// newSession builds the discordgo session: REST through the API-base
// rewrite, state tracking off. Its websocket is never opened: the
// gateway client (gateway.go) feeds the handlers.
func (b *Bot) newSession() (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + b.cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("create Discord session: %w", err)
	}
	// Replies to many users go out at once: keep enough idle connections
	// to reuse them rather than open one per reply (the default keeps 2).
	if s.Client, err = restClient(b.cfg.APIBase); err != nil {
		return nil, err
	}
	// The bot keeps no cache of guilds or messages, and discordgo's state
	// code dereferences fields of events that may arrive half-parsed.
	s.StateEnabled = false
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages
	if b.cfg.MessageContent {
		s.Identify.Intents |= discordgo.IntentMessageContent
	}
	b.mu.Lock()
	b.session = s
	b.mu.Unlock()
	return s, nil
}

// openHint adds advice to a failed connection for the usual causes.
func (b *Bot) openHint(err error) string {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusUnauthorized {
		return " (Discord rejected DISCORD_TOKEN: reset it in the Developer Portal, Bot page, and paste the new one)"
	}
	if b.cfg.MessageContent {
		return " (MESSAGE_CONTENT=true needs the Message Content intent switched on in the Developer Portal, Bot page, Privileged Gateway Intents)"
	}
	return ""
}

// register bulk-overwrites the commands, in the configured guild or
// globally, and says where.
func (b *Bot) register(ctx context.Context, s *discordgo.Session) (string, error) {
	s.State.RLock()
	r := s.State.Ready
	s.State.RUnlock()
	appID := ""
	if r.Application != nil {
		appID = r.Application.ID
	}
	if appID == "" && r.User != nil {
		appID = r.User.ID // a bot's user id is its application id
	}
	if appID == "" {
		return "", errors.New("register commands: READY carried no application or user id")
	}
	b.mu.Lock()
	if r.User != nil {
		b.botID = r.User.ID
	}
	b.mu.Unlock()

	specs := b.h.Specs()
	cmds := make([]*discordgo.ApplicationCommand, 0, len(specs))
	for _, sp := range specs {
		cmds = append(cmds, toCommand(sp))
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var err error
	if b.cfg.GuildID == "" {
		err = b.registerGlobal(rctx, s, appID, cmds)
	} else {
		_, err = s.ApplicationCommandBulkOverwrite(appID, b.cfg.GuildID, cmds, discordgo.WithContext(rctx))
	}
	if err != nil {
		where := "globally"
		if b.cfg.GuildID != "" {
			where = "in guild " + b.cfg.GuildID
		}
		return "", fmt.Errorf("register %d commands %s: %w", len(cmds), where, err)
	}
	if b.cfg.GuildID != "" {
		return "in guild " + b.cfg.GuildID, nil
	}
	return "globally", nil
}

// begin registers an event handler as in flight, or reports false when
// the bot is shutting down.
func (b *Bot) begin() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopping {
		return false
	}
	b.inFlight.Add(1)
	return true
}

func (b *Bot) end() { b.inFlight.Done() }

// closeTime is what a shutdown keeps for closing the gateway
// connections.
const closeTime = 1200 * time.Millisecond

// closer is a gateway connection as a shutdown sees it.
type closer interface{ Close() error }

// shutdown stops taking work and returns within Config.ShutdownWait in
// all: replies in flight may finish until a reserve before the end (a
// quarter of the wait, at least closeTime); then the jobs left are
// cancelled and answered "restarting" while the sessions close; at the
// end, whatever REST call is still out is cut off.
func (b *Bot) shutdown(sessions ...closer) {
	deadline := time.Now().Add(b.cfg.ShutdownWait)
	b.mu.Lock()
	b.stopping = true
	b.mu.Unlock()

	done := make(chan struct{})
	go func() {
		b.inFlight.Wait()
		close(done)
	}()
	reserve := min(max(b.cfg.ShutdownWait/4, closeTime), b.cfg.ShutdownWait)
	cut := time.NewTimer(time.Until(deadline.Add(-reserve)))
	defer cut.Stop()
	select {
	case <-done:
	case <-cut.C:
		b.logf("shutdown: replies still in flight; cancelling them")
	}
	b.cancelWork()
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		// The connections (one per shard) close side by side.
		var wg sync.WaitGroup
		for i, s := range sessions {
			if s == nil {
				continue
			}
			wg.Go(func() {
				if err := s.Close(); err != nil {
					b.logf("shutdown: close session %d: %v", i, err)
				}
			})
		}
		wg.Wait()
	}()
	end := time.NewTimer(time.Until(deadline.Add(-50 * time.Millisecond)))
	defer end.Stop()
	late := false
	select {
	case <-done:
	case <-end.C:
		late = true
		b.logf("shutdown: out of time (SHUTDOWN_WAIT %s); replies still going out are cut off", b.cfg.ShutdownWait)
	}
	b.cancelRest()
	if !late {
		select {
		case <-closed:
		case <-end.C:
		}
	}
	go b.fast.close()
	go b.slow.close()
}

// self is the bot's user id (empty before READY).
func (b *Bot) self() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.botID
}

// entryPointer is what a Handler with an Activity adds (commands.Service):
// the app's entry-point command, and whether the Activity is set up.
type entryPointer interface {
	EntryPoint() (commands.CommandSpec, bool)
}

// errEntryPointDropped is Discord's code for a global bulk overwrite that
// leaves out the app's entry-point command, which Discord makes when
// Activities are switched on in the Developer Portal.
const errEntryPointDropped = 50240

// registerGlobal bulk-overwrites the global commands. With the Activity
// set up, the entry-point command goes with them (Discord refuses an
// overwrite that drops the one it keeps). Without it, an overwrite
// refused for that reason is sent again once with the entry point Discord
// has, as it is, so the bot's commands register either way.
func (b *Bot) registerGlobal(ctx context.Context, s *discordgo.Session, appID string, cmds []*discordgo.ApplicationCommand) error {
	payload := make([]any, 0, len(cmds)+1)
	for _, c := range cmds {
		payload = append(payload, c)
	}
	if ep, ok := b.h.(entryPointer); ok {
		if spec, on := ep.EntryPoint(); on {
			payload = append(payload, entryPointCommand(spec))
		}
	}
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	_, err := s.RequestWithBucketID("PUT", endpoint, payload, endpoint, discordgo.WithContext(ctx))
	var rest *discordgo.RESTError
	if len(payload) > len(cmds) && errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusBadRequest {
		return fmt.Errorf("%w (the Activity is set up, so the entry-point command was sent: Discord takes one only once Activities are switched on for the app in the Developer Portal; switch them on, or unset DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET)", err)
	}
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != errEntryPointDropped || len(payload) > len(cmds) {
		return err
	}
	kept, gerr := s.RequestWithBucketID("GET", endpoint, nil, endpoint, discordgo.WithContext(ctx))
	if gerr != nil {
		return fmt.Errorf("%w (and reading the entry point to keep failed: %v)", err, gerr)
	}
	var existing []map[string]any
	if jerr := json.Unmarshal(kept, &existing); jerr != nil {
		return fmt.Errorf("%w (and the global commands read back are not JSON: %v)", err, jerr)
	}
	for _, c := range existing {
		if t, _ := c["type"].(float64); t == float64(commands.PrimaryEntryPoint) {
			b.logf("register: keeping Discord's entry-point command %q (Activities are on for this app; set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET to serve the board)", c["name"])
			payload = append(payload, c)
			_, err = s.RequestWithBucketID("PUT", endpoint, payload, endpoint, discordgo.WithContext(ctx))
			return err
		}
	}
	return err
}

// entryPointCommand is spec as Discord's entry-point command: handler 2
// (DISCORD_LAUNCH_ACTIVITY, Discord opens the Activity), in servers, the
// bot's DM and group DMs, for server and user installs. discordgo v0.29
// has no handler field, hence a map.
func entryPointCommand(spec commands.CommandSpec) map[string]any {
	return map[string]any{
		"type": int(commands.PrimaryEntryPoint), "name": spec.Name, "description": spec.Description,
		"handler": 2, "integration_types": []int{0, 1}, "contexts": []int{0, 1, 2},
	}
}
