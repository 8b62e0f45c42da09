package whisper_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/whisper"
)

// TestTranscribeParity runs the whole of transcribe() — our front end
// (audio.WhisperMel), the seek loop over 30-second windows, segment
// cutting, conditioning on previous text and word timestamps — on the
// bundle's clips with the f16 models, and compares every segment with
// openai/whisper's: seek, tokens, text, start/end, avg_logprob and
// no_speech_prob (1e-3), compression ratio (exactly) and each word's text,
// start/end (exactly, after rounding to 10 ms) and probability (1e-3).
// harvard36 takes two windows and a seek to the last timestamp.
//
// The quantized files are not run here: on them our encoder is 1.3e-3 of
// its scale off the reference (ten times the f16 figure), which moves
// logits by more than the near-tie margin. Their decoding is compared from
// the reference's own encoder output in TestDecodeParity.
func TestTranscribeParity(t *testing.T) {
	if testing.Short() {
		t.Skip("transcribes two clips with real-vocabulary models")
	}
	for _, tc := range []struct{ model, file string }{
		{"small-en", "small-en.ggml-f16.bin"},
		{"small-v3", "small-v3.ggml-f16.bin"},
	} {
		dir := shareddata.Path(t, "whisper")
		m, err := whisper.Load(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := whisper.NewTokenizer(m.Dims())
		if err != nil {
			t.Fatal(err)
		}
		filters, err := audio.WhisperMelFilters(m.Dims().NMels)
		if err != nil {
			t.Fatal(err)
		}
		front, err := audio.NewWhisperMel(filters, m.Dims().NMels)
		if err != nil {
			t.Fatal(err)
		}
		var ref struct {
			Clips map[string]map[string]json.RawMessage `json:"clips"`
		}
		data, err := os.ReadFile(filepath.Join(dir, tc.model+".reference.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatal(err)
		}
		for _, clip := range []string{"jfk", "harvard36"} {
			t.Run(tc.file+"/"+clip, func(t *testing.T) {
				var kind struct {
					Transcribe struct {
						Text     string            `json:"text"`
						Segments []whisper.Segment `json:"segments"`
					} `json:"transcribe"`
				}
				if err := json.Unmarshal(ref.Clips[clip]["f16"], &kind); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(filepath.Join(dir, "clips", clip+".wav"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				sig, err := audio.Decode(f)
				if err != nil {
					t.Fatal(err)
				}
				if sig.Rate != 16000 || sig.Channels != 1 {
					t.Fatalf("%s is %d Hz, %d channels; the reference read it as 16 kHz mono", clip, sig.Rate, sig.Channels)
				}
				spec, err := front.Spectrogram(sig.Samples, audio.WhisperWindowSamples)
				if err != nil {
					t.Fatal(err)
				}
				opts := whisper.DefaultTranscribeOptions()
				opts.Decoding.Language = "en"
				opts.Temperatures = []float64{0} // transcribe(temperature=0.0)
				opts.WordTimestamps = true
				res, err := whisper.Transcribe(m, whisper.TokenizerText(tok), spec.Data, spec.Frames, opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				compareSegments(t, res.Segments, kind.Transcribe.Segments)
				if res.Text != kind.Transcribe.Text {
					t.Errorf("text %q, reference %q", res.Text, kind.Transcribe.Text)
				}
			})
		}
	}
}

func compareSegments(t *testing.T, got, want []whisper.Segment) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d segments, reference %d", len(got), len(want))
	}
	words := 0
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.Seek != w.Seek || !slices.Equal(g.Tokens, w.Tokens) || g.Text != w.Text {
			t.Fatalf("segment %d: seek %d tokens %v text %q; reference seek %d tokens %v text %q", i, g.Seek, g.Tokens, g.Text, w.Seek, w.Tokens, w.Text)
		}
		if g.Start != w.Start || g.End != w.End {
			t.Errorf("segment %d: %v–%v, reference %v–%v", i, g.Start, g.End, w.Start, w.End)
		}
		// avg_logprob and the compression ratio are the whole window's
		// decoding's, including the tokens after its last timestamp that
		// transcribe() drops and the reference does not list. In the
		// last window, a near tie among those (harvard36's second window
		// flips on the last bits of the attention softmax's exponential)
		// moves them while every segment stays the same; there they are
		// compared at 1e-2 (logprob) and 1 % (ratio).
		logprobTol, ratioTol := 1e-3, 0.0
		if w.Seek == want[len(want)-1].Seek {
			logprobTol, ratioTol = 1e-2, 0.01*w.CompressionRatio
		}
		if math.Abs(g.AvgLogprob-w.AvgLogprob) > logprobTol || math.Abs(g.NoSpeechProb-w.NoSpeechProb) > 1e-3 {
			t.Errorf("segment %d: avg_logprob %v no_speech_prob %v; reference %v %v", i, g.AvgLogprob, g.NoSpeechProb, w.AvgLogprob, w.NoSpeechProb)
		}
		if math.Abs(g.CompressionRatio-w.CompressionRatio) > ratioTol {
			t.Errorf("segment %d: compression ratio %v, reference %v", i, g.CompressionRatio, w.CompressionRatio)
		}
		if len(g.Words) != len(w.Words) {
			t.Errorf("segment %d: %d words, reference %d", i, len(g.Words), len(w.Words))
			continue
		}
		for j := range w.Words {
			gw, ww := g.Words[j], w.Words[j]
			if gw.Word != ww.Word || gw.Start != ww.Start || gw.End != ww.End || math.Abs(gw.Probability-ww.Probability) > 1e-3 {
				t.Errorf("segment %d word %d: %+v, reference %+v", i, j, gw, ww)
			}
			words++
		}
	}
	t.Logf("%d segments, %d words compared", min(len(got), len(want)), words)
}

// BenchmarkTranscribeJFK transcribes jfk.wav (11 s, one window, -nf) with
// the bundle's small-en f16 model (2+2 layers, width 64), from its
// log-mel: encoder, greedy decoding with timestamps, segment cutting.
func BenchmarkTranscribeJFK(b *testing.B) {
	dir := shareddata.Path(b, "whisper")
	m, err := whisper.Load(filepath.Join(dir, "small-en.ggml-f16.bin"))
	if err != nil {
		b.Fatal(err)
	}
	tok, err := whisper.NewTokenizer(m.Dims())
	if err != nil {
		b.Fatal(err)
	}
	filters, err := audio.WhisperMelFilters(m.Dims().NMels)
	if err != nil {
		b.Fatal(err)
	}
	front, err := audio.NewWhisperMel(filters, m.Dims().NMels)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "clips", "jfk.wav"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sig, err := audio.Decode(f)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := front.Spectrogram(sig.Samples, audio.WhisperWindowSamples)
	if err != nil {
		b.Fatal(err)
	}
	opts := whisper.DefaultTranscribeOptions()
	opts.Decoding.Language = "en"
	opts.Temperatures = []float64{0}
	text := whisper.TokenizerText(tok)
	var st whisper.TranscribeStats
	b.ReportAllocs()
	for b.Loop() {
		res, err := whisper.Transcribe(m, text, spec.Data, spec.Frames, opts, nil)
		if err != nil {
			b.Fatal(err)
		}
		st = res.Stats
	}
	b.ReportMetric(float64(st.Decode.Microseconds())/1000/float64(st.DecodedTokens), "decode-ms/token")
	b.ReportMetric(float64(st.Encode.Milliseconds())/float64(st.EncodeWindows), "encode-ms/window")
}
