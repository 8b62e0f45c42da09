package whisper

import (
	"math"
	"path/filepath"
	"slices"
	"testing"
)

// TestGeneratedMultilingualTokens runs the tokenizer path on generated
// multilingual models, which the bundle has in one layout only: the
// multilingual layout (51,865 tokens, 99 languages) and large-v3's
// (51,866 tokens, 100 languages, 128 mel bins), each from a ggml f16 file
// (its stored vocabulary) and a Hugging Face file (the bundled one). The
// start-of-transcript sequences must have openai/whisper's ids (its
// tokenizer.py numbering: <|startoftranscript|> 50258, languages from
// 50259 in its LANGUAGES order, then translate, transcribe, startoflm,
// startofprev, nospeech, notimestamps, so large-v3's 100th language
// shifts the task tokens by one); DetectLanguage must be the softmax of
// the network's logits after <|startoftranscript|> over the language
// tokens, the same from both files; decoding with the language left to
// detection must decode in the detected language.
func TestGeneratedMultilingualTokens(t *testing.T) {
	multi := bundleShape
	multi.NVocab = 51865
	v3 := multi
	v3.NVocab, v3.NMels = 51866, 128
	for _, tc := range []struct {
		name                      string
		dims                      Dims
		languages                 int
		enTranscribe, deTranslate []int
		lastLanguage              string
		lastLanguageID            int
		noTimestamps              int
	}{
		{"multilingual", multi, 99, []int{50258, 50259, 50359}, []int{50258, 50261, 50358}, "su", 50357, 50363},
		{"large-v3", v3, 100, []int{50258, 50259, 50360}, []int{50258, 50261, 50359}, "yue", 50358, 50364},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := generateModel(tc.dims, 6174)
			fs := g.writeAll(t, nil)
			mel := randomMel(tc.dims, 6174)
			var first LanguageProbs
			for i, path := range []string{fs.ggmlF16, fs.hf} {
				m, err := Load(path)
				if err != nil {
					t.Fatal(err)
				}
				tok, err := NewTokenizer(tc.dims)
				if i == 0 {
					tok, err = NewTokenizerFromVocab(tc.dims, m.StoredVocab())
				}
				if err != nil {
					t.Fatal(err)
				}
				if tok.Len() != tc.dims.NVocab || !tok.Multilingual() {
					t.Fatalf("%s: tokenizer of %d tokens (multilingual %v), model %d", path, tok.Len(), tok.Multilingual(), tc.dims.NVocab)
				}
				for _, c := range []struct {
					language, task string
					want           []int
				}{{"en", "transcribe", tc.enTranscribe}, {"de", "translate", tc.deTranslate},
					{tc.lastLanguage, "transcribe", []int{50258, tc.lastLanguageID, tc.enTranscribe[2]}}} {
					got, err := tok.SOTSequence(c.language, c.task)
					if err != nil || !slices.Equal(got, c.want) {
						t.Errorf("SOTSequence(%q, %q) = %v, %v; want %v", c.language, c.task, got, err, c.want)
					}
				}
				nt, err := tok.SOTSequenceIncludingNoTimestamps("en", "transcribe")
				if err != nil || nt[len(nt)-1] != tc.noTimestamps {
					t.Errorf("SOTSequenceIncludingNoTimestamps = %v, %v; want it to end with %d", nt, err, tc.noTimestamps)
				}

				audio, err := m.Encode(mel)
				if err != nil {
					t.Fatal(err)
				}
				text := TokenizerText(tok)
				probs, err := DetectLanguage(m, text, audio)
				if err != nil {
					t.Fatal(err)
				}
				if len(probs.Codes) != tc.languages {
					t.Fatalf("%d languages, want %d", len(probs.Codes), tc.languages)
				}
				checkLanguageSoftmax(t, m, tok, audio, probs)
				if i == 0 {
					first = probs
				} else {
					for _, c := range probs.Codes {
						if probs.Probs[c] != first.Probs[c] {
							t.Errorf("language %s: %v from the Hugging Face file, %v from the ggml file", c, probs.Probs[c], first.Probs[c])
						}
					}
				}

				opts := DefaultDecodingOptions()
				opts.Language, opts.SampleLen, opts.WithoutTimestamps = "", 3, true
				res, err := Decode(m, text, audio, opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Language != probs.Best() {
					t.Errorf("decoded in %q, detected %q", res.Language, probs.Best())
				}
				t.Logf("%s: detected %s (p %.3f), top 3 %v; decoded %v", filepath.Base(path), probs.Best(),
					probs.Probs[probs.Best()], probs.Top(3), res.Tokens)
			}
		})
	}
}

// checkLanguageSoftmax checks probs against the softmax, computed here, of
// the logits after <|startoftranscript|> over the tokenizer's language
// tokens <|en|>, <|zh|>, … (LanguageToken of each code).
func checkLanguageSoftmax(t *testing.T, m *Model, tok *Tokenizer, audio *AudioFeatures, probs LanguageProbs) {
	t.Helper()
	rows, err := m.NewDecoder(audio, nil).Forward([]int{50258})
	if err != nil {
		t.Fatal(err)
	}
	logits := rows[0]
	var z float64
	for _, c := range probs.Codes {
		id, ok := tok.LanguageToken(c)
		if !ok {
			t.Fatalf("no token for language %q", c)
		}
		z += math.Exp(float64(logits[id]))
	}
	var total float64
	for _, c := range probs.Codes {
		id, _ := tok.LanguageToken(c)
		want := math.Exp(float64(logits[id])) / z
		if math.Abs(probs.Probs[c]-want) > 1e-9 {
			t.Errorf("p(%s) = %v, softmax of the logits %v", c, probs.Probs[c], want)
		}
		total += probs.Probs[c]
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("language probabilities sum to %v", total)
	}
}
