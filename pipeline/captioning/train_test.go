package captioning

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
		{"sub-batches of nothing", func(o *TrainOptions) { o.Accumulate = 5 }, nil, "1 ranks × 5 sub-batches"},
		{"accumulate with scst", func(o *TrainOptions) { o.Accumulate, o.SCST = 2, true }, nil, "cross-entropy training only"},
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

// TestTrainAccumulate trains 10 steps with each batch of 4 in one graph
// and as 2 and 4 sub-batches (gradient accumulation): the same batches,
// the same step, only the rounding of the gradient's sum differs (Adam
// magnifies it in the weights whose gradient is nearly zero: 8.6e-6 for
// 2 sub-batches, 2.9e-5 for 4).
func TestTrainAccumulate(t *testing.T) {
	const steps = 10
	run := func(accumulate int) (dir string, losses []float64) {
		dir = t.TempDir()
		var log strings.Builder
		o := tinyOptions(dir)
		o.Epochs, o.MaxSteps, o.LogEvery, o.LR, o.Log = 100, steps, 1, 1e-3, &log
		o.Snapshots, o.SnapshotEvery, o.Accumulate = 1, steps, accumulate
		if _, err := Train(context.Background(), o); err != nil {
			t.Fatalf("accumulate %d: %v", accumulate, err)
		}
		return dir, logged(log.String())
	}
	oneDir, one := run(1)
	for _, n := range []int{2, 4} {
		dir, got := run(n)
		if len(got) != steps || len(one) != steps {
			t.Fatalf("accumulate %d: %d and %d losses logged, want %d", n, len(got), len(one), steps)
		}
		for i := range got {
			if d := math.Abs(got[i] - one[i]); d > 1e-5 {
				t.Errorf("accumulate %d, step %d: cross-entropy %.6f, %.6f in one graph", n, i+1, got[i], one[i])
			}
		}
		f := fmt.Sprintf("snapshot-%d.safetensors", steps)
		a, err := LoadModel(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := LoadModel(filepath.Join(oneDir, f))
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i, p := range a.Params.All() {
			x, y := p.Value.Data().([]float32), b.Params.All()[i].Value.Data().([]float32)
			for j := range x {
				worst = max(worst, math.Abs(float64(x[j]-y[j])))
			}
		}
		if worst > 5e-5 {
			t.Errorf("accumulate %d: weights differ from one graph's by up to %.2g after %d steps", n, worst, steps)
		}
		t.Logf("accumulate %d against one graph, %d steps: weights differ by up to %.2g", n, steps, worst)
	}
}

var loggedXent = regexp.MustCompile(`step \d+ xent ([0-9.]+)`)

// logged returns the cross-entropies of a training log's step lines.
func logged(log string) []float64 {
	var out []float64
	for _, m := range loggedXent.FindAllStringSubmatch(log, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err == nil {
			out = append(out, v)
		}
	}
	return out
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
