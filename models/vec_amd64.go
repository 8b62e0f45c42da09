//go:build !purego

package models

// Implemented in vec_amd64.s; n is a positive multiple of 8.
//
//go:noescape
func axpyAVX2(alpha float32, x, y *float32, n int)

//go:noescape
func dotAVX2(x, y *float32, n int) float32

// axpyFast runs Axpy's multiple-of-8 prefix in assembly when it can and
// returns how many elements it did; len(y) = len(x).
func axpyFast(alpha float32, x, y []float32) int {
	n := len(x) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	axpyAVX2(alpha, &x[0], &y[0], n)
	return n
}

// dotFast is axpyFast for Dot: the count and the prefix's sum.
func dotFast(x, y []float32) (int, float32) {
	n := len(x) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0, 0
	}
	return n, dotAVX2(&x[0], &y[0], n)
}
