package attention

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expInputs returns a dense sweep of [−110, 110] and the special values
// the exponential must get right: ±0, tiny and denormal inputs, both ends
// of the range and just past them, ±MaxFloat32, ±Inf and NaN.
func expInputs() []float32 {
	var xs []float32
	for x := -110.0; x <= 110; x += 1.0 / 1024 {
		xs = append(xs, float32(x))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1 << 15 {
		xs = append(xs, float32(r.NormFloat64()*20))
	}
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	xs = append(xs, 0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 1e-30, -1e-30,
		88.72283, 88.722832, 88.7229, 89, -87.33654, -87.336548, -87.34, -88, -103, -104,
		math.MaxFloat32, -math.MaxFloat32, inf, -inf, nan)
	for len(xs)%8 != 0 {
		xs = append(xs, nan)
	}
	return xs
}

// TestExp32 checks the scalar exponential against math.Exp: relative error
// below 2e-7 where e^x is a normal float32, exact limits outside.
func TestExp32(t *testing.T) {
	var worst float64
	for _, x := range expInputs() {
		got := Exp32(x)
		want := math.Exp(float64(x))
		switch {
		case x != x:
			if got == got {
				t.Errorf("Exp32(NaN) = %v", got)
			}
		case x > 88.72283:
			if !math.IsInf(float64(got), 1) {
				t.Errorf("Exp32(%v) = %v, want +Inf", x, got)
			}
		case x < -87.33654:
			if got != 0 {
				t.Errorf("Exp32(%v) = %v, want 0", x, got)
			}
		default:
			worst = max(worst, math.Abs(float64(got)-want)/want)
		}
	}
	if worst > 2e-7 {
		t.Errorf("Exp32: relative error %.3g, want < 2e-7", worst)
	}
	t.Logf("Exp32: max relative error %.3g", worst)
}

// TestExpAssembly checks the eight-lane exponential (expSubSumFast with
// m = 0) against Exp32 element by element, specials included.
func TestExpAssembly(t *testing.T) {
	if !useSoftmaxAVX2 {
		t.Skip("no AVX2/FMA assembly in this build")
	}
	xs := expInputs()
	got := append([]float32(nil), xs...)
	n, sum := expSubSumFast(got, 0)
	if n != len(xs) {
		t.Fatalf("did %d of %d", n, len(xs))
	}
	var worst, worstTrue float64
	for i, x := range xs {
		want := Exp32(x)
		g := got[i]
		if x != x || want == 0 || math.IsInf(float64(want), 0) {
			if (g != g) != (want != want) || (want == want && g != want) {
				t.Errorf("exp(%v): assembly %v, Exp32 %v", x, g, want)
			}
			continue
		}
		worst = max(worst, math.Abs(float64(g-want))/float64(want))
		worstTrue = max(worstTrue, math.Abs(float64(g)-math.Exp(float64(x)))/math.Exp(float64(x)))
	}
	if worst > 2.5e-7 || worstTrue > 2e-7 {
		t.Errorf("assembly exp: relative error %.3g from Exp32, %.3g from math.Exp", worst, worstTrue)
	}
	if sum == sum {
		t.Errorf("sum over inputs with NaN is %v, want NaN", sum)
	}
	t.Logf("assembly exp: max relative error %.3g from Exp32, %.3g from math.Exp", worst, worstTrue)
}

// TestSoftmaxAssembly compares SoftmaxInPlace with and without assembly on
// rows of every length up to 40 and Whisper's 1,500 frames, scores spread
// from ±1 to ±1000 (the largest far below the rest included).
func TestSoftmaxAssembly(t *testing.T) {
	if !useSoftmaxAVX2 {
		t.Skip("no AVX2/FMA assembly in this build")
	}
	r := rand.New(rand.NewPCG(5, 6))
	var worst float64
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 33, 40, 448, 1500} {
		for _, spread := range []float64{1, 10, 100, 1000} {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(r.NormFloat64() * spread)
			}
			want := append([]float32(nil), x...)
			useSoftmaxAVX2 = false
			SoftmaxInPlace(want)
			useSoftmaxAVX2 = true
			SoftmaxInPlace(x)
			var total float64
			for i := range x {
				worst = max(worst, math.Abs(float64(x[i]-want[i])))
				total += float64(x[i])
			}
			if math.Abs(total-1) > 1e-5 {
				t.Errorf("n=%d spread=%g: softmax sums to %v", n, spread, total)
			}
		}
	}
	if worst > 1e-6 {
		t.Errorf("softmax: assembly and Go differ by %.3g", worst)
	}
	t.Logf("softmax: assembly and Go differ by at most %.3g", worst)
}
