package speech

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline"
)

// Word is one recognized word with its time span in the recording, in
// seconds, derived from the attention alignment (see wordTimes).
type Word struct {
	Word  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Chunk is one segment of the recording decoded on its own.
type Chunk struct {
	Start    float64 `json:"start"` // offset in the recording, seconds
	End      float64 `json:"end"`
	Text     string  `json:"text"`
	Words    []Word  `json:"words"`
	Fallback string  `json:"fallback,omitempty"` // why CTC replaced attention output, if it did
	// Alignment (characters × encoder frames) and the features
	// (frames × 80), kept only with TranscribeOptions.KeepAlignment.
	Alignment [][]float32 `json:"-"`
	Chars     []string    `json:"-"`
	Features  []float32   `json:"-"`
	Frames    int         `json:"-"`
}

// Transcript is a transcribed recording.
type Transcript struct {
	Path     string  `json:"path"`
	Text     string  `json:"text"`
	Duration float64 `json:"duration"`
	Chunks   []Chunk `json:"chunks"`
	// Decode is the time spent featurizing, encoding and searching
	// (model load and file decoding excluded), for real-time factors.
	Decode float64 `json:"decode_seconds"`
}

// TranscribeOptions configures a Transcriber; nil means defaults.
type TranscribeOptions struct {
	Search asr.SearchOptions
	// Segment configures the cutting of long audio (default: ≤ 15 s
	// chunks cut in pauses).
	Segment audio.SegmentOptions
	// KeepAlignment keeps each chunk's alignment and features (for
	// plots).
	KeepAlignment bool
}

// Transcriber transcribes files with one model; one per goroutine (the
// model itself may be shared).
type Transcriber struct {
	Model *asr.Model
	opts  TranscribeOptions
	fe    *Frontend
	ws    asr.Workspace
}

// NewTranscriber returns a transcriber over model.
func NewTranscriber(model *asr.Model, opts *TranscribeOptions) (*Transcriber, error) {
	fe, err := NewFrontend()
	if err != nil {
		return nil, err
	}
	t := &Transcriber{Model: model, fe: fe}
	if opts != nil {
		t.opts = *opts
	}
	return t, nil
}

// File transcribes an audio file ("-": stdin), streaming it through the
// segmenter so that memory stays bounded on long recordings.
func (t *Transcriber) File(path string, stdin io.Reader) (*Transcript, error) {
	r, closeFn, err := pipeline.OpenInput(path, stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	name := pipeline.DisplayName(path)
	stream, _, err := audio.Open(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t.Stream(path, stream)
}

// Stream transcribes decoded audio (any rate and channel count), chunk by
// chunk; path names it in the transcript and in errors.
func (t *Transcriber) Stream(path string, stream audio.Stream) (*Transcript, error) {
	name := pipeline.DisplayName(path)
	seg, err := audio.NewSegmenter(stream, &t.opts.Segment)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tr := &Transcript{Path: path, Chunks: []Chunk{}}
	for {
		s, err := seg.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c, err := t.Samples(s.Samples, s.Rate)
		if err != nil {
			return nil, fmt.Errorf("%s at %v: %w", name, s.StartTime().Round(time.Millisecond), err)
		}
		off := s.StartTime().Seconds()
		c.Start, c.End = off, s.EndTime().Seconds()
		for i := range c.Words {
			c.Words[i].Start += off
			c.Words[i].End += off
		}
		tr.Decode += c.decode
		tr.Duration = c.End
		tr.Chunks = append(tr.Chunks, c.Chunk)
	}
	if len(tr.Chunks) == 0 {
		return nil, fmt.Errorf("%s: %w", name, audio.ErrNoAudio)
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

type timedChunk struct {
	Chunk
	decode float64
}

// Samples transcribes one chunk of 16 kHz mono audio; word times are
// relative to its start.
func (t *Transcriber) Samples(samples []float32, rate int) (*timedChunk, error) {
	start := time.Now()
	c := &timedChunk{}
	c.End = float64(len(samples)) / float64(rate)
	if len(samples) < rate/40 { // shorter than one 25 ms frame
		return c, nil
	}
	f, err := t.fe.Compute(samples, rate)
	if err != nil {
		return nil, err
	}
	e, err := t.Model.Encode(&t.ws, f.Data, f.Frames)
	if err != nil {
		return nil, err
	}
	r, err := t.Model.Decode(&t.ws, e, &t.opts.Search)
	if err != nil {
		return nil, err
	}
	c.Text, c.Fallback = strings.TrimSpace(r.Text), r.Fallback
	frameSec := FrameSeconds * float64(t.Model.Config.Reduction())
	c.Words = wordTimes(r, t.Model.Vocab, frameSec)
	if t.opts.KeepAlignment {
		c.Alignment = r.Alignment
		for _, tok := range r.Tokens {
			c.Chars = append(c.Chars, t.Model.Vocab.Decode([]int{tok}))
		}
		c.Features, c.Frames = append([]float32(nil), f.Data...), f.Frames
	}
	c.decode = time.Since(start).Seconds()
	return c, nil
}

// wordTimes derives word spans from the alignment: each character sits
// at its attention peak (the encoder frame of largest weight); a word
// starts at the start of its first character's frame and ends at the end
// of its last one's. Times never go backwards.
func wordTimes(r *asr.Result, v *asr.Vocab, frameSec float64) []Word {
	words := []Word{}
	var cur []rune
	first, lastFrame, prevEnd := -1, -1, 0.0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		w := Word{Word: string(cur), Start: float64(first) * frameSec, End: float64(lastFrame+1) * frameSec}
		w.Start = max(w.Start, prevEnd)
		w.End = max(w.End, w.Start+frameSec)
		prevEnd = w.End
		words = append(words, w)
		cur, first = cur[:0], -1
	}
	for i, tok := range r.Tokens {
		ch := v.Decode([]int{tok})
		if ch == " " {
			flush()
			continue
		}
		peak := 0
		if i < len(r.Alignment) {
			row := r.Alignment[i]
			for t := range row {
				if row[t] > row[peak] {
					peak = t
				}
			}
		}
		if first < 0 {
			first = peak
		}
		lastFrame = max(peak, first)
		cur = append(cur, []rune(ch)...)
	}
	flush()
	return words
}
