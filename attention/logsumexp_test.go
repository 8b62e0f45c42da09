package attention

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logSumExpRef is log Σ e^(x_i) in float64 throughout (math.Exp).
func logSumExpRef(x []float32) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, float64(v))
	}
	if math.IsInf(m, -1) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(float64(v) - m)
	}
	return m + math.Log(s)
}

// TestLogSumExp compares LogSumExp, with the assembly and without, against
// a float64 reference on rows of many lengths (Whisper's 51,864 logits
// among them), spreads from 1 to 1000, with and without −Inf entries (as
// suppressed tokens are), and the all −Inf and empty rows.
func TestLogSumExp(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	negInf := float32(math.Inf(-1))
	paths := []bool{false}
	if useSoftmaxAVX2 {
		paths = append(paths, true)
	}
	defer func(v bool) { useSoftmaxAVX2 = v }(useSoftmaxAVX2)
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 33, 1500, 1501, 50364, 51864} {
		for _, spread := range []float64{1, 10, 1000} {
			for _, masked := range []bool{false, true} {
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64() * spread)
					if masked && i%3 != 0 {
						x[i] = negInf
					}
				}
				want := logSumExpRef(x)
				for _, asm := range paths {
					useSoftmaxAVX2 = asm
					got := LogSumExp(x)
					// Exp32's relative error (2e-7) shifts the log by as much.
					if d := math.Abs(got - want); d > 4e-7*math.Max(1, math.Abs(want)) {
						t.Errorf("n=%d spread=%g masked=%v asm=%v: LogSumExp = %v, want %v (off by %.3g)", n, spread, masked, asm, got, want, d)
					}
					if m := Max(x); m != maxRef(x) {
						t.Errorf("n=%d asm=%v: Max = %v, want %v", n, asm, m, maxRef(x))
					}
				}
			}
		}
	}
	for _, asm := range paths {
		useSoftmaxAVX2 = asm
		for _, x := range [][]float32{nil, {negInf}, {negInf, negInf, negInf, negInf, negInf, negInf, negInf, negInf, negInf}} {
			if got := LogSumExp(x); !math.IsInf(got, -1) {
				t.Errorf("asm=%v: LogSumExp(%v) = %v, want -Inf", asm, x, got)
			}
		}
	}
}

func maxRef(x []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

func BenchmarkLogSumExp(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 51864)
	for i := range x {
		x[i] = float32(r.NormFloat64() * 3)
	}
	b.ReportAllocs()
	for b.Loop() {
		LogSumExp(x)
	}
}
