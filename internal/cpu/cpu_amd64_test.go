//go:build linux && !purego

package cpu

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestAVX2FMA checks the CPUID/XGETBV detection against the flags
// the Linux kernel reports for the first CPU (it lists avx2 and fma only
// when it also saves the AVX state).
func TestAVX2FMA(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatalf("reading the kernel's view of the CPU: %v", err)
	}
	var flags []string
	for line := range strings.Lines(string(info)) {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	if flags == nil {
		t.Fatal("/proc/cpuinfo has no flags line")
	}
	want := slices.Contains(flags, "avx2") && slices.Contains(flags, "fma")
	wantBF16 := want && slices.Contains(flags, "avx512f") && slices.Contains(flags, "avx512_bf16")
	if got := hasAVX512BF16(); got != wantBF16 {
		t.Errorf("hasAVX512BF16() = %v, /proc/cpuinfo flags say %v", got, wantBF16)
	}
	if got := hasAVX2FMA(); got != want {
		t.Errorf("hasAVX2FMA() = %v, /proc/cpuinfo flags say %v", got, want)
	}
	if got, wantF16C := hasF16C(), slices.Contains(flags, "f16c"); got != wantF16C {
		t.Errorf("hasF16C() = %v, /proc/cpuinfo flags say %v", got, wantF16C)
	}
	t.Logf("AVX2 and FMA: %v", want)
}
