package attention

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// Small dense helpers shared by the kernels and the eager steps. Matrix
// products go straight to models.Gemm, which allocates nothing.

// axpy computes y += α·x over len(x) elements: models.Axpy, AVX2/FMA for
// float32 where the CPU has them, whatever BLAS models.Gemm uses (a cgo
// call per axpy of 256 floats into OpenBLAS would cost more than the axpy
// itself).
func axpy[F Float](alpha F, x, y []F) { models.Axpy(alpha, x, y) }

// dot returns x·y over len(x) elements (models.Dot).
func dot[F Float](x, y []F) F { return models.Dot(x, y) }

// Float is the element type of the kernels: float32, or float64 for
// gradient checks.
type Float = models.Float

// data returns a dense tensor's backing slice as []F without the
// reflection (and the allocations) of tensor.Dense.Data. The tensor must be
// dense, not a view, and of element type F: kernels get their inputs
// materialized and dtype-checked by models.Apply.
func data[F Float](t *tensor.Dense) []F {
	if t == nil {
		return nil
	}
	raw := t.Header.Raw
	if len(raw) == 0 {
		return nil
	}
	var zero F
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)/int(unsafe.Sizeof(zero)))
}

// f32 returns a float32 parameter's values without allocating (Param.F32
// goes through reflection). Prepare checks the dtype.
func f32(p *models.Param) []float32 { return data[float32](p.Value) }

// datas returns the backing slices of ts, nil for nil tensors.
func datas[F Float](ts []*tensor.Dense) [][]F {
	out := make([][]F, len(ts))
	for i, t := range ts {
		out[i] = data[F](t)
	}
	return out
}

// Scratch buffers come from pools bucketed by power-of-two capacity, so a
// steady stream of steps of one shape reuses the same buffers and makes no
// garbage, and kernels running in parallel chunks each get their own.
var (
	pool32 [64]sync.Pool
	pool64 [64]sync.Pool
)

// getScratch returns a buffer of length n (contents unspecified); give it
// back with putScratch.
func getScratch[F Float](n int) *[]F {
	class := bits.Len(uint(max(n, 1) - 1))
	p := &pool32[class]
	var zero F
	if _, ok := any(zero).(float64); ok {
		p = &pool64[class]
	}
	if v := p.Get(); v != nil {
		buf := v.(*[]F)
		*buf = (*buf)[:n]
		return buf
	}
	buf := make([]F, n, 1<<class)
	return &buf
}

// putScratch returns a buffer obtained from getScratch to its pool.
func putScratch[F Float](buf *[]F) {
	class := bits.Len(uint(max(cap(*buf), 1) - 1))
	var zero F
	if _, ok := any(zero).(float64); ok {
		pool64[class].Put(buf)
		return
	}
	pool32[class].Put(buf)
}
