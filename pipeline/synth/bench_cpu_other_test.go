//go:build !unix

package synth

import "time"

// cpuTime is not measured off Unix; the benchmarks report 0.
func cpuTime() time.Duration { return 0 }
