//go:build unix

package whisper

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system, all threads) this process
// has used: on a shared machine a steadier figure than the wall clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
