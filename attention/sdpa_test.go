package attention

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
)

// naiveSDPA is SDPA written out in float64: for each head, query row and
// key, the scaled dot product, the causal mask, the softmax and the
// weighted sum of values.
func naiveSDPA(q, k, v []float32, tq, tk, width, heads int, causal bool, offset int) []float64 {
	dh := width / heads
	out := make([]float64, tq*width)
	for h := range heads {
		c := h * dh
		for i := range tq {
			n := tk
			if causal {
				n = min(tk, offset+i+1)
			}
			s := make([]float64, n)
			m := math.Inf(-1)
			for j := range n {
				for d := range dh {
					s[j] += float64(q[i*width+c+d]) * float64(k[j*width+c+d])
				}
				s[j] /= math.Sqrt(float64(dh))
				m = max(m, s[j])
			}
			var sum float64
			for j := range s {
				s[j] = math.Exp(s[j] - m)
				sum += s[j]
			}
			for j := range s {
				for d := range dh {
					out[i*width+c+d] += s[j] / sum * float64(v[j*width+c+d])
				}
			}
		}
	}
	return out
}

// TestSDPA checks SDPA against naiveSDPA: one query row (a decoding step),
// a few, and more than sdpaBlockRows (the blocked path), causal with a
// key/value cache offset or not, scores kept or not, on one goroutine and
// several.
func TestSDPA(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(12, 13))
	cases := []struct {
		tq, tk, width, heads int
		causal               bool
		offset               int
		keep                 bool
	}{
		{1, 150, 64, 4, false, 0, false},
		{1, 9, 64, 4, true, 8, false},
		{5, 5, 48, 3, true, 0, false},
		{3, 10, 48, 3, true, 7, true},
		{150, 150, 64, 2, false, 0, false},  // blocked, 3 blocks (last partial)
		{150, 150, 64, 2, false, 0, true},   // scores kept: whole
		{130, 140, 32, 2, true, 10, false},  // blocked and causal with an offset
		{200, 260, 128, 8, false, 0, false}, // parallel heads
	}
	for _, tc := range cases {
		for _, procs := range []int{1, 3} {
			name := fmt.Sprintf("%dx%d_w%d_h%d_causal%v_off%d_keep%v_procs%d", tc.tq, tc.tk, tc.width, tc.heads, tc.causal, tc.offset, tc.keep, procs)
			t.Run(name, func(t *testing.T) {
				runtime.GOMAXPROCS(procs)
				q, k, v := normals(r, tc.tq*tc.width), normals(r, tc.tk*tc.width), normals(r, tc.tk*tc.width)
				a := SDPA{Heads: tc.heads, Causal: tc.causal, Offset: tc.offset}
				var kept atomic.Int32 // KeepScores runs on the heads' goroutines
				if tc.keep {
					a.KeepScores = func(h int, s []float32) {
						if len(s) != tc.tq*tc.tk {
							t.Errorf("head %d: %d scores, want %d", h, len(s), tc.tq*tc.tk)
						}
						kept.Add(1)
					}
				}
				got := make([]float32, tc.tq*tc.width)
				a.Attend(got, q, k, v, tc.tq, tc.tk, tc.width)
				want := naiveSDPA(q, k, v, tc.tq, tc.tk, tc.width, tc.heads, tc.causal, tc.offset)
				for i := range got {
					if d := math.Abs(float64(got[i]) - want[i]); d > 1e-4*(1+math.Abs(want[i])) {
						t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
					}
				}
				if tc.keep && int(kept.Load()) != tc.heads {
					t.Errorf("scores kept for %d heads, want %d", kept.Load(), tc.heads)
				}
			})
		}
	}
}

// normals returns n standard normal values drawn from r.
func normals(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}
