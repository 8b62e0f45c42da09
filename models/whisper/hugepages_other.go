//go:build unix && !linux

package whisper

// adviseHugePages does nothing where there is no madvise(MADV_HUGEPAGE).
func adviseHugePages(mem []byte) {}
