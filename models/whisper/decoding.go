package whisper

import (
	"errors"
	"fmt"
	"math"
)

// DecodingOptions are openai/whisper's DecodingOptions (whisper/decoding.py).
// Zero is a real value for several fields (temperature 0, length penalty 0),
// so start from DefaultDecodingOptions and change what differs.
type DecodingOptions struct {
	// Task is "transcribe" (X→X, the default) or "translate" (X→English).
	Task string
	// Language is the spoken language's code ("en", "de", …); "" detects
	// it (multilingual models only; DetectLanguage).
	Language string

	// Temperature 0 (the default) picks the most probable token (first
	// maximum, as torch.argmax); above 0 it samples from softmax(logits/T).
	Temperature float64
	// SampleLen is the most tokens to sample; 0 means NTextCtx/2 (224).
	SampleLen int
	// BestOf is the number of independent samples when Temperature > 0;
	// 0 means one. Not with BeamSize, nor at temperature 0.
	BestOf int
	// BeamSize is the number of beams of beam search at temperature 0;
	// 0 means greedy decoding.
	BeamSize int
	// Patience (arXiv:2204.05424) scales the number of finished
	// hypotheses beam search waits for: round(BeamSize·Patience); 0 means
	// openai/whisper's None, i.e. 1.0. Needs BeamSize.
	Patience float64
	// LengthPenalty is the "alpha" of Google NMT (Wu et al. 2016), in
	// [0, 1], that ranks finished sequences by logprob/((5+len)/6)^alpha;
	// nil (openai/whisper's None) ranks by logprob/len.
	LengthPenalty *float64

	// Prompt is previous-context text tokens, fed after <|startofprev|>
	// (only its last NTextCtx/2−1 tokens are kept); Prefix is tokens that
	// begin the current transcript (at most NTextCtx/2−SampleLen of its
	// tail). Encode text with PromptTokens.
	Prompt, Prefix []int

	// SuppressTokens are token ids whose logits become −∞ at every step;
	// −1 among them stands for the tokenizer's non-speech tokens. The
	// default is {−1}. An empty list suppresses nothing (not even the
	// special tokens that a non-empty list always adds).
	SuppressTokens []int
	// SuppressBlank forbids a blank (" " or end of text) as the first
	// sampled token (default true).
	SuppressBlank bool

	// WithoutTimestamps samples text tokens only, after <|notimestamps|>.
	WithoutTimestamps bool
	// MaxInitialTimestamp bounds the first timestamp in seconds (default
	// 1.0); 0 means no bound.
	MaxInitialTimestamp float64
}

// DefaultDecodingOptions returns openai/whisper's defaults: transcribe,
// detect the language, temperature 0, greedy, suppress {−1} and blanks,
// timestamps on with the first at most 1 s.
func DefaultDecodingOptions() DecodingOptions {
	return DecodingOptions{
		Task:                "transcribe",
		SuppressTokens:      []int{-1},
		SuppressBlank:       true,
		MaxInitialTimestamp: 1.0,
	}
}

// Validate reports combinations openai/whisper's DecodingTask rejects.
func (o DecodingOptions) Validate() error {
	if o.Task != "transcribe" && o.Task != "translate" {
		return fmt.Errorf("whisper: task %q is neither \"transcribe\" nor \"translate\"", o.Task)
	}
	if o.BeamSize < 0 || o.BestOf < 0 || o.SampleLen < 0 || o.Patience < 0 {
		return errors.New("whisper: beam size, best-of, sample length and patience must not be negative")
	}
	if o.BeamSize > 0 && o.BestOf > 0 {
		return errors.New("whisper: beam size and best-of can't be given together")
	}
	if o.Temperature == 0 && o.BestOf > 0 {
		return errors.New("whisper: best-of with greedy sampling (temperature 0) is not compatible")
	}
	if o.Temperature < 0 || math.IsNaN(o.Temperature) || math.IsInf(o.Temperature, 0) {
		return fmt.Errorf("whisper: temperature %v is not a finite non-negative number", o.Temperature)
	}
	if o.Patience != 0 && o.BeamSize == 0 {
		return errors.New("whisper: patience requires a beam size")
	}
	if o.BeamSize > 0 && maxCandidates(o.BeamSize, o.Patience) <= 0 {
		return fmt.Errorf("whisper: invalid beam size (%d) or patience (%v)", o.BeamSize, o.Patience)
	}
	if lp := o.LengthPenalty; lp != nil && !(*lp >= 0 && *lp <= 1) {
		return errors.New("whisper: length penalty (alpha) should be a value between 0 and 1")
	}
	return nil
}

// DecodingResult is one window's decoded text and the figures transcribe
// uses to judge it.
type DecodingResult struct {
	Audio    *AudioFeatures
	Language string
	// LanguageProbs holds the language detection's probabilities when the
	// language was detected; nil otherwise.
	LanguageProbs map[string]float64
	// Tokens are the sampled tokens, from after the initial tokens to
	// before the end of text (timestamps included).
	Tokens []int
	// Text is Tokens decoded (timestamps dropped), spaces trimmed.
	Text string
	// AvgLogprob is the chosen sequence's summed log-probability over
	// len(Tokens)+1 (the end of text counts).
	AvgLogprob float64
	// NoSpeechProb is the probability of <|nospeech|> at the
	// start-of-transcript position.
	NoSpeechProb     float64
	Temperature      float64
	CompressionRatio float64
	// DecodedTokens counts the token positions the text decoder ran:
	// the initial tokens once, then one per sequence per step.
	DecodedTokens int
}

// Specials are the special token ids decoding needs, numbered as
// openai/whisper's tokenizer numbers them.
type Specials struct {
	EOT, SOT, Translate, Transcribe, SOTLM, SOTPrev, NoSpeech, NoTimestamps, TimestampBegin int
}

// TextTokenizer is what decoding needs from a tokenizer. TokenizerText
// adapts *Tokenizer; tests may use a fake.
type TextTokenizer interface {
	Specials() Specials
	// Encode returns the BPE ids of text (no special tokens).
	Encode(text string) []int
	// Decode returns the text of ids, dropping ids ≥ EOT.
	Decode(ids []int) string
	// SOTSequence returns <|startoftranscript|> followed, on multilingual
	// models, by the language and task tokens.
	SOTSequence(language, task string) ([]int, error)
	// NonSpeechTokens are the symbols openai/whisper suppresses for "-1".
	NonSpeechTokens() []int
	// LanguageTokens are the language codes and their token ids in
	// openai/whisper's order; empty on English-only models.
	LanguageTokens() (codes []string, ids []int)
	// SplitToWordTokens groups tokens into words, as openai/whisper's
	// Tokenizer.split_to_word_tokens.
	SplitToWordTokens(tokens []int, language string) (words []string, wordTokens [][]int)
}

// PromptTokens encodes text as openai/whisper encodes a prompt or prefix
// string: " " + text with surrounding white space removed.
func PromptTokens(tok TextTokenizer, text string) []int {
	return tok.Encode(" " + pyStrip(text))
}
