package whisper

import (
	"math"
	"math/rand/v2"
	"testing"
)

// geluInputs is a dense sweep of [−20, 20], random values at several
// scales and the specials (±0, denormals, large, NaN), a multiple of 8 long.
func geluInputs() []float32 {
	var xs []float32
	for x := -20.0; x <= 20; x += 1.0 / 4096 {
		xs = append(xs, float32(x))
	}
	r := rand.New(rand.NewPCG(8, 9))
	for _, s := range []float64{0.01, 1, 5, 1000} {
		for range 4096 {
			xs = append(xs, float32(r.NormFloat64()*s))
		}
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 1e-20, -1e-20,
		1e6, -1e6, math.MaxFloat32, -math.MaxFloat32, float32(math.NaN()))
	for len(xs)%8 != 0 {
		xs = append(xs, 0)
	}
	return xs
}

// geluExact is GELU in float64: x/2·erfc(−x/√2).
func geluExact(x float64) float64 { return 0.5 * x * math.Erfc(-x/math.Sqrt2) }

// TestGELU checks gelu32 against float64 GELU for |x| ≤ 20: error below
// 2e-7·max(1, |x|) (float32 rounding of x/2·(2 − q) near 20 is 1e-6), and
// below 3e-6 relative where |GELU(x)| > 1e-6. In the negative tail the
// relative error grows as z²·2⁻²³ (the rounding of z = x/√2 and of z²
// inside the exponential), harmless at such small values.
func TestGELU(t *testing.T) {
	var worstAbs, worstRel float64
	for _, x := range geluInputs() {
		if x != x || math.Abs(float64(x)) > 20 {
			continue
		}
		got, want := float64(gelu32(x)), geluExact(float64(x))
		d := math.Abs(got - want)
		worstAbs = max(worstAbs, d/max(1, math.Abs(float64(x))))
		if math.Abs(want) > 1e-6 {
			worstRel = max(worstRel, d/math.Abs(want))
		}
	}
	if worstAbs > 2e-7 || worstRel > 3e-6 {
		t.Errorf("gelu32: error %.3g·max(1,|x|), %.3g relative", worstAbs, worstRel)
	}
	t.Logf("gelu32: max error %.3g·max(1,|x|), %.3g relative", worstAbs, worstRel)
}

// TestGELUAssembly compares the assembly loop with gelu32 on every input
// (the same bounds as TestGELU: the two round differently), zeros and NaN
// exactly, and reports its error from float64 GELU.
func TestGELUAssembly(t *testing.T) {
	if !useGeluAVX2 {
		t.Skip("no AVX2/FMA assembly in this build")
	}
	xs := geluInputs()
	got := append([]float32(nil), xs...)
	if n := geluFast(got); n != len(xs) {
		t.Fatalf("did %d of %d", n, len(xs))
	}
	var worstAbs, worstRel, exactAbs float64
	for i, x := range xs {
		want := gelu32(x)
		if math.Abs(float64(x)) <= 20 {
			exactAbs = max(exactAbs, math.Abs(float64(got[i])-geluExact(float64(x)))/max(1, math.Abs(float64(x))))
		}
		g := got[i]
		if want != want || g != g {
			if (want != want) != (g != g) {
				t.Errorf("GELU(%v): assembly %v, Go %v", x, g, want)
			}
			continue
		}
		d := math.Abs(float64(g - want))
		worstAbs = max(worstAbs, d/max(1, math.Abs(float64(x))))
		if math.Abs(float64(want)) > 1e-6 {
			worstRel = max(worstRel, d/math.Abs(float64(want)))
		} else if (want == 0) != (g == 0) {
			t.Errorf("GELU(%v): assembly %v, Go 0", x, g)
		}
	}
	if worstAbs > 2e-7 || worstRel > 3e-6 || exactAbs > 2e-7 {
		t.Errorf("assembly GELU differs from gelu32 by %.3g·max(1,|x|), %.3g relative; from float64 GELU by %.3g·max(1,|x|)", worstAbs, worstRel, exactAbs)
	}
	t.Logf("assembly GELU: max difference from gelu32 %.3g·max(1,|x|), %.3g relative; from float64 GELU %.3g·max(1,|x|)", worstAbs, worstRel, exactAbs)
}
