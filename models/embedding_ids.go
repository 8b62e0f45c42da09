package models

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/tensor"
)

// ErrBadIndex reports an integer input (token id, sequence length, CTC
// target) that is not a whole number in its allowed range. Kernels that take
// such inputs return it, wrapped with the input's name and the offending
// value, from their forward pass.
var ErrBadIndex = errors.New("models: bad integer input")

// Integer inputs. Every input of a Kernel has the graph's float dtype, so
// token ids, sequence lengths and CTC targets travel as float tensors
// holding whole numbers (exact in float32 up to 2²⁴). They are never
// differentiated.

// readInts converts an integer input to ints in dst (grown as needed),
// checking that each value is a whole number in [lo, hi]. name says what
// the input is, for the error.
func readInts(t *tensor.Dense, name string, lo, hi int, dst []int) ([]int, error) {
	switch d := t.Data().(type) {
	case []float32:
		return readIntsOf(d, name, lo, hi, dst)
	case []float64:
		return readIntsOf(d, name, lo, hi, dst)
	}
	return dst, fmt.Errorf("%s: dtype %v, want float32 or float64", name, t.Dtype())
}

func readIntsOf[F Float](src []F, name string, lo, hi int, dst []int) ([]int, error) {
	dst = growInts(dst, len(src))
	for i, v := range src {
		f := float64(v)
		if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
			return dst, fmt.Errorf("%w: %s[%d] = %v, want a whole number in [%d, %d]", ErrBadIndex, name, i, f, lo, hi)
		}
		dst[i] = int(f)
	}
	return dst, nil
}

// checkInts is readInts' check for eager callers that pass ints directly.
func checkInts(src []int, name string, lo, hi int) error {
	for i, v := range src {
		if v < lo || v > hi {
			return fmt.Errorf("%w: %s[%d] = %d, want a whole number in [%d, %d]", ErrBadIndex, name, i, v, lo, hi)
		}
	}
	return nil
}
