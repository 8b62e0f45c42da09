package whisper

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/sgemm"
	"github.com/attend-go/attend/models/ggml"
)

// Where the time goes (CPU profiles of these benchmarks on one thread, tiny
// shapes: 4+4 layers, width 384, 6 heads; AMD EPYC, AVX2+FMA+F16C):
//
// Encoding one 30-second window, about 37 GFLOP:
//
//	45%  the blocks' linear layers (Q, K, V, out; MLP 384→1536→384), sgemm
//	40%  self-attention over 1,500 frames (attention.SDPA): 2×1500²×64
//	     per head; of it the softmax (assembly exponential) 5%, packing the
//	     64-row score blocks for the ·V_h product 9%
//	 8%  the two convolutions (im2col and one product each)
//	 4%  layer norms (float64 sums: kept, cheap beside the products)
//	 3%  GELU (assembly), 2% residual additions
//
// Before the assembly softmax and GELU, the scalar exponential was 35% and
// erf 15% of the encoder.
//
// One decoding step (one token, greedy), memory-bound: every weight is read
// once per token.
//
//	45%  the output layer, x·Eᵀ over the 51,864×384 token embedding (40 MB
//	     read in binary16 where exact, 13.7 MB in q5_0 blocks; 80 MB in
//	     float32 otherwise)
//	25%  the cross-attention (cross.go): its keys and values, 4.6 MB of
//	     float32 read per layer
//	25%  the decoder layers' other one-row products (18 MB of binary16)
func BenchmarkEncodeTiny(b *testing.B) { benchmarkEncode(b, tinyDims, 0) }
func BenchmarkEncodeBase(b *testing.B) { benchmarkEncode(b, baseDims, 0) }

// BenchmarkEncodeTinyCtx256 and …Ctx512 encode a reduced audio context
// (TranscribeOptions.AudioCtx; 256 positions, 5.12 s, is what a live
// partial of an utterance up to 4.1 s encodes, 512 one up to 9.2 s).
func BenchmarkEncodeTinyCtx256(b *testing.B) { benchmarkEncode(b, tinyDims, 256) }
func BenchmarkEncodeTinyCtx512(b *testing.B) { benchmarkEncode(b, tinyDims, 512) }
func BenchmarkEncodeBaseCtx256(b *testing.B) { benchmarkEncode(b, baseDims, 256) }

func BenchmarkDecodeTokenTiny(b *testing.B) { benchmarkDecodeToken(b, tinyDims, ggml.F16) }
func BenchmarkDecodeTokenBase(b *testing.B) { benchmarkDecodeToken(b, baseDims, ggml.F16) }

// BenchmarkDecodeTokenTinyQ8_0 and …Q5_0 decode from the model quantized
// as whisper.cpp's quantize tool does it (every 2-D weight but the
// positional embeddings): its decoder weights and token embedding stay
// quantized where ggml.MatVec has the assembly kernels.
func BenchmarkDecodeTokenTinyQ8_0(b *testing.B) { benchmarkDecodeToken(b, tinyDims, ggml.Q8_0) }
func BenchmarkDecodeTokenTinyQ5_0(b *testing.B) { benchmarkDecodeToken(b, tinyDims, ggml.Q5_0) }

// benchModel builds a random model of d and one window of random log-mel.
func benchModel(b *testing.B, d Dims) (*Model, []float32) {
	b.Helper()
	m, err := newModel(d, randomTensors(d, 7))
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	mel := make([]float32, d.NMels*2*d.NAudioCtx)
	for i := range mel {
		mel[i] = float32(r.NormFloat64() * 0.5)
	}
	runtime.GC()
	return m, mel
}

// reportCPU adds the process's CPU time per iteration since start as the
// metric cpu-ms/op (with more than one thread it can exceed ns/op).
func reportCPU(b *testing.B, start time.Duration) {
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// benchmarkEncode times the encoder on one 30-second window, or with ctx
// above 0 on that audio context's first 2·ctx mel frames.
func benchmarkEncode(b *testing.B, d Dims, ctx int) {
	m, mel := benchModel(b, d)
	if ctx > 0 {
		short := make([]float32, 0, d.NMels*2*ctx)
		for row := range d.NMels {
			short = append(short, mel[row*2*d.NAudioCtx:][:2*ctx]...)
		}
		mel = short
	}
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	b.ResetTimer()
	for range b.N {
		if _, err := m.Encode(mel); err != nil {
			b.Fatal(err)
		}
	}
}

// benchQuantModel builds a random model of d quantized to typ and one
// window of random log-mel.
func benchQuantModel(b *testing.B, d Dims, typ ggml.Type) (*Model, []float32) {
	b.Helper()
	f, err := ggml.QuantizeFile(generateModel(d, 7).ggml(b, false), typ)
	if err != nil {
		b.Fatal(err)
	}
	m, err := fromGGML(f, nil, "benchmark")
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	return m, randomMel(d, 2)
}

// benchmarkDecodeToken times one decoding step (one token in, its logits
// out) at positions 4…, the steady state of greedy decoding, including
// the cross-attention over 1,500 frames and the 51,864-way output layer,
// with the weights in typ (F16: random weights exact in half precision).
func benchmarkDecodeToken(b *testing.B, d Dims, typ ggml.Type) { benchmarkDecodeStep(b, d, typ, 1) }

// BenchmarkBeam5StepTiny and …Q5_0 time one step of five sequences (beam
// search's -beam 5, best-of sampling's five), stepped together as the
// decoding loop steps them (forwardEach). ns/op is per step of all five:
// whisper.cpp's "batchd" figure is per token, a fifth of its step.
func BenchmarkBeam5StepTiny(b *testing.B)     { benchmarkDecodeStep(b, tinyDims, ggml.F16, 5) }
func BenchmarkBeam5StepTinyQ5_0(b *testing.B) { benchmarkDecodeStep(b, tinyDims, ggml.Q5_0, 5) }
func BenchmarkBeam5StepTinyQ8_0(b *testing.B) { benchmarkDecodeStep(b, tinyDims, ggml.Q8_0, 5) }

// benchmarkDecodeStep times steps of seqs sequences (clones of one
// decoder after the start-of-transcript prompt) stepped together, each
// fed its own token, restarting from the prompt every benchContext steps.
func benchmarkDecodeStep(b *testing.B, d Dims, typ ggml.Type, seqs int) {
	var m *Model
	var mel []float32
	if typ == ggml.F16 {
		m, mel = benchModel(b, d)
	} else {
		m, mel = benchQuantModel(b, d, typ)
	}
	enc, err := m.Encode(mel)
	if err != nil {
		b.Fatal(err)
	}
	start := m.NewDecoder(enc, nil)
	if _, err := start.Forward([]int{50257, 50362}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	b.ResetTimer()
	decs := make([]TextDecoder, seqs)
	tokens := make([]int, seqs)
	for i := range b.N {
		if i%benchContext == 0 {
			b.StopTimer()
			for k := range decs {
				decs[k] = start.Clone()
			}
			b.StartTimer()
		}
		for k := range tokens {
			tokens[k] = 1000 + 37*k + i%benchContext
		}
		if _, err := forwardEach(decs, tokens); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogitsFloat32 and BenchmarkLogitsHalf time the decoding step's
// output layer alone, x (384)·Eᵀ with E the 51,864×384 token embedding, in
// float32 (sgemm's streaming gemv) and from its binary16 copy: a test of
// memory bandwidth, 80 MB or 40 MB read per call.
func BenchmarkLogitsFloat32(b *testing.B) { benchmarkLogits(b, false) }
func BenchmarkLogitsHalf(b *testing.B)    { benchmarkLogits(b, true) }

func benchmarkLogits(b *testing.B, half bool) {
	const vocab, n = 51864, 384
	r := rand.New(rand.NewPCG(3, 3))
	e := make([]float32, vocab*n)
	for i := range e {
		e[i] = roundHalf(float32(r.NormFloat64() * 0.05))
	}
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	y := make([]float32, vocab)
	var h []uint16
	if half {
		if h = halfExact(e); h == nil || !useHalfAVX2 {
			b.Skip("no half-precision kernel")
		}
		e = nil
	}
	runtime.GC()
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	b.ResetTimer()
	for range b.N {
		if half {
			halfMatVec(y, x, h, vocab, n)
		} else {
			sgemm.Gemm(false, true, 1, vocab, n, 1, x, n, e, n, 0, y, vocab)
		}
	}
}

// benchContext is how many steps benchmarkDecodeStep decodes before it
// starts again from the prompt (ATTEND_BENCH_CONTEXT, default 200; the
// self-attention cache grows with them, as in whisper-bench's 256
// one-token calls).
var benchContext = func() int {
	if n, err := strconv.Atoi(os.Getenv("ATTEND_BENCH_CONTEXT")); err == nil && n > 0 {
		return n
	}
	return 200
}()

// BenchmarkPromptBase times a window's first decoder pass when it is
// conditioned on the previous text: 224 tokens of it, <|startoftranscript|>
// and <|notimestamps|> (226 rows, base's shape, f16). "two rows" gives
// logits to the rows the decoding reads (the start of transcript's and
// the last), as decodingTask.mainLoop asks; "every row" to all 226, as
// Forward does (and the decoding did before).
func BenchmarkPromptBase(b *testing.B) {
	m, mel := benchModel(b, baseDims)
	enc, err := m.Encode(mel)
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Release()
	prompt := make([]int, 0, 226)
	for i := range 224 {
		prompt = append(prompt, 400+7*i)
	}
	prompt = append(prompt, 50257, 50362)
	for _, tc := range []struct {
		name string
		keep []int
	}{{"two rows", []int{224, 225}}, {"every row", allRows(len(prompt))}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b, processCPU())
			for range b.N {
				d := m.NewDecoder(enc, nil)
				if _, err := forwardRows(d, prompt, tc.keep); err != nil {
					b.Fatal(err)
				}
				releaseDecoders([]TextDecoder{d})
			}
		})
	}
}
