//go:build unix

package whisper

import "syscall"

// sysAlloc maps n bytes of anonymous private memory (page-aligned, zeroed),
// backed by huge pages where the mapping is large enough
// (adviseHugePages), or returns nil when the system refuses.
func sysAlloc(n int) []byte {
	mem := sysReserve(n)
	if mem != nil {
		adviseHugePages(mem)
	}
	return mem
}

// sysReserve maps n bytes of anonymous private memory (page-aligned,
// zeroed) in ordinary pages, each resident only once written: a
// reservation larger than its use costs address space, not memory. It
// returns nil when the system refuses.
func sysReserve(n int) []byte {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return mem
}

// sysFree unmaps memory from sysAlloc or sysReserve.
func sysFree(mem []byte) { _ = syscall.Munmap(mem) }
