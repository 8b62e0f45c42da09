package speechmodel

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// LAS is a Listen-Attend-Spell model (models/asr) with its search, as a
// Model: the embedded default model and every model "asr train" makes.
// Its Decoders featurize each chunk (Frontend: 80 log-mel bins, 10 ms
// hop, CMVN over the chunk), run the listener over it and the joint
// CTC/attention beam search of the search options, and time words on the
// monotonic path through attention and CTC (see the package comment).
type LAS struct {
	model  *asr.Model
	search decode.Options
}

// NewLAS returns the LAS model m decoding with search (nil:
// decode.DefaultOptions, without a language model; a LanguageModel's
// Apply sets one in the options). m is shared, never written.
func NewLAS(m *asr.Model, search *decode.Options) *LAS {
	l := &LAS{model: m, search: decode.DefaultOptions()}
	if search != nil {
		l.search = *search
	}
	return l
}

// Network returns the network the LAS model decodes with.
func (l *LAS) Network() *asr.Model { return l.model }

// Info says that LAS attention reads encoder frames of the listener's
// reduction × 10 ms, and that the pipeline's default chunking suits it.
func (l *LAS) Info() ModelInfo {
	return ModelInfo{Family: "las", EncoderFrameSeconds: FrameSeconds * float64(l.model.Config.Reduction())}
}

// NewDecoder returns a decoder with its own front end and workspace.
func (l *LAS) NewDecoder() (Decoder, error) {
	fe, err := NewFrontend()
	if err != nil {
		return nil, err
	}
	return &lasTranscriber{Model: l.model, search: l.search, fe: fe}, nil
}

// lasTranscriber is the Decoder of a LAS model.
type lasTranscriber struct {
	Model  *asr.Model
	search decode.Options
	fe     *Frontend
	ws     asr.Workspace
}

// encodedChunk is the Encoding of a LAS decoder: the listener's output
// over one chunk, copied out of the workspace so that forced alignment
// can keep a whole recording's, and the features it heard.
type encodedChunk struct {
	enc      asr.Encoded
	features []float32 // (frames, 80), CMVN-normalized log-mel
	frames   int
	seconds  float64
	stages   Stages // the front end's and the listener's times
}

func (c *encodedChunk) Seconds() float64 { return c.seconds }

// Encode featurizes the samples and runs the listener over them.
func (t *lasTranscriber) Encode(samples []float32) (Encoding, error) {
	start := time.Now()
	f, err := t.fe.Compute(samples, SampleRate)
	if err != nil {
		return nil, err
	}
	mel := time.Since(start)
	e, err := t.Model.Encode(&t.ws, f.Data, f.Frames)
	if err != nil {
		return nil, err
	}
	c := &encodedChunk{enc: *e, features: slices.Clone(f.Data), frames: f.Frames,
		seconds: float64(len(samples)) / SampleRate,
		stages:  Stages{Mel: mel, Encode: time.Since(start) - mel, EncodeWindows: 1}}
	c.enc.Memory = slices.Clone(e.Memory[:e.T*e.D])
	if e.CTCLogProbs != nil {
		c.enc.CTCLogProbs = slices.Clone(e.CTCLogProbs[:e.T*t.Model.Vocab.Size()])
	}
	return c, nil
}

// encoded returns e as this decoder's Encoding.
func encoded(e Encoding) (*encodedChunk, error) {
	c, ok := e.(*encodedChunk)
	if !ok {
		return nil, fmt.Errorf("speechmodel: a LAS decoder was handed a %T, not its own encoding", e)
	}
	return c, nil
}

// Decode runs the search over one encoded chunk. With DetectNoSpeech, a
// chunk whose CTC best path is all blank holds no speech: the model's
// own evidence. A Partial decode is that CTC best path alone, with no
// speller: on hello.wav it takes about an eighth of the time of the
// default decoding (pipeline/stream's BenchmarkPartialDecode and
// BenchmarkFinalDecode); a model without a CTC head decodes as usual.
func (t *lasTranscriber) Decode(e Encoding, o *DecodeOptions) (*Hypothesis, error) {
	ec, err := encoded(e)
	if err != nil {
		return nil, err
	}
	if o == nil {
		o = &DecodeOptions{}
	}
	enc := &ec.enc
	if (o.DetectNoSpeech || o.Partial) && enc.CTCLogProbs != nil {
		best := t.Model.CTCGreedy(enc)
		if o.DetectNoSpeech && len(best) == 0 {
			return &Hypothesis{NoSpeech: true, Words: []Word{}}, nil
		}
		if o.Partial {
			return &Hypothesis{Text: strings.Join(strings.Fields(t.Model.Vocab.Decode(best)), " "), Words: []Word{}}, nil
		}
	}
	start := time.Now()
	r, err := decode.Decode(t.Model, &t.ws, enc, &t.search)
	if err != nil {
		return nil, err
	}
	stages := ec.stages
	stages.Decode, stages.DecodeTokens = time.Since(start), len(r.Tokens)
	h := &Hypothesis{Text: strings.Join(strings.Fields(r.Text), " "), Fallback: r.Fallback, FromCTC: r.FromCTC,
		Tokens: t.tokens(r.Tokens, r.LogProbs), Stages: stages}
	if h.Words, err = t.timeWords(enc, r.Tokens, r.Alignment, r.LogProbs); err != nil {
		return nil, err
	}
	if o.KeepAlignment {
		h.Alignment, h.Features, h.Frames = r.Alignment, ec.features, ec.frames
		if r.Fallback != "" && enc.CTCLogProbs != nil {
			h.CTC = ctcPosteriors(enc, r.Tokens, t.Model.Vocab.Size())
		}
	}
	return h, nil
}

// tokens spells out the characters of a transcript with their scores.
func (t *lasTranscriber) tokens(ids []int, logProbs []float32) []Token {
	out := make([]Token, len(ids))
	for i, id := range ids {
		out[i] = Token{Text: t.Model.Vocab.Decode([]int{id}), LogProb: logProbs[i]}
	}
	return out
}

// Align shares words out among the chunks (shareWords: CTC, then the
// speller) and forces each chunk's words through the speller (alignChunk).
// More than one chunk needs a CTC head (else the error wraps
// asr.ErrNoCTC).
func (t *lasTranscriber) Align(chunks []Encoding, words []string, o *DecodeOptions) ([]*Hypothesis, error) {
	if o == nil {
		o = &DecodeOptions{}
	}
	var (
		norm []string // the normalized words, one by one
		cut  []bool   // whether a word as written starts at norm[i] (and the end)
	)
	for _, w := range words {
		for i, f := range strings.Fields(w) {
			norm, cut = append(norm, f), append(cut, i == 0)
		}
	}
	cut = append(cut, true)
	if _, err := t.Model.Vocab.Encode(strings.Join(norm, " ")); err != nil {
		return nil, err
	}
	ecs := make([]*encodedChunk, len(chunks))
	for i, e := range chunks {
		var err error
		if ecs[i], err = encoded(e); err != nil {
			return nil, err
		}
	}
	counts, err := t.shareWords(ecs, norm, cut)
	if err != nil {
		return nil, err
	}
	out := make([]*Hypothesis, len(ecs))
	for i, ec := range ecs {
		if out[i], err = t.alignChunk(ec, norm[:counts[i]], o); err != nil {
			return nil, fmt.Errorf("chunk %d: %w", i+1, err)
		}
		norm = norm[counts[i]:]
	}
	return out, nil
}

// alignChunk forces words through the speller over one encoded chunk and
// times them.
func (t *lasTranscriber) alignChunk(ec *encodedChunk, words []string, o *DecodeOptions) (*Hypothesis, error) {
	h := &Hypothesis{Words: []Word{}}
	if len(words) == 0 {
		return h, nil
	}
	h.Text = strings.Join(words, " ")
	tokens, err := t.Model.Vocab.Encode(h.Text)
	if err != nil {
		return nil, err
	}
	fa, err := t.Model.Align(&t.ws, &ec.enc, tokens)
	if err != nil {
		return nil, err
	}
	if h.Words, err = t.timeWords(&ec.enc, tokens, fa.Alignment, fa.LogProbs); err != nil {
		return nil, err
	}
	h.Tokens = t.tokens(tokens, fa.LogProbs)
	if o.KeepAlignment {
		h.Alignment, h.Features, h.Frames = fa.Alignment, ec.features, ec.frames
	}
	return h, nil
}
