//go:build !unix

package captiondata

import "os"

// lockFile does nothing on systems without flock: two extractions into
// the same file at once are not detected there.
func lockFile(f *os.File) error { return nil }

// errLockedSupported says whether lockFile detects a second writer.
const errLockedSupported = false
