//go:build !amd64 || purego

package sgemm

// bf16Available says whether the bf16 kernels may run: not without
// assembly.
const bf16Available = false

func bf16Tile(rows, kp int, a, b []uint32, c []float32, ldc int, beta float32) {
	bf16TileGo(rows, kp, a, b, c, ldc, beta)
}

func bf16Rows(n, w int, x0, x1 []float32, alpha float32, dst []uint32, stride int) {
	for j := range n {
		dst[j/w*stride+j%w] = bf16Pair(alpha*x0[j], alpha*x1[j])
	}
}

func bf16Pairs(n int, x []float32, alpha float32, dst []uint32) {
	for p := range n {
		dst[p] = bf16Pair(alpha*x[2*p], alpha*x[2*p+1])
	}
}
