package caption_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
)

// The overfit task: eight "images" of random annotations, each with one
// caption of 3–5 words that the model must learn to say exactly.
var toyCaptions = []string{
	"a dog runs on grass",
	"a cat sits",
	"the man rides a bike",
	"a red ball in water",
	"the dog sits on grass",
	"a man runs",
	"the cat in water",
	"a red bike",
}

// toyTask returns the task's examples for a model of cfg's grid.
func toyTask(t testing.TB, v *caption.Vocab, cfg caption.Config) []caption.Example {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	exs := make([]caption.Example, len(toyCaptions))
	for i, c := range toyCaptions {
		tokens := v.Encode(strings.Fields(c))
		if slices.Contains(tokens, caption.Unk) {
			t.Fatalf("toy caption %q has a word outside the toy vocabulary", c)
		}
		exs[i] = caption.Example{Features: randomFeatures(rng, cfg.Regions, cfg.FeatureDim), Tokens: tokens}
	}
	return exs
}

// train runs Adam on exs (one batch) until the loss is below stop or
// after steps steps, and returns the last loss.
func train(t testing.TB, m *caption.Model, exs []caption.Example, steps int, stop float64) caption.Loss {
	t.Helper()
	tr := caption.NewTrainer(m, 7)
	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
	defer buckets.Close()
	opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
	key := caption.KeyFor(exs, 4)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := buckets.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	var loss caption.Loss
	for step := 0; step < steps; step++ {
		if loss, err = tr.Run(gr, bt); err != nil {
			t.Fatal(err)
		}
		if _, err := opt.Step(); err != nil {
			t.Fatal(err)
		}
		if loss.CrossEntropy < stop {
			t.Logf("step %d: %+v", step, loss)
			return loss
		}
	}
	t.Logf("after %d steps: %+v", steps, loss)
	return loss
}

var toyModel struct {
	once sync.Once
	m    *caption.Model
	exs  []caption.Example
}

// trainedToy returns a soft-attention model trained on the toy task,
// trained once per test binary.
func trainedToy(t testing.TB) (*caption.Model, []caption.Example) {
	toyModel.once.Do(func() {
		cfg := tinyConfig(caption.Soft)
		m := mustNew(t, cfg, 1)
		exs := toyTask(t, m.Vocab, m.Config)
		train(t, m, exs, 600, 0.01)
		toyModel.m, toyModel.exs = m, exs
	})
	if toyModel.m == nil {
		t.Fatal("toy model failed to train")
	}
	return toyModel.m, toyModel.exs
}

// TestOverfit trains the whole model on the toy task and checks that
// greedy and beam search say every caption exactly.
func TestOverfit(t *testing.T) {
	m, exs := trainedToy(t)
	images := make([][]float32, len(exs))
	for i, e := range exs {
		images[i] = e.Features
	}
	greedy, err := m.Greedy(nil, images, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ws caption.Workspace
	for i, want := range toyCaptions {
		if got := strings.Join(greedy[i].Words, " "); got != want || !greedy[i].Finished {
			t.Errorf("greedy: image %d: %q (finished %v), want %q", i, got, greedy[i].Finished, want)
		}
		for _, k := range []int{1, 3, 5} {
			hyps, err := m.Beam(&ws, exs[i].Features, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(hyps[0].Words, " "); got != want || !hyps[0].Finished {
				t.Errorf("beam %d: image %d: %q (finished %v), want %q", k, i, got, hyps[0].Finished, want)
			}
		}
	}
}

// TestOverfitHard trains hard attention, sampling half of the captions'
// regions and REINFORCE-training the attention, on the toy task; greedy
// search with the expected context must then say every caption.
func TestOverfitHard(t *testing.T) {
	cfg := tinyConfig(caption.Hard)
	m := mustNew(t, cfg, 2)
	exs := toyTask(t, m.Vocab, m.Config)
	loss := train(t, m, exs, 1500, 0.01)
	if loss.Reward == 0 && loss.Reinforce == 0 {
		t.Errorf("no caption sampled its attention: %+v", loss)
	}
	images := make([][]float32, len(exs))
	for i, e := range exs {
		images[i] = e.Features
	}
	for _, inference := range []attention.HardMode{caption.Expectation, caption.Argmax} {
		m.Config.Hard.Inference = inference
		greedy, err := m.Greedy(nil, images, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range toyCaptions {
			if got := strings.Join(greedy[i].Words, " "); got != want {
				t.Errorf("%s: image %d: %q, want %q", inference, i, got, want)
			}
		}
	}
}
