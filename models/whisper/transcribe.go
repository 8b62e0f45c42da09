package whisper

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Whisper's audio framing (openai/whisper's whisper/audio.py).
const (
	audioSampleRate    = 16000
	melHopLength       = 160
	melWindowFrames    = 3000 // N_FRAMES: 30 s of 10 ms frames
	melFramesPerSecond = audioSampleRate / melHopLength
)

// TranscribeOptions are openai/whisper's transcribe() arguments. Start from
// DefaultTranscribeOptions. A threshold of NaN disables it, as None does
// there (every comparison with NaN is false).
type TranscribeOptions struct {
	// Decoding holds the per-window options (language, task, beam size,
	// best-of, patience, length penalty, suppressed tokens, timestamps);
	// its Temperature and Prompt are set for each window and try.
	Decoding DecodingOptions
	// Temperatures are tried in order until a decoding passes the
	// thresholds (default 0, 0.2, 0.4, 0.6, 0.8, 1.0; {0} never falls
	// back). Beam size and patience apply at 0 only, best-of above 0 only.
	Temperatures []float64
	// CompressionRatioThreshold: a decoding whose text compresses better
	// than this (zlib ratio, CompressionRatio) is too repetitive (2.4).
	CompressionRatioThreshold float64
	// LogprobThreshold: a decoding whose average log-probability is below
	// this failed (−1.0).
	LogprobThreshold float64
	// NoSpeechThreshold: a window whose no-speech probability is above
	// this and whose average log-probability is below LogprobThreshold is
	// silence: skipped, and not retried (0.6).
	NoSpeechThreshold float64
	// ConditionOnPreviousText feeds the text so far as each window's
	// prompt (true); the prompt is reset after a window decoded at a
	// temperature above 0.5.
	ConditionOnPreviousText bool
	// InitialPrompt is text given as the first window's prompt.
	InitialPrompt string
	// CarryInitialPrompt prepends InitialPrompt to every window's prompt
	// (the previous text then fills what room is left), not just the
	// first's.
	CarryInitialPrompt bool
	// WordTimestamps adds word-level timestamps (Segment.Words), which
	// also moves the next window's start to the last word's end.
	WordTimestamps bool
	Words          WordOptions
	// ClipTimestamps are the stretches to transcribe, in seconds: start,
	// end, start, end, …; a missing last end is the end of the audio; none
	// is all of it.
	ClipTimestamps []float64
	// HallucinationSilenceThreshold (seconds; 0: off), with word
	// timestamps, skips silences longer than this around segments whose
	// words look hallucinated (improbable, very short or very long).
	HallucinationSilenceThreshold float64
	// AudioCtx, when above 0 and below the model's NAudioCtx (1500), is
	// whisper.cpp's audio_ctx (-ac): windows of 2·AudioCtx mel frames
	// (AudioCtx × 20 ms) instead of 30 s, each encoded with the
	// positional embedding cut to its first AudioCtx rows (Model.Encode),
	// so that the encoder's cost follows the audio rather than the
	// window. The models were trained on 30-second windows only: a
	// reduced context trades accuracy for speed. 0 (or NAudioCtx) is
	// openai/whisper's full window.
	AudioCtx int
}

// DefaultTranscribeOptions returns openai/whisper's transcribe() defaults.
func DefaultTranscribeOptions() TranscribeOptions {
	return TranscribeOptions{
		Decoding:                  DefaultDecodingOptions(),
		Temperatures:              []float64{0, 0.2, 0.4, 0.6, 0.8, 1.0},
		CompressionRatioThreshold: 2.4,
		LogprobThreshold:          -1.0,
		NoSpeechThreshold:         0.6,
		ConditionOnPreviousText:   true,
		Words: WordOptions{
			PrependPunctuations: DefaultPrependPunctuations,
			AppendPunctuations:  DefaultAppendPunctuations,
		},
	}
}

// Segment is one timed piece of a transcript, as transcribe() returns it.
type Segment struct {
	ID   int `json:"id"`
	Seek int `json:"seek"` // first mel frame of its window
	// Start and End are in seconds from the start of the audio.
	Start  float64 `json:"start"`
	End    float64 `json:"end"`
	Text   string  `json:"text"`
	Tokens []int   `json:"tokens"` // timestamps included
	// The window's decoding figures, shared by its segments.
	Temperature      float64 `json:"temperature"`
	AvgLogprob       float64 `json:"avg_logprob"`
	CompressionRatio float64 `json:"compression_ratio"`
	NoSpeechProb     float64 `json:"no_speech_prob"`
	// Words is set with TranscribeOptions.WordTimestamps.
	Words []Word `json:"words,omitempty"`
}

// TranscribeResult is transcribe()'s result.
type TranscribeResult struct {
	Text     string          `json:"text"`
	Segments []Segment       `json:"segments"`
	Language string          `json:"language"`
	Stats    TranscribeStats `json:"-"`
}

// TranscribeStats say where Transcribe's time went, as whisper.cpp prints
// it: the encoder's windows (language detection's included) and time, and
// the rest — decoding at every temperature tried, language detection's
// and word timing's decoder passes — with the token positions decode()
// ran.
type TranscribeStats struct {
	EncodeWindows  int
	Encode, Decode time.Duration
	DecodedTokens  int
}

// Transcribe is openai/whisper's transcribe(): it decodes the audio
// 30-second window by window, retrying at higher temperatures when a
// decoding fails the thresholds, cuts each window's tokens into segments
// at consecutive timestamps and moves on to the last complete segment's
// end (or, with word timestamps, the last word's).
//
// mel is the whole recording's log-mel spectrogram followed by 30 s of
// padding, as log_mel_spectrogram(audio, padding=N_SAMPLES) computes it:
// NMels rows of frames (row-major), frames = content frames + 3000. r
// drives sampling above temperature 0 (it may be nil when every
// temperature is 0).
func Transcribe(net Network, tok TextTokenizer, mel []float32, frames int, opts TranscribeOptions, r *rand.Rand) (*TranscribeResult, error) {
	t, err := newTranscription(net, tok, mel, frames, opts, r)
	if err != nil {
		return nil, err
	}
	for t.clip < len(t.clips) {
		clip := t.clips[t.clip]
		if t.seek < clip[0] {
			t.seek = clip[0]
		}
		if t.seek >= clip[1] {
			t.clip++
			if t.clip < len(t.clips) {
				t.seek = t.clips[t.clip][0]
			}
			continue
		}
		if err := t.window(clip[1]); err != nil {
			return nil, err
		}
	}
	t.res.Text = tok.Decode(t.allTokens[len(t.initialPrompt):])
	t.res.Stats.Decode = time.Since(t.start) - t.res.Stats.Encode
	return t.res, nil
}

// transcription is transcribe()'s state across windows.
type transcription struct {
	start   time.Time
	net     Network
	tok     TextTokenizer
	sp      Specials
	opts    TranscribeOptions
	dec     DecodingOptions // the per-window options, language resolved
	r       *rand.Rand
	mel     []float32
	frames  int
	content int      // frames of audio
	clips   [][2]int // [start, end) frames to transcribe
	clip    int
	sot     []int

	inputStride   int     // mel frames per decoder position: 2
	timePrecision float64 // seconds per timestamp step: 0.02
	windowFrames  int     // mel frames of a window: 3000, or 2·AudioCtx

	seek                int
	allTokens           []int
	initialPrompt       []int
	promptResetSince    int
	lastSpeechTimestamp float64
	res                 *TranscribeResult
}

func newTranscription(net Network, tok TextTokenizer, mel []float32, frames int, opts TranscribeOptions, r *rand.Rand) (*transcription, error) {
	d := net.Dims()
	if frames < melWindowFrames || len(mel) != d.NMels*frames {
		return nil, fmt.Errorf("whisper: transcribe: mel has %d values for %d frames of %d bins; want %d bins × (content + %d padding frames)", len(mel), frames, d.NMels, d.NMels, melWindowFrames)
	}
	if len(opts.Temperatures) == 0 {
		return nil, errors.New("whisper: transcribe: no temperature to decode at")
	}
	if d.NAudioCtx <= 0 || melWindowFrames%d.NAudioCtx != 0 {
		return nil, fmt.Errorf("whisper: transcribe: %d audio positions do not divide a %d-frame window", d.NAudioCtx, melWindowFrames)
	}
	if opts.AudioCtx < 0 || opts.AudioCtx > d.NAudioCtx {
		return nil, fmt.Errorf("whisper: transcribe: audio context %d: want 0 (the full window) up to the model's %d positions", opts.AudioCtx, d.NAudioCtx)
	}
	t := &transcription{
		start: time.Now(),
		net:   net, tok: tok, sp: tok.Specials(), opts: opts, dec: opts.Decoding, r: r,
		mel: mel, frames: frames, content: frames - melWindowFrames,
		inputStride:  melWindowFrames / d.NAudioCtx,
		windowFrames: melWindowFrames,
	}
	if opts.AudioCtx > 0 {
		t.windowFrames = opts.AudioCtx * t.inputStride
	}
	t.timePrecision = float64(t.inputStride*melHopLength) / audioSampleRate
	t.res = &TranscribeResult{Segments: []Segment{}}
	clips, err := seekClips(opts.ClipTimestamps, t.content)
	if err != nil {
		return nil, err
	}
	t.clips = clips
	t.seek = clips[0][0]

	if t.dec.Language == "" {
		if !d.Multilingual() {
			t.dec.Language = "en"
		} else {
			// Detect on pad_or_trim(mel, N_FRAMES): the first 30 s (the
			// first window with a reduced audio context).
			audio, err := t.encode(t.cut(0, t.windowFrames))
			if err != nil {
				return nil, fmt.Errorf("whisper: transcribe: %w", err)
			}
			probs, err := DetectLanguage(net, tok, audio)
			audio.Release()
			if err != nil {
				return nil, err
			}
			t.dec.Language = probs.Best()
		}
	}
	if t.sot, err = tok.SOTSequence(t.dec.Language, t.dec.Task); err != nil {
		return nil, fmt.Errorf("whisper: transcribe: %w", err)
	}
	if opts.InitialPrompt != "" {
		t.initialPrompt = PromptTokens(tok, opts.InitialPrompt)
		t.allTokens = append(t.allTokens, t.initialPrompt...)
	}
	t.res.Language = t.dec.Language
	return t, nil
}

// seekClips turns clip_timestamps (seconds: start, end, start, end, …; a
// missing last end is the end of the audio) into frame ranges, as
// transcribe() does; no timestamps is the whole audio. Ends are clamped
// to the audio.
func seekClips(ts []float64, content int) ([][2]int, error) {
	var points []int
	for _, s := range ts {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("whisper: transcribe: clip timestamp %v is not a time in the audio", s)
		}
		points = append(points, int(math.RoundToEven(s*melFramesPerSecond)))
	}
	if len(points) == 0 {
		points = append(points, 0)
	}
	if len(points)%2 == 1 {
		points = append(points, content)
	}
	clips := make([][2]int, 0, len(points)/2)
	for i := 0; i < len(points); i += 2 {
		clips = append(clips, [2]int{points[i], min(points[i+1], content)})
	}
	return clips, nil
}

// cut returns size frames of the mel from seek, zero-padded to a window
// (pad_or_trim; windowFrames long).
func (t *transcription) cut(seek, size int) []float32 {
	nm, wf := t.net.Dims().NMels, t.windowFrames
	w := make([]float32, nm*wf)
	for b := 0; b < nm; b++ {
		copy(w[b*wf:b*wf+size], t.mel[b*t.frames+seek:b*t.frames+seek+size])
	}
	return w
}

// encode runs the encoder on a window, counting it.
func (t *transcription) encode(window []float32) (*AudioFeatures, error) {
	start := time.Now()
	a, err := t.net.Encode(window)
	t.res.Stats.Encode += time.Since(start)
	t.res.Stats.EncodeWindows++
	return a, err
}

// prompt is the window's prompt: the text since the last reset, or with
// CarryInitialPrompt the initial prompt followed by as much of it as fits.
func (t *transcription) prompt() []int {
	if !t.opts.CarryInitialPrompt {
		return append([]int(nil), t.allTokens[t.promptResetSince:]...)
	}
	remaining := t.net.Dims().NTextCtx/2 - 1 - len(t.initialPrompt)
	ignored := max(len(t.initialPrompt), t.promptResetSince)
	return append(append([]int(nil), t.initialPrompt...), pyTail(t.allTokens[ignored:], remaining)...)
}

// window decodes the window at t.seek (within a clip ending at clipEnd)
// and moves t.seek on.
func (t *transcription) window(clipEnd int) error {
	seek := t.seek
	timeOffset := float64(seek*melHopLength) / audioSampleRate
	windowEnd := float64((seek+t.windowFrames)*melHopLength) / audioSampleRate
	segmentSize := min(t.windowFrames, t.content-seek, clipEnd-seek)
	segmentDuration := float64(segmentSize*melHopLength) / audioSampleRate
	audio, err := t.encode(t.cut(seek, segmentSize))
	if err != nil {
		return fmt.Errorf("whisper: transcribe: %w", err)
	}
	defer audio.Release()
	dec := t.dec
	dec.Prompt = t.prompt()
	result, err := decodeWithFallback(t.net, t.tok, audio, dec, t.opts, t.r, &t.res.Stats.DecodedTokens)
	if err != nil {
		return err
	}

	// No voice activity: skip the window.
	shouldSkip := result.NoSpeechProb > t.opts.NoSpeechThreshold
	if result.AvgLogprob > t.opts.LogprobThreshold {
		shouldSkip = false // the log-probability is high enough
	}
	if shouldSkip {
		t.seek += segmentSize
		return nil
	}

	current, advance, singleTimestampEnding := t.cutSegments(result, seek, timeOffset, segmentSize, segmentDuration)
	t.seek += advance

	if t.opts.WordTimestamps {
		if err := addWordTimestamps(current, t.net, t.tok, audio, t.sot, t.dec.Language, segmentSize, t.opts.Words, t.lastSpeechTimestamp); err != nil {
			return err
		}
		if !singleTimestampEnding {
			if end, ok := lastWordEnd(current); ok && end > timeOffset {
				t.seek = int(math.RoundToEven(end * melFramesPerSecond))
			}
		}
		if th := t.opts.HallucinationSilenceThreshold; th > 0 {
			var skipWindow bool
			current, skipWindow = t.skipHallucinations(current, th, seek, segmentSize, timeOffset, windowEnd, segmentDuration, singleTimestampEnding)
			if skipWindow {
				return nil
			}
		}
		if end, ok := lastWordEnd(current); ok {
			t.lastSpeechTimestamp = end
		}
	}

	// Clear instantaneous or empty segments.
	for i := range current {
		s := &current[i]
		if s.Start == s.End || pyStrip(s.Text) == "" {
			s.Text = ""
			s.Tokens = []int{}
			if t.opts.WordTimestamps {
				s.Words = []Word{}
			}
		}
	}
	for _, s := range current {
		s.ID = len(t.res.Segments)
		t.res.Segments = append(t.res.Segments, s)
		t.allTokens = append(t.allTokens, s.Tokens...)
	}
	if !t.opts.ConditionOnPreviousText || result.Temperature > 0.5 {
		// Do not feed the prompt tokens if a high temperature was used.
		t.promptResetSince = len(t.allTokens)
	}
	return nil
}

// cutSegments splits a window's tokens into segments at every pair of
// consecutive timestamps and returns them, how far to seek, and whether
// the tokens end in a single timestamp (no speech after it).
func (t *transcription) cutSegments(result *DecodingResult, seek int, timeOffset float64, segmentSize int, segmentDuration float64) ([]Segment, int, bool) {
	tokens := result.Tokens
	tb := t.sp.TimestampBegin
	newSegment := func(start, end float64, toks []int) Segment {
		var text []int
		for _, id := range toks {
			if id < t.sp.EOT {
				text = append(text, id)
			}
		}
		return Segment{
			Seek: seek, Start: start, End: end,
			Text: t.tok.Decode(text), Tokens: append([]int{}, toks...),
			Temperature: result.Temperature, AvgLogprob: result.AvgLogprob,
			CompressionRatio: result.CompressionRatio, NoSpeechProb: result.NoSpeechProb,
		}
	}
	n := len(tokens)
	isTimestamp := func(i int) bool { return tokens[i] >= tb }
	singleTimestampEnding := n >= 2 && !isTimestamp(n-2) && isTimestamp(n-1)
	var consecutive []int
	for i := 0; i+1 < n; i++ {
		if isTimestamp(i) && isTimestamp(i+1) {
			consecutive = append(consecutive, i+1)
		}
	}

	if len(consecutive) == 0 {
		duration := segmentDuration
		last := -1
		for i := range tokens {
			if isTimestamp(i) {
				last = tokens[i]
			}
		}
		if last >= 0 && last != tb {
			// No consecutive timestamps but a timestamp: use the last.
			duration = float64(last-tb) * t.timePrecision
		}
		return []Segment{newSegment(timeOffset, timeOffset+duration, tokens)}, segmentSize, singleTimestampEnding
	}

	slices := consecutive
	if singleTimestampEnding {
		slices = append(slices, n)
	}
	var segs []Segment
	last := 0
	for _, cur := range slices {
		part := tokens[last:cur]
		start := float64(part[0]-tb) * t.timePrecision
		end := float64(part[len(part)-1]-tb) * t.timePrecision
		segs = append(segs, newSegment(timeOffset+start, timeOffset+end, part))
		last = cur
	}
	if singleTimestampEnding {
		return segs, segmentSize, true // no speech after the last timestamp
	}
	// Drop the unfinished segment; go on from the last timestamp.
	return segs, (tokens[last-1] - tb) * t.inputStride, false
}

// decodeWithFallback is transcribe()'s decode_with_fallback: decode at
// each temperature until the result is neither too repetitive nor too
// improbable, or is judged silence.
func decodeWithFallback(net Network, tok TextTokenizer, audio *AudioFeatures, dec DecodingOptions, opts TranscribeOptions, r *rand.Rand, decoded *int) (*DecodingResult, error) {
	var result *DecodingResult
	for _, t := range opts.Temperatures {
		o := dec
		o.Temperature = t
		if t > 0 {
			o.BeamSize, o.Patience = 0, 0
		} else {
			o.BestOf = 0
		}
		var err error
		result, err = Decode(net, tok, audio, o, r)
		if err != nil {
			return nil, err
		}
		*decoded += result.DecodedTokens
		needsFallback := result.CompressionRatio > opts.CompressionRatioThreshold || // too repetitive
			result.AvgLogprob < opts.LogprobThreshold // too improbable
		if result.NoSpeechProb > opts.NoSpeechThreshold && result.AvgLogprob < opts.LogprobThreshold {
			needsFallback = false // silence
		}
		if !needsFallback {
			break
		}
	}
	return result, nil
}

// lastWordEnd is utils.py's get_end: the end of the last word of the
// segments, else the last segment's end; false without segments.
func lastWordEnd(segs []Segment) (float64, bool) {
	for i := len(segs) - 1; i >= 0; i-- {
		if w := segs[i].Words; len(w) > 0 {
			return w[len(w)-1].End, true
		}
	}
	if len(segs) == 0 {
		return 0, false
	}
	return segs[len(segs)-1].End, true
}
