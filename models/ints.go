package models

import (
	"fmt"

	"gorgonia.org/tensor"
)

// IntTensor packs whole numbers (token ids, lengths, targets; PadID for
// padding) into a float tensor of dtype dt and the given shape, the form in
// which kernels take integer inputs. len(vals) must equal the shape's size.
func IntTensor(dt tensor.Dtype, vals []int, shape ...int) *tensor.Dense {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(vals) {
		panic(fmt.Sprintf("models: IntTensor: %d values for shape %v", len(vals), shape))
	}
	switch dt {
	case tensor.Float64:
		d := make([]float64, n)
		for i, v := range vals {
			d[i] = float64(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	case tensor.Float32:
		d := make([]float32, n)
		for i, v := range vals {
			d[i] = float32(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	}
	panic(fmt.Sprintf("models: IntTensor: dtype %v, want float32 or float64", dt))
}

// FloatTensor wraps values as a float tensor of dtype dt and the given
// shape (copying them for float64).
func FloatTensor(dt tensor.Dtype, vals []float32, shape ...int) *tensor.Dense {
	if dt == tensor.Float64 {
		d := make([]float64, len(vals))
		for i, v := range vals {
			d[i] = float64(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(vals))
}
