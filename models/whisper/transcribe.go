package whisper

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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
	// WordTimestamps adds word-level timestamps (Segment.Words), which
	// also moves the next window's start to the last word's end.
	WordTimestamps bool
	Words          WordOptions
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
	Text     string    `json:"text"`
	Segments []Segment `json:"segments"`
	Language string    `json:"language"`
}

// Transcribe is openai/whisper's transcribe() without clip_timestamps,
// carry_initial_prompt and hallucination_silence_threshold: it decodes the
// audio 30-second window by window, retrying at higher temperatures when a
// decoding fails the thresholds, cuts each window's tokens into segments at
// consecutive timestamps and moves to the last complete segment's end.
//
// mel is the whole recording's log-mel spectrogram followed by 30 s of
// padding, as log_mel_spectrogram(audio, padding=N_SAMPLES) computes it:
// NMels rows of frames (row-major), frames = content frames + 3000. r
// drives sampling above temperature 0 (it may be nil when every
// temperature is 0).
func Transcribe(net Network, tok TextTokenizer, mel []float32, frames int, opts TranscribeOptions, r *rand.Rand) (*TranscribeResult, error) {
	d := net.Dims()
	if frames < melWindowFrames || len(mel) != d.NMels*frames {
		return nil, fmt.Errorf("whisper: transcribe: mel has %d values for %d frames of %d bins; want %d bins × (content + %d padding frames)", len(mel), frames, d.NMels, d.NMels, melWindowFrames)
	}
	if len(opts.Temperatures) == 0 {
		return nil, errors.New("whisper: transcribe: no temperature to decode at")
	}
	if melWindowFrames%d.NAudioCtx != 0 {
		return nil, fmt.Errorf("whisper: transcribe: %d audio positions do not divide a %d-frame window", d.NAudioCtx, melWindowFrames)
	}
	content := frames - melWindowFrames
	window := func(seek, size int) []float32 {
		w := make([]float32, d.NMels*melWindowFrames) // pad_or_trim pads with zeros
		for b := 0; b < d.NMels; b++ {
			copy(w[b*melWindowFrames:b*melWindowFrames+size], mel[b*frames+seek:b*frames+seek+size])
		}
		return w
	}

	dec := opts.Decoding
	language := dec.Language
	if language == "" {
		if !d.Multilingual() {
			language = "en"
		} else {
			first := make([]float32, d.NMels*melWindowFrames) // pad_or_trim(mel, N_FRAMES)
			for b := 0; b < d.NMels; b++ {
				copy(first[b*melWindowFrames:(b+1)*melWindowFrames], mel[b*frames:b*frames+melWindowFrames])
			}
			audio, err := net.Encode(first)
			if err != nil {
				return nil, fmt.Errorf("whisper: transcribe: %w", err)
			}
			probs, err := DetectLanguage(net, tok, audio)
			if err != nil {
				return nil, err
			}
			language = probs.Best()
		}
	}
	dec.Language = language
	sot, err := tok.SOTSequence(language, dec.Task)
	if err != nil {
		return nil, fmt.Errorf("whisper: transcribe: %w", err)
	}
	sp := tok.Specials()

	inputStride := melWindowFrames / d.NAudioCtx                         // mel frames per output position: 2
	timePrecision := float64(inputStride*melHopLength) / audioSampleRate // 0.02 s
	var allTokens []int
	var initialPrompt []int
	if opts.InitialPrompt != "" {
		initialPrompt = PromptTokens(tok, opts.InitialPrompt)
		allTokens = append(allTokens, initialPrompt...)
	}
	res := &TranscribeResult{Language: language}
	promptResetSince := 0
	lastSpeechTimestamp := 0.0
	seek := 0
	for seek < content {
		timeOffset := float64(seek*melHopLength) / audioSampleRate
		segmentSize := min(melWindowFrames, content-seek)
		audio, err := net.Encode(window(seek, segmentSize))
		if err != nil {
			return nil, fmt.Errorf("whisper: transcribe: %w", err)
		}
		segmentDuration := float64(segmentSize*melHopLength) / audioSampleRate

		dec.Prompt = append([]int(nil), allTokens[promptResetSince:]...)
		result, err := decodeWithFallback(net, tok, audio, dec, opts, r)
		if err != nil {
			return nil, err
		}
		tokens := result.Tokens

		// No voice activity: skip the window.
		shouldSkip := result.NoSpeechProb > opts.NoSpeechThreshold
		if result.AvgLogprob > opts.LogprobThreshold {
			shouldSkip = false // the log-probability is high enough
		}
		if shouldSkip {
			seek += segmentSize
			continue
		}

		newSegment := func(start, end float64, toks []int) Segment {
			var text []int
			for _, t := range toks {
				if t < sp.EOT {
					text = append(text, t)
				}
			}
			return Segment{
				Seek: seek, Start: start, End: end,
				Text: tok.Decode(text), Tokens: append([]int{}, toks...),
				Temperature: result.Temperature, AvgLogprob: result.AvgLogprob,
				CompressionRatio: result.CompressionRatio, NoSpeechProb: result.NoSpeechProb,
			}
		}
		isTimestamp := func(i int) bool { return tokens[i] >= sp.TimestampBegin }
		n := len(tokens)
		singleTimestampEnding := n >= 2 && !isTimestamp(n-2) && isTimestamp(n-1)
		var consecutive []int
		for i := 0; i+1 < n; i++ {
			if isTimestamp(i) && isTimestamp(i+1) {
				consecutive = append(consecutive, i+1)
			}
		}

		var current []Segment
		if len(consecutive) > 0 {
			// Cut at every pair of consecutive timestamps.
			slices := consecutive
			if singleTimestampEnding {
				slices = append(slices, n)
			}
			last := 0
			for _, cur := range slices {
				part := tokens[last:cur]
				startPos := part[0] - sp.TimestampBegin
				endPos := part[len(part)-1] - sp.TimestampBegin
				current = append(current, newSegment(
					timeOffset+float64(startPos)*timePrecision,
					timeOffset+float64(endPos)*timePrecision, part))
				last = cur
			}
			if singleTimestampEnding {
				// No speech after the last timestamp.
				seek += segmentSize
			} else {
				// Drop the unfinished segment; go on from its start.
				seek += (tokens[last-1] - sp.TimestampBegin) * inputStride
			}
		} else {
			duration := segmentDuration
			lastTS := -1
			for i := range tokens {
				if isTimestamp(i) {
					lastTS = tokens[i]
				}
			}
			if lastTS >= 0 && lastTS != sp.TimestampBegin {
				// No consecutive timestamps but a timestamp: use the last.
				duration = float64(lastTS-sp.TimestampBegin) * timePrecision
			}
			current = append(current, newSegment(timeOffset, timeOffset+duration, tokens))
			seek += segmentSize
		}

		if opts.WordTimestamps {
			wo := opts.Words
			if err := addWordTimestamps(current, net, tok, audio, sot, language, segmentSize, wo, lastSpeechTimestamp); err != nil {
				return nil, err
			}
			if !singleTimestampEnding {
				if end, ok := lastWordEnd(current); ok && end > timeOffset {
					seek = int(math.RoundToEven(end * melFramesPerSecond))
				}
			}
			if end, ok := lastWordEnd(current); ok {
				lastSpeechTimestamp = end
			}
		}

		// Clear instantaneous or empty segments.
		for i := range current {
			s := &current[i]
			if s.Start == s.End || pyStrip(s.Text) == "" {
				s.Text = ""
				s.Tokens = []int{}
				if opts.WordTimestamps {
					s.Words = []Word{}
				}
			}
		}
		for _, s := range current {
			s.ID = len(res.Segments)
			res.Segments = append(res.Segments, s)
			allTokens = append(allTokens, s.Tokens...)
		}
		if !opts.ConditionOnPreviousText || result.Temperature > 0.5 {
			// Do not feed the prompt tokens if a high temperature was used.
			promptResetSince = len(allTokens)
		}
	}
	res.Text = tok.Decode(allTokens[len(initialPrompt):])
	return res, nil
}

// decodeWithFallback is transcribe()'s decode_with_fallback: decode at
// each temperature until the result is neither too repetitive nor too
// improbable, or is judged silence.
func decodeWithFallback(net Network, tok TextTokenizer, audio *AudioFeatures, dec DecodingOptions, opts TranscribeOptions, r *rand.Rand) (*DecodingResult, error) {
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
