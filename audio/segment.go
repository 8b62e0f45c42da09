package audio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// SegmentOptions configures a Segmenter. The zero value (and a nil
// *SegmentOptions) means 16 kHz segments of at most 15 s, cut at the
// quietest 100 ms within the last 3 s before the limit when that is at
// least 10 dB below the segment's mean energy.
type SegmentOptions struct {
	// Rate is the sample rate of the segments; other input is resampled.
	// 0 means 16000.
	Rate int
	// MaxLength is the longest segment. 0 means 15 s.
	MaxLength time.Duration
	// SearchWindow is how far before MaxLength a pause is looked for, so
	// every segment but the last is at least MaxLength − SearchWindow
	// long. 0 means 3 s, or MaxLength/2 if that is shorter. It must be
	// less than MaxLength.
	SearchWindow time.Duration
	// PauseDB is how far below the segment's mean energy (in dB) the
	// quietest point must be to count as a pause; when it is not, the
	// segment is cut hard at MaxLength. 0 means 10 dB.
	PauseDB float64
	// VAD, when not nil, turns on voice activity detection (see
	// Segmenter): non-speech is returned as segments without samples,
	// marked NoSpeech, and speech segments are cut in the pauses the
	// detector finds. It needs Rate 16000.
	VAD *VADOptions
	// SpeechPad widens every stretch of frames the VAD calls speech by
	// this much on each side (0 means 200 ms), so that weak onsets and
	// endings are kept and the recognizer hears a little silence around
	// words, as it did in training.
	SpeechPad time.Duration
	// NoisePad is how far the speech is widened instead over frames the
	// VAD gives probability 0: steady noise (see VAD) and silence. 0
	// means 150 ms; it is at most SpeechPad. Such frames hold no weak
	// onset to keep, and noise a chunk keeps is noise the recognizer
	// decodes, but a chunk cut too close to its speech loses the context
	// the recognizer heard around its training sentences. Joined dev
	// utterances, WER with 100 / 150 / 200 ms: white noise in the pauses
	// (seed 2) 65.0 / 66.9 / 67.4 %, (seed 1) 62.1 / 62.1 / 61.8 %;
	// noise at 10 dB SNR over the whole 32-minute recording (where every
	// pause is steady noise) 82.1 / 79.0 / 78.8 %, against 74.7 % for
	// its clips one by one; digital silence in the pauses: no change.
	NoisePad time.Duration
	// MinNoSpeech is the shortest gap between padded speech that becomes
	// a NoSpeech segment (0 means 300 ms); shorter gaps stay inside
	// speech segments.
	MinNoSpeech time.Duration
	// Margin is audio of a gap kept on each side of it, beyond
	// SpeechPad, by the speech segments it separates: at most half the
	// gap each, the rest a NoSpeech segment. 0 means none (negative is an
	// error): SpeechPad alone already leaves each segment the non-speech
	// edges the recognizer heard around its training utterances (the
	// VAD finds speechocean762 training utterances start after a median
	// 0.16 s and end a median 0.26 s before their end), and every
	// millisecond more is pause, which in a real recording holds its
	// noise, unlike a clip's own quiet edges: with white noise at the
	// clips' level in the pauses of joined dev utterances, a 300 ms
	// margin cost 4.9 WER points on one draw of 300 s recordings (67.1
	// against 62.2 %) and 0.6 on another (67.6 against 67.0 %).
	Margin time.Duration
	// SentencePause and SentenceLength split a speech segment that seems
	// to hold more than one sentence (only with a VAD): one longer than
	// twice SentenceLength is cut in the middle of its longest pause of at
	// least SentencePause (frames the VAD called non-speech, before
	// padding) that leaves SentenceLength on each side. Pauses between
	// sentences are often shorter than the gap that ends a segment
	// (MinNoSpeech plus twice SpeechPad). 0 means 300 ms and 3 s: 3 s
	// is about the median length of speechocean762 dev utterances; the
	// pair scored best of 0.2–0.4 s × 1.5–4 s on dev utterances joined
	// into long recordings, and when segments lost their pause margin
	// (chunks now hold less pause), 300 ms beat 400 ms on all four
	// silent-pause joins (2–1.3 WER points) and the one-recording join,
	// and tied in noise. A negative SentencePause turns the split off.
	SentencePause, SentenceLength time.Duration
	// EndSilence, when above 0, turns on the live endpointer (only with
	// a VAD, and only over a live source, one whose Read returns
	// ErrPending): a speech segment ends as soon as EndSilence of
	// non-speech has followed its last speech frame by the detector's
	// provisional probabilities (VAD.Provisional), instead of the
	// SpeechPad + MinNoSpeech + 1 s of audio the decided ones take. The
	// segment is cut where it would be over the whole recording (SpeechPad
	// after that frame) when the provisional probabilities agree with the
	// decided ones and the pause lasts MinNoSpeech + 2·SpeechPad; a
	// shorter pause, kept inside one segment over the whole recording,
	// ends a segment here, and speech the detector decides later to have
	// lasted a little longer than it guessed is left out. 0 means off; it
	// must be at least SpeechPad (the cut lies SpeechPad after the
	// speech).
	EndSilence time.Duration
}

// DefaultSpeechPad is SegmentOptions.SpeechPad's default.
const DefaultSpeechPad = 200 * time.Millisecond

// Segment is a piece of a longer recording.
type Segment struct {
	// Samples is the mono audio of the segment, at Rate. It belongs to
	// the caller: the Segmenter does not reuse it.
	Samples []float32
	Rate    int
	// Start and End are the segment's first and one-past-last sample
	// index in the whole recording at Rate; End − Start == len(Samples).
	// Consecutive segments are contiguous: one's End is the next's Start.
	Start, End int
	// NoSpeech marks a stretch the VAD found no speech in (only with
	// SegmentOptions.VAD): it has no Samples, and it may be of any length.
	NoSpeech bool
	// SpeechProbability is the VAD's highest frame probability of speech
	// in the segment (1 without a VAD).
	SpeechProbability float64
}

// StartTime returns the offset of the segment's start in the recording.
func (s Segment) StartTime() time.Duration { return samplesToDuration(s.Start, s.Rate) }

// EndTime returns the offset of the segment's end in the recording.
func (s Segment) EndTime() time.Duration { return samplesToDuration(s.End, s.Rate) }

func samplesToDuration(n, rate int) time.Duration {
	if rate <= 0 {
		return 0
	}
	return time.Duration(int64(n) * int64(time.Second) / int64(rate))
}

// Energy analysis: mean-square energy of 10 ms frames, compared over
// windows of segmentSmooth frames (100 ms) centered on candidate cuts.
const (
	segmentFramesPerSecond = 100
	segmentSmooth          = 10
)

// Segmenter splits a long recording into segments no longer than a limit,
// cutting at pauses, so that a speech recognizer can take hours of audio a
// piece at a time. It reads its Stream incrementally and holds at most
// MaxLength plus a few hundred milliseconds of samples, however long the
// stream.
//
// Each cut is made at the quietest point (lowest mean energy over 100 ms)
// within the SearchWindow before MaxLength; if even that is not PauseDB
// below the segment's mean energy, there is no pause and the cut is made
// at exactly MaxLength. The last segment ends where the stream ends.
type Segmenter struct {
	src    Stream
	rate   int
	max    int // MaxLength in samples
	search int // SearchWindow in samples
	frame  int // energy frame in samples
	pause  float64

	buf    []float32 // samples from offset on, not yet returned
	offset int       // index in the recording of buf[0]
	read   []float32 // scratch for src.Read
	eof    bool
	err    error // sticky
	// waiting says the last fill stopped early: a live source had no
	// samples yet (ErrPending).
	waiting bool
	energy  []float64

	vad        *VAD // nil without voice activity detection
	padFrames  int  // SpeechPad in VAD frames
	noisePad   int  // NoisePad in VAD frames
	gapFrames  int  // MinNoSpeech in VAD frames
	cutInPause bool // the last speech segment ended inside a short gap
	// marginFrames is Margin in VAD frames; inLead says that the buffer
	// starts with the margin kept before the next speech segment.
	marginFrames int
	inLead       bool
	mask         []bool
	// sentencePause and sentenceFrames are SentencePause and
	// SentenceLength in VAD frames (sentencePause 0: no split).
	sentencePause, sentenceFrames int
	// endFrames is EndSilence in VAD frames (0: no live endpointer);
	// liveFloor is the frame of the last live cut: speech before it pads
	// nothing after it.
	endFrames, liveFloor int
	prov                 []float32 // liveBounds' provisional probabilities
	liveEnd              int       // liveBounds' end before a sentence cut
	liveProbability      float64   // and its highest probability
}

// NewSegmenter returns a Segmenter reading s, which may have any rate and
// number of channels: it is mixed down to mono and resampled to
// opts.Rate on the fly.
func NewSegmenter(s Stream, opts *SegmentOptions) (*Segmenter, error) {
	var o SegmentOptions
	if opts != nil {
		o = *opts
	}
	if o.Rate == 0 {
		o.Rate = 16000
	}
	if o.MaxLength == 0 {
		o.MaxLength = 15 * time.Second
	}
	if o.SearchWindow == 0 {
		o.SearchWindow = min(3*time.Second, o.MaxLength/2)
	}
	if o.PauseDB == 0 {
		o.PauseDB = 10
	}
	switch {
	case o.Rate < segmentFramesPerSecond:
		return nil, fmt.Errorf("audio: segment: rate %d Hz must be at least %d", o.Rate, segmentFramesPerSecond)
	case o.MaxLength < 2*segmentSmooth*time.Second/segmentFramesPerSecond:
		return nil, fmt.Errorf("audio: segment: max length %v must be at least %v", o.MaxLength,
			2*segmentSmooth*time.Second/segmentFramesPerSecond)
	case o.SearchWindow < 0 || o.SearchWindow >= o.MaxLength:
		return nil, fmt.Errorf("audio: segment: search window %v must be in [0, max length %v)", o.SearchWindow, o.MaxLength)
	case o.PauseDB < 0 || math.IsNaN(o.PauseDB):
		return nil, fmt.Errorf("audio: segment: pause threshold %g dB must not be negative", o.PauseDB)
	case o.VAD != nil && o.Rate != VADRate:
		return nil, fmt.Errorf("audio: segment: voice activity detection needs rate %d, not %d", VADRate, o.Rate)
	case o.SpeechPad < 0 || o.NoisePad < 0 || o.MinNoSpeech < 0 || o.Margin < 0:
		return nil, fmt.Errorf("audio: segment: speech pad %v, noise pad %v, minimum gap %v and margin %v must not be negative", o.SpeechPad, o.NoisePad, o.MinNoSpeech, o.Margin)
	case o.EndSilence < 0:
		return nil, fmt.Errorf("audio: segment: end silence %v must not be negative", o.EndSilence)
	case o.SentenceLength < 0:
		return nil, fmt.Errorf("audio: segment: sentence length %v must not be negative", o.SentenceLength)
	}
	if o.SpeechPad == 0 {
		o.SpeechPad = DefaultSpeechPad
	}
	if o.NoisePad == 0 {
		o.NoisePad = 150 * time.Millisecond
	}
	o.NoisePad = min(o.NoisePad, o.SpeechPad)
	if o.MinNoSpeech == 0 {
		o.MinNoSpeech = 300 * time.Millisecond
	}
	if o.SentencePause == 0 {
		o.SentencePause = 300 * time.Millisecond
	}
	if o.SentenceLength == 0 {
		o.SentenceLength = 3 * time.Second
	}
	if o.EndSilence > 0 && o.EndSilence < o.SpeechPad {
		return nil, fmt.Errorf("audio: segment: end silence %v must be at least the speech pad %v", o.EndSilence, o.SpeechPad)
	}
	var vad *VAD
	if o.VAD != nil {
		var err error
		if vad, err = NewVAD(o.VAD); err != nil {
			return nil, fmt.Errorf("audio: segment: %w", err)
		}
	}
	s, err := DownmixStream(s)
	if err != nil {
		return nil, fmt.Errorf("audio: segment: %w", err)
	}
	if s, err = ResampleStream(s, o.Rate); err != nil {
		return nil, fmt.Errorf("audio: segment: %w", err)
	}
	frame := o.Rate / segmentFramesPerSecond
	maxSamples := durationSamples(o.MaxLength, o.Rate)
	read := 8 * frame * segmentSmooth
	return &Segmenter{
		vad:          vad,
		padFrames:    durationSamples(o.SpeechPad, o.Rate) / VADHop,
		noisePad:     durationSamples(o.NoisePad, o.Rate) / VADHop,
		gapFrames:    max(1, durationSamples(o.MinNoSpeech, o.Rate)/VADHop),
		marginFrames: durationSamples(o.Margin, o.Rate) / VADHop,
		// Negative SentencePause: 0 frames, no split.
		sentencePause:  max(0, durationSamples(o.SentencePause, o.Rate)/VADHop),
		sentenceFrames: max(1, durationSamples(o.SentenceLength, o.Rate)/VADHop),
		endFrames:      durationSamples(o.EndSilence, o.Rate) / VADHop,
		src:            s,
		rate:           o.Rate,
		max:            maxSamples,
		search:         durationSamples(o.SearchWindow, o.Rate),
		frame:          frame,
		pause:          math.Pow(10, -o.PauseDB/10),
		read:           make([]float32, read),
		// Next never holds more than a segment, the look-ahead and one read.
		buf: make([]float32, 0, maxSamples+frame*segmentSmooth+read),
	}, nil
}

// Next returns the next segment, or io.EOF after the last one. A stream
// with no samples has no segments. An error from the stream is returned
// once the segments before it are.
func (sg *Segmenter) Next() (Segment, error) {
	if sg.vad != nil {
		return sg.nextVAD()
	}
	// Buffer a whole segment plus the look-ahead the energy window needs.
	sg.fill(sg.max + sg.frame*segmentSmooth)
	if sg.waiting {
		return Segment{}, ErrPending // a cut needs the look-ahead
	}
	if len(sg.buf) == 0 {
		if sg.err != nil {
			return Segment{}, sg.err
		}
		return Segment{}, io.EOF
	}
	cut := len(sg.buf) // the rest of the stream fits in one segment
	if cut > sg.max {
		cut = sg.cutPoint()
	}
	seg := Segment{
		Samples:           append([]float32(nil), sg.buf[:cut]...),
		Rate:              sg.rate,
		Start:             sg.offset,
		End:               sg.offset + cut,
		SpeechProbability: 1,
	}
	sg.drop(cut)
	return seg, nil
}

// fill reads until sg.buf holds need samples, the stream ends or fails.
// Every sample read also goes to the VAD, if there is one, which is
// closed at the end of the stream.
func (sg *Segmenter) fill(need int) {
	sg.waiting = false
	for empty := 0; !sg.eof && sg.err == nil && !sg.waiting && len(sg.buf) < need; {
		n, err := sg.src.Read(sg.read)
		sg.buf = append(sg.buf, sg.read[:n]...)
		if sg.vad != nil {
			sg.vad.Write(sg.read[:n])
		}
		switch {
		case errors.Is(err, ErrPending):
			sg.waiting = true
		case errors.Is(err, io.EOF):
			sg.eof = true
		case err != nil:
			sg.err = err
		case n == 0:
			if empty++; empty >= maxEmptyReads {
				sg.err = fmt.Errorf("audio: segment: %w", io.ErrNoProgress)
			}
		default:
			empty = 0
		}
	}
	if sg.vad != nil && (sg.eof || sg.err != nil) {
		sg.vad.Close()
	}
}

// drop removes the first n samples of sg.buf.
func (sg *Segmenter) drop(n int) {
	sg.buf = sg.buf[:copy(sg.buf, sg.buf[n:])]
	sg.offset += n
}

// cutPoint returns where to end the segment at the start of sg.buf, which
// holds more than sg.max samples: a frame boundary in the search window
// around which the signal is quietest, or sg.max if it is not quiet there.
func (sg *Segmenter) cutPoint() int {
	half := segmentSmooth / 2
	last := sg.max / sg.frame                       // latest boundary (frames from buf[0])
	first := max(half, (sg.max-sg.search)/sg.frame) // earliest
	frames := min(last+half, len(sg.buf)/sg.frame)  // energy frames available
	lo := first - half
	// energy[j] is the mean square of frame lo+j.
	sg.energy = sg.energy[:0]
	for j := lo; j < frames; j++ {
		sg.energy = append(sg.energy, MeanPower(sg.buf[j*sg.frame:(j+1)*sg.frame]))
	}
	// Quietest boundary b in [first, last]: the lowest mean energy of
	// frames [b−half, b+half). Among equally quiet boundaries (digital
	// silence) take the middle of the longest run.
	quiet := func(b int) float64 {
		e := sg.energy[b-half-lo : min(b+half, frames)-lo]
		var s float64
		for _, v := range e {
			s += v
		}
		return s / float64(len(e))
	}
	bestE, prevE := math.Inf(1), math.Inf(1)
	var runStart, bestStart, bestLen int
	for b := first; b <= last; b++ {
		e := quiet(b)
		switch {
		case e < bestE:
			bestE, runStart, bestStart, bestLen = e, b, b, 1
		case e == bestE:
			if prevE != e {
				runStart = b
			}
			if l := b - runStart + 1; l > bestLen {
				bestStart, bestLen = runStart, l
			}
		}
		prevE = e
	}
	if bestE > sg.pause*MeanPower(sg.buf[:sg.max]) {
		return sg.max // no pause: hard cut
	}
	return (bestStart + bestLen/2) * sg.frame
}
