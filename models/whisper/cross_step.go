package whisper

import (
	"math"

	"github.com/attend-go/attend/attention"
)

// crossStep is crossAttend for one query row (a decoding step) in one
// pass over the audio instead of two: the scores of a block of frames
// against every head's back-projected query q'_h, then, with a running
// maximum m_h and normalizer l_h per head (the online softmax of Milakov
// and Gimelshein 2018, "Online normalizer calculation for softmax"), the
// running sums of the block's audio rows weighted by e^(s − m_h):
//
//	m' = max(m, max_j s_j)     c = e^(m − m')     p_j = e^(s_j − m')
//	l  ← c·l + Σ_j p_j         a_h ← c·a_h + Σ_j p_j·x_j
//
// and at the end P_h·X = a_h / l_h. Each block of audio rows (16 frames,
// 24 KB for tiny) is read from memory once and again from the first-level
// cache, so a layer reads the audio (1,500×n float32, row-major, 2.3 MB
// for tiny) once, where the two products read it twice (once packed
// transposed for the scores, once for P·X). The exponentials are
// attention.Exp32's and every sum is float32, as in crossAttend; the
// results differ from it by the order of the sums and the rescaling.
// The kernels (scores, sums) run in AVX2 assembly (cross_amd64.s);
// crossAttend takes this path only where they exist for the shape
// (crossStepFast: every Whisper size), as the Go loops below are slower
// than the two products on sgemm's Go kernels. The Go loops serve a
// ragged last block and the tests.
func crossStep(o, q []float32, b *block, a *crossAudio, heads int, cs *crossScratch) {
	n := len(b.crossLn.gamma)
	dh := n / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	cs.qh = grow(cs.qh, dh)
	cs.qk = grow(cs.qk, heads*n)
	cs.px = grow(cs.px, heads*n)
	cs.s = grow(cs.s, heads*crossStepBlock)
	cs.stats = grow(cs.stats, 3*heads)
	mx, l, corr := cs.stats[:heads], cs.stats[heads:2*heads], cs.stats[2*heads:]
	for h := range heads {
		c := h * dh
		for i, v := range q[c : c+dh] {
			cs.qh[i] = scale * v
		}
		b.crossKT.dotRows(cs.qk[h*n:][:n], cs.qh, c) // q'_h = s·q_h·W_k[c:c+d_h, :]
		mx[h], l[h] = float32(math.Inf(-1)), 0
	}
	acc := cs.px
	clear(acc)
	for j0 := 0; j0 < a.frames; j0 += crossStepBlock {
		f := min(crossStepBlock, a.frames-j0)
		xb := a.data[j0*n : (j0+f)*n]
		s := cs.s[:heads*f]
		crossScores(s, cs.qk, xb, n, heads, f)
		for h := range heads {
			row := s[h*f : (h+1)*f]
			m := max(mx[h], attention.Max(row))
			corr[h] = attention.Exp32(mx[h] - m) // 0 at the first block
			l[h] = l[h]*corr[h] + attention.ExpSubSum(row, m)
			mx[h] = m
		}
		crossAccum(acc, s, xb, corr, n, heads, f)
	}
	for h := range heads {
		c := h * dh
		ah := acc[h*n : (h+1)*n]
		inv := 1 / l[h]
		for i := range ah {
			ah[i] *= inv
		}
		// O_h = W_v[c:c+d_h, :]·(P_h·X) + b_v[c:c+d_h]
		oh := o[c : c+dh]
		b.cross.value.w.dotRowsRange(oh, ah, c, c+dh)
		addTo(oh, b.cross.value.b[c:c+dh])
	}
}

// crossStepBlock is how many audio frames crossStep takes at a time.
const crossStepBlock = 16

// crossScores writes s[h·frames + j] = q_h·x_j for the heads rows of q
// (heads, n) and the frames rows of x (frames, n).
func crossScores(s, q, x []float32, n, heads, frames int) {
	if crossScoresFast(s, q, x, n, heads, frames) {
		return
	}
	for h := range heads {
		qh := q[h*n : (h+1)*n]
		for j := range frames {
			s[h*frames+j] = dot32(qh, x[j*n:(j+1)*n])
		}
	}
}

// crossAccum sets acc_h = corr[h]·acc_h + Σ_j p[h·frames + j]·x_j for the
// heads rows of acc (heads, n) and the frames rows of x (frames, n).
func crossAccum(acc, p, x, corr []float32, n, heads, frames int) {
	if crossAccumFast(acc, p, x, corr, n, heads, frames) {
		return
	}
	for h := range heads {
		ah := acc[h*n : (h+1)*n]
		for i := range ah {
			ah[i] *= corr[h]
		}
		for j := range frames {
			w := p[h*frames+j]
			for i, v := range x[j*n : (j+1)*n] {
				ah[i] += w * v
			}
		}
	}
}

// dot32 returns Σ a_i·b_i in float32, four partial sums.
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
