package models

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The pyramidal time reduction of Listen, Attend and Spell (Chan et al.
// 2016, eq. 5) concatenates each pair of adjacent frames:
//
//	x (B, T, D) → y (B, ⌈T/2⌉, 2D),  y[b, t] = [x[b, 2t] | x[b, 2t+1]]
//	lengths → ⌈lengths/2⌉
//
// Odd lengths are padded, not dropped: a frame at or past its sequence's
// length counts as zero, so the last real frame of an odd-length sequence
// (or of an odd T) is paired with zeros and survives. Rounding lengths up
// keeps every real frame, and a one-frame sequence stays one frame long.

// PyramidLength returns the length of an n-frame sequence after one
// reduction: ⌈n/2⌉.
func PyramidLength(n int) int { return (n + 1) / 2 }

// Pyramid is the graph face of the reduction: x (B, T, D) and lengths (B),
// a float tensor of whole numbers in [0, T], give y (B, ⌈T/2⌉, 2D) and the
// reduced lengths (B).
func Pyramid(x, lengths *gorgonia.Node) (y, yLengths *gorgonia.Node, err error) {
	if y, err = Apply(&pyramidKernel{}, x, lengths); err != nil {
		return nil, nil, err
	}
	if yLengths, err = Apply(&pyramidLengthsKernel{}, lengths); err != nil {
		return nil, nil, err
	}
	return y, yLengths, nil
}

// PyramidForward is the eager face: it writes the reduction of x (batch,
// steps, dim) into dst (batch, ⌈steps/2⌉, 2·dim), grown when short, and
// returns it. The reduced lengths are PyramidLength of each length.
func PyramidForward(dst, x []float32, batch, steps, dim int, lengths []int) ([]float32, error) {
	if len(lengths) != batch {
		return dst, fmt.Errorf("%w: %d sequence lengths for a batch of %d", ErrBadIndex, len(lengths), batch)
	}
	if err := checkInts(lengths, "sequence lengths", 0, steps); err != nil {
		return dst, err
	}
	dst = growFloats(dst, batch*PyramidLength(steps)*2*dim)
	pyramidForward(dst, x, lengths, batch, steps, dim)
	return dst, nil
}

// pyramidForward: y[b, t'] = [x[b, 2t'] | x[b, 2t'+1]], zero past lengths[b].
func pyramidForward[F Float](y, x []F, lengths []int, B, T, D int) {
	T2 := PyramidLength(T)
	for b := range B {
		n := lengths[b]
		for t := range T2 {
			row := y[(b*T2+t)*2*D : (b*T2+t+1)*2*D]
			for half := range 2 {
				dst := row[half*D : (half+1)*D]
				if src := 2*t + half; src < n {
					copy(dst, x[(b*T+src)*D:(b*T+src+1)*D])
				} else {
					clear(dst)
				}
			}
		}
	}
}

// pyramidBackward is the adjoint: dx[b, t] = the half of dy that read it,
// zero for padded frames.
func pyramidBackward[F Float](dx, dy []F, lengths []int, B, T, D int) {
	T2 := PyramidLength(T)
	for b := range B {
		for t := range T {
			dst := dx[(b*T+t)*D : (b*T+t+1)*D]
			if t < lengths[b] {
				copy(dst, dy[(b*T2+t/2)*2*D+(t%2)*D:])
			} else {
				clear(dst)
			}
		}
	}
}

// pyramidKernel: inputs x (B, T, D), lengths (B); output (B, ⌈T/2⌉, 2D).
type pyramidKernel struct {
	lengths []int
}

func (*pyramidKernel) Name() string { return "Pyramid" }

func (*pyramidKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 3 || in[1].Dims() != 1 || in[1][0] != in[0][0] {
		return nil, fmt.Errorf("want x (B, T, D) and lengths (B); got %v", in)
	}
	x := in[0]
	return tensor.Shape{x[0], PyramidLength(x[1]), 2 * x[2]}, nil
}

func (*pyramidKernel) Differentiable(int) []bool { return []bool{true, false} }

func (k *pyramidKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	var err error
	if k.lengths, err = readInts(in[1], "sequence lengths", 0, s[1], k.lengths); err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		pyramidForward(floatsOf[float32](out), floatsOf[float32](in[0]), k.lengths, s[0], s[1], s[2])
	} else {
		pyramidForward(floatsOf[float64](out), floatsOf[float64](in[0]), k.lengths, s[0], s[1], s[2])
	}
	return nil
}

func (k *pyramidKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if dOut.Dtype() == tensor.Float32 {
		pyramidBackward(floatsOf[float32](dIn[0]), floatsOf[float32](dOut), k.lengths, s[0], s[1], s[2])
	} else {
		pyramidBackward(floatsOf[float64](dIn[0]), floatsOf[float64](dOut), k.lengths, s[0], s[1], s[2])
	}
	return nil
}

// pyramidLengthsKernel maps lengths (B) to ⌈lengths/2⌉ (B). It has no
// differentiable input.
type pyramidLengthsKernel struct {
	lengths []int
}

func (*pyramidLengthsKernel) Name() string { return "PyramidLengths" }

func (*pyramidLengthsKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 1 {
		return nil, fmt.Errorf("want lengths (B); got %v", in)
	}
	return in[0].Clone(), nil
}

func (*pyramidLengthsKernel) Differentiable(int) []bool { return []bool{false} }

func (k *pyramidLengthsKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	var err error
	if k.lengths, err = readInts(in[0], "sequence lengths", 0, math.MaxInt32, k.lengths); err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		writePyramidLengths(floatsOf[float32](out), k.lengths)
	} else {
		writePyramidLengths(floatsOf[float64](out), k.lengths)
	}
	return nil
}

func writePyramidLengths[F Float](dst []F, lengths []int) {
	for i, n := range lengths {
		dst[i] = F(PyramidLength(n))
	}
}

func (*pyramidLengthsKernel) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil
}
