package whisper

import (
	"fmt"
)

// Model is a Whisper network with its weights in float32, laid out as
// openai/whisper's model.py names them (PyTorch shapes, row-major):
//
//	encoder.conv1.weight              (n_audio_state, n_mels, 3)   bias (n_audio_state)
//	encoder.conv2.weight              (n_audio_state, n_audio_state, 3), stride 2
//	encoder.positional_embedding      (n_audio_ctx, n_audio_state)   sinusoids
//	encoder.blocks.i.attn.{query,key,value,out}.weight  (n_audio_state, n_audio_state); key has no bias
//	encoder.blocks.i.attn_ln, .mlp_ln  LayerNorm (n_audio_state)
//	encoder.blocks.i.mlp.0            (4·n_audio_state, n_audio_state)
//	encoder.blocks.i.mlp.2            (n_audio_state, 4·n_audio_state)
//	encoder.ln_post                   LayerNorm (n_audio_state)
//	decoder.token_embedding.weight    (n_vocab, n_text_state)   also the output projection
//	decoder.positional_embedding      (n_text_ctx, n_text_state)   learned
//	decoder.blocks.i.{attn,cross_attn}, .{attn_ln,cross_attn_ln,mlp_ln}, .mlp.{0,2}
//	decoder.ln                        LayerNorm (n_text_state)
//
// It implements Network; it is safe for concurrent use (decoders hold
// their own caches).
type Model struct {
	dims         Dims
	conv1, conv2 conv1d
	encPos       []float32 // (n_audio_ctx, n_audio_state)
	encBlocks    []block
	lnPost       layerNorm
	tokEmb       matrix    // (n_vocab, n_text_state)
	decPos       []float32 // (n_text_ctx, n_text_state)
	decBlocks    []block
	decLn        layerNorm
	filters      []float32  // the file's mel filters (n_mels, 201), or nil
	vocab        [][]byte   // the file's tokens, or nil
	posMem       []*offHeap // the owners of encPos's and decPos's memory
}

// block is a ResidualAttentionBlock (model.py):
//
//	x = x + attn(attn_ln(x))
//	x = x + cross_attn(cross_attn_ln(x), xa)     decoder only
//	x = x + mlp(mlp_ln(x)),  mlp = Linear(4n) → GELU → Linear(n)
type block struct {
	attnLn, crossLn, mlpLn layerNorm
	attn, cross            attnWeights
	mlp1, mlp2             linear
	hasCross               bool
}

// attnWeights are one MultiHeadAttention's projections (the key has no
// bias).
type attnWeights struct {
	query, key, value, out linear
}

// conv1d is nn.Conv1d with kernel 3, padding 1: w (out, in, 3) as a
// matrix (out, in·3), b (out).
type conv1d struct {
	w       matrix
	b       []float32
	in, out int
	stride  int
}

// Dims implements Network.
func (m *Model) Dims() Dims { return m.dims }

// tensorSource yields a checkpoint's tensors under openai/whisper's names,
// as float32 in PyTorch's row-major layout.
type tensorSource interface {
	// tensor returns the values and the shape of name, or an error naming
	// it when it is missing or unreadable.
	tensor(name string) ([]float32, []int, error)
}

// matrixSource is a tensorSource that can also give a 2-D weight in a
// compact form (matrix) without expanding it to float32 first; keepQuant
// asks it to keep quantized data as stored.
type matrixSource interface {
	tensorSource
	matrix(name string, keepQuant bool) (matrix, []int, error)
}

// newModel builds a Model of dims from src, checking every tensor's shape.
func newModel(d Dims, src tensorSource) (*Model, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	l := loader{src: src}
	m := &Model{dims: d}
	na, nt := d.NAudioState, d.NTextState
	m.conv1 = conv1d{w: newMatrix(l.get("encoder.conv1.weight", na, d.NMels, 3), na, 3*d.NMels), b: l.get("encoder.conv1.bias", na), in: d.NMels, out: na, stride: 1}
	m.conv2 = conv1d{w: newMatrix(l.get("encoder.conv2.weight", na, na, 3), na, 3*na), b: l.get("encoder.conv2.bias", na), in: na, out: na, stride: 2}
	m.encPos = m.offHeapCopy(exactSinusoids(l.get("encoder.positional_embedding", d.NAudioCtx, na), d.NAudioCtx, na))
	for i := range d.NAudioLayer {
		m.encBlocks = append(m.encBlocks, l.block(fmt.Sprintf("encoder.blocks.%d", i), na, false))
	}
	m.lnPost = l.norm("encoder.ln_post", na)
	m.tokEmb = l.matrix("decoder.token_embedding.weight", d.NVocab, nt, false)
	m.decPos = m.offHeapCopy(l.get("decoder.positional_embedding", d.NTextCtx, nt))
	for i := range d.NTextLayer {
		m.decBlocks = append(m.decBlocks, l.block(fmt.Sprintf("decoder.blocks.%d", i), nt, true))
	}
	m.decLn = l.norm("decoder.ln", nt)
	if l.err != nil {
		return nil, l.err
	}
	return m, nil
}

// loader reads tensors with a sticky error: after the first failure every
// get returns nil and the error is kept.
type loader struct {
	src tensorSource
	err error
}

// get returns name's values after checking its shape is want.
func (l *loader) get(name string, want ...int) []float32 {
	if l.err != nil {
		return nil
	}
	v, shape, err := l.src.tensor(name)
	if err != nil {
		l.err = err
		return nil
	}
	if !sameShape(shape, want) {
		l.err = fmt.Errorf("whisper: tensor %q has shape %v, want %v", name, shape, want)
		return nil
	}
	return v
}

func (l *loader) norm(prefix string, n int) layerNorm {
	return layerNorm{gamma: l.get(prefix+".weight", n), beta: l.get(prefix+".bias", n)}
}

// matrix returns the 2-D weight name (rows, cols) in its compact form
// (matrix): quantized data stays quantized when keepQuant (weights used
// only in products of many rows), else it is dequantized to float32.
func (l *loader) matrix(name string, rows, cols int, keepQuant bool) matrix {
	if l.err != nil {
		return matrix{}
	}
	ms, ok := l.src.(matrixSource)
	if !ok {
		return newMatrix(l.get(name, rows, cols), rows, cols)
	}
	w, shape, err := ms.matrix(name, keepQuant)
	if err != nil {
		l.err = err
		return matrix{}
	}
	if !sameShape(shape, []int{rows, cols}) {
		l.err = fmt.Errorf("whisper: tensor %q has shape %v, want %v", name, shape, []int{rows, cols})
		return matrix{}
	}
	w.rows, w.cols = rows, cols
	return w
}

// linear reads a Linear layer; keepQuant as for matrix.
func (l *loader) linear(prefix string, out, in int, bias, keepQuant bool) linear {
	lin := linear{w: l.matrix(prefix+".weight", out, in, keepQuant), in: in, out: out}
	if bias {
		lin.b = l.get(prefix+".bias", out)
	}
	return lin
}

func (l *loader) attn(prefix string, n int, keepQuant bool) attnWeights {
	return attnWeights{
		query: l.linear(prefix+".query", n, n, true, keepQuant),
		key:   l.linear(prefix+".key", n, n, false, keepQuant),
		value: l.linear(prefix+".value", n, n, true, keepQuant),
		out:   l.linear(prefix+".out", n, n, true, keepQuant),
	}
}

// block reads an encoder block (cross false) or a decoder block. An
// encoder's quantized weights stay quantized: its products have 1,500
// rows, so dequantizing each weight per product costs little. A decoder's
// stay quantized where ggml.MatVec multiplies one row by them in
// assembly (as fast as the blocks stream from memory), and are
// dequantized once otherwise: each decoding step multiplies one row by
// every weight, and dequantizing them in Go per step would cost more than
// the step.
func (l *loader) block(prefix string, n int, cross bool) block {
	keepQuant := !cross
	b := block{
		attnLn:   l.norm(prefix+".attn_ln", n),
		attn:     l.attn(prefix+".attn", n, keepQuant),
		mlpLn:    l.norm(prefix+".mlp_ln", n),
		mlp1:     l.linear(prefix+".mlp.0", 4*n, n, true, keepQuant),
		mlp2:     l.linear(prefix+".mlp.2", n, 4*n, true, keepQuant),
		hasCross: cross,
	}
	if cross {
		b.crossLn = l.norm(prefix+".cross_attn_ln", n)
		// The cross-attention's key and value weights multiply the
		// window's 1,500 audio rows once (cross.go), as the encoder's do:
		// they stay in the file's form.
		p := prefix + ".cross_attn"
		b.cross = attnWeights{
			query: l.linear(p+".query", n, n, true, keepQuant),
			key:   l.linear(p+".key", n, n, false, true),
			value: l.linear(p+".value", n, n, true, true),
			out:   l.linear(p+".out", n, n, true, keepQuant),
		}
	}
	return b
}

// sameShape reports whether got equals want, ignoring leading or trailing
// dimensions of size 1 that some converters add (whisper.cpp stores the
// convolution biases as (n, 1)).
func sameShape(got, want []int) bool {
	squeeze := func(s []int) []int {
		var out []int
		for _, v := range s {
			if v != 1 {
				out = append(out, v)
			}
		}
		return out
	}
	g, w := squeeze(got), squeeze(want)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] != w[i] {
			return false
		}
	}
	return true
}
