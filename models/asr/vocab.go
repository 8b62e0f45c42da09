package asr

import (
	"fmt"
	"strings"
)

// The model spells lower-case English: 26 letters, the apostrophe and the
// space, after the end-of-sentence token. Token 0, EOS, is also the
// speller's start token and the CTC branch's blank (it never occurs inside
// a target), so one output layer width V = 29 serves both heads.
const (
	EOS      = 0
	Alphabet = "abcdefghijklmnopqrstuvwxyz' "
)

// Vocab maps characters to token ids and back. Entry 0 is "<eos>".
type Vocab struct {
	chars []string
	ids   map[rune]int
}

// DefaultVocab returns the vocabulary of Alphabet.
func DefaultVocab() *Vocab {
	list := []string{"<eos>"}
	for _, r := range Alphabet {
		list = append(list, string(r))
	}
	v, err := NewVocab(list)
	if err != nil {
		panic(err)
	}
	return v
}

// NewVocab builds a vocabulary from its list as stored in a checkpoint:
// "<eos>" first, then single characters, no duplicates.
func NewVocab(list []string) (*Vocab, error) {
	if len(list) < 2 || list[0] != "<eos>" {
		return nil, fmt.Errorf("%w: vocabulary %q must start with <eos> and hold at least one character", ErrConfig, list)
	}
	v := &Vocab{chars: list, ids: map[rune]int{}}
	for i, s := range list[1:] {
		r := []rune(s)
		if len(r) != 1 {
			return nil, fmt.Errorf("%w: vocabulary entry %d is %q, want one character", ErrConfig, i+1, s)
		}
		if _, dup := v.ids[r[0]]; dup {
			return nil, fmt.Errorf("%w: vocabulary has %q twice", ErrConfig, s)
		}
		v.ids[r[0]] = i + 1
	}
	return v, nil
}

// Size returns V, the number of tokens including EOS.
func (v *Vocab) Size() int { return len(v.chars) }

// List returns the vocabulary as stored in a checkpoint.
func (v *Vocab) List() []string { return v.chars }

// ID returns the token id of character r, or false when r is not in the
// vocabulary.
func (v *Vocab) ID(r rune) (int, bool) {
	id, ok := v.ids[r]
	return id, ok
}

// Encode maps normalized text to token ids (without EOS). A character
// outside the vocabulary is an error naming it: normalize text first.
func (v *Vocab) Encode(text string) ([]int, error) {
	ids := make([]int, 0, len(text))
	for i, r := range text {
		id, ok := v.ids[r]
		if !ok {
			return nil, fmt.Errorf("asr: character %q at byte %d of %q is not in the model's vocabulary", r, i, text)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Decode maps token ids back to text, stopping at EOS.
func (v *Vocab) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if id == EOS {
			break
		}
		if id > 0 && id < len(v.chars) {
			b.WriteString(v.chars[id])
		}
	}
	return b.String()
}
