package speechmodel_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestWhisperPartial checks a Whisper model's live partial hypothesis:
// text only, one window encoded and fewer decoder steps than the full
// transcription (which times words and falls back at higher
// temperatures), and the full decode of the same encoding unchanged.
func TestWhisperPartial(t *testing.T) {
	model, sig := whisperClip(t, "small-en.ggml-f16.bin")
	dec, e := whisperEncode(t, model, speechmodel.WhisperOptions{}, sig)
	partial, err := dec.Decode(e, &speechmodel.DecodeOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := dec.Decode(e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if partial.Text == "" || len(partial.Words) != 0 {
		t.Errorf("partial: text %q with %d words, want text and no word timing", partial.Text, len(partial.Words))
	}
	if p, f := partial.Stages, full.Stages; p.EncodeWindows != 1 || p.DecodeTokens >= f.DecodeTokens {
		t.Errorf("partial: %d windows, %d decoder steps; full: %d windows, %d steps", p.EncodeWindows, p.DecodeTokens, f.EncodeWindows, f.DecodeTokens)
	}
	if len(full.Words) == 0 || full.Text == "" {
		t.Errorf("full decode after a partial: text %q, %d words", full.Text, len(full.Words))
	}
}

// TestWhisperSampleLen: -sample-len n stops each window's decoding after
// n sampled tokens (openai/whisper's sample_len): the random-weight model,
// which never ends a window by itself, gives the first n text tokens of
// its unbounded decoding (partials: no timestamps among them), counted as
// n + 1 decoder positions (Stages.DecodeTokens); options out of range are
// refused, naming the flag.
func TestWhisperSampleLen(t *testing.T) {
	model, sig := whisperClip(t, "small-en.ggml-q8_0.bin")
	decode := func(o speechmodel.WhisperOptions) *speechmodel.Hypothesis {
		t.Helper()
		dec, e := whisperEncode(t, model, o, sig)
		h, err := dec.Decode(e, &speechmodel.DecodeOptions{Partial: true}) // text tokens only
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	full := decode(speechmodel.WhisperOptions{})
	for _, n := range []int{1, 5, 17} {
		h := decode(speechmodel.WhisperOptions{SampleLen: n})
		if len(h.Tokens) != n || len(full.Tokens) < n || h.Stages.DecodeTokens != n+1 {
			t.Fatalf("-sample-len %d: %d tokens in %d decoder steps (unbounded: %d)", n, len(h.Tokens), h.Stages.DecodeTokens, len(full.Tokens))
		}
		for i, tok := range h.Tokens {
			if tok.Text != full.Tokens[i].Text {
				t.Errorf("-sample-len %d: token %d is %q, unbounded %q", n, i, tok.Text, full.Tokens[i].Text)
			}
		}
	}
	for _, tc := range []struct {
		o    speechmodel.WhisperOptions
		want string
	}{
		{speechmodel.WhisperOptions{SampleLen: -1}, "-sample-len -1"},
		{speechmodel.WhisperOptions{AudioCtx: -1}, "-audio-ctx -1"},
		{speechmodel.WhisperOptions{AudioCtx: 1501}, "-audio-ctx 1501"},
	} {
		if _, err := speechmodel.Open(model, &speechmodel.Decoding{Whisper: tc.o}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %q", tc.o, err, tc.want)
		}
	}
}

// whisperClip returns the path of the reference bundle's model file and
// its clip jfk.wav, skipping without them.
func whisperClip(t *testing.T, file string) (string, *audio.Signal) {
	t.Helper()
	dir, err := shareddata.Lookup("whisper")
	if err != nil {
		t.Skip(err)
	}
	model := filepath.Join(dir, file)
	if _, err := os.Stat(model); err != nil {
		t.Skip(err)
	}
	sig, err := speechmodel.Load(filepath.Join(dir, "clips", "jfk.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return model, sig
}

// whisperEncode opens model decoding English without the temperature
// fallback and o's other options, and encodes sig with a new decoder.
func whisperEncode(t *testing.T, model string, o speechmodel.WhisperOptions, sig *audio.Signal) (speechmodel.Decoder, speechmodel.Encoding) {
	t.Helper()
	o.Language, o.NoFallback = "en", true
	m, err := speechmodel.Open(model, &speechmodel.Decoding{Whisper: o})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := m.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	e, err := dec.Encode(sig.Samples)
	if err != nil {
		t.Fatal(err)
	}
	return dec, e
}
