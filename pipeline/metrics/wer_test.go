package metrics

import "testing"

func TestWordErrors(t *testing.T) {
	tests := []struct {
		name     string
		ref, hyp string
		want     EditCounts
	}{
		{"both empty", "", "", EditCounts{}},
		{"white space only", " \t\n", "  ", EditCounts{}},
		{"empty hypothesis", "hello world", "", EditCounts{Ref: 2, Del: 2}},
		{"empty reference", "", "hello", EditCounts{Ins: 1, Hyp: 1}},
		{"white space is not a word", "  the\tcat \n sat ", "the cat sat", EditCounts{Ref: 3, Hyp: 3}},
		{"case matters", "The cat", "the cat", EditCounts{Ref: 2, Sub: 1, Hyp: 2}},
		{"unicode words", "naïve café", "naive café", EditCounts{Ref: 2, Sub: 1, Hyp: 2}},
		{"split word", "another one", "an other one", EditCounts{Ref: 2, Sub: 1, Ins: 1, Hyp: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WordErrors(tt.ref, tt.hyp); got != tt.want {
				t.Errorf("WordErrors(%q, %q) = %+v, want %+v", tt.ref, tt.hyp, got, tt.want)
			}
		})
	}
}

func TestCharErrors(t *testing.T) {
	tests := []struct {
		name     string
		ref, hyp string
		want     EditCounts
	}{
		{"both empty", "", "", EditCounts{}},
		{"spaces count", "a b", "ab", EditCounts{Ref: 3, Del: 1, Hyp: 2}},
		{"white space collapsed and trimmed", "  a \t b ", "a b", EditCounts{Ref: 3, Hyp: 3}},
		{"runes not bytes", "é", "e", EditCounts{Ref: 1, Sub: 1, Hyp: 1}},
		{"combining accent is its own rune", "e\u0301", "é", EditCounts{Ref: 2, Sub: 1, Del: 1, Hyp: 1}},
		{"CJK", "今天 天气", "今天天气", EditCounts{Ref: 5, Del: 1, Hyp: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CharErrors(tt.ref, tt.hyp); got != tt.want {
				t.Errorf("CharErrors(%q, %q) = %+v, want %+v", tt.ref, tt.hyp, got, tt.want)
			}
		})
	}
}

// TestPublishedExamples reproduces the examples of the Hugging Face
// evaluate metric cards for "wer" and "cer" (computed there with jiwer):
// errors and reference lengths summed over the pairs of a corpus.
func TestPublishedExamples(t *testing.T) {
	tests := []struct {
		name       string
		errors     func(ref, hyp string) EditCounts
		refs, hyps []string
		want       float64
	}{
		{"wer perfect match", WordErrors,
			[]string{"hello world", "good night moon"}, []string{"hello world", "good night moon"}, 0},
		{"wer partial match", WordErrors,
			[]string{"this is the reference", "there is another one"},
			[]string{"this is the prediction", "there is an other sample"}, 0.5}, // 4 / 8 words
		{"wer no match", WordErrors,
			[]string{"hi everyone", "have a great day"}, []string{"hello world", "good night moon"}, 1},
		{"cer perfect match", CharErrors,
			[]string{"hello world", "good night moon"}, []string{"hello world", "good night moon"}, 0},
		{"cer partial match", CharErrors,
			[]string{"this is the reference", "there is another one"},
			[]string{"this is the prediction", "there is an other sample"}, 0.34146341463414637}, // 14 / 41
		{"cer no match", CharErrors, []string{"gracias"}, []string{"hello"}, 1},
		{"cer insertions above 100%", CharErrors, []string{"hello"}, []string{"hello world"}, 1.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sum EditCounts
			for i := range tt.refs {
				sum.Add(tt.errors(tt.refs[i], tt.hyps[i]))
			}
			if got := sum.Rate(); got != tt.want {
				t.Errorf("rate = %v (%v), want %v", got, sum, tt.want)
			}
		})
	}
}
