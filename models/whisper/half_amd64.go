//go:build !purego

package whisper

import "github.com/attend-go/attend/internal/cpu"

// halfDotRowsAVX2 is implemented in half_amd64.s; k is a positive multiple
// of 8.
//
//go:noescape
func halfDotRowsAVX2(k int, x *float32, w *uint16, ldw int, y *float32, n int)

// useHalfAVX2 selects the assembly kernel (and with it the half copies:
// prepareHalf makes none without it).
var useHalfAVX2 = cpu.F16C

// halfDotRowsFast computes all of y in assembly when it can and returns how
// many rows it did (len(y) or 0).
func halfDotRowsFast(y, x []float32, w []uint16, cols int) int {
	if !useHalfAVX2 || cols%8 != 0 || len(y) == 0 {
		return 0
	}
	_, _ = x[cols-1], w[len(y)*cols-1]
	halfDotRowsAVX2(cols, &x[0], &w[0], cols, &y[0], len(y))
	return len(y)
}
