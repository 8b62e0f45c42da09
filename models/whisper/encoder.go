package whisper

import (
	"fmt"

	"github.com/attend-go/attend/attention"
)

// Encode implements Network: openai/whisper's AudioEncoder,
//
//	x = GELU(conv1(mel))            (n_audio_state, 2n)     kernel 3, padding 1
//	x = GELU(conv2(x))              (n_audio_state, n)      stride 2
//	x = xᵀ + positional_embedding[:n]   (n, n_audio_state)
//	x = blocks(x); x = ln_post(x)
//
// and then, for the decoder, every layer's cross-attention keys and
// values of x (crossKV, cross.go), as whisper.cpp's encoder stage does.
//
// computed time-major throughout, so that each convolution is one matrix
// product over its unfolded input (im2col). n is the audio context,
// len(mel)/(2·n_mels): n_audio_ctx (1500) for openai/whisper's 30-second
// window; a smaller n is whisper.cpp's audio_ctx (-ac): the encoder runs
// on the first 2n mel frames alone with the positional embedding cut to
// its first n rows, so its cost falls with n (the blocks' products in
// proportion, self-attention as n²). The model was trained on full
// windows only, so a reduced context trades accuracy for speed.
func (m *Model) Encode(mel []float32) (*AudioFeatures, error) {
	d := m.dims
	frames := 0
	if d.NMels > 0 && len(mel)%(2*d.NMels) == 0 {
		frames = len(mel) / d.NMels
	}
	if frames == 0 || frames > 2*d.NAudioCtx {
		return nil, fmt.Errorf("whisper: Encode: mel has %d values, want %d mel bins × 2n frames, 0 < n ≤ %d (%d frames: a 30-second window)",
			len(mel), d.NMels, d.NAudioCtx, 2*d.NAudioCtx)
	}
	x := m.encodeWindow(mel, frames)
	a := &AudioFeatures{Data: x, Frames: frames / 2, Width: d.NAudioState}
	if len(m.decBlocks) > 0 {
		// After the encoder's scratch has gone back: the two are never
		// held at once (20 and 18 MB for tiny).
		a.kv = newCrossKV(m, a)
	}
	return a, nil
}

// encodeWindow runs the encoder on mel (n_mels × frames) and returns its
// output (frames/2, n_audio_state).
func (m *Model) encodeWindow(mel []float32, frames int) []float32 {
	d := m.dims
	ctx, n := frames/2, d.NAudioState
	// The convolutions' buffers lie in the blocks' scratch, unused until
	// then (ctx = frames/2): h1 (frames, n) in v and o, conv1's unfolded
	// input (frames, 3·n_mels) in q and k when it fits, conv2's
	// (frames/2, 3n) in u.
	// The weights' float32 copies (s.w) follow: the Go heap would keep
	// their 4 MB (base) after the window, when the decoder's caches come.
	wsize := m.encoderMulScratch()
	all, free := allocTemp(9*ctx*n + wsize) // 20 MB for tiny's full window, off the heap, freed on return
	defer free()
	s := scratchOver(all[:9*ctx*n], ctx, n)
	s.w = all[9*ctx*n:][:0:wsize]
	h1 := s.all[3*ctx*n : 5*ctx*n]
	var cols1 []float32
	if k := frames * 3 * d.NMels; k <= 2*ctx*n {
		cols1 = s.all[ctx*n:][:k]
	}
	m.conv1.forwardChannelMajor(h1, mel, frames, cols1, &s.w)
	gelu(h1)
	x := make([]float32, ctx*n)
	m.conv2.forwardTimeMajor(x, h1, frames, s.u, &s.w)
	gelu(x)
	addTo(x, m.encPos[:ctx*n])
	for i := range m.encBlocks {
		m.encBlocks[i].encode(x, s, ctx, d.NAudioHead)
	}
	m.lnPost.forward(x, x, ctx)
	return x
}

// encoderMulScratch returns the most float32s matrix.mul needs for any
// of the encoder's weights (matrix.mulScratch).
func (m *Model) encoderMulScratch() int {
	size := max(m.conv1.w.mulScratch(), m.conv2.w.mulScratch())
	for i := range m.encBlocks {
		b := &m.encBlocks[i]
		for _, l := range []*linear{&b.attn.query, &b.attn.key, &b.attn.value, &b.attn.out, &b.mlp1, &b.mlp2} {
			size = max(size, l.w.mulScratch())
		}
	}
	return size
}

// scratch holds one sequence's intermediate activations.
type scratch struct {
	h, q, k, v, o []float32 // (T, n)
	u             []float32 // (T, 4n)
	all           []float32 // h, q, k, v, o, u in this order, contiguous
	w             []float32 // a weight matrix in float32 (matrix.mul), grown as needed
	steps         bool      // the rows are separate sequences' decoding steps (matrix.forwardRows)
}

func newScratch(t, n int) *scratch { return scratchOver(make([]float32, 9*t*n), t, n) }

// scratchOver returns a scratch for t rows of width n over all (9·t·n).
func scratchOver(all []float32, t, n int) *scratch {
	part := func(i, size int) []float32 { return all[i*t*n : (i+size)*t*n : (i+size)*t*n] }
	return &scratch{h: part(0, 1), q: part(1, 1), k: part(2, 1), v: part(3, 1), o: part(4, 1), u: part(5, 4), all: all}
}

// encode runs one encoder block over x (T, n) in place.
func (b *block) encode(x []float32, s *scratch, t, heads int) {
	n := len(b.attnLn.gamma)
	b.attnLn.forward(s.h, x, t)
	b.attn.query.forward(s.q, s.h, t, s)
	b.attn.key.forward(s.k, s.h, t, s)
	b.attn.value.forward(s.v, s.h, t, s)
	attention.SDPA{Heads: heads}.Attend(s.o, s.q, s.k, s.v, t, t, n)
	b.attn.out.forward(s.h, s.o, t, s)
	addTo(x, s.h)
	b.mlp(x, s, t)
}

// mlp adds mlp(mlp_ln(x)) to x (T, n).
func (b *block) mlp(x []float32, s *scratch, t int) {
	b.mlpLn.forward(s.h, x, t)
	b.mlp1.forward(s.u, s.h, t, s)
	gelu(s.u[:t*b.mlp1.out])
	b.mlp2.forward(s.o, s.u, t, s)
	addTo(x, s.o[:len(x)])
}

// forwardChannelMajor computes y (T, out), time-major, from x (in, T),
// channel-major (the log-mel spectrogram's layout), with stride 1:
// y[t] = b + Σ_c Σ_j w[o, c, j]·x[c, t+j−1]. buf holds the unfolded
// input when it is large enough (T·in·3), else it is allocated.
func (c *conv1d) forwardChannelMajor(y, x []float32, t int, buf []float32, wbuf *[]float32) {
	k := c.in * 3
	cols := buf[:min(len(buf), t*k)] // (T, in·3): row t holds x[c, t+j−1] at c·3+j
	if len(cols) < t*k {
		cols = make([]float32, t*k)
	} else {
		clear(cols) // the padding's entries are not written below
	}
	for ch := range c.in {
		xc := x[ch*t : (ch+1)*t]
		for i := range t {
			row := cols[i*k+ch*3 : i*k+ch*3+3]
			if i > 0 {
				row[0] = xc[i-1]
			}
			row[1] = xc[i]
			if i+1 < t {
				row[2] = xc[i+1]
			}
		}
	}
	c.product(y, cols, t, wbuf)
}

// forwardTimeMajor computes y (T/stride, out) from x (T, in), both
// time-major: y[t] = b + Σ_c Σ_j w[o, c, j]·x[stride·t+j−1, c]. buf
// holds the unfolded input when it is large enough, else it is allocated.
func (c *conv1d) forwardTimeMajor(y, x []float32, t int, buf []float32, wbuf *[]float32) {
	k := c.in * 3
	to := (t + c.stride - 1) / c.stride
	cols := buf[:min(len(buf), to*k)]
	if len(cols) < to*k {
		cols = make([]float32, to*k)
	} else {
		clear(cols)
	}
	for i := range to {
		row := cols[i*k : (i+1)*k]
		for j := range 3 {
			src := c.stride*i + j - 1
			if src < 0 || src >= t {
				continue
			}
			xr := x[src*c.in : (src+1)*c.in]
			for ch, v := range xr {
				row[ch*3+j] = v
			}
		}
	}
	c.product(y, cols, to, wbuf)
}

// product writes y (rows, out) = cols (rows, in·3)·wᵀ + b; wbuf is
// scratch for w in float32 (matrix.mul).
func (c *conv1d) product(y, cols []float32, rows int, wbuf *[]float32) {
	*wbuf = c.w.mul(y, cols, rows, *wbuf)
	for r := range rows {
		addTo(y[r*c.out:(r+1)*c.out], c.b)
	}
}
