package speechtrain

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speecheval"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/trainloop"
)

// TrainOptions configures Train. The zero value of a field means the
// default noted.
type TrainOptions struct {
	// Setup holds the options every trainer shares; TrainDefaults gives
	// its zero fields their values. Seed draws the dev split, batches,
	// masks and initialization; Snapshots are for "asr average"; BF16
	// steps about 1.6× faster on one core, 1.4× on two (2.1× with 2
	// Replicas on idle cores).
	trainloop.Setup
	// Train lists the training manifests (TSV, LibriSpeech or Kaldi
	// directories; see speechdata.Read). Required.
	Train []string
	// Dev lists dev manifests. Without them the dev set is DevSpeakers
	// whole speakers held out of the first training manifest (never
	// trained on).
	Dev         []string
	DevSpeakers int // 0 means 12
	// MaxDev caps the dev utterances scored each epoch (0: all).
	MaxDev int
	// Config sizes a new model (ignored when resuming or with Init).
	Config asr.Config
	// With Setup.Init and Config.PhoneCTCWeight > 0 the model gets a
	// phone CTC head of that weight on Config.PhoneCTCLayer, freshly
	// initialized from Seed when the file has none (asr.Model.AddPhoneCTC).
	//
	// InitListenerLayers, with Init, is the listener depth to train (0:
	// the file's). A model with fewer layers grows to it by flat residual
	// layers on top (asr.Model.AddListenerLayers: drawn from Seed, their
	// output gates damped so that training starts from nearly the loaded
	// model's function); one with more is ErrListenerDepth.
	// InitListenerFlat, if not 0, is the number of flat layers the model
	// must then have (ErrListenerFlat otherwise). Growing comes before
	// the phone head, so the head may read a new layer.
	InitListenerLayers, InitListenerFlat int
	// Pronunciations is the CMU-format pronouncing dictionary the phone
	// CTC head's targets come from (empty:
	// speechdata.DefaultPronunciations); only a model with the head reads
	// it, and without it Train fails with ErrNoPronunciations. Training
	// utterances with a word not in it get no phone loss.
	Pronunciations string
	// NoSpecAugment turns SpecAugment off (default on: 2 frequency masks
	// of ≤ 27 bins and 2 time masks of ≤ 40 frames per utterance).
	NoSpecAugment bool
	// Telephone is the fraction of training audio passed through a
	// telephone line: 4 kHz band, G.711 µ-law or A-law (0 means none).
	Telephone float64
	// Speeds are speed-perturbation factors in [MinSpeed, MaxSpeed]: each
	// other than 1 adds a copy of every training utterance played that
	// much faster (LoadOptions.Speeds; Kaldi's recipes use 0.9 and 1.1,
	// tripling the data). Empty means none; dev audio is never changed.
	Speeds []float64
	// Augment adds that many augmented copies (0 to MaxAugment; 0 means
	// none) of every training utterance not in a Synthetic manifest, each
	// with its own seeded VTLP warp, reverberation, noise or babble and
	// telephone band (LoadOptions.Augment); dev audio is never changed.
	Augment int
	// VTLP is the range of the copies' VTLP factors, within
	// [MinWarp, MaxWarp] (zero value: DefaultWarp, 0.85–1.2;
	// {1, 1}: no warp).
	VTLP [2]float64
	// Synthetic lists those of the Train manifests that hold synthetic
	// speech, augmented when rendered: trained on once, with neither
	// speed nor augmented copies, and counted apart in the log.
	Synthetic []string
	// NoiseDirs are directories of non-speech sounds for augmented copies
	// (LoadOptions.NoiseDirs); they need Augment.
	NoiseDirs []string
	// Replicas is how many sub-batches each batch is split into, each
	// run in its own graph on its own goroutine (models.Replicas), from
	// 1 to min(MaxReplicas, BatchSize); 0 means 1, one graph per batch.
	// The result depends on Replicas (float rounding, dropout masks) but
	// not on GOMAXPROCS. On two otherwise idle cores 2 replicas train
	// about 15% faster than 1 (the fused ops' own threading scales a step
	// 1.5×, two replicas 1.8×), but each step costs 3–5% more CPU and
	// each replica compiles its own graphs (about 60 MB more per batch
	// shape), so with a core taken by other work they are about 10%
	// slower.
	Replicas int
}

// TrainSummary is what a finished (or stopped) run reached.
type TrainSummary struct {
	Epochs     int     `json:"epochs"`
	Steps      int     `json:"steps"`
	BestCER    float64 `json:"best_cer"`
	BestWER    float64 `json:"best_wer"`
	BestEpoch  int     `json:"best_epoch"`
	TrainUtts  int     `json:"train_utts"`
	DevUtts    int     `json:"dev_utts"`
	TrainHours float64 `json:"train_hours"`
	Best       string  `json:"best_model"` // path of the best model
	Stopped    string  `json:"stopped"`    // why training ended
}

// TrainDefaults returns what Train gives the zero fields of
// TrainOptions.Setup, and asr train shows as its flags' defaults: batches
// of 16 utterances, at most 200 epochs, a stop after 10 epochs without a
// better dev CER, Adam's rate 1e-3 after a warm-up of 500 steps, halved
// after 3 epochs without improvement, a log line every 25 steps, at most
// 12 graphs per replica (each holds hundreds of MB for a batch of 16,
// about half that for a replica's half batch) and 2 workers loading data
// and scoring dev.
func TrainDefaults() trainloop.Setup {
	return trainloop.Setup{BatchSize: 16, Epochs: 200, Patience: 10, LR: 1e-3, Warmup: 500, DecayPatience: 3,
		LogEvery: 25, MaxGraphs: 12, Workers: 2}
}

func (o *TrainOptions) defaults() {
	o.SetDefaults(TrainDefaults())
	if o.DevSpeakers <= 0 {
		o.DevSpeakers = 12
	}
	if o.Replicas == 0 {
		o.Replicas = 1
	}
}

// Errors of Train's choice between resuming, overwriting and starting
// afresh (trainloop.Setup.Start); the command line says which flags fix
// them.
var (
	ErrResumeOverwrite  = trainloop.ErrResumeOverwrite
	ErrNothingToResume  = trainloop.ErrNothingToResume
	ErrCheckpointExists = trainloop.ErrCheckpointExists
)

// MaxReplicas is the most replicas Train accepts (TrainOptions.Replicas).
const MaxReplicas = models.MaxReplicas

// ErrReplicas reports a Replicas option out of range.
var ErrReplicas = errors.New("replicas out of range")

// Train trains (or resumes training) an ASR model; see TrainOptions. It
// checkpoints every few minutes and when ctx is cancelled, so a killed or
// interrupted run loses at most CheckpointEvery of work.
func Train(ctx context.Context, o TrainOptions) (*TrainSummary, error) {
	o.defaults()
	if len(o.Train) == 0 {
		return nil, errors.New("speechtrain: no training manifest")
	}
	if !(o.Telephone >= 0 && o.Telephone <= 1) {
		return nil, fmt.Errorf("speechtrain: telephone fraction %g outside [0, 1]", o.Telephone)
	}
	for _, f := range o.Speeds {
		if !(f >= MinSpeed && f <= MaxSpeed) {
			return nil, fmt.Errorf("speechtrain: speed factor %g outside [%g, %g]", f, MinSpeed, MaxSpeed)
		}
	}
	if err := o.checkAugment(); err != nil {
		return nil, err
	}
	if err := o.checkReplicas(); err != nil {
		return nil, err
	}
	rank, ranks := o.Ranks()
	if parts := ranks * o.Replicas; parts > o.BatchSize {
		return nil, fmt.Errorf("speech: train: batches of %d utterances cannot be split over %d ranks × %d replicas: give each at least one (-batch %d or more)", o.BatchSize, ranks, o.Replicas, parts)
	}
	origin, err := o.Start(trainName)
	if err != nil {
		return nil, err
	}
	logf, snapshots, end, err := o.Begin(trainName)
	if err != nil {
		return nil, err
	}
	defer end()

	// The model and optimizer: resumed, initialized from a file, or new.
	var (
		model *asr.Model
		opt   *models.Adam
		st    = newTrainState()
	)
	adamOpts := o.Adam(&st.State)
	switch origin {
	case trainloop.FromCheckpoint:
		last := filepath.Join(o.OutDir, lastName)
		var c trainCheckpoint
		model, opt, err = trainloop.LoadCheckpoint(last, &c, asr.Load, func(m *asr.Model) *models.Params { return m.Params }, adamOpts, func() int { return c.Step })
		if err != nil {
			return nil, fmt.Errorf("speechtrain: %w", err)
		}
		st = c.state()
		logf("resuming %s: epoch %d, batch %d, step %d, best dev CER %.2f%%", last, st.Epoch, st.Batch, st.Step, 100*st.BestValue)
	case trainloop.FromInit:
		if model, err = speechmodel.LoadModel(o.Init); err != nil {
			return nil, err
		}
		if n, err := growListener(model, &o); err != nil {
			return nil, err
		} else if n > 0 {
			logf("added %d residual listener layer(s) to %s (now %d layers, the top %d flat; output gates biased to −3), initialized from seed %d",
				n, o.Init, model.Config.ListenerLayers, model.Config.ListenerFlat, o.Seed)
		}
		if w := o.Config.PhoneCTCWeight; w > 0 {
			hadHead := model.PhoneCTC != nil
			if err := model.AddPhoneCTC(w, o.Config.PhoneCTCLayer, o.Seed); err != nil {
				return nil, fmt.Errorf("speechtrain: %s: %w", o.Init, err)
			}
			if !hadHead {
				logf("added a phone CTC head (weight %g, listener layer %d) to %s, initialized from seed %d", w, o.Config.PhoneCTCLayer, o.Init, o.Seed)
			}
		}
	default:
		if model, err = asr.New(o.Config, nil, o.Seed); err != nil {
			return nil, err
		}
	}
	var dict *speechdata.Pronunciations
	if model.PhoneCTC != nil {
		var path string
		if dict, path, err = readPronunciations(o.Pronunciations); err != nil {
			return nil, err
		}
		o.Pronunciations = path
	}
	if opt == nil {
		opt = models.NewAdam(model.Params, adamOpts)
	}
	train, dev, err := o.loadData(ctx, model.Vocab, logf)
	if err != nil {
		return nil, err
	}
	if dict != nil {
		cov, err := setPhones(train, dict, o.Pronunciations)
		if err != nil {
			return nil, err
		}
		logf("phone CTC targets from %s (%d words): %d training utterances have them, %d have a word it lacks and get no phone loss%s",
			o.Pronunciations, dict.Len(), cov.with, cov.without, missingWords(cov.missing))
		// The dev utterances' phones score the head's best path (phone
		// error rate) at each evaluation.
		if _, err := setPhones(dev, dict, o.Pronunciations); err != nil {
			return nil, err
		}
	}
	st.TrainUtts = len(train)
	st.TrainHours = 0
	for _, u := range train {
		st.TrainHours += u.Seconds / 3600
	}
	if len(train) < o.BatchSize {
		return nil, fmt.Errorf("speechtrain: %d training utterances, fewer than one batch of %d", len(train), o.BatchSize)
	}
	logf("model: %d parameters, config %+v", model.Params.Count(), model.Config)
	logf("data: %s; %d dev utterances", describeMix(train), len(dev))

	// Rank k runs sub-batches k·R … k·R+R−1 of the batch's N·R (N ranks of
	// R replicas); a sub-batch's dropout masks depend on its index alone.
	replicas := models.NewReplicas(model.Params, o.Replicas, func(r int) models.BuildFunc[asr.BatchKey, asr.Inputs] {
		return model.BuildFunc(dropoutRand(o.Seed, rank*o.Replicas+r))
	})
	replicas.SetMaxGraphs(o.MaxGraphs)
	defer replicas.Close()
	var grid bucketGrid
	for _, b := range replicaSizes(o.BatchSize, ranks*o.Replicas) {
		grid = append(grid, newBucketGrid(train, model, b)...)
	}
	logf("batch shapes (utterances × stacked frames × speller steps): %v; %d replicas%s", grid, o.Replicas, ranksNote(ranks))
	sum := &TrainSummary{TrainUtts: len(train), DevUtts: len(dev), TrainHours: st.TrainHours, Best: filepath.Join(o.OutDir, bestName)}
	task := &trainTask{o: &o, model: model, st: &st, train: train, dev: dev, grid: grid, replicas: replicas, logf: logf}
	if !o.NoSpecAugment {
		task.augment = &audio.SpecAugmentOptions{}
	}
	loop := o.LoopOptions(trainName, snapshots, logf)
	loop.PatienceStop, loop.LowerIsBetter, loop.Graphs = "no dev improvement for %d epochs", true, replicas
	sum.Stopped, err = trainloop.Run(ctx, loop, &st.State, opt, task)
	if err != nil {
		return sum, err
	}
	sum.Epochs, sum.Steps = st.Epoch-1, st.Step
	sum.BestCER, sum.BestWER, sum.BestEpoch = st.BestValue, st.BestWER, st.BestEpoch
	logf("done (%s): best dev CER %.2f%% WER %.2f%% at epoch %d, %d steps, %v", sum.Stopped, 100*sum.BestCER, 100*sum.BestWER, sum.BestEpoch, sum.Steps, time.Duration(st.Seconds*float64(time.Second)).Round(time.Second))
	return sum, nil
}

// trainTask is the speech model's part of the training loop.
type trainTask struct {
	o          *TrainOptions
	model      *asr.Model
	st         *trainState
	train, dev []*utterance
	grid       bucketGrid
	replicas   *models.Replicas[asr.BatchKey, asr.Inputs]
	augment    *audio.SpecAugmentOptions
	logf       func(string, ...any)

	batches    [][]asr.Example // the epoch's plan
	phoneLoss  float64         // Σ of the per-phone phone CTC losses since the last progress line
	phoneRuns  int             // batches with phone targets since then
	epochStart time.Time
	last       speecheval.Scores // the last evaluation's, for its log line
}

// Stream makes Train sum the gradients over the ranks during the
// backward pass (trainloop.Streamer).
func (t *trainTask) Stream(s *models.GradStream) { t.replicas.SetStream(s) }

func (t *trainTask) Plan(epoch int) (int, error) {
	t.batches = planEpoch(t.train, t.o.BatchSize, t.o.Seed, epoch)
	t.epochStart = time.Now()
	return len(t.batches), nil
}

func (t *trainTask) Train(_ context.Context, epoch, bi int) (trainloop.Batch, error) {
	exs := t.batches[bi]
	rng := rand.New(rand.NewPCG(t.o.Seed^uint64(epoch)<<20, uint64(bi)))
	if t.augment != nil {
		exs = specAugment(exs, t.model.Config.MelBins, t.augment, rng)
	}
	// Every rank lays out the whole batch (the loss is normalized by its
	// counts) and runs its own R of the N·R sub-batches.
	rank, ranks := t.o.Ranks()
	R := t.replicas.N()
	parts := asr.SplitExamples(exs, ranks*R)
	keys := make([]asr.BatchKey, len(parts))
	for i, p := range parts {
		keys[i] = t.grid.key(t.model, p)
	}
	bts, err := t.model.MakeBatches(keys, parts)
	if err != nil {
		return trainloop.Batch{}, err
	}
	bts, keys = bts[rank*R:(rank+1)*R], keys[rank*R:(rank+1)*R]
	var audioSeconds float64 // of this rank's share: the loop sums the ranks'
	for _, p := range parts[rank*R : (rank+1)*R] {
		for _, e := range p {
			audioSeconds += float64(e.Frames) * speechmodel.FrameSeconds
		}
	}
	graphs := make([]*models.Graph[asr.Inputs], len(bts))
	for i, bt := range bts {
		if graphs[i], err = t.replicas.Get(i, keys[i]); err != nil {
			return trainloop.Batch{}, err
		}
		if err := graphs[i].Inputs.Bind(bt); err != nil {
			return trainloop.Batch{}, err
		}
	}
	losses, err := t.replicas.Run(graphs)
	if err != nil {
		return trainloop.Batch{}, fmt.Errorf("epoch %d batch %d (graph keys %v): %w", epoch, bi+1, keys, err)
	}
	var loss, phoneLoss float64
	tokens, phones := 0, false
	for i, bt := range bts {
		loss += losses[i]
		tokens += bt.Tokens
		phoneLoss += graphs[i].Inputs.PhoneCTCLoss()
		phones = phones || slices.ContainsFunc(bt.PhoneWeights, func(x float32) bool { return x > 0 })
	}
	if w := t.model.Config.PhoneCTCWeight; w > 0 && phones {
		t.phoneLoss += phoneLoss / w
		t.phoneRuns++
	}
	return trainloop.Batch{Tokens: tokens, Loss: loss, Media: audioSeconds}, nil
}

// Progress reports the loss (with a phone CTC head, its loss per phone
// too, unweighted) and the training throughput in hours of audio per
// wall-clock hour.
func (t *trainTask) Progress(p trainloop.Progress) (what, rate string) {
	what = fmt.Sprintf("loss %.6f", p.Loss)
	if t.phoneRuns > 0 {
		what += fmt.Sprintf(", phone CTC %.4f", t.phoneLoss/float64(t.phoneRuns))
		t.phoneLoss, t.phoneRuns = 0, 0
	}
	return what, fmt.Sprintf("%.2f h audio/h", p.Media/p.Elapsed.Seconds())
}

// EpochDone logs the epoch's training throughput, dev scoring excluded:
// the audio trained on (this run's share, when resumed) per wall-clock
// hour of its batches.
func (t *trainTask) EpochDone(p trainloop.Progress) {
	t.logf("epoch %d trained on %.2f h of audio in %v: %.2f h of audio per hour (GOMAXPROCS %d)", p.Epoch,
		p.Media/3600, p.Elapsed.Round(time.Second), p.Media/p.Elapsed.Seconds(), runtime.GOMAXPROCS(0))
}

// Evaluate scores the dev set by greedy attention decoding: its CER picks
// the best model.
func (t *trainTask) Evaluate(ctx context.Context, _ *trainloop.State) (float64, error) {
	devUtts := t.dev
	if t.o.MaxDev > 0 && len(devUtts) > t.o.MaxDev {
		devUtts = devUtts[:t.o.MaxDev]
	}
	_, sc, err := score(ctx, t.model, devUtts, t.o.Workers, &decode.Options{Beam: 1, LengthPenalty: 1, EOSThreshold: 1.5})
	if err != nil {
		return 0, err
	}
	t.last = sc
	return sc.CER.Rate(), nil
}

func (t *trainTask) Evaluated(st *trainloop.State, improved bool) {
	sc := t.last
	if improved {
		t.st.BestWER = sc.WER.Rate()
	}
	var per string
	if sc.PER.Ref > 0 {
		per = fmt.Sprintf(", phone PER %v", sc.PER)
	}
	t.logf("epoch %d done in %v: dev %v, %v%s, %d fallbacks, RTF %.3f%s", st.Epoch, time.Since(t.epochStart).Round(time.Second),
		sc.CER, sc.WER, per, sc.Fallbacks, sc.RTF(), map[bool]string{true: " (best)", false: fmt.Sprintf(" (best %.2f%% at epoch %d)", 100*st.BestValue, st.BestEpoch)}[improved])
}

func (t *trainTask) File() (*safetensors.File, error) { return t.model.File() }

func (t *trainTask) CheckpointState(*trainloop.State) any { return t.st.checkpoint() }

// checkReplicas validates Replicas (after defaults).
func (o *TrainOptions) checkReplicas() error {
	if hi := min(models.MaxReplicas, o.BatchSize); o.Replicas < 1 || o.Replicas > hi {
		return fmt.Errorf("speechtrain: %d replicas: %w (1 to %d for batches of %d)", o.Replicas, ErrReplicas, hi, o.BatchSize)
	}
	return nil
}

// replicaSizes returns the sub-batch sizes a batch of b splits into over
// r replicas (asr.SplitExamples): ⌈b/r⌉ and, unless r divides b, ⌊b/r⌋.
func replicaSizes(b, r int) []int {
	if b%r == 0 {
		return []int{b / r}
	}
	return []int{b/r + 1, b / r}
}

// ranksNote is the log's note of a data-parallel run's ranks.
func ranksNote(ranks int) string {
	if ranks == 1 {
		return ""
	}
	return fmt.Sprintf(" on each of %d ranks", ranks)
}

// dropoutRand is replica r's dropout mask source: replica 0's is the one
// a single graph has always used.
func dropoutRand(seed uint64, r int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 7+uint64(r)<<32))
}

// loadData reads the manifests and splits off the dev set.
func (o *TrainOptions) loadData(ctx context.Context, vocab *asr.Vocab, logf func(string, ...any)) (train, dev []*utterance, err error) {
	var (
		trainList, devList []speechdata.Utterance
		synthetic          []bool // of trainList
	)
	for i, path := range o.Train {
		utts, err := speechdata.Read(path)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 && len(o.Dev) == 0 {
			var held []speechdata.Utterance
			if utts, held, err = speechdata.SplitBySpeaker(utts, o.DevSpeakers, o.Seed); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			devList = append(devList, held...)
		}
		trainList = append(trainList, utts...)
		isSynthetic := o.isSynthetic(path)
		for range utts {
			synthetic = append(synthetic, isSynthetic)
		}
	}
	for _, path := range o.Dev {
		utts, err := speechdata.Read(path)
		if err != nil {
			return nil, nil, err
		}
		devList = append(devList, utts...)
	}
	lo := LoadOptions{Workers: o.Workers, Telephone: o.Telephone, Speeds: o.Speeds, Seed: o.Seed, Augment: o.Augment, Warp: o.VTLP, Synthetic: synthetic, NoiseDirs: o.NoiseDirs}
	start := time.Now()
	train, skipped, err := loadUtterances(ctx, trainList, vocab, lo)
	if err != nil {
		return nil, nil, err
	}
	report(logf, "training", skipped)
	lo.Telephone, lo.Speeds, lo.Augment, lo.Synthetic, lo.NoiseDirs = 0, nil, 0, nil, nil
	dev, skipped, err = loadUtterances(ctx, devList, vocab, lo)
	if err != nil {
		return nil, nil, err
	}
	report(logf, "dev", skipped)
	logf("loaded and featurized %d utterances in %v", len(train)+len(dev), time.Since(start).Round(time.Second))
	return train, dev, nil
}

// missingWords lists words for the log: ", e.g. a, b".
func missingWords(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return ", e.g. " + strings.Join(words, ", ")
}

func report(logf func(string, ...any), set string, skipped []string) {
	if len(skipped) == 0 {
		return
	}
	logf("skipped %d %s utterances, e.g.:", len(skipped), set)
	for _, s := range skipped[:min(5, len(skipped))] {
		logf("  %s", s)
	}
}

// planEpoch groups utterances of similar length into batches (sorted by
// frames with ±10% jitter so batches vary between epochs), drops the last
// partial batch and shuffles the batch order; the plan depends only on
// seed and epoch, so a resumed run replays it.
func planEpoch(utts []*utterance, B int, seed uint64, epoch int) [][]asr.Example {
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)))
	type keyed struct {
		u   *utterance
		len float64
	}
	ks := make([]keyed, len(utts))
	for i, u := range utts {
		ks[i] = keyed{u, float64(u.Example.Frames) * (0.9 + 0.2*rng.Float64())}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmpFloat(a.len, b.len) })
	var out [][]asr.Example
	for i := 0; i+B <= len(ks); i += B {
		exs := make([]asr.Example, B)
		for j := range B {
			exs[j] = ks[i+j].u.Example
		}
		out = append(out, exs)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// specAugment returns masked copies of the examples' features.
func specAugment(exs []asr.Example, bins int, opts *audio.SpecAugmentOptions, rng *rand.Rand) []asr.Example {
	out := make([]asr.Example, len(exs))
	for i, e := range exs {
		f := &audio.Features{Frames: e.Frames, Bins: bins, Data: slices.Clone(e.Features)}
		if err := audio.SpecAugment(f, opts, rng); err == nil {
			e.Features = f.Data
		}
		out[i] = e
	}
	return out
}
