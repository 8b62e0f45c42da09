//go:build !purego

package cpu

// Implemented in cpu_amd64.s.

func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
func xgetbv0() (eax, edx uint32)

// hasAVX2FMA reports whether AVX2 and FMA instructions may run: the CPU
// has AVX, FMA and AVX2 (CPUID leaf 1 ECX bits 28 and 12, leaf 7 EBX bit
// 5), and the operating system has enabled XSAVE (OSXSAVE, leaf 1 ECX bit
// 27) and saves both the SSE and the AVX register state (XCR0 bits 1 and
// 2), without which the upper halves of the YMM registers could be lost on
// a context switch. This is what x86-64-v3 asks of AVX2 code.
func hasAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if _, _, ecx, _ := cpuid(1, 0); ecx&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	const sseState, avxState = 1 << 1, 1 << 2
	if xcr0, _ := xgetbv0(); xcr0&(sseState|avxState) != sseState|avxState {
		return false
	}
	const avx2 = 1 << 5
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&avx2 != 0
}
