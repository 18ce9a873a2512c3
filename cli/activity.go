package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"sudokubot/activity"
	botcmd "sudokubot/commands"
	"sudokubot/store"
)

// gameWatcher is the store's watch of changes to games (both stores have
// it; PostgreSQL's hears every process).
type gameWatcher interface {
	WatchGames(ctx context.Context, fn func(store.GameChange)) error
}

// boardStore is what the board's server needs of the store beside the
// games commands play: the changes to games, and the shared session key.
type boardStore interface {
	gameWatcher
	settingStore
}

// sessionKeySetting names the key that signs the board's sessions, made
// once and kept in the store, so every process (and a restart) takes the
// sessions of the others.
const sessionKeySetting = "activity_session_key"

// sessionKey returns the board's session key, making it on first use.
func sessionKey(ctx context.Context, st settingStore) ([]byte, error) {
	var b [32]byte
	rand.Read(b[:])
	stored, err := st.InitSetting(ctx, sessionKeySetting, hex.EncodeToString(b[:]))
	if err != nil {
		return nil, fmt.Errorf("the board's session key: %w", err)
	}
	key, err := hex.DecodeString(stored)
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("the board's session key in the store (setting %s) is not 16 or more bytes of hex", sessionKeySetting)
	}
	return key, nil
}

// storeChanges gives the board's live sockets the store's changes.
type storeChanges struct{ w gameWatcher }

func (c storeChanges) Watch(ctx context.Context, fn func(activity.Change)) error {
	return c.w.WatchGames(ctx, func(ch store.GameChange) {
		fn(activity.Change{Game: ch.Game, Race: ch.Race, By: ch.By})
	})
}

// The Activity's page beside the bot or the console. ACTIVITY_ADDR serves
// it; ACTIVITY_LOCAL=1 (always, in the console) signs whoever opens it in
// as a local test user, so it may only listen on a loopback address.

// activitySettings reads ACTIVITY_ADDR and ACTIVITY_LOCAL.
func activitySettings(getenv func(string) string) (addr string, local bool, err error) {
	addr = getenv("ACTIVITY_ADDR")
	if v := getenv("ACTIVITY_LOCAL"); v != "" {
		if local, err = strconv.ParseBool(v); err != nil {
			return "", false, fmt.Errorf("ACTIVITY_LOCAL=%q is not true or false", v)
		}
	}
	if local && addr == "" {
		return "", false, errors.New("ACTIVITY_LOCAL is set but ACTIVITY_ADDR is not: set the address to serve the board at, e.g. 127.0.0.1:8090")
	}
	return addr, local, nil
}

// serveActivity serves the board for svc at addr until ctx ends, and
// returns its URL. With local set, everyone who opens it is local; then
// addr must be a loopback address (a bare ":8090" listens on 127.0.0.1).
// signIn (nil for none) signs in the players who come with Discord's code;
// st tells the live sockets of moves made anywhere and keeps the session
// key every process signs with.
// instances (nil for none) tells whether a Discord player is in an
// Activity instance, for playing together.
func serveActivity(ctx context.Context, addr string, local *botcmd.Player, signIn activity.SignIn, instances activity.Instances, svc *botcmd.Service, st boardStore, logf func(string, ...any)) (string, error) {
	clientID := ""
	if d, ok := signIn.(activity.DiscordOAuth); ok {
		clientID = d.ClientID
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("ACTIVITY_ADDR %q is not host:port (e.g. 127.0.0.1:8090): %v", addr, err)
	}
	if local != nil {
		if host == "" {
			host = "127.0.0.1"
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "", fmt.Errorf("the local board signs anyone who opens it in as you: serve it on 127.0.0.1 or localhost, not %q", host)
		}
	}
	key, err := sessionKey(ctx, st)
	if err != nil {
		return "", err
	}
	srv, err := activity.New(activity.Config{Boards: svc, Local: local, SignIn: signIn, ClientID: clientID, SessionKey: key, Instances: instances, Changes: storeChanges{st}, Logf: logf})
	if err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return "", fmt.Errorf("serve the board: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go hs.Serve(ln)
	go srv.Run(ctx) // live updates, until ctx ends
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	a := ln.Addr().(*net.TCPAddr)
	shown := host
	if shown == "" || shown == "0.0.0.0" || shown == "::" {
		shown = "localhost"
	}
	return "http://" + net.JoinHostPort(shown, strconv.Itoa(a.Port)) + "/", nil
}
