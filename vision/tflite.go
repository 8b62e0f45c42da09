package vision

import (
	"errors"
	"fmt"
	"math"
)

// This file reads the subset of the TensorFlow Lite schema
// (tensorflow/lite/schema/schema.fbs, file identifier "TFL3") that a
// convolutional image classifier needs. Field numbers are the schema's
// declaration order; a union takes two numbers (type tag, then value).

// tfType is TFLite's TensorType.
type tfType int8

const (
	tfFloat32 tfType = 0
	tfInt32   tfType = 2
	tfUint8   tfType = 3
	tfInt64   tfType = 4
	tfInt8    tfType = 9
)

func (t tfType) String() string {
	switch t {
	case tfFloat32:
		return "float32"
	case 1:
		return "float16"
	case tfInt32:
		return "int32"
	case tfUint8:
		return "uint8"
	case tfInt64:
		return "int64"
	case tfInt8:
		return "int8"
	}
	return fmt.Sprintf("type %d", int8(t))
}

// size returns the element size in bytes, or 0 for a type this package
// does not read.
func (t tfType) size() int {
	switch t {
	case tfFloat32, tfInt32:
		return 4
	case tfUint8, tfInt8:
		return 1
	case tfInt64:
		return 8
	}
	return 0
}

// tfOp is TFLite's BuiltinOperator.
type tfOp int32

const (
	opAdd             tfOp = 0
	opAveragePool2D   tfOp = 1
	opConv2D          tfOp = 3
	opDepthwiseConv2D tfOp = 4
	opDequantize      tfOp = 6
	opFullyConnected  tfOp = 9
	opReshape         tfOp = 22
	opSoftmax         tfOp = 25
	opCustom          tfOp = 32
	opSqueeze         tfOp = 43
	opQuantize        tfOp = 114
)

// opNames names the operators this package runs and, for clearer errors,
// some common ones it does not.
var opNames = map[tfOp]string{
	opAdd: "ADD", opAveragePool2D: "AVERAGE_POOL_2D", 2: "CONCATENATION", opConv2D: "CONV_2D",
	opDepthwiseConv2D: "DEPTHWISE_CONV_2D", opDequantize: "DEQUANTIZE", opFullyConnected: "FULLY_CONNECTED",
	14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU", 21: "RELU6", opReshape: "RESHAPE",
	23: "RESIZE_BILINEAR", opSoftmax: "SOFTMAX", opCustom: "CUSTOM", 34: "PAD", 40: "MEAN", 41: "SUB",
	opSqueeze: "SQUEEZE", 114: "QUANTIZE", 117: "HARD_SWISH",
}

func (o tfOp) String() string {
	if name, ok := opNames[o]; ok {
		return name
	}
	return fmt.Sprintf("builtin operator %d", int32(o))
}

// tfActivation is TFLite's ActivationFunctionType (a fused activation).
type tfActivation uint8

const (
	actNone  tfActivation = 0
	actRelu  tfActivation = 1
	actRelu1 tfActivation = 2 // RELU_N1_TO_1: clamp to [−1, 1]
	actRelu6 tfActivation = 3
)

// tfPadding is TFLite's Padding.
type tfPadding uint8

const (
	padSame  tfPadding = 0
	padValid tfPadding = 1
)

// Union tags of BuiltinOptions that this package reads.
const (
	optConv2D          = 1
	optDepthwiseConv2D = 2
	optPool2D          = 5
	optFullyConnected  = 8
	optSoftmax         = 9
	optAdd             = 11
	optReshape         = 17
	optSqueeze         = 30
)

// tfModel is a parsed TFLite model: its first subgraph with constant
// buffers resolved. Buffer data aliases the file bytes.
type tfModel struct {
	version     uint32
	description string
	tensors     []tfTensor
	operators   []tfOperator
	inputs      []int // tensor indices
	outputs     []int
}

type tfTensor struct {
	name  string
	shape []int
	typ   tfType
	data  []byte   // constant data, nil for activations
	quant *tfQuant // nil when not quantized
}

// tfQuant holds affine quantization parameters: real = scale·(q − zero).
// With one scale they apply to the whole tensor; with several, to the
// slices along dim.
type tfQuant struct {
	scale []float32
	zero  []int64
	dim   int
}

type tfOperator struct {
	op      tfOp
	custom  string // custom_code of a CUSTOM operator
	inputs  []int  // tensor indices; −1 marks an omitted optional input
	outputs []int
	opts    tfOptions
}

// tfOptions is the union of the builtin options this package reads; each
// operator uses the fields its options table declares.
type tfOptions struct {
	padding              tfPadding
	strideW, strideH     int
	dilationW, dilationH int
	filterW, filterH     int
	depthMultiplier      int
	activation           tfActivation
	newShape             []int
	squeezeDims          []int
	beta                 float32
	keepNumDims          bool
}

// Limits that keep a hostile file from asking for absurd allocations.
const (
	maxTensorRank     = 8
	maxTensorElements = 1 << 28
)

// readTFLite parses a TFLite flatbuffer. The returned model references
// data; errors wrap ErrModel (malformed file) or ErrUnsupported.
func readTFLite(data []byte) (*tfModel, error) {
	r := &flatReader{buf: data}
	if len(data) >= 8 && string(data[4:8]) != "TFL3" {
		return nil, fmt.Errorf("%w: file identifier %q, want \"TFL3\" (not a TFLite model)", ErrModel, data[4:8])
	}
	root := r.root()
	if r.err != nil {
		return nil, r.err
	}
	m := &tfModel{
		version:     r.uint32Field(root, 0, 0),
		description: r.stringField(root, 3),
	}
	if m.version != 3 && r.err == nil {
		return nil, fmt.Errorf("%w: schema version %d, want 3", ErrUnsupported, m.version)
	}
	codes := r.readOpcodes(root)
	buffers := r.readBuffers(root)
	subgraphs := r.vectorField(root, 2, 4)
	if r.err != nil {
		return nil, r.err
	}
	if subgraphs.n == 0 {
		return nil, fmt.Errorf("%w: no subgraphs", ErrModel)
	}
	r.where = func() string { return "subgraphs[0]" }
	sg := r.tableAt(subgraphs, 0)
	if r.err != nil {
		return nil, r.err
	}
	m.tensors = r.readTensors(sg, buffers)
	r.where = func() string { return "subgraphs[0]" }
	m.inputs = r.indices(r.vectorField(sg, 1, 4), len(m.tensors), "inputs", false)
	m.outputs = r.indices(r.vectorField(sg, 2, 4), len(m.tensors), "outputs", false)
	m.operators = r.readOperators(sg, codes, len(m.tensors))
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

type tfOpcode struct {
	op     tfOp
	custom string
}

func (r *flatReader) readOpcodes(root flatTable) []tfOpcode {
	v := r.vectorField(root, 1, 4)
	codes := make([]tfOpcode, 0, v.n)
	for i := 0; i < v.n && r.err == nil; i++ {
		r.where = func() string { return fmt.Sprintf("operator_codes[%d]", i) }
		t := r.tableAt(v, i)
		// Schema 3a split the code in two: the old int8 field 0
		// (deprecated_builtin_code) and an int32 field 3 for codes above
		// 127. Writers fill both; the real code is the larger.
		old := tfOp(r.int8Field(t, 0, 0))
		code := tfOp(r.int32Field(t, 3, 0))
		codes = append(codes, tfOpcode{op: max(old, code), custom: r.stringField(t, 1)})
	}
	r.where = nil
	return codes
}

func (r *flatReader) readBuffers(root flatTable) [][]byte {
	v := r.vectorField(root, 4, 4)
	bufs := make([][]byte, 0, v.n)
	for i := 0; i < v.n && r.err == nil; i++ {
		r.where = func() string { return fmt.Sprintf("buffers[%d]", i) }
		t := r.tableAt(v, i)
		// Fields 1 and 2 (offset, size) place data outside the flatbuffer,
		// used only by models over 2 GB.
		if off := r.field(t, 1, 8); off >= 0 && r.u32(off)|r.u32(off+4) != 0 {
			r.fail("data outside the flatbuffer (models over 2 GB) is not supported")
		}
		bufs = append(bufs, r.bytes(r.vectorField(t, 0, 1)))
	}
	r.where = nil
	return bufs
}

func (r *flatReader) readTensors(sg flatTable, buffers [][]byte) []tfTensor {
	v := r.vectorField(sg, 0, 4)
	tensors := make([]tfTensor, 0, v.n)
	for i := 0; i < v.n && r.err == nil; i++ {
		r.where = func() string { return fmt.Sprintf("subgraphs[0].tensors[%d]", i) }
		t := r.tableAt(v, i)
		tt := tfTensor{
			typ:  tfType(r.int8Field(t, 1, 0)),
			name: r.stringField(t, 3),
		}
		shape := r.vectorField(t, 0, 4)
		if shape.n > maxTensorRank {
			r.fail("rank %d, at most %d supported", shape.n, maxTensorRank)
			break
		}
		elements := 1
		for j := 0; j < shape.n && r.err == nil; j++ {
			d := int(r.int32At(shape, j))
			if d < 0 || d > maxTensorElements || (d > 0 && elements > maxTensorElements/d) {
				r.fail("shape dimension %d is %d", j, d)
				break
			}
			elements *= d
			tt.shape = append(tt.shape, d)
		}
		if b := r.uint32Field(t, 2, 0); r.err == nil {
			if int64(b) >= int64(len(buffers)) {
				r.fail("buffer index %d, model has %d buffers", b, len(buffers))
				break
			}
			tt.data = buffers[b]
		}
		if tt.data != nil {
			if size := tt.typ.size(); size == 0 {
				r.fail("constant tensor of %v is not supported", tt.typ)
			} else if len(tt.data) != elements*size {
				r.fail("constant data is %d bytes, shape %v of %v needs %d", len(tt.data), tt.shape, tt.typ, elements*size)
			}
		}
		if q, ok := r.tableField(t, 4); ok {
			tt.quant = r.readQuant(q, tt.shape)
		}
		tensors = append(tensors, tt)
	}
	r.where = nil
	return tensors
}

// readQuant reads QuantizationParameters; it returns nil when the table
// carries no scales (TFLite writes empty tables for float tensors).
func (r *flatReader) readQuant(t flatTable, shape []int) *tfQuant {
	scales := r.vectorField(t, 2, 4)
	zeros := r.vectorField(t, 3, 8)
	if r.uint8Field(t, 4, 0) != 0 {
		r.fail("custom quantization details are not supported")
		return nil
	}
	if scales.n == 0 || r.err != nil {
		return nil
	}
	q := &tfQuant{dim: int(r.int32Field(t, 6, 0))}
	if zeros.n != scales.n {
		r.fail("quantization has %d scales but %d zero points", scales.n, zeros.n)
		return nil
	}
	if scales.n > 1 {
		if q.dim < 0 || q.dim >= len(shape) || shape[q.dim] != scales.n {
			r.fail("%d quantization scales along dimension %d of shape %v", scales.n, q.dim, shape)
			return nil
		}
	}
	for i := 0; i < scales.n; i++ {
		s := r.float32At(scales, i)
		if !(s > 0) || math.IsInf(float64(s), 0) {
			r.fail("quantization scale %d is %v, want a finite positive number", i, s)
			return nil
		}
		q.scale = append(q.scale, s)
		q.zero = append(q.zero, r.int64At(zeros, i))
	}
	return q
}

func (r *flatReader) readOperators(sg flatTable, codes []tfOpcode, nTensors int) []tfOperator {
	v := r.vectorField(sg, 3, 4)
	ops := make([]tfOperator, 0, v.n)
	for i := 0; i < v.n && r.err == nil; i++ {
		r.where = func() string { return fmt.Sprintf("subgraphs[0].operators[%d]", i) }
		t := r.tableAt(v, i)
		idx := r.uint32Field(t, 0, 0)
		if r.err == nil && int64(idx) >= int64(len(codes)) {
			r.fail("opcode index %d, model has %d operator codes", idx, len(codes))
			break
		}
		op := tfOperator{
			inputs:  r.indices(r.vectorField(t, 1, 4), nTensors, "inputs", true),
			outputs: r.indices(r.vectorField(t, 2, 4), nTensors, "outputs", false),
		}
		if r.err != nil {
			break
		}
		op.op, op.custom = codes[idx].op, codes[idx].custom
		if tag := r.uint8Field(t, 3, 0); tag != 0 {
			if opts, ok := r.tableField(t, 4); ok {
				op.opts = r.readOptions(tag, opts)
			}
		}
		ops = append(ops, op)
	}
	r.where = nil
	return ops
}

// indices reads a vector of tensor indices, each in [0, n) or, where
// optional is set, −1.
func (r *flatReader) indices(v flatVector, n int, what string, optional bool) []int {
	out := make([]int, 0, v.n)
	for i := 0; i < v.n && r.err == nil; i++ {
		x := int(r.int32At(v, i))
		if x >= n || x < -1 || (x == -1 && !optional) {
			r.fail("%s[%d] is tensor %d, subgraph has %d tensors", what, i, x, n)
			return nil
		}
		out = append(out, x)
	}
	return out
}

// readOptions reads the builtin options table t whose union tag is tag.
// Options of operators this package does not run are skipped; the
// operator itself is rejected later with a clearer message.
func (r *flatReader) readOptions(tag uint8, t flatTable) tfOptions {
	var o tfOptions
	switch tag {
	case optConv2D:
		o.padding = tfPadding(r.uint8Field(t, 0, 0))
		o.strideW = int(r.int32Field(t, 1, 0))
		o.strideH = int(r.int32Field(t, 2, 0))
		o.activation = tfActivation(r.uint8Field(t, 3, 0))
		o.dilationW = int(r.int32Field(t, 4, 1))
		o.dilationH = int(r.int32Field(t, 5, 1))
	case optDepthwiseConv2D:
		o.padding = tfPadding(r.uint8Field(t, 0, 0))
		o.strideW = int(r.int32Field(t, 1, 0))
		o.strideH = int(r.int32Field(t, 2, 0))
		o.depthMultiplier = int(r.int32Field(t, 3, 0))
		o.activation = tfActivation(r.uint8Field(t, 4, 0))
		o.dilationW = int(r.int32Field(t, 5, 1))
		o.dilationH = int(r.int32Field(t, 6, 1))
	case optPool2D:
		o.padding = tfPadding(r.uint8Field(t, 0, 0))
		o.strideW = int(r.int32Field(t, 1, 0))
		o.strideH = int(r.int32Field(t, 2, 0))
		o.filterW = int(r.int32Field(t, 3, 0))
		o.filterH = int(r.int32Field(t, 4, 0))
		o.activation = tfActivation(r.uint8Field(t, 5, 0))
	case optFullyConnected:
		o.activation = tfActivation(r.uint8Field(t, 0, 0))
		if r.uint8Field(t, 1, 0) != 0 {
			r.fail("shuffled FULLY_CONNECTED weights are not supported")
		}
		o.keepNumDims = r.uint8Field(t, 2, 0) != 0
	case optSoftmax:
		o.beta = r.float32Field(t, 0, 0)
	case optAdd:
		o.activation = tfActivation(r.uint8Field(t, 0, 0))
	case optReshape:
		v := r.vectorField(t, 0, 4)
		for i := 0; i < v.n && r.err == nil; i++ {
			o.newShape = append(o.newShape, int(r.int32At(v, i)))
		}
	case optSqueeze:
		v := r.vectorField(t, 0, 4)
		if v.n > maxTensorRank {
			r.fail("%d squeeze dimensions, at most %d supported", v.n, maxTensorRank)
			break
		}
		for i := 0; i < v.n && r.err == nil; i++ {
			o.squeezeDims = append(o.squeezeDims, int(r.int32At(v, i)))
		}
	}
	return o
}

// Sentinel errors of the model reader and the encoder.
var (
	// ErrModel means a model file is malformed: truncated, an offset or
	// index out of range, inconsistent shapes or sizes.
	ErrModel = errors.New("vision: malformed model")
	// ErrUnsupported means a well-formed model uses an operator, type or
	// option that this package does not implement.
	ErrUnsupported = errors.New("vision: unsupported model")
)
