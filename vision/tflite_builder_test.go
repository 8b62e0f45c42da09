package vision

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// A minimal FlatBuffers writer for tests. It writes front to back: a table
// is written (vtable, then inline fields) before the objects it points to,
// and the offsets are filled in once those are placed, so every uoffset
// points forward as the format requires.
//
// fbTable field i is nil (absent) or one of: uint8, int8, int32, uint32,
// float32, int64 (inline scalars); string, []byte, []int32, []float32,
// []int64, fbTable, []fbTable (referenced objects).
type fbTable []any

type fbBuilder struct{ buf []byte }

// flatbuffer serializes root with the 4-byte file identifier ident.
func flatbuffer(root fbTable, ident string) []byte {
	b := &fbBuilder{buf: make([]byte, 8)}
	copy(b.buf[4:8], ident)
	root0 := b.table(root) // before b.buf is read: writing may move it
	binary.LittleEndian.PutUint32(b.buf, uint32(root0))
	return b.buf
}

func (b *fbBuilder) grow(n int) int {
	p := len(b.buf)
	b.buf = append(b.buf, make([]byte, n)...)
	return p
}

func (b *fbBuilder) align(n int) {
	for len(b.buf)%n != 0 {
		b.buf = append(b.buf, 0)
	}
}

func inlineSize(v any) int {
	switch v.(type) {
	case uint8, int8:
		return 1
	case int64:
		return 8
	}
	return 4 // 32-bit scalars and uoffsets
}

func (b *fbBuilder) table(t fbTable) int {
	b.align(2)
	vt := b.grow(4 + 2*len(t))
	b.align(4)
	tp := len(b.buf)
	size := 4
	offs := make([]int, len(t))
	for i, v := range t {
		if v == nil {
			continue
		}
		n := inlineSize(v)
		size = (size + n - 1) / n * n // aligned as FlatBuffers verifiers require
		offs[i] = size
		size += n
	}
	b.grow(size)
	le := binary.LittleEndian
	le.PutUint32(b.buf[tp:], uint32(int32(tp-vt)))
	le.PutUint16(b.buf[vt:], uint16(4+2*len(t)))
	le.PutUint16(b.buf[vt+2:], uint16(size))
	for i, off := range offs {
		le.PutUint16(b.buf[vt+4+2*i:], uint16(off))
	}
	for i, v := range t {
		p := tp + offs[i]
		switch v := v.(type) {
		case nil:
		case uint8:
			b.buf[p] = v
		case int8:
			b.buf[p] = byte(v)
		case int32:
			le.PutUint32(b.buf[p:], uint32(v))
		case uint32:
			le.PutUint32(b.buf[p:], v)
		case float32:
			le.PutUint32(b.buf[p:], math.Float32bits(v))
		case int64:
			le.PutUint64(b.buf[p:], uint64(v))
		default:
			target := b.object(v)
			le.PutUint32(b.buf[p:], uint32(target-p))
		}
	}
	return tp
}

// object writes a referenced object and returns its position.
func (b *fbBuilder) object(v any) int {
	le := binary.LittleEndian
	b.align(4)
	switch v := v.(type) {
	case fbTable:
		return b.table(v)
	case string:
		p := b.grow(4 + len(v) + 1)
		le.PutUint32(b.buf[p:], uint32(len(v)))
		copy(b.buf[p+4:], v)
		return p
	case []byte:
		p := b.grow(4 + len(v))
		le.PutUint32(b.buf[p:], uint32(len(v)))
		copy(b.buf[p+4:], v)
		return p
	case []int32:
		p := b.grow(4 + 4*len(v))
		le.PutUint32(b.buf[p:], uint32(len(v)))
		for i, x := range v {
			le.PutUint32(b.buf[p+4+4*i:], uint32(x))
		}
		return p
	case []float32:
		p := b.grow(4 + 4*len(v))
		le.PutUint32(b.buf[p:], uint32(len(v)))
		for i, x := range v {
			le.PutUint32(b.buf[p+4+4*i:], math.Float32bits(x))
		}
		return p
	case []int64:
		p := b.grow(4 + 8*len(v))
		le.PutUint32(b.buf[p:], uint32(len(v)))
		for i, x := range v {
			le.PutUint64(b.buf[p+4+8*i:], uint64(x))
		}
		return p
	case []fbTable:
		p := b.grow(4 + 4*len(v))
		le.PutUint32(b.buf[p:], uint32(len(v)))
		for i, t := range v {
			slot := p + 4 + 4*i
			target := b.table(t) // before b.buf is read: writing may move it
			le.PutUint32(b.buf[slot:], uint32(target-slot))
		}
		return p
	}
	panic(fmt.Sprintf("fbBuilder: unsupported value %T", v))
}

// A TFLite model described for the builder.
type tinyTensor struct {
	name  string
	shape []int32
	typ   tfType
	data  []byte    // constant data, nil for activations
	scale []float32 // quantization, nil for none
	zero  []int64
	qdim  int32
}

type tinyOp struct {
	code            tfOp
	inputs, outputs []int32
	optTag          uint8
	opts            fbTable
}

type tinyModel struct {
	tensors         []tinyTensor
	ops             []tinyOp
	inputs, outputs []int32
}

// flatbuffer serializes the model as a TFLite file (schema version 3).
func (m *tinyModel) flatbuffer() []byte {
	var codes []tfOp
	var opcodes []fbTable
	var ops []fbTable
	for _, op := range m.ops {
		idx := -1
		for i, c := range codes {
			if c == op.code {
				idx = i
			}
		}
		if idx < 0 {
			idx = len(codes)
			codes = append(codes, op.code)
			opcodes = append(opcodes, fbTable{int8(min(op.code, 127)), nil, int32(1), int32(op.code)})
		}
		t := fbTable{uint32(idx), op.inputs, op.outputs}
		if op.opts != nil {
			t = append(t, op.optTag, op.opts)
		}
		ops = append(ops, t)
	}
	buffers := []fbTable{{}} // buffer 0: the empty sentinel
	var tensors []fbTable
	for _, t := range m.tensors {
		buf := uint32(0)
		if t.data != nil {
			buf = uint32(len(buffers))
			buffers = append(buffers, fbTable{t.data})
		}
		tt := fbTable{t.shape, int8(t.typ), buf, t.name}
		if t.scale != nil {
			tt = append(tt, fbTable{nil, nil, t.scale, t.zero, nil, nil, t.qdim})
		}
		tensors = append(tensors, tt)
	}
	sub := fbTable{tensors, m.inputs, m.outputs, ops, "main"}
	root := fbTable{uint32(3), opcodes, []fbTable{sub}, "tiny test model", buffers}
	return flatbuffer(root, "TFL3")
}

// add appends a tensor and returns its index.
func (m *tinyModel) add(t tinyTensor) int32 {
	m.tensors = append(m.tensors, t)
	return int32(len(m.tensors) - 1)
}

func (m *tinyModel) op(code tfOp, tag uint8, opts fbTable, out int32, in ...int32) {
	m.ops = append(m.ops, tinyOp{code: code, inputs: in, outputs: []int32{out}, optTag: tag, opts: opts})
}

// Options tables, fields in schema order.
func convOpts(pad tfPadding, stride int32, act tfActivation) fbTable {
	return fbTable{uint8(pad), stride, stride, uint8(act)} // dilations absent: default 1
}

func depthwiseOpts(pad tfPadding, stride int32, act tfActivation) fbTable {
	return fbTable{uint8(pad), stride, stride, int32(1), uint8(act)}
}

func poolOpts(pad tfPadding, stride, filter int32, act tfActivation) fbTable {
	return fbTable{uint8(pad), stride, stride, filter, filter, uint8(act)}
}

// activation returns an activation tensor of the given shape, quantized
// like TFLite's (the float encoder ignores its parameters).
func activation(name string, shape ...int32) tinyTensor {
	return tinyTensor{name: name, shape: shape, typ: tfUint8, scale: []float32{0.05}, zero: []int64{128}}
}

// quantWeights returns a uint8 constant of the given shape with random
// values quantized with one scale per index along qdim (per-channel) or,
// for qdim < 0, one scale; and the dequantized values, computed
// independently of the code under test.
func quantWeights(r *rand.Rand, name string, qdim int, shape ...int32) (tinyTensor, []float32) {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	t := tinyTensor{name: name, shape: shape, typ: tfUint8, data: make([]byte, n)}
	channels := 1
	if qdim >= 0 {
		channels = int(shape[qdim])
		t.qdim = int32(qdim)
	}
	for c := 0; c < channels; c++ {
		t.scale = append(t.scale, float32(0.002+0.02*r.Float64()))
		t.zero = append(t.zero, int64(100+r.IntN(56)))
	}
	inner := 1
	if qdim >= 0 {
		for _, d := range shape[qdim+1:] {
			inner *= int(d)
		}
	}
	real := make([]float32, n)
	for i := range t.data {
		q := byte(r.IntN(256))
		t.data[i] = q
		c := (i / inner) % channels
		real[i] = t.scale[c] * float32(int64(q)-t.zero[c])
	}
	return t, real
}

// quantBias returns an int32 bias quantized with scale s, zero point 0,
// and its values.
func quantBias(r *rand.Rand, name string, n int, s float32) (tinyTensor, []float32) {
	t := tinyTensor{name: name, shape: []int32{int32(n)}, typ: tfInt32, data: make([]byte, 4*n), scale: []float32{s}, zero: []int64{0}}
	real := make([]float32, n)
	for i := 0; i < n; i++ {
		q := int32(r.IntN(2001) - 1000)
		binary.LittleEndian.PutUint32(t.data[4*i:], uint32(q))
		real[i] = s * float32(q)
	}
	return t, real
}

func floatConst(name string, v []float32, shape ...int32) tinyTensor {
	t := tinyTensor{name: name, shape: shape, typ: tfFloat32, data: make([]byte, 4*len(v))}
	for i, x := range v {
		binary.LittleEndian.PutUint32(t.data[4*i:], math.Float32bits(x))
	}
	return t
}

// tinyNet is a MobileNetV2 in miniature, with its weights as the reference
// sees them:
//
//	input  10×10×3 uint8, scale 1/128, zero point 128
//	conv   3×3/2 SAME, ReLU6        → 5×5×8   (TFLite pads bottom/right)
//	dw     3×3/1 SAME, ReLU6        → 5×5×8   (per-channel quantized)
//	conv   1×1, linear              → 5×5×8
//	add    with the first conv      → 5×5×8   (GridBlock13)
//	dw     3×3/2 SAME, ReLU6        → 3×3×8
//	conv   1×1, ReLU6               → 3×3×16  (GridFinal)
//	pool   3×3 VALID                → 1×1×16
//	conv   1×1 (float32 weights)    → 1×1×5
//	reshape                         → 1×5
//	softmax                         → 1×5
type tinyNet struct {
	model                  *tinyModel
	w1, w2, w3, w4, w5, w6 []float32
	b1, b2, b3, b4, b5, b6 []float32
}

func newTinyNet(seed uint64) *tinyNet {
	r := rand.New(rand.NewPCG(seed, 42))
	m := &tinyModel{}
	n := &tinyNet{model: m}
	in := m.add(tinyTensor{name: "input", shape: []int32{1, 10, 10, 3}, typ: tfUint8, scale: []float32{1.0 / 128}, zero: []int64{128}})
	m.inputs = []int32{in}

	layer := func(name string, qdim int, wshape []int32, nbias int) (w, b int32, wr, br []float32) {
		wt, wr := quantWeights(r, name+"/weights", qdim, wshape...)
		bt, br := quantBias(r, name+"/bias", nbias, 0.01)
		return m.add(wt), m.add(bt), wr, br
	}
	w, b, wr, br := layer("conv1", -1, []int32{8, 3, 3, 3}, 8)
	n.w1, n.b1 = wr, br
	t1 := m.add(activation("conv1/relu6", 1, 5, 5, 8))
	m.op(opConv2D, optConv2D, convOpts(padSame, 2, actRelu6), t1, in, w, b)

	w, b, wr, br = layer("dw1", 3, []int32{1, 3, 3, 8}, 8)
	n.w2, n.b2 = wr, br
	t2 := m.add(activation("dw1/relu6", 1, 5, 5, 8))
	m.op(opDepthwiseConv2D, optDepthwiseConv2D, depthwiseOpts(padSame, 1, actRelu6), t2, t1, w, b)

	w, b, wr, br = layer("project1", -1, []int32{8, 1, 1, 8}, 8)
	n.w3, n.b3 = wr, br
	t3 := m.add(activation("project1", 1, 5, 5, 8))
	m.op(opConv2D, optConv2D, convOpts(padSame, 1, actNone), t3, t2, w, b)

	t4 := m.add(activation("add1", 1, 5, 5, 8))
	m.op(opAdd, optAdd, fbTable{uint8(actNone)}, t4, t3, t1)

	w, b, wr, br = layer("dw2", 3, []int32{1, 3, 3, 8}, 8)
	n.w4, n.b4 = wr, br
	t5 := m.add(activation("dw2/relu6", 1, 3, 3, 8))
	m.op(opDepthwiseConv2D, optDepthwiseConv2D, depthwiseOpts(padSame, 2, actRelu6), t5, t4, w, b)

	w, b, wr, br = layer("conv2", -1, []int32{16, 1, 1, 8}, 16)
	n.w5, n.b5 = wr, br
	t6 := m.add(activation("conv2/relu6", 1, 3, 3, 16))
	m.op(opConv2D, optConv2D, convOpts(padSame, 1, actRelu6), t6, t5, w, b)

	t7 := m.add(activation("pool", 1, 1, 1, 16))
	m.op(opAveragePool2D, optPool2D, poolOpts(padValid, 1, 3, actNone), t7, t6)

	n.w6, n.b6 = randSlice(r, 5*16), randSlice(r, 5)
	w = m.add(floatConst("logits/weights", n.w6, 5, 1, 1, 16))
	b = m.add(floatConst("logits/bias", n.b6, 5))
	t8 := m.add(activation("logits", 1, 1, 1, 5))
	m.op(opConv2D, optConv2D, convOpts(padValid, 1, actNone), t8, t7, w, b)

	shape := m.add(tinyTensor{name: "shape", shape: []int32{2}, typ: tfInt32, data: []byte{1, 0, 0, 0, 5, 0, 0, 0}})
	t9 := m.add(activation("reshape", 1, 5))
	m.op(opReshape, optReshape, fbTable{[]int32{1, 5}}, t9, t8, shape)

	t10 := m.add(tinyTensor{name: "probs", shape: []int32{1, 5}, typ: tfUint8, scale: []float32{1.0 / 256}, zero: []int64{0}})
	m.op(opSoftmax, optSoftmax, fbTable{float32(1)}, t10, t9)
	m.outputs = []int32{t10}
	return n
}

// forward runs the tiny network with plain loops on the input bytes
// (HWC) and returns the two grids and the probabilities.
func (n *tinyNet) forward(pixels []byte) (block13, final, probs []float32) {
	// Depthwise filters [1 kh kw ch] are already in refDepthwise's
	// tap-major order.
	x := make([]float32, len(pixels))
	for i, v := range pixels {
		x[i] = (float32(v) - 128) / 128
	}
	t1 := refConv(x, 10, 10, 3, n.w1, n.b1, 8, 3, 2, padSame, 0, 6)
	t2 := refDepthwise(t1, 5, 5, 8, n.w2, n.b2, 3, 1, 1, padSame, 0, 6)
	inf := float32(math.Inf(1))
	t3 := refConv(t2, 5, 5, 8, n.w3, n.b3, 8, 1, 1, padSame, -inf, inf)
	t4 := make([]float32, len(t3))
	for i := range t4 {
		t4[i] = t3[i] + t1[i]
	}
	t5 := refDepthwise(t4, 5, 5, 8, n.w4, n.b4, 3, 2, 1, padSame, 0, 6)
	t6 := refConv(t5, 3, 3, 8, n.w5, n.b5, 16, 1, 1, padSame, 0, 6)
	t7 := make([]float32, 16)
	for i, v := range t6 {
		t7[i%16] += v / 9
	}
	t8 := refConv(t7, 1, 1, 16, n.w6, n.b6, 5, 1, 1, padValid, -inf, inf)
	var sum float64
	probs = make([]float32, 5)
	for i, v := range t8 {
		e := math.Exp(float64(v))
		probs[i] = float32(e)
		sum += e
	}
	for i := range probs {
		probs[i] /= float32(sum)
	}
	return t4, t6, probs
}

// refConv is a plain convolution of an HWC input with [out][k][k][in]
// weights and TensorFlow's padding rule.
func refConv(in []float32, h, w, cin int, wt, bias []float32, cout, k, stride int, pad tfPadding, lo, hi float32) []float32 {
	var outH, outW, pt, pl int
	if pad == padSame {
		outH, outW = (h+stride-1)/stride, (w+stride-1)/stride
		pt = max((outH-1)*stride+k-h, 0) / 2
		pl = max((outW-1)*stride+k-w, 0) / 2
	} else {
		outH, outW = (h-k)/stride+1, (w-k)/stride+1
	}
	out := make([]float32, outH*outW*cout)
	for y := 0; y < outH; y++ {
		for x := 0; x < outW; x++ {
			for o := 0; o < cout; o++ {
				s := float64(bias[o])
				for ky := 0; ky < k; ky++ {
					for kx := 0; kx < k; kx++ {
						iy, ix := y*stride+ky-pt, x*stride+kx-pl
						if iy < 0 || iy >= h || ix < 0 || ix >= w {
							continue
						}
						for i := 0; i < cin; i++ {
							s += float64(in[(iy*w+ix)*cin+i]) * float64(wt[((o*k+ky)*k+kx)*cin+i])
						}
					}
				}
				out[(y*outW+x)*cout+o] = clamp(float32(s), lo, hi)
			}
		}
	}
	return out
}
