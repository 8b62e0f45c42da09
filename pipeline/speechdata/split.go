package speechdata

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
)

var (
	// ErrNoSpeaker marks an utterance without a speaker where one is
	// needed.
	ErrNoSpeaker = errors.New("utterance has no speaker")
	// ErrFewSpeakers marks a split that would leave no speaker to train
	// on.
	ErrFewSpeakers = errors.New("too few speakers")
)

// splitStream is the second PCG word of SplitBySpeaker's generator, so
// that its draws differ from other uses of the same seed.
const splitStream = 0x73706c6974 // "split"

// SplitBySpeaker holds out dev whole speakers: devSet holds every
// utterance of the chosen speakers and train every other one, each in
// input order, so that no speaker is on both sides.
//
// The choice depends only on the set of speakers and the seed, not on the
// order or number of their utterances: the distinct speakers are sorted,
// shuffled by a PCG generator seeded with (seed, "split") and the first
// dev taken. It is an error (ErrNoSpeaker) when an utterance has no
// speaker, and (ErrFewSpeakers) when there are not at least dev+1
// speakers. dev = 0 returns every utterance in train.
func SplitBySpeaker(utts []Utterance, dev int, seed uint64) (train, devSet []Utterance, err error) {
	if dev < 0 {
		return nil, nil, fmt.Errorf("speechdata: cannot hold out %d speakers", dev)
	}
	speakers := map[string]bool{}
	for i, u := range utts {
		if u.Speaker == "" {
			return nil, nil, fmt.Errorf("speechdata: utterance %d (id %q): %w", i, u.ID, ErrNoSpeaker)
		}
		speakers[u.Speaker] = true
	}
	if len(speakers) < dev+1 {
		return nil, nil, fmt.Errorf("speechdata: %w: %d, need at least %d to hold out %d and train on the rest",
			ErrFewSpeakers, len(speakers), dev+1, dev)
	}
	order := slices.Sorted(maps.Keys(speakers))
	r := rand.New(rand.NewPCG(seed, splitStream))
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	held := map[string]bool{}
	for _, s := range order[:dev] {
		held[s] = true
	}
	for _, u := range utts {
		if held[u.Speaker] {
			devSet = append(devSet, u)
		} else {
			train = append(train, u)
		}
	}
	return train, devSet, nil
}
