package models

// Data parallelism inside one training step.
//
// A fused op splits its work over GOMAXPROCS goroutines (ParallelFor,
// the parallel Gemm), but many of a step's products are small (a speller
// step multiplies B rows), so on two cores a whole speech training step
// runs only about 1.5× faster than on one. Replicas run the step's batch
// as R sub-batches instead, each in its own compiled graph on its own
// goroutine: R independent tapes keep R cores busy whatever the size of
// each product.
//
// The sum of the replicas' gradients is the batch's gradient when every
// sub-batch's loss is normalized by the counts of the whole batch (its
// target tokens, not the sub-batch's); the model lays out its sub-batches
// so (asr.Model.MakeBatches). The gradients are added into the Params in
// replica order once every replica is done, so the result depends neither
// on which replica finishes first nor on GOMAXPROCS.
//
// Each replica owns a Buckets: its graphs and whatever its BuildFunc
// captures (a dropout Rng), so nothing that a run writes is shared
// between replicas but the packed LSTM weights, which the first replica
// to need them packs once per Run under a lock (stepPacksRef); all of
// them read the same Value tensors, which our kernels never write. Gorgonia's own matrix product
// (gorgonia.Mul) does: its backward pass transposes its operands in place
// and back, so a BuildFunc for replicas must apply parameters through our
// kernels only (Linear, LSTM, the attention mechanisms but MultiHead's
// output projection), as the speech model's does; the race detector
// catches a violation (TestReplicasConcurrent in models/asr).
//
// A replica's graph holds the activations of a sub-batch, so R replicas of
// B/R utterances need about the memory of one graph of B per shape, plus
// what every graph keeps whatever its batch:
// about three parameter-sized tensors (the kernels' weight gradients,
// gorgonia's dual values), 60 MB for the default speech model.
//
// Measured on two cores (bench/README.md): two replicas scale a speech
// training step 1.8× from one thread to two, one graph 1.5×, but two
// half-batch graphs cost 3–5% more CPU than one, and a step waits for its
// slower replica; on cores shared with other work one graph does better.

import (
	"errors"
	"fmt"
	"sync"
)

// MaxReplicas bounds NewReplicas' r: more replicas than cores only add
// memory and scheduling.
const MaxReplicas = 64

// Replicas keeps R Buckets over one Params, one per replica, and runs one
// graph of each concurrently (Run).
type Replicas[K comparable, In any] struct {
	buckets []*Buckets[K, In]
	stream  *GradStream
}

// SetStream makes Run sum the gradients over the ranks of a data-parallel
// run with s during the backward pass (overlap.go): after Run the Params'
// Grad hold the sum over every rank's replicas. nil turns it off.
func (rs *Replicas[K, In]) SetStream(s *GradStream) { rs.stream = s }

// NewReplicas returns r replicas over ps; build(i) is replica i's graph
// builder. r outside [1, MaxReplicas] is a programmer error and panics.
func NewReplicas[K comparable, In any](ps *Params, r int, build func(replica int) BuildFunc[K, In]) *Replicas[K, In] {
	if r < 1 || r > MaxReplicas {
		panic(fmt.Sprintf("models: NewReplicas: %d replicas, want 1 to %d", r, MaxReplicas))
	}
	rs := &Replicas[K, In]{}
	packs := map[*LSTM]*stepPacksRef{} // packed once per Run (see stepPacksRef)
	for i := range r {
		bs := NewBuckets(ps, build(i))
		bs.packs, bs.sharedPacks = packs, true
		rs.buckets = append(rs.buckets, bs)
	}
	return rs
}

// N returns the number of replicas.
func (rs *Replicas[K, In]) N() int { return len(rs.buckets) }

// SetMaxGraphs caps the graphs each replica keeps compiled (see
// Buckets.MaxGraphs).
func (rs *Replicas[K, In]) SetMaxGraphs(n int) {
	for _, bs := range rs.buckets {
		bs.MaxGraphs = n
	}
}

// Get returns replica i's compiled graph for key, building it on first
// use. Call it from one goroutine, before Run.
func (rs *Replicas[K, In]) Get(i int, key K) (*Graph[In], error) {
	return rs.buckets[i].Get(key)
}

// Len returns the number of compiled graphs over all replicas.
func (rs *Replicas[K, In]) Len() int {
	n := 0
	for _, bs := range rs.buckets {
		n += bs.Len()
	}
	return n
}

// Builds returns how many graphs have been built over all replicas.
func (rs *Replicas[K, In]) Builds() int {
	n := 0
	for _, bs := range rs.buckets {
		n += bs.Builds()
	}
	return n
}

// Close releases every replica's machines.
func (rs *Replicas[K, In]) Close() {
	for _, bs := range rs.buckets {
		bs.Close()
	}
}

// Run executes graphs[i], a graph of replica i (from Get) with its
// sub-batch bound, for every replica at once: graphs[0] on the calling
// goroutine, the others on their own. When all are done it adds their
// gradients into the Params' Grad tensors in replica order and returns
// each one's loss; with a stream (SetStream), the Grad tensors hold
// instead the sum over the ranks of those, summed during the run. graphs may be shorter than N (a batch too small to
// split). An error of any replica's run fails the step before any
// gradient is added.
func (rs *Replicas[K, In]) Run(graphs []*Graph[In]) ([]float64, error) {
	if len(graphs) == 0 || len(graphs) > len(rs.buckets) {
		return nil, fmt.Errorf("models: Replicas.Run: %d graphs for %d replicas", len(graphs), len(rs.buckets))
	}
	for _, gr := range graphs {
		gr.binding.invalidatePacks()
	}
	if rs.stream != nil {
		points := make([]*gradPoints, len(graphs))
		for i, gr := range graphs {
			points[i] = gr.points
		}
		if err := rs.stream.begin(points); err != nil {
			return nil, err
		}
	}
	errs := make([]error, len(graphs))
	var wg sync.WaitGroup
	for i := 1; i < len(graphs); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = graphs[i].compute()
		}()
	}
	errs[0] = graphs[0].compute()
	wg.Wait()
	err := errors.Join(errs...)
	if err == nil && rs.stream != nil {
		err = rs.stream.finish()
	} else if rs.stream != nil {
		rs.stream.abandon()
	}
	if err != nil {
		for i, gr := range graphs {
			if errs[i] == nil {
				gr.vm.Reset()
			}
		}
		return nil, err
	}
	losses := make([]float64, len(graphs))
	for i, gr := range graphs {
		l, err := gr.collectAdding(rs.stream == nil)
		if err != nil {
			for _, rest := range graphs[i+1:] {
				rest.vm.Reset()
			}
			return nil, err
		}
		losses[i] = l
	}
	return losses, nil
}
