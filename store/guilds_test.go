package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testDailySettings(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	if g, err := s.Settings(ctx, "g1"); err != nil || g.DailyChannel != "" || g.GuildID != "g1" {
		t.Errorf("Settings of a new guild = %+v, %v; want daily off", g, err)
	}
	if err := s.SetDaily(ctx, "g1", "c1", 9, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDaily(ctx, "g2", "c7", 0, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDaily(ctx, "g1", "c2", 17, t0); err != nil { // moves it
		t.Fatal(err)
	}
	if g, _ := s.Settings(ctx, "g1"); g.DailyChannel != "c2" || g.DailyHour != 17 {
		t.Errorf("Settings(g1) = %+v, want c2 at 17", g)
	}
	list, err := s.DailyGuilds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []GuildSettings{{"g1", "c2", 17, true}, {"g2", "c7", 0, true}}
	if !slices.Equal(list, want) {
		t.Errorf("DailyGuilds = %+v, want %+v", list, want)
	}
	if err := s.StopDaily(ctx, "g1", t0); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.DailyGuilds(ctx); !slices.Equal(list, want[1:]) {
		t.Errorf("DailyGuilds after stop = %+v, want %+v", list, want[1:])
	}
	for _, bad := range []struct {
		guild, channel string
		hour           int
	}{{"", "c", 1}, {"g", "", 1}, {"g", "c", -1}, {"g", "c", 24}} {
		if err := s.SetDaily(ctx, bad.guild, bad.channel, bad.hour, t0); !errors.Is(err, ErrInvalid) {
			t.Errorf("SetDaily(%q, %q, %d) = %v, want ErrInvalid", bad.guild, bad.channel, bad.hour, err)
		}
	}
}

func testWatchedChannels(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	for _, c := range []string{"c2", "c1", "c2"} {
		if err := s.SetWatched(ctx, "g1", c, true); err != nil {
			t.Fatal(err)
		}
	}
	s.SetWatched(ctx, "g2", "c9", true)
	if got, _ := s.WatchedChannels(ctx, "g1"); !slices.Equal(got, []string{"c1", "c2"}) {
		t.Errorf("WatchedChannels(g1) = %v, want [c1 c2]", got)
	}
	if err := s.SetWatched(ctx, "g1", "c2", false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		guild, channel string
		want           bool
	}{{"g1", "c1", true}, {"g1", "c2", false}, {"g2", "c9", true}, {"g2", "c1", false}} {
		if got, err := s.Watched(ctx, tt.guild, tt.channel); err != nil || got != tt.want {
			t.Errorf("Watched(%s, %s) = %v, %v; want %v", tt.guild, tt.channel, got, err, tt.want)
		}
	}
	if err := s.SetWatched(ctx, "", "c", true); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetWatched without a guild = %v, want ErrInvalid", err)
	}
}

func testClaimPostOnce(t *testing.T, s backend, second func() backend) {
	ctx := context.Background()
	s2 := second() // a second shard or process on the same database
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range 10 {
		st := s
		if i%2 == 1 {
			st = s2
		}
		// Different times of the same UTC day are the same post.
		wg.Go(func() {
			won, err := st.ClaimPost(ctx, "g1", "c1", day0.Add(time.Duration(i)*time.Hour), "shard", t0)
			if err != nil {
				t.Errorf("ClaimPost: %v", err)
			}
			if won {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d claims won the same post, want 1", wins.Load())
	}
	for _, tt := range []struct {
		name, guild, channel string
		date                 time.Time
	}{
		{"next day", "g1", "c1", day0.AddDate(0, 0, 1)},
		{"other channel", "g1", "c2", day0},
		{"other guild", "g2", "c1", day0},
	} {
		if won, err := s.ClaimPost(ctx, tt.guild, tt.channel, tt.date, "x", t0); err != nil || !won {
			t.Errorf("ClaimPost %s = %v, %v; want a fresh claim", tt.name, won, err)
		}
	}
	if err := s.ReleasePost(ctx, "g1", "c1", day0); err != nil {
		t.Fatal(err)
	}
	if won, err := s.ClaimPost(ctx, "g1", "c1", day0, "retry", t0); err != nil || !won {
		t.Errorf("ClaimPost after release = %v, %v; want won", won, err)
	}
}
