package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/trainloop"
)

// TestTrainFlags: the shared flags show the trainer's defaults, parse
// into the setup, and CheckTrain names the flag at fault.
func TestTrainFlags(t *testing.T) {
	parse := func(args ...string) (trainloop.Setup, *flag.FlagSet, error) {
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s := trainloop.Setup{BatchSize: 16, Epochs: 200, LR: 1e-3}
		TrainFlags(fs, &s, TrainText{Command: "asr", Examples: "utterances", Patience: "epochs", Workers: "w", BF16: "b", Seed: "s"})
		err := fs.Parse(args)
		if err == nil {
			err = CheckTrain(&s)
		}
		return s, fs, err
	}
	s, fs, err := parse("-o", "out", "-batch", "4", "-resume", "-anneal", "7", "-snapshots", "2", "-snapshot-every", "3", "-j", "5", "-bf16")
	if err != nil {
		t.Fatal(err)
	}
	want := trainloop.Setup{OutDir: "out", Resume: true, BatchSize: 4, Epochs: 200, LR: 1e-3, Anneal: 7, Snapshots: 2, SnapshotEvery: 3, Workers: 5, BF16: true, Seed: 1}
	if s != want {
		t.Errorf("parsed %+v, want %+v", s, want)
	}
	for name, def := range map[string]string{"batch": "16", "epochs": "200", "lr": "0.001", "seed": "1", "max-steps": "0"} {
		if f := fs.Lookup(name); f == nil || f.DefValue != def {
			t.Errorf("-%s: %+v, want default %s", name, f, def)
		}
	}
	if u := fs.Lookup("snapshots").Usage; !strings.Contains(u, `for "asr average"`) {
		t.Errorf("-snapshots usage %q does not name asr average", u)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "train needs -o DIR"},
		{[]string{"-o", "out", "-anneal", "-1"}, "-anneal -1"},
		{[]string{"-o", "out", "-snapshot-every", "2"}, "-snapshot-every 2 keeps nothing without -snapshots N"},
	} {
		if _, _, err := parse(tc.args...); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}

// TestTrainError: the start's errors become usage errors or hints, an
// interrupt says how to resume, others pass unchanged.
func TestTrainError(t *testing.T) {
	other := errors.New("other")
	for _, tc := range []struct {
		err   error
		usage bool
		want  string
	}{
		{fmt.Errorf("x: %w", context.Canceled), false, "interrupted; resume with -resume"},
		{fmt.Errorf("x: %w", trainloop.ErrResumeOverwrite), true, "--resume and --overwrite contradict each other"},
		{fmt.Errorf("x: %w", trainloop.ErrNothingToResume), false, "(drop --resume to start a new run)"},
		{fmt.Errorf("x: %w", trainloop.ErrCheckpointExists), false, "exists: resume it, or choose another output directory (--resume continues it"},
		{other, false, "other"},
	} {
		err := TrainError(tc.err)
		if errors.Is(err, ErrUsage) != tc.usage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TrainError(%v) = %v, want usage %v saying %q", tc.err, err, tc.usage, tc.want)
		}
	}
}
