package captioning

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// The metrics that TrainOptions.Select may name.
const (
	SelectBLEU4  = "bleu4"
	SelectCIDErD = "cider"
)

// TrainOptions configures Train. The zero value of a field means the
// default noted.
type TrainOptions struct {
	// Setup holds the options every trainer shares; TrainDefaults gives
	// its zero fields their values. Init starts from a model file's
	// weights (fine-tuning, or a hard attention model started from a soft
	// one) and keeps its vocabulary; the run scores it on dev before the
	// first step, so the best model is never worse on dev than the one it
	// started from. Seed draws the initialization, batches, dropout and
	// SCST's samples; Snapshots are for "caption average".
	trainloop.Setup
	// Dataset is a caption dataset captiondata.Read understands: a
	// Flickr8k directory, a Karpathy split file or a COCO caption file.
	// Required.
	Dataset string
	// Images is the directory of its image files ("": the dataset's own).
	Images string
	// TrainSplit and DevSplit name the splits trained on and scored
	// ("train" and "dev"; "dev" and "val" are the same split).
	TrainSplit, DevSplit string
	// DevDataset reads the dev split from another dataset file, such as a
	// COCO val file ("": Dataset).
	DevDataset string
	// Cache is the feature cache holding every train and dev image
	// (built by "caption features"). Required.
	Cache string
	// MirrorCache, if set, is a second cache of the training images
	// flipped left to right ("caption features -mirror"): each training
	// caption is then read with its image or, at random, with the mirror
	// image, "left" and "right" swapped (mirror.go). Cross-entropy
	// training only.
	MirrorCache string
	// MinCount is how often a word must occur in the training captions
	// to enter the vocabulary (0 means 5, Karpathy's Flickr8k setting).
	MinCount int
	// MaxWords skips training captions longer than this (0 means 30).
	MaxWords int
	// MaxDev scores at most this many dev images per evaluation (0: all).
	MaxDev int
	// Config sizes a new model (start from caption.DefaultConfig);
	// Regions and FeatureDim come from the cache. Ignored when resuming
	// or with Init.
	Config caption.Config
	// Reconfigure, with Init, edits the loaded model's config before
	// training (caption.Model.Reconfigure): the training settings and the
	// kind of attention may change, the sizes must not. nil keeps the
	// loaded model's config.
	Reconfigure func(*caption.Config)
	// EvalEvery scores dev after every that many steps (0: after each
	// epoch). Patience and DecayPatience count evaluations.
	EvalEvery int
	// Select is the dev metric that picks the best model: SelectBLEU4
	// (the default; the paper's headline number) or SelectCIDErD (which
	// tracks human judgement better).
	Select string
	// Beam is the dev search's beam width (0 or 1: greedy search, about
	// k times faster than beam k).
	Beam int
	// StepRound rounds each batch's decoder steps up to a multiple of it
	// (0 means 4), so that fewer graphs serve every batch: Flickr8k's
	// captions then need 7 graphs.
	StepRound int
	// SCST fine-tunes by self-critical sequence training on CIDEr-D
	// instead of cross-entropy (see scst.go): an epoch visits each
	// training image once, a batch holds BatchSize/SCSTSamples images
	// (at least one) with SCSTSamples captions sampled from each. It
	// needs Init (or Resume) and soft attention, and turns label
	// smoothing and the attention penalty off. The dev history's loss is
	// then the policy-gradient surrogate.
	SCST bool
	// SCSTSamples is the captions sampled per image, K ≥ 2 (0 means 5).
	SCSTSamples int
	// Accumulate runs each batch (each rank's part of it under MPI) as
	// that many sub-batches one after another, adding their gradients
	// before the one optimizer step (gradient accumulation; 0 or 1: one
	// graph per batch). A batch of B then needs the activation memory of
	// B/Accumulate. Without dropout, one process with Accumulate N takes
	// bit for bit the steps of N MPI ranks: the same sub-batches, their
	// gradients added in rank order. Cross-entropy training only.
	Accumulate int
}

// TrainSummary is what a finished (or stopped) run reached.
type TrainSummary struct {
	Epochs int `json:"epochs"`
	Steps  int `json:"steps"`
	// Best holds the dev scores of the best model, found at BestEpoch
	// (and BestStep).
	Best      metrics.CaptionScores `json:"best"`
	BestEpoch int                   `json:"best_epoch"`
	BestStep  int                   `json:"best_step"`
	// TrainImages and TrainCaptions count what was trained on;
	// SkippedCaptions those too long or empty; DevImages what was scored.
	TrainImages     int    `json:"train_images"`
	TrainCaptions   int    `json:"train_captions"`
	SkippedCaptions int    `json:"skipped_captions"`
	DevImages       int    `json:"dev_images"`
	Vocab           int    `json:"vocab"`
	BestPath        string `json:"best_model"` // the best model's file
	Stopped         string `json:"stopped"`    // why training ended
}

// TrainDefaults returns the values of the zero fields of
// TrainOptions.Setup, also caption train's flag defaults: 32 captions a
// batch, 30 epochs at most, 6 evaluations without a better selection
// metric to stop, a peak rate of 4e-4 reached over 200 steps and halved
// after 2 evaluations without improvement, 50 steps between log lines, 8
// graphs in memory (at B = 32, H = 512 on a 7×7×1280 grid each holds
// about 0.5 GB) and 1 worker decoding dev.
func TrainDefaults() trainloop.Setup {
	return trainloop.Setup{BatchSize: 32, Epochs: 30, Patience: 6, LR: 4e-4, Warmup: 200, DecayPatience: 2,
		LogEvery: 50, MaxGraphs: 8, Workers: 1}
}

func (o *TrainOptions) defaults() {
	o.SetDefaults(TrainDefaults())
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MinCount, 5)
	def(&o.MaxWords, 30)
	def(&o.StepRound, 4)
	def(&o.SCSTSamples, 5)
	if o.TrainSplit == "" {
		o.TrainSplit = "train"
	}
	if o.DevSplit == "" {
		o.DevSplit = "dev"
	}
	if o.DevDataset == "" {
		o.DevDataset = o.Dataset
	}
	if o.Select == "" {
		o.Select = SelectBLEU4
	}
}

// selection returns the value of the metric that picks the best model.
func (o *TrainOptions) selection(s metrics.CaptionScores) float64 {
	if o.Select == SelectCIDErD {
		return s.CIDErD
	}
	return s.BLEU[3]
}

// Train trains (or resumes training) a caption decoder on features from a
// cache; see TrainOptions and the package documentation. It checkpoints
// every few minutes and when ctx is cancelled, so a killed or interrupted
// run loses at most CheckpointEvery of work.
func Train(ctx context.Context, o TrainOptions) (*TrainSummary, error) {
	o.defaults()
	switch {
	case o.Dataset == "":
		return nil, errors.New("captioning: train: no dataset")
	case o.Select != SelectBLEU4 && o.Select != SelectCIDErD:
		return nil, fmt.Errorf("captioning: train: selection metric %q, want %q or %q", o.Select, SelectBLEU4, SelectCIDErD)
	}
	if err := o.checkSCST(); err != nil {
		return nil, err
	}
	rank, ranks := o.Ranks()
	switch {
	case o.SCST && o.MirrorCache != "":
		return nil, errors.New("captioning: train: a mirror cache serves cross-entropy training; self-critical training (-scst) reads the training cache alone")
	case ranks > 1 && o.SCST:
		return nil, errors.New("captioning: train: self-critical training (-scst) runs in one process: data-parallel training over MPI ranks covers cross-entropy training only")
	case ranks*max(o.Accumulate, 1) > o.BatchSize:
		return nil, fmt.Errorf("captioning: train: batches of %d captions cannot be split over %d ranks × %d sub-batches (-accumulate): give each at least one (-batch %d or more)", o.BatchSize, ranks, max(o.Accumulate, 1), ranks*max(o.Accumulate, 1))
	}
	origin, err := o.Start(trainName)
	if err != nil {
		return nil, err
	}

	// Data first: a missing cache should fail before anything is written.
	trainImages, err := captiondata.Read(o.Dataset, o.TrainSplit, o.Images)
	if err != nil {
		return nil, err
	}
	devImages, err := captiondata.Read(o.DevDataset, o.DevSplit, o.Images)
	if err != nil {
		return nil, err
	}
	if o.MaxDev > 0 && len(devImages) > o.MaxDev {
		devImages = devImages[:o.MaxDev]
	}
	cache, err := openCache(o.Cache, o.Dataset, o.TrainSplit+","+o.DevSplit, trainImages, devImages)
	if err != nil {
		return nil, err
	}
	defer cache.Close()
	note := featuresNote(cache)
	logf, snapshots, end, err := o.Begin(trainName)
	if err != nil {
		return nil, err
	}
	defer end()

	// The model and optimizer: resumed, initialized from a file, or new.
	var (
		model *caption.Model
		opt   *models.Adam
		st    = trainState{State: trainloop.NewState(-1)}
	)
	adamOpts := o.Adam(&st.State)
	switch origin {
	case trainloop.FromCheckpoint:
		last := filepath.Join(o.OutDir, lastName)
		if model, opt, st, err = loadCheckpoint(last, adamOpts); err != nil {
			return nil, err
		}
		if want := objectiveOf(o); st.Objective != "" && st.Objective != want {
			return nil, fmt.Errorf("captioning: train: resume: %s is a checkpoint of %s training, not %s: resume it with the same objective (-scst or not)", last, st.Objective, want)
		}
		logf("resuming %s: epoch %d, batch %d, step %d, best dev %s %.4f", last, st.Epoch, st.Batch, st.Step, o.Select, st.BestValue)
	case trainloop.FromInit:
		if model, err = LoadModel(o.Init); err != nil {
			return nil, err
		}
		if o.Reconfigure != nil {
			cfg := model.Config
			o.Reconfigure(&cfg)
			if model, err = model.Reconfigure(cfg); err != nil {
				return nil, fmt.Errorf("captioning: train: init model %s: %w", o.Init, err)
			}
		}
	default:
		vocab, err := caption.BuildVocab(tokenized(trainImages), o.MinCount)
		if err != nil {
			return nil, fmt.Errorf("captioning: train: %w", err)
		}
		cfg := o.Config
		cfg.Regions, cfg.FeatureDim = cache.Spec().Regions(), cache.Spec().D
		if model, err = caption.New(cfg, vocab, o.Seed); err != nil {
			return nil, fmt.Errorf("captioning: train: %w", err)
		}
	}
	if err := checkGrid(model, cache); err != nil {
		return nil, err
	}
	if o.SCST {
		if err := prepareSCST(model, logf); err != nil {
			return nil, err
		}
	}
	if opt == nil {
		opt = models.NewAdam(model.Params, adamOpts)
	}
	st.Objective = objectiveOf(o)
	// Each rank draws its own dropout masks and hard-attention samples;
	// rank 0's are those of a run in one process.
	trainer := caption.NewTrainer(model, o.Seed^0x5eed+uint64(rank)<<40)
	if o.Resume {
		trainer.Baseline.Value = st.Baseline
	}

	exs, skipped := examples(trainImages, cache, model.Vocab, o.MaxWords)
	reader := &featureReader{cache: cache}
	if o.MirrorCache != "" {
		if reader.mirror, err = openMirrorCache(o.MirrorCache, o.Dataset, o.TrainSplit, cache, trainImages); err != nil {
			return nil, err
		}
		defer reader.mirror.Close()
		if err := withMirrors(exs, cache, reader.mirror, model.Vocab); err != nil {
			return nil, err
		}
		logf("mirror: each caption read with its image or, at random, its mirror image from %s", o.MirrorCache)
	}
	if len(exs) < o.BatchSize {
		return nil, fmt.Errorf("captioning: train: %d training captions, fewer than one batch of %d", len(exs), o.BatchSize)
	}
	sum := &TrainSummary{
		TrainImages: len(trainImages), TrainCaptions: len(exs), SkippedCaptions: skipped,
		DevImages: len(devImages), Vocab: model.Vocab.Size(), BestPath: filepath.Join(o.OutDir, bestName),
	}
	logf("model: %d parameters, config %+v", model.Params.Count(), model.Config)
	logf("data: %d training images, %d captions (%d skipped: empty or over %d words), vocabulary %d (words seen %d+ times), %d dev images; features %s",
		len(trainImages), len(exs), skipped, o.MaxWords, model.Vocab.Size(), o.MinCount, len(devImages), note)

	buckets := models.NewBuckets(model.Params, trainer.BuildLoss)
	buckets.MaxGraphs = o.MaxGraphs
	defer buckets.Close()
	task := &trainTask{o: &o, model: model, st: &st, trainer: trainer, buckets: buckets, cache: cache,
		reader: reader, exs: exs, devImages: devImages, note: note, logf: logf}
	if o.SCST {
		if task.scst, err = newSCSTTrainer(&o, model, trainer, buckets, cache, trainImages); err != nil {
			return nil, err
		}
		logf("scst: %d images, %d per batch × %d samples, rewarded by CIDEr-D", len(task.scst.images), task.scst.per, task.scst.k)
	}
	loop := o.LoopOptions(trainName, snapshots, logf)
	loop.PatienceStop, loop.Graphs = "no dev improvement in %d evaluations", buckets
	loop.EvalEvery, loop.EvalFirst = o.EvalEvery, origin == trainloop.FromInit
	sum.Stopped, err = trainloop.Run(ctx, loop, &st.State, opt, task)
	if err != nil {
		return sum, err
	}
	sum.Epochs, sum.Steps = st.Epoch-1, st.Step
	sum.Best, sum.BestEpoch, sum.BestStep = st.Best, st.BestEpoch, st.BestStep
	logf("done (%s): best dev %v at epoch %d step %d; %d steps in %v", sum.Stopped, sum.Best, sum.BestEpoch, sum.BestStep,
		sum.Steps, time.Duration(st.Seconds*float64(time.Second)).Round(time.Second))
	return sum, nil
}

// trainTask is the caption decoder's part of the training loop.
type trainTask struct {
	o         *TrainOptions
	model     *caption.Model
	st        *trainState
	trainer   *caption.Trainer
	buckets   *models.Buckets[caption.BatchKey, *caption.Inputs]
	cache     *captiondata.Cache
	reader    *featureReader
	scst      *scstTrainer // nil: cross-entropy training
	exs       []example
	devImages []captiondata.Image
	note      string // the features note of every model file
	logf      func(string, ...any)

	batches    [][]example // the epoch's plan (cross-entropy)
	epochStart time.Time
	evalLoss   float64 // training loss since the last evaluation
	evalN      float64
	evalStart  time.Time
	lastScores metrics.CaptionScores
	lastHyps   []caption.Hypothesis
}

func (t *trainTask) Plan(epoch int) (int, error) {
	t.epochStart = time.Now()
	if t.scst != nil {
		return t.scst.planEpoch(epoch), nil
	}
	t.batches = planEpoch(t.exs, t.o.BatchSize, t.o.Seed, epoch)
	if t.reader.mirror != nil {
		chooseViews(t.batches, t.o.Seed, epoch)
	}
	return len(t.batches), nil
}

func (t *trainTask) Train(_ context.Context, epoch, bi int) (trainloop.Batch, error) {
	var res batchResult
	if t.scst != nil {
		var err error
		if res, err = t.scst.step(epoch, bi); err != nil {
			return trainloop.Batch{}, err
		}
	} else {
		share, total := t.share(t.batches[bi])
		parts := max(t.o.Accumulate, 1)
		for p := range parts {
			n := len(share)
			tokens, loss, err := t.crossEntropy(share[p*n/parts:(p+1)*n/parts], total)
			if err != nil {
				return trainloop.Batch{}, err
			}
			res.tokens += tokens
			res.loss += loss
		}
	}
	return trainloop.Batch{Tokens: res.tokens, Loss: res.loss, Reward: res.reward}, nil
}

// crossEntropy runs the graph of one sub-batch, adding its gradients
// into the parameters', and returns its target tokens and its
// cross-entropy; the loss is divided by total, the target tokens of the
// whole batch (caption.Batch.Share), so that the sub-batches' gradients
// and losses add up to the batch's.
func (t *trainTask) crossEntropy(exs []example, total int) (tokens int, xent float64, err error) {
	batch, err := t.reader.batch(exs)
	if err != nil {
		return 0, 0, err
	}
	key := caption.KeyFor(batch, t.o.StepRound)
	bt, err := t.model.MakeBatch(key, batch)
	if err == nil && total != bt.Tokens {
		err = bt.Share(total)
	}
	if err != nil {
		return 0, 0, err
	}
	gr, err := t.buckets.Get(key)
	if err != nil {
		return 0, 0, err
	}
	loss, err := t.trainer.Run(gr, bt)
	if err != nil {
		return 0, 0, err
	}
	return bt.Tokens, loss.CrossEntropy, nil
}

// Stepped sums the training loss between evaluations, for the history.
func (t *trainTask) Stepped(b trainloop.Batch) {
	if !math.IsNaN(b.Loss) {
		t.evalLoss += b.Loss
		t.evalN++
	}
}

// share returns this rank's part of a batch (rank k of N: captions
// ⌊kB/N⌋ to ⌊(k+1)B/N⌋) and the target tokens of the whole batch, which
// divide every share's loss (caption.Batch.Share).
func (t *trainTask) share(batch []example) (mine []example, total int) {
	rank, ranks := t.o.Ranks()
	for _, e := range batch {
		total += len(e.tokens) + 1
	}
	B := len(batch)
	return batch[rank*B/ranks : (rank+1)*B/ranks], total
}

// Progress reports the cross-entropy and perplexity (SCST: the reward
// and the surrogate loss) and the seconds per step.
func (t *trainTask) Progress(p trainloop.Progress) (what, rate string) {
	what = fmt.Sprintf("xent %.6f (ppl %.1f)", p.Loss, math.Exp(p.Loss))
	if t.scst != nil {
		what = fmt.Sprintf("reward %.4f (CIDEr-D of the samples) loss %.4f", p.Reward, p.Loss)
	}
	return what, fmt.Sprintf("%.2f s/step", p.PerBatch.Seconds())
}

func (t *trainTask) EpochDone(p trainloop.Progress) {
	t.logf("epoch %d done in %v", p.Epoch, time.Since(t.epochStart).Round(time.Second))
}

// Evaluate decodes the dev images as the caption command does by default
// (caption.DefaultSearchOptions: no bigram twice, repeats penalized;
// without <unk>) and scores them: the selection metric picks the best
// model. Every evaluation enters the checkpoint's history.
func (t *trainTask) Evaluate(ctx context.Context, st *trainloop.State) (float64, error) {
	t.evalStart = time.Now()
	search := caption.DefaultSearchOptions()
	search.NoUnk = true
	hyps, err := decodeSet(ctx, t.model, t.cache, t.devImages, t.o.Beam, t.o.Workers, &search, nil)
	if err != nil {
		return 0, err
	}
	sc, err := scoreSet(t.devImages, hyps)
	if err != nil {
		return 0, err
	}
	t.st.History = append(t.st.History, evalRecord{Epoch: st.Epoch, Step: st.Step, Loss: t.evalLoss / math.Max(1, t.evalN), Scores: sc})
	t.evalLoss, t.evalN = 0, 0
	t.lastScores, t.lastHyps = sc, hyps
	return t.o.selection(sc), nil
}

func (t *trainTask) Evaluated(st *trainloop.State, improved bool) {
	mark := " (best)"
	if improved {
		t.st.Best = t.lastScores
	} else {
		mark = fmt.Sprintf(" (best %s %.4f at epoch %d step %d)", t.o.Select, st.BestValue, st.BestEpoch, st.BestStep)
	}
	example := ""
	if len(t.lastHyps) > 0 {
		example = fmt.Sprintf("; %s: %q", t.devImages[0].ID, joinWords(t.lastHyps[0].Words))
	}
	t.logf("dev epoch %d step %d (%d images, %s, %v): %v%s%s", st.Epoch, st.Step, len(t.devImages), searchName(t.o.Beam),
		time.Since(t.evalStart).Round(time.Second), t.lastScores, mark, example)
}

func (t *trainTask) File() (*safetensors.File, error) { return modelFile(t.model, t.note) }

// CheckpointState is trainState, with the hard-attention baseline as it
// is now.
func (t *trainTask) CheckpointState(*trainloop.State) any {
	t.st.Baseline = t.trainer.Baseline.Value
	return t.st
}

func searchName(beam int) string {
	if beam > 1 {
		return fmt.Sprintf("beam %d", beam)
	}
	return "greedy"
}
