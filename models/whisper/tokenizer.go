package whisper

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Tokenizer is Whisper's byte-level BPE tokenizer with openai/whisper's
// special tokens (whisper/tokenizer.py over tiktoken). Ids below EOT are
// the base vocabulary's tokens (rank = id); EOT and above are special:
//
//	EOT, SOT, SOT+1 … SOT+len(Languages) (one per language, in
//	LANGUAGES order), Translate, Transcribe, SOTLM, SOTPrev, NoSpeech,
//	NoTimestamps, then TimestampBegin … TimestampBegin+1500 (0.00 … 30.00 s)
//
// English-only models (GPT-2's 50,256 tokens): EOT 50256, SOT 50257,
// NoTimestamps 50362, TimestampBegin 50363. Multilingual (50,257 tokens,
// 99 languages): 50257, 50258, 50363, 50364; large-v3 adds a 100th
// language and shifts every id after the languages by one.
//
// A Tokenizer is immutable and safe for concurrent use.
type Tokenizer struct {
	EOT, SOT, Translate, Transcribe, SOTLM, SOTPrev, NoSpeech, NoTimestamps, TimestampBegin int

	// Languages are the language codes in token order: language token
	// SOT+1+i is Languages[i].
	Languages []string

	multilingual bool
	vocab        *bpeVocab // the base vocabulary, ids 0 … EOT−1
	specials     [][]byte  // the special tokens' texts, ids EOT …
}

// NewTokenizer returns the tokenizer of a model with dimensions d, on the
// vocabulary openai/whisper bundles (embedded in this package): GPT-2's
// for English-only models, the multilingual one otherwise. Use it for
// models whose file carries no vocabulary (Hugging Face safetensors).
func NewTokenizer(d Dims) (*Tokenizer, error) {
	name := "gpt2"
	if d.Multilingual() {
		name = "multilingual"
	}
	v, err := embeddedVocabs[name]()
	if err != nil {
		return nil, err
	}
	return newTokenizer(d, v)
}

// NewTokenizerFromVocab returns the tokenizer of a model with dimensions d
// on a vocabulary given as each token's bytes in id order (rank = id), as
// a whisper.cpp ggml file stores it. The list must hold the whole base
// vocabulary (50,256 tokens English-only, 50,257 multilingual); entries
// past it (whisper.cpp's converter of English-only models stored
// "<|endoftext|>" as a 50,257th) stand for special tokens and are
// ignored, the specials being numbered as openai/whisper numbers them.
//
// whisper.cpp's older converter (that of its published models) wrote
// each token as bytes.decode("utf-8", errors="replace"), so the 344
// (English) or 1,476 (multilingual) tokens that are not whole UTF-8
// characters read as U+FFFD. A vocabulary that is openai/whisper's but
// for such replacements is taken to be openai/whisper's (the bundled one,
// with the true bytes), so that text decodes as openai/whisper decodes
// it. Any other vocabulary is used as given (bytes copied); it must then
// have no repeated token and a token for every single byte.
func NewTokenizerFromVocab(d Dims, tokens [][]byte) (*Tokenizer, error) {
	name, base := "gpt2", gpt2BaseVocab
	if d.Multilingual() {
		name, base = "multilingual", multilingualBaseVocab
	}
	if len(tokens) < base || len(tokens) > d.NVocab {
		return nil, fmt.Errorf("whisper: vocabulary of %d tokens, want %d base tokens (up to n_vocab %d with specials)", len(tokens), base, d.NVocab)
	}
	tokens = tokens[:base]
	bundled, err := embeddedVocabs[name]()
	if err != nil {
		return nil, err
	}
	if sameVocab(tokens, bundled.tokens) {
		return newTokenizer(d, bundled)
	}
	v, err := newBPEVocab(tokens)
	if err != nil {
		return nil, fmt.Errorf("whisper: vocabulary (not openai/whisper's): %w", err)
	}
	return newTokenizer(d, v)
}

// sameVocab reports whether tokens are want's, allowing for tokens that
// a lossy UTF-8 round trip has replaced by their U+FFFD rendering.
func sameVocab(tokens, want [][]byte) bool {
	if len(tokens) != len(want) {
		return false
	}
	for i, t := range tokens {
		if bytes.Equal(t, want[i]) {
			continue
		}
		if utf8.Valid(want[i]) || string(t) != decodeUTF8Replace(want[i]) {
			return false
		}
	}
	return true
}

// newTokenizer numbers the special tokens after v for dimensions d.
func newTokenizer(d Dims, v *bpeVocab) (*Tokenizer, error) {
	nl := d.NumLanguages()
	if nl < 0 || nl > len(languages) {
		return nil, fmt.Errorf("whisper: n_vocab %d gives %d languages, want 0 … %d", d.NVocab, nl, len(languages))
	}
	base := len(v.tokens)
	if base+numSpecials(nl) != d.NVocab {
		return nil, fmt.Errorf("whisper: %d base tokens + %d special tokens ≠ n_vocab %d", base, numSpecials(nl), d.NVocab)
	}
	t := &Tokenizer{multilingual: d.Multilingual(), vocab: v}
	t.EOT = base
	t.SOT = base + 1
	t.Translate = t.SOT + 1 + nl
	t.Transcribe = t.Translate + 1
	t.SOTLM = t.Translate + 2
	t.SOTPrev = t.Translate + 3
	t.NoSpeech = t.Translate + 4
	t.NoTimestamps = t.Translate + 5
	t.TimestampBegin = t.Translate + 6
	t.Languages = make([]string, nl)
	for i := range t.Languages {
		t.Languages[i] = languages[i].code
	}
	for _, name := range specialNames(nl) {
		t.specials = append(t.specials, []byte(name))
	}
	return t, nil
}

// Len returns the number of token ids, n_vocab.
func (t *Tokenizer) Len() int { return t.EOT + len(t.specials) }

// Multilingual reports whether this is a multilingual model's tokenizer.
func (t *Tokenizer) Multilingual() bool { return t.multilingual }

// TokenBytes returns token id's bytes (a special token's text, such as
// "<|en|>" or "<|1.08|>"), or nil for an id outside the vocabulary. The
// slice is shared: do not modify it.
func (t *Tokenizer) TokenBytes(id int) []byte {
	switch {
	case id < 0 || id >= t.Len():
		return nil
	case id < t.EOT:
		return t.vocab.tokens[id]
	}
	return t.specials[id-t.EOT]
}

// LanguageToken returns the token of a language code ("en"), if this
// model has one.
func (t *Tokenizer) LanguageToken(code string) (int, bool) {
	for i, c := range t.Languages {
		if c == code {
			return t.SOT + 1 + i, true
		}
	}
	return 0, false
}

// LanguageCode returns the code of a language token.
func (t *Tokenizer) LanguageCode(token int) (string, bool) {
	i := token - t.SOT - 1
	if i < 0 || i >= len(t.Languages) {
		return "", false
	}
	return t.Languages[i], true
}

// LanguageTokens returns every language token in order (tokenizer.py's
// all_language_tokens).
func (t *Tokenizer) LanguageTokens() []int {
	ids := make([]int, len(t.Languages))
	for i := range ids {
		ids[i] = t.SOT + 1 + i
	}
	return ids
}
