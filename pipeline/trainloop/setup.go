package trainloop

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/attend-go/attend/models"
)

// Setup is the part of a trainer's options that every trainer shares:
// where the run writes, how it starts, its schedule, its checkpoints and
// snapshots, its threads and its seed. speechtrain.TrainOptions and
// captioning.TrainOptions embed it; each trainer gives the defaults of the
// fields below whose zero value means "default" (SetDefaults) and says
// them in its own doc comment.
type Setup struct {
	// OutDir receives LastName (the resumable checkpoint), BestName (the
	// best model on dev), the snapshots and train.log. Required.
	OutDir string
	// Resume continues from OutDir/LastName; Overwrite starts afresh even
	// if it exists (without either, an existing checkpoint is
	// ErrCheckpointExists rather than silently lost work). See Start.
	Resume, Overwrite bool
	// Init starts a new run from this model file's weights (fine-tuning);
	// a resumed run ignores it.
	Init string
	// BatchSize is examples per batch (0: the trainer's default).
	BatchSize int
	// Epochs bounds the run; Patience stops it after that many dev
	// evaluations without a better value; MaxSteps stops it after that
	// many optimizer steps (0: no limit).
	Epochs, Patience, MaxSteps int
	// LR is Adam's peak learning rate, reached after Warmup steps and
	// halved after DecayPatience evaluations without improvement.
	LR            float64
	Warmup        int
	DecayPatience int
	// Anneal > 0 lowers the rate after the warm-up along a half cosine to
	// zero over Anneal steps and ends the run there (AdamOptions,
	// StopStep); a negative Anneal is an error.
	Anneal int
	// CheckpointEvery is the interval between checkpoints (0 means 5 min);
	// LogEvery is the steps between log lines.
	CheckpointEvery time.Duration
	LogEvery        int
	// Snapshots keeps the weights after each dev evaluation as
	// OutDir/snapshot-STEP.safetensors, that many of the most recent, for
	// averaging (0 means none; see the Snapshots type). A fresh run with
	// Overwrite removes the snapshots of the run it replaces; without it,
	// their presence is an error. SnapshotEvery (with Snapshots) also
	// keeps one every that many optimizer steps, between evaluations (0:
	// only after them; Snapshots.Every).
	Snapshots, SnapshotEvery int
	// MaxGraphs is the most compiled graphs kept in memory (per replica,
	// where the trainer has replicas).
	MaxGraphs int
	// Workers load data and score dev in parallel.
	Workers int
	// BF16 runs the matrix products in bfloat16 with float32 sums
	// (models.UseBF16) for the whole run, dev scoring included, where the
	// CPU has AVX512_BF16; an error elsewhere. Weights, optimizer and
	// checkpoints stay float32. It switches a process-wide setting, so a
	// program that trains with it should not run other float32 work at
	// the same time.
	BF16 bool
	// Seed makes the run reproducible (initialization, batches, dropout,
	// and whatever else the trainer draws).
	Seed uint64
	// Log receives progress lines (nil: discarded); they are also
	// appended to OutDir/train.log.
	Log io.Writer
	// Comm, when not nil, trains data-parallel over its ranks (see Comm):
	// each trains its share of every batch (Ranks), and rank 0 alone
	// writes OutDir, the log included; the other ranks' Log is discarded.
	Comm Comm
	// BucketBytes > 0 sums the gradients over the ranks in buckets of
	// about that many bytes during the backward pass, where the trainer
	// can (Options.BucketBytes); 0 sums them in one buffer after it.
	BucketBytes int
}

// Ranks returns this process's rank and the number of ranks: 0 and 1
// without a Comm.
func (s *Setup) Ranks() (rank, size int) {
	if s.Comm == nil {
		return 0, 1
	}
	return s.Comm.Rank(), s.Comm.Size()
}

// SetDefaults gives the fields of s that are zero (or negative) where that
// means "default" the trainer's defaults d: BatchSize, Epochs, Patience,
// LR, Warmup, DecayPatience, LogEvery, MaxGraphs and Workers; and a zero
// CheckpointEvery 5 minutes. The fields where zero is a value of its own
// (MaxSteps, Anneal, Snapshots, SnapshotEvery, Seed) are left alone.
func (s *Setup) SetDefaults(d Setup) {
	for _, f := range []struct{ v, d *int }{
		{&s.BatchSize, &d.BatchSize}, {&s.Epochs, &d.Epochs}, {&s.Patience, &d.Patience},
		{&s.Warmup, &d.Warmup}, {&s.DecayPatience, &d.DecayPatience}, {&s.LogEvery, &d.LogEvery},
		{&s.MaxGraphs, &d.MaxGraphs}, {&s.Workers, &d.Workers},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	if s.LR <= 0 {
		s.LR = d.LR
	}
	if s.CheckpointEvery <= 0 {
		s.CheckpointEvery = 5 * time.Minute
	}
}

// Errors of Start's choice between resuming, overwriting and starting
// afresh; a command line says which flags fix them.
var (
	ErrResumeOverwrite  = errors.New("resuming and overwriting contradict each other")
	ErrNothingToResume  = errors.New("nothing to resume")
	ErrCheckpointExists = errors.New("a checkpoint exists: resume it, or choose another output directory")
)

// How a run starts (Start).
type Origin int

const (
	// Fresh is a new model, sized by the trainer's config.
	Fresh Origin = iota
	// FromInit is a new run from the weights of Setup.Init.
	FromInit
	// FromCheckpoint resumes OutDir/LastName: model, optimizer and State.
	FromCheckpoint
)

// Start checks the options every run needs (an output directory, an
// Anneal of 0 or more) and decides how the run starts. Resume needs
// OutDir/LastName (ErrNothingToResume) and contradicts Overwrite
// (ErrResumeOverwrite); a run that does not resume finds no checkpoint
// there unless it overwrites it (ErrCheckpointExists); then Init, if set,
// gives the weights. Errors are prefixed with name (the trainer's, e.g.
// "speech: train") and wrap those sentinels. Start reads OutDir and
// writes nothing.
func (s *Setup) Start(name string) (Origin, error) {
	if s.OutDir == "" {
		return 0, fmt.Errorf("%s: no output directory", name)
	}
	if err := CheckAnneal(name, s.Anneal); err != nil {
		return 0, err
	}
	last := filepath.Join(s.OutDir, LastName)
	_, statErr := os.Stat(last)
	exists := statErr == nil
	switch {
	case s.Resume && s.Overwrite:
		return 0, fmt.Errorf("%s: %w", name, ErrResumeOverwrite)
	case s.Resume && !exists:
		return 0, fmt.Errorf("%s: %w: %s does not exist", name, ErrNothingToResume, last)
	case s.Resume:
		return FromCheckpoint, nil
	case exists && !s.Overwrite:
		return 0, fmt.Errorf("%s: %s: %w", name, last, ErrCheckpointExists)
	case s.Init != "":
		return FromInit, nil
	}
	return Fresh, nil
}

// Begin readies the process and OutDir for a run: bfloat16 products if
// BF16 (UseBF16), the log (OpenLog), and the snapshots (Snapshots.Prepare,
// logging how many of a replaced run it removed); on a rank other than 0
// only the first (its log function discards). It returns the log
// function, the snapshots to give Run, and end, which closes the log and
// switches bfloat16 back: defer it. Errors are prefixed with name.
func (s *Setup) Begin(name string) (logf func(format string, args ...any), snaps Snapshots, end func(), err error) {
	restoreBF16, err := UseBF16(name, s.BF16)
	if err != nil {
		return nil, Snapshots{}, nil, err
	}
	if rank, _ := s.Ranks(); rank > 0 {
		// Rank 0 writes the log and the snapshots; Run writes nothing here.
		return func(string, ...any) {}, Snapshots{Dir: s.OutDir}, restoreBF16, nil
	}
	logf, closeLog, err := OpenLog(s.OutDir, s.Log)
	if err != nil {
		restoreBF16()
		return nil, Snapshots{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	end = func() {
		closeLog()
		restoreBF16()
	}
	snaps = Snapshots{Dir: s.OutDir, Keep: s.Snapshots, Every: s.SnapshotEvery}
	removed, err := snaps.Prepare(s.Resume, s.Overwrite)
	if err != nil {
		end()
		return nil, Snapshots{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	if removed > 0 {
		logf("removed the %d snapshots of the run replaced", removed)
	}
	return logf, snaps, end, nil
}

// Adam returns Adam's options for the run (AdamOptions with LR, Warmup
// and Anneal), scaled by st's plateau decay factor.
func (s *Setup) Adam(st *State) *models.AdamOptions {
	return AdamOptions(s.LR, s.Warmup, s.Anneal, st)
}

// LoopOptions returns Run's options that follow from s (its name, OutDir,
// Epochs, the stop step of MaxSteps and Anneal, Patience, DecayPatience,
// CheckpointEvery and LogEvery) with the snapshots and log of Begin; the
// trainer fills the rest (PatienceStop, EvalEvery, EvalFirst,
// LowerIsBetter, Graphs).
func (s *Setup) LoopOptions(name string, snaps Snapshots, logf func(string, ...any)) Options {
	return Options{
		Name: name, OutDir: s.OutDir,
		Epochs: s.Epochs, MaxSteps: StopStep(s.MaxSteps, s.Warmup, s.Anneal), Patience: s.Patience, DecayPatience: s.DecayPatience,
		CheckpointEvery: s.CheckpointEvery, LogEvery: s.LogEvery,
		Snapshots: snaps, Logf: logf, Comm: s.Comm, BucketBytes: s.BucketBytes,
	}
}
