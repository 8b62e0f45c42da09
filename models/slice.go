package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Slice and Concat replace gorgonia.Slice and gorgonia.Concat in training
// graphs. Gorgonia (v0.9.18) hashes a slice's bounds as single bytes
// (sliceOp.WriteHash writes byte(start), byte(end)), and its graph merges
// nodes whose op, shape and children hash alike. So two slices of one node
// whose bounds agree modulo 256 and whose results have one shape become one
// node: [0:256] and [256:512] of a (B, 512) state are the same node, the
// gradient of a Concat of two parts of width 256 (built from such slices of
// the output gradient) hands the first part's gradient to both, and step
// 256 of an (S, B, E) tensor is step 0. Fused nodes hash by a unique id and
// are never merged.

// Slice returns x[…, start:end, …], the positions [start, end) along axis,
// as one fused node (a dense copy; the axis keeps its length end − start).
func Slice(x *gorgonia.Node, axis, start, end int) (*gorgonia.Node, error) {
	return Apply(&sliceKernel{axis: axis, start: start, end: end}, x)
}

// Select returns x[…, i, …], position i along axis with the axis removed,
// as one fused node: Select(x, 0, i) of an (S, B, E) tensor is (B, E).
func Select(x *gorgonia.Node, axis, i int) (*gorgonia.Node, error) {
	return Apply(&sliceKernel{axis: axis, start: i, end: i + 1, drop: true}, x)
}

// Concat joins xs along axis as one fused node; all must have one rank and
// agree on every other axis. A single node is returned as it is.
func Concat(axis int, xs ...*gorgonia.Node) (*gorgonia.Node, error) {
	if len(xs) == 1 {
		return xs[0], nil
	}
	return Apply(&concatKernel{axis: axis}, xs...)
}

// axisSplit views shape as (outer, n, inner) around axis.
func axisSplit(s tensor.Shape, axis int) (outer, n, inner int) {
	outer, inner = 1, 1
	for _, d := range s[:axis] {
		outer *= d
	}
	for _, d := range s[axis+1:] {
		inner *= d
	}
	return outer, s[axis], inner
}

// copyBlocks copies outer blocks of w elements from src (block stride
// srcStride, first block at srcOff) to dst (stride dstStride, at dstOff).
func copyBlocks[F Float](dst, src []F, outer, w, dstStride, dstOff, srcStride, srcOff int) {
	for o := 0; o < outer; o++ {
		copy(dst[o*dstStride+dstOff:o*dstStride+dstOff+w], src[o*srcStride+srcOff:o*srcStride+srcOff+w])
	}
}

// copyBlocksT dispatches copyBlocks on the tensors' dtype.
func copyBlocksT(dst, src *tensor.Dense, outer, w, dstStride, dstOff, srcStride, srcOff int) {
	if dst.Dtype() == tensor.Float32 {
		copyBlocks(floatsOf[float32](dst), floatsOf[float32](src), outer, w, dstStride, dstOff, srcStride, srcOff)
		return
	}
	copyBlocks(floatsOf[float64](dst), floatsOf[float64](src), outer, w, dstStride, dstOff, srcStride, srcOff)
}

func zeroT(t *tensor.Dense) {
	if t.Dtype() == tensor.Float32 {
		clear(floatsOf[float32](t))
		return
	}
	clear(floatsOf[float64](t))
}

// sliceKernel is Slice (drop false) and Select (drop true).
type sliceKernel struct {
	axis, start, end int
	drop             bool
}

func (k *sliceKernel) Name() string {
	return fmt.Sprintf("Slice(axis %d, %d:%d)", k.axis, k.start, k.end)
}

func (k *sliceKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%d inputs, want 1", len(in))
	}
	s := in[0]
	if k.axis < 0 || k.axis >= s.Dims() {
		return nil, fmt.Errorf("axis %d out of range for shape %v", k.axis, s)
	}
	if k.start < 0 || k.end > s[k.axis] || k.start >= k.end {
		return nil, fmt.Errorf("range [%d, %d) out of bounds or empty on axis %d of %v", k.start, k.end, k.axis, s)
	}
	if k.drop {
		if s.Dims() < 2 {
			return nil, fmt.Errorf("selecting from %v would leave a scalar", s)
		}
		out := make(tensor.Shape, 0, s.Dims()-1)
		out = append(out, s[:k.axis]...)
		return append(out, s[k.axis+1:]...), nil
	}
	out := s.Clone()
	out[k.axis] = k.end - k.start
	return out, nil
}

func (k *sliceKernel) Differentiable(int) []bool { return []bool{true} }

func (k *sliceKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	outer, n, inner := axisSplit(in[0].Shape(), k.axis)
	w := (k.end - k.start) * inner
	copyBlocksT(out, in[0], outer, w, w, 0, n*inner, k.start*inner)
	return nil
}

func (k *sliceKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	outer, n, inner := axisSplit(in[0].Shape(), k.axis)
	w := (k.end - k.start) * inner
	zeroT(dIn[0])
	copyBlocksT(dIn[0], dOut, outer, w, n*inner, k.start*inner, w, 0)
	return nil
}

// concatKernel is Concat.
type concatKernel struct{ axis int }

func (k *concatKernel) Name() string { return fmt.Sprintf("Concat(axis %d)", k.axis) }

func (k *concatKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	s0 := in[0]
	if k.axis < 0 || k.axis >= s0.Dims() {
		return nil, fmt.Errorf("axis %d out of range for shape %v", k.axis, s0)
	}
	out := s0.Clone()
	out[k.axis] = 0
	for i, s := range in {
		if s.Dims() != s0.Dims() {
			return nil, fmt.Errorf("input %d has shape %v, input 0 %v", i, s, s0)
		}
		for a := range s {
			if a != k.axis && s[a] != s0[a] {
				return nil, fmt.Errorf("input %d has shape %v, input 0 %v: they differ off axis %d", i, s, s0, k.axis)
			}
		}
		out[k.axis] += s[k.axis]
	}
	return out, nil
}

func (k *concatKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}

func (k *concatKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	outer, n, inner := axisSplit(out.Shape(), k.axis)
	off := 0
	for _, x := range in {
		w := x.Shape()[k.axis] * inner
		copyBlocksT(out, x, outer, w, n*inner, off, w, 0)
		off += w
	}
	return nil
}

func (k *concatKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	outer, n, inner := axisSplit(dOut.Shape(), k.axis)
	off := 0
	for i, x := range in {
		w := x.Shape()[k.axis] * inner
		copyBlocksT(dIn[i], dOut, outer, w, w, 0, n*inner, off)
		off += w
	}
	return nil
}
