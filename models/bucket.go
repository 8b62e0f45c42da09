package models

import (
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
	clock     int
	builds    int
}

// Graph is one bucket's compiled training graph.
type Graph[In any] struct {
	Inputs  In // the model's input nodes, to gorgonia.Let a batch into
	g       *gorgonia.ExprGraph
	binding *Binding
	loss    *gorgonia.Node
	lossVal gorgonia.Value
	vm      gorgonia.VM
	used    int // Buckets.clock at the last Get
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
	g := gorgonia.NewGraph()
	b := bs.ps.bind(g, bs.packs)
	loss, inputs, err := bs.build(g, b, key)
	if err != nil {
		return nil, fmt.Errorf("models: building graph for bucket %v: %w", key, err)
	}
	used := b.Used()
	if len(used) == 0 {
		return nil, fmt.Errorf("models: bucket %v: the loss depends on no parameter", key)
	}
	if _, err := gorgonia.Grad(loss, used...); err != nil {
		return nil, fmt.Errorf("models: differentiating bucket %v: %w", key, err)
	}
	gr := &Graph[In]{Inputs: inputs, g: g, binding: b, loss: loss, used: bs.clock}
	bs.builds++
	gorgonia.Read(loss, &gr.lossVal)
	gr.vm = gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(used...))
	bs.graphs[key] = gr
	return gr, nil
}

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

// Builds returns how many graphs have been built, rebuilds included.
func (bs *Buckets[K, In]) Builds() int { return bs.builds }

// Run executes the graph on the batch already bound to its inputs, adds the
// gradients into the Params' Grad tensors and returns the loss.
func (gr *Graph[In]) Run() (float64, error) {
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
func (gr *Graph[In]) collect() (float64, error) {
	defer gr.vm.Reset()
	if err := gr.binding.CollectGrads(); err != nil {
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
