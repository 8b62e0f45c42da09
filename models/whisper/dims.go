package whisper

import "fmt"

// Dims are a Whisper model's hyper-parameters, named and ordered as
// openai/whisper's ModelDimensions (whisper/model.py), so the JSON that
// openai/whisper and the reference bundle write decodes into it directly.
//
//	tiny   4+4 layers, width  384,  6 heads
//	base   6+6 layers, width  512,  8 heads
//	small 12+12,       width  768, 12 heads
//	medium 24+24,      width 1024, 16 heads
//	large 32+32,       width 1280, 20 heads (large-v3: 128 mel bins, 51,866 tokens)
//	large-v3-turbo 32+4, width 1280
//
// NAudioCtx is 1500 (30 s of 10 ms frames after the stride-2 convolution)
// and NTextCtx 448 for every released model.
type Dims struct {
	NMels       int `json:"n_mels"`
	NAudioCtx   int `json:"n_audio_ctx"`
	NAudioState int `json:"n_audio_state"`
	NAudioHead  int `json:"n_audio_head"`
	NAudioLayer int `json:"n_audio_layer"`
	NVocab      int `json:"n_vocab"`
	NTextCtx    int `json:"n_text_ctx"`
	NTextState  int `json:"n_text_state"`
	NTextHead   int `json:"n_text_head"`
	NTextLayer  int `json:"n_text_layer"`
}

// Multilingual reports whether the vocabulary is the multilingual one
// (n_vocab ≥ 51,865), as openai/whisper's Whisper.is_multilingual does.
func (d Dims) Multilingual() bool { return d.NVocab >= 51865 }

// NumLanguages is the number of language tokens, as openai/whisper's
// Whisper.num_languages: n_vocab − 51,765 − multilingual (99 for every
// model but large-v3's 100).
func (d Dims) NumLanguages() int {
	n := d.NVocab - 51765
	if d.Multilingual() {
		n--
	}
	return n
}

// Validate reports dimensions no Whisper model can have: anything not
// positive, widths not divisible by their head counts, and vocabularies
// other than the English-only (51,864) and multilingual (51,865, 51,866)
// ones.
func (d Dims) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"n_mels", d.NMels}, {"n_audio_ctx", d.NAudioCtx}, {"n_audio_state", d.NAudioState},
		{"n_audio_head", d.NAudioHead}, {"n_audio_layer", d.NAudioLayer}, {"n_vocab", d.NVocab},
		{"n_text_ctx", d.NTextCtx}, {"n_text_state", d.NTextState}, {"n_text_head", d.NTextHead},
		{"n_text_layer", d.NTextLayer},
	} {
		if f.v <= 0 || f.v > 1<<20 {
			return fmt.Errorf("whisper: %s = %d is out of range", f.name, f.v)
		}
	}
	if d.NAudioState%d.NAudioHead != 0 {
		return fmt.Errorf("whisper: n_audio_state %d is not divisible by n_audio_head %d", d.NAudioState, d.NAudioHead)
	}
	if d.NTextState%d.NTextHead != 0 {
		return fmt.Errorf("whisper: n_text_state %d is not divisible by n_text_head %d", d.NTextState, d.NTextHead)
	}
	if d.NVocab < 51864 || d.NVocab > 51866 {
		return fmt.Errorf("whisper: n_vocab %d is not a Whisper vocabulary (51864 English-only, 51865 or 51866 multilingual)", d.NVocab)
	}
	return nil
}
