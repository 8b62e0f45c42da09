//go:build !amd64 || purego

package sgemm

// bf16Available says whether the bf16 kernels may run: not without
// assembly. It is a variable, as on amd64, so that tests treat every
// build alike.
var bf16Available = false

func bf16Tile(rows, kp int, a, b []uint32, c []float32, ldc int, beta float32) {
	bf16TileGo(rows, kp, a, b, c, ldc, beta)
}

func bf16Rows(n, w int, x0, x1 []float32, alpha float32, dst []uint32, stride int) {
	bf16RowsGo(n, w, x0, x1, alpha, dst, stride)
}

func bf16PairsT8(np int, x []float32, ldx int, alpha float32, dst []uint32, stride int) {
	bf16PairsT8Go(np, x, ldx, alpha, dst, stride)
}
