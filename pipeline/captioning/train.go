package captioning

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"

	"github.com/attend-go/attend/models/safetensors"
)

// The metrics that TrainOptions.Select may name.
const (
	SelectBLEU4  = "bleu4"
	SelectCIDErD = "cider"
)

// TrainOptions configures Train. The zero value of a field means the
// default noted.
type TrainOptions struct {
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
	// MinCount is how often a word must occur in the training captions
	// to enter the vocabulary (0 means 5, Karpathy's Flickr8k setting).
	MinCount int
	// MaxWords skips training captions longer than this (0 means 30).
	MaxWords int
	// MaxDev scores at most this many dev images per evaluation (0: all).
	MaxDev int
	// Config sizes a new model; Regions and FeatureDim come from the
	// cache. Ignored when resuming. With Init, its non-zero fields replace
	// the loaded model's settings (caption.Model.Reconfigure): the
	// training settings and the kind of attention may change, the sizes
	// must match.
	Config caption.Config
	// Init starts from this model file's weights (fine-tuning, or a hard
	// attention model started from a soft one); its vocabulary is kept.
	// The run scores it on dev before the first step, so the best model
	// is never worse on dev than the one it started from.
	Init string
	// OutDir receives last.safetensors (resumable checkpoint),
	// best.safetensors (the best model on dev) and train.log. Required.
	OutDir string
	// Resume continues from OutDir/last.safetensors; Overwrite starts
	// afresh even if it exists (without either, an existing checkpoint
	// is an error rather than silently lost work).
	Resume, Overwrite bool
	// BatchSize is captions per batch (0 means 32).
	BatchSize int
	// Epochs bounds the run (0 means 30); Patience stops it after that
	// many evaluations without a better selection metric (0 means 6);
	// MaxSteps stops it after that many optimizer steps (0: no limit).
	Epochs, Patience, MaxSteps int
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
	// LR is Adam's peak learning rate (0 means 4e-4), reached after
	// Warmup steps (0 means 200) and halved after DecayPatience
	// evaluations without improvement (0 means 2).
	LR            float64
	Warmup        int
	DecayPatience int
	// StepRound rounds each batch's decoder steps up to a multiple of it
	// (0 means 4), so that fewer graphs serve every batch: Flickr8k's
	// captions then need 7 graphs.
	StepRound int
	// CheckpointEvery is the interval between checkpoints (0 means 5 min);
	// LogEvery is the steps between log lines (0 means 50).
	CheckpointEvery time.Duration
	LogEvery        int
	// Snapshots keeps the weights after each dev evaluation as
	// OutDir/snapshot-STEP.safetensors, that many of the most recent, for
	// "caption average" to average (0 means none; see
	// pipeline.Snapshots). A fresh run with Overwrite removes the
	// snapshots of the run it replaces; without it, their presence is an
	// error.
	Snapshots int
	// MaxGraphs is the most compiled graphs kept in memory (0 means 8;
	// at B = 32, H = 512 on a 7×7×1280 grid each holds about 0.5 GB).
	MaxGraphs int
	// Workers decode dev in parallel (0 means 1).
	Workers int
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
	// Seed makes the run reproducible (initialization, batches, dropout,
	// SCST's samples).
	Seed uint64
	// Log receives progress lines (nil: discarded); they are also
	// appended to OutDir/train.log.
	Log io.Writer
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

func (o *TrainOptions) defaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MinCount, 5)
	def(&o.MaxWords, 30)
	def(&o.BatchSize, 32)
	def(&o.Epochs, 30)
	def(&o.Patience, 6)
	def(&o.Warmup, 200)
	def(&o.DecayPatience, 2)
	def(&o.StepRound, 4)
	def(&o.LogEvery, 50)
	def(&o.MaxGraphs, 8)
	def(&o.Workers, 1)
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
	if o.LR <= 0 {
		o.LR = 4e-4
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 5 * time.Minute
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
	case o.OutDir == "":
		return nil, errors.New("captioning: train: no output directory")
	case o.Select != SelectBLEU4 && o.Select != SelectCIDErD:
		return nil, fmt.Errorf("captioning: train: selection metric %q, want %q or %q", o.Select, SelectBLEU4, SelectCIDErD)
	case o.Resume && o.Overwrite:
		return nil, errors.New("captioning: train: Resume and Overwrite contradict each other")
	}
	if err := o.checkSCST(); err != nil {
		return nil, err
	}
	last := filepath.Join(o.OutDir, lastName)
	switch {
	case o.Resume && !fileExists(o.OutDir, lastName):
		return nil, fmt.Errorf("captioning: train: resume: %s does not exist", last)
	case !o.Resume && !o.Overwrite && fileExists(o.OutDir, lastName):
		return nil, fmt.Errorf("captioning: train: %s exists: resume it, or choose another output directory", last)
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

	logf, closeLog, err := pipeline.OpenTrainLog(o.OutDir, o.Log)
	if err != nil {
		return nil, fmt.Errorf("captioning: train: %w", err)
	}
	defer closeLog()
	snapshots := pipeline.Snapshots{Dir: o.OutDir, Keep: o.Snapshots}
	removed, err := snapshots.Prepare(o.Resume, o.Overwrite)
	if err != nil {
		return nil, fmt.Errorf("captioning: train: %w", err)
	}
	if removed > 0 {
		logf("removed the %d snapshots of the run replaced", removed)
	}

	// The model and optimizer: resumed, initialized from a file, or new.
	var (
		model *caption.Model
		opt   *models.Adam
		st    = trainState{BestValue: -1, LRScale: 1}
	)
	adamOpts := &models.AdamOptions{LR: o.LR}
	warm := o.Warmup
	adamOpts.Schedule = func(step int) float64 {
		return math.Min(1, float64(step)/float64(warm)) * st.LRScale
	}
	switch {
	case o.Resume:
		if model, opt, st, err = loadCheckpoint(last, adamOpts); err != nil {
			return nil, err
		}
		if want := objectiveOf(o); st.Objective != "" && st.Objective != want {
			return nil, fmt.Errorf("captioning: train: resume: %s is a checkpoint of %s training, not %s: resume it with the same objective (-scst or not)", last, st.Objective, want)
		}
		logf("resuming %s: epoch %d, batch %d, step %d, best dev %s %.4f", last, st.Epoch, st.Batch, st.Step, o.Select, st.BestValue)
	case o.Init != "":
		if model, err = LoadModel(o.Init); err != nil {
			return nil, err
		}
		if model, err = model.Reconfigure(o.Config); err != nil {
			return nil, fmt.Errorf("captioning: train: init model %s: %w", o.Init, err)
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
	if st.Epoch == 0 {
		st.Epoch = 1
	}
	trainer := caption.NewTrainer(model, o.Seed^0x5eed)
	if o.Resume {
		trainer.Baseline.Value = st.Baseline
	}

	exs, skipped := examples(trainImages, cache, model.Vocab, o.MaxWords)
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
	var scst *scstTrainer
	if o.SCST {
		if scst, err = newSCSTTrainer(&o, model, trainer, buckets, cache, trainImages); err != nil {
			return nil, err
		}
		logf("scst: %d images, %d per batch × %d samples, rewarded by CIDEr-D", len(scst.images), scst.per, scst.k)
	}
	reader := &featureReader{cache: cache}
	lastSave := time.Now()
	runStart := time.Now()
	secondsBefore := st.Seconds
	save := func() error {
		st.Seconds = secondsBefore + time.Since(runStart).Seconds()
		st.Baseline = trainer.Baseline.Value
		if err := saveCheckpoint(last, model, opt, st, note); err != nil {
			return fmt.Errorf("captioning: train: checkpoint: %w", err)
		}
		lastSave = time.Now()
		return nil
	}
	// Dev captions are searched as the caption command searches them by
	// default: without <unk>.
	search := &caption.SearchOptions{NoUnk: true}
	var evalLoss, evalN float64
	// evaluate scores dev, keeps the best model and decides on LR decay;
	// it reports whether patience ran out.
	evaluate := func() (bool, error) {
		start := time.Now()
		hyps, err := decodeSet(ctx, model, cache, devImages, o.Beam, o.Workers, search)
		if err != nil {
			return false, fmt.Errorf("captioning: train: dev: %w", err)
		}
		sc, err := scoreSet(devImages, hyps)
		if err != nil {
			return false, fmt.Errorf("captioning: train: dev: %w", err)
		}
		v := o.selection(sc)
		st.History = append(st.History, evalRecord{Epoch: st.Epoch, Step: st.Step, Loss: evalLoss / math.Max(1, evalN), Scores: sc})
		evalLoss, evalN = 0, 0
		improved := v > st.BestValue
		mark := " (best)"
		if improved {
			st.Best, st.BestValue, st.BestEpoch, st.BestStep, st.BadEvals = sc, v, st.Epoch, st.Step, 0
			if err := saveModel(sum.BestPath, model, note); err != nil {
				return false, fmt.Errorf("captioning: train: %w", err)
			}
		} else {
			st.BadEvals++
			if st.BadEvals%o.DecayPatience == 0 {
				st.LRScale /= 2
			}
			mark = fmt.Sprintf(" (best %s %.4f at epoch %d step %d)", o.Select, st.BestValue, st.BestEpoch, st.BestStep)
		}
		if err := snapshots.Save(st.Step, func() (*safetensors.File, error) { return modelFile(model, note) }); err != nil {
			return false, fmt.Errorf("captioning: train: snapshot: %w", err)
		}
		example := ""
		if len(hyps) > 0 {
			example = fmt.Sprintf("; %s: %q", devImages[0].ID, joinWords(hyps[0].Words))
		}
		logf("dev epoch %d step %d (%d images, %s, %v): %v%s%s", st.Epoch, st.Step, len(devImages), searchName(o.Beam),
			time.Since(start).Round(time.Second), sc, mark, example)
		return st.BadEvals >= o.Patience, nil
	}

	// A fine-tuning run scores the model it starts from first, so that
	// best.safetensors is never worse on dev than that model.
	if o.Init != "" && !o.Resume && st.Step == 0 {
		if _, err := evaluate(); err != nil {
			return sum, err
		}
	}
	for ; st.Epoch <= o.Epochs; st.Epoch++ {
		var batches [][]example
		numBatches := 0
		if scst != nil {
			numBatches = scst.planEpoch(st.Epoch)
		} else {
			batches = planEpoch(exs, o.BatchSize, o.Seed, st.Epoch)
			numBatches = len(batches)
		}
		epochStart, startBatch, tokens := time.Now(), st.Batch, 0
		var lossSum, rewardSum float64
		var lossN int
		stop := ""
		for bi := st.Batch; bi < numBatches && stop == ""; bi++ {
			if err := ctx.Err(); err != nil {
				if serr := save(); serr != nil {
					return sum, serr
				}
				logf("interrupted: checkpoint saved at epoch %d, batch %d", st.Epoch, st.Batch)
				sum.Stopped = "interrupted"
				return sum, err
			}
			var res batchResult
			if scst != nil {
				if res, err = scst.step(st.Epoch, bi); err != nil {
					return sum, fmt.Errorf("captioning: train: %w", err)
				}
			} else {
				batch, err := reader.batch(batches[bi])
				if err != nil {
					return sum, fmt.Errorf("captioning: train: %w", err)
				}
				key := caption.KeyFor(batch, o.StepRound)
				bt, err := model.MakeBatch(key, batch)
				if err != nil {
					return sum, fmt.Errorf("captioning: train: %w", err)
				}
				gr, err := buckets.Get(key)
				if err != nil {
					return sum, fmt.Errorf("captioning: train: %w", err)
				}
				loss, err := trainer.Run(gr, bt)
				if err != nil {
					return sum, fmt.Errorf("captioning: train: %w", err)
				}
				res = batchResult{tokens: bt.Tokens, loss: loss.CrossEntropy}
			}
			if _, err := opt.Step(); err != nil {
				return sum, fmt.Errorf("captioning: train: %w", err)
			}
			st.Step++
			st.Batch = bi + 1
			tokens += res.tokens
			if !math.IsNaN(res.loss) {
				lossSum += res.loss
				rewardSum += res.reward
				lossN++
				evalLoss += res.loss
				evalN++
			}
			if st.Step%o.LogEvery == 0 {
				el := time.Since(epochStart)
				perBatch := el / time.Duration(max(1, bi+1-startBatch))
				eta := time.Duration(numBatches-bi-1) * perBatch
				mean := lossSum / float64(max(1, lossN))
				what := fmt.Sprintf("xent %.4f (ppl %.1f)", mean, math.Exp(mean))
				if scst != nil {
					what = fmt.Sprintf("reward %.4f (CIDEr-D of the samples) loss %.4f", rewardSum/float64(max(1, lossN)), mean)
				}
				logf("epoch %d batch %d/%d step %d %s lr %.2g %.0f tok/s %.2f s/step %d graphs (%d builds) epoch ETA %v",
					st.Epoch, bi+1, numBatches, st.Step, what, opt.LR(),
					float64(tokens)/el.Seconds(), perBatch.Seconds(), buckets.Len(), buckets.Builds(), eta.Round(time.Second))
				lossSum, rewardSum, lossN = 0, 0, 0
			}
			if o.EvalEvery > 0 && st.Step%o.EvalEvery == 0 {
				done, err := evaluate()
				if err != nil {
					return sum, err
				}
				if done {
					stop = fmt.Sprintf("no dev improvement in %d evaluations", st.BadEvals)
				}
			}
			if o.MaxSteps > 0 && st.Step >= o.MaxSteps {
				stop = fmt.Sprintf("reached %d steps", st.Step)
			}
			if stop == "" && time.Since(lastSave) > o.CheckpointEvery {
				if err := save(); err != nil {
					return sum, err
				}
			}
		}
		logf("epoch %d done in %v", st.Epoch, time.Since(epochStart).Round(time.Second))
		if o.EvalEvery == 0 || st.BestEpoch == 0 && stop != "" {
			done, err := evaluate()
			if err != nil {
				return sum, err
			}
			if done && stop == "" {
				stop = fmt.Sprintf("no dev improvement in %d evaluations", st.BadEvals)
			}
		}
		if stop == "" && st.Epoch == o.Epochs {
			stop = fmt.Sprintf("reached %d epochs", st.Epoch)
		}
		st.Batch = 0
		st.Epoch++ // the checkpoint resumes at the next epoch
		if err := save(); err != nil {
			return sum, err
		}
		if stop != "" {
			sum.Stopped = stop
			break
		}
		st.Epoch--
	}
	sum.Epochs, sum.Steps = st.Epoch-1, st.Step
	sum.Best, sum.BestEpoch, sum.BestStep = st.Best, st.BestEpoch, st.BestStep
	logf("done (%s): best dev %v at epoch %d step %d; %d steps in %v", sum.Stopped, sum.Best, sum.BestEpoch, sum.BestStep,
		sum.Steps, time.Duration(st.Seconds*float64(time.Second)).Round(time.Second))
	return sum, nil
}

func searchName(beam int) string {
	if beam > 1 {
		return fmt.Sprintf("beam %d", beam)
	}
	return "greedy"
}
