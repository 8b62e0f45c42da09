package whisper

import (
	"fmt"

	"github.com/attend-go/attend/attention"
)

// NewDecoder implements Network. Every Clone shares the cross-attention's
// keys and values of the audio (cross.go): those Encode computed, or new
// ones for features from elsewhere.
func (m *Model) NewDecoder(audio *AudioFeatures, recordCrossQK bool) TextDecoder {
	d := &textDecoder{m: m, kv: m.crossKVFor(audio), record: recordCrossQK}
	d.selfK = make([][]float32, len(m.decBlocks))
	d.selfV = make([][]float32, len(m.decBlocks))
	if recordCrossQK {
		d.qk = make([][][]float32, len(m.decBlocks)*m.dims.NTextHead)
	}
	return d
}

// textDecoder is openai/whisper's TextDecoder with its key/value cache:
//
//	x = token_embedding(tokens) + positional_embedding[offset:offset+t]   (t, n)
//	x = blocks(x, audio)      causal self-attention over the cache, cross-attention to audio
//	logits = ln(x)·token_embeddingᵀ                                        (t, n_vocab)
type textDecoder struct {
	m            *Model
	kv           *crossKV    // the cross-attention's keys and values, shared by clones
	selfK, selfV [][]float32 // per layer (len, n), grown by Forward
	len          int
	record       bool
	qk           [][][]float32 // [layer·heads + head][position] → (Frames) raw scores
	logits       []float32     // (t, n_vocab) of the last Forward
	x            []float32     // (t, n) the residual stream, reused by Forward
	s            *scratch      // activations for t tokens, reused by Forward; nil in a fresh clone
	st           int           // the t that s holds
	cs           crossScratch  // the cross-attention's, reused by Forward; empty in a fresh clone
}

// Len implements TextDecoder.
func (d *textDecoder) Len() int { return d.len }

// Clone implements TextDecoder.
func (d *textDecoder) Clone() TextDecoder {
	c := *d
	c.selfK, c.selfV = make([][]float32, len(d.selfK)), make([][]float32, len(d.selfV))
	for i := range d.selfK {
		c.selfK[i] = append([]float32(nil), d.selfK[i]...)
		c.selfV[i] = append([]float32(nil), d.selfV[i]...)
	}
	if d.qk != nil {
		c.qk = make([][][]float32, len(d.qk))
		for i := range d.qk {
			c.qk[i] = append([][]float32(nil), d.qk[i]...)
		}
	}
	c.logits, c.x, c.s, c.st, c.cs = nil, nil, nil, 0, crossScratch{}
	return &c
}

// copyFrom implements cacheCopier: d takes src's caches and position,
// copied into d's own arrays, and keeps its scratch.
func (d *textDecoder) copyFrom(src TextDecoder) bool {
	o, ok := src.(*textDecoder)
	if !ok || o.m != d.m || o == d {
		return false
	}
	for i := range d.selfK {
		d.selfK[i] = append(d.selfK[i][:0], o.selfK[i]...)
		d.selfV[i] = append(d.selfV[i][:0], o.selfV[i]...)
	}
	if o.qk != nil {
		d.qk = make([][][]float32, len(o.qk))
		for i := range o.qk {
			d.qk[i] = append([][]float32(nil), o.qk[i]...)
		}
	} else {
		d.qk = nil
	}
	d.kv, d.len, d.record = o.kv, o.len, o.record
	return true
}

// CrossQK implements TextDecoder.
func (d *textDecoder) CrossQK(l, h int) [][]float32 {
	if d.qk == nil {
		return nil
	}
	return d.qk[l*d.m.dims.NTextHead+h]
}

// Forward implements TextDecoder.
func (d *textDecoder) Forward(tokens []int) ([][]float32, error) {
	dims := d.m.dims
	t, n, off := len(tokens), dims.NTextState, d.len
	if t == 0 {
		return nil, nil
	}
	if off+t > dims.NTextCtx {
		return nil, fmt.Errorf("whisper: decoding past the text context: %d tokens, the model holds %d", off+t, dims.NTextCtx)
	}
	d.x = grow(d.x, t*n)
	x := d.x
	for i, tok := range tokens {
		if tok < 0 || tok >= dims.NVocab {
			return nil, fmt.Errorf("whisper: token %d is outside the vocabulary [0, %d)", tok, dims.NVocab)
		}
		d.m.tokenEmbedding(x[i*n:(i+1)*n], tok)
		addTo(x[i*n:(i+1)*n], d.m.decPos[(off+i)*n:(off+i+1)*n])
	}
	if d.s == nil || d.st < t {
		d.s, d.st = newScratch(t, n), t
	}
	s := d.s
	for l := range d.m.decBlocks {
		d.block(l, x, s, t)
	}
	d.len += t
	d.m.decLn.forward(x, x, t)
	d.logits = grow(d.logits, t*dims.NVocab)
	d.m.logits(d.logits, x, t, s)
	rows := make([][]float32, t)
	for i := range rows {
		rows[i] = d.logits[i*dims.NVocab : (i+1)*dims.NVocab]
	}
	return rows, nil
}

// block runs decoder block l over x (t, n) at positions len…len+t−1.
func (d *textDecoder) block(l int, x []float32, s *scratch, t int) {
	b := &d.m.decBlocks[l]
	dims := d.m.dims
	n, off, heads := dims.NTextState, d.len, dims.NTextHead
	b.attnLn.forward(s.h, x, t)
	b.attn.query.forward(s.q, s.h, t, s)
	b.attn.key.forward(s.k, s.h, t, s)
	b.attn.value.forward(s.v, s.h, t, s)
	d.selfK[l] = append(d.selfK[l][:off*n], s.k[:t*n]...)
	d.selfV[l] = append(d.selfV[l][:off*n], s.v[:t*n]...)
	attention.SDPA{Heads: heads, Causal: true, Offset: off}.Attend(s.o, s.q, d.selfK[l], d.selfV[l], t, off+t, n)
	var keep func(h int, row []float32)
	if d.record {
		keep = func(h int, row []float32) {
			i := l*heads + h
			d.qk[i] = append(d.qk[i], append([]float32(nil), row...))
		}
	}
	d.blockRest(l, x, s, t, keep)
}

// blockRest finishes decoder block l over x (t, n) once the
// self-attention's output (before its out projection) is in s.o: the out
// projection, the cross-attention (keep as for crossAttend) and the MLP,
// each with its residual. The t rows may be one sequence's tokens or
// several sequences' (forwardBatch): nothing here mixes rows but the
// cross-attention's products, which treat them as independent queries.
func (d *textDecoder) blockRest(l int, x []float32, s *scratch, t int, keep func(h int, row []float32)) {
	b := &d.m.decBlocks[l]
	b.attn.out.forward(s.h, s.o, t, s)
	addTo(x, s.h)

	b.crossLn.forward(s.h, x, t)
	b.cross.query.forward(s.q, s.h, t, s)
	crossAttend(s.o, s.q, t, l, d.kv, d.m.dims.NTextHead, &d.cs, keep)
	b.cross.out.forward(s.h, s.o, t, s)
	addTo(x, s.h)
	b.mlp(x, s, t)
}

// grow returns s resized to n, reusing its array when it is large enough.
func grow(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}
