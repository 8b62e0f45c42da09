package whisper

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// roundHalf rounds v to the nearest binary16 value (ties to even), as the
// float16 checkpoints' weights are.
func roundHalf(v float32) float32 {
	if math.Abs(float64(v)) < 1.0/(1<<14) { // subnormal in half: multiples of 2⁻²⁴
		return float32(math.RoundToEven(float64(v)*(1<<24)) / (1 << 24))
	}
	b := math.Float32bits(v)
	b += 0xfff + (b >> 13 & 1)
	return math.Float32frombits(b &^ 0x1fff)
}

// TestHalfExact converts every binary16 value to float32 and back, and
// checks that values half precision cannot hold are refused.
func TestHalfExact(t *testing.T) {
	for h := range 1 << 16 {
		f := halfToFloat32(uint16(h))
		if e := h >> 10 & 0x1f; e == 0x1f {
			if _, ok := toHalfExact(f); ok {
				t.Errorf("toHalfExact(%v) accepted Inf or NaN", f)
			}
			continue
		}
		if g, ok := toHalfExact(f); !ok || g != uint16(h) {
			t.Errorf("half %#04x = %v converts back to %#04x, %v", h, f, g, ok)
		}
		if want := float32(math.Ldexp(float64(h&0x3ff|min(1, h>>10&0x1f)<<10), max(1, h>>10&0x1f)-25)); math.Abs(float64(f)) != float64(want) {
			t.Errorf("half %#04x = %v, want magnitude %v", h, f, want)
		}
	}
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	got := make([]float32, len(all))
	halfToFloat32s(got, all)
	for i, h := range all {
		if want := halfToFloat32(h); math.Float32bits(got[i]) != math.Float32bits(want) && !(want != want && got[i] != got[i]) {
			t.Errorf("halfToFloat32s(%#04x) = %v, want %v", h, got[i], want)
		}
	}
	for _, v := range []float32{1 + 1.0/(1<<11), 65520, 1e-8, 3e-8, 0.1, float32(math.Inf(1)), float32(math.NaN())} {
		if _, ok := toHalfExact(v); ok {
			t.Errorf("toHalfExact(%v) accepted a value binary16 does not hold", v)
		}
	}
	if halfExact([]float32{1, 0.5, 0.1}) != nil {
		t.Error("halfExact made a copy of a matrix with an inexact value")
	}
}

// TestHalfMatVec checks the half-precision product, assembly and Go, one
// goroutine and several, against float64 sums over the same weights.
func TestHalfMatVec(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer func(v bool) { useHalfAVX2 = v }(useHalfAVX2)
	r := rand.New(rand.NewPCG(10, 11))
	for _, sz := range []struct{ rows, cols int }{{1, 8}, {3, 16}, {5, 24}, {7, 384}, {70, 1536}, {2731, 384}} {
		w := make([]float32, sz.rows*sz.cols)
		for i := range w {
			w[i] = roundHalf(float32(r.NormFloat64() * 0.05))
		}
		h := halfExact(w)
		if h == nil {
			t.Fatal("rounded weights are not exact in half precision")
		}
		x := make([]float32, sz.cols)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for _, asm := range []bool{false, true} {
			if asm && !useHalfAVX2 {
				continue
			}
			for _, procs := range []int{1, 2} {
				useHalfAVX2 = asm
				runtime.GOMAXPROCS(procs)
				y := make([]float32, sz.rows)
				halfMatVec(y, x, h, sz.rows, sz.cols)
				for j := range y {
					var want, bound float64
					for p := range x {
						want += float64(x[p]) * float64(w[j*sz.cols+p])
						bound += math.Abs(float64(x[p]) * float64(w[j*sz.cols+p]))
					}
					if d := math.Abs(float64(y[j]) - want); d > 1e-6*bound+1e-30 {
						t.Fatalf("%d×%d asm=%v procs=%d: row %d = %v, want %v", sz.rows, sz.cols, asm, procs, j, y[j], want)
					}
				}
			}
		}
	}
}

// TestHalfDecoder runs the same small random model (weights rounded to
// half) with and without the half copies and compares the logits of a
// three-token prompt (block-converted embedding) and of the next token
// (half-precision products), and checks that the float32 weights are
// dropped.
func TestHalfDecoder(t *testing.T) {
	if !useHalfAVX2 {
		t.Skip("no half-precision kernels in this build")
	}
	d := Dims{NMels: 80, NAudioCtx: 40, NAudioState: 64, NAudioHead: 4, NAudioLayer: 1,
		NVocab: 51864, NTextCtx: 16, NTextState: 64, NTextHead: 4, NTextLayer: 2}
	src := randomTensors(d, 3)
	half, err := newModel(d, src)
	if err != nil {
		t.Fatal(err)
	}
	if half.tokEmb.half == nil || half.tokEmb.f32 != nil || half.decBlocks[0].mlp1.w.half == nil || half.decBlocks[0].mlp1.w.f32 != nil {
		t.Fatal("no half copies for weights rounded to half")
	}
	useHalfAVX2 = false
	full, err := newModel(d, randomTensors(d, 3))
	useHalfAVX2 = true
	if err != nil {
		t.Fatal(err)
	}
	if full.tokEmb.half != nil {
		t.Fatal("half copies made without the kernels")
	}
	mel := make([]float32, d.NMels*2*d.NAudioCtx)
	for i := range mel {
		mel[i] = float32(i%7) * 0.1
	}
	enc, err := full.Encode(mel)
	if err != nil {
		t.Fatal(err)
	}
	dh, df := half.NewDecoder(enc, nil), full.NewDecoder(enc, nil)
	for _, tokens := range [][]int{{50257, 50362, 1000}, {220}, {51000}} {
		gh, err := dh.Forward(tokens)
		if err != nil {
			t.Fatal(err)
		}
		gf, err := df.Forward(tokens)
		if err != nil {
			t.Fatal(err)
		}
		for r := range gf {
			if diff := relMaxDiff(gh[r], gf[r]); diff > 1e-5 {
				t.Errorf("tokens %v row %d: half and float32 logits differ by %.3g of their scale", tokens, r, diff)
			}
		}
	}
}
