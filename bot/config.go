package bot

import (
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"sudokubot/commands"
)

// Config is everything the bot reads from the environment. The zero values
// of the limit fields are replaced by the defaults in Default, so tests can
// set only what they care about.
type Config struct {
	// Token is the bot token, without the "Bot " prefix. Never logged.
	Token string
	// GuildID, when set, registers the commands in that one server (they
	// appear at once) instead of globally.
	GuildID string
	// APIBase, when set, is an origin (scheme://host[:port]) that replaces
	// https://discord.com in every REST call, attachments included.
	APIBase string
	// ClientID and ClientSecret are the application's OAuth2 credentials
	// (Developer Portal → OAuth2), set together to switch the Activity on:
	// the board's backend exchanges the page's sign-in code with them.
	// The secret is never logged.
	ClientID, ClientSecret string

	// SolveTimeout is the deadline of one heavy job.
	SolveTimeout time.Duration
	// DeferAfter is how long the bot waits for a job before it defers the
	// interaction; it must stay well under Discord's 3 s.
	DeferAfter time.Duration
	// RatePerMinute and RateBurst are each user's token bucket.
	RatePerMinute float64
	RateBurst     int
	// Strikes is how many jobs in a row may hit the deadline (within
	// StrikeWindow of each other) before the user cools down for Cooldown.
	Strikes      int
	StrikeWindow time.Duration
	Cooldown     time.Duration
	// Workers run expensive jobs (big grids, generation) in the slow lane;
	// Queue is how many may wait there. Cheap jobs (9x9) have a fast lane
	// of their own, sized from these (see lanes.go).
	Workers int
	Queue   int
	// MaxInputChars bounds the text of one request (options, modal fields,
	// message text, in characters): the bot only reads it from
	// MAX_INPUT_CHARS, the commands apply it (commands.Config.MaxInput,
	// one check, one sentence). MaxAttachmentBytes bounds one .txt
	// attachment, which the bot downloads.
	MaxInputChars      int
	MaxAttachmentBytes int64
	// ShutdownWait bounds how long a shutdown waits for replies in flight.
	ShutdownWait time.Duration

	// MessageContent asks Discord for the privileged Message Content intent,
	// needed only to read grids in watched channels without a mention.
	MessageContent bool
	// DatabasePath is the SQLite file of the store (used by commands).
	DatabasePath string

	ScaleConfig
}

// Default is the configuration without any environment: the values
// .env.example documents.
func Default() Config {
	return Config{
		SolveTimeout:       5 * time.Second,
		DeferAfter:         2 * time.Second,
		RatePerMinute:      20,
		RateBurst:          5,
		Strikes:            3,
		StrikeWindow:       10 * time.Minute,
		Cooldown:           2 * time.Minute,
		Workers:            runtime.GOMAXPROCS(0),
		Queue:              64,
		MaxInputChars:      commands.DefaultMaxInput,
		MaxAttachmentBytes: 64 << 10,
		ShutdownWait:       10 * time.Second,
		DatabasePath:       "sudokubot.db",
	}
}

// withDefaults fills zero limit fields from Default.
func (c Config) withDefaults() Config {
	d := Default()
	if c.SolveTimeout <= 0 {
		c.SolveTimeout = d.SolveTimeout
	}
	if c.DeferAfter <= 0 {
		c.DeferAfter = d.DeferAfter
	}
	if c.RatePerMinute <= 0 {
		c.RatePerMinute = d.RatePerMinute
	}
	if c.RateBurst <= 0 {
		c.RateBurst = d.RateBurst
	}
	if c.Strikes <= 0 {
		c.Strikes = d.Strikes
	}
	if c.StrikeWindow <= 0 {
		c.StrikeWindow = d.StrikeWindow
	}
	if c.Cooldown <= 0 {
		c.Cooldown = d.Cooldown
	}
	if c.Workers <= 0 {
		c.Workers = d.Workers
	}
	if c.Queue <= 0 {
		c.Queue = d.Queue
	}
	if c.MaxInputChars <= 0 {
		c.MaxInputChars = d.MaxInputChars
	}
	if c.MaxAttachmentBytes <= 0 {
		c.MaxAttachmentBytes = d.MaxAttachmentBytes
	}
	if c.ShutdownWait <= 0 {
		c.ShutdownWait = d.ShutdownWait
	}
	return c
}

// ErrNoToken is returned by LoadConfig when DISCORD_TOKEN is empty (and no
// INTERACTIONS_ADDR lets the bot run on the HTTP endpoint alone).
var ErrNoToken = errors.New("DISCORD_TOKEN is not set")

// TokenHelp tells a newcomer how to get a token and invite the bot. It is
// printed when DISCORD_TOKEN is missing.
const TokenHelp = `sudokubot needs a Discord bot token to connect.

  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy the token.
  3. Put it in .env (cp .env.example .env) as DISCORD_TOKEN=... or export it.
  4. Invite the bot to a server with the scopes "bot" and "applications.commands":
       https://discord.com/oauth2/authorize?client_id=APP_ID&scope=bot+applications.commands&permissions=` + InvitePermissions + `
     (APP_ID is the "Application ID" on the app's General Information page;
     the permissions are View Channels, Send Messages, Create Public
     Threads, Send Messages in Threads, Embed Links, Attach Files and Read
     Message History.)
  5. Optional: set DISCORD_GUILD_ID to your server's id so the commands
     appear at once instead of after Discord's global refresh.

No Discord at hand? Try the same commands in a terminal: go run . console`

// InvitePermissions is the permission integer the invite URL asks for:
// View Channels (1<<10), Send Messages (1<<11), Embed Links (1<<14), Attach
// Files (1<<15), Read Message History (1<<16), Create Public Threads
// (1<<35, a race's thread; without it races stay in the channel) and Send
// Messages in Threads (1<<38).
const InvitePermissions = "309237763072"

// LoadConfig reads the configuration through getenv (os.Getenv in main, a
// map in tests). It returns ErrNoToken (wrapped) when the token is missing,
// and an error naming the variable when a value does not parse.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := Default()
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c.Token = strings.TrimPrefix(get("DISCORD_TOKEN"), "Bot ")
	c.GuildID = get("DISCORD_GUILD_ID")
	c.APIBase = get("DISCORD_API_BASE")
	c.ClientID = get("DISCORD_CLIENT_ID")
	c.ClientSecret = get("DISCORD_CLIENT_SECRET")
	if v := get("DATABASE_PATH"); v != "" {
		c.DatabasePath = v
	}

	var errs []error
	dur := func(key string, dst *time.Duration) {
		v := get(key)
		if v == "" {
			return
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q: want a positive duration such as 5s or 2m", key, v))
			return
		}
		*dst = d
	}
	num := func(key string, dst *int) {
		v := get(key)
		if v == "" {
			return
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q: want a positive whole number", key, v))
			return
		}
		*dst = n
	}
	dur("SOLVE_TIMEOUT", &c.SolveTimeout)
	dur("DEFER_AFTER", &c.DeferAfter)
	dur("COOLDOWN", &c.Cooldown)
	dur("STRIKE_WINDOW", &c.StrikeWindow)
	dur("SHUTDOWN_WAIT", &c.ShutdownWait)
	if v := get("RATE_PER_MINUTE"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			errs = append(errs, fmt.Errorf("RATE_PER_MINUTE=%q: want a positive number", v))
		} else {
			c.RatePerMinute = f
		}
	}
	num("RATE_BURST", &c.RateBurst)
	num("STRIKES", &c.Strikes)
	num("WORKERS", &c.Workers)
	num("QUEUE", &c.Queue)
	num("MAX_INPUT_CHARS", &c.MaxInputChars)
	maxAtt := int(c.MaxAttachmentBytes)
	num("MAX_ATTACHMENT_BYTES", &maxAtt)
	c.MaxAttachmentBytes = int64(maxAtt)
	if v := get("MESSAGE_CONTENT"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("MESSAGE_CONTENT=%q: want true or false", v))
		}
		c.MessageContent = b
	}
	errs = append(errs, loadScale(get, &c)...)
	if c.Token == "" && c.InteractionsAddr == "" {
		errs = append(errs, ErrNoToken)
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

// Validate reports settings that cannot work: an API base that is not an
// origin, or a DeferAfter that would miss Discord's 3 s window.
func (c Config) Validate() error {
	var errs []error
	if c.APIBase != "" {
		u, err := url.Parse(c.APIBase)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("DISCORD_API_BASE=%q: want an origin such as http://127.0.0.1:8080", c.APIBase))
		}
	}
	switch {
	case (c.ClientID == "") != (c.ClientSecret == ""):
		errs = append(errs, errors.New("DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together (both from the Developer Portal's OAuth2 page): set both to switch the Activity on, or neither"))
	case c.ClientID != "" && !isSnowflake(c.ClientID):
		errs = append(errs, fmt.Errorf("DISCORD_CLIENT_ID=%q: want the application's id, digits only (Developer Portal → OAuth2 → Client ID)", c.ClientID))
	}
	if c.DeferAfter >= 2500*time.Millisecond {
		errs = append(errs, fmt.Errorf("DEFER_AFTER=%s: must be under 2.5s so the first answer beats Discord's 3 s limit", c.DeferAfter))
	}
	return errors.Join(errs...)
}

// isSnowflake reports whether s looks like a Discord id: 1 to 20 digits.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
