//go:build !purego

package sgemm

import "github.com/attend-go/attend/internal/cpu"

// Implemented in bf16_amd64.s, which bf16_asm_gen.go writes; see there
// and bf16TileGo for the contract.

//go:generate go run bf16_asm_gen.go

//go:noescape
func bf16Kernel8x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel7x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel6x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel5x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel4x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel3x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel2x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

//go:noescape
func bf16Kernel1x32(kp int, a, b *uint32, c *float32, ldc int, beta float32)

// bf16Available says whether the bf16 kernels may run (SetBF16).
var bf16Available = cpu.AVX512BF16

// bf16Kernels are the R×32 kernels by R−1.
var bf16Kernels = [bf16MR]func(kp int, a, b *uint32, c *float32, ldc int, beta float32){
	bf16Kernel1x32, bf16Kernel2x32, bf16Kernel3x32, bf16Kernel4x32,
	bf16Kernel5x32, bf16Kernel6x32, bf16Kernel7x32, bf16Kernel8x32,
}

// bf16Tile runs the micro-kernel for a tile of rows×32 (see bf16TileGo
// for its contract); without AVX512_BF16, the Go kernel.
func bf16Tile(rows, kp int, a, b []uint32, c []float32, ldc int, beta float32) {
	if !bf16Available {
		bf16TileGo(rows, kp, a, b, c, ldc, beta)
		return
	}
	// The assembly reads and writes exactly these ranges; the checks turn
	// a slicing bug in the driver into a panic rather than a corruption.
	var a0, b0 *uint32
	if kp > 0 {
		_ = a[bf16MR*kp-1]
		_ = b[bf16NR*kp-1]
		a0, b0 = &a[0], &b[0]
	}
	_ = c[(rows-1)*ldc+bf16NR-1]
	bf16Kernels[rows-1](kp, a0, b0, &c[0], ldc, beta)
}

// Implemented in bf16_pack_amd64.s (AVX2); see there for the contracts.

//go:noescape
func bf16PackRows(n, w int, x0, x1 *float32, alpha float32, dst *uint32, dstStride int)

//go:noescape
func bf16PackPairsT8(np int, x *float32, ldx int, alpha float32, dst *uint32, dstStride int)

// bf16Rows sets dst[(j/w)·stride + j%w] = bf16Pair(α·x0[j], α·x1[j]) for
// j < n, where n is a multiple of w and w of 8.
func bf16Rows(n, w int, x0, x1 []float32, alpha float32, dst []uint32, stride int) {
	if !bf16Available { // tests run the driver on CPUs without AVX-512 too
		bf16RowsGo(n, w, x0, x1, alpha, dst, stride)
		return
	}
	if n == 0 {
		return
	}
	_, _ = x0[n-1], x1[n-1]
	_ = dst[(n/w-1)*stride+w-1]
	bf16PackRows(n, w, &x0[0], &x1[0], alpha, &dst[0], stride)
}

// bf16PairsT8 sets dst[p·stride + r] = bf16Pair(α·x[r·ldx+2p],
// α·x[r·ldx+2p+1]) for r < 8 and p < np, a multiple of 8.
func bf16PairsT8(np int, x []float32, ldx int, alpha float32, dst []uint32, stride int) {
	if !bf16Available {
		bf16PairsT8Go(np, x, ldx, alpha, dst, stride)
		return
	}
	if np == 0 {
		return
	}
	_ = x[7*ldx+2*np-1]
	_ = dst[(np-1)*stride+7]
	bf16PackPairsT8(np, &x[0], ldx, alpha, &dst[0], stride)
}
