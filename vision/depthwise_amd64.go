//go:build amd64 && !purego

package vision

import "github.com/attend-go/attend/internal/cpu"

// On amd64 the micro-kernels are written in assembly (depthwise_amd64.s
// here, internal/sgemm for the GEMM) for
// CPUs with AVX2 and FMA (Intel Haswell, AMD Excavator/Zen and later; any
// x86-64-v3 CPU), because the Go compiler does not vectorize: the Go
// kernels run one multiply-add per instruction, the assembly eight, with
// fused multiply-adds. Without AVX2 and FMA, or with the purego build tag,
// the Go kernels run instead; tests check that both agree.

// Implemented in depthwise_amd64.s.

//go:noescape
func depthwise3x3AVX2(n, ch, step int, r0, r1, r2, w, bias, out *float32, lo, hi float32)

// useAVX2 reports whether the assembly kernels run: this file's and the
// GEMM's of internal/sgemm. Tests switch it off to exercise the Go kernels
// on the same machine.
var useAVX2 = cpu.AVX2FMA

func kernelName() string {
	if useAVX2 {
		return "avx2"
	}
	return "go"
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
