package whisper

import (
	"slices"
	"strings"
	"testing"
)

// TestSplitTokensOnUnicode is openai/whisper's test_split_on_unicode
// (tests/test_tokenizer.py): a lone continuation byte stays a word of
// its own, a U+FFFD.
func TestSplitTokensOnUnicode(t *testing.T) {
	tok := newTestTokenizer(t, multilingualDims)
	tokens := []int{8404, 871, 287, 6, 246, 526, 3210, 20378}
	words, wordTokens := tok.SplitToWordTokens(tokens, "ja")
	wantWords := []string{" elle", " est", " l", "'", "\ufffd", "é", "rit", "oire"}
	if !slices.Equal(words, wantWords) {
		t.Errorf("words %q, want %q", words, wantWords)
	}
	for i, wt := range wordTokens {
		if len(wt) != 1 || wt[0] != tokens[i] {
			t.Errorf("word tokens %v, want one token each", wordTokens)
			break
		}
	}
}

func TestSplitToWordTokens(t *testing.T) {
	tok := newTestTokenizer(t, multilingualDims)
	for _, tc := range []struct {
		name, text, language string
		want                 []string
	}{
		{"spaces", " Hello, world. It's fine!", "en", []string{" Hello", ",", " world", ".", " It's", " fine", "!"}},
		{"no leading space", "Ask not (what)", "en", []string{"Ask", " not", " (what", ")"}},
		{"chinese by character", "你好世界", "zh", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tokens := append(tok.Encode(tc.text), tok.EOT)
			words, wordTokens := tok.SplitToWordTokens(tokens, tc.language)
			if last := words[len(words)-1]; last != "<|endoftext|>" {
				t.Errorf("last word %q, want <|endoftext|> on its own", last)
			}
			words = words[:len(words)-1]
			if tc.want != nil && !slices.Equal(words, tc.want) {
				t.Errorf("words %q, want %q", words, tc.want)
			}
			if strings.Join(words, "") != tc.text || !slices.Equal(slices.Concat(wordTokens...), tokens) {
				t.Errorf("words %q and tokens %v do not cover %q", words, wordTokens, tc.text)
			}
			if tc.language == "zh" {
				for _, w := range words {
					if strings.ContainsRune(w, '\ufffd') || len([]rune(w)) > 2 {
						t.Errorf("word %q is not whole characters", w)
					}
				}
			}
		})
	}
}

// TestNonSpeechTokensPublished compares NonSpeechTokens with the lists
// Hugging Face's Whisper checkpoints publish (generation_config.json's
// suppress_tokens of openai/whisper-tiny.en and openai/whisper-tiny, the
// special tokens they add left out), which openai/whisper's
// non_speech_tokens produced.
func TestNonSpeechTokensPublished(t *testing.T) {
	for _, tc := range []struct {
		d    Dims
		want []int
	}{
		{englishDims, []int{1, 2, 7, 8, 9, 10, 14, 25, 26, 27, 28, 29, 31, 58, 59, 60, 61, 62, 63, 90, 91, 92, 93,
			357, 366, 438, 532, 685, 705, 796, 930, 1058, 1220, 1267, 1279, 1303, 1343, 1377, 1391, 1635, 1782,
			1875, 2162, 2361, 2488, 3467, 4008, 4211, 4600, 4808, 5299, 5855, 6329, 7203, 9609, 9959, 10563,
			10786, 11420, 11709, 11907, 13163, 13697, 13700, 14808, 15306, 16410, 16791, 17992, 19203, 19510,
			20724, 22305, 22935, 27007, 30109, 30420, 33409, 34949, 40283, 40493, 40549, 47282, 49146}},
		{multilingualDims, []int{1, 2, 7, 8, 9, 10, 14, 25, 26, 27, 28, 29, 31, 58, 59, 60, 61, 62, 63, 90, 91, 92, 93,
			359, 503, 522, 542, 873, 893, 902, 918, 922, 931, 1350, 1853, 1982, 2460, 2627, 3246, 3253, 3268,
			3536, 3846, 3961, 4183, 4667, 6585, 6647, 7273, 9061, 9383, 10428, 10929, 11938, 12033, 12331, 12562,
			13793, 14157, 14635, 15265, 15618, 16553, 16604, 18362, 18956, 20075, 21675, 22520, 26130, 26161,
			26435, 28279, 29464, 31650, 32302, 32470, 36865, 42863, 47425, 49870, 50254}},
		{largeV3Dims, nil}, // the same vocabulary below EOT: same as multilingual
	} {
		tok := newTestTokenizer(t, tc.d)
		want := tc.want
		if want == nil {
			want = newTestTokenizer(t, multilingualDims).NonSpeechTokens()
		}
		if got := tok.NonSpeechTokens(); !slices.Equal(got, want) {
			t.Errorf("n_vocab %d: NonSpeechTokens = %v\nwant %v", tc.d.NVocab, got, want)
		}
	}
}

// TestNonSpeechTokens checks tokenizer.py's non_speech_tokens by its
// definition: sorted, unique, text tokens that spell a suppressed symbol
// (alone or after a space) or start a musical sign, including " -" and
// " '", never plain punctuation.
func TestNonSpeechTokens(t *testing.T) {
	for _, d := range []Dims{englishDims, multilingualDims} {
		tok := newTestTokenizer(t, d)
		ids := tok.NonSpeechTokens()
		if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
			t.Fatalf("not sorted and unique: %v", ids)
		}
		allowed := map[string]bool{}
		for _, r := range "\"#()*+/:;<=>@[\\]^_`{|}~「」『』" {
			allowed[string(r)] = true
		}
		for _, s := range strings.Fields(`<< >> <<< >>> -- --- -( -[ (' (" (( )) ((( ))) [[ ]] {{ }} ♪♪ ♪♪♪`) {
			allowed[s] = true
		}
		for _, id := range ids {
			text := string(tok.TokenBytes(id))
			switch {
			case allowed[strings.TrimPrefix(text, " ")], text == " -", text == " '":
			case strings.HasPrefix(text, "\xe2\x99") || strings.HasPrefix(text, " \xe2"): // first bytes of ♩♪♫♬♭♮♯
			default:
				t.Errorf("n_vocab %d: token %d %q is not a non-speech symbol", d.NVocab, id, text)
			}
		}
		for _, p := range []string{",", ".", "?", "!", " ,", "'", "-"} {
			if ids := tok.Encode(p); len(ids) == 1 && slices.Contains(tok.NonSpeechTokens(), ids[0]) {
				t.Errorf("punctuation %q is suppressed", p)
			}
		}
		for _, must := range []string{" -", " '", "(", " [", "♪♪♪"} {
			if id := tok.Encode(must)[0]; !slices.Contains(ids, id) {
				t.Errorf("n_vocab %d: %q (token %d) is not suppressed", d.NVocab, must, id)
			}
		}
		t.Logf("n_vocab %d: %d non-speech tokens", d.NVocab, len(ids))
	}
}
