package whisper

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/ggml"
	"github.com/attend-go/attend/models/safetensors"
)

// generatedModel is a random Whisper checkpoint made in a test, the way
// the shared bundle's random models were made, so that parity can be
// checked on seeds and shapes the bundle does not have. Its tensors carry
// openai/whisper's names (model.py), in state-dict order.
type generatedModel struct {
	dims    Dims
	names   []string // state-dict order, as whisper.cpp's converter writes them
	tensors mapSource
}

// generateModel draws a model of d from seed. As in the bundle, every
// weight matrix and convolution kernel is N(0, 3/√fan-in) (the bundle's
// 2+2-layer width-64 model has standard deviation 0.375 for q/k/v/out and
// mlp.0, 0.19 for mlp.2 and conv1), biases N(0, 0.05), layer-norm gains
// 1 + N(0, 0.1) and shifts N(0, 0.05), the token and decoder positional
// embeddings N(0, 0.3); all of them rounded to float16 so that every
// float format holds the same numbers. The encoder's positional embedding
// is model.py's float32 sinusoids table, unrounded.
func generateModel(d Dims, seed uint64) *generatedModel {
	r := rand.New(rand.NewPCG(seed, 0x5768697370)) // "Whisp"
	g := &generatedModel{dims: d, tensors: mapSource{}}
	put := func(name string, v []float32, shape ...int) {
		g.names = append(g.names, name)
		g.tensors[name] = struct {
			v     []float32
			shape []int
		}{v, shape}
	}
	draw := func(name string, std float64, offset float32, shape ...int) {
		n := 1
		for _, s := range shape {
			n *= s
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = roundHalf(offset + float32(r.NormFloat64()*std))
		}
		put(name, v, shape...)
	}
	weight := func(name string, shape ...int) {
		fanIn := 1
		for _, s := range shape[1:] {
			fanIn *= s
		}
		draw(name, 3/math.Sqrt(float64(fanIn)), 0, shape...)
	}
	norm := func(p string, n int) {
		draw(p+".weight", 0.1, 1, n)
		draw(p+".bias", 0.05, 0, n)
	}
	attn := func(p string, n int) {
		weight(p+".query.weight", n, n)
		draw(p+".query.bias", 0.05, 0, n)
		weight(p+".key.weight", n, n)
		weight(p+".value.weight", n, n)
		draw(p+".value.bias", 0.05, 0, n)
		weight(p+".out.weight", n, n)
		draw(p+".out.bias", 0.05, 0, n)
	}
	block := func(p string, n int, cross bool) {
		attn(p+".attn", n)
		norm(p+".attn_ln", n)
		if cross {
			attn(p+".cross_attn", n)
			norm(p+".cross_attn_ln", n)
		}
		weight(p+".mlp.0.weight", 4*n, n)
		draw(p+".mlp.0.bias", 0.05, 0, 4*n)
		weight(p+".mlp.2.weight", n, 4*n)
		draw(p+".mlp.2.bias", 0.05, 0, n)
		norm(p+".mlp_ln", n)
	}
	na, nt := d.NAudioState, d.NTextState
	put("encoder.positional_embedding", sinusoids(d.NAudioCtx, na), d.NAudioCtx, na)
	weight("encoder.conv1.weight", na, d.NMels, 3)
	draw("encoder.conv1.bias", 0.05, 0, na)
	weight("encoder.conv2.weight", na, na, 3)
	draw("encoder.conv2.bias", 0.05, 0, na)
	for i := range d.NAudioLayer {
		block(fmt.Sprintf("encoder.blocks.%d", i), na, false)
	}
	norm("encoder.ln_post", na)
	draw("decoder.positional_embedding", 0.3, 0, d.NTextCtx, nt)
	draw("decoder.token_embedding.weight", 0.3, 0, d.NVocab, nt)
	for i := range d.NTextLayer {
		block(fmt.Sprintf("decoder.blocks.%d", i), nt, true)
	}
	norm("decoder.ln", nt)
	return g
}

// model builds the network from the generated tensors directly.
func (g *generatedModel) model(t testing.TB) *Model {
	t.Helper()
	m, err := newModel(g.dims, g.tensors)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ggmlF32Tensors are the tensors whisper.cpp's convert-pt-to-ggml.py
// keeps in f32 in an f16 file besides the 1-D ones.
var ggmlF32Tensors = map[string]bool{
	"encoder.conv1.bias": true, "encoder.conv2.bias": true,
	"encoder.positional_embedding": true, "decoder.positional_embedding": true,
}

// ggml returns the model as whisper.cpp's convert-pt-to-ggml.py writes
// it with ftype 1 (f16), or 0 (f32) when f32 is set: hyper-parameters,
// the standard mel filters, the bundled vocabulary's tokens, then every
// tensor in state-dict order, the convolution biases reshaped to (n, 1);
// in an f16 file, tensors of two or more dimensions are f16 except those
// of ggmlF32Tensors.
func (g *generatedModel) ggml(t testing.TB, f32 bool) *ggml.File {
	t.Helper()
	d := g.dims
	filters, err := audio.WhisperMelFilters(d.NMels)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := NewTokenizer(d)
	if err != nil {
		t.Fatal(err)
	}
	vocab := make([][]byte, tok.EOT)
	for i := range vocab {
		vocab[i] = tok.TokenBytes(i)
	}
	f := &ggml.File{
		Hyper: ggml.Hyper{NVocab: d.NVocab, NAudioCtx: d.NAudioCtx, NAudioState: d.NAudioState, NAudioHead: d.NAudioHead,
			NAudioLayer: d.NAudioLayer, NTextCtx: d.NTextCtx, NTextState: d.NTextState, NTextHead: d.NTextHead,
			NTextLayer: d.NTextLayer, NMels: d.NMels, FType: int(ggml.FileF16)},
		Filters: ggml.MelFilters{NMel: d.NMels, NFFT: melBins, Data: filters},
		Vocab:   vocab,
	}
	if f32 {
		f.Hyper.FType = int(ggml.FileF32)
	}
	for _, name := range g.names {
		src := g.tensors[name]
		shape := src.shape
		if name == "encoder.conv1.bias" || name == "encoder.conv2.bias" {
			shape = []int{shape[0], 1}
		}
		ne := make([]int, len(shape)) // ggml's order, fastest first
		for i, s := range shape {
			ne[len(ne)-1-i] = s
		}
		typ := ggml.F32
		if !f32 && len(shape) >= 2 && !ggmlF32Tensors[name] {
			typ = ggml.F16
		}
		tn, err := ggml.NewTensor(name, typ, ne, src.v)
		if err != nil {
			t.Fatal(err)
		}
		f.Tensors = append(f.Tensors, tn)
	}
	return f
}

// dequantized returns a float32 copy of a quantized ggml file: the same
// header and tensors, each tensor replaced by its dequantized values in
// f32. Loading it gives the float model that the quantized file stands
// for.
func dequantized(t testing.TB, q *ggml.File) *ggml.File {
	t.Helper()
	f := &ggml.File{Hyper: q.Hyper, Filters: q.Filters, Vocab: q.Vocab}
	f.Hyper.FType = int(ggml.FileF32)
	for i := range q.Tensors {
		v, err := q.Tensors[i].Float32s()
		if err != nil {
			t.Fatal(err)
		}
		tn, err := ggml.NewTensor(q.Tensors[i].Name, ggml.F32, q.Tensors[i].Shape, v)
		if err != nil {
			t.Fatal(err)
		}
		f.Tensors = append(f.Tensors, tn)
	}
	return f
}

// hfName returns Hugging Face transformers' name
// (WhisperForConditionalGeneration's state dict) of an openai/whisper
// tensor name.
func hfName(name string) string {
	whole := map[string]string{
		"encoder.positional_embedding":   "encoder.embed_positions.weight",
		"encoder.ln_post.weight":         "encoder.layer_norm.weight",
		"encoder.ln_post.bias":           "encoder.layer_norm.bias",
		"decoder.positional_embedding":   "decoder.embed_positions.weight",
		"decoder.token_embedding.weight": "decoder.embed_tokens.weight",
		"decoder.ln.weight":              "decoder.layer_norm.weight",
		"decoder.ln.bias":                "decoder.layer_norm.bias",
	}
	if hf, ok := whole[name]; ok {
		return "model." + hf
	}
	s := name
	for _, r := range [][2]string{
		{".blocks.", ".layers."},
		{".cross_attn_ln.", ".encoder_attn_layer_norm."}, {".cross_attn.", ".encoder_attn."},
		{".attn_ln.", ".self_attn_layer_norm."}, {".attn.", ".self_attn."},
		{".mlp_ln.", ".final_layer_norm."}, {".mlp.0.", ".fc1."}, {".mlp.2.", ".fc2."},
		{".query.", ".q_proj."}, {".key.", ".k_proj."}, {".value.", ".v_proj."}, {".out.", ".out_proj."},
	} {
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return "model." + s
}

// safetensorsFile returns the model as a safetensors file of dtype, with
// Hugging Face's names when hf is set, else openai/whisper's; with dims
// set, __metadata__ holds "whisper_dims" (as the bundle's files do),
// else the loader must infer them from the shapes.
func (g *generatedModel) safetensorsFile(hf, dims bool) *safetensors.File {
	f := &safetensors.File{Kind: "whisper-test"}
	if dims {
		js, _ := json.Marshal(g.dims)
		f.Extra = map[string]string{"whisper_dims": string(js)}
	}
	for _, name := range g.names {
		src := g.tensors[name]
		n := name
		if hf {
			n = hfName(name)
		}
		f.Tensors = append(f.Tensors, safetensors.Tensor{Name: n, Shape: src.shape, Data: src.v})
	}
	return f
}

// generatedFiles are a generated model written in every format.
type generatedFiles struct {
	ggmlF16 string
	hf      string            // transformers' names, F16
	openai  string            // openai/whisper's names, F32
	quant   map[string]string // ggml type name → quantized file
	dequant map[string]string // ggml type name → f32 file of its dequantized weights
	f16     *ggml.File
}

// quantTypes are the block types whisper.cpp's quantizer writes.
var quantTypes = []ggml.Type{ggml.Q8_0, ggml.Q5_0, ggml.Q5_1, ggml.Q4_0, ggml.Q4_1}

// writeAll writes g in every format into a temporary directory: ggml f16,
// its quantization to each of types (ggml.QuantizeFile) with the f32 file
// of its dequantized weights, Hugging Face safetensors (F16; whisper_dims in the
// metadata only when the heads are not width/64, so that the loader's
// inference is exercised on released shapes) and openai/whisper's names
// (F32, whisper_dims).
func (g *generatedModel) writeAll(t testing.TB, types []ggml.Type) generatedFiles {
	t.Helper()
	dir := t.TempDir()
	fs := generatedFiles{quant: map[string]string{}, dequant: map[string]string{},
		ggmlF16: filepath.Join(dir, "ggml-f16.bin"), hf: filepath.Join(dir, "hf.safetensors"),
		openai: filepath.Join(dir, "openai.safetensors")}
	fs.f16 = g.ggml(t, false)
	if err := ggml.WriteFile(fs.ggmlF16, fs.f16); err != nil {
		t.Fatal(err)
	}
	released := g.dims.NAudioHead == g.dims.NAudioState/64 && g.dims.NTextHead == g.dims.NTextState/64
	if err := safetensors.WriteFile(fs.hf, g.safetensorsFile(true, !released), safetensors.F16); err != nil {
		t.Fatal(err)
	}
	if err := safetensors.WriteFile(fs.openai, g.safetensorsFile(false, true), safetensors.F32); err != nil {
		t.Fatal(err)
	}
	for _, typ := range types {
		q, err := ggml.QuantizeFile(fs.f16, typ)
		if err != nil {
			t.Fatal(err)
		}
		fs.quant[typ.String()] = filepath.Join(dir, "ggml-"+typ.String()+".bin")
		fs.dequant[typ.String()] = filepath.Join(dir, "ggml-"+typ.String()+"-dequantized.bin")
		if err := ggml.WriteFile(fs.quant[typ.String()], q); err != nil {
			t.Fatal(err)
		}
		if err := ggml.WriteFile(fs.dequant[typ.String()], dequantized(t, q)); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

// randomMel returns one window (d.NMels × 3000) of log-mel-like values
// drawn from seed: N(0, 0.5), the range of Whisper's normalized log-mel.
func randomMel(d Dims, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 3))
	mel := make([]float32, d.NMels*2*d.NAudioCtx)
	for i := range mel {
		mel[i] = float32(r.NormFloat64() * 0.5)
	}
	return mel
}
