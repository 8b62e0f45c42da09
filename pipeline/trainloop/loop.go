package trainloop

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/safetensors"
)

// The files of a run's output directory.
const (
	// LastName is the resumable checkpoint: the model, the optimizer's
	// moments as extra tensors (adam.m/NAME, adam.v/NAME) and the loop's
	// State as JSON metadata under StateKey.
	LastName = "last.safetensors"
	// BestName is the model alone as it was at its best dev evaluation.
	BestName = "best.safetensors"
	// StateKey is the checkpoint metadata entry of the loop's state.
	StateKey = "attend.train"
)

// State is where a run stands. A task's checkpoint state
// (Task.CheckpointState) holds it, under these JSON names by default.
type State struct {
	Epoch     int     `json:"epoch"`      // current epoch, from 1
	Batch     int     `json:"batch"`      // batches of the epoch already done
	Step      int     `json:"step"`       // optimizer steps so far
	BestValue float64 `json:"best_value"` // the best dev value so far
	BestEpoch int     `json:"best_epoch"` // the epoch that reached it (0: none yet)
	BestStep  int     `json:"best_step"`  // and the step
	BadEvals  int     `json:"bad_evals"`  // evaluations since the last improvement
	LRScale   float64 `json:"lr_scale"`   // plateau decay factor so far
	Seconds   float64 `json:"seconds"`    // training time so far
}

// NewState is the state of a run that has not started: epoch 1, learning
// rate unscaled, best the value no evaluation is worse than.
func NewState(best float64) State {
	return State{Epoch: 1, BestValue: best, LRScale: 1}
}

// Batch is what one training batch did.
type Batch struct {
	Tokens int     // target tokens in the batch
	Loss   float64 // its loss; NaN is left out of the means
	Reward float64 // its mean reward, for a policy-gradient objective
	Media  float64 // seconds of audio (or other media) it covered
}

// Progress describes the epoch so far, for Task.Progress and
// Task.EpochDone.
type Progress struct {
	Epoch, Batch, Batches, Step int // Batch batches done of Batches
	// Loss and Reward are the means over the batches since the last
	// progress line.
	Loss, Reward float64
	// Tokens, Media and Elapsed are this run's share of the epoch (all of
	// it unless resumed within it); PerBatch is Elapsed per batch.
	Tokens   int
	Media    float64
	Elapsed  time.Duration
	PerBatch time.Duration
}

// Task is what a model supplies to the loop: its batches, its dev
// evaluation and its checkpoint contents. Errors it returns are wrapped
// by the loop with Options.Name.
type Task interface {
	// Plan prepares an epoch (from 1) and returns its number of batches.
	// The plan must depend only on the epoch and the run's seed, so that
	// a resumed run replays it.
	Plan(epoch int) (batches int, err error)
	// Train runs batch i of the planned epoch, leaving its gradients in
	// the parameters; the loop then steps the optimizer.
	Train(ctx context.Context, epoch, i int) (Batch, error)
	// Progress returns the task's parts of a progress line: what the
	// loss is ("loss 1.23") and the throughput ("12.3 h audio/h").
	Progress(p Progress) (what, rate string)
	// EpochDone is told when an epoch's batches are done, before its
	// evaluation.
	EpochDone(p Progress)
	// Evaluate scores the model on dev and returns the value that picks
	// the best model (Options.LowerIsBetter says which way).
	Evaluate(ctx context.Context, st *State) (float64, error)
	// Evaluated is told the outcome of the evaluation, once st is updated
	// and the best model and snapshot are written; it logs it.
	Evaluated(st *State, improved bool)
	// File returns the model alone: best.safetensors, the snapshots and
	// the checkpoint's base.
	File() (*safetensors.File, error)
	// CheckpointState returns what the checkpoint stores under StateKey,
	// as JSON: st itself, or a struct that holds it and the task's own.
	CheckpointState(st *State) any
}

// Stepper is a Task that keeps sums of its own over the batches (a
// caption run's training loss between evaluations): Run tells it each
// batch's numbers after the optimizer step, summed over the ranks in a
// data-parallel run, where Train's are this rank's share alone.
type Stepper interface {
	Stepped(b Batch)
}

// Options configure Run. Unlike the tasks' options, they have no
// defaults: the task fills every field it uses.
type Options struct {
	// Name prefixes errors with the trainer's package ("speech: train").
	Name string
	// OutDir receives LastName, BestName and the snapshots.
	OutDir string
	// Epochs bounds the run, MaxSteps (0: none) too; Patience stops it
	// after that many evaluations without improvement, and every
	// DecayPatience of those halve the learning rate.
	Epochs, MaxSteps, Patience, DecayPatience int
	// PatienceStop is the reason given when patience runs out, with a %d
	// for the evaluations ("no dev improvement in %d evaluations").
	PatienceStop string
	// EvalEvery scores dev after every that many steps (0: after each
	// epoch); EvalFirst scores the model a fresh run starts from before
	// its first step (fine-tuning: the best model is never worse).
	EvalEvery int
	EvalFirst bool
	// LowerIsBetter says that a lower dev value is better (an error
	// rate), not a higher one (a score).
	LowerIsBetter bool
	// CheckpointEvery is the interval between checkpoints; LogEvery the
	// steps between progress lines.
	CheckpointEvery time.Duration
	LogEvery        int
	// Snapshots keeps the weights after each evaluation and every
	// Snapshots.Every steps (Snapshots.Keep 0: none). Prepare it before
	// the run.
	Snapshots Snapshots
	// Graphs are the task's compiled graphs (its models.Buckets), counted
	// in progress lines.
	Graphs interface {
		Len() int    // graphs in memory
		Builds() int // graphs built so far
	}
	// Logf writes a line to the run's log (OpenLog).
	Logf func(format string, args ...any)
	// Comm is the group of processes of a data-parallel run (nil: this
	// process alone); see Comm.
	Comm Comm
	// BucketBytes > 0 sums the gradients over the ranks in buckets of
	// about that many bytes during the backward pass, where the task can
	// (Streamer); 0 sums them in one buffer after it.
	BucketBytes int
}

// AdamOptions returns Adam's options for a run: the peak learning rate
// lr, reached linearly over warmup steps, times st's plateau decay
// factor as it is when the optimizer steps (st may be replaced by a
// resumed state meanwhile). With anneal > 0 the rate then falls along a
// half cosine to zero over anneal steps (models.WarmupCosine; Loshchilov
// & Hutter 2017): the run ends at a low-noise point of its own instead of
// leaving snapshots to average, and StopStep ends it there.
func AdamOptions(lr float64, warmup, anneal int, st *State) *models.AdamOptions {
	shape := func(step int) float64 { return math.Min(1, float64(step)/float64(warmup)) }
	if anneal > 0 {
		shape = models.WarmupCosine(warmup, warmup+anneal, 0)
	}
	return &models.AdamOptions{LR: lr, Schedule: func(step int) float64 {
		return shape(step) * st.LRScale
	}}
}

// CheckAnneal returns an error, prefixed with the task's name, when the
// anneal's step count is negative: AdamOptions and StopStep would take it
// for no anneal at all.
func CheckAnneal(name string, anneal int) error {
	if anneal < 0 {
		return fmt.Errorf("%s: anneal over %d steps: want 0 (none) or more", name, anneal)
	}
	return nil
}

// StopStep is the step a run with these options stops at (0: none):
// maxSteps, or the end of the anneal (warmup + anneal) if that comes
// first.
func StopStep(maxSteps, warmup, anneal int) int {
	if anneal > 0 && (maxSteps == 0 || warmup+anneal < maxSteps) {
		return warmup + anneal
	}
	return maxSteps
}

// Run trains until Epochs, MaxSteps or Patience stops it, or ctx is
// cancelled, starting where st stands (a new run: NewState). It writes
// OutDir/last.safetensors every CheckpointEvery, after each epoch and
// when ctx is cancelled, so a killed or interrupted run loses at most
// CheckpointEvery of work; best.safetensors after each improvement; a
// snapshot after each evaluation and every Snapshots.Every steps. It
// returns why it stopped ("interrupted" with ctx's error).
func Run(ctx context.Context, o Options, st *State, opt *models.Adam, task Task) (stopped string, err error) {
	r := &run{o: o, st: st, opt: opt, task: task, last: filepath.Join(o.OutDir, LastName),
		lastSave: time.Now(), runStart: time.Now(), secondsBefore: st.Seconds, snapshotStep: -1, g: &group{c: o.Comm}}
	if r.g.many() {
		if err := r.g.checkStart(st, opt.Params()); err != nil {
			return "", fmt.Errorf("%s: %w", o.Name, err)
		}
		if err := r.startStream(); err != nil {
			return "", fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	if o.EvalFirst && st.Step == 0 {
		if _, err := r.evaluate(ctx); err != nil {
			return "", err
		}
	}
	for ; st.Epoch <= o.Epochs; st.Epoch++ {
		stop, err := r.epoch(ctx)
		if err != nil || stop == "interrupted" {
			return stop, err
		}
		if stop == "" && st.Epoch == o.Epochs {
			stop = fmt.Sprintf("reached %d epochs", st.Epoch)
		}
		st.Batch = 0
		st.Epoch++ // the checkpoint resumes at the next epoch
		if err := r.save(); err != nil {
			return "", err
		}
		if stop != "" {
			return stop, nil
		}
		st.Epoch--
	}
	return "", nil
}

// run is one call of Run.
type run struct {
	o             Options
	st            *State
	opt           *models.Adam
	task          Task
	last          string
	lastSave      time.Time
	runStart      time.Time
	secondsBefore float64
	snapshotStep  int // step of the last snapshot this call wrote (-1: none)
	g             *group
	interrupted   bool               // some rank was interrupted (a run of several ranks)
	stream        *models.GradStream // the task's, summing during the backward pass (Streamer)
	waitLogged    time.Duration      // commWait at the last progress line
}

// epoch trains the rest of the current epoch and evaluates where due. It
// returns a reason to stop, if any.
func (r *run) epoch(ctx context.Context) (stop string, err error) {
	o, st := &r.o, r.st
	batches, err := r.task.Plan(st.Epoch)
	if err != nil {
		return "", fmt.Errorf("%s: %w", o.Name, err)
	}
	epochStart, startBatch := time.Now(), st.Batch
	var (
		tokens          int
		media           float64
		lossSum, reward float64
		lossN           int
	)
	progress := func(bi int) Progress {
		el := time.Since(epochStart)
		return Progress{Epoch: st.Epoch, Batch: bi, Batches: batches, Step: st.Step,
			Loss: lossSum / float64(max(1, lossN)), Reward: reward / float64(max(1, lossN)),
			Tokens: tokens, Media: media, Elapsed: el, PerBatch: el / time.Duration(max(1, bi-startBatch))}
	}
	for bi := st.Batch; bi < batches && stop == ""; bi++ {
		if err := r.stopped(ctx); err != nil {
			if serr := r.save(); serr != nil {
				return "", serr
			}
			o.Logf("interrupted: checkpoint saved at epoch %d, batch %d", st.Epoch, st.Batch)
			return "interrupted", err
		}
		b, err := r.task.Train(ctx, st.Epoch, bi)
		if err == nil && r.g.many() {
			b, err = r.reduce(ctx, b)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", o.Name, err)
		}
		if _, err := r.opt.Step(); err != nil {
			return "", fmt.Errorf("%s: %w", o.Name, err)
		}
		st.Step++
		st.Batch = bi + 1
		if s, ok := r.task.(Stepper); ok {
			s.Stepped(b)
		}
		tokens += b.Tokens
		media += b.Media
		if !math.IsNaN(b.Loss) {
			lossSum += b.Loss
			reward += b.Reward
			lossN++
		}
		if st.Step%o.LogEvery == 0 {
			p := progress(bi + 1)
			what, rate := r.task.Progress(p)
			eta := time.Duration(batches-bi-1) * p.PerBatch
			var comm string
			if r.g.many() {
				w := r.commWait()
				comm = fmt.Sprintf(", gradient sum wait %.0f ms/step", float64((w-r.waitLogged).Microseconds())/1e3/float64(o.LogEvery))
				r.waitLogged = w
			}
			o.Logf("epoch %d batch %d/%d step %d %s lr %.2g %.0f tok/s %s %d graphs (%d builds)%s epoch ETA %v",
				st.Epoch, bi+1, batches, st.Step, what, r.opt.LR(),
				float64(tokens)/p.Elapsed.Seconds(), rate, o.Graphs.Len(), o.Graphs.Builds(), comm, eta.Round(time.Second))
			lossSum, reward, lossN = 0, 0, 0
		}
		if o.Snapshots.Due(st.Step) {
			if err := r.snapshot(); err != nil {
				return "", err
			}
		}
		if o.EvalEvery > 0 && st.Step%o.EvalEvery == 0 {
			done, err := r.evaluate(ctx)
			if err != nil {
				return "", err
			}
			if done {
				stop = fmt.Sprintf(o.PatienceStop, st.BadEvals)
			}
		}
		if o.MaxSteps > 0 && st.Step >= o.MaxSteps {
			stop = fmt.Sprintf("reached %d steps", st.Step)
		}
		if stop == "" && time.Since(r.lastSave) > o.CheckpointEvery {
			if err := r.save(); err != nil {
				return "", err
			}
		}
	}
	r.task.EpochDone(progress(st.Batch))
	if o.EvalEvery == 0 || st.BestEpoch == 0 && stop != "" {
		done, err := r.evaluate(ctx)
		if err != nil {
			return "", err
		}
		if done && stop == "" {
			stop = fmt.Sprintf(o.PatienceStop, st.BadEvals)
		}
	}
	return stop, nil
}

// evaluate scores dev, keeps the best model, decides on learning-rate
// decay and writes a snapshot; it reports whether patience ran out.
func (r *run) evaluate(ctx context.Context) (bool, error) {
	o, st := &r.o, r.st
	var v float64
	var err error
	if r.g.lead() {
		v, err = r.task.Evaluate(ctx, st)
	}
	if err == nil && r.g.many() {
		v, err = r.g.shareValue(v)
	}
	if err != nil {
		return false, fmt.Errorf("%s: dev: %w", o.Name, err)
	}
	better := v > st.BestValue
	if o.LowerIsBetter {
		better = v < st.BestValue
	}
	improved := st.BestEpoch == 0 || better
	if improved {
		st.BestValue, st.BestEpoch, st.BestStep, st.BadEvals = v, st.Epoch, st.Step, 0
	}
	if improved && r.g.lead() {
		f, err := r.task.File()
		if err == nil {
			err = safetensors.WriteFile(filepath.Join(o.OutDir, BestName), f, safetensors.F32)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", o.Name, err)
		}
	}
	if !improved {
		st.BadEvals++
		if st.BadEvals%o.DecayPatience == 0 {
			st.LRScale /= 2
		}
	}
	if err := r.snapshot(); err != nil {
		return false, err
	}
	r.task.Evaluated(st, improved)
	return st.BadEvals >= o.Patience, nil
}

// snapshot writes the snapshot of the current step, once: a step that
// is both due (Snapshots.Every) and evaluated writes one file.
func (r *run) snapshot() error {
	if r.snapshotStep == r.st.Step || !r.g.lead() {
		return nil
	}
	if err := r.o.Snapshots.Save(r.st.Step, r.task.File); err != nil {
		return fmt.Errorf("%s: snapshot: %w", r.o.Name, err)
	}
	r.snapshotStep = r.st.Step
	return nil
}

// save writes the checkpoint: the model, the optimizer's moments and the
// state, atomically.
func (r *run) save() error {
	r.st.Seconds = r.secondsBefore + time.Since(r.runStart).Seconds()
	if !r.g.lead() {
		r.lastSave = time.Now()
		return nil
	}
	f, err := r.task.File()
	if err == nil {
		r.opt.AppendTensors(f)
		var js []byte
		if js, err = json.Marshal(r.task.CheckpointState(r.st)); err == nil {
			if f.Extra == nil {
				f.Extra = map[string]string{}
			}
			f.Extra[StateKey] = string(js)
			err = safetensors.WriteFile(r.last, f, safetensors.F32)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: checkpoint: %w", r.o.Name, err)
	}
	r.lastSave = time.Now()
	return nil
}

// stopped returns ctx's error if the run is to stop before its next
// batch: this process's ctx is cancelled, or, in a run of several ranks,
// any rank's was at the last step (every rank then stops at the same
// batch, and rank 0 saves the checkpoint).
func (r *run) stopped(ctx context.Context) error {
	if !r.g.many() {
		return ctx.Err()
	}
	if r.interrupted {
		return context.Canceled
	}
	return nil
}

// reduce sums the gradients of the batch just trained over the ranks and
// returns the whole batch's numbers (Comm).
func (r *run) reduce(ctx context.Context, b Batch) (Batch, error) {
	if r.stream == nil {
		if _, err := r.g.sumGradients(r.opt.Params()); err != nil {
			return b, err
		}
	}
	all, interrupted, err := r.g.stats(b, ctx.Err() != nil)
	r.interrupted = r.interrupted || interrupted
	return all, err
}
