//go:build unix

package render

import "syscall"

// cpuTime returns the CPU time this process has used, in seconds. The
// benchmarks report it beside wall time because the machines they run on
// are shared: wall time then measures the neighbours as much as the code.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
