package bot

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

const testKeyHex = "e2a1b9c0d5f4e3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8"

func TestLoadScaleConfig(t *testing.T) {
	c, err := LoadConfig(env(map[string]string{
		"DISCORD_TOKEN": "x", "DATABASE_URL": "postgres://u@h/db", "SHARDS": "2-3/4",
		"INTERACTIONS_ADDR": ":8080", "INTERACTIONS_PATH": "/discord", "DISCORD_PUBLIC_KEY": testKeyHex,
		"OPS_ADDR": ":9090", "LOG_FORMAT": "JSON",
	}))
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if c.DatabaseURL != "postgres://u@h/db" || !slices.Equal(c.Shards.IDs, []int{2, 3}) || c.Shards.Count != 4 ||
		c.InteractionsAddr != ":8080" || c.InteractionsPath != "/discord" || len(c.PublicKey) != 32 ||
		c.OpsAddr != ":9090" || !c.LogJSON {
		t.Errorf("LoadConfig = %+v", c.ScaleConfig)
	}
	d, err := LoadConfig(env(map[string]string{"DISCORD_TOKEN": "x"}))
	if err != nil || d.InteractionsPath != "/interactions" || !d.Shards.IsZero() || d.LogJSON || d.DatabaseURL != "" {
		t.Errorf("defaults = %+v, %v; want path /interactions, shards auto, text logs, SQLite", d.ScaleConfig, err)
	}
}

func TestLoadScaleConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"endpoint without key", map[string]string{"INTERACTIONS_ADDR": ":8080"}, []string{"needs DISCORD_PUBLIC_KEY"}},
		{"bad key", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": "abc"}, []string{"DISCORD_PUBLIC_KEY: want the 64 hex digits"}},
		{"bad shards", map[string]string{"DISCORD_TOKEN": "x", "SHARDS": "4/4"}, []string{`SHARDS="4/4"`}},
		{"bad path", map[string]string{"DISCORD_TOKEN": "x", "INTERACTIONS_PATH": "interactions"}, []string{"INTERACTIONS_PATH"}},
		{"bad log format", map[string]string{"DISCORD_TOKEN": "x", "LOG_FORMAT": "xml"}, []string{`LOG_FORMAT="xml"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadConfig(env(tc.env))
			if err == nil {
				t.Fatal("LoadConfig succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// The endpoint alone needs no token.
	if _, err := LoadConfig(env(map[string]string{"INTERACTIONS_ADDR": ":8080", "DISCORD_PUBLIC_KEY": testKeyHex})); errors.Is(err, ErrNoToken) || err != nil {
		t.Errorf("endpoint without a token: %v, want no error", err)
	}
}
