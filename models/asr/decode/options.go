package decode

// Options tunes Decode. Start from DefaultOptions: the
// weights and thresholds are taken as they are, 0 meaning none; only
// Beam and MaxLengthRatio, whose zero is no real setting, read 0 as
// their default. A nil *Options means DefaultOptions.
type Options struct {
	// Beam is the beam width k; 1 is greedy search (0 means DefaultBeam).
	Beam int
	// LengthPenalty α picks the attention search's result among its
	// complete hypotheses (the open ones when none ended) by
	// score / (tokens+1)^α: 1 (the default) by the score per token, 0 by
	// the total score, which favours short transcripts. The beam itself
	// ranks by total score, and with CTCBeam joint rescoring picks the
	// result by its total score instead, so α is then unused.
	LengthPenalty float64
	// EOSThreshold γ: the end of sentence is a candidate only when its
	// log-probability is at least γ times the best other character's
	// (Chorowski et al. 2015 style; logs are negative, so γ > 1 admits
	// less likely ends). Default 1.5; 0 (or negative) disables the check.
	EOSThreshold float64
	// MaxLengthRatio bounds the output at MaxLengthRatio·T + 10 characters
	// for T encoder frames (0 means 1.5): attention decoders can loop on
	// inputs unlike their training data.
	MaxLengthRatio float64
	// CTCWeight μ ∈ [0, 1] weighs the CTC prefix score in joint decoding
	// (Watanabe et al. 2017): score = (1−μ)·log p_att + μ·log p_ctc.
	// Default 0.3; 0 decodes with attention alone. Ignored when the model
	// has no CTC head.
	CTCWeight float64
	// LM and LMWeight β add shallow fusion with a character language model.
	LM       LanguageModel
	LMWeight float64
	// WordLM adds word-level fusion with a word n-gram model through a
	// lexicon (see WordLM), weighted by WordLMWeight β_w: candidates gain
	// β_w·Δ log p_word at each character (look-ahead within a word, the
	// word's own probability at its end) and WordBonus per completed
	// word, which offsets the language model's preference for fewer,
	// longer words. DefaultOptions sets no language model
	// (pipeline/speechmodel's LanguageModel.Apply loads and sets one).
	WordLM       *WordLM
	WordLMWeight float64
	WordBonus    float64
	// NoFallback keeps the attention output even when it looks broken
	// (see Result.Fallback).
	NoFallback bool
	// CTCBeam, when positive and the model has a CTC head, adds a CTC
	// prefix beam search of that width (fused with the word LM as the
	// attention search is) and picks the transcript by joint rescoring
	// of both searches' complete hypotheses (see rescore): the CTC
	// hypotheses replace the fallback. 0 keeps the attention search
	// alone. Default DefaultCTCBeam.
	CTCBeam int
	// CharBonus is added per character of a complete transcript in joint
	// rescoring (with CTCBeam; nats). The CTC and language-model terms
	// both favour short transcripts: on speech faster than the training
	// speech, the CTC head (one label per 60 ms frame at most) under-emits
	// and the word LM prefers a few common words, so the rescoring picks
	// transcripts that drop words. Default DefaultCharBonus, tuned on the
	// dev speakers with the default word LM (see README).
	CharBonus float64
	// PhoneWeight λ_ph adds the phone CTC head's score of each
	// transcript to joint rescoring (with CTCBeam): the transcript's
	// words are looked up in PhoneDict and their pronunciations,
	// concatenated, scored by CTC over Encoded.PhoneLogProbs; a word the
	// dictionary lacks is a filler that may stand for any phones and
	// costs PhoneOOVPenalty nats unless the user gave it to the WordLM's
	// lexicon (a hotword, a -lexicon word: known, only not how it sounds). The phone head learns sounds, which
	// English spelling hides from the character heads (Toshniwal et al.
	// 2017). 0 (or no phone head, or no PhoneDict) leaves it out.
	PhoneWeight     float64
	PhoneOOVPenalty float64
	PhoneDict       *PhoneDict
	// PhoneBeam, when positive, adds to joint rescoring the transcripts
	// of a phone beam search of that width: a CTC prefix search over the
	// phone head whose prefixes are words of the WordLM's lexicon as
	// PhoneDict pronounces them (see phoneBeam). Where the speller
	// cannot spell what the listener heard, its words are real words
	// that sound right. It needs a phone head, PhoneDict, WordLM and
	// CTCBeam; 0 leaves it out. Default DefaultPhoneBeam.
	PhoneBeam int
}

// DefaultBeam and DefaultCTCBeam are the default widths of the attention
// beam and of the CTC prefix beam whose transcripts are rescored jointly;
// DefaultCharBonus is the default Options.CharBonus.
const (
	DefaultBeam      = 12
	DefaultCTCBeam   = 12
	DefaultCharBonus = 0.3
	// DefaultPhoneWeight and DefaultPhoneOOVPenalty are the defaults of
	// Options.PhoneWeight and PhoneOOVPenalty.
	DefaultPhoneWeight     = 0.6
	DefaultPhoneOOVPenalty = 10
	// DefaultPhoneBeam is the default Options.PhoneBeam.
	DefaultPhoneBeam = 12
)

// DefaultOptions returns the default search: beams of DefaultBeam
// and DefaultCTCBeam, length normalization (α 1), EOS threshold 1.5,
// length ratio 1.5, CTC weight 0.3, DefaultCharBonus and the phone
// head's DefaultPhoneWeight and DefaultPhoneOOVPenalty, no language model
// and no PhoneDict (pipeline/speechmodel's LanguageModel.Apply sets both; the
// phone term needs the dictionary).
func DefaultOptions() Options {
	return Options{Beam: DefaultBeam, CTCBeam: DefaultCTCBeam, LengthPenalty: 1, EOSThreshold: 1.5, MaxLengthRatio: 1.5, CTCWeight: 0.3, CharBonus: DefaultCharBonus,
		PhoneWeight: DefaultPhoneWeight, PhoneOOVPenalty: DefaultPhoneOOVPenalty, PhoneBeam: DefaultPhoneBeam}
}

func (o *Options) withDefaults(hasCTC bool) Options {
	s := DefaultOptions()
	if o != nil {
		s = *o
	}
	if s.Beam <= 0 {
		s.Beam = DefaultBeam
	}
	if s.LengthPenalty < 0 {
		s.LengthPenalty = 0
	}
	if s.MaxLengthRatio <= 0 {
		s.MaxLengthRatio = 1.5
	}
	switch {
	case !hasCTC || s.CTCWeight < 0:
		s.CTCWeight = 0
	case s.CTCWeight > 1:
		s.CTCWeight = 1
	}
	if s.LM == nil {
		s.LMWeight = 0
	}
	if s.WordLM == nil {
		s.WordLMWeight, s.WordBonus = 0, 0
	}
	if s.PhoneDict == nil || s.PhoneWeight < 0 {
		s.PhoneWeight = 0
	}
	return s
}
