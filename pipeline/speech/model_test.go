package speech_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// countingModel is a model family made up for the tests: it "hears" the
// length of what it is given. Its transcript of a chunk of n samples is
// the word "nN", spanning the chunk; its forced alignment puts every
// word in the first chunk, each a tenth of a second long. It records the
// chunk lengths its decoders were handed.
type countingModel struct {
	info    speechmodel.ModelInfo
	encoded *[]int
}

func (m countingModel) Info() speechmodel.ModelInfo { return m.info }

func (m countingModel) NewDecoder() (speechmodel.Decoder, error) { return countingDecoder{m}, nil }

type countingDecoder struct{ m countingModel }

type countingEncoding int

func (e countingEncoding) Seconds() float64 { return float64(e) / speechmodel.SampleRate }

func (d countingDecoder) Encode(samples []float32) (speechmodel.Encoding, error) {
	*d.m.encoded = append(*d.m.encoded, len(samples))
	return countingEncoding(len(samples)), nil
}

func (d countingDecoder) Decode(e speechmodel.Encoding, o *speechmodel.DecodeOptions) (*speechmodel.Hypothesis, error) {
	word := fmt.Sprintf("n%d", int(e.(countingEncoding)))
	return &speechmodel.Hypothesis{Text: word, Words: []speechmodel.Word{{Word: word, End: e.Seconds(), Confidence: 1}},
		Tokens: []speechmodel.Token{{Text: word}}}, nil
}

func (d countingDecoder) Align(chunks []speechmodel.Encoding, words []string, o *speechmodel.DecodeOptions) ([]*speechmodel.Hypothesis, error) {
	out := make([]*speechmodel.Hypothesis, len(chunks))
	for i := range out {
		out[i] = &speechmodel.Hypothesis{}
	}
	var norm []string
	for _, w := range words {
		norm = append(norm, strings.Fields(w)...)
	}
	out[0].Text = strings.Join(norm, " ")
	for i, w := range norm {
		out[0].Words = append(out[0].Words, speechmodel.Word{Word: w, Start: float64(i) / 10, End: float64(i+1) / 10, Confidence: 1})
		out[0].Tokens = append(out[0].Tokens, speechmodel.Token{Text: w, LogProb: -1})
	}
	return out, nil
}

// tone returns secs seconds of a stereo 440 Hz tone at rate, after lead
// seconds of digital silence.
func tone(rate int, lead, secs float64) *audio.Signal {
	n, l := int(secs*float64(rate)), int(lead*float64(rate))
	x := make([]float32, 2*(l+n))
	for i := range n {
		v := float32(0.3 * math.Sin(2*math.Pi*440*float64(i)/float64(rate)))
		x[2*(l+i)], x[2*(l+i)+1] = v, v
	}
	return &audio.Signal{Rate: rate, Channels: 2, Samples: x}
}

// TestModelFamilyChunking runs the Transcriber over a family it does not
// know: it cuts recordings into the family's ChunkLength, or hands a
// family with OwnChunking the whole recording, always mono at 16 kHz
// without the digital silence at its ends, and shifts the words it gets
// back to the recording's clock.
func TestModelFamilyChunking(t *testing.T) {
	sig := tone(8000, 0.5, 40) // 40.5 s, stereo, 8 kHz
	for _, tc := range []struct {
		name   string
		info   speechmodel.ModelInfo
		chunks int
	}{
		{"pipeline cuts 10 s chunks", speechmodel.ModelInfo{ChunkLength: 10 * time.Second}, 5},
		{"family cuts itself", speechmodel.ModelInfo{ChunkLength: 10 * time.Second, OwnChunking: true}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var encoded []int
			tr, err := speech.NewTranscriber(countingModel{tc.info, &encoded}, &speech.TranscribeOptions{NoVAD: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Stream("tone", sig.Stream())
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Chunks) != tc.chunks || len(encoded) != tc.chunks {
				t.Fatalf("%d chunks, %d encoded, want %d", len(got.Chunks), len(encoded), tc.chunks)
			}
			total := 0
			for i, c := range got.Chunks {
				if c.End-c.Start > tc.info.ChunkLength.Seconds()+1e-9 && !tc.info.OwnChunking {
					t.Errorf("chunk %d: %.3f–%.3f s is longer than %v", i, c.Start, c.End, tc.info.ChunkLength)
				}
				if want := fmt.Sprintf("n%d", encoded[i]); c.Text != want || len(c.Words) != 1 || c.Words[0].Word != want {
					t.Errorf("chunk %d: text %q, words %+v, want %q", i, c.Text, c.Words, want)
				}
				// The word spans what was encoded: the chunk less its
				// leading digital silence (only the first chunk has any).
				lead := c.End - c.Start - float64(encoded[i])/speechmodel.SampleRate
				if w := c.Words[0]; math.Abs(w.Start-(c.Start+lead)) > 1e-3 || math.Abs(w.End-c.End) > 2e-3 {
					t.Errorf("chunk %d (%.3f–%.3f s, %d samples encoded): word at %.3f–%.3f s", i, c.Start, c.End, encoded[i], w.Start, w.End)
				}
				total += encoded[i]
			}
			// The pipeline trims the leading digital silence; a family
			// that cuts recordings itself gets them whole (Whisper's
			// output depends on every sample).
			want := 40.0
			if tc.info.OwnChunking {
				want = 40.5
			}
			if secs := float64(total) / speechmodel.SampleRate; math.Abs(secs-want) > 0.05 {
				t.Errorf("encoded %.3f s of 16 kHz mono, want %.1f s", secs, want)
			}
			if math.Abs(got.Duration-40.5) > 1e-3 {
				t.Errorf("duration %.3f s, want 40.5 s", got.Duration)
			}
		})
	}
}

// TestModelFamilyAlign forces a script through a family it does not know:
// the family gets the script's words normalized, a word as written
// ("1999") whole, and the transcript shows them as written with the
// family's times.
func TestModelFamilyAlign(t *testing.T) {
	var encoded []int
	tr, err := speech.NewTranscriber(countingModel{speechmodel.ModelInfo{}, &encoded}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.AlignStream("tone", tone(16000, 1, 20).Stream(), "In 1999, Dr. Smith left.")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Chunks) < 2 || len(encoded) != len(got.Chunks) {
		t.Fatalf("%d chunks, %d encoded: want the 21 s cut in chunks of at most %v", len(got.Chunks), len(encoded), speech.AlignChunkLength)
	}
	var words []string
	for _, w := range got.Chunks[0].Words {
		words = append(words, w.Word+"="+w.Normalized)
	}
	if want := "In=in 1999,=nineteen ninety nine Dr.=dr Smith=smith left.=left"; strings.Join(words, " ") != want {
		t.Errorf("words %q, want %q", strings.Join(words, " "), want)
	}
	// The first chunk's audio starts after 1 s of digital silence; the
	// family's times count from there.
	if w := got.Chunks[0].Words[1]; math.Abs(w.Start-1.1) > 1e-3 || math.Abs(w.End-1.4) > 1e-3 {
		t.Errorf("1999 at %.3f–%.3f s, want 1.1–1.4 s", w.Start, w.End)
	}
	if got.ScriptScore != -1 {
		t.Errorf("script score %v, want the family's −1 per token", got.ScriptScore)
	}
}
