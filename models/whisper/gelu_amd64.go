//go:build !purego

package whisper

import "github.com/attend-go/attend/internal/cpu"

// geluAVX2 is implemented in gelu_amd64.s; n is a positive multiple of 8.
//
//go:noescape
func geluAVX2(x *float32, n int)

// useGeluAVX2 selects the assembly loop; tests clear it to check the Go one.
var useGeluAVX2 = cpu.AVX2FMA

// geluFast applies GELU to the multiple-of-8 prefix of x in assembly when
// it can and returns how many elements it did.
func geluFast(x []float32) int {
	n := len(x) &^ 7
	if !useGeluAVX2 || n == 0 {
		return 0
	}
	geluAVX2(&x[0], n)
	return n
}
