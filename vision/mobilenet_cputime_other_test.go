//go:build !unix

package vision

import "time"

// cpuTime is not measured on this system; benchmarks then report wall
// time only.
func cpuTime() time.Duration { return 0 }
