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
