package speechdata

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// corpus makes n utterances per speaker for the given speakers.
func corpus(speakers []string, n int) []Utterance {
	var utts []Utterance
	for _, s := range speakers {
		for i := range n {
			id := fmt.Sprintf("%s-%d", s, i)
			utts = append(utts, Utterance{ID: id, Path: id + ".wav", Text: "x", Speaker: s})
		}
	}
	return utts
}

func speakersOf(utts []Utterance) []string {
	var s []string
	for _, u := range utts {
		if !slices.Contains(s, u.Speaker) {
			s = append(s, u.Speaker)
		}
	}
	slices.Sort(s)
	return s
}

func TestSplitBySpeaker(t *testing.T) {
	speakers := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	utts := corpus(speakers, 3)
	for _, dev := range []int{0, 1, 3, 7} {
		t.Run(fmt.Sprint("dev ", dev), func(t *testing.T) {
			train, devSet, err := SplitBySpeaker(utts, dev, 42)
			if err != nil {
				t.Fatal(err)
			}
			if len(train)+len(devSet) != len(utts) {
				t.Fatalf("%d + %d utterances, want %d", len(train), len(devSet), len(utts))
			}
			ts, ds := speakersOf(train), speakersOf(devSet)
			if len(ds) != dev || len(ts) != len(speakers)-dev {
				t.Fatalf("dev speakers %v, train speakers %v; want %d held out", ds, ts, dev)
			}
			for _, s := range ds {
				if slices.Contains(ts, s) {
					t.Fatalf("speaker %q on both sides", s)
				}
			}
			for _, part := range [][]Utterance{train, devSet} { // input order kept
				if !slices.IsSortedFunc(part, func(a, b Utterance) int {
					return slices.Index(utts, a) - slices.Index(utts, b)
				}) {
					t.Fatalf("utterances out of input order")
				}
			}
		})
	}
}

// TestSplitBySpeakerDeterministic checks that the held-out speakers
// depend on the seed and the set of speakers only.
func TestSplitBySpeakerDeterministic(t *testing.T) {
	utts := corpus([]string{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"}, 4)
	_, dev, err := SplitBySpeaker(utts, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := speakersOf(dev)

	shuffled := slices.Clone(utts)
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	fewer := slices.DeleteFunc(slices.Clone(shuffled), func(u Utterance) bool { return u.ID[len(u.ID)-1] == '0' })
	for name, in := range map[string][]Utterance{"same": utts, "shuffled": shuffled, "fewer utterances": fewer} {
		_, dev, err := SplitBySpeaker(in, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		if got := speakersOf(dev); !slices.Equal(got, want) {
			t.Errorf("%s input: dev speakers %v, want %v", name, got, want)
		}
	}

	differ := false
	for seed := uint64(8); seed < 20 && !differ; seed++ {
		_, dev, _ := SplitBySpeaker(utts, 3, seed)
		differ = !slices.Equal(speakersOf(dev), want)
	}
	if !differ {
		t.Error("seeds 7 to 19 all hold out the same speakers")
	}
}

func TestSplitBySpeakerErrors(t *testing.T) {
	three := corpus([]string{"a", "b", "c"}, 2)
	noSpeaker := append(slices.Clone(three), Utterance{ID: "x", Path: "x.wav"})
	tests := []struct {
		name     string
		utts     []Utterance
		dev      int
		sentinel error
	}{
		{"as many speakers as dev", three, 3, ErrFewSpeakers},
		{"no utterances", nil, 0, ErrFewSpeakers},
		{"utterance without speaker", noSpeaker, 1, ErrNoSpeaker},
		{"negative dev", three, -1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := SplitBySpeaker(tt.utts, tt.dev, 1)
			if err == nil || tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v, want %v", err, tt.sentinel)
			}
		})
	}
}
