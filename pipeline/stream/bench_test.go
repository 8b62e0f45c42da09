package stream_test

import (
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Partials re-decode the open utterance with the model's cheap search
// (DecodeOptions.Partial), finals with its full one; with the default
// model and decoding, on hello.wav (3.4 s). BenchmarkFinalDecodeLong
// decodes it said twice without a pause (6.8 s, 114 characters), as long
// as the native dev clips' longest utterances, whose search (quadratic in
// the length: each step attends to, and CTC-scores over, every frame)
// decides whether a final fits in the endpointer's wait.
func BenchmarkPartialDecode(b *testing.B)   { benchmarkDecode(b, true, 1) }
func BenchmarkFinalDecode(b *testing.B)     { benchmarkDecode(b, false, 1) }
func BenchmarkFinalDecodeLong(b *testing.B) { benchmarkDecode(b, false, 2) }

func benchmarkDecode(b *testing.B, partial bool, repeat int) {
	m, err := speechmodel.Open("", nil)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := speech.NewTranscriber(m, nil)
	if err != nil {
		b.Fatal(err)
	}
	sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		b.Fatal(err)
	}
	var x []float32
	for range repeat {
		x = append(x, sig.Samples...)
	}
	seg := audio.Segment{Samples: x, Rate: rate, End: len(x), SpeechProbability: 1}
	b.ReportAllocs()
	for b.Loop() {
		if partial {
			_, err = tr.Partial(x)
		} else {
			_, _, err = tr.Segment(seg)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamWrite feeds 100 ms pieces of a recording of three clips
// to a Streamer with the default partials, a greedy model: the cost of
// live transcription per second of audio.
func BenchmarkStreamWrite(b *testing.B) {
	m := model(b)
	x := recording(b, 3)
	b.ReportAllocs()
	for b.Loop() {
		feed(b, m, x, rate/10, nil)
	}
	b.ReportMetric(float64(len(x))/rate, "audio-s/op")
}
