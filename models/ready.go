package models

import (
	"fmt"
	"slices"

	"gorgonia.org/gorgonia"
)

// Where in a compiled graph's tape each parameter's gradient is final.
//
// A tape machine runs its graph as one call (RunAll) and has no hooks, so
// the points are found once, when the graph is compiled, from the order in
// which the machine runs the nodes: gorgonia.Compile runs them in the
// reverse of gorgonia.Sort, a stabilized topological sort that gives the
// same order every time it is asked. A parameter node p has one gradient
// node D (its gradient from a single use, or the ReduceAdd of its uses'
// gradients at several time steps), and the machine adds D's value into
// p's dual value right after running D, never again in the run. So p's
// gradient is final from the first instruction after D on; our own ops
// (fusedOp, gradOp: the kernels, which make up nearly all of the backward
// pass) are the only instructions that call back into this package, so
// each of them carries the parameters whose D ran since the one before it
// (readyAt) and reports them before it computes. Those whose D comes after
// the last of our ops, or that gorgonia adds only after the run (a
// gradient node that is an identity, Iop, goes through its closure queue),
// are reported when the tape ends (gradPoints.atEnd).
//
// TestGradPoints checks the points on a speech model's graph: every
// gradient reported during the run is already the one the run ends with.

// gradPoints is a compiled graph's part in a streamed run (GradStream).
type gradPoints struct {
	binding *Binding
	used    []bool // per binding index: differentiated in this graph
	atEnd   []int  // binding indices final only when the tape ends
	stream  *GradStream
	replica int // the graph's index in the stream's run
}

// readyAt is held by one of our ops: the parameters (binding indices)
// whose gradients are final when the op starts.
type readyAt struct {
	g      *gradPoints
	params []int
}

// fire reports r's parameters to the graph's stream, if the graph runs in
// one, and lets the stream's sums advance. A nil r (a graph never
// analyzed) does nothing.
func (r *readyAt) fire() {
	if r == nil || r.g.stream == nil {
		return
	}
	r.g.stream.ready(r.g, r.params)
}

// findGradPoints analyzes gr's compiled graph and attaches a readyAt to
// each of our ops in it.
func findGradPoints(g *gorgonia.ExprGraph, b *Binding) (*gradPoints, error) {
	order, err := gorgonia.Sort(g)
	if err != nil {
		return nil, fmt.Errorf("models: ordering the graph: %w", err)
	}
	slices.Reverse(order) // the tape's order (gorgonia.Compile)
	pts := &gradPoints{binding: b, used: make([]bool, len(b.nodes))}
	derivOf := map[*gorgonia.Node][]int{}
	for i, n := range b.nodes {
		if _, err := n.Grad(); err != nil {
			continue // not differentiated here: no dual value
		}
		pts.used[i] = true
		d := n.Deriv()
		if d == nil || !slices.Contains(d.DerivOf(), n) || d.Op() == (gorgonia.Iop{}) {
			pts.atEnd = append(pts.atEnd, i)
			continue
		}
		derivOf[d] = append(derivOf[d], i)
	}
	var pending []int
	for _, n := range order {
		var ready **readyAt
		switch op := n.Op().(type) {
		case *fusedOp:
			ready = &op.ready
		case *gradOp:
			ready = &op.ready
		}
		if ready != nil {
			*ready = &readyAt{g: pts, params: pending}
			pending = nil
		}
		pending = append(pending, derivOf[n]...)
		delete(derivOf, n)
	}
	for _, ps := range derivOf { // gradient nodes the tape does not run
		pending = append(pending, ps...)
	}
	pts.atEnd = append(pts.atEnd, pending...)
	return pts, nil
}
