package trainloop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/attend-go/attend/models/safetensors"
)

// Snapshots keeps the weights of a training run after each dev
// evaluation (and every Every optimizer steps), the Keep most recent of
// them, as Dir/snapshot-STEP.safetensors (STEP the optimizer steps so far): the
// model alone, float32. Averaging them ("asr average", "caption
// average"; safetensors.Averager) often gives a better model than any one of
// them (Vaswani et al. 2017; Izmailov et al. 2018, stochastic weight
// averaging), though not always: score the average on dev. asr train and caption train share it.
type Snapshots struct {
	// Dir is the run's output directory.
	Dir string
	// Keep is how many snapshots to keep; 0 means none are written and
	// the directory is left alone.
	Keep int
	// Every, when positive, also writes a snapshot after every that
	// many optimizer steps (steps that are multiples of it), between dev
	// evaluations and without one: the late part of a long epoch gives
	// several models to average, not one. They count toward Keep.
	Every int
}

// Due reports whether the run writes a step snapshot after step.
func (s Snapshots) Due(step int) bool {
	return s.Keep > 0 && s.Every > 0 && step%s.Every == 0
}

const (
	snapshotPrefix = "snapshot-"
	snapshotSuffix = ".safetensors"
)

// Path returns the file of the snapshot at step.
func (s Snapshots) Path(step int) string {
	return filepath.Join(s.Dir, snapshotPrefix+strconv.Itoa(step)+snapshotSuffix)
}

// Prepare readies Dir for a run that keeps snapshots. Snapshots there
// stay for a resumed run; for a fresh one they belong to another run, so
// that averaging the directory's snapshots would mix the two: with
// overwrite (the other run is being replaced) Prepare removes them and
// returns how many, without it it fails, naming them.
func (s Snapshots) Prepare(resume, overwrite bool) (removed int, err error) {
	if s.Keep <= 0 || resume {
		return 0, nil
	}
	steps, err := s.steps()
	if err != nil || len(steps) == 0 {
		return 0, err
	}
	if !overwrite {
		return 0, fmt.Errorf("%s holds %d snapshots of another run (%s …): resume that run, overwrite it, or choose another directory",
			s.Dir, len(steps), filepath.Base(s.Path(steps[0])))
	}
	for _, step := range steps {
		if err := os.Remove(s.Path(step)); err != nil {
			return removed, err
		}
		removed++
	}
	return removed, nil
}

// Save writes the model file that file returns (the model alone) as the
// snapshot at step, float32 and atomically (safetensors.WriteFile), then
// removes all but the Keep most recent snapshots up to step, and those
// after it: they come from the part of a run that a resumed run is
// replaying. When Keep is 0 it does nothing, and file is not called, so
// that a run without snapshots does not copy its weights.
func (s Snapshots) Save(step int, file func() (*safetensors.File, error)) error {
	if s.Keep <= 0 {
		return nil
	}
	f, err := file()
	if err != nil {
		return err
	}
	if err := safetensors.WriteFile(s.Path(step), f, safetensors.F32); err != nil {
		return err
	}
	steps, err := s.steps()
	if err != nil {
		return err
	}
	kept := 0
	for _, st := range slices.Backward(steps) {
		if st <= step && kept < s.Keep {
			kept++
			continue
		}
		if err := os.Remove(s.Path(st)); err != nil {
			return err
		}
	}
	return nil
}

// Paths returns the files of the snapshots in Dir, oldest (fewest steps)
// first.
func (s Snapshots) Paths() ([]string, error) {
	steps, err := s.steps()
	paths := make([]string, len(steps))
	for i, step := range steps {
		paths[i] = s.Path(step)
	}
	return paths, err
}

// steps returns the steps of the snapshots in Dir, in increasing order;
// none if Dir does not exist.
func (s Snapshots) steps() ([]int, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var steps []int
	for _, e := range entries {
		digits, ok := strings.CutPrefix(e.Name(), snapshotPrefix)
		if !ok || e.IsDir() {
			continue
		}
		if digits, ok = strings.CutSuffix(digits, snapshotSuffix); !ok {
			continue
		}
		step, err := strconv.Atoi(digits)
		if err != nil || step < 0 || strconv.Itoa(step) != digits {
			continue // not a name Path makes
		}
		steps = append(steps, step)
	}
	slices.Sort(steps)
	return steps, nil
}
