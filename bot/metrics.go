package bot

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the bot's Prometheus series, on a registry of its own (so
// several bots in one test process do not collide). No label carries a
// token, a user or free text: commands are the registered names, and
// everything else is a short fixed vocabulary.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	first    *prometheus.HistogramVec
	final    *prometheus.HistogramVec
	refusals *prometheus.CounterVec
	endpoint *prometheus.CounterVec
	dbErrors atomic.Int64    // failed readiness pings
	known    map[string]bool // registered command names
}

// latencyBuckets span a quick answer (a few ms) to a deferred edit near a
// job's deadline.
var latencyBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}

func newMetrics(b *Bot) *metrics {
	const ns = "sudokubot"
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "requests_total",
			Help: "Interactions served, by command, transport (gateway, http) and outcome (answered, limited, busy, deadline, error, restarting)."},
			[]string{"command", "transport", "outcome"}),
		first: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "first_answer_seconds",
			Help: "Time from an interaction's arrival to its first answer (reply, modal or deferral).", Buckets: latencyBuckets},
			[]string{"transport"}),
		final: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "final_answer_seconds",
			Help: "Time from an interaction's arrival to its final answer.", Buckets: latencyBuckets},
			[]string{"transport"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "busy_refusals_total",
			Help: "Requests refused politely: limited (a user's rate, one job in flight, cool-down) or busy (the worker queue is full)."},
			[]string{"reason"}),
		endpoint: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "http_refused_total",
			Help: "HTTP interaction requests refused before serving, by reason (unsigned, signature, stale, replay, too_large, malformed, method)."},
			[]string{"reason"}),
		known: map[string]bool{},
	}
	for _, sp := range b.h.Specs() {
		m.known[sp.Name] = true
	}
	queue := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "queue_depth",
		Help: "Heavy jobs waiting for a worker, in both lanes."}, func() float64 { return float64(b.fast.queued() + b.slow.queued()) })
	dbErrors := prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: ns, Name: "database_errors_total",
		Help: "Database statements that failed on the database's side (PostgreSQL), and readiness pings that failed."},
		func() float64 {
			n := m.dbErrors.Load()
			if c, ok := b.db.(interface{ Errors() int64 }); ok {
				n += c.Errors()
			}
			return float64(n)
		})
	m.reg.MustRegister(m.requests, m.first, m.final, m.refusals, m.endpoint, dbErrors, queue, shardCollector{b},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// interaction records one served interaction.
func (m *metrics) interaction(x *exchange, arrived time.Time) {
	outcome := x.outcome
	if outcome == "" {
		outcome = "answered"
	}
	m.requests.WithLabelValues(m.command(x.in), x.transport, outcome).Inc()
	if outcome == "limited" || outcome == "busy" {
		m.refusals.WithLabelValues(outcome).Inc()
	}
	if !x.firstAt.IsZero() {
		m.first.WithLabelValues(x.transport).Observe(x.firstAt.Sub(arrived).Seconds())
	}
	m.final.WithLabelValues(x.transport).Observe(x.b.now().Sub(arrived).Seconds())
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

func (m *metrics) endpointRefused(reason string) { m.endpoint.WithLabelValues(reason).Inc() }

// shardUp describes shard_up: read from the sessions at each scrape, so it
// is never stale.
var shardUp = prometheus.NewDesc("sudokubot_shard_up",
	"1 while the gateway session of a shard run by this process is connected, else 0.", []string{"shard"}, nil)

// shardCollector reports shard_up for this process's gateway sessions.
type shardCollector struct{ b *Bot }

func (c shardCollector) Describe(ch chan<- *prometheus.Desc) { ch <- shardUp }

func (c shardCollector) Collect(ch chan<- prometheus.Metric) {
	for id, s := range c.b.localShards() {
		v := 0.0
		if sessionReady(s) {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(shardUp, prometheus.GaugeValue, v, strconv.Itoa(id))
	}
}
