//go:build !unix

package caption_test

import "time"

// cpuTime is not measured on this system; the benchmarks then report 0.
func cpuTime() time.Duration { return 0 }
