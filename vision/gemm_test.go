package vision

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/internal/sgemm"
)

// withKernels runs f once per micro-kernel implementation available on
// this machine: the Go kernels always, the assembly ones where they run.
func withKernels(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	kernels := []bool{false}
	if saved {
		kernels = append(kernels, true)
	}
	for _, asm := range kernels {
		useAVX2 = asm
		t.Run(kernelName(), f)
	}
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

// closeTo reports the first index where got and want differ by more than
// tol·(1 + |want|), or −1.
func closeTo(got, want []float32, tol float64) int {
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > tol*(1+math.Abs(float64(want[i]))) || math.IsNaN(float64(got[i])) {
			return i
		}
	}
	return -1
}

func TestGemm(t *testing.T) {
	cases := []struct {
		m, n, k int
		lda     int // 0 means k
		ldc     int // 0 means n
		lo, hi  float32
		threads int
	}{
		{m: 1, n: 1, k: 1},
		{m: 6, n: 16, k: 1},
		{m: 6, n: 16, k: 37},
		{m: 7, n: 17, k: 5},
		{m: 5, n: 15, k: 9},
		{m: 49, n: 1001, k: 40, threads: 2},
		{m: 100, n: 24, k: 144, lo: 0, hi: 6},
		{m: 25, n: 40, k: 27, lda: 30, ldc: 50, lo: -1, hi: 1},
		{m: 300, n: 96, k: 16, threads: 3},
		{m: 13, n: 64, k: 320, lo: 0, hi: float32(math.Inf(1)), threads: 4},
	}
	withKernels(t, func(t *testing.T) {
		for _, tc := range cases {
			name := fmt.Sprintf("m%d_n%d_k%d", tc.m, tc.n, tc.k)
			t.Run(name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.n*1000+tc.k)))
				lda, ldc := max(tc.lda, tc.k), max(tc.ldc, tc.n)
				lo, hi := tc.lo, tc.hi
				if lo == 0 && hi == 0 {
					lo, hi = float32(math.Inf(-1)), float32(math.Inf(1))
				}
				a := randSlice(r, tc.m*lda)
				w := randSlice(r, tc.n*tc.k) // N×K, as TFLite stores filters
				bias := randSlice(r, tc.n)
				c := randSlice(r, tc.m*ldc) // garbage that must survive outside the N columns
				orig := append([]float32(nil), c...)

				want := append([]float32(nil), c...)
				for i := 0; i < tc.m; i++ {
					for j := 0; j < tc.n; j++ {
						s := float64(bias[j])
						for kk := 0; kk < tc.k; kk++ {
							s += float64(a[i*lda+kk]) * float64(w[j*tc.k+kk])
						}
						want[i*ldc+j] = clamp(float32(s), lo, hi)
					}
				}
				threads := max(tc.threads, 1)
				scratch := make([]*scratch, threads)
				for i := range scratch {
					scratch[i] = newScratch(tc.k, 0)
				}
				gemm(tc.m, a, lda, sgemm.Pack(w, tc.n, tc.k, bias), c, ldc, lo, hi, parallel{threads}, scratch)
				if i := closeTo(c, want, 1e-5*math.Sqrt(float64(tc.k))); i >= 0 {
					t.Fatalf("c[%d] (row %d col %d) = %v, want %v (was %v)", i, i/ldc, i%ldc, c[i], want[i], orig[i])
				}
			})
		}
	})
}

func TestDepthwise(t *testing.T) {
	cases := []struct {
		h, w, ch, k, stride, dil int
		pad                      tfPadding
	}{
		{h: 7, w: 7, ch: 8, k: 3, stride: 1, dil: 1, pad: padSame},
		{h: 8, w: 8, ch: 16, k: 3, stride: 2, dil: 1, pad: padSame}, // TFLite pads the bottom and right only
		{h: 9, w: 6, ch: 24, k: 3, stride: 2, dil: 1, pad: padSame},
		{h: 6, w: 9, ch: 8, k: 3, stride: 1, dil: 1, pad: padValid},
		{h: 5, w: 5, ch: 5, k: 3, stride: 1, dil: 1, pad: padSame}, // channels not a multiple of 8
		{h: 3, w: 3, ch: 8, k: 3, stride: 1, dil: 1, pad: padSame},
		{h: 2, w: 2, ch: 8, k: 3, stride: 1, dil: 1, pad: padSame}, // no interior pixel
		{h: 1, w: 4, ch: 8, k: 3, stride: 1, dil: 1, pad: padSame},
		{h: 9, w: 9, ch: 8, k: 3, stride: 1, dil: 2, pad: padSame},
		{h: 9, w: 9, ch: 8, k: 5, stride: 2, dil: 1, pad: padSame},
		{h: 11, w: 11, ch: 32, k: 3, stride: 3, dil: 1, pad: padValid},
	}
	withKernels(t, func(t *testing.T) {
		for _, tc := range cases {
			name := fmt.Sprintf("%dx%dx%d_k%d_s%d_d%d_pad%d", tc.h, tc.w, tc.ch, tc.k, tc.stride, tc.dil, tc.pad)
			t.Run(name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(tc.h*100+tc.w), uint64(tc.ch)))
				outH, padTop := samePad(tc.h, tc.k, tc.stride, tc.dil, tc.pad)
				outW, padLeft := samePad(tc.w, tc.k, tc.stride, tc.dil, tc.pad)
				d := depthwise{
					win: window{kh: tc.k, kw: tc.k, strideH: tc.stride, strideW: tc.stride, dilH: tc.dil, dilW: tc.dil,
						padTop: padTop, padLeft: padLeft, inH: tc.h, inW: tc.w, outH: outH, outW: outW},
					ch: tc.ch, w: randSlice(r, tc.k*tc.k*tc.ch), bias: randSlice(r, tc.ch), lo: 0, hi: 6,
					zeros: make([]float32, tc.w*tc.ch),
				}
				in := randSlice(r, tc.h*tc.w*tc.ch)
				want := refDepthwise(in, tc.h, tc.w, tc.ch, d.w, d.bias, tc.k, tc.stride, tc.dil, tc.pad, 0, 6)
				got := make([]float32, outH*outW*tc.ch)
				d.run(in, got, parallel{2}, []*scratch{newScratch(0, tc.ch), newScratch(0, tc.ch)})
				if len(want) != len(got) {
					t.Fatalf("reference has %d outputs, kernel %d", len(want), len(got))
				}
				if i := closeTo(got, want, 1e-5); i >= 0 {
					t.Fatalf("out[%d] = %v, want %v", i, got[i], want[i])
				}
			})
		}
	})
}

// refDepthwise is a plain depthwise convolution with TensorFlow's padding
// rule written out: out = ⌈in/stride⌉ for SAME, with the extra padding
// pixel at the end.
func refDepthwise(in []float32, h, w, ch int, wt, bias []float32, k, stride, dil int, pad tfPadding, lo, hi float32) []float32 {
	eff := (k-1)*dil + 1
	var outH, outW, pt, pl int
	if pad == padSame {
		outH, outW = (h+stride-1)/stride, (w+stride-1)/stride
		pt = max((outH-1)*stride+eff-h, 0) / 2
		pl = max((outW-1)*stride+eff-w, 0) / 2
	} else {
		outH, outW = (h-eff)/stride+1, (w-eff)/stride+1
	}
	out := make([]float32, outH*outW*ch)
	for y := 0; y < outH; y++ {
		for x := 0; x < outW; x++ {
			for c := 0; c < ch; c++ {
				s := float64(bias[c])
				for ky := 0; ky < k; ky++ {
					for kx := 0; kx < k; kx++ {
						iy, ix := y*stride+ky*dil-pt, x*stride+kx*dil-pl
						if iy >= 0 && iy < h && ix >= 0 && ix < w {
							s += float64(in[(iy*w+ix)*ch+c]) * float64(wt[(ky*k+kx)*ch+c])
						}
					}
				}
				out[(y*outW+x)*ch+c] = clamp(float32(s), lo, hi)
			}
		}
	}
	return out
}

func TestSamePad(t *testing.T) {
	cases := []struct {
		in, k, stride, dil int
		pad                tfPadding
		out, before        int
	}{
		{224, 3, 2, 1, padSame, 112, 0}, // total padding 1: all of it after
		{112, 3, 1, 1, padSame, 112, 1},
		{7, 7, 1, 1, padValid, 1, 0},
		{7, 3, 2, 1, padSame, 4, 1},
		{9, 3, 1, 2, padSame, 9, 2},
		{10, 3, 3, 1, padValid, 3, 0},
		{1, 3, 1, 1, padSame, 1, 1},
	}
	for _, tc := range cases {
		out, before := samePad(tc.in, tc.k, tc.stride, tc.dil, tc.pad)
		if out != tc.out || before != tc.before {
			t.Errorf("samePad(in %d, k %d, stride %d, dil %d, %d) = %d, %d; want %d, %d",
				tc.in, tc.k, tc.stride, tc.dil, tc.pad, out, before, tc.out, tc.before)
		}
	}
}

// BenchmarkGemm times the GEMM on MobileNetV2's pointwise convolution
// shapes (M positions × K input channels × N output channels), with the
// Go and, where they run, the assembly kernels, on one goroutine.
func BenchmarkGemm(b *testing.B) {
	shapes := []struct{ m, k, n int }{
		{3136, 24, 144}, // block 2 expand, 56×56
		{3136, 144, 24}, // block 2 project
		{196, 96, 576},  // block 11 expand, 14×14
		{49, 320, 1280}, // Conv_1, 7×7
	}
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	kernels := []bool{false}
	if saved {
		kernels = append(kernels, true)
	}
	for _, asm := range kernels {
		useAVX2 = asm
		for _, s := range shapes {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", kernelName(), s.m, s.k, s.n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 2))
				a, c := randSlice(r, s.m*s.k), make([]float32, s.m*s.n)
				w := sgemm.Pack(randSlice(r, s.n*s.k), s.n, s.k, randSlice(r, s.n))
				sc := []*scratch{newScratch(s.k, 0)}
				b.ReportAllocs()
				for b.Loop() {
					gemm(s.m, a, s.k, w, c, s.n, 0, 6, parallel{1}, sc)
				}
				b.ReportMetric(2*float64(s.m*s.k*s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
