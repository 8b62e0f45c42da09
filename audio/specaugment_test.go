package audio

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// ones returns frames×bins features of all 1s.
func ones(frames, bins int) *Features {
	f := &Features{Frames: frames, Bins: bins, Data: make([]float32, frames*bins)}
	for i := range f.Data {
		f.Data[i] = 1
	}
	return f
}

// maskedSpans returns the fully masked frames and bins of f (entries
// equal to v across a whole row or column).
func maskedSpans(f *Features, v float32) (frames, bins []int) {
	for t := range f.Frames {
		if !slices.ContainsFunc(f.Row(t), func(x float32) bool { return x != v }) {
			frames = append(frames, t)
		}
	}
	for b := range f.Bins {
		all := true
		for t := range f.Frames {
			all = all && f.Data[t*f.Bins+b] == v
		}
		if all {
			bins = append(bins, b)
		}
	}
	return frames, bins
}

func TestSpecAugmentMaskSizes(t *testing.T) {
	tests := []struct {
		name               string
		frames, bins       int
		opts               *SpecAugmentOptions
		maxFrames, maxBins int // bounds on masked frames and bins
	}{
		{"defaults", 500, 80, nil, 2 * 40, 2 * 27},
		{"short utterance: p bounds time masks", 50, 80, nil, 2 * 10, 2 * 27},
		{"one wide mask each", 300, 40, &SpecAugmentOptions{FreqMasks: 1, MaxFreqWidth: 10, TimeMasks: 1, MaxTimeWidth: 100, MaxTimeRatio: 1}, 100, 10},
		{"no masks", 300, 80, &SpecAugmentOptions{FreqMasks: -1, TimeMasks: -1}, 0, 0},
		{"mask wider than the bins", 10, 5, &SpecAugmentOptions{MaxFreqWidth: 27, TimeMasks: -1}, 10, 5}, // all bins masked masks every frame too
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			sawMask := false
			for range 50 {
				f := ones(tc.frames, tc.bins)
				if err := SpecAugment(f, tc.opts, rng); err != nil {
					t.Fatal(err)
				}
				frames, bins := maskedSpans(f, 0)
				if len(frames) > tc.maxFrames || len(bins) > tc.maxBins {
					t.Fatalf("%d frames and %d bins masked, want ≤ %d and ≤ %d", len(frames), len(bins), tc.maxFrames, tc.maxBins)
				}
				// Every zero lies in a masked frame or bin.
				for i, v := range f.Data {
					if v == 0 && !slices.Contains(frames, i/tc.bins) && !slices.Contains(bins, i%tc.bins) {
						t.Fatalf("entry (%d, %d) is 0 outside every mask", i/tc.bins, i%tc.bins)
					}
				}
				sawMask = sawMask || len(frames)+len(bins) > 0
			}
			if want := tc.maxFrames+tc.maxBins > 0; sawMask != want {
				t.Errorf("masks applied: %v, want %v", sawMask, want)
			}
		})
	}
}

func TestSpecAugmentDeterministic(t *testing.T) {
	a, b := ones(200, 80), ones(200, 80)
	opts := &SpecAugmentOptions{Value: -1}
	if err := SpecAugment(a, opts, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if err := SpecAugment(b, opts, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Data, b.Data) {
		t.Error("same seed, different masks")
	}
	if !slices.Contains(a.Data, -1) {
		t.Error("no entry set to Value")
	}
}

func TestSpecAugmentErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		f    *Features
		opts *SpecAugmentOptions
		rng  *rand.Rand
	}{
		{"nil features", nil, nil, rng},
		{"bad shape", &Features{Frames: 2, Bins: 2}, nil, rng},
		{"nil rng", ones(2, 2), nil, nil},
		{"negative width", ones(2, 2), &SpecAugmentOptions{MaxFreqWidth: -1}, rng},
		{"ratio above 1", ones(2, 2), &SpecAugmentOptions{MaxTimeRatio: 1.5}, rng},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := SpecAugment(tc.f, tc.opts, tc.rng); err == nil {
				t.Error("no error")
			}
		})
	}
}
