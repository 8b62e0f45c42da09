//go:build !purego

package attention

import "github.com/attend-go/attend/internal/cpu"

// Implemented in softmax_amd64.s; n is a positive multiple of 8.
//
//go:noescape
func maxAVX2(x *float32, n int) float32

//go:noescape
func expSubSumAVX2(x *float32, n int, m float32) float32

//go:noescape
func scaleAVX2(x *float32, n int, s float32)

//go:noescape
func sumExpSubF64AVX2(x *float32, n int, m float32) float64

// useSoftmaxAVX2 selects the assembly loops; tests clear it to check the Go
// ones.
var useSoftmaxAVX2 = cpu.AVX2FMA

// maxFast returns how many leading elements of x it covered (a multiple
// of 8, possibly 0) and their maximum.
func maxFast(x []float32) (int, float32) {
	n := len(x) &^ 7
	if !useSoftmaxAVX2 || n == 0 {
		return 0, 0
	}
	return n, maxAVX2(&x[0], n)
}

// expSubSumFast replaces the leading elements of x with e^(x−m) as Exp32
// computes them and returns how many it did and their sum.
func expSubSumFast(x []float32, m float32) (int, float32) {
	n := len(x) &^ 7
	if !useSoftmaxAVX2 || n == 0 {
		return 0, 0
	}
	return n, expSubSumAVX2(&x[0], n, m)
}

// scaleFast multiplies the leading elements of x by s and returns how many
// it did.
func scaleFast(x []float32, s float32) int {
	n := len(x) &^ 7
	if !useSoftmaxAVX2 || n == 0 {
		return 0
	}
	scaleAVX2(&x[0], n, s)
	return n
}

// sumExpSubFast returns how many leading elements of x it covered (a
// multiple of 8, possibly 0) and the float64 sum of their e^(x−m) as Exp32
// computes them, leaving x as it is.
func sumExpSubFast(x []float32, m float32) (int, float64) {
	n := len(x) &^ 7
	if !useSoftmaxAVX2 || n == 0 {
		return 0, 0
	}
	return n, sumExpSubF64AVX2(&x[0], n, m)
}
