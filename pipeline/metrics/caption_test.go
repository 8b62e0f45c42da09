package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var captionRefs = map[string][]string{
	"dog.jpg": {
		"A black dog runs through the grass.",
		"A dog is running on a lawn.",
		"The black dog is playing outside.",
	},
	"kids.jpg": {
		"Two children play in the snow.",
		"Kids playing in snow.",
		"Two kids are sledding down a snowy hill.",
	},
	"bike.jpg": {
		"A man rides a red bike.",
		"A cyclist on a red bicycle.",
		"Man riding a bike down the street.",
	},
}

func TestScoreCaptionsPerfect(t *testing.T) {
	// Each candidate is a reference with other case and punctuation:
	// after tokenization it equals that reference exactly.
	cands := map[string]string{
		"dog.jpg":  "a BLACK dog runs through the grass",
		"kids.jpg": "Two children, play in the snow!",
		"bike.jpg": "a man rides a red bike",
	}
	s, err := ScoreCaptions(cands, captionRefs)
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range s.BLEU {
		if math.Abs(b-1) > 1e-9 {
			t.Errorf("BLEU-%d = %.12g, want 1", n+1, b)
		}
	}
	if s.METEOR != 1 || s.ROUGEL != 1 {
		t.Errorf("METEOR %v, ROUGE-L %v, want 1 and 1", s.METEOR, s.ROUGEL)
	}
	// CIDEr-D averages over the three references, of which only one is
	// equal: above the typical 0.4–1.2 of models, below the maximum 10.
	if s.CIDErD < 2 || s.CIDErD >= 10 {
		t.Errorf("CIDEr-D %v, want a value in [2, 10)", s.CIDErD)
	}
}

func TestScoreCaptionsMatchesMetrics(t *testing.T) {
	cands := map[string]string{
		"dog.jpg":  "a dog running on the grass",
		"kids.jpg": "children playing in snow",
		"bike.jpg": "a person on a bicycle",
	}
	s, err := ScoreCaptions(cands, captionRefs)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := NewSamples(cands, captionRefs)
	if err != nil {
		t.Fatal(err)
	}
	if ids := []string{samples[0].ID, samples[1].ID, samples[2].ID}; strings.Join(ids, " ") != "bike.jpg dog.jpg kids.jpg" {
		t.Errorf("NewSamples order %v, want sorted ids", ids)
	}
	bleu, _ := BLEU(samples)
	meteor, _, _ := METEOR(samples, nil)
	rouge, _, _ := ROUGEL(samples)
	cider, _, _ := CIDErD(samples)
	want := CaptionScores{BLEU: bleu, METEOR: meteor, ROUGEL: rouge, CIDErD: cider}
	if s != want {
		t.Errorf("ScoreCaptions = %v\nmetrics give %v", s, want)
	}
	for range 5 { // map order must not matter
		again, err := ScoreCaptions(cands, captionRefs)
		if err != nil {
			t.Fatal(err)
		}
		if again != s {
			t.Fatalf("ScoreCaptions not deterministic: %v, then %v", s, again)
		}
	}
	if s.METEOR <= 0 || s.METEOR >= 1 || s.CIDErD <= 0 || s.BLEU[0] <= s.BLEU[3] {
		t.Errorf("implausible scores for partly matching captions: %v", s)
	}
}

func TestScoreCaptionsErrors(t *testing.T) {
	cands := map[string]string{"dog.jpg": "a dog", "kids.jpg": "kids", "bike.jpg": "a bike"}
	tests := []struct {
		name  string
		cands map[string]string
		refs  map[string][]string
		want  error
		text  string // part of the message
	}{
		{"nothing", nil, nil, ErrNoSamples, "no captions"},
		{"candidate without references", map[string]string{"dog.jpg": "a dog", "cat.jpg": "a cat"},
			map[string][]string{"dog.jpg": {"a dog"}}, ErrMissingID, `1 candidate(s) without references: "cat.jpg"`},
		{"references without candidate", map[string]string{"dog.jpg": "a dog"},
			captionRefs, ErrMissingID, `2 image(s) with references but no candidate: "bike.jpg", "kids.jpg"`},
		{"empty reference list", cands,
			map[string][]string{"dog.jpg": {"a dog"}, "kids.jpg": {}, "bike.jpg": {"a bike"}}, ErrNoReferences, `image "kids.jpg"`},
		{"reference without words", cands,
			map[string][]string{"dog.jpg": {"a dog", " ... "}, "kids.jpg": {"kids"}, "bike.jpg": {"a bike"}},
			ErrEmptyReference, `image "dog.jpg", reference 1 (" ... ")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ScoreCaptions(tt.cands, tt.refs)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) || !strings.HasPrefix(err.Error(), "metrics: ") {
				t.Errorf("error %q should start with \"metrics: \" and contain %q", err, tt.text)
			}
		})
	}
}

func TestSomeIDs(t *testing.T) {
	ids := []string{"g", "f", "e", "d", "c", "b", "a"}
	if got, want := someIDs(ids), `"a", "b", "c", "d", "e" and 2 more`; got != want {
		t.Errorf("someIDs = %s, want %s", got, want)
	}
}

func TestCaptionScoresString(t *testing.T) {
	s := CaptionScores{BLEU: [4]float64{0.65, 0.45, 0.3, 0.2}, METEOR: 0.2, ROUGEL: 0.47, CIDErD: 0.5}
	want := "BLEU-1 0.6500 BLEU-2 0.4500 BLEU-3 0.3000 BLEU-4 0.2000 METEOR 0.2000 ROUGE-L 0.4700 CIDEr-D 0.5000"
	if got := s.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func FuzzScoreCaptions(f *testing.F) {
	f.Add("A dog runs.", "a dog is running", "the black dog runs")
	f.Add("", "x", "y")
	f.Add("the the the", "the cat", "...")
	f.Add("don't stop", "do n't stop", "can't stop")
	f.Fuzz(func(t *testing.T, cand, ref1, ref2 string) {
		if len(cand)+len(ref1)+len(ref2) > 300 {
			return
		}
		cands := map[string]string{"fuzz": cand, "fixed": "a man on a bike"}
		refs := map[string][]string{"fuzz": {ref1, ref2}, "fixed": {"a man rides a bike", "a cyclist"}}
		s, err := ScoreCaptions(cands, refs)
		if err != nil {
			if !errors.Is(err, ErrEmptyReference) || len(Tokenize(ref1)) > 0 && len(Tokenize(ref2)) > 0 {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		in := func(x, hi float64) bool { return x >= 0 && x <= hi && !math.IsNaN(x) }
		for n, b := range s.BLEU {
			if !in(b, 1+1e-12) {
				t.Fatalf("BLEU-%d = %v", n+1, b)
			}
		}
		if !in(s.METEOR, 1) || !in(s.ROUGEL, 1) || !in(s.CIDErD, 10+1e-9) {
			t.Fatalf("scores out of range: %v", s)
		}
	})
}
