package attention

import (
	"fmt"

	"gorgonia.org/tensor"
)

// MaskFromLengths returns the (B, T) padding mask of a batch whose row b
// has lengths[b] real positions: 1 for t < lengths[b] and 0 for the padding
// after. A length outside [0, T] is an error (ErrShape).
func MaskFromLengths(lengths []int, T int) ([]float32, error) {
	mask := make([]float32, len(lengths)*T) // (B, T)
	if err := fillMask(mask, lengths, T); err != nil {
		return nil, err
	}
	return mask, nil
}

// MaskTensor is MaskFromLengths as a (B, T) tensor of the given dtype
// (tensor.Float32 or tensor.Float64), ready to bind to a graph's mask input.
func MaskTensor(dtype tensor.Dtype, lengths []int, T int) (*tensor.Dense, error) {
	mask, err := MaskFromLengths(lengths, T)
	if err != nil {
		return nil, err
	}
	switch dtype {
	case tensor.Float32:
		return tensor.New(tensor.WithShape(len(lengths), T), tensor.WithBacking(mask)), nil
	case tensor.Float64:
		m64 := make([]float64, len(mask))
		for i, v := range mask {
			m64[i] = float64(v)
		}
		return tensor.New(tensor.WithShape(len(lengths), T), tensor.WithBacking(m64)), nil
	}
	return nil, fmt.Errorf("attention: MaskTensor: dtype %v, want float32 or float64: %w", dtype, ErrDtype)
}

func fillMask(mask []float32, lengths []int, T int) error {
	if T < 0 {
		return fmt.Errorf("attention: mask length T = %d, want ≥ 0: %w", T, ErrShape)
	}
	for b, n := range lengths {
		if n < 0 || n > T {
			return fmt.Errorf("attention: lengths[%d] = %d, want 0..%d: %w", b, n, T, ErrShape)
		}
		row := mask[b*T : (b+1)*T]
		for t := range row {
			row[t] = 0
			if t < n {
				row[t] = 1
			}
		}
	}
	return nil
}
