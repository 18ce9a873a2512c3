package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sudokubot/store"
)

// TestSessionKeyShared: every process on one store signs the board's
// sessions with the one key made first; a damaged key is refused.
func TestSessionKeyShared(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "k.db")
	one, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	two, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	k1, err := sessionKey(ctx, one)
	if err != nil || len(k1) != 32 {
		t.Fatalf("sessionKey = %x, %v; want 32 bytes", k1, err)
	}
	if k2, err := sessionKey(ctx, two); err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("the second process's key = %x, %v; want the first's %x", k2, err, k1)
	}
	bad, err := store.Open(ctx, filepath.Join(t.TempDir(), "bad.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if _, err := bad.InitSetting(ctx, sessionKeySetting, "not hex"); err != nil {
		t.Fatal(err)
	}
	if _, err := sessionKey(ctx, bad); err == nil || !strings.Contains(err.Error(), sessionKeySetting) {
		t.Errorf("sessionKey with a damaged setting = %v, want an error naming %s", err, sessionKeySetting)
	}
}
