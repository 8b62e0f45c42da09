package speecheval

import "github.com/attend-go/attend/pipeline/metrics"

// Scored is one evaluated utterance.
type Scored struct {
	Path       string             `json:"path"`
	Reference  string             `json:"reference"`
	Hypothesis string             `json:"hypothesis"`
	Seconds    float64            `json:"seconds"`  // audio duration
	Decode     float64            `json:"decode_s"` // listener + search time
	Fallback   string             `json:"fallback,omitempty"`
	FromCTC    bool               `json:"from_ctc,omitempty"` // decode.Result.FromCTC
	WER        metrics.EditCounts `json:"-"`
	CER        metrics.EditCounts `json:"-"`
	// PER counts the phone errors of the phone CTC head's best path
	// against the utterance's phones (a model with a phone head and an
	// utterance with phone targets only; zero otherwise).
	PER metrics.EditCounts `json:"-"`
}

// Scores sums a corpus evaluation.
type Scores struct {
	Utterances    int
	WER, CER      metrics.EditCounts
	PER           metrics.EditCounts // Ref 0 when no phone head was scored
	AudioSeconds  float64
	DecodeSeconds float64 // summed over utterances (CPU time of one worker each)
	// Fallbacks counts the utterances whose transcript came from CTC: the
	// fallback of attention search alone, or under joint rescoring the CTC
	// or phone beam's transcript (decode.Result.FromCTC).
	Fallbacks int
}

// RTF is the real-time factor: decoding time per second of audio.
func (s Scores) RTF() float64 {
	if s.AudioSeconds == 0 {
		return 0
	}
	return s.DecodeSeconds / s.AudioSeconds
}

// Add counts one scored utterance into s.
func (s *Scores) Add(u Scored) {
	s.Utterances++
	s.WER.Add(u.WER)
	s.CER.Add(u.CER)
	s.PER.Add(u.PER)
	s.AudioSeconds += u.Seconds
	s.DecodeSeconds += u.Decode
	if u.Fallback != "" || u.FromCTC {
		s.Fallbacks++
	}
}
