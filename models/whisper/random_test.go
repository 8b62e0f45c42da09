package whisper

import (
	"fmt"
	"math/rand/v2"
)

// mapSource is a tensorSource over tensors in memory.
type mapSource map[string]struct {
	v     []float32
	shape []int
}

func (s mapSource) tensor(name string) ([]float32, []int, error) {
	t, ok := s[name]
	if !ok {
		return nil, nil, fmt.Errorf("no tensor %q", name)
	}
	return t.v, t.shape, nil
}

// randomTensors draws every tensor of a model of dims from a seeded
// normal distribution scaled by 1/√fan-in (layer norms near 1), rounded
// to half precision as the bundle's random models (and OpenAI's float16
// checkpoints) are.
func randomTensors(d Dims, seed uint64) mapSource {
	r := rand.New(rand.NewPCG(seed, 0))
	src := mapSource{}
	add := func(name string, scale float64, offset float32, shape ...int) {
		n := 1
		for _, s := range shape {
			n *= s
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = roundHalf(offset + float32(r.NormFloat64()*scale))
		}
		src[name] = struct {
			v     []float32
			shape []int
		}{v, shape}
	}
	na, nt := d.NAudioState, d.NTextState
	add("encoder.conv1.weight", 0.2, 0, na, d.NMels, 3)
	add("encoder.conv1.bias", 0.02, 0, na)
	add("encoder.conv2.weight", 0.05, 0, na, na, 3)
	add("encoder.conv2.bias", 0.02, 0, na)
	src["encoder.positional_embedding"] = struct {
		v     []float32
		shape []int
	}{sinusoids(d.NAudioCtx, na), []int{d.NAudioCtx, na}}
	block := func(prefix string, n int, cross bool) {
		attn := func(p string) {
			s := 1 / float64(n)
			add(p+".query.weight", s, 0, n, n)
			add(p+".query.bias", 0.02, 0, n)
			add(p+".key.weight", s, 0, n, n)
			add(p+".value.weight", s, 0, n, n)
			add(p+".value.bias", 0.02, 0, n)
			add(p+".out.weight", s, 0, n, n)
			add(p+".out.bias", 0.02, 0, n)
		}
		norm := func(p string) {
			add(p+".weight", 0.1, 1, n)
			add(p+".bias", 0.1, 0, n)
		}
		norm(prefix + ".attn_ln")
		attn(prefix + ".attn")
		if cross {
			norm(prefix + ".cross_attn_ln")
			attn(prefix + ".cross_attn")
		}
		norm(prefix + ".mlp_ln")
		add(prefix+".mlp.0.weight", 1/float64(n), 0, 4*n, n)
		add(prefix+".mlp.0.bias", 0.02, 0, 4*n)
		add(prefix+".mlp.2.weight", 0.5/float64(n), 0, n, 4*n)
		add(prefix+".mlp.2.bias", 0.02, 0, n)
	}
	for i := range d.NAudioLayer {
		block(fmt.Sprintf("encoder.blocks.%d", i), na, false)
	}
	add("encoder.ln_post.weight", 0.1, 1, na)
	add("encoder.ln_post.bias", 0.1, 0, na)
	add("decoder.token_embedding.weight", 0.05, 0, d.NVocab, nt)
	add("decoder.positional_embedding", 0.01, 0, d.NTextCtx, nt)
	for i := range d.NTextLayer {
		block(fmt.Sprintf("decoder.blocks.%d", i), nt, true)
	}
	add("decoder.ln.weight", 0.1, 1, nt)
	add("decoder.ln.bias", 0.1, 0, nt)
	return src
}

// tinyDims are the shapes of OpenAI's tiny.en model.
var tinyDims = Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 384, NAudioHead: 6, NAudioLayer: 4,
	NVocab: 51864, NTextCtx: 448, NTextState: 384, NTextHead: 6, NTextLayer: 4}

// baseDims are the shapes of OpenAI's base.en model.
var baseDims = Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 512, NAudioHead: 8, NAudioLayer: 6,
	NVocab: 51864, NTextCtx: 448, NTextState: 512, NTextHead: 8, NTextLayer: 6}
