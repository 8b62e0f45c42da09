package whisper

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// LanguageProbs is language detection's distribution over the model's
// languages.
type LanguageProbs struct {
	Codes  []string           // in the tokenizer's order
	Probs  map[string]float64 // code → probability
	Tokens map[string]int     // code → token id
}

// Best returns the most probable language, the first in tokenizer order
// among equals (openai/whisper's max(probs, key=probs.get)).
func (p LanguageProbs) Best() string {
	best := ""
	for _, c := range p.Codes {
		if best == "" || p.Probs[c] > p.Probs[best] {
			best = c
		}
	}
	return best
}

// Top returns the n most probable languages, most probable first.
func (p LanguageProbs) Top(n int) []string {
	codes := append([]string(nil), p.Codes...)
	sort.SliceStable(codes, func(i, j int) bool { return p.Probs[codes[i]] > p.Probs[codes[j]] })
	return codes[:min(n, len(codes))]
}

// DetectLanguage is openai/whisper's detect_language for one window: the
// decoder's logits after <|startoftranscript|> alone, every token but the
// language tokens masked, softmax.
func DetectLanguage(net Network, tok TextTokenizer, audio *AudioFeatures) (LanguageProbs, error) {
	codes, ids := tok.LanguageTokens()
	if len(codes) == 0 || len(codes) != len(ids) {
		return LanguageProbs{}, errors.New("whisper: this model doesn't have language tokens so it can't perform language identification")
	}
	dec := net.NewDecoder(audio, nil)
	defer releaseDecoders([]TextDecoder{dec})
	rows, err := dec.Forward([]int{tok.Specials().SOT})
	if err != nil {
		return LanguageProbs{}, fmt.Errorf("whisper: language detection: %w", err)
	}
	if len(rows) != 1 {
		return LanguageProbs{}, fmt.Errorf("whisper: language detection: decoder returned %d rows for 1 token", len(rows))
	}
	logits := rows[0]
	m := math.Inf(-1)
	for _, id := range ids {
		if id < 0 || id >= len(logits) {
			return LanguageProbs{}, fmt.Errorf("whisper: language token %d is outside the vocabulary (%d)", id, len(logits))
		}
		m = math.Max(m, float64(logits[id]))
	}
	total := 0.0
	for _, id := range ids {
		total += math.Exp(float64(logits[id]) - m)
	}
	p := LanguageProbs{Codes: codes, Probs: make(map[string]float64, len(codes)), Tokens: make(map[string]int, len(codes))}
	for i, c := range codes {
		p.Probs[c] = math.Exp(float64(logits[ids[i]])-m) / total
		p.Tokens[c] = ids[i]
	}
	return p, nil
}
