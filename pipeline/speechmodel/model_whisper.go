package speechmodel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/ggml"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/models/whisper"
)

// WhisperOptions are the decoding options of a Whisper model: the
// arguments of openai/whisper's transcribe() that attend exposes. The zero
// value means openai/whisper's defaults (DefaultWhisperOptions).
type WhisperOptions struct {
	// Language is the spoken language's code or name ("en", "german"),
	// or "" / "auto" to detect it on multilingual models (English-only
	// models take English).
	Language string
	// Task is "transcribe" (default) or "translate" (into English;
	// multilingual models only).
	Task string
	// Beam is the beam width at temperature 0; 0 means greedy decoding
	// (openai/whisper's default without --beam_size; its CLI uses 5).
	Beam int
	// Patience is the beam search patience (0: 1.0).
	Patience float64
	// NoFallback decodes once at temperature 0, without the
	// temperature fallback (whisper.cpp's -nf).
	NoFallback bool
	// Prompt is the initial prompt: text that conditions the first window.
	Prompt string
	// NoConditionOnPrevious stops feeding each window's text to the next.
	NoConditionOnPrevious bool
	// Seed seeds the sampling at temperatures above 0.
	Seed uint64
	// SampleLen is the most tokens each window's decoding samples
	// (openai/whisper's DecodingOptions.sample_len, timestamps and the
	// end of text included); 0 means n_text_ctx/2 (224).
	SampleLen int
	// AudioCtx, when above 0, is whisper.cpp's audio context (-ac):
	// windows of AudioCtx × 20 ms instead of 30 s, encoded with the
	// positional embedding cut to AudioCtx positions, so the encoder
	// costs in proportion to it (whisper.TranscribeOptions.AudioCtx).
	// It trades accuracy for speed: the models were trained on 30-second
	// windows. 0 (or the model's n_audio_ctx, 1500) is the full window.
	AudioCtx int
}

// Whisper is an OpenAI Whisper checkpoint (models/whisper) decoded as
// openai/whisper's transcribe() decodes, as a Model. It cuts recordings
// itself (ModelInfo.OwnChunking): 30-second windows, each decoded with
// the text so far as its prompt, moved along by the timestamps it
// predicts. Words are timed from the cross-attention of the alignment
// heads (timing.py).
type Whisper struct {
	net       WhisperNetwork
	tokenizer *whisper.Tokenizer
	tok       whisper.TextTokenizer
	mel       *audio.WhisperMel
	opts      whisper.TranscribeOptions
	seed      uint64
}

// WhisperNetwork is what a Whisper model needs of its network: the
// encoder and decoder (whisper.Network) and what a model file may store
// beside the weights. *whisper.Model, a checkpoint, implements it; a
// wrapper may change how it is computed (a measurement's cost model).
type WhisperNetwork interface {
	whisper.Network
	// StoredVocab is the file's vocabulary, nil for the bundled one.
	StoredVocab() [][]byte
	// MelFilters are the file's mel filters, nil for the standard ones.
	MelFilters() []float32
}

// NewWhisper returns the Whisper network m with its tokenizer (the file's
// vocabulary or the bundled one) and mel filters (the file's or the
// standard ones), decoding with o (nil: defaults).
func NewWhisper(m WhisperNetwork, o *WhisperOptions) (*Whisper, error) {
	if o == nil {
		o = &WhisperOptions{}
	}
	d := m.Dims()
	var tok *whisper.Tokenizer
	var err error
	if v := m.StoredVocab(); v != nil {
		tok, err = whisper.NewTokenizerFromVocab(d, v)
	} else {
		tok, err = whisper.NewTokenizer(d)
	}
	if err != nil {
		return nil, err
	}
	filters := m.MelFilters()
	if filters == nil {
		if filters, err = audio.WhisperMelFilters(d.NMels); err != nil {
			return nil, err
		}
	}
	mel, err := audio.NewWhisperMel(filters, d.NMels)
	if err != nil {
		return nil, err
	}
	opts, err := o.transcribeOptions(tok)
	if err != nil {
		return nil, err
	}
	if o.AudioCtx < 0 || o.AudioCtx > d.NAudioCtx {
		return nil, fmt.Errorf("speechmodel: -audio-ctx %d: want 0 (the full 30-second window) up to this model's %d positions", o.AudioCtx, d.NAudioCtx)
	}
	opts.AudioCtx = o.AudioCtx
	opts.Words.Heads = whisper.AlignmentHeadsFor(d)
	return &Whisper{net: m, tokenizer: tok, tok: whisper.TokenizerText(tok), mel: mel, opts: opts, seed: o.Seed}, nil
}

// WithLanguage implements Languages: the same model decoding language
// (a code or a name; "" or "auto" detects it on multilingual models).
func (w *Whisper) WithLanguage(language string) (Model, error) {
	o := WhisperOptions{Language: language}
	opts, err := o.transcribeOptions(w.tokenizer)
	if err != nil {
		return nil, err
	}
	c := *w
	c.opts.Decoding.Language = opts.Decoding.Language
	return &c, nil
}

// transcribeOptions turns o into openai/whisper's transcribe() arguments
// for a model with tokenizer tok.
func (o *WhisperOptions) transcribeOptions(tok *whisper.Tokenizer) (whisper.TranscribeOptions, error) {
	t := whisper.DefaultTranscribeOptions()
	t.WordTimestamps = true
	switch lang := strings.TrimSpace(o.Language); {
	case !tok.Multilingual():
		if lang != "" && lang != "auto" && lang != "en" && !strings.EqualFold(lang, "english") {
			return t, fmt.Errorf("speechmodel: -language %q: this Whisper model is English-only", o.Language)
		}
		t.Decoding.Language = "en"
	case lang == "" || lang == "auto":
		t.Decoding.Language = ""
	default:
		code, ok := whisper.LookupLanguage(lang)
		if !ok {
			return t, fmt.Errorf("speechmodel: -language %q is not a language Whisper knows (a code such as en, de, zh or a name such as german)", o.Language)
		}
		if _, ok := tok.LanguageToken(code); !ok {
			return t, fmt.Errorf("speechmodel: -language %q: this Whisper model has no token for it", o.Language)
		}
		t.Decoding.Language = code
	}
	switch o.Task {
	case "", "transcribe":
		t.Decoding.Task = "transcribe"
	case "translate":
		if !tok.Multilingual() {
			return t, errors.New("speechmodel: -task translate needs a multilingual Whisper model; this one is English-only")
		}
		t.Decoding.Task = "translate"
	default:
		return t, fmt.Errorf("speechmodel: -task %q: want transcribe or translate", o.Task)
	}
	if o.Beam < 0 {
		return t, fmt.Errorf("speechmodel: -beam %d: want 0 (greedy) or a beam width", o.Beam)
	}
	if o.Beam > 0 {
		t.Decoding.BeamSize = o.Beam
		if o.Patience > 0 {
			t.Decoding.Patience = o.Patience
		}
	}
	if o.NoFallback {
		t.Temperatures = []float64{0}
	}
	if o.SampleLen < 0 {
		return t, fmt.Errorf("speechmodel: -sample-len %d: want 0 (n_text_ctx/2, 224) or the most tokens to sample", o.SampleLen)
	}
	t.Decoding.SampleLen = o.SampleLen
	t.InitialPrompt = o.Prompt
	t.ConditionOnPreviousText = !o.NoConditionOnPrevious
	return t, t.Decoding.Validate()
}

// partialOptions are the decoding of a live partial hypothesis of
// frames mel frames (10 ms each): one greedy pass at temperature 0
// without timestamps, word timing or conditioning on earlier windows,
// over a reduced audio context (partialAudioCtx) so that the encoder's
// cost follows the utterance rather than a 30-second window.
func (w *Whisper) partialOptions(frames int) whisper.TranscribeOptions {
	o := w.opts
	o.Temperatures = []float64{0}
	o.Decoding.BeamSize, o.Decoding.Patience = 0, 0
	o.Decoding.WithoutTimestamps = true
	o.WordTimestamps = false
	o.ConditionOnPreviousText = false
	ctx := partialAudioCtx(frames, w.net.Dims().NAudioCtx)
	if o.AudioCtx == 0 || ctx < o.AudioCtx {
		o.AudioCtx = ctx
	}
	return o
}

// The audio context of a partial: the utterance's encoder positions (20
// ms each) and partialContextPad more, rounded up to a multiple of
// partialContextStep, and at least partialContextMin.
const (
	partialContextPad  = 50  // 1 s after the audio: the window ends in silence, as a full window's does
	partialContextStep = 128 // 2.56 s: few distinct shapes
	partialContextMin  = 256 // 5.12 s: whisper.cpp's users report very short contexts degrade most
)

// partialAudioCtx is the audio context (whisper.TranscribeOptions.AudioCtx)
// Whisper's live partials decode frames mel frames (10 ms) with: the
// frames' encoder positions (frames/2) and 1 s more, rounded up to a
// multiple of 128 positions (2.56 s), at least 256 (5.12 s) and at most
// full (the model's n_audio_ctx, 1500; also when the utterance is longer
// than a window). A 3-second utterance's partial thus encodes 256
// positions instead of 1500, about a sixth of the encoder's work; the
// final decodes the full window, as asr transcribe does.
func partialAudioCtx(frames, full int) int {
	ctx := (frames+1)/2 + partialContextPad
	ctx = max(partialContextMin, (ctx+partialContextStep-1)/partialContextStep*partialContextStep)
	return min(ctx, full)
}

// Network returns the Whisper network.
func (w *Whisper) Network() WhisperNetwork { return w.net }

// Tokenizer returns the model's tokenizer.
func (w *Whisper) Tokenizer() *whisper.Tokenizer { return w.tokenizer }

// Info says that Whisper cuts recordings itself and that its encoder's
// frames are 20 ms.
func (w *Whisper) Info() ModelInfo {
	return ModelInfo{Family: "whisper", EncoderFrameSeconds: 0.02, OwnChunking: true}
}

// NewDecoder returns a Decoder; Whisper decoders share the model and
// keep nothing between recordings but their random source.
func (w *Whisper) NewDecoder() (Decoder, error) {
	return &whisperDecoder{w: w, rng: rand.New(rand.NewPCG(w.seed, 0x5717))}, nil
}

type whisperDecoder struct {
	w   *Whisper
	rng *rand.Rand
}

// whisperEncoding is a recording's log-mel spectrogram with 30 s of
// padding, as transcribe() computes it before its seek loop: the
// encoder runs window by window inside the loop.
type whisperEncoding struct {
	spec    *audio.WhisperSpectrogram
	seconds float64
	mel     time.Duration
}

func (e *whisperEncoding) Seconds() float64 { return e.seconds }

// Encode computes the recording's log-mel spectrogram.
func (d *whisperDecoder) Encode(samples []float32) (Encoding, error) {
	start := time.Now()
	spec, err := d.w.mel.Spectrogram(samples, audio.WhisperWindowSamples)
	if err != nil {
		return nil, fmt.Errorf("speechmodel: %w", err)
	}
	return &whisperEncoding{spec: spec, seconds: float64(len(samples)) / SampleRate, mel: time.Since(start)}, nil
}

func whisperEncoded(e Encoding) (*whisperEncoding, error) {
	c, ok := e.(*whisperEncoding)
	if !ok {
		return nil, fmt.Errorf("speechmodel: a Whisper decoder was handed a %T, not its own encoding", e)
	}
	return c, nil
}

// Decode runs openai/whisper's transcribe() over the recording.
func (d *whisperDecoder) Decode(e Encoding, o *DecodeOptions) (*Hypothesis, error) {
	we, err := whisperEncoded(e)
	if err != nil {
		return nil, err
	}
	if o == nil {
		o = &DecodeOptions{}
	}
	opts := d.w.opts
	if o.Partial {
		opts = d.w.partialOptions(we.contentFrames())
	}
	r, err := whisper.Transcribe(d.w.net, d.w.tok, we.spec.Data, we.spec.Frames, opts, d.rng)
	if err != nil {
		return nil, err
	}
	st := r.Stats
	h := &Hypothesis{Words: []Word{}, Stages: Stages{Mel: we.mel, Encode: st.Encode, EncodeWindows: st.EncodeWindows,
		Decode: st.Decode, DecodeTokens: st.DecodedTokens}}
	for _, s := range r.Segments {
		// transcribe() keeps a sum per decoded sequence, not per token:
		// each text token carries its segment's average log-probability.
		for _, id := range s.Tokens {
			if id < d.w.tok.Specials().EOT {
				h.Tokens = append(h.Tokens, Token{Text: d.w.tok.Decode([]int{id}), LogProb: float32(s.AvgLogprob)})
			}
		}
		for _, w := range s.Words {
			h.Words = append(h.Words, Word{Word: strings.TrimSpace(w.Word), Start: w.Start, End: w.End, Confidence: w.Probability})
		}
	}
	h.Text = strings.Join(strings.Fields(r.Text), " ")
	if h.Text == "" && o.DetectNoSpeech {
		h.NoSpeech = true
	}
	if o.KeepAlignment {
		h.Features, h.Frames = we.features(), we.contentFrames()
		if h.Alignment, err = d.alignment(we, r); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// alignment draws where the decoder listened for each text token of r:
// the alignment heads' cross-attention (whisper.CrossAttention) of each
// window over its segments' tokens, placed at the window's 20 ms
// encoder frames in the whole recording.
func (d *whisperDecoder) alignment(we *whisperEncoding, r *whisper.TranscribeResult) ([][]float32, error) {
	content := we.contentFrames()
	cols := (content + 1) / 2
	sot, err := d.w.tok.SOTSequence(r.Language, d.w.opts.Decoding.Task)
	if err != nil {
		return nil, err
	}
	eot := d.w.tok.Specials().EOT
	var rows [][]float32
	for i := 0; i < len(r.Segments); {
		seek := r.Segments[i].Seek
		var tokens []int
		for ; i < len(r.Segments) && r.Segments[i].Seek == seek; i++ {
			tokens = append(tokens, r.Segments[i].Tokens...)
		}
		n := min(audio.WhisperWindowFrames, content-seek)
		window := we.spec.Window(nil, seek, n)
		att, err := whisper.CrossAttention(d.w.net, window, sot, tokens, n, d.w.opts.Words.Heads)
		if err != nil {
			return nil, err
		}
		for k, id := range tokens {
			if id >= eot {
				continue
			}
			row := make([]float32, cols)
			copy(row[min(seek/2, cols):], att[k])
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// contentFrames is the number of 10 ms frames holding audio.
func (e *whisperEncoding) contentFrames() int {
	return max(0, e.spec.Frames-audio.WhisperWindowFrames)
}

// features returns the spectrogram's audio frames time-major, (frames,
// n_mels), as Hypothesis.Features wants.
func (e *whisperEncoding) features() []float32 {
	s, n := e.spec, e.contentFrames()
	out := make([]float32, n*s.Mels)
	for m := range s.Mels {
		for t := range n {
			out[t*s.Mels+m] = s.Data[m*s.Frames+t]
		}
	}
	return out
}

// Align times a known text (words) in a recording of at most 30 s, with
// openai/whisper's word timing over the text forced through the decoder.
func (d *whisperDecoder) Align(chunks []Encoding, words []string, o *DecodeOptions) ([]*Hypothesis, error) {
	if len(chunks) != 1 {
		return nil, fmt.Errorf("speechmodel: Whisper aligns a recording as one piece, got %d chunks", len(chunks))
	}
	we, err := whisperEncoded(chunks[0])
	if err != nil {
		return nil, err
	}
	if we.seconds > 30 {
		return nil, fmt.Errorf("speechmodel: forced alignment with a Whisper model takes recordings of at most 30 s; this one lasts %.1f s", we.seconds)
	}
	window := we.spec.Window(nil, 0, we.contentFrames())
	lang := d.w.opts.Decoding.Language
	if lang == "" {
		lang = "en"
	}
	ws, err := whisper.AlignText(d.w.net, d.w.tok, window, we.contentFrames(), strings.Join(words, " "), lang, d.w.opts.Words)
	if err != nil {
		return nil, err
	}
	h := &Hypothesis{Text: strings.Join(words, " "), Words: []Word{}}
	for _, w := range ws {
		h.Words = append(h.Words, Word{Word: strings.TrimSpace(w.Word), Start: w.Start, End: w.End, Confidence: w.Probability})
	}
	if o != nil && o.KeepAlignment {
		h.Features, h.Frames = we.features(), we.contentFrames()
	}
	return []*Hypothesis{h}, nil
}

// IsWhisperFile reports whether path holds a Whisper checkpoint: a
// whisper.cpp ggml file, or a safetensors file with Whisper's tensors
// (Hugging Face's or openai/whisper's names) rather than an attend model.
// Files in a format no model is read from (a PyTorch .pt, ONNX, GGUF)
// are an error saying what is supported and how to convert; other files
// are not Whisper's (false, nil), for the LAS loader to judge.
func IsWhisperFile(path string) (bool, error) {
	format, err := ggml.SniffFile(path)
	switch {
	case errors.Is(err, ggml.ErrUnsupported):
		return false, fmt.Errorf("speechmodel: %w", err)
	case err != nil:
		return false, nil
	}
	switch format {
	case ggml.FormatGGML:
		return true, nil
	case ggml.FormatSafetensors:
		f, err := os.Open(path)
		if err != nil {
			return false, fmt.Errorf("speechmodel: %w", err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return false, fmt.Errorf("speechmodel: %w", err)
		}
		r, err := safetensors.NewReader(f, st.Size())
		if err != nil {
			return false, fmt.Errorf("speechmodel: %s: %w", path, err)
		}
		for _, name := range []string{"model.encoder.conv1.weight", "encoder.conv1.weight"} {
			if _, ok := r.Info(name); ok {
				return true, nil
			}
		}
	}
	return false, nil
}

// OpenWhisper opens a Whisper checkpoint: a file (ggml or safetensors),
// or the name of one of whisper.cpp's published models (tiny.en, base,
// …), found in the user's cache or downloaded there (checked against its
// SHA-1) when download allows.
func OpenWhisper(ctx context.Context, pathOrName string, o *WhisperOptions, locate *whisper.LocateOptions) (*Whisper, error) {
	path := pathOrName
	if _, err := os.Stat(path); err != nil {
		if _, known := whisper.Published[pathOrName]; !known {
			return nil, fmt.Errorf("speechmodel: model %s: %w", pathOrName, err)
		}
		if path, err = whisper.Locate(ctx, pathOrName, locate); err != nil {
			return nil, err
		}
	}
	m, err := whisper.Load(path)
	if err != nil {
		return nil, err
	}
	return NewWhisper(m, o)
}
