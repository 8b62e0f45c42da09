//go:build !unix

package whisper

// sysAlloc has no portable way to map memory: weights stay on the heap.
func sysAlloc(n int) []byte { return nil }

// sysReserve, likewise: caches grow on the heap.
func sysReserve(n int) []byte { return nil }

func sysFree(mem []byte) {}
