//go:build !purego

package sgemm

import "github.com/attend-go/attend/internal/cpu"

// Implemented in sgemm_amd64.s, which sgemm_asm_gen.go writes; see there
// for the exact contracts.

//go:generate go run sgemm_asm_gen.go

//go:noescape
func sgemmKernel6x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemmKernel5x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemmKernel4x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemmKernel3x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemmKernel2x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemmKernel1x16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)

//go:noescape
func sgemvNAVX2(k int, x, b *float32, ldb int, y *float32, n int)

//go:noescape
func sgemvTAVX2(k int, x, b *float32, ldb int, y *float32, n int)

// sgemmAVX2 selects the assembly kernels. It is set once at start-up;
// tests clear it to run the Go kernels on the same machine.
var sgemmAVX2 = cpu.AVX2FMA

// sgemmTile runs the micro-kernel for a tile of rows×16 (see sgemmTileGo
// for its contract).
func sgemmTile(avx2 bool, rows, k int, a, b []float32, ldb int, c []float32, ldc int, beta float32) {
	if !avx2 {
		sgemmTileGo(rows, k, a, b, ldb, c, ldc, beta)
		return
	}
	// The assembly reads and writes exactly these ranges; the checks turn
	// a slicing bug in the driver into a panic rather than a corruption.
	_ = a[sgemmMR*k-1]
	_ = b[(k-1)*ldb+sgemmNR-1]
	_ = c[(rows-1)*ldc+sgemmNR-1]
	switch rows {
	case 6:
		sgemmKernel6x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	case 5:
		sgemmKernel5x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	case 4:
		sgemmKernel4x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	case 3:
		sgemmKernel3x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	case 2:
		sgemmKernel2x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	case 1:
		sgemmKernel1x16(k, &a[0], &b[0], ldb, &c[0], ldc, beta)
	default:
		panic("sgemm: sgemmTile: bad row count")
	}
}

// gemvN computes y[j] = Σ_{p<k} x[p]·b[p·ldb+j] for j < len(y), k ≥ 1.
func gemvN(avx2 bool, k int, x, b []float32, ldb int, y []float32) {
	n8 := 0
	if avx2 {
		n8 = len(y) &^ 7
	}
	if n8 > 0 {
		_ = x[k-1]
		_ = b[(k-1)*ldb+n8-1]
		_ = y[n8-1]
		sgemvNAVX2(k, &x[0], &b[0], ldb, &y[0], n8)
	}
	if n8 < len(y) {
		gemvNGo(k, x, b[n8:], ldb, y[n8:])
	}
}

// gemvT computes y[j] = Σ_{p<k} x[p]·b[j·ldb+p] for j < len(y), k ≥ 1.
func gemvT(avx2 bool, k int, x, b []float32, ldb int, y []float32) {
	k8 := 0
	if avx2 {
		k8 = k &^ 7
	}
	if k8 == 0 || len(y) == 0 {
		gemvTGo(k, x, b, ldb, y)
		return
	}
	_ = x[k-1]
	_ = b[(len(y)-1)*ldb+k-1]
	sgemvTAVX2(k8, &x[0], &b[0], ldb, &y[0], len(y))
	if k8 == k {
		return
	}
	xt := x[k8:k]
	for j := range y {
		row := b[j*ldb+k8:][:len(xt)]
		s := y[j]
		for p, v := range xt {
			s += v * row[p]
		}
		y[j] = s
	}
}

//go:noescape
func sgemmPackBNAVX2(kk int, b *float32, ldb int, panels int, dst *float32)

//go:noescape
func sgemmPackBTAVX2(kk int, b *float32, ldb int, dst *float32)

//go:noescape
func sgemmPackATAVX2(kk int, a *float32, lda int, alpha float32, dst *float32)

//go:noescape
func sgemmPackANAVX2(kk int, a *float32, lda int, alpha float32, dst *float32)

// packStripAN packs the first steps of a full strip of A, not transposed
// (dst[6p+r] = α·a[r·lda+p]), in assembly, and returns how many it packed:
// a multiple of 8, the rest is left to the caller.
func packStripAN(avx2 bool, kk int, a []float32, lda int, alpha float32, dst []float32) int {
	k8 := kk &^ 7
	if !avx2 || k8 == 0 {
		return 0
	}
	_ = a[(sgemmMR-1)*lda+k8-1]
	_ = dst[sgemmMR*k8-1]
	sgemmPackANAVX2(k8, &a[0], lda, alpha, &dst[0])
	return k8
}

// packStripAT packs a full strip of A, transposed (dst[6p+r] =
// α·a[p·lda+r]), in assembly, and reports whether it did.
func packStripAT(avx2 bool, kk int, a []float32, lda int, alpha float32, dst []float32) bool {
	if !avx2 {
		return false
	}
	_ = a[(kk-1)*lda+sgemmMR-1]
	_ = dst[sgemmMR*kk-1]
	sgemmPackATAVX2(kk, &a[0], lda, alpha, &dst[0])
	return true
}

// packPanelsBN packs full 16-wide panels of B, not transposed
// (dst[t·16·kk+p·16+j] = b[p·ldb+16t+j]), in assembly, and reports whether
// it did.
func packPanelsBN(avx2 bool, kk int, b []float32, ldb, panels int, dst []float32) bool {
	if !avx2 {
		return false
	}
	_ = b[(kk-1)*ldb+sgemmNR*panels-1]
	_ = dst[panels*sgemmNR*kk-1]
	sgemmPackBNAVX2(kk, &b[0], ldb, panels, &dst[0])
	return true
}

// packPanelBT packs the first steps of a full 16-wide panel of B,
// transposed (dst[16p+j] = b[j·ldb+p]), in assembly, and returns how many
// it packed: a multiple of 8, the rest is left to the caller.
func packPanelBT(avx2 bool, kk int, b []float32, ldb int, dst []float32) int {
	k8 := kk &^ 7
	if !avx2 || k8 == 0 {
		return 0
	}
	_ = b[(sgemmNR-1)*ldb+k8-1]
	_ = dst[sgemmNR*k8-1]
	sgemmPackBTAVX2(k8, &b[0], ldb, &dst[0])
	return k8
}

//go:noescape
func biasClampKernelAVX2(k int, a *float32, lda int, b *float32, c *float32, ldc int, bias *float32, lo, hi float32)

// biasClampKernel runs Packed.Tile's micro-kernel (see biasClampKernelGo
// for its contract).
func biasClampKernel(avx2 bool, k int, a []float32, lda int, b []float32, c []float32, ldc int, bias []float32, lo, hi float32) {
	if !avx2 || k == 0 {
		biasClampKernelGo(k, a, lda, b, c, ldc, bias, lo, hi)
		return
	}
	// The assembly reads and writes exactly these ranges; the checks
	// make a slicing bug in a caller panic here instead of corrupting
	// memory.
	_ = a[(MR-1)*lda+k-1]
	_ = b[k*NR-1]
	_ = c[(MR-1)*ldc+NR-1]
	_ = bias[NR-1]
	biasClampKernelAVX2(k, &a[0], lda, &b[0], &c[0], ldc, &bias[0], lo, hi)
}
