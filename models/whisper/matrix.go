package whisper

import (
	"runtime"

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

// dotRows writes y[j] = Σ_p x[p]·W[j, c+p] for j < len(y), p < len(x):
// products with the columns c…c+len(x) of W's first len(y) rows. W is
// half or f32.
func (w *matrix) dotRows(y, x []float32, c int) {
	if w.half != nil {
		halfDotRows(y, x, w.half[c:], w.cols)
	} else {
		sgemm.Gemm(false, true, 1, len(y), len(x), 1, x, len(x), w.f32[c:], w.cols, 0, y, len(y))
	}
	runtime.KeepAlive(w)
}

// dotRowsRange writes y (hi−lo) = W[lo:hi, :]·x: rows lo…hi of W times x
// (cols). W is half or f32.
func (w *matrix) dotRowsRange(y, x []float32, lo, hi int) {
	c := w.cols
	if w.half != nil {
		halfDotRows(y[:hi-lo], x[:c], w.half[lo*c:hi*c], c)
	} else {
		sgemm.Gemm(false, true, 1, hi-lo, c, 1, x, c, w.f32[lo*c:hi*c], c, 0, y, hi-lo)
	}
	runtime.KeepAlive(w)
}

// toFloat32 returns W in float32 off the heap (W itself when it is).
func (w matrix) toFloat32() matrix {
	if w.f32 != nil || w.rows*w.cols == 0 {
		return w
	}
	v, owner := allocFloat32(w.rows * w.cols)
	w.rowsTo(v, 0, w.rows)
	return matrix{f32: v, rows: w.rows, cols: w.cols, owner: owner}
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
		ggml.MatVec(y[:w.rows], w.q, w.qtype, x[:w.cols])
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

// mul writes y (t, rows) = x (t, cols)·Wᵀ; buf is scratch for W's
// float32 values (grown as needed and returned).
func (w *matrix) mul(y, x []float32, t int, buf []float32) []float32 {
	if t == 1 {
		return w.mulVec(y, x, buf)
	}
	v, buf := w.float32s(buf)
	sgemm.Gemm(false, true, t, w.rows, w.cols, 1, x, w.cols, v, w.cols, 0, y, w.rows)
	runtime.KeepAlive(w)
	return buf
}
