package whisper

import (
	"runtime"
	"sync"
	"unsafe"
)

// selfCache holds one text decoder's self-attention keys and values:
// per layer, one row of n = NTextState values per position so far, k[l]
// and v[l] (len·n, row-major). Appending a step's row never moves them.
//
// Where the platform maps memory (sysReserve), the cache reserves room
// for the whole text context (NTextCtx rows per layer, 5.5 MB of address
// space for tiny, 147 MB for large) outside the Go heap in one mapping
// whose pages become resident only as rows are written, so it costs what
// it holds: five beams' caches no longer sit on the heap, where the
// collector's goal (twice what is live) doubled them, and growing never
// copies. release returns the mapping at once (the decoding loop calls it
// when a window's search ends); a cleanup returns it when the cache
// becomes unreachable otherwise. Elsewhere k and v are heap slices that
// append grows.
type selfCache struct {
	k, v    [][]float32
	release func() // returns the mapping; the slices must not be used after it
}

// newSelfCache reserves a cache of layers layers for rows positions of n
// values.
func newSelfCache(layers, rows, n int) *selfCache {
	c := &selfCache{k: make([][]float32, layers), v: make([][]float32, layers), release: func() {}}
	size := 2 * layers * rows * n
	if size == 0 {
		return c
	}
	mem := sysReserve(4 * size)
	if mem == nil {
		return c
	}
	buf := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), size)
	for l := range layers {
		c.k[l] = buf[2*l*rows*n:][: 0 : rows*n]
		c.v[l] = buf[(2*l+1)*rows*n:][: 0 : rows*n]
	}
	var once sync.Once
	c.release = func() { once.Do(func() { sysFree(mem) }) }
	runtime.AddCleanup(c, func(release func()) { release() }, c.release)
	return c
}

// copyFrom makes c hold src's rows (src of the same shape).
func (c *selfCache) copyFrom(src *selfCache) {
	for l := range c.k {
		c.k[l] = append(c.k[l][:0], src.k[l]...)
		c.v[l] = append(c.v[l][:0], src.v[l]...)
	}
}

// releaseDecoders returns the self-attention caches of the decoders that
// hold them outside the heap (a textDecoder's): decs must not be used
// after it.
func releaseDecoders(decs []TextDecoder) {
	for _, d := range decs {
		if r, ok := d.(interface{ release() }); ok {
			r.release()
		}
	}
}
