package speech_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

var helloWAV = filepath.Join("..", "..", "testdata", "hello.wav")

// wavBytes encodes 16 kHz mono samples as a 16-bit PCM WAV file.
func wavBytes(samples []float32) []byte {
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 2*len(samples)))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))                      // PCM
	le(uint16(1))                      // mono
	le(uint32(speechmodel.SampleRate)) // rate
	le(uint32(2 * speechmodel.SampleRate))
	le(uint16(2)) // block align
	le(uint16(16))
	b.WriteString("data")
	le(uint32(2 * len(samples)))
	for _, s := range samples {
		le(int16(math.Round(float64(max(-1, min(1, s))) * 32767)))
	}
	return b.Bytes()
}

// onlyReader hides every method of r but Read: a reader that cannot seek.
type onlyReader struct{ io.Reader }

func newRecognizer(t *testing.T, o *speech.Options) *speech.Recognizer {
	t.Helper()
	rec, err := speech.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestRecognizerReader: a reader that cannot seek is transcribed as the
// file is.
func TestRecognizerReader(t *testing.T) {
	rec := newRecognizer(t, nil)
	ctx := context.Background()
	want, err := rec.TranscribeFile(ctx, helloWAV)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(helloWAV)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rec.Transcribe(ctx, onlyReader{bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != want.Text || want.Path != helloWAV || got.Path != "" {
		t.Errorf("reader: %q (path %q); file: %q (path %q)", got.Text, got.Path, want.Text, want.Path)
	}
}

// TestRecognizerStops: a cancelled context, or an error from yield,
// stops the transcription between chunks with an error wrapping the
// cause, serially and on several workers.
func TestRecognizerStops(t *testing.T) {
	hello, err := speechmodel.Load(helloWAV, nil)
	if err != nil {
		t.Fatal(err)
	}
	// hello, 2 s of silence, hello: three chunks.
	x := append(append(append([]float32(nil), hello.Samples...), make([]float32, 2*speechmodel.SampleRate)...), hello.Samples...)
	data := wavBytes(x)
	errStop := errors.New("enough")
	for _, threads := range []int{1, 2} {
		rec := newRecognizer(t, &speech.Options{Threads: threads, LM: &speechmodel.LanguageModel{Path: speechmodel.NoLM}})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := rec.Transcribe(ctx, bytes.NewReader(data)); !errors.Is(err, context.Canceled) {
			t.Errorf("threads %d, cancelled context: %v, want context.Canceled", threads, err)
		}
		var seen []speech.Chunk
		_, err := rec.Segments(context.Background(), bytes.NewReader(data), func(c speech.Chunk) error {
			seen = append(seen, c)
			return errStop
		})
		if !errors.Is(err, errStop) || !strings.HasPrefix(err.Error(), "speech: ") {
			t.Errorf("threads %d, yield failing: %v, want an error wrapping %v", threads, err, errStop)
		}
		if len(seen) != 1 || seen[0].Text == "" {
			t.Errorf("threads %d: yield saw %d chunks (%+v), want the first one only", threads, len(seen), seen)
		}
	}
	all, err := newRecognizer(t, &speech.Options{LM: &speechmodel.LanguageModel{Path: speechmodel.NoLM}}).Transcribe(context.Background(), bytes.NewReader(data))
	if err != nil || len(all.Chunks) < 2 {
		t.Fatalf("the whole recording: %v, %v; the test wants several chunks", all, err)
	}
}

func TestRecognizerBadAudio(t *testing.T) {
	rec := newRecognizer(t, &speech.Options{LM: &speechmodel.LanguageModel{Path: speechmodel.NoLM}})
	_, err := rec.Transcribe(context.Background(), strings.NewReader("not audio"))
	if !errors.Is(err, audio.ErrFormat) || !strings.HasPrefix(err.Error(), "speech: ") {
		t.Errorf("Transcribe of text: %v, want a speech: error wrapping audio.ErrFormat", err)
	}
	if _, err := rec.TranscribeFile(context.Background(), "no-such.wav"); err == nil || !strings.Contains(err.Error(), "no-such.wav") {
		t.Errorf("TranscribeFile of a missing file: %v, want an error naming it", err)
	}
}
