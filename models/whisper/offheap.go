package whisper

import (
	"runtime"
	"unsafe"
)

// Weights outside the Go heap. The collector sizes the heap at about twice
// what is live after a collection (GOGC=100), so weights on the heap cost
// their size again in headroom: 75 MB of tiny's half weights made a 220 MB
// heap. Memory from the operating system (anonymous mmap where there is
// one, offheap_unix.go) holds no pointers and does not count towards the
// heap goal; it is returned when the last matrix holding it becomes
// unreachable (runtime.AddCleanup on its owner). Every use of the memory
// goes through a matrix method, each of which keeps its matrix (and so the
// owner) alive until it returns.

// offHeap owns one block of memory from sysAlloc.
type offHeap struct {
	mem []byte // what it owns (its pointer also keeps it out of the tiny allocator, whose objects may never be cleaned up)
}

// allocWeights returns n bytes of zeroed memory, off the heap when the
// platform allows, and the owner whose reachability keeps it mapped.
func allocWeights(n int) ([]byte, *offHeap) {
	owner := &offHeap{}
	if n == 0 {
		return nil, owner
	}
	mem := sysAlloc(n)
	if mem == nil {
		return make([]byte, n), owner
	}
	owner.mem = mem[:n:n]
	runtime.AddCleanup(owner, sysFree, mem)
	return mem[:n:n], owner
}

// allocHalf returns n binary16 values off the heap (allocWeights).
func allocHalf(n int) ([]uint16, *offHeap) {
	b, owner := allocWeights(2 * n)
	if n == 0 {
		return nil, owner
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), n), owner
}

// allocFloat32 returns n float32 values off the heap (allocWeights).
func allocFloat32(n int) ([]float32, *offHeap) {
	b, owner := allocWeights(4 * n)
	if n == 0 {
		return nil, owner
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), owner
}

// allocTemp returns n float32 values off the heap for a buffer whose use
// ends with a known call, and the function that returns the memory then:
// no collection is needed to reclaim it, and it adds nothing to the heap
// goal. Without sysAlloc it is a heap slice and free does nothing.
func allocTemp(n int) (buf []float32, free func()) {
	if n == 0 {
		return nil, func() {}
	}
	mem := sysAlloc(4 * n)
	if mem == nil {
		return make([]float32, n), func() {}
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), n), func() { sysFree(mem) }
}

// offHeapCopy returns a copy of v outside the Go heap (allocFloat32),
// whose owner m keeps: the positional embeddings (3 MB for base's
// encoder) would otherwise count twice towards the heap's goal.
func (m *Model) offHeapCopy(v []float32) []float32 {
	c, owner := allocFloat32(len(v))
	copy(c, v)
	m.posMem = append(m.posMem, owner)
	return c
}
