// Package prom keeps counters, histograms and gauges and serves them in
// Prometheus' text exposition format (version 0.0.4), with the Go
// runtime's and the process's own series beside them.
//
// It stands in for the Prometheus client library, whose package
// initialisation (a default registry with Go and process collectors, the
// protobuf registries under it) every run of the binary paid, the
// command-line tools included: about half the CPU of solving one puzzle.
// Nothing here runs before a Registry is made.
package prom

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds metric families and writes them, sorted by name.
type Registry struct {
	mu       sync.Mutex
	families []family
}

// family is one metric family: its HELP and TYPE lines, then its samples.
type family interface {
	name() string
	write(w *strings.Builder)
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

func (r *Registry) add(f family) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, g := range r.families {
		if g.name() == f.name() {
			panic("prom: " + f.name() + " registered twice")
		}
	}
	r.families = append(r.families, f)
}

// WriteText writes every family in the text exposition format.
func (r *Registry) WriteText(w io.Writer) error {
	r.mu.Lock()
	fams := slices.Clone(r.families)
	r.mu.Unlock()
	sort.Slice(fams, func(i, j int) bool { return fams[i].name() < fams[j].name() })
	var b strings.Builder
	for _, f := range fams {
		f.write(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ServeHTTP serves the registry as a Prometheus scrape target.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_ = r.WriteText(w)
}

// header writes a family's HELP and TYPE lines.
func header(b *strings.Builder, name, help, typ string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, escapeHelp(help), name, typ)
}

// sample writes one line: name{labels} value. names and values pair up;
// the caller gives the names in the order they are to appear.
func sample(b *strings.Builder, name string, names, values []string, v float64) {
	b.WriteString(name)
	if len(names) > 0 {
		b.WriteByte('{')
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(n)
			b.WriteString(`="`)
			b.WriteString(escapeLabel(values[i]))
			b.WriteByte('"')
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(formatFloat(v))
	b.WriteByte('\n')
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }

// labelSet is a family's label names, sorted as they are written, and the
// order that takes the values given in declaration order to it.
type labelSet struct {
	names []string // sorted
	order []int    // names[i] is the declared label order[i]
}

func newLabelSet(declared []string) labelSet {
	ls := labelSet{names: slices.Clone(declared), order: make([]int, len(declared))}
	for i := range ls.order {
		ls.order[i] = i
	}
	sort.Slice(ls.order, func(i, j int) bool { return declared[ls.order[i]] < declared[ls.order[j]] })
	for i, o := range ls.order {
		ls.names[i] = declared[o]
	}
	return ls
}

// sorted returns values (in declaration order) in the written order.
func (ls labelSet) sorted(values []string) []string {
	out := make([]string, len(values))
	for i, o := range ls.order {
		out[i] = values[o]
	}
	return out
}

// vec holds a family's children by their label values.
type vec[T any] struct {
	fname  string
	help   string
	labels labelSet
	mu     sync.Mutex
	kids   map[string]*child[T]
	make   func() *T
}

type child[T any] struct {
	values []string // in the written order
	m      *T
}

// with returns the child for values, given in the declared label order.
func (v *vec[T]) with(values []string) *T {
	if len(values) != len(v.labels.names) {
		panic(fmt.Sprintf("prom: %s takes %d label values, got %d", v.fname, len(v.labels.names), len(values)))
	}
	key := strings.Join(values, "\xff")
	v.mu.Lock()
	defer v.mu.Unlock()
	if c, ok := v.kids[key]; ok {
		return c.m
	}
	c := &child[T]{values: v.labels.sorted(values), m: v.make()}
	v.kids[key] = c
	return c.m
}

// children returns the children sorted by their label values.
func (v *vec[T]) children() []*child[T] {
	v.mu.Lock()
	out := make([]*child[T], 0, len(v.kids))
	for _, c := range v.kids {
		out = append(out, c)
	}
	v.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return slices.Compare(out[i].values, out[j].values) < 0 })
	return out
}

// Counter is a value that only goes up.
type Counter struct{ bits atomic.Uint64 }

// Inc adds 1.
func (c *Counter) Inc() { c.Add(1) }

// Add adds d, which must not be negative.
func (c *Counter) Add(d float64) {
	if d < 0 {
		panic("prom: a counter cannot go down")
	}
	for {
		old := c.bits.Load()
		if c.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

// Value returns the count.
func (c *Counter) Value() float64 { return math.Float64frombits(c.bits.Load()) }

// CounterVec is a counter family with labels.
type CounterVec struct{ v *vec[Counter] }

// Counter registers a counter family whose series are told apart by the
// labels named.
func (r *Registry) Counter(name, help string, labels ...string) *CounterVec {
	c := &CounterVec{&vec[Counter]{fname: name, help: help, labels: newLabelSet(labels),
		kids: map[string]*child[Counter]{}, make: func() *Counter { return new(Counter) }}}
	r.add(c)
	return c
}

// With returns the counter for the label values, in the order the labels
// were named.
func (c *CounterVec) With(values ...string) *Counter { return c.v.with(values) }

func (c *CounterVec) name() string { return c.v.fname }

func (c *CounterVec) write(b *strings.Builder) {
	header(b, c.v.fname, c.v.help, "counter")
	for _, k := range c.v.children() {
		sample(b, c.v.fname, c.v.labels.names, k.values, k.m.Value())
	}
}

// Histogram counts observations into cumulative buckets.
type Histogram struct {
	upper  []float64 // bucket bounds, ascending; +Inf is implied
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

// Observe records one value.
func (h *Histogram) Observe(v float64) {
	i := sort.SearchFloat64s(h.upper, v) // the first bound >= v
	h.mu.Lock()
	h.counts[i]++
	h.sum += v
	h.n++
	h.mu.Unlock()
}

// HistogramVec is a histogram family with labels.
type HistogramVec struct{ v *vec[Histogram] }

// Histogram registers a histogram family with the given bucket upper
// bounds (ascending; +Inf is added).
func (r *Registry) Histogram(name, help string, buckets []float64, labels ...string) *HistogramVec {
	if !sort.Float64sAreSorted(buckets) {
		panic("prom: " + name + ": buckets must ascend")
	}
	upper := slices.Clone(buckets)
	h := &HistogramVec{&vec[Histogram]{fname: name, help: help, labels: newLabelSet(labels),
		kids: map[string]*child[Histogram]{},
		make: func() *Histogram { return &Histogram{upper: upper, counts: make([]uint64, len(upper)+1)} }}}
	r.add(h)
	return h
}

// With returns the histogram for the label values, in the order the
// labels were named.
func (h *HistogramVec) With(values ...string) *Histogram { return h.v.with(values) }

func (h *HistogramVec) name() string { return h.v.fname }

func (h *HistogramVec) write(b *strings.Builder) {
	header(b, h.v.fname, h.v.help, "histogram")
	names := append(slices.Clone(h.v.labels.names), "le")
	for _, k := range h.v.children() {
		k.m.mu.Lock()
		counts, sum, n := slices.Clone(k.m.counts), k.m.sum, k.m.n
		k.m.mu.Unlock()
		values := append(slices.Clone(k.values), "")
		var cum uint64
		for i, c := range counts {
			cum += c
			if i < len(k.m.upper) {
				values[len(values)-1] = formatFloat(k.m.upper[i])
			} else {
				values[len(values)-1] = "+Inf"
			}
			sample(b, h.v.fname+"_bucket", names, values, float64(cum))
		}
		sample(b, h.v.fname+"_sum", h.v.labels.names, k.values, sum)
		sample(b, h.v.fname+"_count", h.v.labels.names, k.values, float64(n))
	}
}

// funcFamily is a family whose samples are read when it is written.
type funcFamily struct {
	fname, help, typ string
	labels           labelSet
	collect          func(emit func(v float64, values ...string))
}

func (f *funcFamily) name() string { return f.fname }

func (f *funcFamily) write(b *strings.Builder) {
	type s struct {
		values []string
		v      float64
	}
	var got []s
	f.collect(func(v float64, values ...string) {
		if len(values) != len(f.labels.names) {
			panic(fmt.Sprintf("prom: %s takes %d label values, got %d", f.fname, len(f.labels.names), len(values)))
		}
		got = append(got, s{f.labels.sorted(values), v})
	})
	header(b, f.fname, f.help, f.typ)
	sort.Slice(got, func(i, j int) bool { return slices.Compare(got[i].values, got[j].values) < 0 })
	for _, x := range got {
		sample(b, f.fname, f.labels.names, x.values, x.v)
	}
}

// GaugeFunc registers a gauge read from f at each scrape.
func (r *Registry) GaugeFunc(name, help string, f func() float64) {
	r.add(&funcFamily{fname: name, help: help, typ: "gauge", collect: func(emit func(float64, ...string)) { emit(f()) }})
}

// CounterFunc registers a counter read from f at each scrape.
func (r *Registry) CounterFunc(name, help string, f func() float64) {
	r.add(&funcFamily{fname: name, help: help, typ: "counter", collect: func(emit func(float64, ...string)) { emit(f()) }})
}

// GaugeSet registers a gauge family whose series are all read at each
// scrape: collect calls emit once per series, with its label values in the
// order the labels are named.
func (r *Registry) GaugeSet(name, help string, labels []string, collect func(emit func(v float64, values ...string))) {
	r.add(&funcFamily{fname: name, help: help, typ: "gauge", labels: newLabelSet(labels), collect: collect})
}
