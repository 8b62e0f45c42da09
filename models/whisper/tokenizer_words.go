package whisper

import (
	"slices"
	"strings"
	"unicode"
)

// NonSpeechTokens returns, sorted, the tokens that transcription
// suppresses so that the model writes no speaker tags or non-speech
// annotations ("♪♪♪", "( SPEAKING FOREIGN LANGUAGE )", "[DAVID] Hey"),
// exactly as tokenizer.py's non_speech_tokens: each symbol's token, alone
// or after a space, where it is a single token (for the musical signs
// ♩♪♫♬♭♮♯ the first token even when there are several), plus " -" and
// " '" at the start of a word. Basic punctuation stays allowed.
func (t *Tokenizer) NonSpeechTokens() []int {
	var symbols []string
	for _, r := range "\"#()*+/:;<=>@[\\]^_`{|}~「」『』" {
		symbols = append(symbols, string(r))
	}
	symbols = append(symbols, strings.Fields(`<< >> <<< >>> -- --- -( -[ (' (" (( )) ((( ))) [[ ]] {{ }} ♪♪ ♪♪♪`)...)
	const miscellaneous = "♩♪♫♬♭♮♯" // U+2640…U+267F: their first two UTF-8 bytes agree
	set := map[int]bool{t.Encode(" -")[0]: true, t.Encode(" '")[0]: true}
	add := func(symbol string, misc bool) {
		for _, s := range []string{symbol, " " + symbol} {
			if ids := t.Encode(s); len(ids) == 1 || misc {
				set[ids[0]] = true
			}
		}
	}
	for _, s := range symbols {
		add(s, false)
	}
	for _, r := range miscellaneous {
		add(string(r), true)
	}
	ids := make([]int, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// unicodeSplitLanguages write without spaces between words:
// SplitToWordTokens splits them wherever the text is whole characters.
var unicodeSplitLanguages = map[string]bool{"zh": true, "ja": true, "th": true, "lo": true, "my": true, "yue": true}

// pythonPunctuation is Python's string.punctuation.
const pythonPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// SplitToWordTokens groups tokens into words as tokenizer.py's
// split_to_word_tokens does for word-level timestamps: for Chinese,
// Japanese, Thai, Lao, Burmese and Cantonese (language "zh", "ja", "th",
// "lo", "my", "yue") at every point where the tokens so far decode to
// whole characters; otherwise into such pieces first, then joined into
// words that start at a space, a special token or a punctuation piece.
// words[i] is the text of wordTokens[i] (timestamps written out).
func (t *Tokenizer) SplitToWordTokens(tokens []int, language string) (words []string, wordTokens [][]int) {
	if unicodeSplitLanguages[language] {
		return t.splitOnUnicode(tokens)
	}
	return t.splitOnSpaces(tokens)
}

// splitOnUnicode is tokenizer.py's split_tokens_on_unicode: a piece ends
// after a token when the text so far has no U+FFFD, or when its first
// U+FFFD is one in the whole text too (a real replacement character, not
// a character still incomplete).
func (t *Tokenizer) splitOnUnicode(tokens []int) (words []string, wordTokens [][]int) {
	full := []rune(t.DecodeWithTimestamps(tokens))
	var current []int
	offset := 0 // in runes, as Python indexes strings
	for _, tok := range tokens {
		current = append(current, tok)
		decoded := []rune(t.DecodeWithTimestamps(current))
		at := slices.Index(decoded, unicode.ReplacementChar)
		if at < 0 || (offset+at < len(full) && full[offset+at] == unicode.ReplacementChar) {
			words = append(words, string(decoded))
			wordTokens = append(wordTokens, current)
			current = nil
			offset += len(decoded)
		}
	}
	return words, wordTokens
}

// splitOnSpaces is tokenizer.py's split_tokens_on_spaces.
func (t *Tokenizer) splitOnSpaces(tokens []int) (words []string, wordTokens [][]int) {
	subwords, subwordTokens := t.splitOnUnicode(tokens)
	for i, sub := range subwords {
		toks := subwordTokens[i]
		special := toks[0] >= t.EOT
		withSpace := strings.HasPrefix(sub, " ")
		// Python's `subword.strip() in string.punctuation` tests for a
		// substring: "" and "()" count as punctuation.
		punctuation := strings.Contains(pythonPunctuation, stripPython(sub))
		if special || withSpace || punctuation || len(words) == 0 {
			words = append(words, sub)
			wordTokens = append(wordTokens, toks)
			continue
		}
		words[len(words)-1] += sub
		wordTokens[len(wordTokens)-1] = append(wordTokens[len(wordTokens)-1], toks...)
	}
	return words, wordTokens
}

// stripPython trims whitespace as Python's str.strip(): Unicode
// White_Space plus the separators U+001C…U+001F that str.isspace counts.
func stripPython(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || (0x1c <= r && r <= 0x1f)
	})
}
