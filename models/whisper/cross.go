package whisper

import (
	"math"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/internal/sgemm"
)

// Cross-attention without a key/value cache. openai/whisper computes the
// keys K = X·W_kᵀ and values V = X·W_vᵀ + b_v of the audio X (frames, n)
// once per decoder layer and attends to them at every step: for tiny,
// 1,500×384 float32 keys and values in each of 4 layers, 18 MB to keep
// and to read per token (whisper.cpp keeps them in half precision, which
// moves the logits past the parity tests' 1e-3). Instead, for each head h
// (d_h = n/heads columns c…c+d_h of the projections),
//
//	S_h = q_h·K_hᵀ·s = (s·q_h·W_k,h)·Xᵀ          q'_h = s·q_h·W_k,h  (t, n)
//	O_h = softmax(S_h)·V_h = (P_h·X)·W_v,hᵀ + b_v,h   since every row of P_h sums to 1
//
// with s = 1/√d_h: the query is carried back through the key projection,
// the attention weights forward through the audio before the value
// projection. Every layer shares X, packed once per decoder for both
// products (Xᵀ and X, sgemm.PackedB: 4.6 MB for tiny, small enough to
// stay in a large last-level cache from step to step); the products have
// heads·t rows (6 for tiny's step), which the GEMM kernel's six-row
// panels fill. W_k is kept transposed (crossKT), so that both weight
// products are dot products with rows, in half precision for float16
// checkpoints. The scores are what openai/whisper's cross-attention
// computes, up to the order of the sums (word timestamps read them). A
// decoding step (one query row, no scores kept) takes crossStep instead
// (cross_step.go): one pass over X with an online softmax, which reads
// the audio once per layer instead of twice.
type crossAudio struct {
	xt, x  sgemm.PackedB // Xᵀ (n, frames) and X (frames, n)
	data   []float32     // X (frames, n) row-major: the AudioFeatures' own Data (crossStep)
	frames int
}

// newCrossAudio packs the encoder output for the decoders' cross-attention
// and keeps audio.Data itself for crossStep: the decoders read it, so it
// must not change while they are in use (AudioFeatures are read-only
// once Encode returns them).
func newCrossAudio(audio *AudioFeatures) *crossAudio {
	c := &crossAudio{data: audio.Data[:audio.Frames*audio.Width], frames: audio.Frames}
	c.xt.Pack(true, audio.Width, audio.Frames, audio.Data, audio.Width)
	c.x.Pack(false, audio.Frames, audio.Width, audio.Data, audio.Width)
	return c
}

// crossRows is how many query rows the cross-attention takes at a time:
// a step's one row, a prompt's few, a timing pass's hundreds in blocks
// whose scores (heads·16 rows of 1,500) stay small.
const crossRows = 16

// crossScratch holds the cross-attention's intermediates for up to
// crossRows query rows: q' and P·X (heads·rows, n), the scores
// (heads·rows, frames), one scaled query head (d_h).
type crossScratch struct {
	qk, px, s, qh []float32
	stats         []float32 // crossStep's running maxima, normalizers and corrections (3·heads)
}

// crossAttend writes the cross-attention's output before its out
// projection, o (t, n), for the queries q (t, n) of layer b, with the
// keys and values of the audio in a. keep, when set, receives each head's
// raw scores (t rows of frames, scaled, before the softmax) one row at a
// time.
func crossAttend(o, q []float32, t int, b *block, a *crossAudio, heads int, cs *crossScratch, keep func(h int, row []float32)) {
	n := len(b.crossLn.gamma)
	if t == 1 && keep == nil && crossStepFast(n, heads) {
		crossStep(o, q, b, a, heads, cs)
		return
	}
	dh := n / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	cs.qh = grow(cs.qh, dh)
	for r0 := 0; r0 < t; r0 += crossRows {
		rows := min(crossRows, t-r0)
		m := heads * rows
		cs.qk = grow(cs.qk, m*n)
		cs.px = grow(cs.px, m*n)
		cs.s = grow(cs.s, m*a.frames)
		for h := range heads {
			c := h * dh
			for r := range rows {
				// q'_h = s·q_h·W_k[c:c+d_h, :], the columns c…c+d_h of W_kᵀ's rows
				qh := q[(r0+r)*n+c:][:dh]
				for i, v := range qh {
					cs.qh[i] = scale * v
				}
				b.crossKT.dotRows(cs.qk[(h*rows+r)*n:][:n], cs.qh, c)
			}
		}
		sgemm.GemmPacked(false, m, 1, cs.qk, n, &a.xt, 0, cs.s, a.frames) // S (heads·rows, frames)
		for i := range m {
			row := cs.s[i*a.frames : (i+1)*a.frames]
			if keep != nil {
				keep(i/rows, row)
			}
			attention.SoftmaxInPlace(row)
		}
		sgemm.GemmPacked(false, m, 1, cs.s, a.frames, &a.x, 0, cs.px, n) // P·X (heads·rows, n)
		for h := range heads {
			c := h * dh
			for r := range rows {
				// O_h = W_v[c:c+d_h, :]·(P_h·X) + b_v[c:c+d_h]
				or := o[(r0+r)*n+c:][:dh]
				b.cross.value.w.dotRowsRange(or, cs.px[(h*rows+r)*n:][:n], c, c+dh)
				addTo(or, b.cross.value.b[c:c+dh])
			}
		}
	}
}

// newCrossKT returns W_kᵀ for W_k (n, n): in half precision when W_k is,
// else in float32, off the heap.
func newCrossKT(wk matrix) matrix {
	n := wk.rows
	if wk.half != nil {
		h, owner := allocHalf(n * n)
		for i := range n {
			for j := range n {
				h[j*n+i] = wk.half[i*n+j]
			}
		}
		return matrix{half: h, rows: n, cols: n, owner: owner}
	}
	w := wk.toFloat32()
	f, owner := allocFloat32(n * n)
	for i := range n {
		for j := range n {
			f[j*n+i] = w.f32[i*n+j]
		}
	}
	return matrix{f32: f, rows: n, cols: n, owner: owner}
}
