package metrics

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// captionSample builds a sample from space-separated token strings.
func captionSample(cand string, refs ...string) Sample {
	s := Sample{Cand: strings.Fields(cand)}
	for _, r := range refs {
		s.Refs = append(s.Refs, strings.Fields(r))
	}
	return s
}

// Coco-caption's smoothing constants, as the expected values below spell
// them out.
const (
	bleuTiny  = 1e-15
	bleuSmall = 1e-9
)

// bleuP is one smoothed precision factor (correct + tiny)/(guess + small).
func bleuP(correct, guess float64) float64 {
	return (correct + bleuTiny) / (guess + bleuSmall)
}

// bleuBP is coco-caption's brevity penalty for corpus lengths c and r:
// with ratio = (c + tiny)/(r + small), exp(1 − 1/ratio) when ratio < 1.
// Note that c = r gives a ratio a hair below 1 and BP = exp(−(small −
// tiny)/c) ≈ 1 − 10⁻⁹/c.
func bleuBP(c, r float64) float64 {
	ratio := (c + bleuTiny) / (r + bleuSmall)
	if ratio < 1 {
		return math.Exp(1 - 1/ratio)
	}
	return 1
}

// bleuN returns BLEU-1…4 from the four precision factors and the lengths.
func bleuN(p [4]float64, c, r float64) [4]float64 {
	var out [4]float64
	prod := 1.0
	for n := range p {
		prod *= p[n]
		out[n] = math.Pow(prod, 1/float64(n+1)) * bleuBP(c, r)
	}
	return out
}

func TestBLEUHandComputed(t *testing.T) {
	tests := []struct {
		name    string
		samples []Sample
		want    [4]float64
	}{
		{
			// Papineni et al. (2002), §2.1: the candidate's 7 unigrams
			// are all "the", which occurs at most twice in one reference,
			// so p1 = 2/7; no bigram matches. c = 7, closest r = 7: BP = 1.
			name: "clipped repeated word",
			samples: []Sample{captionSample("the the the the the the the",
				"the cat is on the mat", "there is a cat on the mat")},
			want: bleuN([4]float64{bleuP(2, 7), bleuP(0, 6), bleuP(0, 5), bleuP(0, 4)}, 7, 7),
		},
		{
			// c = 2, r = 4: BP ≈ exp(1 − r/c) = e⁻¹ for every order; p1 = 2/2,
			// p2 = 1/1, and there are no 3- or 4-grams: the guess of 0 makes
			// those factors 10⁻¹⁵/10⁻⁹ = 10⁻⁶ instead of 0/0.
			name:    "brevity penalty and empty orders",
			samples: []Sample{captionSample("a dog", "a dog runs fast")},
			want:    bleuN([4]float64{bleuP(2, 2), bleuP(1, 1), bleuP(0, 0), bleuP(0, 0)}, 2, 4),
		},
		{
			// "a a b": "a" is clipped to 2 by the second reference (the
			// max over single references, not their sum), "b" matches:
			// p1 = 3/3; bigrams "a a" (ref 2) and "a b" (ref 1): p2 = 2/2;
			// trigram "a a b" appears in neither: p3 = 0/1.
			// Reference lengths 2 and 3 are at distance 1 and 0: r = 3.
			name:    "clipping by the best single reference",
			samples: []Sample{captionSample("a a b", "a b", "a a c")},
			want:    bleuN([4]float64{bleuP(3, 3), bleuP(2, 2), bleuP(0, 1), bleuP(0, 0)}, 3, 3),
		},
		{
			// c = 4, references of 3 and 5 words are equally close:
			// coco-caption takes the shorter, r = 3 < c, so BP = 1
			// (taking 5 would give exp(1 − 5/4)). p1 = 3/4 ("a b c").
			name:    "closest length ties go to the shorter",
			samples: []Sample{captionSample("a b c x", "a b c", "a b c d e")},
			want:    bleuN([4]float64{bleuP(3, 4), bleuP(2, 3), bleuP(1, 2), bleuP(0, 1)}, 4, 3),
		},
		{
			// Corpus BLEU sums counts, it does not average sentences:
			// sample 1 has p1 = 1/1 (c = 1, r = 1), sample 2 p1 = 0/3
			// (c = 3, r = 3), so p1 = 1/4, not (1 + 0)/2. Bigrams: 0 of 0
			// and 0 of 2.
			name: "counts summed over the corpus",
			samples: []Sample{
				captionSample("a", "a"),
				captionSample("x y z", "a b c"),
			},
			want: bleuN([4]float64{bleuP(1, 4), bleuP(0, 2), bleuP(0, 1), bleuP(0, 0)}, 4, 4),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := BLEU(tt.samples)
			if err != nil {
				t.Fatal(err)
			}
			for n := range got {
				if !captionClose(got[n], tt.want[n]) {
					t.Errorf("BLEU-%d = %.17g, want %.17g", n+1, got[n], tt.want[n])
				}
			}
		})
	}
}

// TestBLEUPublished reproduces the worked example of Papineni et al.
// (2002) as NLTK's documentation scores it (nltk.translate.bleu_score:
// sentence_bleu 0.5045666840058485, corpus_bleu with weights (1), (½, ½)
// and (¼, ¼, ¼, ¼): 0.9655172413793104, 0.8242803277698696,
// 0.5920778868801042). NLTK does not smooth, so coco-caption's constants
// move the values by about 10⁻¹⁰: the tolerance is 10⁻⁹.
func TestBLEUPublished(t *testing.T) {
	hyp1 := "It is a guide to action which ensures that the military always obeys the commands of the party"
	refs1 := []string{
		"It is a guide to action that ensures that the military will forever heed Party commands",
		"It is the guiding principle which guarantees the military forces always being under the command of the Party",
		"It is the practical guide for the army always to heed the directions of the party",
	}
	hyp2 := "he read the book because he was interested in world history"
	ref2 := "he was interested in world history because he read the book"

	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9 }

	// The paper's modified precisions of candidate 1: 17/18 unigrams,
	// 10/17 bigrams (and 7/16, 4/15 for 3- and 4-grams), BP = 1.
	sentence, err := BLEU([]Sample{captionSample(hyp1, refs1...)})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range [4]float64{
		17.0 / 18,
		math.Sqrt(17.0 / 18 * 10 / 17),
		math.Cbrt(17.0 / 18 * 10 / 17 * 7 / 16),
		0.5045666840058485,
	} {
		if !near(sentence[n], want) {
			t.Errorf("sentence BLEU-%d = %.16g, want %.16g", n+1, sentence[n], want)
		}
	}

	corpus, err := BLEU([]Sample{captionSample(hyp1, refs1...), captionSample(hyp2, ref2)})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]float64{0: 0.9655172413793104, 1: 0.8242803277698696, 3: 0.5920778868801042} {
		if !near(corpus[n], want) {
			t.Errorf("corpus BLEU-%d = %.16g, NLTK %.16g", n+1, corpus[n], want)
		}
	}
}

func TestBLEUBounds(t *testing.T) {
	perfect, err := BLEU([]Sample{
		captionSample("a dog runs on the grass", "a dog runs on the grass", "a brown dog is running"),
		captionSample("two people in a field", "two people in a field"),
	})
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range perfect {
		if math.Abs(b-1) > 1e-9 {
			t.Errorf("perfect match: BLEU-%d = %.17g, want 1", n+1, b)
		}
	}
	disjoint, err := BLEU([]Sample{captionSample("x y z w", "a b c d", "e f g")})
	if err != nil {
		t.Fatal(err)
	}
	for n, b := range disjoint {
		if b < 0 || b > 1e-15 {
			t.Errorf("disjoint: BLEU-%d = %g, want 0 (up to coco-caption's 1e-15)", n+1, b)
		}
	}
}

// TestBLEUSmoothingQuirk pins coco-caption's behaviour on a candidate
// too short for 3- and 4-grams: they count as precision 10⁻⁶ each, not 0
// (so BLEU-3 = (1·1·10⁻⁶)^⅓·e⁻¹ = 0.01/e), and BP = e⁻¹ for c = 2, r = 4.
func TestBLEUSmoothingQuirk(t *testing.T) {
	got, err := BLEU([]Sample{captionSample("a dog", "a dog runs fast")})
	if err != nil {
		t.Fatal(err)
	}
	want := [4]float64{1 / math.E, 1 / math.E, 0.01 / math.E, math.Pow(1e-12, 0.25) / math.E}
	for n := range got {
		if math.Abs(got[n]-want[n]) > 1e-8*want[n] {
			t.Errorf("BLEU-%d = %.10g, want %.10g", n+1, got[n], want[n])
		}
	}
}

func TestBLEUInvariance(t *testing.T) {
	base := []Sample{
		captionSample("a man rides a red bike", "a man riding a bike", "a person on a red bicycle", "man bikes"),
		captionSample("two dogs play in the snow", "two dogs playing in snow", "dogs in the snow"),
		captionSample("a girl", "a little girl smiles", "a girl"),
	}
	want, err := BLEU(base)
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string][]Sample{
		"samples reversed": {base[2], base[1], base[0]},
		"references reversed": func() []Sample {
			out := make([]Sample, len(base))
			for i, s := range base {
				out[i] = Sample{Cand: s.Cand, Refs: slices.Clone(s.Refs)}
				slices.Reverse(out[i].Refs)
			}
			return out
		}(),
		"a reference duplicated": func() []Sample {
			out := slices.Clone(base)
			out[0].Refs = append(slices.Clone(out[0].Refs), out[0].Refs[0])
			return out
		}(),
	}
	for name, v := range variants {
		got, err := BLEU(v)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: BLEU %v, want %v", name, got, want)
		}
	}
}

func TestBLEUErrors(t *testing.T) {
	tests := []struct {
		name    string
		samples []Sample
		want    error
	}{
		{"no samples", nil, ErrNoSamples},
		{"no references", []Sample{{ID: "img1", Cand: []string{"a"}}}, ErrNoReferences},
		{"empty reference", []Sample{{ID: "img1", Cand: []string{"a"}, Refs: [][]string{{"a"}, {}}}}, ErrEmptyReference},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := BLEU(tt.samples)
			if !errors.Is(err, tt.want) {
				t.Fatalf("BLEU error %v, want %v", err, tt.want)
			}
		})
	}
}
