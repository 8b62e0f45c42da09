//go:build !amd64 || purego

package whisper

// Without assembly there are no half copies (newMatrix) and halfDotRows
// runs its Go loop.

var useHalfAVX2 = false

func halfDotRowsFast(y, x []float32, w []uint16, ldw int) int { return 0 }

func halfToFloat32sFast(dst []float32, src []uint16) int { return 0 }

func halfDotRowsX4Fast(y []float32, ldy int, x []float32, ldx, k int, w []uint16, ldw, n int) bool {
	return false
}
