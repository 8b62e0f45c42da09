package whisper

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/ggml"
)

// fullLogitsNet hides its decoders' RowsForwarder and ProbsForwarder (and
// their batching), so that the decoding and word timing take every row's
// logits from Forward, as they did before those interfaces existed.
type fullLogitsNet struct{ Network }

func (n fullLogitsNet) NewDecoder(audio *AudioFeatures, record [][2]int) TextDecoder {
	return fullLogitsDecoder{n.Network.NewDecoder(audio, record)}
}

type fullLogitsDecoder struct{ TextDecoder }

func (d fullLogitsDecoder) Clone() TextDecoder { return fullLogitsDecoder{d.TextDecoder.Clone()} }
func (d fullLogitsDecoder) release()           { releaseDecoders([]TextDecoder{d.TextDecoder}) }

// TestTranscribeSkippedLogits runs transcribe() with word timestamps
// over two windows of 48 tokens at most (greedily, the second has text
// and is conditioned on the first's, so that its first pass is a prompt
// of which two rows are read), greedily in every weight type and with
// five beams in f16, on generated models of seeds and shapes the bundle
// does not have: through the decoder's ForwardRows and ForwardProbs, and
// through Forward alone (fullLogitsNet). The segments (tokens, text,
// times; random weights also make empty ones) must be the same, and the
// word probabilities, no-speech probabilities and average
// log-probabilities within 1e-5 relative (the kept rows' products round
// apart from a whole prompt's: the no-speech probability moves by about
// 1e-6). The bundle's shape runs always; the real tiny and base shapes
// with ATTEND_WHISPER_FULL=1.
func TestTranscribeSkippedLogits(t *testing.T) {
	shapes := []struct {
		name  string
		dims  Dims
		seed  uint64
		types []ggml.Type
		full  bool
	}{
		{"bundle-shape", bundleShape, 8128, append([]ggml.Type{ggml.F32, ggml.F16}, quantTypes...), false},
		{"tiny", tinyDims, 3301, []ggml.Type{ggml.F16, ggml.Q8_0, ggml.Q5_0}, true},
		{"base", baseDims, 1729, []ggml.Type{ggml.F16, ggml.Q4_1}, true},
	}
	for _, sh := range shapes {
		for _, typ := range sh.types {
			t.Run(fmt.Sprintf("%s/%v", sh.name, typ), func(t *testing.T) {
				if sh.full && os.Getenv("ATTEND_WHISPER_FULL") == "" {
					t.Skip("set ATTEND_WHISPER_FULL=1 for the tiny and base shapes")
				}
				m := generatedOfType(t, sh.dims, sh.seed, typ)
				tok, err := NewTokenizer(sh.dims)
				if err != nil {
					t.Fatal(err)
				}
				mel, frames := twoWindowMel(sh.dims, sh.seed)
				beams := []int{0}
				if typ == ggml.F16 {
					beams = append(beams, 5) // the search is the same for every weight type
				}
				for _, beam := range beams {
					opts := DefaultTranscribeOptions()
					opts.Decoding.Language = "en"
					opts.Decoding.BeamSize = beam
					opts.Temperatures = []float64{0}
					opts.Decoding.SampleLen = 48 // a random model never stops: 48 tokens a window, not 224
					opts.WordTimestamps = true
					got, err := Transcribe(m, TokenizerText(tok), mel, frames, opts, nil)
					if err != nil {
						t.Fatal(err)
					}
					want, err := Transcribe(fullLogitsNet{m}, TokenizerText(tok), mel, frames, opts, nil)
					if err != nil {
						t.Fatal(err)
					}
					if beam == 0 && !slices.ContainsFunc(want.Segments, func(s Segment) bool { return s.Seek > 0 && len(s.Tokens) > 0 }) {
						t.Fatalf("beam %d: no text in a second window, which would be conditioned on the first's", beam)
					}
					sameTranscription(t, fmt.Sprintf("beam %d", beam), got, want)
				}
			})
		}
	}
}

// generatedOfType returns the generated model of d and seed in typ: f32
// kept in float32 (the half kernels off while it loads), f16, or
// quantized as whisper.cpp's quantizer does.
func generatedOfType(t *testing.T, d Dims, seed uint64, typ ggml.Type) *Model {
	t.Helper()
	if typ != ggml.F32 {
		return generatedFile(t, d, seed, typ)
	}
	defer func(v bool) { useHalfAVX2 = v }(useHalfAVX2)
	useHalfAVX2 = false
	m, err := fromGGML(generateModel(d, seed).ggml(t, true), nil, "generated f32")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// twoWindowMel returns a log-mel of 45 s of random content and the
// 30-s padding transcribe() expects, and its frame count.
func twoWindowMel(d Dims, seed uint64) ([]float32, int) {
	const content = 4500
	frames := content + melWindowFrames
	a, b := randomMel(d, seed), randomMel(d, seed+1)
	mel := make([]float32, 0, d.NMels*frames)
	for row := range d.NMels {
		mel = append(mel, a[row*melWindowFrames:(row+1)*melWindowFrames]...)
		mel = append(mel, b[row*melWindowFrames:][:content-melWindowFrames]...)
		for range melWindowFrames {
			mel = append(mel, -1.5) // log-mel of silence after (x+4)/4
		}
	}
	return mel, frames
}

func sameTranscription(t *testing.T, name string, got, want *TranscribeResult) {
	t.Helper()
	if len(got.Segments) != len(want.Segments) {
		t.Fatalf("%s: %d segments, %d with every row's logits", name, len(got.Segments), len(want.Segments))
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(math.Abs(b), 1e-12) }
	words := 0
	for i, g := range got.Segments {
		w := want.Segments[i]
		if g.Seek != w.Seek || !slices.Equal(g.Tokens, w.Tokens) || g.Text != w.Text || g.Start != w.Start || g.End != w.End {
			t.Fatalf("%s: segment %d is seek %d %v–%v %q, with every row's logits seek %d %v–%v %q", name, i, g.Seek, g.Start, g.End, g.Text, w.Seek, w.Start, w.End, w.Text)
		}
		if !close(g.NoSpeechProb, w.NoSpeechProb) || !close(g.AvgLogprob, w.AvgLogprob) {
			t.Errorf("%s: segment %d: no-speech %v, avg logprob %v; with every row's logits %v, %v", name, i, g.NoSpeechProb, g.AvgLogprob, w.NoSpeechProb, w.AvgLogprob)
		}
		words += len(w.Words)
		if len(g.Words) != len(w.Words) {
			t.Fatalf("%s: segment %d has %d words, %d with every row's logits", name, i, len(g.Words), len(w.Words))
		}
		for j, gw := range g.Words {
			ww := w.Words[j]
			if gw.Word != ww.Word || gw.Start != ww.Start || gw.End != ww.End || !close(gw.Probability, ww.Probability) {
				t.Errorf("%s: segment %d word %d is %+v, with every row's logits %+v", name, i, j, gw, ww)
			}
		}
	}
	if words == 0 {
		t.Errorf("%s: no words timed: word timing was not checked", name)
	}
}
