package prom

import (
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
)

// AddRuntime registers the Go runtime's series and, on Linux, the
// process's, under the names Prometheus' own Go client gives them, so that
// the usual dashboards read them:
//
//	go_info{version}, go_goroutines, go_threads, go_sched_gomaxprocs_threads,
//	go_memstats_mallocs_total, go_gc_cycles_total, go_gc_heap_goal_bytes,
//	process_cpu_seconds_total, process_resident_memory_bytes,
//	process_virtual_memory_bytes, process_start_time_seconds, process_open_fds.
func (r *Registry) AddRuntime() {
	r.GaugeSet("go_info", "Information about the Go environment.", []string{"version"}, func(emit func(float64, ...string)) {
		emit(1, runtime.Version())
	})
	r.GaugeFunc("go_goroutines", "Number of goroutines that currently exist.", func() float64 { return float64(runtime.NumGoroutine()) })
	r.GaugeFunc("go_threads", "Number of OS threads created.", func() float64 {
		n, _ := runtime.ThreadCreateProfile(nil)
		return float64(n)
	})
	for _, s := range runtimeSeries {
		r.add(&funcFamily{fname: s.name, help: s.help, typ: s.typ, collect: func(emit func(float64, ...string)) {
			sample := []rtmetrics.Sample{{Name: s.key}}
			rtmetrics.Read(sample)
			switch sample[0].Value.Kind() {
			case rtmetrics.KindUint64:
				emit(float64(sample[0].Value.Uint64()))
			case rtmetrics.KindFloat64:
				emit(sample[0].Value.Float64())
			}
		}})
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return // not Linux: no process series
	}
	stat := func(emit func(float64, ...string), pick func(procStat) float64) {
		if st, ok := readProcStat(); ok {
			emit(pick(st))
		}
	}
	r.add(&funcFamily{fname: "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.", typ: "counter",
		collect: func(emit func(float64, ...string)) { stat(emit, func(s procStat) float64 { return s.cpuSeconds }) }})
	r.add(&funcFamily{fname: "process_resident_memory_bytes", help: "Resident memory size in bytes.", typ: "gauge",
		collect: func(emit func(float64, ...string)) { stat(emit, func(s procStat) float64 { return s.rss }) }})
	r.add(&funcFamily{fname: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.", typ: "gauge",
		collect: func(emit func(float64, ...string)) { stat(emit, func(s procStat) float64 { return s.vsize }) }})
	r.add(&funcFamily{fname: "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.", typ: "gauge",
		collect: func(emit func(float64, ...string)) { stat(emit, func(s procStat) float64 { return s.start }) }})
	r.add(&funcFamily{fname: "process_open_fds", help: "Number of open file descriptors.", typ: "gauge",
		collect: func(emit func(float64, ...string)) {
			if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
				emit(float64(len(fds)))
			}
		}})
}

// runtimeSeries are read from runtime/metrics at each scrape.
var runtimeSeries = []struct{ name, help, typ, key string }{
	{"go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting.", "gauge", "/sched/gomaxprocs:threads"},
	{"go_memstats_alloc_bytes", "Number of bytes allocated in heap and currently in use.", "gauge", "/memory/classes/heap/objects:bytes"},
	{"go_memstats_sys_bytes", "Number of bytes obtained from system.", "gauge", "/memory/classes/total:bytes"},
	{"go_memstats_mallocs_total", "Total number of heap objects allocated.", "counter", "/gc/heap/allocs:objects"},
	{"go_gc_cycles_total", "Count of completed GC cycles.", "counter", "/gc/cycles/total:gc-cycles"},
	{"go_gc_heap_goal_bytes", "Heap size target for the end of the GC cycle.", "gauge", "/gc/heap/goal:bytes"},
}

// procStat is what /proc/self/stat says of the process.
type procStat struct {
	cpuSeconds, rss, vsize, start float64
}

// userHZ is the unit of the times in /proc/*/stat: 100 on every Linux
// architecture (the kernel reports USER_HZ, not its own tick).
const userHZ = 100

// readProcStat reads /proc/self/stat, and /proc/stat for the boot time.
func readProcStat() (procStat, bool) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return procStat{}, false
	}
	// The command name, field 2, is in parentheses and may hold spaces:
	// the fields counted here start after its closing parenthesis, with
	// field 3 (state).
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	field := func(n int) float64 { // n is the field's number in proc(5)
		if n-3 >= len(f) {
			return 0
		}
		v, _ := strconv.ParseFloat(f[n-3], 64)
		return v
	}
	st := procStat{
		cpuSeconds: (field(14) + field(15)) / userHZ,
		vsize:      field(23),
		rss:        field(24) * float64(os.Getpagesize()),
	}
	if boot, ok := bootTime(); ok {
		st.start = boot + field(22)/userHZ
	}
	return st, true
}

// bootTime is the btime line of /proc/stat: the boot, in seconds since the
// epoch.
func bootTime() (float64, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			t, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return t, err == nil
		}
	}
	return 0, false
}
