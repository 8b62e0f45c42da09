package stream

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Event is what a Streamer says while audio arrives: a partial
// transcript of the utterance being spoken, or the final transcript of
// one that ended.
type Event struct {
	// Final says the event closes an utterance: Text is its transcript
	// by the model's full search, Start and End its span and Words its
	// timed words (seconds from the stream's start). Otherwise Text is a
	// partial transcript of the audio since the last final, which later
	// partials and the final replace.
	Final bool
	Text  string
	Start float64
	End   float64
	Words []speechmodel.Word
	// At is how much audio had been written when the event was made, in
	// seconds: At − End is how long after its end a final came, in
	// audio (the endpointer's look-ahead).
	At float64
	// Decode is the time its decoding took.
	Decode time.Duration
}

// Options configures a Streamer; nil means defaults.
type Options struct {
	// Transcribe configures the cutting and decoding as for files
	// (Segment and its VAD; NoVAD, Threads and the callbacks are
	// ignored: live transcription always uses the detector).
	Transcribe speech.TranscribeOptions
	// PartialInterval is how much audio passes between partials (0 means
	// DefaultPartialInterval; a quarter of it until an utterance's first
	// words show, the first tried as soon as the detector hears speech);
	// negative turns partials off.
	PartialInterval time.Duration
	// PartialLoad, when above 0, bounds the time partials take to that
	// fraction of the audio's: after a partial that took d, the next is
	// due no sooner than d/PartialLoad of audio later. Live callers set it
	// (DefaultPartialLoad) so that a slow model (a Whisper model encodes
	// a window of at least 5 s for each partial, base's shape 0.3 s of
	// CPU) or a busy machine spaces its partials out instead of falling
	// behind the audio. 0 means one every
	// PartialInterval whatever it costs, which makes the events depend on
	// the audio alone (tests).
	PartialLoad float64
	// EndSilence is how much non-speech after an utterance's last speech
	// ends it (audio.SegmentOptions.EndSilence, the live endpointer): 0
	// means DefaultEndSilence; negative waits for the detector's decided
	// probabilities instead, so that every cut is the whole recording's
	// (about 1.5 s of audio after the cut).
	EndSilence time.Duration
	// Clock times the partials' decoding for PartialLoad; nil means the
	// wall clock. A measurement on a shared machine passes the process's
	// CPU time, so that other programs do not space the partials out.
	Clock func() time.Duration
}

// DefaultEndSilence is the default Options.EndSilence.
const DefaultEndSilence = 600 * time.Millisecond

// DefaultPartialLoad is the Options.PartialLoad of asr stream and the
// server: partials take at most half of real time.
const DefaultPartialLoad = 0.5

// DefaultPartialInterval is the default Options.PartialInterval.
const DefaultPartialInterval = 400 * time.Millisecond

// Streamer transcribes one stream of audio as it arrives; it is not safe
// for concurrent use.
type Streamer struct {
	tr       *speech.Transcriber
	src      *liveSource
	seg      *audio.Segmenter
	interval int // PartialInterval in samples, 0: no partials
	load     float64
	clock    func() time.Duration

	open      []float32 // samples from openStart on: since the last cut
	openStart int
	received  int // samples written
	due       int // received count at which the next partial is due
	partial   string
	closed    bool
	spec      speculation
	specDue   int           // received count before which no speculation starts (PartialLoad)
	wait      time.Duration // how long the endpointer waits after a chunk's end
	slow      bool          // a speculation that cost over twice wait was wasted: do not speculate
}

// speculation is the decoding of the segment the live endpointer will
// cut if the pause after it goes on (audio.Segmenter.Tentative), made
// while it waits, so that the final's decoding overlaps the endpointer's
// wait: the final is this chunk when the endpointer cuts the same
// segment.
//
// A pause inside an utterance can look like its end for a while, and
// its speculation is then wasted. That costs nothing worth counting
// while a decoding fits in the endpointer's wait (0.4 s by default): the
// saving is a decoding's worth of latency. A model whose final takes
// longer (a Whisper model decodes a whole 30-second window: 0.7–1 s of
// CPU for tiny's shape, 2–2.5 s for base's) saves at most the wait and
// loses a whole decoding for every pause mistaken for an end, which
// delays every later event on a busy core. Measured on one core
// (docs/speech.md, Whisper's tiny and base shapes), speculating on every
// final took 0.72 and 1.08 s of CPU per second of audio and brought the
// finals p50 1.83 and 7.45 s after their chunk's end; without it 0.58
// and 0.89 s, 1.50 and 2.64 s. So once a speculation that cost more
// than twice the wait (by Options.Clock) is wasted, the Streamer stops
// speculating until a final decodes within the wait again. Our own
// model's long utterances cost about the wait (0.3–0.5 s for 6–8 s on
// one core), and their pauses are seldom mistaken for ends: stopping
// after every slow final instead cost the native dev clips' finals
// 0.18–0.27 s at the 95th percentile, and stopping after a wasted
// speculation that merely outlasted the wait left the utterance after
// one whose end moved to be decoded after its cut (p95 0.67 s against
// 0.57–0.66 s, measured before the search got faster). Bounding the
// wasted decodings' cost by 5 % of the audio instead let base's shape
// waste more (finals p50 2.96–3.13 s against 2.71–2.75 s).
type speculation struct {
	start, end int
	chunk      speech.Chunk
	took       time.Duration
	cost       time.Duration // by Options.Clock
}

// New returns a Streamer decoding with model.
func New(model speechmodel.Model, opts *Options) (*Streamer, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	to := o.Transcribe
	to.NoVAD, to.Threads, to.OnChunk, to.OnStart, to.KeepAlignment = false, 0, nil, nil, false
	switch {
	case o.EndSilence == 0:
		to.Segment.EndSilence = DefaultEndSilence
	case o.EndSilence > 0:
		to.Segment.EndSilence = o.EndSilence
	default:
		to.Segment.EndSilence = 0
	}
	tr, err := speech.NewTranscriber(model, &to)
	if err != nil {
		return nil, err
	}
	src := &liveSource{}
	seg, err := tr.LiveSegmenter(src)
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	if !(o.PartialLoad >= 0) {
		return nil, fmt.Errorf("stream: partial load %v: want 0 or more", o.PartialLoad)
	}
	s := &Streamer{tr: tr, src: src, seg: seg, load: o.PartialLoad, clock: o.Clock, wait: 1500 * time.Millisecond}
	if to.Segment.EndSilence > 0 {
		pad := to.Segment.SpeechPad
		if pad == 0 {
			pad = audio.DefaultSpeechPad
		}
		s.wait = to.Segment.EndSilence - pad
	}
	if s.clock == nil {
		epoch := time.Now()
		s.clock = func() time.Duration { return time.Since(epoch) }
	}
	switch {
	case o.PartialInterval == 0:
		s.interval = durationSamples(DefaultPartialInterval)
	case o.PartialInterval > 0:
		s.interval = max(1, durationSamples(o.PartialInterval))
	}
	s.due = s.interval
	return s, nil
}

func durationSamples(d time.Duration) int { return int(d * speechmodel.SampleRate / time.Second) }

// Received returns how much audio has been written.
func (s *Streamer) Received() time.Duration {
	return time.Duration(s.received) * time.Second / speechmodel.SampleRate
}

// Write feeds samples (mono, speechmodel.SampleRate, nominally in [-1, 1])
// and returns the events they complete: the finals of the utterances
// whose end became known, then a partial if one fell due and its text
// changed.
func (s *Streamer) Write(samples []float32) ([]Event, error) {
	if s.closed {
		return nil, errors.New("stream: write after close")
	}
	s.src.buf = append(s.src.buf, samples...)
	s.open = append(s.open, samples...)
	s.received += len(samples)
	events, err := s.finals(nil)
	if err != nil {
		return events, err
	}
	held, err := s.speculate()
	if err != nil || s.interval == 0 || s.received < s.due || !s.seg.HeardSpeech() {
		return events, err
	}
	s.due = s.received + s.interval
	text := s.spec.chunk.Text
	if !held || text == "" {
		// Unless the utterance's speech has ended and is decoded into
		// words (by a speculation whose bounds still hold): a partial
		// would decode the same speech again and delay the final, so
		// the speculation's text is the partial instead, the final's if
		// the endpointer cuts there. Speech the speculation found no
		// words in may be the start of words the detector has not yet
		// heard on.
		start := s.clock()
		if text, err = s.tr.Partial(s.open); err != nil {
			return events, fmt.Errorf("stream: %w", err)
		}
		if text == "" && s.partial == "" {
			// Speech, but too little for words yet: the first words are
			// wanted soonest, so try again in a quarter of the interval.
			s.due = s.received + s.interval/4
		}
		if s.load > 0 {
			s.due = max(s.due, s.received+durationSamples(time.Duration(float64(s.clock()-start)/s.load)))
		}
	}
	if text != "" && text != s.partial {
		s.partial = text
		events = append(events, Event{Text: text, At: s.seconds(s.received)})
	}
	return events, nil
}

// Close ends the stream (end of input, a client's eof, Ctrl-C) and
// returns the finals of what was still open.
func (s *Streamer) Close() ([]Event, error) {
	if s.closed {
		return nil, nil
	}
	s.closed, s.src.closed = true, true
	return s.finals(nil)
}

// finals appends the finals of every segment the endpointer can cut now.
func (s *Streamer) finals(events []Event) ([]Event, error) {
	for {
		seg, err := s.seg.Next()
		switch {
		case errors.Is(err, audio.ErrPending), errors.Is(err, io.EOF):
			return events, nil
		case err != nil:
			return events, fmt.Errorf("stream: %w", err)
		}
		drop := min(seg.End-s.openStart, len(s.open))
		s.open = s.open[:copy(s.open, s.open[drop:])]
		s.openStart += drop
		if seg.NoSpeech {
			continue
		}
		c, took, cost := s.spec.chunk, s.spec.took, s.spec.cost
		if seg.Start != s.spec.start || seg.End != s.spec.end {
			begin := s.clock()
			if c, took, err = s.tr.Segment(seg); err != nil {
				return events, fmt.Errorf("stream: %w", err)
			}
			cost = s.clock() - begin
		}
		// The next utterance's first partial is tried as soon as the
		// detector hears it.
		if seg.Start != s.spec.start || seg.End != s.spec.end {
			s.wasted(s.spec)
		}
		if cost <= s.wait {
			s.slow = false
		}
		s.partial, s.spec, s.due = "", speculation{}, s.received
		if c.NoSpeech || c.Text == "" {
			continue
		}
		events = append(events, Event{Final: true, Text: c.Text, Start: c.Start, End: c.End, Words: c.Words,
			At: s.seconds(s.received), Decode: took})
	}
}

// speculate decodes the segment the endpointer is about to cut, once
// (again if its bounds move, no sooner than PartialLoad allows); held
// says that a speculation of the segment now tentative exists: made now,
// or earlier at the same bounds.
func (s *Streamer) speculate() (held bool, err error) {
	start, end, found := s.seg.Tentative()
	if found && start == s.spec.start && end == s.spec.end {
		return true, nil
	}
	if s.slow || !found || start < s.openStart || end-s.openStart > len(s.open) || s.received < s.specDue {
		return false, nil
	}
	s.wasted(s.spec) // its bounds moved
	begin := s.clock()
	seg := audio.Segment{Samples: s.open[start-s.openStart : end-s.openStart], Rate: speechmodel.SampleRate,
		Start: start, End: end, SpeechProbability: 1}
	c, took, err := s.tr.Segment(seg)
	if err != nil {
		return false, fmt.Errorf("stream: %w", err)
	}
	s.spec = speculation{start: start, end: end, chunk: c, took: took, cost: s.clock() - begin}
	if s.load > 0 {
		// Bounds that keep moving (noise at the detector's threshold)
		// must not cost a decoding per piece.
		s.specDue = s.received + durationSamples(time.Duration(float64(s.clock()-begin)/s.load))
	}
	return true, nil
}

// wasted notes a speculation the endpointer did not cut (none: its zero
// value): one that cost more than twice the endpointer's wait stops
// speculation.
func (s *Streamer) wasted(spec speculation) {
	if spec.end > 0 && spec.cost > 2*s.wait {
		s.slow = true
	}
}

func (s *Streamer) seconds(samples int) float64 { return float64(samples) / speechmodel.SampleRate }

// liveSource is the audio.Stream the endpointer reads: the samples
// written so far, then audio.ErrPending until more come, io.EOF once
// closed.
type liveSource struct {
	buf    []float32
	closed bool
}

func (l *liveSource) Rate() int     { return speechmodel.SampleRate }
func (l *liveSource) Channels() int { return 1 }

func (l *liveSource) Read(dst []float32) (int, error) {
	n := copy(dst, l.buf)
	l.buf = l.buf[:copy(l.buf, l.buf[n:])]
	switch {
	case n > 0:
		return n, nil
	case l.closed:
		return 0, io.EOF
	}
	return 0, audio.ErrPending
}
