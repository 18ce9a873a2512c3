package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
)

// guildRemover is what a Handler may also do: forget a server that removed
// the bot (*commands.Service does).
type guildRemover interface {
	GuildRemoved(ctx context.Context, guildID string) error
}

// forgetTimeout bounds the store work of forgetting a server.
const forgetTimeout = 30 * time.Second

// onGuildDelete hands a server that removed the bot (kicked it, or was
// deleted) to the Handler to forget. Discord also sends GUILD_DELETE, with
// "unavailable" set, when a server goes down in an outage: that changes
// nothing.
func (b *Bot) onGuildDelete(_ *discordgo.Session, e *discordgo.GuildDelete) {
	if e == nil || e.Guild == nil || e.ID == "" || e.Unavailable {
		return
	}
	gr, ok := b.h.(guildRemover)
	if !ok || !b.begin() {
		return
	}
	defer b.end()
	ctx, cancel := context.WithTimeout(b.work, forgetTimeout)
	defer cancel()
	if err := gr.GuildRemoved(ctx, e.ID); err != nil {
		b.logf("removed from guild %s; forgetting its settings failed: %v", e.ID, err)
		return
	}
	b.logf("removed from guild %s: its settings are deleted", e.ID)
}
