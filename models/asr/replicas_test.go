package asr_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
)

// replicaExamples are n toy utterances of the eight texts (cycled), each
// with a few phones but every fifth, which has none.
func replicaExamples(m *asr.Model, n int, seed uint64) []asr.Example {
	rng := rand.New(rand.NewPCG(seed, 5))
	exs := make([]asr.Example, n)
	for i := range exs {
		e := toyUtterance(rng, m.Vocab, toyTexts[i%len(toyTexts)], m.Config.MelBins)
		if i%5 != 4 {
			for range 2 + rng.IntN(3) {
				e.Phones = append(e.Phones, 1+rng.IntN(len(asr.Phones)))
			}
		}
		exs[i] = e
	}
	return exs
}

// gradients returns a copy of every parameter's accumulated gradient.
func gradients(ps *models.Params) [][]float32 {
	var out [][]float32
	for _, p := range ps.All() {
		out = append(out, slices.Clone(p.Grad.Data().([]float32)))
	}
	return out
}

// replicatedStep runs exs as r sub-batches (asr.SplitExamples,
// MakeBatches) on the replicas rs, adds their gradients into the
// model's zeroed Grad tensors and returns the summed loss.
func replicatedStep(t testing.TB, m *asr.Model, rs *models.Replicas[asr.BatchKey, asr.Inputs], exs []asr.Example) float64 {
	t.Helper()
	parts := asr.SplitExamples(exs, rs.N())
	keys := make([]asr.BatchKey, len(parts))
	for i, p := range parts {
		keys[i] = m.KeyFor(p, 4, 4)
	}
	bts, err := m.MakeBatches(keys, parts)
	if err != nil {
		t.Fatal(err)
	}
	graphs := make([]*models.Graph[asr.Inputs], len(parts))
	for i, bt := range bts {
		if graphs[i], err = rs.Get(i, keys[i]); err != nil {
			t.Fatal(err)
		}
		if err := graphs[i].Inputs.Bind(bt); err != nil {
			t.Fatal(err)
		}
	}
	m.Params.ZeroGrads()
	losses, err := rs.Run(graphs)
	if err != nil {
		t.Fatal(err)
	}
	var loss float64
	for _, l := range losses {
		loss += l
	}
	return loss
}

// TestReplicasMatchOneGraph: the gradients of a batch split over r
// replicas (each sub-batch normalized by the whole batch's counts), summed
// in replica order, equal the gradient of the batch as one graph within
// float32 rounding, and so does the loss; with joint CTC and a phone CTC
// head, for batch sizes r does not divide. Dropout is off.
func TestReplicasMatchOneGraph(t *testing.T) {
	for _, tc := range []struct {
		name    string
		b, r    int
		ctc, lp float64
	}{
		{"2 of 8, CTC and phones", 8, 2, 0.3, 0.2},
		{"2 of 7, CTC and phones", 7, 2, 0.3, 0.2},
		{"3 of 8, CTC and phones", 8, 3, 0.3, 0.2},
		{"3 of 7, phones on the top layer", 7, 3, 0, 0.3},
		{"3 of 5, attention only", 5, 3, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig(tc.ctc)
			cfg.PhoneCTCWeight = tc.lp
			if tc.ctc == 0 && tc.lp > 0 {
				cfg.PhoneCTCLayer = 1
			}
			m, err := asr.New(cfg, nil, 3)
			if err != nil {
				t.Fatal(err)
			}
			exs := replicaExamples(m, tc.b, uint64(tc.b))
			one := models.NewReplicas(m.Params, 1, func(int) models.BuildFunc[asr.BatchKey, asr.Inputs] { return m.BuildFunc(nil) })
			defer one.Close()
			wantLoss := replicatedStep(t, m, one, exs)
			want := gradients(m.Params)
			rs := models.NewReplicas(m.Params, tc.r, func(int) models.BuildFunc[asr.BatchKey, asr.Inputs] { return m.BuildFunc(nil) })
			defer rs.Close()
			gotLoss := replicatedStep(t, m, rs, exs)
			if math.Abs(gotLoss-wantLoss) > 1e-5*math.Abs(wantLoss) {
				t.Errorf("loss %.7g over %d replicas, %.7g as one graph", gotLoss, tc.r, wantLoss)
			}
			got := gradients(m.Params)
			for i, p := range m.Params.All() {
				// Compare relative to the tensor's largest gradient: the
				// sums differ only in float32 rounding order.
				var scale, worst float64
				for j := range want[i] {
					scale = max(scale, math.Abs(float64(want[i][j])))
					worst = max(worst, math.Abs(float64(got[i][j]-want[i][j])))
				}
				if scale == 0 {
					t.Errorf("%s: zero gradient as one graph", p.Name)
					continue
				}
				if worst > 1e-5*scale {
					t.Errorf("%s: gradients differ by up to %.3g (largest %.3g)", p.Name, worst, scale)
				}
			}
		})
	}
}

// TestSplitExamples: the parts hold every example once, in their order,
// with sizes that differ by at most one, and the longest utterances are
// dealt out in turn.
func TestSplitExamples(t *testing.T) {
	exs := make([]asr.Example, 7)
	for i, f := range []int{30, 10, 70, 50, 20, 60, 40} {
		exs[i] = asr.Example{Frames: f}
	}
	for _, tc := range []struct {
		r    int
		want [][]int // frames per part
	}{
		{1, [][]int{{30, 10, 70, 50, 20, 60, 40}}},
		{2, [][]int{{30, 10, 70, 50}, {20, 60, 40}}},
		{3, [][]int{{10, 70, 40}, {30, 60}, {50, 20}}},
		{9, [][]int{{70}, {60}, {50}, {40}, {30}, {20}, {10}}},
	} {
		parts := asr.SplitExamples(exs, tc.r)
		var got [][]int
		for _, p := range parts {
			var fs []int
			for _, e := range p {
				fs = append(fs, e.Frames)
			}
			got = append(got, fs)
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("r=%d: parts %v, want %v", tc.r, got, tc.want)
		}
	}
}

// TestReplicasDeterministic: a few seeded optimizer steps over r
// replicas with dropout on give bit-identical losses and weights with
// GOMAXPROCS 1 and 4 (the replicas finish in a different order, the
// fused ops split their work differently).
func TestReplicasDeterministic(t *testing.T) {
	run := func(r, procs int) ([]float64, [][]float32) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m, rs := dropoutReplicas(t, r)
		defer rs.Close()
		opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
		var losses []float64
		for step := range 3 {
			losses = append(losses, replicatedStep(t, m, rs, replicaExamples(m, 7, uint64(step))))
			if _, err := opt.Step(); err != nil {
				t.Fatal(err)
			}
		}
		var weights [][]float32
		for _, p := range m.Params.All() {
			weights = append(weights, slices.Clone(p.F32()))
		}
		return losses, weights
	}
	for _, r := range []int{1, 2, 3} {
		wantLosses, wantWeights := run(r, 1)
		gotLosses, gotWeights := run(r, 4)
		if !slices.Equal(gotLosses, wantLosses) {
			t.Errorf("%d replicas: losses %v with GOMAXPROCS 4, %v with 1", r, gotLosses, wantLosses)
		}
		if !slices.EqualFunc(gotWeights, wantWeights, slices.Equal) {
			t.Errorf("%d replicas: weights differ between GOMAXPROCS 4 and 1", r)
		}
	}
}

// TestReplicasConcurrent runs two replicas at once for a few steps, with
// dropout, a phone head and GOMAXPROCS ≥ 2, so that the race detector
// (go test -race -run TestReplicasConcurrent ./models/asr/) sees two
// graphs run concurrently over one Params: both read the same weights,
// and nothing either writes (packed LSTM weights, attention and kernel
// scratch, dropout masks and Rng) may be shared. Sharing the packed
// weights between the replicas' Buckets makes it report a race.
func TestReplicasConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.NumCPU())))
	cfg := tinyConfig(0.3)
	cfg.PhoneCTCWeight, cfg.Dropout = 0.2, 0.2
	m, err := asr.New(cfg, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	rs := models.NewReplicas(m.Params, 2, func(i int) models.BuildFunc[asr.BatchKey, asr.Inputs] {
		return m.BuildFunc(rand.New(rand.NewPCG(9, uint64(i))))
	})
	defer rs.Close()
	opt := models.NewAdam(m.Params, &models.AdamOptions{LR: 0.01})
	for step := range 4 {
		loss := replicatedStep(t, m, rs, replicaExamples(m, 8, uint64(step)))
		if math.IsNaN(loss) || loss <= 0 {
			t.Fatalf("step %d: loss %v", step, loss)
		}
		if _, err := opt.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if rs.Len() < 2 || rs.Builds() != rs.Len() {
		t.Errorf("%d graphs in memory, %d built; want one per replica and key, none rebuilt", rs.Len(), rs.Builds())
	}
}

// TestReplicasRepackEachRun: replicas share the speller LSTM's packed
// weights, packed once per Run. After the weights change, the next Run
// must pack them again: its loss and gradients equal those of graphs
// built afresh at the new weights (stale packs would give the old
// weights' products). Each step uses the same graphs, as training does.
func TestReplicasRepackEachRun(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	exs := replicaExamples(m, 6, 6)
	rs := models.NewReplicas(m.Params, 2, func(int) models.BuildFunc[asr.BatchKey, asr.Inputs] { return m.BuildFunc(nil) })
	defer rs.Close()
	for step := range 3 {
		gotLoss := replicatedStep(t, m, rs, exs)
		got := gradients(m.Params)
		fresh := models.NewReplicas(m.Params, 2, func(int) models.BuildFunc[asr.BatchKey, asr.Inputs] { return m.BuildFunc(nil) })
		wantLoss := replicatedStep(t, m, fresh, exs)
		want := gradients(m.Params)
		fresh.Close()
		if gotLoss != wantLoss {
			t.Errorf("step %d: loss %.9g with the reused graphs, %.9g with fresh ones", step, gotLoss, wantLoss)
		}
		for i, p := range m.Params.All() {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("step %d: %s: gradients differ from fresh graphs'", step, p.Name)
			}
		}
		for _, p := range m.Params.All() { // a step of plain gradient descent
			w, g := p.Value.Data().([]float32), p.Grad.Data().([]float32)
			for j := range w {
				w[j] -= 0.5 * g[j]
			}
		}
	}
}

// dropoutReplicas returns the tiny model with both loss heads and dropout
// on, and r replicas over it whose dropout masks are seeded by replica.
func dropoutReplicas(t *testing.T, r int) (*asr.Model, *models.Replicas[asr.BatchKey, asr.Inputs]) {
	t.Helper()
	cfg := tinyConfig(0.3)
	cfg.PhoneCTCWeight, cfg.Dropout = 0.2, 0.2
	m, err := asr.New(cfg, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	return m, models.NewReplicas(m.Params, r, func(i int) models.BuildFunc[asr.BatchKey, asr.Inputs] {
		return m.BuildFunc(rand.New(rand.NewPCG(9, uint64(i))))
	})
}
