//go:build unix

package synth

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) used so far by this
// process and by its waited-for children, the engines. On a shared
// machine it measures the work of a benchmark where wall time measures
// the neighbours too.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
