package captioning

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/captiondata"
)

func TestLeaveOneOut(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rewards []float64
		k       int
		want    []float64
	}{
		{"three", []float64{1, 2, 3}, 3, []float64{-1.5, 0, 1.5}},
		{"two groups of two", []float64{1, 3, 0.5, 0.5}, 2, []float64{-2, 2, 0, 0}},
		{"all equal", []float64{0.7, 0.7, 0.7, 0.7, 0.7}, 5, []float64{0, 0, 0, 0, 0}},
		{"one of five", []float64{5, 0, 0, 0, 0}, 5, []float64{5, -1.25, -1.25, -1.25, -1.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := leaveOneOut(nil, tc.rewards, tc.k)
			if !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
				t.Errorf("leaveOneOut(%v, %d) = %v, want %v", tc.rewards, tc.k, got, tc.want)
			}
		})
	}
}

// TestSCSTWeights lays out a finished caption of two words (three
// targets with <end>) and one cut at three words (three targets, no
// <end>): N = 6, and each caption's targets weigh its advantage / 6.
func TestSCSTWeights(t *testing.T) {
	m, err := LoadModel(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	f := make([]float32, m.Config.Regions*m.Config.FeatureDim)
	samples := []caption.Sampled{
		{Tokens: []int{4, 5}, Finished: true},
		{Tokens: []int{4, 5, 6}},
	}
	exs := []caption.Example{{Features: f, Tokens: samples[0].Tokens}, {Features: f, Tokens: samples[1].Tokens}}
	key := caption.KeyFor(exs, 1)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		t.Fatal(err)
	}
	scstWeights(bt, samples, []float64{1.5, -3})
	// Step-major (S = 4, B = 2): entry i·2 + b is step i of caption b.
	wantWeights := []float32{0.25, -0.5, 0.25, -0.5, 0.25, -0.5, 0, 0}
	wantTargets := []int{4, 4, 5, 5, caption.End, 6, models.PadID, models.PadID}
	wantSteps := []float32{1, 1, 1, 0, 1, 1, 1, 0}
	if bt.Tokens != 6 || !slices.Equal(bt.Weights, wantWeights) || !slices.Equal(bt.Targets, wantTargets) || !slices.Equal(bt.Steps, wantSteps) {
		t.Errorf("tokens %d, weights %v, targets %v, steps %v;\nwant 6, %v, %v, %v", bt.Tokens, bt.Weights, bt.Targets, bt.Steps, wantWeights, wantTargets, wantSteps)
	}
}

// logProb is log p(tokens, <end> | features) under m, teacher-forced.
func logProb(t *testing.T, m *caption.Model, f []float32, tokens []int) float64 {
	t.Helper()
	exs := []caption.Example{{Features: f, Tokens: tokens}}
	bt, err := m.MakeBatch(caption.KeyFor(exs, 1), exs)
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Loss(&caption.Workspace{}, bt)
	if err != nil {
		t.Fatal(err)
	}
	return -l.CrossEntropy * float64(bt.Tokens)
}

// TestSCSTGradientDirection takes one plain gradient step on the SCST loss
// of one image with two sampled captions, A rewarded above B: the step
// must raise log p(A) − log p(B).
func TestSCSTGradientDirection(t *testing.T) {
	m, err := LoadModel(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	if err := prepareSCST(m, t.Logf); err != nil {
		t.Fatal(err)
	}
	cache, err := captiondata.OpenCache(fixtureCache)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	rec, ok := cache.Lookup("red-square.png")
	if !ok {
		t.Fatal("the fixture cache lacks red-square.png")
	}
	f, err := cache.Features(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := m.Vocab.Encode(strings.Fields("a blue square"))
	b := m.Vocab.Encode(strings.Fields("a red circle on a white background"))
	samples := []caption.Sampled{{Tokens: a, Finished: true}, {Tokens: b, Finished: true}}
	exs := []caption.Example{{Features: f, Tokens: a}, {Features: f, Tokens: b}}
	key := caption.KeyFor(exs, 1)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		t.Fatal(err)
	}
	scstWeights(bt, samples, leaveOneOut(nil, []float64{2, 0.5}, 2))
	before := logProb(t, m, f, a) - logProb(t, m, f, b)

	tr := caption.NewTrainer(m, 1)
	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
	defer buckets.Close()
	gr, err := buckets.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := tr.Run(gr, bt)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(loss.Total) || math.IsInf(loss.Total, 0) || loss.Total != loss.CrossEntropy {
		t.Errorf("loss %+v: want a finite surrogate alone (no penalty)", loss)
	}
	const lr = 0.05
	for _, p := range m.Params.All() {
		w, g := p.F32(), p.Grad.Data().([]float32)
		for i := range w {
			w[i] -= lr * g[i]
		}
	}
	after := logProb(t, m, f, a) - logProb(t, m, f, b)
	if !(after > before+1e-3) {
		t.Errorf("log p(A) − log p(B): %.4f before the step, %.4f after; want it raised", before, after)
	}
}

// scstOptions fine-tunes the fixture model by SCST: two images per batch
// with two samples each, two batches per epoch.
func scstOptions(out string) TrainOptions {
	o := tinyOptions(out)
	o.Init, o.SCST, o.SCSTSamples = fixtureModel, true, 2
	o.Config = caption.Config{}
	o.Epochs, o.LR, o.LogEvery = 2, 1e-3, 1
	return o
}

// TestTrainSCST fine-tunes the fixture model by SCST for two epochs,
// straight and stopped after one then resumed: the weights change, the
// loss and rewards are finite, and the resumed run ends with the very
// weights of the straight one (no dropout; the samples are seeded by
// epoch and batch).
func TestTrainSCST(t *testing.T) {
	ctx := context.Background()
	straight := scstOptions(t.TempDir())
	sum, err := Train(ctx, straight)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Steps != 4 || sum.Epochs != 2 {
		t.Errorf("summary %+v, want 4 steps over 2 epochs", sum)
	}
	init, err := safetensors.ReadFile(fixtureModel)
	if err != nil {
		t.Fatal(err)
	}
	last, err := safetensors.ReadFile(filepath.Join(straight.OutDir, lastName))
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, p := range init.Tensors {
		for _, q := range last.Tensors {
			if p.Name == q.Name && !slices.Equal(p.Data, q.Data) {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("SCST changed no weight")
	}
	log, err := os.ReadFile(filepath.Join(straight.OutDir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"dev epoch 1 step 0 ", "scst: 4 images, 2 per batch × 2 samples", "reward ", "CIDEr-D of the samples", "dev epoch 2 step 4"} {
		if !strings.Contains(string(log), s) {
			t.Errorf("train.log lacks %q:\n%s", s, log)
		}
	}
	if strings.Contains(string(log), "NaN") || strings.Contains(string(log), "+Inf") || strings.Contains(string(log), "-Inf") {
		t.Errorf("train.log holds a non-finite number:\n%s", log)
	}

	dir := t.TempDir()
	first := scstOptions(dir)
	first.Epochs = 1
	if _, err := Train(ctx, first); err != nil {
		t.Fatal(err)
	}
	again := scstOptions(dir)
	again.Resume = true
	got, err := Train(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if got.Steps != sum.Steps || got.Best != sum.Best {
		t.Errorf("resumed: %+v\nstraight: %+v", got, sum)
	}
	resumed, err := safetensors.ReadFile(filepath.Join(dir, lastName))
	if err != nil {
		t.Fatal(err)
	}
	for i := range last.Tensors {
		if last.Tensors[i].Name != resumed.Tensors[i].Name || !slices.Equal(last.Tensors[i].Data, resumed.Tensors[i].Data) {
			t.Errorf("tensor %s differs after resuming", last.Tensors[i].Name)
		}
	}
}

func TestTrainSCSTErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(o *TrainOptions)
		want string
	}{
		{"no init", func(o *TrainOptions) { o.Init = "" }, "give Init"},
		{"one sample", func(o *TrainOptions) { o.SCSTSamples = 1 }, "at least 2"},
		{"hard attention", func(o *TrainOptions) { o.Config.Attention = caption.Hard }, "only soft"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := scstOptions(t.TempDir())
			tc.edit(&o)
			_, err := Train(context.Background(), o)
			if !errors.Is(err, errSCST) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want errSCST saying %q", err, tc.want)
			}
		})
	}
}

// TestResumeKeepsObjective resumes a checkpoint with the other objective:
// the batches of the two differ, so the run refuses, naming both.
func TestResumeKeepsObjective(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name        string
		first, then bool // SCST or not
		want        string
	}{
		{"scst then cross-entropy", true, false, "checkpoint of scst training, not cross-entropy"},
		{"cross-entropy then scst", false, true, "checkpoint of cross-entropy training, not scst"},
		{"scst then scst", true, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := scstOptions(dir)
			o.Epochs, o.SCST = 1, tc.first
			if _, err := Train(ctx, o); err != nil {
				t.Fatal(err)
			}
			o = scstOptions(dir)
			o.Resume, o.SCST = true, tc.then
			_, err := Train(ctx, o)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), lastName) {
				t.Errorf("err %v, want one naming %s and saying %q", err, lastName, tc.want)
			}
		})
	}
}
