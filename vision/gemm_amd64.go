//go:build amd64 && !purego

package vision

// On amd64 the micro-kernels are written in assembly (gemm_amd64.s) for
// CPUs with AVX2 and FMA (Intel Haswell, AMD Excavator/Zen and later; any
// x86-64-v3 CPU), because the Go compiler does not vectorize: the Go
// kernels run one multiply-add per instruction, the assembly eight, with
// fused multiply-adds. Without AVX2 and FMA, or with the purego build tag,
// the Go kernels run instead; tests check that both agree.

// Implemented in gemm_amd64.s.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

//go:noescape
func gemmKernelAVX2(k int, a *float32, lda int, b *float32, c *float32, ldc int, bias *float32, lo, hi float32)

//go:noescape
func depthwise3x3AVX2(n, ch, step int, r0, r1, r2, w, bias, out *float32, lo, hi float32)

// useAVX2 reports whether the assembly kernels run. Tests switch it off to
// exercise the Go kernels on the same machine.
var useAVX2 = hasAVX2FMA()

// hasAVX2FMA checks the CPU (CPUID) and the operating system (XCR0: the
// YMM registers are saved on context switches).
func hasAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if _, _, ecx, _ := cpuid(1, 0); ecx&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx&avx2 != 0
}

func kernelName() string {
	if useAVX2 {
		return "avx2"
	}
	return "go"
}

func gemmKernel(k int, a []float32, lda int, b []float32, c []float32, ldc int, bias []float32, lo, hi float32) {
	if !useAVX2 || k == 0 {
		gemmKernelGo(k, a, lda, b, c, ldc, bias, lo, hi)
		return
	}
	// The assembly reads and writes exactly these ranges; the checks
	// make a slicing bug in a caller panic here instead of corrupting
	// memory.
	_ = a[(gemmMR-1)*lda+k-1]
	_ = b[k*gemmNR-1]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	_ = bias[gemmNR-1]
	gemmKernelAVX2(k, &a[0], lda, &b[0], &c[0], ldc, &bias[0], lo, hi)
}

func depthwise3x3(n, ch, step int, r0, r1, r2, w, bias, out []float32, lo, hi float32) {
	if !useAVX2 || ch%8 != 0 || n == 0 {
		depthwise3x3Go(n, ch, step, r0, r1, r2, w, bias, out, lo, hi)
		return
	}
	last := (n-1)*step + 3*ch - 1
	_, _, _ = r0[last], r1[last], r2[last]
	_ = w[9*ch-1]
	_ = bias[ch-1]
	_ = out[n*ch-1]
	depthwise3x3AVX2(n, ch, step, &r0[0], &r1[0], &r2[0], &w[0], &bias[0], &out[0], lo, hi)
}
