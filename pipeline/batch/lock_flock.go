//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package batch

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f without waiting; the
// kernel drops it when the process ends, however it ends.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err
		}
	}
}
