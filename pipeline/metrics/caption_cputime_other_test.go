//go:build !unix

package metrics

import "time"

// captionCPUTime is not measured here; benchmarks then report 0 CPU time.
func captionCPUTime() time.Duration { return 0 }
