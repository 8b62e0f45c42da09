package whisper

import (
	"fmt"
	"math"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// bundleShape are the dimensions of the bundle's small-en model (2+2
// layers, width 64, 4 heads, English-only).
var bundleShape = Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 64, NAudioHead: 4, NAudioLayer: 2,
	NVocab: 51864, NTextCtx: 448, NTextState: 64, NTextHead: 4, NTextLayer: 2}

// generatedShapes are the models the format tests generate: the bundle's
// shape with a seed the bundle did not use, and the real tiny and base
// shapes (slow: skipped with -short), each with the quantizations it is
// written in (base with two of them: each costs two base-sized windows).
var generatedShapes = []struct {
	name   string
	dims   Dims
	seed   uint64
	slow   bool
	quants []ggml.Type
}{
	{"bundle-shape", bundleShape, 20261129, false, quantTypes},
	{"tiny", tinyDims, 4242, true, quantTypes},
	{"base", baseDims, 515, true, []ggml.Type{ggml.Q5_0, ggml.Q4_1}},
}

// formatRun is what one loaded file computes: the encoder's output on a
// window and the logits of a fixed token sequence.
type formatRun struct {
	enc    []float32
	logits [][]float32
}

// runFormat loads path with Load and runs it on mel and tokens.
func runFormat(t *testing.T, path string, want Dims, mel []float32, tokens []int) formatRun {
	t.Helper()
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dims() != want {
		t.Fatalf("loaded dims %+v, want %+v", m.Dims(), want)
	}
	return runModel(t, m, mel, tokens)
}

func runModel(t *testing.T, m *Model, mel []float32, tokens []int) formatRun {
	t.Helper()
	enc, err := m.Encode(mel)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := m.NewDecoder(enc, nil).Forward(tokens)
	if err != nil {
		t.Fatal(err)
	}
	run := formatRun{enc: enc.Data}
	for _, r := range rows {
		run.logits = append(run.logits, append([]float32(nil), r...))
	}
	return run
}

// firstBitDifference returns "" when a and b are bit for bit equal, else
// where they first differ.
func firstBitDifference(a, b formatRun) string {
	for i := range b.enc {
		if math.Float32bits(a.enc[i]) != math.Float32bits(b.enc[i]) {
			return fmt.Sprintf("encoder output %d: %g != %g", i, a.enc[i], b.enc[i])
		}
	}
	for p := range b.logits {
		for i := range b.logits[p] {
			if math.Float32bits(a.logits[p][i]) != math.Float32bits(b.logits[p][i]) {
				return fmt.Sprintf("logit %d at position %d: %g != %g", i, p, a.logits[p][i], b.logits[p][i])
			}
		}
	}
	return ""
}

// greedyTokens returns the start-of-transcript sequence with
// <|notimestamps|> followed by n tokens picked greedily (raw argmax) by
// m on mel: the token sequence every format is then run on.
func greedyTokens(t *testing.T, m *Model, mel []float32, n int) []int {
	t.Helper()
	tok, err := NewTokenizer(m.Dims())
	if err != nil {
		t.Fatal(err)
	}
	seq, err := tok.SOTSequenceIncludingNoTimestamps("en", "transcribe")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.Encode(mel)
	if err != nil {
		t.Fatal(err)
	}
	dec := m.NewDecoder(enc, nil)
	next := seq
	for range n {
		rows, err := dec.Forward(next)
		if err != nil {
			t.Fatal(err)
		}
		best := argmax(rows[len(rows)-1])
		seq = append(seq, best)
		next = []int{best}
	}
	return seq
}

// TestGeneratedFormatsAgree generates random models of other seeds and
// shapes than the bundle's and writes each in every format users have.
// Every file must load with Load and report the model's dims; the ggml
// f16, Hugging Face (F16) and openai/whisper-named (F32) files, and the
// model built from the generated tensors directly, must compute bit for
// bit the same encoder output and logits (they hold the same numbers);
// each quantized file must compute bit for bit what the f32 file of its
// dequantized weights computes (the same float model, reached through the
// f32 path of the same loader), and must differ from the float model
// (the quantization was applied). Only the bundle's shape runs with
// -short.
func TestGeneratedFormatsAgree(t *testing.T) {
	for _, sc := range generatedShapes {
		t.Run(sc.name, func(t *testing.T) {
			if sc.slow && testing.Short() {
				t.Skipf("%s-shaped model: encodes %d windows", sc.name, 5+2*len(sc.quants))
			}
			g := generateModel(sc.dims, sc.seed)
			fs := g.writeAll(t, sc.quants)
			mel := randomMel(sc.dims, sc.seed)
			direct := g.model(t)
			tokens := greedyTokens(t, direct, mel, 4)
			want := runModel(t, direct, mel, tokens)
			t.Logf("tokens %v", tokens)
			for _, f := range []struct{ name, path string }{
				{"ggml-f16", fs.ggmlF16}, {"hf-safetensors", fs.hf}, {"openai-safetensors", fs.openai},
			} {
				if diff := firstBitDifference(runFormat(t, f.path, sc.dims, mel, tokens), want); diff != "" {
					t.Errorf("%s differs from the generated model: %s", f.name, diff)
				}
			}
			for _, typ := range sc.quants {
				if f, err := ggml.ReadFile(fs.quant[typ.String()]); err != nil {
					t.Fatal(err)
				} else if w := f.Lookup("encoder.blocks.0.attn.query.weight"); w == nil || w.Type != typ {
					t.Fatalf("the %v file's query weight is not %v", typ, typ)
				}
				q := runFormat(t, fs.quant[typ.String()], sc.dims, mel, tokens)
				dq := runFormat(t, fs.dequant[typ.String()], sc.dims, mel, tokens)
				if diff := firstBitDifference(q, dq); diff != "" {
					t.Errorf("%v differs from its dequantized weights in f32: %s", typ, diff)
				}
				moved := relMaxDiff(q.enc, want.enc)
				if moved == 0 {
					t.Errorf("%v computes exactly what the float model does: not quantized", typ)
				}
				t.Logf("%v: bit-identical to its dequantized f32 file; encoder %.3g of its scale from the float model's", typ, moved)
			}
		})
	}
}
