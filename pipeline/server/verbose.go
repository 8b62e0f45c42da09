package server

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"math"
	"slices"
	"strings"

	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Verbose is the verbose_json answer: OpenAI's fields (task, language,
// duration, text, segments, words), with attend's additions: each word's
// confidence and, under "attend", each chunk's attention alignment and
// log-mel spectrogram for drawing.
type Verbose struct {
	Task     string             `json:"task"`
	Language string             `json:"language"`
	Duration float64            `json:"duration"`
	Text     string             `json:"text"`
	Segments []Segment          `json:"segments,omitempty"`
	Words    []speechmodel.Word `json:"words,omitempty"`
	Attend   *VerboseAttend     `json:"attend,omitempty"`
}

// Segment is one of OpenAI's segments: here a subtitle cue of the srt
// and vtt answers (at most 10 words and 6 s, never across chunks). A
// chunk without speech (speech.Chunk.NoSpeech) has no cue, so no
// segment; NoSpeechProb is the VAD's evidence over the segment's chunk
// (speech.Chunk.NoSpeechScore; 0 with the VAD off).
type Segment struct {
	ID               int     `json:"id"`
	Seek             int     `json:"seek"` // centiseconds, as Whisper's
	Start            float64 `json:"start"`
	End              float64 `json:"end"`
	Text             string  `json:"text"`
	Tokens           []int   `json:"tokens"` // empty: the model spells characters, not Whisper's tokens
	Temperature      float64 `json:"temperature"`
	AvgLogprob       float64 `json:"avg_logprob"` // mean log confidence of the words
	CompressionRatio float64 `json:"compression_ratio"`
	NoSpeechProb     float64 `json:"no_speech_prob"`
}

// VerboseAttend holds what only attend has: the attention alignment of
// every chunk, compact. Matrices are base64 bytes, row-major; a byte q
// stands for the value lo + q/255·(hi − lo) of its matrix's range.
type VerboseAttend struct {
	Model string `json:"model"`
	// MelFrameSeconds is the hop of the spectrogram frames (10 ms),
	// EncoderFrameSeconds that of the encoder frames the speller attends
	// over (speechmodel.ModelInfo.EncoderFrameSeconds: for LAS the listener's
	// reduction × 10 ms).
	MelFrameSeconds     float64 `json:"mel_frame_seconds"`
	EncoderFrameSeconds float64 `json:"encoder_frame_seconds"`
	DecodeSeconds       float64 `json:"decode_seconds"`
	// Quantization says how to read the matrices, for people reading the
	// JSON.
	Quantization string         `json:"quantization"`
	Chunks       []VerboseChunk `json:"chunks"`
}

// VerboseChunk is one chunk decoded on its own.
type VerboseChunk struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
	// NoSpeech says the chunk holds no speech (the VAD found none, or the
	// CTC head's best path is all blank): no text, words or segment.
	// NoSpeechProb is 1 − the VAD's highest speech probability over it.
	NoSpeech     bool    `json:"no_speech"`
	NoSpeechProb float64 `json:"no_speech_prob"`
	// Fallback, when not empty, says why the text came from the CTC head
	// instead of the attention speller; the rows of Alignment are then
	// not attention (see AlignmentSource).
	Fallback string `json:"fallback,omitempty"`
	// AlignmentSource says what Alignment holds: "attention" (the
	// speller's weights α), "ctc_posterior" (after a CTC fallback, the
	// CTC head's posterior of each character at each encoder frame) or
	// "ctc_path" (after a fallback without them: one-hot at the frames
	// where the CTC best path emitted each character); "" with no
	// alignment.
	AlignmentSource string `json:"alignment_source,omitempty"`
	// FirstWord and Words place the chunk's words in Verbose.Words (when
	// asked for): words[first_word : first_word+words].
	FirstWord int `json:"first_word"`
	Words     int `json:"words"`
	// Chars are the characters spelled, one per alignment row (" " between
	// words).
	Chars []string `json:"chars"`
	// AudioOffset is where, in seconds after start, the frames of Mel and
	// Alignment begin: digital silence at a chunk's start is not decoded.
	AudioOffset float64 `json:"audio_offset,omitempty"`
	// Alignment is chars × encoder_frames weights (attention α, or see
	// AlignmentSource), bytes scaled to [0, alignment_max] (the chunk's
	// largest weight).
	EncoderFrames int     `json:"encoder_frames"`
	Alignment     string  `json:"alignment"`
	AlignmentMax  float32 `json:"alignment_max"`
	// Mel is mel_frames × mel_bins log-mel energies (low bins first),
	// bytes scaled to [mel_lo, mel_hi] (the 1st percentile and the
	// maximum; lower values clip to mel_lo), as "asr transcribe -align"
	// draws them.
	MelFrames int     `json:"mel_frames"`
	MelBins   int     `json:"mel_bins"`
	Mel       string  `json:"mel"`
	MelLo     float32 `json:"mel_lo"`
	MelHi     float32 `json:"mel_hi"`
}

const quantization = "alignment and mel are base64 bytes, row-major (alignment: chars × encoder_frames; mel: mel_frames × mel_bins); byte q means lo + q/255·(hi−lo), with [0, alignment_max] and [mel_lo, mel_hi]"

// verbose lays out a transcript as the verbose_json answer.
func verbose(t *speech.Transcript, req *asrRequest, model string, encoderFrameSeconds float64) *Verbose {
	v := &Verbose{Task: "transcribe", Language: "english", Duration: t.Duration, Text: t.Text}
	var words []speechmodel.Word
	for _, c := range t.Chunks {
		for _, w := range c.Words {
			w.Start, w.End, w.Confidence = roundTo(w.Start, 1e3), roundTo(w.End, 1e3), roundTo(w.Confidence, 1e4)
			words = append(words, w)
		}
	}
	if req.words {
		v.Words = words
		if v.Words == nil {
			v.Words = []speechmodel.Word{}
		}
	}
	if req.segments {
		v.Segments = segments(t, words)
	}
	if !req.attention {
		return v
	}
	v.Attend = &VerboseAttend{Model: model, MelFrameSeconds: speechmodel.FrameSeconds,
		EncoderFrameSeconds: encoderFrameSeconds, DecodeSeconds: t.Decode,
		Quantization: quantization, Chunks: []VerboseChunk{}}
	first := 0
	for _, c := range t.Chunks {
		vc := VerboseChunk{Start: c.Start, End: c.End, Text: c.Text, NoSpeech: c.NoSpeech, NoSpeechProb: roundTo(c.NoSpeechScore, 1e4),
			Fallback: c.Fallback, FirstWord: first, Words: len(c.Words), Chars: c.Chars, AudioOffset: roundTo(c.Offset, 1e3)}
		first += len(c.Words)
		if vc.Chars == nil {
			vc.Chars = []string{}
		}
		rows, source := c.Alignment, "attention"
		if c.Fallback != "" {
			// A fallback's alignment is the CTC path, one-hot: show the
			// CTC posteriors it came from, and say which.
			source = "ctc_path"
			if len(c.CTC) == len(c.Alignment) && len(c.CTC) > 0 {
				rows, source = c.CTC, "ctc_posterior"
			}
		}
		if len(rows) > 0 && len(rows[0]) > 0 {
			vc.EncoderFrames, vc.AlignmentSource = len(rows[0]), source
			vc.Alignment, vc.AlignmentMax = quantizeRows(rows)
		}
		if c.Frames > 0 {
			vc.MelFrames, vc.MelBins = c.Frames, len(c.Features)/c.Frames
			vc.Mel, vc.MelLo, vc.MelHi = quantizeMel(c.Features)
		}
		v.Attend.Chunks = append(v.Attend.Chunks, vc)
	}
	return v
}

// segments groups the words into OpenAI segments, one per subtitle cue,
// each with its chunk's no-speech evidence. Cues never cross chunks, and
// a chunk without speech has no words, so no cue.
func segments(t *speech.Transcript, words []speechmodel.Word) []Segment {
	// chunkOf[i] is the chunk of words[i].
	chunkOf := make([]int, 0, len(words))
	for k, c := range t.Chunks {
		for range c.Words {
			chunkOf = append(chunkOf, k)
		}
	}
	out := []Segment{}
	next := 0
	for _, c := range speech.Cues(t) {
		n := len(strings.Fields(c.Text))
		var logp float64
		for _, w := range words[next:min(next+n, len(words))] {
			logp += math.Log(max(w.Confidence, 1e-12))
		}
		s := Segment{ID: len(out), Seek: int(math.Round(c.Start * 100)), Start: roundTo(c.Start, 1e3), End: roundTo(c.End, 1e3), Text: " " + c.Text,
			Tokens: []int{}, CompressionRatio: compressionRatio(c.Text)}
		if next < len(chunkOf) {
			chunk := t.Chunks[chunkOf[next]]
			if chunk.NoSpeech {
				next += n
				continue
			}
			s.NoSpeechProb = roundTo(chunk.NoSpeechScore, 1e4)
		}
		next += n
		if n > 0 {
			s.AvgLogprob = roundTo(logp/float64(n), 1e4)
		}
		out = append(out, s)
	}
	return out
}

// compressionRatio is Whisper's: the text's length over its zlib
// length, high for repetitive (hallucinated) text.
func compressionRatio(text string) float64 {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	_, _ = zw.Write([]byte(text))
	_ = zw.Close()
	return math.Round(float64(len(text))/float64(b.Len())*1000) / 1000
}

// quantizeRows packs a matrix of weights in [0, max] into base64 bytes.
func quantizeRows(rows [][]float32) (string, float32) {
	var top float32
	for _, r := range rows {
		for _, v := range r {
			top = max(top, v)
		}
	}
	out := make([]byte, 0, len(rows)*len(rows[0]))
	for _, r := range rows {
		for _, v := range r {
			out = append(out, quantize(v, 0, top))
		}
	}
	return base64.StdEncoding.EncodeToString(out), top
}

// quantizeMel packs log-mel energies into base64 bytes over [the 1st
// percentile, the maximum], as vision's alignment plot scales them.
func quantizeMel(data []float32) (string, float32, float32) {
	sorted := slices.Clone(data)
	slices.Sort(sorted)
	lo, hi := sorted[len(sorted)/100], sorted[len(sorted)-1]
	if math.IsInf(float64(lo), -1) || math.IsNaN(float64(lo)) {
		lo = hi - 1
	}
	out := make([]byte, len(data))
	for i, v := range data {
		out[i] = quantize(v, lo, hi)
	}
	return base64.StdEncoding.EncodeToString(out), lo, hi
}

// quantize maps v in [lo, hi] to a byte, clipping outside values and NaN
// to the ends.
func quantize(v, lo, hi float32) byte {
	if !(hi > lo) || !(v > lo) {
		return 0
	}
	if v >= hi {
		return 255
	}
	return byte(math.Round(float64((v - lo) / (hi - lo) * 255)))
}

// roundTo rounds v to 1/scale: times to milliseconds, scores to 4 decimals.
func roundTo(v, scale float64) float64 { return math.Round(v*scale) / scale }
