package vision

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// inferShapes fills in the shapes of the activation tensors that a model
// file leaves empty, as the MLIR converter does for every activation of
// MobileNet-EdgeTPU (only the input keeps its shape). Operators are visited
// in order, so each one's inputs are known when its output is inferred:
//
//	CONV_2D            [1 H W C] * [O kh kw C]   → [1 H' W' O]
//	DEPTHWISE_CONV_2D  [1 H W C] * [1 kh kw C·m] → [1 H' W' C·m]
//	AVERAGE_POOL_2D    [1 H W C], kh×kw window   → [1 H' W' C]
//	FULLY_CONNECTED    [..., K] · [N K]ᵀ         → [elements/K N], or [..., N] with keep_num_dims
//	ADD, SOFTMAX, QUANTIZE, DEQUANTIZE            → the shape of input 0
//	SQUEEZE            drops the squeeze_dims (all sizes of 1 when none are given)
//	RESHAPE            new_shape from the options or the constant input 1, one −1 inferred
//
// with H' = ⌈H/stride⌉ for SAME padding and ⌊(H − (kh−1)·dilation − 1)/stride⌋ + 1
// for VALID (samePad, tflite::ComputeOutSize). A shape the file does give
// is kept; the compiler checks it against its inputs. A tensor that one of
// these operators writes cannot be a scalar, so an empty shape there always
// means "not recorded". Outputs of other operators stay empty, and the
// compiler rejects those operators anyway. Errors wrap ErrModel.
func inferShapes(m *tfModel) error {
	for k := range m.operators {
		op := &m.operators[k]
		if len(op.outputs) == 0 {
			continue
		}
		out := &m.tensors[op.outputs[0]]
		if len(out.shape) != 0 || out.data != nil {
			continue
		}
		shape, err := inferShape(m, op)
		if err != nil {
			return fmt.Errorf("%w: operator %d (%v): output %q has no shape and %v", ErrModel, k, op.op, out.name, err)
		}
		if shape == nil {
			continue
		}
		if n, ok := checkedElements(shape); !ok || n == 0 {
			return fmt.Errorf("%w: operator %d (%v): inferred output shape %v of %q is empty or too large", ErrModel, k, op.op, shape, out.name)
		}
		out.shape = shape
	}
	return nil
}

// inferShape returns the output shape of op from its inputs, nil when op
// is an operator whose shape this package does not infer.
func inferShape(m *tfModel, op *tfOperator) ([]int, error) {
	input := func(i int) []int {
		if i >= len(op.inputs) || op.inputs[i] < 0 {
			return nil
		}
		return m.tensors[op.inputs[i]].shape
	}
	in := input(0)
	if len(in) == 0 {
		return nil, fmt.Errorf("its input 0 has none either")
	}
	o := &op.opts
	switch op.op {
	case opConv2D, opDepthwiseConv2D, opAveragePool2D:
		if len(in) != 4 {
			return nil, fmt.Errorf("input shape %v is not [1 height width channels]", in)
		}
		kh, kw, ch := o.filterH, o.filterW, in[3]
		if op.op != opAveragePool2D {
			f := input(1)
			if len(f) != 4 {
				return nil, fmt.Errorf("filter shape %v is not [out kh kw in]", f)
			}
			kh, kw, ch = f[1], f[2], f[0]
			if op.op == opDepthwiseConv2D {
				ch = f[3]
			}
		}
		dilH, dilW := max(o.dilationH, 1), max(o.dilationW, 1)
		if kh < 1 || kw < 1 || o.strideH < 1 || o.strideW < 1 {
			return nil, fmt.Errorf("a %d×%d window with stride %d×%d", kh, kw, o.strideH, o.strideW)
		}
		h, _ := samePad(in[1], kh, o.strideH, dilH, o.padding)
		w, _ := samePad(in[2], kw, o.strideW, dilW, o.padding)
		if h < 1 || w < 1 {
			return nil, fmt.Errorf("a %d×%d window on a %d×%d input leaves no output", kh, kw, in[1], in[2])
		}
		return []int{in[0], h, w, ch}, nil
	case opFullyConnected:
		f := input(1)
		if len(f) != 2 || f[1] < 1 {
			return nil, fmt.Errorf("weight shape %v is not [out in]", f)
		}
		n, _ := checkedElements(in)
		if o.keepNumDims {
			if in[len(in)-1] != f[1] {
				return nil, fmt.Errorf("input %v does not end in %d", in, f[1])
			}
			return append(slices.Clone(in[:len(in)-1]), f[0]), nil
		}
		if n%f[1] != 0 {
			return nil, fmt.Errorf("input %v is not a multiple of %d", in, f[1])
		}
		return []int{n / f[1], f[0]}, nil
	case opAdd, opSoftmax, opQuantize, opDequantize:
		return slices.Clone(in), nil
	case opSqueeze:
		return squeeze(in, o.squeezeDims)
	case opReshape:
		target := o.newShape
		if len(target) == 0 && len(op.inputs) > 1 && op.inputs[1] >= 0 {
			t := &m.tensors[op.inputs[1]]
			if t.data == nil || t.typ != tfInt32 || len(t.shape) != 1 {
				return nil, fmt.Errorf("the new shape %q is not a constant int32 vector", t.name)
			}
			for i := range t.shape[0] {
				target = append(target, int(int32(binary.LittleEndian.Uint32(t.data[4*i:]))))
			}
		}
		return reshape(in, target)
	}
	return nil, nil
}

// squeeze removes the dimensions dims (negative ones count from the end),
// which must have size 1, or every dimension of size 1 when dims is empty.
func squeeze(in, dims []int) ([]int, error) {
	drop := make([]bool, len(in))
	for _, d := range dims {
		if d < 0 {
			d += len(in)
		}
		if d < 0 || d >= len(in) || in[d] != 1 {
			return nil, fmt.Errorf("squeeze dimension %d of shape %v", d, in)
		}
		drop[d] = true
	}
	var out []int
	for i, n := range in {
		if !drop[i] && (len(dims) > 0 || n != 1) {
			out = append(out, n)
		}
	}
	return out, nil
}

// reshape resolves a RESHAPE target for an input of shape in: at most one
// −1, standing for what the others leave of the input's elements.
func reshape(in, target []int) ([]int, error) {
	n, _ := checkedElements(in)
	if len(target) == 0 || len(target) > maxTensorRank {
		return nil, fmt.Errorf("new shape %v", target)
	}
	out := slices.Clone(target)
	unknown, known := -1, 1
	for i, d := range out {
		switch {
		case d == -1 && unknown < 0:
			unknown = i
		case d < 1 || d > n:
			return nil, fmt.Errorf("new shape %v for input %v", target, in)
		default:
			known *= d
		}
		if known > n {
			return nil, fmt.Errorf("new shape %v for input %v", target, in)
		}
	}
	if unknown >= 0 && known > 0 && n%known == 0 {
		out[unknown] = n / known
		known = n
	}
	if known != n {
		return nil, fmt.Errorf("new shape %v for input %v: %d elements in", target, in, n)
	}
	return out, nil
}

// checkedElements is the number of elements of shape, and whether it is
// within maxTensorElements.
func checkedElements(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		if d < 0 || d > maxTensorElements || (d > 0 && n > maxTensorElements/d) {
			return 0, false
		}
		n *= d
	}
	return n, true
}
