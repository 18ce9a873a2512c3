package bot

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"sudokubot/internal/prom"
)

// metrics are the bot's Prometheus series, on a registry of its own (so
// several bots in one test process do not collide). No label carries a
// token, a user or free text: commands are the registered names, and
// everything else is a short fixed vocabulary.
type metrics struct {
	reg      *prom.Registry
	requests *prom.CounterVec
	first    *prom.HistogramVec
	final    *prom.HistogramVec
	refusals *prom.CounterVec
	endpoint *prom.CounterVec
	channel  *prom.CounterVec
	// The gateway clients' record, by shard (gateway.go).
	gwReconnects, gwResumes, gwIdentifies, gwDown *prom.CounterVec
	dbErrors                                      atomic.Int64    // failed readiness pings
	known                                         map[string]bool // registered command names
}

// latencyBuckets span a quick answer (a few ms) to a deferred edit near a
// job's deadline.
var latencyBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}

func newMetrics(b *Bot) *metrics {
	const ns = "sudokubot_"
	reg := prom.NewRegistry()
	m := &metrics{
		reg: reg,
		requests: reg.Counter(ns+"requests_total",
			"Interactions served, by command, transport (gateway, http) and outcome (answered, limited, busy, deadline, error, restarting).",
			"command", "transport", "outcome"),
		first: reg.Histogram(ns+"first_answer_seconds",
			"Time from an interaction's arrival to its first answer (reply, modal or deferral).", latencyBuckets, "transport"),
		final: reg.Histogram(ns+"final_answer_seconds",
			"Time from an interaction's arrival to its final answer.", latencyBuckets, "transport"),
		refusals: reg.Counter(ns+"busy_refusals_total",
			"Requests refused politely: limited (a user's rate, one job in flight, cool-down) or busy (the worker queue is full).",
			"reason"),
		endpoint: reg.Counter(ns+"http_refused_total",
			"HTTP interaction requests refused before serving, by reason (unsigned, signature, stale, replay, too_large, malformed, method).",
			"reason"),
		channel: reg.Counter(ns+"channel_requests_total",
			"The bot's own channel messages: attempts by route (post, edit, thread) and outcome (ok, rate_limited, server_error, network, refused), and edits replaced before they were sent (coalesced).",
			"route", "outcome"),
		gwReconnects: reg.Counter(ns+"gateway_reconnects_total",
			"Gateway reconnection attempts after a lost connection, by shard.", "shard"),
		gwResumes: reg.Counter(ns+"gateway_resumes_total",
			"Gateway sessions resumed (RESUMED received), by shard.", "shard"),
		gwIdentifies: reg.Counter(ns+"gateway_identifies_total",
			"Identify packets sent (each starts a new session; Discord allows 1,000 a day), by shard.", "shard"),
		gwDown: reg.Counter(ns+"gateway_disconnected_seconds_total",
			"Seconds a shard's gateway connection was down, added when it is back (shard_up shows an outage in progress).", "shard"),
		known: map[string]bool{},
	}
	for _, sp := range b.h.Specs() {
		m.known[sp.Name] = true
	}
	reg.GaugeFunc(ns+"queue_depth", "Heavy jobs waiting for a worker, in both lanes.",
		func() float64 { return float64(b.fast.queued() + b.slow.queued()) })
	reg.CounterFunc(ns+"database_errors_total",
		"Database statements that failed on the database's side (PostgreSQL), and readiness pings that failed.",
		func() float64 {
			n := m.dbErrors.Load()
			if c, ok := b.db.(interface{ Errors() int64 }); ok {
				n += c.Errors()
			}
			return float64(n)
		})
	// shard_up is read from the sessions at each scrape, so it is never
	// stale.
	reg.GaugeSet(ns+"shard_up", "1 while the gateway session of a shard run by this process is connected, else 0.",
		[]string{"shard"}, func(emit func(float64, ...string)) {
			for id, s := range b.localShards() {
				v := 0.0
				if sessionReady(s) {
					v = 1
				}
				emit(v, strconv.Itoa(id))
			}
		})
	reg.AddRuntime()
	return m
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler { return m.reg }

// interaction records one served interaction.
func (m *metrics) interaction(x *exchange, arrived time.Time) {
	outcome := x.outcome
	if outcome == "" {
		outcome = "answered"
	}
	m.requests.With(m.command(x.in), x.transport, outcome).Inc()
	if outcome == "limited" || outcome == "busy" {
		m.refusals.With(outcome).Inc()
	}
	if !x.firstAt.IsZero() {
		m.first.With(x.transport).Observe(x.firstAt.Sub(arrived).Seconds())
	}
	m.final.With(x.transport).Observe(x.b.now().Sub(arrived).Seconds())
}

// command names the interaction for a label: a registered command's name,
// or its kind; anything else is "other", so labels stay few.
func (m *metrics) command(in *discordgo.Interaction) string {
	switch in.Type {
	case discordgo.InteractionApplicationCommand:
		if d, ok := in.Data.(discordgo.ApplicationCommandInteractionData); ok && m.known[d.Name] {
			return d.Name
		}
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionModalSubmit:
		return "modal"
	}
	return "other"
}

func (m *metrics) endpointRefused(reason string) { m.endpoint.With(reason).Inc() }
