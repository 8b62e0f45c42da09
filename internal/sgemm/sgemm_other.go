//go:build !amd64 || purego

package sgemm

// Without the assembly kernels (other architectures, or -tags purego) the
// Go kernels run.

// sgemmAVX2 is always false here; it exists so that tests treat every
// build alike.
var sgemmAVX2 = false

func sgemmTile(_ bool, rows, k int, a, b []float32, ldb int, c []float32, ldc int, beta float32) {
	sgemmTileGo(rows, k, a, b, ldb, c, ldc, beta)
}

func gemvN(_ bool, k int, x, b []float32, ldb int, y []float32) { gemvNGo(k, x, b, ldb, y) }

func gemvT(_ bool, k int, x, b []float32, ldb int, y []float32) { gemvTGo(k, x, b, ldb, y) }

func packStripAN(bool, int, []float32, int, float32, []float32) int { return 0 }

func packStripAT(bool, int, []float32, int, float32, []float32) bool { return false }

func packPanelsBN(bool, int, []float32, int, int, []float32) bool { return false }

func packPanelBT(bool, int, []float32, int, []float32) int { return 0 }

func biasClampKernel(_ bool, k int, a []float32, lda int, b []float32, c []float32, ldc int, bias []float32, lo, hi float32) {
	biasClampKernelGo(k, a, lda, b, c, ldc, bias, lo, hi)
}
