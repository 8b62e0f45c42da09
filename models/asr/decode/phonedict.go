package decode

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/attend-go/attend/models/asr"
)

// PhoneDict maps words to the phone ids (1…len(Phones)) of their
// pronunciations, for phone CTC rescoring (Options.PhoneWeight).
// It is read-only once made and safe for concurrent use.
type PhoneDict struct {
	entries []string // "word PH PH …", sorted by word (byte order), a word's pronunciations in file order
}

// ParsePhoneDict reads a pronouncing dictionary of one pronunciation per
// line, "word PH PH …", with ARPAbet phones from Phones (no stress
// digits); a word's alternates are lines of the same word, the first
// being the one the phone head was trained on. Blank lines are skipped;
// a line without phones or with an unknown phone is an error naming name
// and the line.
func ParsePhoneDict(name string, r io.Reader) (*PhoneDict, error) {
	d := &PhoneDict{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) == 1 {
			return nil, fmt.Errorf("decode: %s:%d: word %q without phones", name, line, fields[0])
		}
		for _, ph := range fields[1:] {
			if _, ok := asr.PhoneID(ph); !ok {
				return nil, fmt.Errorf("decode: %s:%d: %q is not one of the %d ARPAbet phones (without stress)", name, line, ph, len(asr.Phones))
			}
		}
		d.entries = append(d.entries, strings.Join(fields, " "))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("decode: %s: %w", name, err)
	}
	slices.SortStableFunc(d.entries, func(a, b string) int { return strings.Compare(entryWord(a), entryWord(b)) })
	kept, first := d.entries[:0], 0 // drop a pronunciation listed twice
	for _, e := range d.entries {
		if len(kept) == 0 || entryWord(kept[len(kept)-1]) != entryWord(e) {
			first = len(kept)
		}
		if !slices.Contains(kept[first:], e) {
			kept = append(kept, e)
		}
	}
	d.entries = kept
	return d, nil
}

func entryWord(e string) string {
	w, _, _ := strings.Cut(e, " ")
	return w
}

// Len returns the number of pronunciations.
func (d *PhoneDict) Len() int { return len(d.entries) }

// Pronunciations returns the phone ids of word's pronunciations, the
// first first; none when d lacks the word.
func (d *PhoneDict) Pronunciations(word string) [][]int {
	i, _ := slices.BinarySearchFunc(d.entries, word, func(e, w string) int { return strings.Compare(entryWord(e), w) })
	var prons [][]int
	for ; i < len(d.entries) && entryWord(d.entries[i]) == word; i++ {
		var ids []int
		for _, ph := range strings.Fields(d.entries[i])[1:] {
			id, _ := asr.PhoneID(ph)
			ids = append(ids, id)
		}
		prons = append(prons, ids)
	}
	return prons
}

// defaultPhoneDict is the CMU pronouncing dictionary as Debian's
// pocketsphinx-en-us ships it (cmudict-en-us.dict, BSD-style licence):
// the words of letters and apostrophes with all their pronunciations,
// alternates "word(2)" renamed "word", stress digits stripped, sorted by
// word (stably: the unnumbered pronunciation stays first); 124,804 words,
// 133,525 pronunciations. Made by
//
//	sed -E 's/^([^ (]+)\([0-9]+\)/\1/; s/[0-9]//g' cmudict-en-us.dict |
//		grep "^[a-z']* " | LC_ALL=C sort -s -k1,1 | gzip -9n > default-phones.dict.gz
//
//go:embed default-phones.dict.gz
var defaultPhoneDict []byte

var parsedPhoneDict = sync.OnceValues(func() (*PhoneDict, error) {
	z, err := gzip.NewReader(bytes.NewReader(defaultPhoneDict))
	if err != nil {
		return nil, fmt.Errorf("decode: embedded phone dictionary: %w", err)
	}
	return ParsePhoneDict("embedded phone dictionary", z)
})

// DefaultPhoneDict returns the embedded pronouncing dictionary, parsed
// once and shared.
func DefaultPhoneDict() (*PhoneDict, error) { return parsedPhoneDict() }
