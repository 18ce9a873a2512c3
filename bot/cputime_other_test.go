//go:build !unix

package bot

import "time"

// cpuTime is unknown here.
func cpuTime() time.Duration { return 0 }
