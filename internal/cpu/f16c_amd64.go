//go:build !purego

package cpu

func hasF16C() bool {
	const f16c = 1 << 29
	_, _, ecx, _ := cpuid(1, 0)
	return ecx&f16c != 0
}
