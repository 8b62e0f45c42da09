package caption

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The special tokens hold the first four ids of every vocabulary.
//
// Pad is id 0, the usual convention of caption vocabularies, so that a
// vocabulary list reads as other tools expect. Training batches do not use
// it: they mark padding with models.PadID (−1), which the embedding maps to
// zero and the losses skip. Search never emits Pad or Start.
const (
	Pad   = 0 // "<pad>"
	Start = 1 // "<start>": the decoder's input at the first step
	End   = 2 // "<end>": the last target of every caption
	Unk   = 3 // "<unk>": a word outside the vocabulary
)

// specials are the special tokens' strings, indexed by id.
var specials = [...]string{"<pad>", "<start>", "<end>", "<unk>"}

// Vocab maps words to token ids and back: the special tokens (ids 0–3),
// then the words.
type Vocab struct {
	words []string
	ids   map[string]int
}

// DefaultMinCount is the least number of times a word must occur in the
// training captions to enter a vocabulary (Karpathy's Flickr8k setting).
const DefaultMinCount = 5

// BuildVocab builds a vocabulary from tokenized training captions: every
// word that occurs at least minCount times (0 means DefaultMinCount), most
// frequent first, ties in byte order, after the special tokens. Words are
// taken as they are: tokenize (lower-case, strip punctuation, as the
// pipeline's captiondata.Tokenize does) before counting. Empty words, words
// with white space, and words that spell a special token are errors.
func BuildVocab(captions [][]string, minCount int) (*Vocab, error) {
	if minCount == 0 {
		minCount = DefaultMinCount
	}
	if minCount < 1 {
		return nil, fmt.Errorf("%w: minimum count %d, want ≥ 1", ErrVocab, minCount)
	}
	counts := map[string]int{}
	for i, words := range captions {
		for j, w := range words {
			if err := checkWord(w); err != nil {
				return nil, fmt.Errorf("%w: caption %d word %d: %w", ErrVocab, i, j, err)
			}
			counts[w]++
		}
	}
	var kept []string
	for w, n := range counts {
		if n >= minCount {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%w: no word occurs %d times in %d captions", ErrVocab, minCount, len(captions))
	}
	slices.SortFunc(kept, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return NewVocab(slices.Concat(specials[:], kept))
}

// NewVocab rebuilds a vocabulary from its list as stored in a checkpoint
// (List): the four special tokens in order, then at least one word, each
// word once.
func NewVocab(list []string) (*Vocab, error) {
	if len(list) <= len(specials) || !slices.Equal(list[:len(specials)], specials[:]) {
		return nil, fmt.Errorf("%w: the list must start with %q and hold at least one word; it starts %q", ErrVocab, specials, list[:min(len(list), len(specials))])
	}
	if len(list) > maxVocab {
		return nil, fmt.Errorf("%w: %d tokens, at most %d", ErrVocab, len(list), maxVocab)
	}
	v := &Vocab{words: slices.Clone(list), ids: make(map[string]int, len(list))}
	for id, w := range list {
		if id >= len(specials) {
			if err := checkWord(w); err != nil {
				return nil, fmt.Errorf("%w: token %d: %w", ErrVocab, id, err)
			}
		}
		if prev, dup := v.ids[w]; dup {
			return nil, fmt.Errorf("%w: %q is token %d and token %d", ErrVocab, w, prev, id)
		}
		v.ids[w] = id
	}
	return v, nil
}

// checkWord reports why w cannot be a vocabulary word.
func checkWord(w string) error {
	switch {
	case w == "":
		return fmt.Errorf("empty word")
	case !utf8.ValidString(w):
		return fmt.Errorf("word %q is not valid UTF-8", w)
	case strings.ContainsFunc(w, unicode.IsSpace):
		return fmt.Errorf("word %q contains white space", w)
	case slices.Contains(specials[:], w):
		return fmt.Errorf("word %q spells a special token", w)
	}
	return nil
}

// Size returns V, the number of tokens, the special tokens included.
func (v *Vocab) Size() int { return len(v.words) }

// List returns the vocabulary as stored in a checkpoint: token i is
// List()[i]. The slice is shared: do not modify it.
func (v *Vocab) List() []string { return v.words }

// ID returns the id of word, or Unk when it is not in the vocabulary.
func (v *Vocab) ID(word string) int {
	if id, ok := v.ids[word]; ok && id >= len(specials) {
		return id
	}
	return Unk
}

// Encode maps the words of a tokenized caption to ids, Unk for words
// outside the vocabulary. The result holds neither Start nor End.
func (v *Vocab) Encode(words []string) []int {
	ids := make([]int, len(words))
	for i, w := range words {
		ids[i] = v.ID(w)
	}
	return ids
}

// Words maps ids back to words, stopping at the first End and skipping Pad
// and Start; Unk reads "<unk>". An id outside the vocabulary reads "<?>".
func (v *Vocab) Words(ids []int) []string {
	words := make([]string, 0, len(ids))
	for _, id := range ids {
		switch {
		case id == End:
			return words
		case id == Pad || id == Start:
		case id < 0 || id >= len(v.words):
			words = append(words, "<?>")
		default:
			words = append(words, v.words[id])
		}
	}
	return words
}

// Decode returns the caption of ids as text: Words joined by spaces.
func (v *Vocab) Decode(ids []int) string { return strings.Join(v.Words(ids), " ") }
