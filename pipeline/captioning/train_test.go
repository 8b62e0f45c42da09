package captioning

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// TestTrainResume checks that a run stopped after two epochs and resumed
// ends with the same weights, optimizer state and scores as one that ran
// straight through (the tiny model has no dropout, so training is
// deterministic).
func TestTrainResume(t *testing.T) {
	ctx := context.Background()
	straight := tinyOptions(t.TempDir())
	straight.Epochs = 4
	want, err := Train(ctx, straight)
	if err != nil {
		t.Fatal(err)
	}
	if want.Steps != 8 || want.Epochs != 4 || want.TrainCaptions != 8 || want.DevImages != 4 {
		t.Errorf("summary %+v, want 8 steps over 4 epochs of 8 captions, 4 dev images", want)
	}

	dir := t.TempDir()
	first := tinyOptions(dir)
	first.Epochs, first.LogEvery = 2, 1
	if _, err := Train(ctx, first); err != nil {
		t.Fatal(err)
	}
	again := tinyOptions(dir)
	again.Epochs, again.LogEvery = 4, 1
	if _, err := Train(ctx, again); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second run into %s without Resume: err %v, want one saying the checkpoint exists", dir, err)
	}
	again.Resume = true
	got, err := Train(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if got.Steps != want.Steps || got.Epochs != want.Epochs || got.Best != want.Best || got.BestEpoch != want.BestEpoch {
		t.Errorf("resumed: %+v\nstraight: %+v", got, want)
	}
	a, err := safetensors.ReadFile(filepath.Join(straight.OutDir, lastName))
	if err != nil {
		t.Fatal(err)
	}
	b, err := safetensors.ReadFile(filepath.Join(dir, lastName))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Tensors) != len(b.Tensors) {
		t.Fatalf("%d tensors resumed, %d straight", len(b.Tensors), len(a.Tensors))
	}
	for i := range a.Tensors {
		if a.Tensors[i].Name != b.Tensors[i].Name || !slices.Equal(a.Tensors[i].Data, b.Tensors[i].Data) {
			t.Errorf("tensor %s differs after resuming", a.Tensors[i].Name)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "train.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"resuming", "dev epoch 3 step 6", "tok/s", "ETA", "CIDEr-D"} {
		if !strings.Contains(string(log), s) {
			t.Errorf("train.log lacks %q:\n%s", s, log)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	existing := t.TempDir()
	if err := os.WriteFile(filepath.Join(existing, lastName), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(o *TrainOptions)
		is   error
		want string
	}{
		{"no dataset", func(o *TrainOptions) { o.Dataset = "" }, nil, "no dataset"},
		{"no output", func(o *TrainOptions) { o.OutDir = "" }, nil, "no output directory"},
		{"bad select", func(o *TrainOptions) { o.Select = "meteor" }, nil, `"meteor"`},
		{"no cache", func(o *TrainOptions) { o.Cache = "" }, ErrCache, "caption features -split train,train -o FILE"},
		{"missing cache", func(o *TrainOptions) { o.Cache = filepath.Join(t.TempDir(), "none.safetensors") }, ErrCache, "build it with"},
		{"unknown split", func(o *TrainOptions) { o.TrainSplit = "restval" }, nil, "restval"},
		{"resume nothing", func(o *TrainOptions) { o.Resume = true }, nil, "does not exist"},
		{"resume and overwrite", func(o *TrainOptions) { o.Resume, o.Overwrite = true, true }, nil, "contradict"},
		{"checkpoint exists", func(o *TrainOptions) { o.OutDir = existing }, nil, "exists: resume it"},
		{"batch too big", func(o *TrainOptions) { o.BatchSize = 9 }, nil, "fewer than one batch of 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tinyOptions(t.TempDir())
			tc.edit(&o)
			_, err := Train(context.Background(), o)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

func TestTrainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	sum, err := Train(ctx, tinyOptions(dir))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if sum.Stopped != "interrupted" || !fileExists(dir, lastName) {
		t.Errorf("stopped %q, checkpoint written %v; want interrupted with a checkpoint", sum.Stopped, fileExists(dir, lastName))
	}
}

func TestPlanEpoch(t *testing.T) {
	var exs []example
	for i := range 50 {
		exs = append(exs, example{record: i, tokens: make([]int, 3+i%7)})
	}
	plan := planEpoch(exs, 8, 1, 1)
	if len(plan) != 6 {
		t.Fatalf("%d batches of 8 from 50 examples, want 6", len(plan))
	}
	seen := map[int]bool{}
	mixed := 0
	for _, b := range plan {
		lo, hi := len(b[0].tokens), len(b[0].tokens)
		for _, e := range b {
			if seen[e.record] {
				t.Errorf("example %d twice in an epoch", e.record)
			}
			seen[e.record] = true
			lo, hi = min(lo, len(e.tokens)), max(hi, len(e.tokens))
		}
		if hi-lo > 1 {
			mixed++
		}
	}
	if mixed > 0 {
		t.Errorf("%d batches mix lengths more than one word apart; want batches sorted by length", mixed)
	}
	if again := planEpoch(exs, 8, 1, 1); !equalPlans(plan, again) {
		t.Error("the same seed and epoch gave another plan")
	}
	if other := planEpoch(exs, 8, 1, 2); equalPlans(plan, other) {
		t.Error("epochs 1 and 2 have the same plan")
	}
}

func equalPlans(a, b [][]example) bool {
	return slices.EqualFunc(a, b, func(x, y []example) bool {
		return slices.EqualFunc(x, y, func(p, q example) bool { return p.record == q.record })
	})
}

// TestTrainHard trains hard attention briefly and checks that the
// checkpoint keeps the reward baseline for resuming.
func TestTrainHard(t *testing.T) {
	o := tinyOptions(t.TempDir())
	o.Epochs = 2
	o.Config.Attention = Hard
	if _, err := Train(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	m, _, st, err := loadCheckpoint(filepath.Join(o.OutDir, lastName), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.Attention != Hard || st.Baseline == 0 || st.Step != 4 {
		t.Errorf("checkpoint: attention %q, baseline %v, step %d; want hard, a baseline, step 4", m.Config.Attention, st.Baseline, st.Step)
	}
}
