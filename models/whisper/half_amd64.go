//go:build !purego

package whisper

import "github.com/attend-go/attend/internal/cpu"

// halfDotRowsAVX2 is implemented in half_amd64.s; k is a positive multiple
// of 8.
//
//go:noescape
func halfDotRowsAVX2(k int, x *float32, w *uint16, ldw int, y *float32, n int)

// useHalfAVX2 selects the assembly kernel (and with it the half copies:
// newMatrix makes none without it).
var useHalfAVX2 = cpu.F16C

// halfDotRowsFast computes all of y in assembly when it can and returns how
// many rows it did (len(y) or 0).
func halfDotRowsFast(y, x []float32, w []uint16, ldw int) int {
	k := len(x)
	if !useHalfAVX2 || k%8 != 0 || k == 0 || len(y) == 0 {
		return 0
	}
	_ = w[(len(y)-1)*ldw+k-1]
	halfDotRowsAVX2(k, &x[0], &w[0], ldw, &y[0], len(y))
	return len(y)
}

// halfDotRowsX4AVX2 is implemented in half_amd64.s; k is a positive
// multiple of 8.
//
//go:noescape
func halfDotRowsX4AVX2(k int, x *float32, ldx int, w *uint16, ldw int, y *float32, ldy int, n int)

// halfDotRowsX4Fast computes y[i·ldy+j] = Σ_p x[i·ldx+p]·w[j·ldw+p] for
// i < 4, j < n, p < k in assembly when it can (each bit for bit
// halfDotRows' result for x_i alone in a group of four rows) and reports
// whether it did.
func halfDotRowsX4Fast(y []float32, ldy int, x []float32, ldx, k int, w []uint16, ldw, n int) bool {
	if !useHalfAVX2 || k%8 != 0 || k == 0 || n == 0 {
		return false
	}
	_, _, _ = y[3*ldy+n-1], x[3*ldx+k-1], w[(n-1)*ldw+k-1]
	halfDotRowsX4AVX2(k, &x[0], ldx, &w[0], ldw, &y[0], ldy, n)
	return true
}

// halfToFloat32AVX2 is implemented in half_amd64.s; n is a positive
// multiple of 8.
//
//go:noescape
func halfToFloat32AVX2(dst *float32, src *uint16, n int)

// halfToFloat32sFast converts the multiple-of-8 prefix of src into dst in
// assembly when it can and returns how many it did.
func halfToFloat32sFast(dst []float32, src []uint16) int {
	n := len(src) &^ 7
	if !useHalfAVX2 || n == 0 {
		return 0
	}
	_ = dst[n-1]
	halfToFloat32AVX2(&dst[0], &src[0], n)
	return n
}
