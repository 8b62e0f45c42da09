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

// hasAVX512BF16 reports whether 512-bit AVX-512 instructions and the
// bfloat16 dot product VDPBF16PS may run: the CPU has AVX-512F (CPUID leaf
// 7 EBX bit 16) and AVX512_BF16 (leaf 7 subleaf 1 EAX bit 5), and the
// operating system saves the opmask and all 32 ZMM registers (XCR0 bits
// 5, 6 and 7) besides the SSE and AVX state.
func hasAVX512BF16() bool {
	if !hasAVX2FMA() {
		return false
	}
	const state = 1<<1 | 1<<2 | 1<<5 | 1<<6 | 1<<7
	if xcr0, _ := xgetbv0(); xcr0&state != state {
		return false
	}
	const avx512f = 1 << 16
	if _, ebx, _, _ := cpuid(7, 0); ebx&avx512f == 0 {
		return false
	}
	const avx512bf16 = 1 << 5
	eax, _, _, _ := cpuid(7, 1)
	return eax&avx512bf16 != 0
}
