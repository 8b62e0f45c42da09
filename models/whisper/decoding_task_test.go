package whisper

import (
	"math"
	"slices"
	"testing"
)

// chainScript continues 6→4, notimestamps→4, 4→5, 5→EOT with logit 10
// (0 elsewhere), and puts 3 on <|nospeech|> after <|startoftranscript|>.
func chainScript(_ float32, tokens []int) []float32 {
	switch tokens[len(tokens)-1] {
	case fSOT:
		return peaked(3, fNoSpeech)
	case fNoTimestamps, 6:
		return peaked(10, 4)
	case 4:
		return peaked(10, 5)
	case 5:
		return peaked(10, fEOT)
	}
	return peaked(10, fEOT)
}

func TestDecodePromptPrefixAndFigures(t *testing.T) {
	net := newFakeNet(chainScript)
	opts := DefaultDecodingOptions()
	opts.Language = "en"
	opts.WithoutTimestamps = true
	opts.Prompt = []int{2, 3}
	opts.Prefix = []int{6}
	res, err := Decode(net, fakeTokenizer{}, &AudioFeatures{Data: []float32{0}}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{fSOTPrev, 2, 3, fSOT, fNoTimestamps, 6}; !slices.Equal(net.prompts[0], want) {
		t.Errorf("initial tokens %v, want %v", net.prompts[0], want)
	}
	if !slices.Equal(res.Tokens, []int{4, 5}) || res.Text != "w4 w5" {
		t.Errorf("tokens %v text %q, want [4 5] \"w4 w5\"", res.Tokens, res.Text)
	}
	// Log-probabilities under the filters: the first step also suppresses
	// the blank (0) and EOT.
	lp := func(suppressed int) float64 { return 10 - math.Log(math.Exp(10)+float64(fVocab-suppressed-1)) }
	want := (lp(9) + lp(7) + lp(7)) / 3
	if math.Abs(res.AvgLogprob-want) > 1e-5 {
		t.Errorf("avg_logprob %v, want %v", res.AvgLogprob, want)
	}
	if want := math.Exp(3) / (math.Exp(3) + fVocab - 1); math.Abs(res.NoSpeechProb-want) > 1e-6 {
		t.Errorf("no_speech_prob %v, want %v", res.NoSpeechProb, want)
	}
	if want := CompressionRatio("w4 w5"); res.CompressionRatio != want {
		t.Errorf("compression ratio %v, want %v", res.CompressionRatio, want)
	}
}

func TestInitialTokensLimits(t *testing.T) {
	long := make([]int, 300)
	for i := range long {
		long[i] = i
	}
	got := initialTokens([]int{fSOT}, nil, long, fSOTPrev, 448, 224)
	if len(got) != 1+223+1 || got[1] != 300-223 || got[0] != fSOTPrev {
		t.Errorf("prompt: %d tokens starting %v", len(got), got[:3])
	}
	// sample_len 224 leaves n_ctx/2 − 224 = 0 for the prefix: Python's
	// prefix[-0:] keeps all of it.
	got = initialTokens([]int{fSOT}, []int{1, 2, 3}, nil, fSOTPrev, 448, 224)
	if !slices.Equal(got, []int{fSOT, 1, 2, 3}) {
		t.Errorf("prefix with limit 0: %v", got)
	}
	got = initialTokens([]int{fSOT}, []int{1, 2, 3}, nil, fSOTPrev, 448, 222)
	if !slices.Equal(got, []int{fSOT, 2, 3}) {
		t.Errorf("prefix with limit 2: %v", got)
	}
	for _, tc := range []struct {
		n    int
		want []int
	}{{2, []int{3, 4}}, {0, []int{1, 2, 3, 4}}, {-1, []int{2, 3, 4}}, {9, []int{1, 2, 3, 4}}} {
		if got := pyTail([]int{1, 2, 3, 4}, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("pyTail(…, %d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestDecodeDetectsLanguage(t *testing.T) {
	net := newFakeNet(func(_ float32, tokens []int) []float32 {
		if slices.Equal(tokens, []int{fSOT}) {
			x := peaked(0)
			x[fEn], x[fDe] = 1, 2
			x[7] = 50 // not a language: ignored
			return x
		}
		return chainScript(0, tokens)
	})
	tok := fakeTokenizer{multilingual: true}
	probs, err := DetectLanguage(net, tok, &AudioFeatures{Data: []float32{0}})
	if err != nil {
		t.Fatal(err)
	}
	if want := math.E / (1 + math.E); probs.Best() != "de" || math.Abs(probs.Probs["de"]-want) > 1e-12 {
		t.Errorf("detected %q with p=%v, want de with %v", probs.Best(), probs.Probs["de"], want)
	}
	if top := probs.Top(2); !slices.Equal(top, []string{"de", "en"}) {
		t.Errorf("Top(2) = %v", top)
	}

	opts := DefaultDecodingOptions()
	opts.WithoutTimestamps = true
	res, err := Decode(net, tok, &AudioFeatures{Data: []float32{0}}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Language != "de" || res.LanguageProbs == nil {
		t.Errorf("language %q", res.Language)
	}
	if want := []int{fSOT, fDe, fTranscribe, fNoTimestamps}; !slices.Equal(net.prompts[len(net.prompts)-1], want) {
		t.Errorf("initial tokens %v, want %v", net.prompts[len(net.prompts)-1], want)
	}
	if _, err := DetectLanguage(net, fakeTokenizer{}, &AudioFeatures{Data: []float32{0}}); err == nil {
		t.Error("language detection on an English-only tokenizer: no error")
	}
}

func TestDecodingOptionsValidate(t *testing.T) {
	half := 0.5
	bad := 2.0
	for _, tc := range []struct {
		name string
		edit func(*DecodingOptions)
		ok   bool
	}{
		{"defaults", func(*DecodingOptions) {}, true},
		{"beam with patience and penalty", func(o *DecodingOptions) { o.BeamSize, o.Patience, o.LengthPenalty = 5, 2, &half }, true},
		{"best-of at temperature 0", func(o *DecodingOptions) { o.BestOf = 5 }, false},
		{"beam and best-of", func(o *DecodingOptions) { o.BeamSize, o.BestOf, o.Temperature = 5, 5, 0.5 }, false},
		{"patience without beam", func(o *DecodingOptions) { o.Patience = 1 }, false},
		{"length penalty above 1", func(o *DecodingOptions) { o.LengthPenalty = &bad }, false},
		{"unknown task", func(o *DecodingOptions) { o.Task = "summarize" }, false},
		{"negative temperature", func(o *DecodingOptions) { o.Temperature = -1 }, false},
	} {
		o := DefaultDecodingOptions()
		tc.edit(&o)
		if err := o.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v", tc.name, err)
		}
	}
}

func TestDecodeBestOfAndBeam(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*DecodingOptions)
	}{
		{"best of 3 at temperature 1", func(o *DecodingOptions) { o.Temperature, o.BestOf = 1, 3 }},
		{"beam 4, patience 1.5", func(o *DecodingOptions) { o.BeamSize, o.Patience = 4, 1.5 }},
	} {
		net := newFakeNet(chainScript)
		opts := DefaultDecodingOptions()
		opts.Language = "en"
		opts.WithoutTimestamps = true
		tc.edit(&opts)
		res, err := Decode(net, fakeTokenizer{}, &AudioFeatures{Data: []float32{0}}, opts, newRand(3))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The chain's tokens win by a logit margin of 10 over 1,530 others.
		if !slices.Equal(res.Tokens, []int{4, 5}) || res.AvgLogprob > 0 || res.AvgLogprob < -0.1 {
			t.Errorf("%s: tokens %v avg_logprob %v", tc.name, res.Tokens, res.AvgLogprob)
		}
	}
}
