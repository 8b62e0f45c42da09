package vision

import (
	"encoding/binary"
	"fmt"
	"math"
)

// dequantize returns the values of constant tensor t as float32:
//
//	real = scale·(q − zero_point)
//
// with one scale for the whole tensor or, for per-channel quantization, one
// per index along quant.dim. Float32 tensors are decoded as they are;
// integer tensors without quantization parameters keep their values.
func dequantize(t *tfTensor) ([]float32, error) {
	n := len(t.data) / max(t.typ.size(), 1)
	out := make([]float32, n)
	raw := func(i int) float64 {
		switch t.typ {
		case tfUint8:
			return float64(t.data[i])
		case tfInt8:
			return float64(int8(t.data[i]))
		case tfInt32:
			return float64(int32(binary.LittleEndian.Uint32(t.data[4*i:])))
		case tfInt64:
			return float64(int64(binary.LittleEndian.Uint64(t.data[8*i:])))
		}
		return 0
	}
	switch {
	case t.typ == tfFloat32:
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.data[4*i:]))
		}
		return out, nil
	case t.typ.size() == 0:
		return nil, fmt.Errorf("%w: tensor %q has type %v", ErrUnsupported, t.name, t.typ)
	case t.quant == nil:
		for i := range out {
			out[i] = float32(raw(i))
		}
		return out, nil
	}
	q := t.quant
	// Index i lies in channel (i / inner) % channels of dimension q.dim.
	inner, channels := 1, 1
	if len(q.scale) > 1 {
		channels = t.shape[q.dim]
		for _, d := range t.shape[q.dim+1:] {
			inner *= d
		}
	}
	for i := range out {
		c := (i / inner) % channels
		out[i] = float32(float64(q.scale[c]) * (raw(i) - float64(q.zero[c])))
	}
	return out, nil
}
