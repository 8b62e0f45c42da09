package speech_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

const helloText = "the quick brown fox jumps over the lazy dog"

// checkTimes checks what every forced transcript must satisfy: the
// words of the text (normalized), in order, inside their chunks, never
// going backwards, chunks that tile the recording, and texts that are
// the words shown (as written, in forced alignment).
func checkTimes(t *testing.T, got *speech.Transcript, words []string, frameSec float64) {
	t.Helper()
	var timed, shown []string
	prevEnd, prevStart := 0.0, 0.0
	for i, c := range got.Chunks {
		if math.Abs(c.Start-prevEnd) > 1e-9 {
			t.Errorf("chunk %d starts at %.3f s, the one before ends at %.3f s", i, c.Start, prevEnd)
		}
		prevEnd = c.End
		var inChunk []string
		for _, w := range c.Words {
			if w.Start < prevStart-1e-9 || w.End <= w.Start || w.Start < c.Start-1e-9 || w.End > c.End+frameSec {
				t.Errorf("chunk %d (%.2f–%.2f s): word %+v out of order or outside it", i, c.Start, c.End, w)
			}
			prevStart = w.Start
			norm := w.Normalized
			if norm == "" {
				norm = w.Word
			}
			timed = append(timed, norm)
			inChunk = append(inChunk, w.Word)
		}
		if c.Text != strings.Join(inChunk, " ") {
			t.Errorf("chunk %d: text %q, words %q", i, c.Text, inChunk)
		}
		shown = append(shown, inChunk...)
	}
	if strings.Join(timed, " ") != strings.Join(words, " ") {
		t.Errorf("timed words %q, want %q", timed, words)
	}
	if got.Text != strings.Join(shown, " ") {
		t.Errorf("text %q, want the words shown %q", got.Text, shown)
	}
}

func loadHello(tb testing.TB) *audio.Signal {
	tb.Helper()
	hello, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return hello
}

// defaultTranscriber is a transcriber over the embedded model with the
// default search, without a language model.
func defaultTranscriber(tb testing.TB, opts *speech.TranscribeOptions) *speech.Transcriber {
	tb.Helper()
	return searchTranscriber(tb, decode.DefaultOptions(), opts)
}

// searchTranscriber is a transcriber over the embedded model with search.
func searchTranscriber(tb testing.TB, search decode.Options, opts *speech.TranscribeOptions) *speech.Transcriber {
	tb.Helper()
	model, err := asr.Default()
	if err != nil {
		tb.Fatal(err)
	}
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, &search), opts)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// TestAlignNormalizesAndTimesEveryWord aligns testdata/hello.wav with its
// text written as a person would: every word gets a time, in order, and
// the words shown are the text's as written, aligned as the normalized
// text's.
func TestAlignNormalizesAndTimesEveryWord(t *testing.T) {
	tr := defaultTranscriber(t, &speech.TranscribeOptions{KeepAlignment: true})
	got, err := tr.Align(filepath.Join("..", "..", "testdata", "hello.wav"), nil, "The quick brown fox — jumps over the LAZY dog!")
	if err != nil {
		t.Fatal(err)
	}
	checkTimes(t, got, strings.Fields(helloText), 0.06)
	if got.Text != "The quick brown fox — jumps over the LAZY dog!" {
		t.Errorf("text %q, want the script as written", got.Text)
	}
	if len(got.Chunks) != 1 || len(got.Chunks[0].Alignment) != len(helloText) || len(got.Chunks[0].Chars) != len(helloText) {
		t.Fatalf("want one chunk keeping one alignment row and label per character, got %+v", got.Chunks)
	}
}

// TestAlignSharesLongTextAmongChunks aligns hello.wav four times over,
// with a second of silence after each (17.8 s: two chunks), to the
// sentence four times over: the CTC head must give the first chunk the
// sentences it holds, and each sentence's first word must start where
// that copy of the recording does (as far as the alignment of hello.wav
// alone places it).
func TestAlignSharesLongTextAmongChunks(t *testing.T) {
	hello := loadHello(t)
	tr := defaultTranscriber(t, nil)
	one, err := tr.AlignStream("hello", hello.Stream(), helloText)
	if err != nil {
		t.Fatal(err)
	}
	first := one.Chunks[0].Words[0].Start
	period := len(hello.Samples) + 16000
	var samples []float32
	var words []string
	for range 4 {
		samples = append(samples, hello.Samples...)
		samples = append(samples, make([]float32, 16000)...)
		words = append(words, strings.Fields(helloText)...)
	}
	sig := &audio.Signal{Rate: 16000, Channels: 1, Samples: samples}
	got, err := tr.AlignStream("four times", sig.Stream(), strings.Repeat(helloText+". ", 4))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Chunks) < 2 {
		t.Fatalf("%.1f s in %d chunk(s), want at least 2", got.Duration, len(got.Chunks))
	}
	checkTimes(t, got, words, 0.06)
	var all []speechmodel.Word
	for _, c := range got.Chunks {
		all = append(all, c.Words...)
	}
	for k := range 4 {
		w := all[9*k]
		want := float64(k*period)/16000 + first
		if math.Abs(w.Start-want) > 0.1 {
			t.Errorf("sentence %d starts at %.3f s, want %.3f s", k+1, w.Start, want)
		}
	}
}

func TestAlignErrors(t *testing.T) {
	hello := loadHello(t)
	tiny := asr.Config{ListenerHidden: 4, Embed: 4, SpellerHidden: 4, AttentionDim: 4, LocationFilters: 2, LocationWidth: 3, CTCWeight: 0}
	noCTC, err := asr.New(tiny, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	def, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	long := make([]float32, 0, 20*16000)
	for len(long) < 20*16000 {
		long = append(long, hello.Samples...)
	}
	for _, tc := range []struct {
		name    string
		model   *asr.Model
		samples []float32
		text    string
		err     error
	}{
		{"no text", def, hello.Samples, "", speech.ErrNoText},
		{"only punctuation", def, hello.Samples, " — !? ", speech.ErrNoText},
		{"no audio", def, nil, helloText, audio.ErrNoAudio},
		{"long audio without a CTC head", noCTC, long, helloText, asr.ErrNoCTC},
		{"one chunk without a CTC head", noCTC, hello.Samples, helloText, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := speech.NewTranscriber(speechmodel.NewLAS(tc.model, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			sig := &audio.Signal{Rate: 16000, Channels: 1, Samples: tc.samples}
			got, err := tr.AlignStream(tc.name, sig.Stream(), tc.text)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err == nil {
				checkTimes(t, got, strings.Fields(tc.text), 0.06)
			} else if !strings.Contains(err.Error(), tc.name) {
				t.Errorf("error %q does not name the input %q", err, tc.name)
			}
		})
	}
}

// BenchmarkAlignStream times the forced alignment of testdata/hello.wav
// (3.4 s, 9 words) with the embedded model, decoding excluded.
func BenchmarkAlignStream(b *testing.B) {
	hello, tr := loadHello(b), defaultTranscriber(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.AlignStream("hello", hello.Stream(), helloText); err != nil {
			b.Fatal(err)
		}
	}
}
