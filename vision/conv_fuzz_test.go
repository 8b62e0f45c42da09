package vision

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/internal/sgemm"
)

// FuzzConvolutions compares the convolution and depthwise kernels with
// the plain reference loops on fuzzed geometry: input size, channels,
// kernel size, stride, dilation and padding, where the border handling
// (TFLite's asymmetric SAME padding, the interior runs, the edge patches)
// could go wrong.
func FuzzConvolutions(f *testing.F) {
	f.Add(uint8(7), uint8(7), uint8(8), uint8(3), uint8(1), uint8(1), false, uint64(1))
	f.Add(uint8(8), uint8(6), uint8(16), uint8(3), uint8(2), uint8(1), false, uint64(2))
	f.Add(uint8(2), uint8(9), uint8(5), uint8(3), uint8(2), uint8(1), true, uint64(3))
	f.Add(uint8(9), uint8(9), uint8(3), uint8(5), uint8(3), uint8(2), false, uint64(4))
	f.Add(uint8(1), uint8(1), uint8(1), uint8(1), uint8(1), uint8(1), true, uint64(5))
	kernels := []bool{false}
	if useAVX2 {
		kernels = append(kernels, true)
	}
	f.Fuzz(func(t *testing.T, h, w, ch, k, stride, dil uint8, valid bool, seed uint64) {
		H, W, C := int(h%24)+1, int(w%24)+1, int(ch%40)+1
		K, S, D := int(k%5)+1, int(stride%4)+1, int(dil%3)+1
		pad := padSame
		if valid {
			pad = padValid
		}
		outH, padTop := samePad(H, K, S, D, pad)
		outW, padLeft := samePad(W, K, S, D, pad)
		if outH < 1 || outW < 1 {
			return // VALID window larger than the input: the compiler rejects it
		}
		win := window{kh: K, kw: K, strideH: S, strideW: S, dilH: D, dilW: D,
			padTop: padTop, padLeft: padLeft, inH: H, inW: W, outH: outH, outW: outW}
		r := rand.New(rand.NewPCG(seed, 9))
		in := randSlice(r, H*W*C)
		for _, asm := range kernels {
			saved := useAVX2
			useAVX2 = asm
			sc := []*scratch{newScratch(K*K*C, C), newScratch(K*K*C, C)}

			d := depthwise{win: win, ch: C, w: randSlice(r, K*K*C), bias: randSlice(r, C), lo: 0, hi: 6, zeros: make([]float32, W*C)}
			got := make([]float32, outH*outW*C)
			d.run(in, got, parallel{2}, sc)
			want := refDepthwise(in, H, W, C, d.w, d.bias, K, S, D, pad, 0, 6)
			if i := closeTo(got, want, 1e-4); i >= 0 {
				useAVX2 = saved
				t.Fatalf("%s depthwise %d×%d×%d k%d s%d d%d %v: out[%d] = %v, want %v", kernelName(), H, W, C, K, S, D, pad, i, got[i], want[i])
			}

			if D == 1 {
				outC := int(seed%20) + 1
				wt := randSlice(r, outC*K*K*C)
				bias := randSlice(r, outC)
				cv := conv{win: win, inC: C, w: sgemm.Pack(wt, outC, K*K*C, bias), lo: -1, hi: 1,
					pointwise: K == 1 && S == 1}
				got := make([]float32, outH*outW*outC)
				cv.run(in, got, make([]float32, cv.colSize()), parallel{2}, sc)
				want := refConv(in, H, W, C, wt, bias, outC, K, S, pad, -1, 1)
				if i := closeTo(got, want, 1e-4); i >= 0 {
					useAVX2 = saved
					t.Fatalf("%s conv %d×%d×%d→%d k%d s%d %v: out[%d] = %v, want %v", kernelName(), H, W, C, outC, K, S, pad, i, got[i], want[i])
				}
			}
			useAVX2 = saved
		}
	})
}
