//go:build !linux

package sudoku

import "time"

// threadCPU is not available here; benchmarks fall back to wall time.
func threadCPU() (time.Duration, bool) { return 0, false }

func lockThread() func() { return func() {} }
