//go:build !purego

package models

// tanhAddAVX2 is implemented in tanh_amd64.s.
//
//go:noescape
func tanhAddAVX2(dst, a, b *float32, n int)

// useTanhAVX2 selects the assembly loop; tests clear it to check the Go one.
var useTanhAVX2 = cpuHasAVX2FMA()

// tanhAddFast handles the multiple-of-8 prefix in assembly when it can and
// returns how many elements it did.
func tanhAddFast(dst, a, b []float32) int {
	n := len(dst) &^ 7
	if !useTanhAVX2 || n == 0 {
		return 0
	}
	tanhAddAVX2(&dst[0], &a[0], &b[0], n)
	return n
}
