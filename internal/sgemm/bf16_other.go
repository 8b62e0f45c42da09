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

func bf16PairsT8(np int, x []float32, ldx int, alpha float32, dst []uint32, stride int) {
	for r := range 8 {
		for p := range np {
			dst[p*stride+r] = bf16Pair(alpha*x[r*ldx+2*p], alpha*x[r*ldx+2*p+1])
		}
	}
}
