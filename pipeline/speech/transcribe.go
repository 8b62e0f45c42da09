package speech

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Chunk is one segment of the recording decoded on its own.
type Chunk struct {
	Start    float64            `json:"start"` // offset in the recording, seconds
	End      float64            `json:"end"`
	Text     string             `json:"text"`
	Words    []speechmodel.Word `json:"words"`
	Fallback string             `json:"fallback,omitempty"` // why CTC replaced attention output, if it did
	// FromCTC says the text came from the CTC prefix beam search or the
	// phone beam search alone, which joint rescoring preferred to every
	// transcript the attention beam finished (decode.Result.FromCTC): the
	// default decoding's CTC fallback. Its words are still timed by
	// attention.
	FromCTC bool `json:"from_ctc,omitempty"`
	// NoSpeech says the chunk holds no speech: the voice activity
	// detector found none (the chunk was not decoded), or the CTC head's
	// best path over it is all blank, or it is all digital silence (see
	// audible). Its text is empty, it has no words and no subtitle.
	// Always false with TranscribeOptions.NoVAD.
	NoSpeech bool `json:"no_speech"`
	// NoSpeechScore is 1 − the VAD's highest frame probability of speech
	// in the chunk (audio.VAD), in [0, 1]: near 1 for silence, noise and
	// music, near 0 where someone clearly speaks; 0 with NoVAD. A chunk
	// the VAD skipped scores at least 1 − audio.DefaultVADThreshold = 0.5.
	NoSpeechScore float64 `json:"no_speech_score"`
	// Alignment (characters × encoder frames) and the features
	// (frames × 80), kept only with TranscribeOptions.KeepAlignment.
	Alignment [][]float32 `json:"-"`
	// CTC holds, after a CTC fallback (Fallback not empty), per character
	// the CTC head's posterior of it at each encoder frame: what the text
	// came from (Alignment is then one-hot at the frames of the CTC best
	// path, not attention). Kept only with KeepAlignment.
	CTC [][]float32 `json:"-"`
	// Offset is where, in seconds after Start, the audio decoded begins:
	// digital silence at the chunk's start is not decoded (see audible),
	// so Features and the rows of Alignment and CTC start there.
	Offset   float64   `json:"-"`
	Chars    []string  `json:"-"`
	Features []float32 `json:"-"`
	Frames   int       `json:"-"`
}

// Transcript is a transcribed recording.
type Transcript struct {
	Path     string  `json:"path"`
	Text     string  `json:"text"`
	Duration float64 `json:"duration"`
	Chunks   []Chunk `json:"chunks"`
	// Truncated says the file ended before its header said it would: the
	// audio there was transcribed (commands warn).
	Truncated bool `json:"truncated,omitempty"`
	// NonFinite counts the samples that were NaN or ±Inf in the file,
	// read as 0 and ±1 (commands warn: the file is likely broken).
	NonFinite int64 `json:"nonfinite_samples,omitempty"`
	// ScriptScore is, in forced alignment, the mean log-probability per
	// token (Hypothesis.Tokens; for LAS per character, spaces excepted)
	// of the normalized script under the model: how well the script
	// fits the audio. Below MismatchScore (measured for LAS)
	// the script probably does not match it (commands warn). Zero in
	// transcription.
	ScriptScore float64 `json:"script_score,omitempty"`
	// Decode is the time spent featurizing, encoding and searching
	// (model load and file decoding excluded), for real-time factors.
	Decode float64 `json:"decode_seconds"`
	// Stages splits that time by stage ("asr transcribe -timings").
	Stages speechmodel.Stages `json:"-"`
}

// TranscribeOptions configures a Transcriber; nil means defaults.
type TranscribeOptions struct {
	// Segment configures the cutting of long audio. By default, chunks
	// are cut at pauses found by the voice activity detector, at most
	// DefaultChunkLength long (or the model's ModelInfo.ChunkLength),
	// and non-speech is skipped; with NoVAD they are cut at the quietest
	// point before 15 s (or ChunkLength). A model that cuts recordings
	// itself (ModelInfo.OwnChunking) gets each recording whole.
	Segment audio.SegmentOptions
	// NoVAD turns voice activity detection off: every chunk is decoded,
	// as before the detector existed.
	NoVAD bool
	// KeepAlignment keeps each chunk's alignment and features (for
	// plots).
	KeepAlignment bool
	// Threads is how many chunks of one recording are decoded at once,
	// each by a worker with its own front end and workspace over the
	// shared model (0 or 1: one after the other). The chunks are still
	// cut one after the other, reported in order, and the transcript is
	// the same whatever the number.
	Threads int
	// OnChunk, if set, is called with each chunk as soon as it and every
	// chunk before it are decoded, in order, before Stream returns:
	// what a command needs to print text and subtitles while a long
	// recording is still being decoded. Times are final (from the start
	// of the recording). A chunk without speech (NoSpeech) is reported
	// too.
	OnChunk func(Chunk)
	// OnStart, if set, is called once the audio is open with its length
	// as the file's header declares it, or 0 when the format does not say
	// (for progress reports).
	OnStart func(length time.Duration)
}

// DefaultChunkLength is the longest chunk the Transcriber decodes with
// voice activity detection: the default model learnt from utterances of
// 2–10 s (speechocean762 training utterances: 5 % under 2.3 s, median
// 3.4 s, 95 % under 7.1 s, 99 % under 10.9 s), and its speller loses its
// place on much longer ones. 12 s rather than 10 s keeps the longest
// sentences whole (19 of the 360 dev utterances are over 10 s, and cut
// in two they lose the words around the cut): dev utterances joined into
// 60 s recordings score 63.4 % WER against 65.2 % with 10 s (seed 2) and
// 48.0 % against 50.7 % (seed 1); 300 s ones within 0.3 points.
const DefaultChunkLength = 12 * time.Second

// Transcriber transcribes files with one model; one per goroutine (the
// model itself may be shared).
type Transcriber struct {
	Model speechmodel.Model
	opts  TranscribeOptions
	dec   speechmodel.Decoder
}

// NewTranscriber returns a transcriber over model (its decoding options
// are the model's: NewLAS takes the LAS search). A nil opts means the
// zero TranscribeOptions.
func NewTranscriber(model speechmodel.Model, opts *TranscribeOptions) (*Transcriber, error) {
	dec, err := model.NewDecoder()
	if err != nil {
		return nil, err
	}
	t := &Transcriber{Model: model, dec: dec}
	if opts != nil {
		t.opts = *opts
	}
	return t, nil
}

// File transcribes an audio file ("-": stdin), streaming it through the
// segmenter so that memory stays bounded on long recordings.
func (t *Transcriber) File(path string, stdin io.Reader) (*Transcript, error) {
	return withAudioFile(path, stdin, func(stream audio.Stream) (*Transcript, error) {
		return t.Stream(path, stream)
	})
}

// withAudioFile opens the audio file at path ("-": stdin), hands its
// decoded stream to use and closes the file after; a file that does not
// decode is an error naming it.
func withAudioFile(path string, stdin io.Reader, use func(audio.Stream) (*Transcript, error)) (*Transcript, error) {
	r, closeFn, err := input.Open(path, stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	stream, _, err := audio.Open(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	return use(stream)
}

// Stream transcribes decoded audio (any rate and channel count), chunk by
// chunk; path names it in the transcript and in errors. With
// TranscribeOptions.Threads above 1, chunks are decoded by that many
// workers at once while the next ones are cut, at most twice as many in
// flight, and put back in order.
func (t *Transcriber) Stream(path string, stream audio.Stream) (*Transcript, error) {
	return t.StreamContext(context.Background(), path, stream)
}

// StreamContext is Stream that stops when ctx is done: between chunks
// (a chunk being decoded, at most DefaultChunkLength of audio, is
// finished first), with an error that wraps context.Cause(ctx). An
// empty path names the audio "speech" in errors.
func (t *Transcriber) StreamContext(ctx context.Context, path string, stream audio.Stream) (*Transcript, error) {
	name := input.DisplayName(path)
	if path == "" {
		name = "speech"
	}
	if t.opts.OnStart != nil {
		length := time.Duration(0)
		if l, ok := stream.(interface{ Length() (time.Duration, bool) }); ok {
			length, _ = l.Length()
		}
		t.opts.OnStart(length)
	}
	fallback := time.Duration(0) // audio's 15 s
	if !t.opts.NoVAD {
		fallback = DefaultChunkLength
	}
	seg, err := t.segmenter(stream, t.opts.Segment, !t.opts.NoVAD, fallback)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tr := &Transcript{Path: path, Chunks: []Chunk{}}
	emit := func(s audio.Segment, c *timedChunk) {
		c.place(s, !t.opts.NoVAD)
		tr.Decode += c.decode
		tr.Stages.Add(c.stages)
		tr.Duration = c.End
		tr.Chunks = append(tr.Chunks, c.Chunk)
		if t.opts.OnChunk != nil {
			t.opts.OnChunk(c.Chunk)
		}
	}
	if t.opts.Threads > 1 {
		err = t.parallel(ctx, seg, emit)
	} else {
		err = t.serial(ctx, seg, emit)
	}
	if err == nil {
		err = canceled(ctx) // OnChunk may have cancelled it after the last chunk
	}
	if err != nil {
		return nil, fmt.Errorf("%s%w", name, err)
	}
	if len(tr.Chunks) == 0 {
		return nil, fmt.Errorf("%s: %w", name, audio.ErrNoAudio)
	}
	tr.Decode = roundMs(tr.Decode)
	if t, ok := stream.(interface{ Truncated() bool }); ok {
		tr.Truncated = t.Truncated()
	}
	if c, ok := stream.(interface{ NonFinite() int64 }); ok {
		tr.NonFinite = c.NonFinite()
	}
	var texts []string
	for _, c := range tr.Chunks {
		if c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	tr.Text = strings.Join(texts, " ")
	return tr, nil
}

// canceled returns, once ctx is done, the error that says why; errors
// start with what follows the file's name.
func canceled(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf(": %w", context.Cause(ctx))
}

// serial cuts and decodes the chunks one after the other. Errors start
// with what follows the file's name.
func (t *Transcriber) serial(ctx context.Context, seg segmenter, emit func(audio.Segment, *timedChunk)) error {
	for {
		if err := canceled(ctx); err != nil {
			return err
		}
		s, err := seg.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf(": %w", err)
		}
		c, err := t.segment(s)
		if err != nil {
			return err
		}
		emit(s, c)
	}
}

// parallel cuts the chunks in this goroutine and decodes them on
// Threads workers, emitting them in order.
func (t *Transcriber) parallel(ctx context.Context, seg segmenter, emit func(audio.Segment, *timedChunk)) error {
	workers := []*Transcriber{t}
	for len(workers) < t.opts.Threads {
		w, err := NewTranscriber(t.Model, &t.opts)
		if err != nil {
			return fmt.Errorf(": %w", err)
		}
		workers = append(workers, w)
	}
	type job struct {
		i int
		s audio.Segment
	}
	type result struct {
		job
		c   *timedChunk
		err error
	}
	window := 2 * len(workers) // chunks in flight, decoded or not yet emitted
	jobs, results := make(chan job, window), make(chan result, window)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				c, err := w.segment(j.s)
				results <- result{j, c, err}
			}
		}()
	}
	defer wg.Wait()
	defer close(jobs)
	var (
		firstErr   error
		sent, next int
		eof        bool
		pending    = map[int]result{}
	)
	for {
		for !eof && firstErr == nil && sent-next < window {
			if firstErr = canceled(ctx); firstErr != nil {
				break
			}
			s, err := seg.Next()
			if errors.Is(err, io.EOF) {
				eof = true
				break
			}
			if err != nil {
				firstErr = fmt.Errorf(": %w", err)
				break
			}
			jobs <- job{sent, s}
			sent++
		}
		if next == sent {
			return firstErr
		}
		r := <-results
		pending[r.i] = r
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			next++
			if firstErr == nil {
				firstErr = canceled(ctx)
			}
			switch {
			case firstErr != nil: // drain
			case r.err != nil:
				firstErr = r.err
			default:
				emit(r.s, r.c)
			}
		}
	}
}

// segment decodes one segment of the segmenter, unless it holds no
// speech. Errors start with what follows the file's name.
func (t *Transcriber) segment(s audio.Segment) (*timedChunk, error) {
	if s.NoSpeech {
		return &timedChunk{Chunk: Chunk{Words: []speechmodel.Word{}, NoSpeech: true}}, nil
	}
	c, err := t.Samples(s.Samples, s.Rate)
	if err != nil {
		return nil, fmt.Errorf(" at %v: %w", s.StartTime().Round(time.Millisecond), err)
	}
	return c, nil
}

// roundMs rounds seconds to milliseconds, the precision of subtitles and
// of the JSON transcript.
func roundMs(sec float64) float64 { return math.Round(sec*1000) / 1000 }

// timedChunk is a decoded chunk and the seconds its decoding took.
type timedChunk struct {
	Chunk
	decode float64
	stages speechmodel.Stages
}

// Samples transcribes one chunk of mono audio at rate (SampleRate, the
// rate of every segment the Transcriber cuts); word times are relative
// to its start.
func (t *Transcriber) Samples(samples []float32, rate int) (*timedChunk, error) {
	start := time.Now()
	c := &timedChunk{}
	c.End = float64(len(samples)) / float64(rate)
	if len(samples) < rate/40 { // shorter than one 25 ms frame
		return c, nil
	}
	if rate != speechmodel.SampleRate {
		return nil, fmt.Errorf("speech: %d Hz samples: the models take %d Hz", rate, speechmodel.SampleRate)
	}
	// Digital silence at a chunk's ends is not decoded, except by a
	// family that cuts recordings itself: it gets the recording exactly
	// (Whisper's output depends on every sample, as openai/whisper's).
	offset, silent := 0.0, false
	if !t.Model.Info().OwnChunking {
		samples, offset, silent = audible(samples, rate)
	}
	if silent { // nothing to hear
		c.NoSpeech, c.Words = !t.opts.NoVAD, []speechmodel.Word{}
		c.decode = time.Since(start).Seconds()
		return c, nil
	}
	e, err := t.dec.Encode(samples)
	if err != nil {
		return nil, err
	}
	h, err := t.dec.Decode(e, &speechmodel.DecodeOptions{KeepAlignment: t.opts.KeepAlignment, DetectNoSpeech: !t.opts.NoVAD})
	if err != nil {
		return nil, err
	}
	c.fromHypothesis(h, offset, t.opts.KeepAlignment)
	c.decode = time.Since(start).Seconds()
	return c, nil
}

// place puts c, decoded from segment s, at its place in the recording:
// its times and its words' from the recording's start, and with vad its
// NoSpeechScore.
func (c *timedChunk) place(s audio.Segment, vad bool) {
	if vad {
		c.NoSpeechScore = 1 - s.SpeechProbability
	}
	off := s.StartTime().Seconds()
	c.Start, c.End = roundMs(off), roundMs(s.EndTime().Seconds())
	for i := range c.Words {
		// Frames are 60 ms: a word in the chunk's last frame may end
		// (and even start) past the chunk's last sample; clamp it.
		c.Words[i].Start = min(roundMs(c.Words[i].Start+off), c.End)
		c.Words[i].End = min(roundMs(c.Words[i].End+off), c.End)
	}
}

// fromHypothesis fills c from a Decoder's hypothesis of the audio that
// starts offset seconds into the chunk, and with keep its drawing.
func (c *timedChunk) fromHypothesis(h *speechmodel.Hypothesis, offset float64, keep bool) {
	c.Text, c.Fallback, c.FromCTC, c.NoSpeech = h.Text, h.Fallback, h.FromCTC, h.NoSpeech
	c.stages = h.Stages
	c.Words = h.Words
	if c.Words == nil {
		c.Words = []speechmodel.Word{}
	}
	if h.NoSpeech {
		return
	}
	c.Offset = offset
	for i := range c.Words {
		c.Words[i].Start += offset
		c.Words[i].End += offset
	}
	if keep {
		c.Alignment, c.CTC, c.Features, c.Frames = h.Alignment, h.CTC, h.Features, h.Frames
		for _, tok := range h.Tokens {
			c.Chars = append(c.Chars, tok.Text)
		}
	}
}
