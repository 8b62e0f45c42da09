package whisper

import (
	"math"
	"sort"

	"github.com/attend-go/attend/attention"
)

// LogitFilter masks or penalizes one sequence's next-token logits in
// place, given every token of that sequence so far (initial tokens
// included), as openai/whisper's LogitFilter.apply does for each row.
type LogitFilter interface {
	Apply(logits []float32, tokens []int)
}

var negInf = float32(math.Inf(-1))

// SuppressBlank forbids a blank start: at the first sampled position
// (len(tokens) == SampleBegin) the tokens of " " and the end of text get
// −∞.
type SuppressBlank struct {
	Blank       []int // Encode(" ") followed by EOT
	SampleBegin int
}

// NewSuppressBlank builds SuppressBlank from the tokenizer.
func NewSuppressBlank(tok TextTokenizer, sampleBegin int) *SuppressBlank {
	blank := append(append([]int(nil), tok.Encode(" ")...), tok.Specials().EOT)
	return &SuppressBlank{Blank: blank, SampleBegin: sampleBegin}
}

// Apply implements LogitFilter.
func (f *SuppressBlank) Apply(logits []float32, tokens []int) {
	if len(tokens) == f.SampleBegin {
		setNegInf(logits, f.Blank)
	}
}

// SuppressTokens gives the listed tokens −∞ at every step.
type SuppressTokens []int

// Apply implements LogitFilter.
func (f SuppressTokens) Apply(logits []float32, _ []int) { setNegInf(logits, f) }

func setNegInf(logits []float32, ids []int) {
	for _, id := range ids {
		if id >= 0 && id < len(logits) {
			logits[id] = negInf
		}
	}
}

// suppressList resolves DecodingOptions.SuppressTokens as openai/whisper's
// _get_suppress_tokens: −1 expands to the non-speech tokens, and the task,
// start-of-transcript, start-of-previous, start-of-LM and no-speech tokens
// are always added; the result is sorted and unique. An empty option gives
// an empty list (no filter).
func suppressList(opt []int, tok TextTokenizer) []int {
	if len(opt) == 0 {
		return nil
	}
	sp := tok.Specials()
	var ids []int
	expand := false
	for _, t := range opt {
		if t == -1 {
			expand = true
		}
	}
	for _, t := range opt {
		if !expand || t >= 0 {
			ids = append(ids, t)
		}
	}
	if expand {
		ids = append(ids, tok.NonSpeechTokens()...)
	}
	ids = append(ids, sp.Transcribe, sp.Translate, sp.SOT, sp.SOTPrev, sp.SOTLM, sp.NoSpeech)
	sort.Ints(ids)
	out := ids[:0]
	for i, t := range ids {
		if i == 0 || t != ids[i-1] {
			out = append(out, t)
		}
	}
	return out
}

// ApplyTimestampRules enforces the timestamp grammar of openai/whisper's
// ApplyTimestampRules:
//
//   - <|notimestamps|> is never sampled;
//   - timestamps come in pairs, except directly before the end of text:
//     after a lone timestamp the next token is not text, after a pair it
//     is not a timestamp;
//   - timestamps never decrease, and a segment has non-zero length: after
//     a lone timestamp t the next is ≥ t, otherwise > the last one;
//   - the first sampled token is a timestamp, at most
//     MaxInitialTimestampIndex (−1: unbounded) steps of 0.02 s;
//   - when the timestamps' total probability (logsumexp of their
//     log-probabilities) exceeds every text token's, text is forbidden.
type ApplyTimestampRules struct {
	EOT, NoTimestamps, TimestampBegin int
	SampleBegin                       int
	MaxInitialTimestampIndex          int // −1: no bound
}

// Apply implements LogitFilter.
func (f *ApplyTimestampRules) Apply(logits []float32, tokens []int) {
	tb := f.TimestampBegin
	if f.NoTimestamps >= 0 && f.NoTimestamps < len(logits) {
		logits[f.NoTimestamps] = negInf
	}

	sampled := tokens[f.SampleBegin:]
	n := len(sampled)
	lastWasTimestamp := n >= 1 && sampled[n-1] >= tb
	penultimateWasTimestamp := n < 2 || sampled[n-2] >= tb
	if lastWasTimestamp {
		if penultimateWasTimestamp { // has to be non-timestamp
			fill(logits[tb:], negInf)
		} else { // cannot be normal text tokens
			fill(logits[:f.EOT], negInf)
		}
	}
	lastTimestamp := -1
	for _, t := range sampled {
		if t >= tb {
			lastTimestamp = t
		}
	}
	if lastTimestamp >= 0 {
		// Timestamps shouldn't decrease; forbid those smaller than the
		// last, and force each segment to have a non-zero length.
		end := lastTimestamp + 1
		if lastWasTimestamp && !penultimateWasTimestamp {
			end = lastTimestamp
		}
		fill(logits[tb:min(end, len(logits))], negInf)
	}

	if len(tokens) == f.SampleBegin {
		// Suppress non-timestamp tokens at the beginning.
		fill(logits[:tb], negInf)
		if f.MaxInitialTimestampIndex >= 0 {
			lastAllowed := tb + f.MaxInitialTimestampIndex
			if lastAllowed+1 < len(logits) {
				fill(logits[lastAllowed+1:], negInf)
			}
		}
	}

	// If the probability mass on timestamps exceeds any text token's,
	// sample a timestamp. (log_softmax's shared normalizer, the log-sum
	// of both parts, is subtracted from both sides as there.)
	textLSE, tsLSE := logSumExp(logits[:tb]), logSumExp(logits[tb:])
	lse := logAddExp(textLSE, tsLSE)
	maxText := attention.Max(logits[:tb])
	if tsLSE-lse > float64(maxText)-lse {
		fill(logits[:tb], negInf)
	}
}

// logAddExp returns log(e^a + e^b).
func logAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}

func fill(x []float32, v float32) {
	for i := range x {
		x[i] = v
	}
}

// logSumExp returns log Σ exp(x), accumulated in float64 over float32
// exponentials (attention.Exp32, relative error below 2e-7, as torch's
// float32 log_softmax); −∞ when every x is −∞. attention.LogSumExp: eight
// lanes at a time with AVX2.
func logSumExp(x []float32) float64 { return attention.LogSumExp(x) }
