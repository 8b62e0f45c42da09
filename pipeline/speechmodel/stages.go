package speechmodel

import (
	"encoding/json"
	"math"
	"time"
)

// Stages is where a transcription's time went, stage by stage, as
// whisper.cpp prints its timings: the front end (log-mel), the encoder
// (LAS: the listener per chunk; Whisper: one 30-second window, or a
// reduced audio context's, each time its seek loop encodes one), and decoding (the searches and word
// timing). DecodeTokens counts, for Whisper, the token positions its
// searches ran the decoder for (every beam and temperature tried), for
// LAS the characters of the transcripts. Model loading and reading the
// audio file are not in it.
type Stages struct {
	Mel           time.Duration
	Encode        time.Duration
	EncodeWindows int
	Decode        time.Duration
	DecodeTokens  int
}

// Add adds o's times and counts to s.
func (s *Stages) Add(o Stages) {
	s.Mel += o.Mel
	s.Encode += o.Encode
	s.EncodeWindows += o.EncodeWindows
	s.Decode += o.Decode
	s.DecodeTokens += o.DecodeTokens
}

// MarshalJSON writes the one-line form "asr transcribe -timings" prints:
// {"mel_ms":…, "encode_ms":…, "encode_windows":…, "decode_ms":…,
// "decode_tokens":…}, times in milliseconds to 0.01 ms.
func (s Stages) MarshalJSON() ([]byte, error) {
	ms := func(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }
	return json.Marshal(struct {
		Mel           float64 `json:"mel_ms"`
		Encode        float64 `json:"encode_ms"`
		EncodeWindows int     `json:"encode_windows"`
		Decode        float64 `json:"decode_ms"`
		DecodeTokens  int     `json:"decode_tokens"`
	}{ms(s.Mel), ms(s.Encode), s.EncodeWindows, ms(s.Decode), s.DecodeTokens})
}
