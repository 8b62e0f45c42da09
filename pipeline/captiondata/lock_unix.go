//go:build unix

package captiondata

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, failing at once if
// another process holds one. The kernel drops it when f is closed or the
// process dies, so a killed extraction leaves no stale lock.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

// errLockedSupported says whether lockFile detects a second writer.
const errLockedSupported = true
