package commands

import (
	"context"
	"sync"
)

// Settings stores per-server choices. The store package implements it in
// SQLite; MemSettings keeps them in memory.
type Settings interface {
	// Watched reports whether the bot offers buttons under grids posted in
	// the channel.
	Watched(ctx context.Context, guildID, channelID string) (bool, error)
	// SetWatched turns watching of a channel on or off.
	SetWatched(ctx context.Context, guildID, channelID string, on bool) error
}

// MemSettings is a Settings held in memory: it forgets everything on
// restart. Safe for concurrent use.
type MemSettings struct {
	mu      sync.RWMutex
	watched map[[2]string]bool
}

// NewMemSettings returns an empty MemSettings.
func NewMemSettings() *MemSettings {
	return &MemSettings{watched: make(map[[2]string]bool)}
}

// Watched implements Settings.
func (m *MemSettings) Watched(ctx context.Context, guildID, channelID string) (bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.watched[[2]string{guildID, channelID}], nil
}

// SetWatched implements Settings.
func (m *MemSettings) SetWatched(ctx context.Context, guildID, channelID string, on bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := [2]string{guildID, channelID}
	if on {
		m.watched[key] = true
	} else {
		delete(m.watched, key)
	}
	return nil
}
