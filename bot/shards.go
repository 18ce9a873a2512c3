package bot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// gatewayInfo is what GET /gateway/bot tells a bot about sharding.
type gatewayInfo struct {
	shards         int // recommended count
	maxConcurrency int // Identify rate-limit buckets
}

// gatewayBot asks Discord how many shards to run and how many may
// identify at once.
func (b *Bot) gatewayBot(ctx context.Context) (gatewayInfo, error) {
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	g, err := b.restSession().GatewayBot(discordgo.WithContext(rctx))
	if err != nil {
		return gatewayInfo{}, fmt.Errorf("GET /gateway/bot: %w", err)
	}
	return gatewayInfo{shards: max(g.Shards, 1), maxConcurrency: max(g.SessionStartLimit.MaxConcurrency, 1)}, nil
}

// shardPlan decides whether this process runs shards: SHARDS set, or
// Discord recommending more than one. ok false means one unsharded
// session, the plain path of Run (also when /gateway/bot cannot be read:
// Open then reports the cause).
func (b *Bot) shardPlan(ctx context.Context) (ShardSet, bool) {
	if !b.cfg.Shards.IsZero() {
		return b.cfg.Shards, true
	}
	g, err := b.gatewayBot(ctx)
	if err != nil || g.shards <= 1 {
		return ShardSet{}, false
	}
	set := ShardSet{Count: g.shards}
	for id := range g.shards {
		set.IDs = append(set.IDs, id)
	}
	b.logf("Discord recommends %d shards: running all of them here (set SHARDS to split them across processes)", g.shards)
	return set, true
}

// identifyOrder groups shard ids by rate-limit bucket (id % maxConcurrency):
// the shards of one bucket identify one after another, identifyEvery
// apart; the buckets run side by side.
func identifyOrder(ids []int, maxConcurrency int) [][]int {
	if maxConcurrency < 1 {
		maxConcurrency = 1
	}
	byBucket := map[int][]int{}
	for _, id := range ids {
		byBucket[id%maxConcurrency] = append(byBucket[id%maxConcurrency], id)
	}
	keys := make([]int, 0, len(byBucket))
	for k := range byBucket {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	out := make([][]int, 0, len(keys))
	for _, k := range keys {
		sort.Ints(byBucket[k])
		out = append(out, byBucket[k])
	}
	return out
}

// paceIdentify waits until an Identify of the rate-limit bucket may go:
// by the slots shared in the store when there is a limiter, else by the
// pace kept in this process (identifyEvery apart per bucket).
func (b *Bot) paceIdentify(ctx context.Context, bucket int, wait func(context.Context, time.Duration) error) error {
	local := func() error {
		if d := b.gw.reserve(bucket, b.now()); d > 0 {
			return wait(ctx, d)
		}
		return nil
	}
	if b.identify == nil {
		return local()
	}
	for {
		d, err := b.identify.ClaimIdentify(ctx, bucket, identifyEvery, b.now())
		if err != nil {
			b.logf("shards: identify slot: %v; pacing within this process only", err)
			return local()
		}
		if d <= 0 {
			return nil
		}
		if err := wait(ctx, d); err != nil {
			return err
		}
	}
}

// runShards runs one gateway connection per shard in set (gateway.go),
// opened at Discord's identify pace, each kept up by its own gateway
// client; shard 0 (wherever it runs) registers the commands. It serves
// until ctx ends, then shuts down like Run.
func (b *Bot) runShards(ctx context.Context, set ShardSet) error {
	g, err := b.gatewayBot(ctx)
	if err != nil {
		b.logf("shards: %v; identifying one shard at a time", err)
		g = gatewayInfo{maxConcurrency: 1}
	}
	sessions := map[int]*discordgo.Session{}
	gateways := map[int]*gateway{}
	for _, id := range set.IDs {
		s, err := b.newSession()
		if err != nil {
			return err
		}
		s.ShardID, s.ShardCount = id, set.Count
		sessions[id] = s
		gateways[id] = b.newGateway(s, id, set.Count, g.maxConcurrency)
	}
	b.mu.Lock()
	b.shards = sessions
	// Daily posts and REST-only work go through the lowest shard here.
	b.session = sessions[set.IDs[0]]
	b.mu.Unlock()

	wait := b.identifyWait
	if wait == nil {
		wait = sleepCtx
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(set.IDs))
	for _, bucket := range identifyOrder(set.IDs, g.maxConcurrency) {
		wg.Go(func() {
			for _, id := range bucket {
				if err := b.paceIdentify(ctx, id%g.maxConcurrency, wait); err != nil {
					errs <- err
					return
				}
				if err := gateways[id].open(ctx); err != nil {
					errs <- fmt.Errorf("shard %d of %d: connect to the Discord gateway: %w%s", id, set.Count, err, b.openHint(err))
					return
				}
				b.logf("shard %d of %d connected", id, set.Count)

			}
		})
	}
	wg.Wait()
	close(errs)
	var openErr error
	for err := range errs {
		openErr = errors.Join(openErr, err)
	}
	if openErr != nil {
		b.closeShards(gateways)
		return openErr
	}
	if s0, ok := sessions[0]; ok {
		where, err := b.register(ctx, s0)
		if err != nil {
			b.closeShards(gateways)
			return err
		}
		b.logf("commands registered %s by shard 0", where)
	}
	b.logf("ready: shards %s", set)

	prune := time.NewTicker(time.Minute)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			b.closeShards(gateways)
			return nil
		case <-prune.C:
			b.limits.prune(b.now())
		}
	}
}

// closeShards shuts the bot down (replies in flight finish) and closes
// every shard's connection, within the shutdown's time.
func (b *Bot) closeShards(gateways map[int]*gateway) {
	all := make([]closer, 0, len(gateways))
	for _, g := range gateways {
		all = append(all, g)
	}
	b.shutdown(all...)
}
