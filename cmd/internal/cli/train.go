package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/attend-go/attend/pipeline/trainloop"
)

// TrainText is what the shared training flags say that differs between
// the commands (TrainFlags).
type TrainText struct {
	// Command names the command's tool, for "asr average" in -snapshots.
	Command string
	// Examples is what a batch holds ("utterances").
	Examples string
	// Patience ends -patience's usage: "stop after this many " + Patience.
	Patience string
	// InitNote follows -init's usage ("" for none).
	InitNote string
	// Workers is -j's usage; BF16 is -bf16's; Seed lists what -seed draws,
	// in parentheses.
	Workers, BF16, Seed string
}

// TrainFlags registers on fs the training flags that asr train and
// caption train share, writing into s: -o, -resume, -overwrite, -init,
// -batch, -epochs, -patience, -max-steps, -lr, -warmup, -anneal,
// -checkpoint-every, -log-every, -snapshots, -snapshot-every, -j, -bf16
// and -seed. The values s holds when called are the flags' defaults (the
// trainer's TrainDefaults), but for -seed, whose default is 1 for every
// trainer. Check them after parsing with CheckTrain.
func TrainFlags(fs *flag.FlagSet, s *trainloop.Setup, t TrainText) {
	fs.StringVar(&s.OutDir, "o", s.OutDir, "output `directory` for checkpoints, the best model and the log (required)")
	fs.BoolVar(&s.Resume, "resume", s.Resume, "continue from DIR/last.safetensors")
	fs.BoolVar(&s.Overwrite, "overwrite", s.Overwrite, "start afresh even if DIR holds a checkpoint (it is replaced)")
	fs.StringVar(&s.Init, "init", s.Init, "start from the weights of this model `file` (fine-tuning)"+t.InitNote)
	fs.IntVar(&s.BatchSize, "batch", s.BatchSize, t.Examples+" per batch")
	fs.IntVar(&s.Epochs, "epochs", s.Epochs, "maximum epochs")
	fs.IntVar(&s.Patience, "patience", s.Patience, "stop after this many "+t.Patience)
	fs.IntVar(&s.MaxSteps, "max-steps", s.MaxSteps, "stop after this many optimizer steps (0: no limit)")
	fs.Float64Var(&s.LR, "lr", s.LR, "peak learning rate (Adam)")
	fs.IntVar(&s.Warmup, "warmup", s.Warmup, "learning-rate warm-up steps")
	fs.IntVar(&s.Anneal, "anneal", s.Anneal, "after the warm-up, lower the learning rate along a half cosine to zero over `N` steps and stop there (0: constant rate)")
	fs.DurationVar(&s.CheckpointEvery, "checkpoint-every", s.CheckpointEvery, "interval between checkpoints (default 5m)")
	fs.IntVar(&s.LogEvery, "log-every", s.LogEvery, "steps between log lines")
	fs.IntVar(&s.Snapshots, "snapshots", s.Snapshots, fmt.Sprintf("keep the weights of the `N` latest dev evaluations as DIR/snapshot-STEP.safetensors, for %q (0: none)", t.Command+" average"))
	fs.IntVar(&s.SnapshotEvery, "snapshot-every", s.SnapshotEvery, "with -snapshots, also keep a snapshot every `N` optimizer steps between dev evaluations (0: only after them)")
	fs.IntVar(&s.Workers, "j", s.Workers, t.Workers)
	fs.BoolVar(&s.BF16, "bf16", s.BF16, t.BF16)
	fs.Uint64Var(&s.Seed, "seed", 1, "random seed ("+t.Seed+")")
}

// CheckTrain checks the shared training flags after parsing: -o is
// given, and -snapshots, -snapshot-every and -anneal are in range
// (CheckSnapshots, CheckAnneal). Its errors are usage errors naming the
// flag at fault.
func CheckTrain(s *trainloop.Setup) error {
	if s.OutDir == "" {
		return Usagef("train needs -o DIR")
	}
	if err := CheckSnapshots(s.Snapshots, s.SnapshotEvery); err != nil {
		return err
	}
	return CheckAnneal(s.Anneal)
}

// CheckSnapshots checks the training flags -snapshots (keep, the number
// of snapshots kept) and -snapshot-every (every, steps between the
// snapshots written without a dev evaluation) and returns a usage error
// naming the flag at fault.
func CheckSnapshots(keep, every int) error {
	switch {
	case keep < 0:
		return Usagef("-snapshots %d: want 0 (none) or more", keep)
	case every < 0:
		return Usagef("-snapshot-every %d: want 0 (snapshots only after dev evaluations) or more steps", every)
	case every > 0 && keep == 0:
		return Usagef("-snapshot-every %d keeps nothing without -snapshots N", every)
	}
	return nil
}

// CheckAnneal checks the training flag -anneal (steps over which the
// learning rate falls to zero after the warm-up) and returns a usage
// error naming it when it is negative.
func CheckAnneal(steps int) error {
	if steps < 0 {
		return Usagef("-anneal %d: want 0 (a constant learning rate after the warm-up) or more steps", steps)
	}
	return nil
}

// TrainError turns the errors of a training run's start and end
// (trainloop.Setup.Start, an interrupt) into what the command says: a
// usage error for -resume with -overwrite, a hint for nothing to resume
// or an existing checkpoint, the way to resume an interrupted run. Other
// errors pass unchanged.
func TrainError(err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted; resume with -resume")
	case errors.Is(err, trainloop.ErrResumeOverwrite):
		return Usagef("--resume and --overwrite contradict each other")
	case errors.Is(err, trainloop.ErrNothingToResume):
		return fmt.Errorf("%w (drop --resume to start a new run)", err)
	case errors.Is(err, trainloop.ErrCheckpointExists):
		return fmt.Errorf("%w (--resume continues it, --overwrite starts afresh)", err)
	}
	return err
}
