package bot

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// ScaleConfig holds the settings for running beyond one process: the
// database shared by all processes, the HTTP interactions endpoint, the
// shards this process runs, and operations (health, metrics, log format).
type ScaleConfig struct {
	// DatabaseURL, when set (postgres://…), selects the PostgreSQL store
	// instead of the SQLite file at DatabasePath.
	DatabaseURL string
	// InteractionsAddr, when set (":8080"), serves Discord's HTTP
	// interactions at InteractionsPath, and /healthz, /readyz and /metrics.
	InteractionsAddr string
	InteractionsPath string
	// PublicKey is the application's Ed25519 public key (DISCORD_PUBLIC_KEY,
	// hex) that signs every request to the endpoint.
	PublicKey ed25519.PublicKey
	// OpsAddr, when set, serves /healthz, /readyz and /metrics on their own
	// (for processes without the HTTP endpoint).
	OpsAddr string
	// Shards are the gateway shards this process runs; zero means every
	// shard Discord recommends.
	Shards ShardSet
	// LogJSON writes logs as JSON lines (LOG_FORMAT=json).
	LogJSON bool
}

// DefaultInteractionsPath is where the HTTP endpoint listens unless
// INTERACTIONS_PATH says otherwise.
const DefaultInteractionsPath = "/interactions"

// ShardSet is a set of shard ids out of Count shards. The zero value means
// "as many as Discord recommends, all of them here".
type ShardSet struct {
	IDs   []int
	Count int
}

// IsZero reports whether the set was left to Discord's recommendation.
func (s ShardSet) IsZero() bool { return s.Count == 0 }

// String writes the set as SHARDS takes it ("0-1/4", "2/4", "0,2/4").
func (s ShardSet) String() string {
	if s.IsZero() {
		return "auto"
	}
	var parts []string
	for i := 0; i < len(s.IDs); {
		j := i
		for j+1 < len(s.IDs) && s.IDs[j+1] == s.IDs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", s.IDs[i], s.IDs[j]))
		} else {
			parts = append(parts, strconv.Itoa(s.IDs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",") + "/" + strconv.Itoa(s.Count)
}

// maxShards bounds SHARDS: far more than any bot this size will need, and
// small enough that a typo cannot make the process open a million sessions.
const maxShards = 4096

// ParseShards reads SHARDS: "i/n" (one shard), "a-b/n" (a range), or a
// comma-separated list of both ("0,2-3/8"). Ids must be below n, and none
// may repeat.
func ParseShards(v string) (ShardSet, error) {
	bad := func(why string) (ShardSet, error) {
		return ShardSet{}, fmt.Errorf("SHARDS=%q: %s (want e.g. 0-1/4: shards 0 and 1 of 4)", v, why)
	}
	list, total, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return bad("no /COUNT")
	}
	n, err := strconv.Atoi(strings.TrimSpace(total))
	if err != nil || n < 1 || n > maxShards {
		return bad(fmt.Sprintf("the count must be a whole number from 1 to %d", maxShards))
	}
	seen := map[int]bool{}
	var ids []int
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, errA := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var errB error
		if isRange {
			b, errB = strconv.Atoi(strings.TrimSpace(hi))
		}
		if errA != nil || errB != nil || a < 0 || b < a {
			return bad(fmt.Sprintf("%q is not a shard id or a range a-b", part))
		}
		if b >= n {
			return bad(fmt.Sprintf("shard %d is not below the count %d", b, n))
		}
		for id := a; id <= b; id++ {
			if seen[id] {
				return bad(fmt.Sprintf("shard %d is listed twice", id))
			}
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ShardSet{IDs: ids, Count: n}, nil
}

// loadScale reads the scale settings into c and returns what did not parse.
func loadScale(get func(string) string, c *Config) []error {
	var errs []error
	c.DatabaseURL = get("DATABASE_URL")
	c.InteractionsAddr = get("INTERACTIONS_ADDR")
	c.InteractionsPath = DefaultInteractionsPath
	if v := get("INTERACTIONS_PATH"); v != "" {
		if !strings.HasPrefix(v, "/") {
			errs = append(errs, fmt.Errorf("INTERACTIONS_PATH=%q: want a path starting with /", v))
		}
		c.InteractionsPath = v
	}
	if v := get("DISCORD_PUBLIC_KEY"); v != "" {
		k, err := hex.DecodeString(v)
		if err != nil || len(k) != ed25519.PublicKeySize {
			errs = append(errs, fmt.Errorf("DISCORD_PUBLIC_KEY: want the %d hex digits of \"Public Key\" on the application's General Information page", 2*ed25519.PublicKeySize))
		} else {
			c.PublicKey = ed25519.PublicKey(k)
		}
	}
	if c.InteractionsAddr != "" && c.PublicKey == nil && get("DISCORD_PUBLIC_KEY") == "" {
		errs = append(errs, fmt.Errorf("INTERACTIONS_ADDR=%q needs DISCORD_PUBLIC_KEY to check that requests come from Discord", c.InteractionsAddr))
	}
	c.OpsAddr = get("OPS_ADDR")
	if v := get("SHARDS"); v != "" {
		s, err := ParseShards(v)
		if err != nil {
			errs = append(errs, err)
		}
		c.Shards = s
	}
	switch v := strings.ToLower(get("LOG_FORMAT")); v {
	case "", "text":
	case "json":
		c.LogJSON = true
	default:
		errs = append(errs, fmt.Errorf("LOG_FORMAT=%q: want text or json", v))
	}
	return errs
}
