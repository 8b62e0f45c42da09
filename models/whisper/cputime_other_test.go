//go:build !unix

package whisper

import "time"

// processCPU is not measured here: the benchmarks report 0.
func processCPU() time.Duration { return 0 }
