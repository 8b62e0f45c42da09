package speechtrain

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// ErrNoPronunciations is Train's error when a model with a phone CTC head
// has no pronouncing dictionary to make its targets from.
var ErrNoPronunciations = errors.New("the phone CTC head needs a pronouncing dictionary (apt-get install pocketsphinx-en-us for " + speechdata.DefaultPronunciations + ", or name a CMU-format one)")

// readPronunciations reads the dictionary at path, or at
// speechdata.DefaultPronunciations when path is empty.
func readPronunciations(path string) (*speechdata.Pronunciations, string, error) {
	if path == "" {
		path = speechdata.DefaultPronunciations
	}
	if _, err := os.Stat(path); err != nil {
		return nil, path, fmt.Errorf("speechtrain: %w: %v", ErrNoPronunciations, err)
	}
	p, err := speechdata.ReadPronunciations(path)
	return p, path, err
}

// phoneCoverage counts the utterances given phone targets and those
// without (a word not in the dictionary), with a few of the missing
// words for the log.
type phoneCoverage struct {
	with, without int
	missing       []string // up to 5 distinct words
}

// setPhones gives each utterance the phone ids of its transcript's first
// pronunciations (Example.Phones), or none when a word is not in dict.
// A phone outside asr.Phones is an error naming the word.
func setPhones(utts []*utterance, dict *speechdata.Pronunciations, dictPath string) (phoneCoverage, error) {
	var cov phoneCoverage
	type entry struct {
		ids     []int
		missing string
	}
	cache := map[string]entry{} // copies share their original's transcript
	for _, u := range utts {
		e, ok := cache[u.Norm]
		if !ok {
			phones, missing := dict.Transcript(u.Norm)
			e.missing = missing
			for _, ph := range phones {
				id, ok := asr.PhoneID(ph)
				if !ok {
					return cov, fmt.Errorf("speechtrain: %s: phone %q (in %q) is not one of the 39 ARPAbet phones of the phone CTC head", dictPath, ph, u.Norm)
				}
				e.ids = append(e.ids, id)
			}
			cache[u.Norm] = e
		}
		u.Example.Phones = e.ids
		if e.ids == nil {
			cov.without++
			if e.missing != "" && len(cov.missing) < 5 && !slices.Contains(cov.missing, e.missing) {
				cov.missing = append(cov.missing, e.missing)
			}
		} else {
			cov.with++
		}
	}
	return cov, nil
}
