package speech_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/audio/audiotest"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestTranscribeNoSpeech runs the embedded model with the default voice
// activity detection over silence, noises, a tone, chords and music-like
// notes (no text, every chunk no_speech) and over speech in noise at
// 10 dB SNR (text).
func TestTranscribeNoSpeech(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	const rate, n = 16000, 4 * 16000
	hello, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	padded := append(append(make([]float32, rate), hello.Samples...), make([]float32, rate)...)
	cases := []struct {
		name    string
		samples []float32
		speech  bool
	}{
		{"digital silence 1 s", make([]float32, rate), false},
		{"digital silence 10 s", make([]float32, 10*rate), false},
		{"white noise", audiotest.White(rng, n, 0.1), false},
		{"pink noise", audiotest.Pink(rng, n, 0.05), false},
		{"brown noise", audiotest.Brown(rng, n, 0.05), false},
		{"1 kHz tone", audiotest.Tone(n, rate, 1000, 0.3), false},
		{"C major chord", audiotest.Chord(n, rate, 0.5, 261.63, 329.63, 392), false},
		{"music-like notes", audiotest.Music(rng, n, rate, 0.5), false},
		{"speech", padded, true},
		{"speech in white noise at 10 dB", audiotest.MixSNR(padded, audiotest.White(rng, len(padded), 1), 10), true},
		{"speech in pink noise at 10 dB", audiotest.MixSNR(padded, audiotest.Pink(rng, len(padded), 1), 10), true},
	}
	tr := defaultTranscriber(t, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sig := &audio.Signal{Rate: rate, Channels: 1, Samples: tc.samples}
			got, err := tr.Stream(tc.name, sig.Stream())
			if err != nil {
				t.Fatal(err)
			}
			prevEnd := 0.0
			spoken := 0
			for i, c := range got.Chunks {
				if c.Start != prevEnd {
					t.Errorf("chunk %d starts at %.2f after %.2f", i, c.Start, prevEnd)
				}
				prevEnd = c.End
				if c.NoSpeechScore < 0 || c.NoSpeechScore > 1 {
					t.Errorf("chunk %d: no_speech_score %g outside [0, 1]", i, c.NoSpeechScore)
				}
				if c.NoSpeech && (c.Text != "" || len(c.Words) != 0) {
					t.Errorf("chunk %d: no speech but text %q", i, c.Text)
				}
				if !c.NoSpeech {
					spoken++
				}
			}
			switch {
			case tc.speech && got.Text == "":
				t.Errorf("speech gave no text (chunks %+v)", got.Chunks)
			case !tc.speech && (got.Text != "" || spoken > 0):
				t.Errorf("text %q, %d chunks with speech; want none", got.Text, spoken)
			}
		})
	}
}

// TestTranscribeNoVAD checks that NoVAD decodes everything: silence then
// gives a chunk that is not marked no_speech.
func TestTranscribeNoVAD(t *testing.T) {
	tr := searchTranscriber(t, decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 1}, &speech.TranscribeOptions{NoVAD: true})
	sig := &audio.Signal{Rate: 16000, Channels: 1, Samples: make([]float32, 16000)}
	got, err := tr.Stream("silence", sig.Stream())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Chunks) != 1 || got.Chunks[0].NoSpeech || got.Chunks[0].NoSpeechScore != 0 {
		t.Errorf("chunks %+v, want one decoded chunk", got.Chunks)
	}
}

// TestWriteTranscriptNoSpeech checks every format on a transcript of a
// no-speech chunk, a chunk with words and a second no-speech chunk.
func TestWriteTranscriptNoSpeech(t *testing.T) {
	silent := &speech.Transcript{Path: "quiet.wav", Duration: 2, Chunks: []speech.Chunk{
		{Start: 0, End: 2, Words: []speechmodel.Word{}, NoSpeech: true, NoSpeechScore: 0.97},
	}}
	mixed := &speech.Transcript{Path: "mixed.wav", Text: "hello there", Duration: 6, Chunks: []speech.Chunk{
		{Start: 0, End: 2, Words: []speechmodel.Word{}, NoSpeech: true, NoSpeechScore: 0.9},
		{Start: 2, End: 4, Text: "hello there", NoSpeechScore: 0.01, Words: []speechmodel.Word{
			{Word: "hello", Start: 2.1, End: 2.5, Confidence: 0.8}, {Word: "there", Start: 2.6, End: 3, Confidence: 0.7}}},
		{Start: 4, End: 6, Words: []speechmodel.Word{}, NoSpeech: true, NoSpeechScore: 0.99},
	}}
	write := func(tr *speech.Transcript, format string) string {
		var b bytes.Buffer
		if err := speech.WriteTranscript(&b, tr, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, tc := range []struct {
		tr     *speech.Transcript
		format string
		want   string
	}{
		{silent, "txt", "\n"},
		{silent, "srt", ""},
		{silent, "vtt", "WEBVTT\n\n"},
		{mixed, "txt", "hello there\n"},
		{mixed, "srt", "1\n00:00:02,100 --> 00:00:03,000\nhello there\n\n"},
		{mixed, "vtt", "WEBVTT\n\n00:00:02.100 --> 00:00:03.000\nhello there\n\n"},
	} {
		if got := write(tc.tr, tc.format); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.tr.Path, tc.format, got, tc.want)
		}
	}
	var back struct {
		Text   string `json:"text"`
		Chunks []struct {
			Text          string            `json:"text"`
			Words         []json.RawMessage `json:"words"`
			NoSpeech      *bool             `json:"no_speech"`
			NoSpeechScore *float64          `json:"no_speech_score"`
		} `json:"chunks"`
	}
	js := write(mixed, "json")
	if err := json.Unmarshal([]byte(js), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Chunks) != 3 {
		t.Fatalf("json %s: want 3 chunks", js)
	}
	for i, c := range back.Chunks {
		wantNo := i != 1
		if c.NoSpeech == nil || *c.NoSpeech != wantNo || c.NoSpeechScore == nil || c.Words == nil {
			t.Errorf("json chunk %d: %+v, want no_speech %v, a no_speech_score and a words list", i, c, wantNo)
		}
	}
	if !strings.Contains(js, `"no_speech":true,"no_speech_score":0.9}`) {
		t.Errorf("json %s lacks the first chunk's no-speech fields", js)
	}
}
