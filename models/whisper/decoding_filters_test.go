package whisper

import (
	"math"
	"slices"
	"testing"
)

// suppressed lists the ids whose logit is −∞.
func suppressed(x []float32) []int {
	var ids []int
	for i, v := range x {
		if math.IsInf(float64(v), -1) {
			ids = append(ids, i)
		}
	}
	return ids
}

func span(a, b int) []int { // [a, b)
	var ids []int
	for i := a; i < b; i++ {
		ids = append(ids, i)
	}
	return ids
}

func union(parts ...[]int) []int {
	var all []int
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

func TestSuppressBlankAndTokens(t *testing.T) {
	tok := fakeTokenizer{}
	blank := NewSuppressBlank(tok, 1)
	x := make([]float32, fVocab)
	blank.Apply(x, []int{fSOT})
	if got, want := suppressed(x), []int{0, fEOT}; !slices.Equal(got, want) {
		t.Errorf("at the first sampled position: suppressed %v, want %v", got, want)
	}
	x = make([]float32, fVocab)
	blank.Apply(x, []int{fSOT, 3})
	if got := suppressed(x); len(got) != 0 {
		t.Errorf("later: suppressed %v, want none", got)
	}

	for _, tc := range []struct {
		name string
		opt  []int
		want []int
	}{
		{"default -1", []int{-1}, []int{1, fTranslate, fTranscribe, fSOT, fSOTPrev, fSOTLM, fNoSpeech}},
		{"explicit", []int{5, 3, 5}, []int{3, 5, fTranslate, fTranscribe, fSOT, fSOTPrev, fSOTLM, fNoSpeech}},
		{"explicit and -1", []int{4, -1}, []int{1, 4, fTranslate, fTranscribe, fSOT, fSOTPrev, fSOTLM, fNoSpeech}},
		{"empty", nil, nil},
	} {
		got := suppressList(tc.opt, tok)
		if !slices.Equal(got, union(tc.want)) {
			t.Errorf("%s: suppress list %v, want %v", tc.name, got, union(tc.want))
		}
	}
}

func TestApplyTimestampRules(t *testing.T) {
	rules := &ApplyTimestampRules{EOT: fEOT, NoTimestamps: fNoTimestamps, TimestampBegin: fTB, SampleBegin: 1, MaxInitialTimestampIndex: 50}
	ts := func(i int) int { return fTB + i }
	flat := func() []float32 { return make([]float32, fVocab) } // text beats any one timestamp? no: all equal
	textWins := func() []float32 {
		x := make([]float32, fVocab)
		x[5], x[fEOT] = 20, 20 // e^20 ≫ 1,501 timestamps at 0
		return x
	}
	for _, tc := range []struct {
		name   string
		logits func() []float32
		tokens []int
		want   []int
	}{
		{"first token: a timestamp ≤ 1.00 s", textWins, []int{fSOT},
			union(span(0, fTB), []int{fNoTimestamps}, span(ts(51), fVocab))},
		{"lone timestamp after text: no text, not earlier", textWins, []int{fSOT, ts(3), 5, ts(7)},
			union(span(0, fEOT), []int{fNoTimestamps}, span(ts(0), ts(7)))},
		{"pair of timestamps: no timestamp", textWins, []int{fSOT, ts(3), 5, ts(7), ts(7)},
			union([]int{fNoTimestamps}, span(ts(0), fVocab))},
		{"text after a timestamp: later timestamps only", textWins, []int{fSOT, ts(3), 5},
			union([]int{fNoTimestamps}, span(ts(0), ts(4)))},
		{"lone first timestamp: text next", textWins, []int{fSOT, ts(3)},
			// the penultimate counts as a timestamp when fewer than two were sampled
			union([]int{fNoTimestamps}, span(ts(0), fVocab))},
		{"timestamp mass beats text", flat, []int{fSOT, ts(3), 5},
			union(span(0, fTB), span(ts(0), ts(4)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tc.logits()
			rules.Apply(x, tc.tokens)
			if got := suppressed(x); !slices.Equal(got, tc.want) {
				t.Errorf("suppressed %d ids %v…, want %d ids %v…", len(got), got[:min(12, len(got))], len(tc.want), tc.want[:min(12, len(tc.want))])
			}
		})
	}

	// Unbounded first timestamp.
	free := *rules
	free.MaxInitialTimestampIndex = -1
	x := textWins()
	free.Apply(x, []int{fSOT})
	if got, want := suppressed(x), union(span(0, fTB), []int{fNoTimestamps}); !slices.Equal(got, want) {
		t.Errorf("unbounded first timestamp: suppressed %d ids, want %d", len(got), len(want))
	}
}
