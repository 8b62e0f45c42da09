//go:build !amd64 || purego

package ggml

// Without assembly MatVec is DotRow row by row and DequantizeRow its Go
// loop.

type blockKernel struct{}

var blockKernels map[Type]blockKernel

func matVecFast(y []float32, data []byte, typ Type, x []float32) bool { return false }

func dequantizeFast(dst []float32, src []byte, typ Type) bool { return false }

func matVecRowsFast(y []float32, ldy int, data []byte, typ Type, x []float32, rows, n, t int) bool {
	return false
}
