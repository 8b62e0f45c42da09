package models

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"

	"gorgonia.org/gorgonia"
)

// A BuildFunc adds one training graph for a shape bucket to g: it reads the
// parameters through b, creates input nodes of the bucket's fixed shapes,
// and returns the scalar loss and the inputs (whatever type the model
// uses to feed a batch).
type BuildFunc[K comparable, In any] func(g *gorgonia.ExprGraph, b *Binding, key K) (loss *gorgonia.Node, inputs In, err error)

// Buckets keeps one compiled graph per shape bucket (batch size × padded
// input length × padded output length, or whatever key the model uses).
// Gorgonia fixes shapes at graph build, compiling costs superlinear time in
// graph size and rebuilding per batch leaks memory (DESIGN.md), so each
// bucket's graph is built, differentiated and compiled once, on first use,
// and reused; all of them share the parameters' Value tensors, and their
// gradients are collected into the one Params store an optimizer steps.
//
// Each compiled graph holds every intermediate value and gradient of its
// shape (hundreds of MB for a speech batch), so MaxGraphs caps how many
// stay compiled: past it, the least recently used graph is closed and
// rebuilt when its key comes back.
type Buckets[K comparable, In any] struct {
	// MaxGraphs is the most graphs kept compiled; 0 means no limit.
	MaxGraphs int
	ps        *Params
	build     BuildFunc[K, In]
	graphs    map[K]*Graph[In]
	packs     map[*LSTM]*stepPacksRef // shared by the graphs, which run one at a time
	// sharedPacks marks packs as shared with concurrent graphs (Replicas).
	sharedPacks bool
	clock       int
	builds      int
	// hashRebuilds counts graphs built again for hash collisions.
	hashRebuilds int
}

// Graph is one bucket's compiled training graph.
type Graph[In any] struct {
	Inputs  In // the model's input nodes, to gorgonia.Let a batch into
	g       *gorgonia.ExprGraph
	binding *Binding
	loss    *gorgonia.Node
	lossVal gorgonia.Value
	vm      gorgonia.VM
	points  *gradPoints // where each gradient is final in the tape (ready.go)
	used    int         // Buckets.clock at the last Get
}

// NewBuckets returns an empty cache of graphs over ps built by build.
func NewBuckets[K comparable, In any](ps *Params, build BuildFunc[K, In]) *Buckets[K, In] {
	return &Buckets[K, In]{ps: ps, build: build, graphs: map[K]*Graph[In]{}, packs: map[*LSTM]*stepPacksRef{}}
}

// Len returns the number of compiled graphs.
func (bs *Buckets[K, In]) Len() int { return len(bs.graphs) }

// Get returns the compiled graph for key, building it on first use.
func (bs *Buckets[K, In]) Get(key K) (*Graph[In], error) {
	bs.clock++
	if gr, ok := bs.graphs[key]; ok {
		gr.used = bs.clock
		return gr, nil
	}
	if bs.MaxGraphs > 0 && len(bs.graphs) >= bs.MaxGraphs {
		bs.evict()
	}
	for attempt := 0; ; attempt++ {
		gr, used, err := bs.buildGraph(key)
		if err == nil {
			if a, b := hashCollision(gr.g); a != nil {
				err = fmt.Errorf("models: bucket %v: nodes %v and %v: %w", key, a, b, errNodeMerged)
			}
		}
		switch {
		case err == nil:
			gr.used = bs.clock
			bs.builds++
			gorgonia.Read(gr.loss, &gr.lossVal)
			gr.vm = gorgonia.NewTapeMachine(gr.g, gorgonia.BindDualValues(used...))
			if gr.points, err = findGradPoints(gr.g, gr.binding); err != nil {
				gr.vm.Close()
				return nil, fmt.Errorf("models: bucket %v: %w", key, err)
			}
			bs.graphs[key] = gr
			return gr, nil
		case !errors.Is(err, errNodeMerged):
			return nil, err
		case attempt == maxHashRebuilds:
			return nil, fmt.Errorf("models: bucket %v, %d builds: %w (last: %v)", key, attempt+1, ErrHashCollisions, err)
		}
		bs.hashRebuilds++
		bs.builds++ // a build thrown away counts too
		// Shift the next build's op ids by 1, 2, 3, … beyond the last one's,
		// so that they differ in alignment too: FNV-1a ends on an xor, so
		// ops whose hash states differ by 1 collide again at ids n, n+1
		// for every even n.
		kernelIDs.Add(uint64(attempt) + 1)
	}
}

// buildGraph builds key's graph and its gradients, uncompiled, and returns
// the parameter nodes the loss depends on.
func (bs *Buckets[K, In]) buildGraph(key K) (*Graph[In], gorgonia.Nodes, error) {
	g := gorgonia.NewGraph()
	b := bs.ps.bind(g, bs.packs, bs.sharedPacks)
	loss, inputs, err := bs.build(g, b, key)
	if err != nil {
		return nil, nil, fmt.Errorf("models: building graph for bucket %v: %w", key, err)
	}
	used := b.Used()
	if len(used) == 0 {
		return nil, nil, fmt.Errorf("models: bucket %v: the loss depends on no parameter", key)
	}
	if _, err := gorgonia.Grad(loss, used...); err != nil {
		return nil, nil, fmt.Errorf("models: differentiating bucket %v: %w", key, err)
	}
	return &Graph[In]{Inputs: inputs, g: g, binding: b, loss: loss}, used, nil
}

// HashRebuilds returns how many graphs were built again because two of
// their nodes shared a 32-bit hash (hash_collision.go).
func (bs *Buckets[K, In]) HashRebuilds() int { return bs.hashRebuilds }

// evict closes the least recently used graph and returns its memory.
func (bs *Buckets[K, In]) evict() {
	var (
		oldest K
		found  bool
		at     int
	)
	for k, gr := range bs.graphs {
		if !found || gr.used < at {
			oldest, at, found = k, gr.used, true
		}
	}
	if !found {
		return
	}
	bs.graphs[oldest].vm.Close()
	delete(bs.graphs, oldest)
	runtime.GC() // the graph's tensors are only reachable from finalizers now
	debug.FreeOSMemory()
}

// Builds returns how many graphs have been built, rebuilds included (after
// an eviction, or for a hash collision: HashRebuilds).
func (bs *Buckets[K, In]) Builds() int { return bs.builds }

// Run executes the graph on the batch already bound to its inputs, adds the
// gradients into the Params' Grad tensors and returns the loss.
func (gr *Graph[In]) Run() (float64, error) {
	gr.binding.invalidatePacks()
	if err := gr.compute(); err != nil {
		return 0, err
	}
	return gr.collect()
}

// compute runs the forward and backward passes, leaving the gradients in
// the graph. It only reads the parameters' Value tensors, so graphs of
// different Buckets over one Params may compute concurrently.
func (gr *Graph[In]) compute() error {
	if err := gr.vm.RunAll(); err != nil {
		gr.vm.Reset()
		return fmt.Errorf("models: running graph: %w", err)
	}
	return nil
}

// collect adds the gradients of the last compute into the Params' Grad
// tensors, resets the machine and returns the loss.
func (gr *Graph[In]) collect() (float64, error) { return gr.collectAdding(true) }

// collectAdding is collect, or with add false a collect that only zeroes
// the graph's gradients (a GradStream has taken them).
func (gr *Graph[In]) collectAdding(add bool) (float64, error) {
	defer gr.vm.Reset()
	if err := gr.binding.collectGrads(add); err != nil {
		return 0, err
	}
	switch v := gr.lossVal.Data().(type) {
	case float32:
		return float64(v), nil
	case float64:
		return v, nil
	default:
		return 0, fmt.Errorf("models: loss has type %T, want a float scalar", v)
	}
}

// Close releases every compiled machine.
func (bs *Buckets[K, In]) Close() {
	for k, gr := range bs.graphs {
		gr.vm.Close()
		delete(bs.graphs, k)
	}
}

// invalidatePacks marks the binding's shared packed weights stale, so
// that the next run packs the current weights (see stepPacksRef).
func (b *Binding) invalidatePacks() {
	for _, ref := range b.packs {
		ref.invalidate()
	}
}
