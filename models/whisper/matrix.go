package whisper

import (
	"runtime"
	"sync"

	"github.com/attend-go/attend/internal/sgemm"
	"github.com/attend-go/attend/models/ggml"
)

// matrix is a 2-D weight W (rows, cols), row-major, held in the most
// compact form that computes exactly what its float32 values would:
//
//   - half: IEEE binary16 bits, when every value is exact in half
//     precision (every float16 checkpoint) and the half kernels exist
//     (half.go): 2 bytes a weight;
//   - q: ggml blocks of qtype as a quantized file stores them (q4_0 …
//     q8_0), dequantized on use exactly as ggml.DequantizeRow does;
//   - f32: float32 otherwise.
//
// Products of several rows (the encoder's 1,500, a prompt's tokens)
// convert W to float32 into a caller's buffer and run sgemm on it, so
// they are bit for bit what a float32 W gives; a one-row product (a
// decoding step) reads the compact form directly (halfMatVec,
// ggml.MatVec), or, for q without an assembly kernel, dequantizes block
// of rows by block.
type matrix struct {
	f32        []float32
	half       []uint16
	q          []byte
	qtype      ggml.Type
	rows, cols int
	owner      *offHeap // the memory of f32, half or q when off the heap (offheap.go)
}

// newMatrix returns w (rows, cols) in half precision when exact and the
// half kernels exist, else as is.
func newMatrix(w []float32, rows, cols int) matrix {
	if useHalfAVX2 {
		if h := halfExact(w); h != nil {
			off, owner := allocHalf(len(h))
			copy(off, h)
			return matrix{half: off, rows: rows, cols: cols, owner: owner}
		}
	}
	off, owner := allocFloat32(len(w))
	copy(off, w)
	return matrix{f32: off, rows: rows, cols: cols, owner: owner}
}

// bytes returns the memory the weights hold.
func (w *matrix) bytes() int { return 4*len(w.f32) + 2*len(w.half) + len(w.q) }

// rowsTo writes rows [lo, hi) of W in float32 into dst ((hi−lo)·cols).
func (w *matrix) rowsTo(dst []float32, lo, hi int) {
	c := w.cols
	dst = dst[:(hi-lo)*c]
	switch {
	case w.half != nil:
		halfToFloat32s(dst, w.half[lo*c:hi*c])
	case w.q != nil:
		rb := len(w.q) / w.rows
		ggml.DequantizeRow(dst, w.q[lo*rb:hi*rb], w.qtype)
	default:
		copy(dst, w.f32[lo*c:hi*c])
	}
	runtime.KeepAlive(w)
}

// float32s returns W in float32: f32 itself, or W converted into buf
// (grown as needed); it also returns buf for reuse.
func (w *matrix) float32s(buf []float32) (v, newBuf []float32) {
	if w.f32 != nil {
		return w.f32, buf
	}
	buf = grow(buf, w.rows*w.cols)
	w.rowsTo(buf, 0, w.rows)
	return buf, buf
}

// quantBlockRows is how many rows of a quantized W a one-row product
// dequantizes at a time (96 KiB of float32 at width 384).
const quantBlockRows = 64

// mulVec writes y (rows) = W·x for x (cols); buf is scratch for a
// quantized W (grown as needed and returned).
func (w *matrix) mulVec(y, x, buf []float32) []float32 {
	switch {
	case w.half != nil:
		halfMatVec(y, x, w.half, w.rows, w.cols)
	case w.q != nil && ggml.FastMatVec(w.qtype):
		rb := len(w.q) / w.rows
		parallelRows(w.rows, w.cols, func(lo, hi int) {
			ggml.MatVec(y[lo:hi], w.q[lo*rb:hi*rb], w.qtype, x[:w.cols])
		})
	case w.q != nil:
		buf = grow(buf, quantBlockRows*w.cols)
		for r := 0; r < w.rows; r += quantBlockRows {
			hi := min(w.rows, r+quantBlockRows)
			w.rowsTo(buf, r, hi)
			sgemm.Gemm(false, true, 1, hi-r, w.cols, 1, x, w.cols, buf, w.cols, 0, y[r:hi], hi-r)
		}
	default:
		sgemm.Gemm(false, true, 1, w.rows, w.cols, 1, x, w.cols, w.f32, w.cols, 0, y, w.rows)
	}
	runtime.KeepAlive(w)
	return buf
}

// forwardRows writes y (t, rows) = x (t, cols)·Wᵀ with s.w as scratch for
// W's float32 values or blocks. With s.steps the rows are separate
// sequences' decoding steps (forwardBatch): each row gets bit for bit what
// a step alone gets (mulFew, which reads W once for all of them, or
// mulVec row by row); else the rows of one sequence (a prompt, the
// encoder's frames) get float32's exact product (mul).
func (w *matrix) forwardRows(y, x []float32, t int, s *scratch) {
	switch {
	case !s.steps || t == 1:
		s.w = w.mul(y, x, t, s.w)
	case t <= fewRows && w.readsInPlace():
		w.mulFew(y, x, t)
	default:
		// float32 weights, or no assembly kernels (purego), or many
		// sequences: one row at a time, as each would step alone.
		for i := range t {
			s.w = w.mulVec(y[i*w.rows:(i+1)*w.rows], x[i*w.cols:(i+1)*w.cols], s.w)
		}
	}
}

// mul writes y (t, rows) = x (t, cols)·Wᵀ; buf is scratch for W's
// float32 values (grown as needed and returned).
func (w *matrix) mul(y, x []float32, t int, buf []float32) []float32 {
	if t == 1 {
		return w.mulVec(y, x, buf)
	}
	if w.f32 == nil && w.rows*w.cols > wholeElems {
		return w.mulBlocks(y, x, t, buf)
	}
	v, buf := w.float32s(buf)
	sgemm.Gemm(false, true, t, w.rows, w.cols, 1, x, w.cols, v, w.cols, 0, y, w.rows)
	runtime.KeepAlive(w)
	return buf
}

// wholeElems is the largest W a product of many rows converts to float32
// whole (16 MB: every weight of large-v3's layers, not the embedding).
const wholeElems = 4 << 20

// blockBytes is the size of the float32 blocks of W mulBlocks converts:
// 1.5 MiB (the token embedding's 51,864 rows for a prompt of several
// tokens, where a whole float32 copy would take 80 MB).
const blockBytes = 3 << 19

// fewRows is the most rows of separate sequences' decoding steps that
// mulFew multiplies with the one-row kernels (beam search's and best-of
// sampling's five sequences: forwardBatch).
const fewRows = 8

// fewBlockBytes is how much of W mulFew multiplies by every row before it
// moves on: the block stays in the second-level cache for the other rows.
const fewBlockBytes = 64 << 10

// readsInPlace reports whether one-row products read W's compact form in
// assembly (half precision, or quantized blocks with ggml's kernel).
func (w *matrix) readsInPlace() bool {
	return w.half != nil || (w.q != nil && ggml.FastMatVec(w.qtype))
}

// mulFew writes y (t, rows) = x (t, cols)·Wᵀ for the rows of x of
// separate sequences' decoding steps, reading W from memory once for all
// of them, as whisper.cpp's batched decoding does, with each row's result
// bit for bit what mulVec computes for it alone. Half W: over blocks of
// its rows that stay in the second-level cache, four rows of x at a time
// through halfDotRowsX4AVX2 (each weight converted once for the four),
// the rest through halfDotRows; the matrix's last rows%4 rows, which
// halfDotRows takes one by one, stay with it. Quantized W:
// ggml.MatVecRows (each block dequantized once). Blocks and goroutine
// shares start at multiples of four rows, as halfMatVec's do. W is
// readsInPlace.
func (w *matrix) mulFew(y, x []float32, t int) {
	rows, cols := w.rows, w.cols
	if w.q != nil {
		rb := len(w.q) / rows
		parallelRows(rows, cols, func(lo, hi int) {
			ggml.MatVecRows(y[lo:], rows, w.q[lo*rb:hi*rb], w.qtype, x[:t*cols], t)
		})
		runtime.KeepAlive(w)
		return
	}
	blk := max(4, fewBlockBytes/(2*cols)&^3)
	parallelRows(rows, cols, func(lo, hi int) {
		for r0 := lo; r0 < hi; r0 += blk {
			r1 := min(hi, r0+blk)
			groups := r1 - r0 // rows in groups of four
			if r1 == rows {
				groups -= rows % 4
			}
			i := 0
			for ; i+4 <= t && groups > 0; i += 4 {
				if !halfDotRowsX4Fast(y[i*rows+r0:], rows, x[i*cols:], cols, cols, w.half[r0*cols:], cols, groups) {
					break
				}
				for j := i; j < i+4; j++ {
					halfDotRows(y[j*rows+r0+groups:j*rows+r1], x[j*cols:(j+1)*cols], w.half[(r0+groups)*cols:], cols)
				}
			}
			for ; i < t; i++ {
				halfDotRows(y[i*rows+r0:i*rows+r1], x[i*cols:(i+1)*cols], w.half[r0*cols:], cols)
			}
		}
	})
	runtime.KeepAlive(w)
}

// parallelRows runs part over [0, rows) of a matrix of rows×cols: in
// shares of a multiple of four rows over up to GOMAXPROCS goroutines when
// it is large (halfParallelElems), else at once.
func parallelRows(rows, cols int, part func(lo, hi int)) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || rows*cols < halfParallelElems {
		part(0, rows)
		return
	}
	var wg sync.WaitGroup
	chunk := ((rows+procs-1)/procs + 3) &^ 3
	for lo := 0; lo < rows; lo += chunk {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part(lo, min(rows, lo+chunk))
		}()
	}
	wg.Wait()
}

// mulScratch returns how many float32s mul's buf grows to for a product
// of several rows: none for float32 weights, W's size when converted whole,
// a block's for mulBlocks.
func (w *matrix) mulScratch() int {
	switch {
	case w.f32 != nil:
		return 0
	case w.rows*w.cols > wholeElems:
		return min(max(1, blockBytes/(4*w.cols)), w.rows) * w.cols
	default:
		return w.rows * w.cols
	}
}

// mulBlocks writes y (t, rows) = x (t, cols)·Wᵀ for a large compact W
// (the token embedding), converting blocks of its rows to float32 into buf
// (grown as needed and returned) and multiplying each by sgemm: every
// element is the float32 product's, as from a whole float32 copy, without
// the copy.
func (w *matrix) mulBlocks(y, x []float32, t int, buf []float32) []float32 {
	rows, cols := w.rows, w.cols
	blk := max(1, blockBytes/(4*cols))
	buf = grow(buf, min(blk, rows)*cols)
	for r0 := 0; r0 < rows; r0 += blk {
		r1 := min(rows, r0+blk)
		w.rowsTo(buf, r0, r1)
		sgemm.Gemm(false, true, t, r1-r0, cols, 1, x, cols, buf, cols, 0, y[r0:], rows)
	}
	runtime.KeepAlive(w)
	return buf
}
