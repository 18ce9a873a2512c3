//go:build !unix

package render

// cpuTime is not measured on this system.
func cpuTime() float64 { return 0 }
