package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"sync"
	"time"

	"sudokubot/activity"
	"sudokubot/bot"
	botcmd "sudokubot/commands"
	"sudokubot/store"
)

// runBot connects to Discord and serves until ctx is cancelled (Ctrl-C,
// SIGTERM), finishing the replies in flight.
func runBot(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "run", "",
		"Connects to Discord with the settings in the environment or .env (see .env.example) and\n"+
			"serves until Ctrl-C or SIGTERM, finishing the replies in flight. A bare `sudokubot` does this.")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return fs.usageError("unexpected argument %q: run takes no arguments; its settings come from the environment", fs.Arg(0))
	}
	cfg, err := bot.LoadConfig(stdio.getenv)
	if errors.Is(err, bot.ErrNoToken) {
		fmt.Fprintln(stdio.Stderr, bot.TokenHelp)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: configuration: %v\n", err)
		return 2
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	defer st.Close()
	secret, warning, err := dailySecret(ctx, stdio.getenv, st)
	if warning != "" {
		fmt.Fprintf(stdio.Stderr, "%s: warning: %s\n", "sudokubot", warning)
	}
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	logger := newLogger(stdio.Stderr, cfg.LogJSON)
	// Races post and edit through the bot, which is built with the
	// Service: channels forwards to the bot's once it exists.
	// Without a token (the HTTP endpoint alone) nothing can be posted:
	// the Service then leaves races out.
	var channels botcmd.Channels
	late := &lateChannels{}
	if cfg.Token != "" {
		channels = late
	}
	svc := botcmd.New(botcmd.Config{
		Logf:          logger.Printf,
		SolveTimeout:  cfg.SolveTimeout,
		MaxInput:      cfg.MaxInputChars,
		Settings:      st,
		Games:         st,
		DailySecret:   secret,
		ContentIntent: func() bool { return cfg.MessageContent },
		Activity:      cfg.ClientID != "",
		Channels:      channels,
	})
	if addr, local, err := activitySettings(stdio.getenv); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: configuration: %v\n", err)
		return 2
	} else if addr != "" {
		var who *botcmd.Player
		if local {
			who = &botcmd.Player{UserID: "local", UserName: "Local player"}
		}
		// With the application's OAuth2 credentials, players inside
		// Discord sign in with the code the SDK's authorize() gave.
		var signIn activity.SignIn
		var instances activity.Instances
		if cfg.ClientID != "" {
			signIn = activity.DiscordOAuth{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, APIBase: cfg.APIBase}
			if cfg.Token != "" {
				// Who is in an Activity instance, before they join its
				// co-op game or race, and where it runs, for a player
				// signing in (asked with the bot's token).
				instances = activity.DiscordInstances{AppID: cfg.ClientID, BotToken: cfg.Token, APIBase: cfg.APIBase}
			}
		}
		url, err := serveActivity(ctx, addr, who, signIn, instances, svc, st, logger.Printf)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
			return 2
		}
		logger.Printf("the game board is served at %s", url)
	}
	b, err := bot.New(cfg, svc, logger)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 2
	}
	late.set(b.Channels())
	b.SetDatabase(st)
	b.SetIdentifyLimiter(st)
	b.SetReplayGuard(st)
	// The daily poster runs beside the bot and stops with it (it needs a
	// gateway token to post; the endpoint alone cannot).
	if cfg.Token != "" {
		go bot.NewPoster(b, svc, 0).Run(ctx)
		go b.RunTicks(ctx, svc, 0)
	}
	if err := b.Run(ctx); err != nil {
		fmt.Fprintf(stdio.Stderr, "sudokubot: %v\n", err)
		return 1
	}
	return 0
}

// lateChannels is the bot's Channels for a Service made before the bot.
type lateChannels struct {
	mu sync.Mutex
	ch botcmd.Channels
}

func (l *lateChannels) set(ch botcmd.Channels) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ch = ch
}

func (l *lateChannels) get() (botcmd.Channels, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ch == nil {
		return nil, errors.New("channel messages: the bot is not made yet")
	}
	return l.ch, nil
}

func (l *lateChannels) Post(ctx context.Context, channelID string, r botcmd.Response) (string, error) {
	ch, err := l.get()
	if err != nil {
		return "", err
	}
	return ch.Post(ctx, channelID, r)
}

func (l *lateChannels) Edit(ctx context.Context, channelID, messageID string, r botcmd.Response) error {
	ch, err := l.get()
	if err != nil {
		return err
	}
	return ch.Edit(ctx, channelID, messageID, r)
}

func (l *lateChannels) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	ch, err := l.get()
	if err != nil {
		return "", err
	}
	return ch.StartThread(ctx, channelID, messageID, name)
}

// botStore is everything the running bot asks of a store; both the SQLite
// and the PostgreSQL store have it.
type botStore interface {
	botcmd.PlayStore
	botcmd.Settings
	bot.Pinger
	bot.IdentifyLimiter
	bot.ReplayGuard
	settingStore
	gameWatcher
	Close() error
}

// openStore opens PostgreSQL when DATABASE_URL is set, else the SQLite
// file at DATABASE_PATH (the default, one process).
func openStore(ctx context.Context, cfg bot.Config) (botStore, error) {
	if cfg.DatabaseURL != "" {
		octx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		p, err := store.OpenPostgres(octx, cfg.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("%w (check DATABASE_URL, and that the server is running and reachable)", err)
		}
		return p, nil
	}
	s, err := store.Open(ctx, cfg.DatabasePath)
	if err != nil {
		return nil, fmt.Errorf("%w (set DATABASE_PATH to a writable file)", err)
	}
	return s, nil
}

// newLogger is the bot's logger: plain lines as before, or JSON lines
// (LOG_FORMAT=json) through log/slog, one object per message.
func newLogger(w io.Writer, json bool) *log.Logger {
	if !json {
		return log.New(w, "", log.LstdFlags)
	}
	return slog.NewLogLogger(slog.NewJSONHandler(w, nil), slog.LevelInfo)
}
