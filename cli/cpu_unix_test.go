//go:build unix

package cli

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// for benchmarks that should not depend on how loaded the machine is.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
