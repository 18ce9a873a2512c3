package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"sudokubot/store"
	"sudokubot/sudoku"
)

// dailySecretKey is the store setting that holds the generated daily
// secret.
const dailySecretKey = "daily_secret"

// settingStore keeps the bot-wide settings; both stores have it.
type settingStore interface {
	InitSetting(ctx context.Context, key, value string) (string, error)
}

// dailySecret returns the secret that keys the daily puzzles, and a
// warning for the log (or ""). The secret is DAILY_SECRET when set, else
// the one in st, which the first process to start makes (32 random bytes,
// hex) and stores so every shard and restart shares it. A DAILY_SECRET is
// stored too when st has none yet, so shards started without it agree.
func dailySecret(ctx context.Context, getenv func(string) string, st settingStore) (secret []byte, warning string, err error) {
	want := getenv("DAILY_SECRET")
	if want == "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, "", fmt.Errorf("make a daily secret: %w", err)
		}
		want = hex.EncodeToString(b[:])
	}
	stored, err := st.InitSetting(ctx, dailySecretKey, want)
	if err != nil {
		return nil, "", fmt.Errorf("daily secret: %w", err)
	}
	if env := getenv("DAILY_SECRET"); env != "" {
		if stored != env {
			warning = "DAILY_SECRET differs from the daily secret stored in the database: this process shows other daily puzzles than shards started without DAILY_SECRET"
		}
		return []byte(env), warning, nil
	}
	return []byte(stored), "", nil
}

// runDaily prints the daily puzzles of a UTC day.
func runDaily(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags(stdio, "daily", "[-date 2026-11-21] [-level hard] [-secret S] [-timeout 1m]",
		"One per line: number, date, level, score, puzzle (tab separated). Daily #1 is 2026-01-01.\n"+
			"\n"+
			"The puzzles depend on the bot's daily secret, so that nobody can work out a coming\n"+
			"day's puzzle: -secret, else DAILY_SECRET, else the secret the bot made and stored in\n"+
			"its database (DATABASE_URL or DATABASE_PATH). Today and past days print with any of these; a day\n"+
			"after today only when you give the secret yourself (-secret or DAILY_SECRET), as\n"+
			"the operator who chose it.")
	dateText := fs.String("date", "", "the UTC day, as 2026-11-21 (default: today in UTC)")
	levelName := fs.String("level", "", "only this level: easy, medium or hard (default: all three)")
	secretText := fs.String("secret", "", "the bot's daily secret (default: DAILY_SECRET, else the one stored in DATABASE_URL or DATABASE_PATH)")
	timeout := fs.Duration("timeout", time.Minute, "give up after this long (0: never)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	usageErr := fs.usageError
	if *timeout < 0 {
		return usageErr("-timeout %v: want a positive duration, or 0 for none", *timeout)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: all options are flags", fs.Arg(0))
	}
	today := sudoku.DailyDay(time.Now())
	day := today
	if s := strings.TrimSpace(*dateText); s != "" {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return usageErr("-date %q: want a date such as 2026-11-21", s)
		}
		day = d
	}
	if day.Before(sudoku.DailyEpoch) {
		return usageErr("-date %s: the first daily is %s", day.Format(time.DateOnly), sudoku.DailyEpoch.Format(time.DateOnly))
	}
	levels := sudoku.DailyLevels()
	if s := strings.TrimSpace(*levelName); s != "" {
		l, err := sudoku.ParseLevel(s)
		if err != nil || !isDailyLevel(l) {
			return usageErr("-level %q: the daily levels are easy, medium and hard", s)
		}
		levels = []sudoku.Level{l}
	}
	secret := []byte(*secretText)
	if len(secret) == 0 {
		secret = []byte(stdio.getenv("DAILY_SECRET"))
	}
	if len(secret) == 0 {
		if day.After(today) {
			return usageErr("-date %s is after today (%s in UTC): a coming day's puzzles print only with -secret or DAILY_SECRET given by you",
				day.Format(time.DateOnly), today.Format(time.DateOnly))
		}
		s, err := storedSecret(ctx, stdio.getenv("DATABASE_URL"), stdio.getenv("DATABASE_PATH"))
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot daily: %v\n", err)
			return 1
		}
		secret = s
	}
	for _, l := range levels {
		d, err := sudoku.Daily(ctx, secret, day, l)
		if errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(stdio.Stderr, "sudokubot daily: the %s puzzle took longer than %v (-timeout)\n", l, *timeout)
			return exitFail
		}
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "sudokubot daily: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdio.Stdout, "#%d\t%s\t%s\t%.1f\t%s\n", d.Number, d.Date.Format(time.DateOnly), d.Level, d.Rating.Score, d.Grid)
	}
	return 0
}

// storedSecret reads the daily secret the bot stored in its database: the
// PostgreSQL one at url when set, else the SQLite file at path
// (DefaultPath when empty), which it does not create.
func storedSecret(ctx context.Context, url, path string) ([]byte, error) {
	var st interface {
		Setting(ctx context.Context, key string) (string, error)
		Close() error
	}
	where := url
	if url != "" {
		p, err := store.OpenPostgres(ctx, url)
		if err != nil {
			return nil, err
		}
		st, where = p, "DATABASE_URL"
	} else {
		if path == "" {
			path = store.DefaultPath
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no daily secret: pass -secret, set DAILY_SECRET, or set DATABASE_PATH to the bot's database (%s: %w)", path, err)
		}
		s, err := store.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		st, where = s, path
	}
	defer st.Close()
	s, err := st.Setting(ctx, dailySecretKey)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no daily secret in %s yet (the bot stores one when it first starts): pass -secret or set DAILY_SECRET", where)
	}
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

func isDailyLevel(l sudoku.Level) bool {
	for _, d := range sudoku.DailyLevels() {
		if d == l {
			return true
		}
	}
	return false
}
