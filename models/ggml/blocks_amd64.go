//go:build !purego

package ggml

import (
	"sync"

	"github.com/attend-go/attend/internal/cpu"
)

// Implemented in blocks_amd64.s. matVec kernels: y[r] for r < rows, each
// row blocks blocks; dequantize kernels: blocks blocks into y. rows and
// blocks are positive.

//go:noescape
func matVecQ4_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)

//go:noescape
func matVecQ4_1AVX2(y *float32, rows int, w *byte, blocks int, x *float32)

//go:noescape
func matVecQ5_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)

//go:noescape
func matVecQ5_1AVX2(y *float32, rows int, w *byte, blocks int, x *float32)

//go:noescape
func matVecQ8_0AVX2(y *float32, rows int, w *byte, blocks int, x *float32)

//go:noescape
func dequantizeQ4_0AVX2(y *float32, w *byte, blocks int)

//go:noescape
func dequantizeQ4_1AVX2(y *float32, w *byte, blocks int)

//go:noescape
func dequantizeQ5_0AVX2(y *float32, w *byte, blocks int)

//go:noescape
func dequantizeQ5_1AVX2(y *float32, w *byte, blocks int)

//go:noescape
func dequantizeQ8_0AVX2(y *float32, w *byte, blocks int)

//go:noescape
func dotRowsF32AVX2(y *float32, rows int, w *float32, blocks int, x *float32)

//go:noescape
func dotRowsF32X2AVX2(y0, y1 *float32, rows int, w *float32, blocks int, x0, x1 *float32)

//go:noescape
func matVecQ8_0X2AVX2(y0, y1 *float32, rows int, w *byte, blocks int, x0, x1 *float32)

//go:noescape
func matVecQ8_0X3AVX2(y0, y1, y2 *float32, rows int, w *byte, blocks int, x0, x1, x2 *float32)

// blockKernel is one block type's assembly kernels: matVecX2 and
// matVecX3, where there are, multiply two and three vectors at once,
// decoding each block once.
type blockKernel struct {
	matVec     func(y *float32, rows int, w *byte, blocks int, x *float32)
	dequantize func(y *float32, w *byte, blocks int)
	matVecX2   func(y0, y1 *float32, rows int, w *byte, blocks int, x0, x1 *float32)
	matVecX3   func(y0, y1, y2 *float32, rows int, w *byte, blocks int, x0, x1, x2 *float32)
}

// blockKernels holds them when the CPU has AVX2, FMA and F16C (the
// scales are converted by VCVTPH2PS).
var blockKernels = func() map[Type]blockKernel {
	if !cpu.F16C {
		return nil
	}
	return map[Type]blockKernel{
		Q4_0: {matVecQ4_0AVX2, dequantizeQ4_0AVX2, nil, nil},
		Q4_1: {matVecQ4_1AVX2, dequantizeQ4_1AVX2, nil, nil},
		Q5_0: {matVecQ5_0AVX2, dequantizeQ5_0AVX2, nil, nil},
		Q5_1: {matVecQ5_1AVX2, dequantizeQ5_1AVX2, nil, nil},
		Q8_0: {matVecQ8_0AVX2, dequantizeQ8_0AVX2, matVecQ8_0X2AVX2, matVecQ8_0X3AVX2},
	}
}()

// matVecFast runs MatVec's checked arguments in assembly when it can.
func matVecFast(y []float32, data []byte, typ Type, x []float32) bool {
	k, ok := blockKernels[typ]
	if !ok {
		return false
	}
	k.matVec(&y[0], len(y), &data[0], len(x)/BlockLen, &x[0])
	return true
}

// matVecRowsFast runs MatVecRows' checked arguments (rows of n values)
// in assembly when it can. A type with a two-vector kernel (q8_0, whose
// blocks decode in a few instructions) multiplies a block of rows of
// about 24 KiB, which stays in the first-level cache, by the vectors
// three at a time (then two, then one), decoding it once per group. Other types dequantize a block
// of rows at a time into a buffer of about 32 KiB, then multiply every
// vector against it, two at a time.
func matVecRowsFast(y []float32, ldy int, data []byte, typ Type, x []float32, rows, n, t int) bool {
	k, ok := blockKernels[typ]
	if !ok {
		return false
	}
	blocks := n / BlockLen
	rb := blocks * typ.BlockBytes()
	if k.matVecX2 != nil && k.matVecX3 != nil {
		per := max(1, (24<<10)/rb)
		for r0 := 0; r0 < rows; r0 += per {
			m := min(per, rows-r0)
			i := 0
			for ; i+3 <= t; i += 3 {
				k.matVecX3(&y[i*ldy+r0], &y[(i+1)*ldy+r0], &y[(i+2)*ldy+r0], m, &data[r0*rb], blocks, &x[i*n], &x[(i+1)*n], &x[(i+2)*n])
			}
			if i+2 <= t {
				k.matVecX2(&y[i*ldy+r0], &y[(i+1)*ldy+r0], m, &data[r0*rb], blocks, &x[i*n], &x[(i+1)*n])
				i += 2
			}
			if i < t {
				k.matVec(&y[i*ldy+r0], m, &data[r0*rb], blocks, &x[i*n])
			}
		}
		return true
	}
	per := max(1, (32<<10)/(4*n))
	bp := rowsBufs.Get().(*[]float32)
	defer rowsBufs.Put(bp)
	if cap(*bp) < per*n {
		*bp = make([]float32, per*n)
	}
	buf := (*bp)[:per*n]
	for r0 := 0; r0 < rows; r0 += per {
		m := min(per, rows-r0)
		k.dequantize(&buf[0], &data[r0*rb], m*blocks)
		i := 0
		for ; i+2 <= t; i += 2 {
			dotRowsF32X2AVX2(&y[i*ldy+r0], &y[(i+1)*ldy+r0], m, &buf[0], blocks, &x[i*n], &x[(i+1)*n])
		}
		if i < t {
			dotRowsF32AVX2(&y[i*ldy+r0], m, &buf[0], blocks, &x[i*n])
		}
	}
	return true
}

// rowsBufs holds matVecRowsFast's buffers between calls.
var rowsBufs = sync.Pool{New: func() any { return new([]float32) }}

// dequantizeFast runs DequantizeRow's checked arguments of a block type
// in assembly when it can.
func dequantizeFast(dst []float32, src []byte, typ Type) bool {
	k, ok := blockKernels[typ]
	if !ok || len(dst) == 0 {
		return false
	}
	k.dequantize(&dst[0], &src[0], len(dst)/BlockLen)
	return true
}
