//go:build unix

package whisper

import "syscall"

// sysAlloc maps n bytes of anonymous private memory (page-aligned, zeroed),
// or returns nil when the system refuses.
func sysAlloc(n int) []byte {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	adviseHugePages(mem)
	return mem
}

// sysFree unmaps memory from sysAlloc.
func sysFree(mem []byte) { _ = syscall.Munmap(mem) }
