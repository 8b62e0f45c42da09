package whisper

import (
	"fmt"

	"github.com/attend-go/attend/attention"
)

// NewDecoder implements Network. Every Clone shares the cross-attention's
// keys and values of the audio (cross.go): those Encode computed, or new
// ones for features from elsewhere.
func (m *Model) NewDecoder(audio *AudioFeatures, record [][2]int) TextDecoder {
	d := &textDecoder{m: m, kv: m.crossKVFor(audio)}
	d.self = m.newSelfCache()
	if len(record) > 0 {
		heads := m.dims.NTextHead
		d.record = true
		d.qk = make([][][]float32, len(m.decBlocks)*heads)
		d.recorded = make([]bool, len(d.qk))
		for _, lh := range record {
			if lh[0] >= 0 && lh[0] < len(m.decBlocks) && lh[1] >= 0 && lh[1] < heads {
				d.recorded[lh[0]*heads+lh[1]] = true
			}
		}
	}
	return d
}

// textDecoder is openai/whisper's TextDecoder with its key/value cache:
//
//	x = token_embedding(tokens) + positional_embedding[offset:offset+t]   (t, n)
//	x = blocks(x, audio)      causal self-attention over the cache, cross-attention to audio
//	logits = ln(x)·token_embeddingᵀ                                        (t, n_vocab)
type textDecoder struct {
	m        *Model
	kv       *crossKV   // the cross-attention's keys and values, shared by clones
	self     *selfCache // the self-attention's keys and values, grown by Forward
	len      int
	record   bool          // some head's scores are kept
	recorded []bool        // [layer·heads + head]: its scores are kept (shared by clones)
	qk       [][][]float32 // [layer·heads + head][position] → (Frames) raw scores of the recorded heads
	logits   []float32     // (t, n_vocab) of the last Forward
	x        []float32     // (t, n) the residual stream, reused by Forward
	s        *scratch      // activations for t tokens, reused by Forward; nil in a fresh clone
	st       int           // the t that s holds
	cs       crossScratch  // the cross-attention's, reused by Forward; empty in a fresh clone
}

// Len implements TextDecoder.
func (d *textDecoder) Len() int { return d.len }

// Clone implements TextDecoder.
func (d *textDecoder) Clone() TextDecoder {
	c := *d
	c.self = d.m.newSelfCache()
	c.self.copyFrom(d.self)
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
	d.self.copyFrom(o.self)
	if o.qk != nil {
		d.qk = make([][][]float32, len(o.qk))
		for i := range o.qk {
			d.qk[i] = append([][]float32(nil), o.qk[i]...)
		}
	} else {
		d.qk = nil
	}
	d.kv, d.len, d.record, d.recorded = o.kv, o.len, o.record, o.recorded
	return true
}

// release returns d's self-attention cache (releaseDecoders); d must not
// be used after it.
func (d *textDecoder) release() { d.self.release() }

// newSelfCache reserves a decoder's self-attention cache for the whole
// text context.
func (m *Model) newSelfCache() *selfCache {
	return newSelfCache(len(m.decBlocks), m.dims.NTextCtx, m.dims.NTextState)
}

// CrossQK implements TextDecoder.
func (d *textDecoder) CrossQK(l, h int) [][]float32 {
	heads := d.m.dims.NTextHead
	if d.qk == nil || l < 0 || h < 0 || h >= heads || l*heads+h >= len(d.qk) || !d.recorded[l*heads+h] {
		return nil
	}
	return d.qk[l*heads+h]
}

// Forward implements TextDecoder.
func (d *textDecoder) Forward(tokens []int) ([][]float32, error) {
	return d.ForwardRows(tokens, allRows(len(tokens)))
}

// ForwardRows implements RowsForwarder.
func (d *textDecoder) ForwardRows(tokens, keep []int) ([][]float32, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	if err := checkKeep(keep, len(tokens)); err != nil {
		return nil, err
	}
	t, off := len(tokens), d.len
	rows, err := d.run(tokens, keep, func(i int) int { return off + i }, false, d.appendSelf(t))
	if err == nil {
		d.len += t
	}
	return rows, err
}

// ForwardProbs implements ProbsForwarder: the output layer goes through
// the vocabulary in blocks (matrix.targetProbs), so no row of logits is
// held (64 rows of 51,864 took 13 MB).
func (d *textDecoder) ForwardProbs(tokens, next []int, n int) ([]float64, error) {
	t, dims := len(tokens), d.m.dims
	if len(next) != t {
		return nil, fmt.Errorf("whisper: %d next tokens for %d tokens", len(next), t)
	}
	if n < 1 || n > dims.NVocab {
		return nil, fmt.Errorf("whisper: probabilities over %d tokens of a %d-token vocabulary", n, dims.NVocab)
	}
	for _, tok := range next {
		if tok >= n {
			return nil, fmt.Errorf("whisper: next token %d is outside the %d tokens the probabilities cover", tok, n)
		}
	}
	if t == 0 {
		return nil, nil
	}
	off := d.len
	x, err := d.pass(tokens, func(i int) int { return off + i }, false, d.appendSelf(t))
	if err != nil {
		return nil, err
	}
	d.m.decLn.forward(x, x, t)
	p := make([]float64, t)
	d.s.w = d.m.tokEmb.targetProbs(p, x, t, n, next, d.s.w)
	d.len += t
	return p, nil
}

// appendSelf returns the self-attention of t tokens of one sequence after
// the d.len in its cache: their keys and values go into the cache, and
// each attends causally to the cache.
func (d *textDecoder) appendSelf(t int) func(l int, s *scratch) {
	n, heads, off := d.m.dims.NTextState, d.m.dims.NTextHead, d.len
	return func(l int, s *scratch) {
		k := append(d.self.k[l][:off*n], s.k[:t*n]...)
		v := append(d.self.v[l][:off*n], s.v[:t*n]...)
		d.self.k[l], d.self.v[l] = k, v
		attention.SDPA{Heads: heads, Causal: true, Offset: off}.Attend(s.o, s.q, k, v, t, off+t, n)
	}
}

// run passes t = len(tokens) rows through the decoder, row i token
// tokens[i] at position pos(i), and returns the logits of the rows keep
// names (ascending indices into tokens; len(keep) rows of NVocab in d's
// buffer): the embeddings, then per block the self-attention, whose keys
// and values selfAttend appends to the right caches and attends to (from
// s.q, s.k, s.v into s.o), the out projection, the cross-attention, the
// MLP, each with its residual, and the final layer norm and output layer
// for the kept rows only (a prompt of 224 tokens needs one row's logits;
// all of them cost 12 GFLOP and 46 MB for base). The rows may be one
// sequence's tokens (Forward) or several sequences' steps (steps,
// forwardBatch): nothing but selfAttend mixes rows. When d records, it keeps every row's cross-attention scores.
func (d *textDecoder) run(tokens, keep []int, pos func(i int) int, steps bool, selfAttend func(l int, s *scratch)) ([][]float32, error) {
	x, err := d.pass(tokens, pos, steps, selfAttend)
	if err != nil {
		return nil, err
	}
	s := d.s
	defer func() { s.steps = false }()
	t, n, k := len(tokens), d.m.dims.NTextState, len(keep)
	if k == 0 {
		return nil, nil
	}
	if k < t { // gather the kept rows to the front (keep ascends: j ≤ i)
		for j, i := range keep {
			copy(x[j*n:(j+1)*n], x[i*n:(i+1)*n])
		}
	}
	d.m.decLn.forward(x, x, k)
	d.logits = grow(d.logits, k*d.m.dims.NVocab)
	d.m.logits(d.logits, x, k, s)
	rows := make([][]float32, k)
	for i := range rows {
		rows[i] = d.logits[i*d.m.dims.NVocab : (i+1)*d.m.dims.NVocab]
	}
	return rows, nil
}

// pass runs the decoder's blocks over t = len(tokens) rows as run
// describes and returns the residual stream after the last block (t, n),
// before the final layer norm, in d.x.
func (d *textDecoder) pass(tokens []int, pos func(i int) int, steps bool, selfAttend func(l int, s *scratch)) ([]float32, error) {
	dims := d.m.dims
	t, n, heads := len(tokens), dims.NTextState, dims.NTextHead
	for i, tok := range tokens {
		if tok < 0 || tok >= dims.NVocab {
			return nil, fmt.Errorf("whisper: token %d is outside the vocabulary [0, %d)", tok, dims.NVocab)
		}
		if p := pos(i); p >= dims.NTextCtx {
			return nil, fmt.Errorf("whisper: decoding past the text context: %d tokens, the model holds %d", p+1, dims.NTextCtx)
		}
	}
	// The buffers fit the pass: a step after a long pass (a prompt, a
	// word-timing chunk, which reuse each other's) does not keep the long
	// pass's, whose activations, float32 weight copies and logits (8.6 MB
	// for base's prompt of 224 tokens) would stay with the decoder for the rest of a search that steps a
	// row at a time.
	if t <= fewRows && d.st > fewRows {
		d.s, d.st, d.x, d.logits = nil, 0, nil, nil
	}
	d.x = grow(d.x, t*n)
	x := d.x
	for i, tok := range tokens {
		d.m.tokenEmbedding(x[i*n:(i+1)*n], tok)
		p := pos(i)
		addTo(x[i*n:(i+1)*n], d.m.decPos[p*n:(p+1)*n])
	}
	if d.s == nil || d.st < t {
		d.s, d.st = newScratch(t, n), t
	}
	s := d.s
	s.steps = steps // until the caller's end: the output layer reads it too
	for l := range d.m.decBlocks {
		b := &d.m.decBlocks[l]
		b.attnLn.forward(s.h, x, t)
		b.attn.query.forward(s.q, s.h, t, s)
		b.attn.key.forward(s.k, s.h, t, s)
		b.attn.value.forward(s.v, s.h, t, s)
		selfAttend(l, s)
		b.attn.out.forward(s.h, s.o, t, s)
		addTo(x, s.h)

		b.crossLn.forward(s.h, x, t)
		b.cross.query.forward(s.q, s.h, t, s)
		var keep func(h int, row []float32)
		if d.record {
			keep = func(h int, row []float32) {
				if i := l*heads + h; d.recorded[i] {
					d.qk[i] = append(d.qk[i], append([]float32(nil), row...))
				}
			}
		}
		crossAttend(s.o, s.q, t, l, d.kv, heads, &d.cs, keep)
		b.cross.out.forward(s.h, s.o, t, s)
		addTo(x, s.h)
		b.mlp(x, s, t)
	}
	return x, nil
}

// grow returns s resized to n, reusing its array when it is large enough.
func grow(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}
