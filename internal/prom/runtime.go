package prom

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
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
	// One runtime.ReadMemStats a scrape (a brief stop of the world, as
	// Prometheus' own client does), shared by the series below.
	var (
		mu   sync.Mutex
		ms   runtime.MemStats
		msAt time.Time
	)
	mem := func(pick func(*runtime.MemStats) float64) func(emit func(float64, ...string)) {
		return func(emit func(float64, ...string)) {
			mu.Lock()
			defer mu.Unlock()
			if time.Since(msAt) > time.Second {
				runtime.ReadMemStats(&ms)
				msAt = time.Now()
			}
			emit(pick(&ms))
		}
	}
	for _, s := range []struct {
		name, help, typ string
		pick            func(*runtime.MemStats) float64
	}{
		{"go_memstats_alloc_bytes", "Number of bytes allocated in heap and currently in use.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapAlloc) }},
		{"go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.HeapInuse) }},
		{"go_memstats_sys_bytes", "Number of bytes obtained from system.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.Sys) }},
		{"go_memstats_mallocs_total", "Total number of heap objects allocated.", "counter", func(m *runtime.MemStats) float64 { return float64(m.Mallocs) }},
		{"go_memstats_next_gc_bytes", "Number of heap bytes when next garbage collection will take place.", "gauge", func(m *runtime.MemStats) float64 { return float64(m.NextGC) }},
		{"go_gc_cycles_total", "Count of completed GC cycles.", "counter", func(m *runtime.MemStats) float64 { return float64(m.NumGC) }},
		{"go_gc_pause_seconds_total", "Total time the garbage collector stopped the world.", "counter", func(m *runtime.MemStats) float64 { return float64(m.PauseTotalNs) / 1e9 }},
	} {
		r.add(&funcFamily{fname: s.name, help: s.help, typ: s.typ, collect: mem(s.pick)})
	}
	r.GaugeFunc("go_sched_gomaxprocs_threads", "The current runtime.GOMAXPROCS setting.", func() float64 { return float64(runtime.GOMAXPROCS(0)) })
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
