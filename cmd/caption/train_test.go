package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrainCommand(t *testing.T) {
	out := t.TempDir()
	base := []string{"train", "-o", out, "-cache", fixtureCache, "-tiny", "-min-count", "1", "-batch", "4", "-epochs", "1"}
	tests := []cliCase{
		{name: "runs", args: append(base, fixture), stdout: "best model: " + filepath.Join(out, "best.safetensors"), stderr: "dev epoch 1 step 2"},
		{name: "exists", args: append(base, fixture), code: 1, stderr: "exists: resume it"},
		{name: "resumes", args: append(base, "-resume", "-epochs", "2", fixture), stderr: "resuming"},
		{name: "no output", args: []string{"train", "-cache", fixtureCache, fixture}, code: 2, stderr: "needs -o DIR"},
		{name: "no dataset", args: []string{"train", "-o", out}, code: 2, stderr: "needs one dataset"},
		{name: "snapshot interval without snapshots", args: []string{"train", "-o", out, "-snapshot-every", "2", fixture}, code: 2, stderr: "-snapshot-every 2 keeps nothing without -snapshots N"},
		{name: "bad select", args: []string{"train", "-o", out, "-select", "meteor", fixture}, code: 2, stderr: `-select "meteor"`},
		{name: "bad attention", args: []string{"train", "-o", out, "-attention", "sharp", fixture}, code: 2, stderr: `"sharp"`},
		{name: "no cache", args: []string{"train", "-o", t.TempDir(), fixture}, code: 1, stderr: "caption features -split train,dev"},
		// -init keeps the file's settings (the fixture's sizes are not the
		// flags' defaults) and changes only those given.
		{name: "hard from soft", args: append(initBase(t), "-attention", "hard", fixture), stderr: "Attention:hard"},
		{name: "init keeps sizes", args: append(initBase(t), fixture), stderr: "Attention:soft"},
		{name: "init other size", args: append(initBase(t), "-hidden", "64", fixture), code: 1, stderr: "hidden = 64, but the model has"},
		{name: "init and tiny", args: append(initBase(t), "-tiny", fixture), code: 2, stderr: "-tiny sizes a new model"},
		{name: "scst without init", args: []string{"train", "-o", t.TempDir(), "-scst", fixture}, code: 2, stderr: "-scst"},
		{name: "scst one sample", args: append(initBase(t), "-scst", "-scst-samples", "1", fixture), code: 2, stderr: "-scst-samples 1"},
		{name: "scst hard", args: append(initBase(t), "-scst", "-attention", "hard", fixture), code: 2, stderr: "-scst"},
		{name: "scst runs", args: append(initBase(t), "-scst", "-scst-samples", "2", fixture), stderr: "2 per batch × 2 samples, rewarded by CIDEr-D"},
	}
	runCases(t, tests)
	if _, err := os.Stat(filepath.Join(out, "train.log")); err != nil {
		t.Errorf("no train.log: %v", err)
	}
}

// initBase is a fine-tuning run of the tiny fixture model for two steps.
func initBase(t *testing.T) []string {
	return []string{"train", "-o", t.TempDir(), "-cache", fixtureCache, "-init", fixtureModel, "-min-count", "1", "-batch", "4", "-max-steps", "2"}
}

// TestTrainSnapshotEvery: -snapshot-every 1 keeps a snapshot after every
// step (two an epoch on the fixture), not only after each epoch's
// evaluation, and -snapshots bounds how many stay.
func TestTrainSnapshotEvery(t *testing.T) {
	tests := []struct {
		name string
		keep string
		want []string
	}{
		{"all kept", "10", []string{"snapshot-1.safetensors", "snapshot-2.safetensors", "snapshot-3.safetensors", "snapshot-4.safetensors"}},
		{"latest two", "2", []string{"snapshot-3.safetensors", "snapshot-4.safetensors"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"train", "-o", out, "-cache", fixtureCache, "-tiny", "-min-count", "1", "-batch", "4", "-epochs", "2",
				"-snapshots", tc.keep, "-snapshot-every", "1", fixture}
			if code, _, stderr := runCase(args, nil); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got, err := filepath.Glob(filepath.Join(out, "snapshot-*.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i] = filepath.Base(got[i])
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("snapshots %v, want %v", got, tc.want)
			}
		})
	}
}
