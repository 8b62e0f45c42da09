package trainloop

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSetupStart: the one decision between a fresh run, Init's weights
// and resuming, with its errors named by the trainer and wrapping the
// sentinels that commands test.
func TestSetupStart(t *testing.T) {
	empty, full := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(full, LastName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		setup Setup
		want  Origin
		is    error
		msg   string // in the error; "" for none
	}{
		{"fresh", Setup{OutDir: empty}, Fresh, nil, ""},
		{"init", Setup{OutDir: empty, Init: "m.safetensors"}, FromInit, nil, ""},
		{"resume", Setup{OutDir: full, Resume: true, Init: "ignored"}, FromCheckpoint, nil, ""},
		{"overwrite", Setup{OutDir: full, Overwrite: true}, Fresh, nil, ""},
		{"overwrite with init", Setup{OutDir: full, Overwrite: true, Init: "m.safetensors"}, FromInit, nil, ""},
		{"no output", Setup{}, 0, nil, "x: train: no output directory"},
		{"negative anneal", Setup{OutDir: empty, Anneal: -1}, 0, nil, "x: train: anneal over -1 steps"},
		{"resume and overwrite", Setup{OutDir: full, Resume: true, Overwrite: true}, 0, ErrResumeOverwrite, "contradict"},
		{"nothing to resume", Setup{OutDir: empty, Resume: true}, 0, ErrNothingToResume, filepath.Join(empty, LastName) + " does not exist"},
		{"checkpoint exists", Setup{OutDir: full}, 0, ErrCheckpointExists, "exists: resume it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.setup.Start("x: train")
			switch {
			case tc.msg == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.msg == "" && got != tc.want:
				t.Errorf("origin %d, want %d", got, tc.want)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "x: train: ")):
				t.Errorf("error %v, want one starting x: train: and saying %q", err, tc.msg)
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

// TestSetupDefaults: zero and negative counts take the trainer's
// defaults, the fields where zero is a value keep it.
func TestSetupDefaults(t *testing.T) {
	d := Setup{BatchSize: 16, Epochs: 200, Patience: 10, LR: 1e-3, Warmup: 500, DecayPatience: 3, LogEvery: 25, MaxGraphs: 12, Workers: 2}
	var s Setup
	s.SetDefaults(d)
	want := d
	want.CheckpointEvery = 5 * time.Minute
	if s != want {
		t.Errorf("zero setup with defaults: %+v, want %+v", s, want)
	}
	s = Setup{BatchSize: 4, Epochs: -1, LR: 0.5, CheckpointEvery: time.Second, Anneal: 0, Seed: 0}
	s.SetDefaults(d)
	if s.BatchSize != 4 || s.Epochs != 200 || s.LR != 0.5 || s.CheckpointEvery != time.Second || s.Seed != 0 || s.MaxSteps != 0 {
		t.Errorf("set fields changed or negative kept: %+v", s)
	}
}

// TestSetupLoopOptions: the loop's options follow the setup, the stop
// step from MaxSteps and Anneal.
func TestSetupLoopOptions(t *testing.T) {
	s := Setup{OutDir: "out", Epochs: 3, MaxSteps: 100, Warmup: 10, Anneal: 20, Patience: 4, DecayPatience: 2, CheckpointEvery: time.Minute, LogEvery: 5}
	o := s.LoopOptions("x: train", Snapshots{Dir: "out", Keep: 2}, nil)
	if o.Name != "x: train" || o.OutDir != "out" || o.Epochs != 3 || o.MaxSteps != 30 || o.Patience != 4 || o.DecayPatience != 2 ||
		o.CheckpointEvery != time.Minute || o.LogEvery != 5 || o.Snapshots.Keep != 2 {
		t.Errorf("loop options %+v from %+v", o, s)
	}
}
