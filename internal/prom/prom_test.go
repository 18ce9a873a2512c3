package prom

import (
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestWriteText: families sorted by name, labels by name (le last), series
// by label values, histograms cumulative with +Inf, _sum and _count;
// help and label values escaped.
func TestWriteText(t *testing.T) {
	r := NewRegistry()
	req := r.Counter("app_requests_total", "Requests by command\nand outcome.", "command", "outcome")
	lat := r.Histogram("app_latency_seconds", "Latency.", []float64{0.1, 1}, "transport")
	r.GaugeFunc("app_queue", "Queue depth.", func() float64 { return 3 })
	r.CounterFunc("app_errors_total", "Errors.", func() float64 { return 0 })
	r.GaugeSet("app_up", "Up.", []string{"shard"}, func(emit func(float64, ...string)) {
		emit(1, "1")
		emit(0, "0")
	})
	req.With("solve", "answered").Inc()
	req.With("solve", "answered").Add(2)
	req.With("hint", "say \"hi\"\\\nbye").Inc() // a quote, a backslash, a line break
	lat.With("http").Observe(0.05)
	lat.With("http").Observe(0.1)
	lat.With("http").Observe(5)
	lat.With("gateway").Observe(0.5)

	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `# HELP app_errors_total Errors.
# TYPE app_errors_total counter
app_errors_total 0
# HELP app_latency_seconds Latency.
# TYPE app_latency_seconds histogram
app_latency_seconds_bucket{transport="gateway",le="0.1"} 0
app_latency_seconds_bucket{transport="gateway",le="1"} 1
app_latency_seconds_bucket{transport="gateway",le="+Inf"} 1
app_latency_seconds_sum{transport="gateway"} 0.5
app_latency_seconds_count{transport="gateway"} 1
app_latency_seconds_bucket{transport="http",le="0.1"} 2
app_latency_seconds_bucket{transport="http",le="1"} 2
app_latency_seconds_bucket{transport="http",le="+Inf"} 3
app_latency_seconds_sum{transport="http"} 5.15
app_latency_seconds_count{transport="http"} 3
# HELP app_queue Queue depth.
# TYPE app_queue gauge
app_queue 3
# HELP app_requests_total Requests by command\nand outcome.
# TYPE app_requests_total counter
app_requests_total{command="hint",outcome="say \"hi\"\\\nbye"} 1
app_requests_total{command="solve",outcome="answered"} 3
# HELP app_up Up.
# TYPE app_up gauge
app_up{shard="0"} 0
app_up{shard="1"} 1
`
	if got := b.String(); got != want {
		t.Errorf("WriteText =\n%s\nwant\n%s", got, want)
	}
}

// TestLabelOrder: label values are given in the order the labels were
// named, and written sorted by label name.
func TestLabelOrder(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("x_total", "X.", "transport", "command", "outcome")
	c.With("http", "solve", "answered").Inc()
	var b strings.Builder
	r.WriteText(&b)
	if want := `x_total{command="solve",outcome="answered",transport="http"} 1`; !strings.Contains(b.String(), want) {
		t.Errorf("WriteText = %q, want a line %q", b.String(), want)
	}
}

// TestCounterConcurrent: increments from many goroutines all count.
func TestCounterConcurrent(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("n_total", "N.", "k")
	h := r.Histogram("h_seconds", "H.", []float64{1}, "k")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				c.With("a").Inc()
				h.With("a").Observe(0.5)
			}
		}()
	}
	wg.Wait()
	if got := c.With("a").Value(); got != 8000 {
		t.Errorf("count = %v, want 8000", got)
	}
	var b strings.Builder
	r.WriteText(&b)
	if !strings.Contains(b.String(), `h_seconds_count{k="a"} 8000`) {
		t.Errorf("histogram lost observations:\n%s", b.String())
	}
}

// TestMisuse: a name registered twice, a wrong number of label values and
// a counter going down are programming errors and panic.
func TestMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"twice": func() {
			r := NewRegistry()
			r.GaugeFunc("a", "A.", func() float64 { return 0 })
			r.CounterFunc("a", "A.", func() float64 { return 0 })
		},
		"labels":   func() { NewRegistry().Counter("b_total", "B.", "x").With("1", "2") },
		"negative": func() { NewRegistry().Counter("c_total", "C.").With().Add(-1) },
		"buckets":  func() { NewRegistry().Histogram("d", "D.", []float64{2, 1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestRuntimeAndServe: the runtime's and the process's series are served
// over HTTP with the text format's content type, every line a comment or
// a sample.
func TestRuntimeAndServe(t *testing.T) {
	r := NewRegistry()
	r.AddRuntime()
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("Content-Type %q", ct)
	}
	body := rec.Body.String()
	line := regexp.MustCompile(`^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (-?[0-9.e+]+|\+Inf|NaN))$`)
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("not a line of the text format: %q", l)
		}
	}
	wants := []string{"go_goroutines ", "go_info{version=\"go", "go_memstats_alloc_bytes ", "go_gc_cycles_total "}
	if strings.Contains(body, "process_") || fileExists("/proc/self/stat") {
		wants = append(wants, "process_cpu_seconds_total ", "process_resident_memory_bytes ", "process_open_fds ", "process_start_time_seconds 1")
	}
	for _, want := range wants {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
