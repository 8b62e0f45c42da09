package speechtrain

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/attend-go/attend/audio"
)

// MaxAugment bounds TrainOptions.Augment: each copy costs the loading time
// and the memory of the real speech once more.
const MaxAugment = 10

// VTLP factors of augmented copies outside [MinWarp, MaxWarp] are refused
// (audio's bounds on the filterbank warp).
const (
	MinWarp = audio.MinWarp
	MaxWarp = audio.MaxWarp
)

// checkAugment validates Augment, VTLP, Synthetic and NoiseDirs (which
// must be directories; their files are read when the data is loaded).
func (o *TrainOptions) checkAugment() error {
	if o.Augment < 0 || o.Augment > MaxAugment {
		return fmt.Errorf("speechtrain: %d augmented copies; want 0 to %d", o.Augment, MaxAugment)
	}
	if w := o.VTLP; w != [2]float64{} && !(w[0] >= MinWarp && w[0] <= w[1] && w[1] <= MaxWarp) {
		return fmt.Errorf("speechtrain: VTLP range %g–%g; want lo ≤ hi within [%g, %g]", w[0], w[1], MinWarp, MaxWarp)
	}
	for _, path := range o.Synthetic {
		if !containsPath(o.Train, path) {
			return fmt.Errorf("speechtrain: synthetic manifest %s is not among the training manifests", path)
		}
	}
	if len(o.NoiseDirs) > 0 && o.Augment == 0 {
		return fmt.Errorf("speechtrain: noise sounds %s need augmented copies", strings.Join(o.NoiseDirs, ", "))
	}
	for _, dir := range o.NoiseDirs {
		if fi, err := os.Stat(dir); err != nil {
			return fmt.Errorf("speechtrain: noise sounds: %w", err)
		} else if !fi.IsDir() {
			return fmt.Errorf("speechtrain: noise sounds: %s is not a directory", dir)
		}
	}
	return nil
}

// isSynthetic reports whether the training manifest path is listed in
// Synthetic.
func (o *TrainOptions) isSynthetic(path string) bool { return containsPath(o.Synthetic, path) }

// containsPath reports whether paths names path, up to filepath.Clean.
func containsPath(paths []string, path string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return filepath.Clean(p) == filepath.Clean(path) })
}

// describeMix sums up an epoch's training data: utterances and hours in
// all; hours recorded, of their copies and synthetic; and the fraction of
// real speech, recorded and its copies over the total, e.g. "12888
// training utterances (12.36 h): real 5.49 h + 10.98 h augmented copies,
// synthetic 6.87 h (70 % real)".
func describeMix(train []*utterance) string {
	var hours [3]float64 // by origin
	for _, u := range train {
		hours[u.Origin] += u.Seconds / 3600
	}
	total := hours[recorded] + hours[perturbed] + hours[synthetic]
	realFraction := 0.0
	if total > 0 {
		realFraction = (hours[recorded] + hours[perturbed]) / total
	}
	return fmt.Sprintf("%d training utterances (%.2f h): real %.2f h + %.2f h augmented copies, synthetic %.2f h (%.0f %% real)",
		len(train), total, hours[recorded], hours[perturbed], hours[synthetic], 100*realFraction)
}
