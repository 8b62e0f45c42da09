package vision

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInferShape checks the shapes inferred for outputs a file leaves
// empty: TensorFlow's SAME padding gives ⌈in/stride⌉ whatever the kernel,
// VALID ⌊(in − (k−1)·d − 1)/stride⌋ + 1.
func TestInferShape(t *testing.T) {
	conv := func(in, k, stride int, pad tfPadding) tfOperator {
		return tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2},
			opts: tfOptions{padding: pad, strideH: stride, strideW: stride, dilationH: 1, dilationW: 1}}
	}
	type tc struct {
		name   string
		op     tfOperator
		shapes [][]int // of the operator's inputs
		want   []int
	}
	var cases []tc
	for _, size := range []int{224, 112, 15, 14, 7} {
		for _, k := range []int{1, 3, 5} {
			for _, s := range []int{1, 2} {
				cases = append(cases, tc{"conv SAME", conv(size, k, s, padSame), [][]int{{1, size, size, 16}, {32, k, k, 16}},
					[]int{1, (size + s - 1) / s, (size + s - 1) / s, 32}})
				cases = append(cases, tc{"conv VALID", conv(size, k, s, padValid), [][]int{{1, size, size, 16}, {32, k, k, 16}},
					[]int{1, (size-k)/s + 1, (size-k)/s + 1, 32}})
				dw := conv(size, k, s, padSame)
				dw.op = opDepthwiseConv2D
				cases = append(cases, tc{"depthwise SAME", dw, [][]int{{1, size, size, 24}, {1, k, k, 24}},
					[]int{1, (size + s - 1) / s, (size + s - 1) / s, 24}})
			}
		}
	}
	cases = append(cases,
		tc{"conv 3×5 strides 2×1", tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2},
			opts: tfOptions{padding: padSame, strideH: 2, strideW: 1}}, [][]int{{1, 9, 9, 3}, {4, 3, 5, 3}}, []int{1, 5, 9, 4}},
		tc{"dilated VALID", tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2},
			opts: tfOptions{padding: padValid, strideH: 1, strideW: 1, dilationH: 2, dilationW: 2}}, [][]int{{1, 9, 9, 3}, {4, 3, 3, 3}}, []int{1, 5, 5, 4}},
		tc{"average pool 7×7 VALID", tfOperator{op: opAveragePool2D, inputs: []int{0}, outputs: []int{1},
			opts: tfOptions{padding: padValid, strideH: 1, strideW: 1, filterH: 7, filterW: 7}}, [][]int{{1, 7, 7, 1280}}, []int{1, 1, 1, 1280}},
		tc{"fully connected", tfOperator{op: opFullyConnected, inputs: []int{0, 1}, outputs: []int{2}},
			[][]int{{1, 1, 1, 1280}, {1001, 1280}}, []int{1, 1001}},
		tc{"fully connected, keep_num_dims", tfOperator{op: opFullyConnected, inputs: []int{0, 1}, outputs: []int{2}, opts: tfOptions{keepNumDims: true}},
			[][]int{{1, 7, 7, 8}, {4, 8}}, []int{1, 7, 7, 4}},
		tc{"add", tfOperator{op: opAdd, inputs: []int{0, 1}, outputs: []int{2}}, [][]int{{1, 7, 7, 160}, {1, 7, 7, 160}}, []int{1, 7, 7, 160}},
		tc{"softmax", tfOperator{op: opSoftmax, inputs: []int{0}, outputs: []int{1}}, [][]int{{1, 1001}}, []int{1, 1001}},
		tc{"squeeze all", tfOperator{op: opSqueeze, inputs: []int{0}, outputs: []int{1}}, [][]int{{1, 1, 1, 1001}}, []int{1001}},
		tc{"squeeze dims 1, 2", tfOperator{op: opSqueeze, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{squeezeDims: []int{1, -2}}},
			[][]int{{1, 1, 1, 1001}}, []int{1, 1001}},
		tc{"reshape from options", tfOperator{op: opReshape, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{newShape: []int{1, -1}}},
			[][]int{{1, 1, 1, 1001}}, []int{1, 1001}},
	)
	for _, c := range cases {
		m := &tfModel{}
		for _, s := range c.shapes {
			m.tensors = append(m.tensors, tfTensor{shape: s})
		}
		m.tensors = append(m.tensors, tfTensor{name: "out"})
		got, err := inferShape(m, &c.op)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s %v: got %v, %v; want %v", c.name, c.shapes, got, err, c.want)
		}
	}
}

// TestInferShapeReshapeConstant reads a RESHAPE target from its constant
// int32 input, as the MLIR converter writes it.
func TestInferShapeReshapeConstant(t *testing.T) {
	m := &tfModel{tensors: []tfTensor{
		{shape: []int{1001}},
		{shape: []int{2}, typ: tfInt32, data: []byte{0xff, 0xff, 0xff, 0xff, 0xe9, 0x03, 0, 0}}, // [−1 1001]
		{name: "out"},
	}}
	got, err := inferShape(m, &tfOperator{op: opReshape, inputs: []int{0, 1}, outputs: []int{2}})
	if err != nil || !slices.Equal(got, []int{1, 1001}) {
		t.Errorf("got %v, %v; want [1 1001]", got, err)
	}
}

// TestInferShapesErrors: shapes that cannot be inferred are ErrModel
// errors naming the operator, never panics or silent guesses.
func TestInferShapesErrors(t *testing.T) {
	cases := []struct {
		name   string
		op     tfOperator
		shapes [][]int
	}{
		{"input has no shape", tfOperator{op: opAdd, inputs: []int{0, 1}, outputs: []int{2}}, [][]int{nil, nil}},
		{"conv on a vector", tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2}, opts: tfOptions{strideH: 1, strideW: 1}}, [][]int{{16}, {4, 3, 3, 16}}},
		{"zero stride", tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2}}, [][]int{{1, 7, 7, 3}, {4, 3, 3, 3}}},
		{"VALID window larger than the input", tfOperator{op: opConv2D, inputs: []int{0, 1}, outputs: []int{2}, opts: tfOptions{padding: padValid, strideH: 1, strideW: 1}},
			[][]int{{1, 2, 2, 3}, {4, 3, 3, 3}}},
		{"squeeze a dimension that is not 1", tfOperator{op: opSqueeze, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{squeezeDims: []int{3}}}, [][]int{{1, 1, 1, 5}}},
		{"squeeze out of range", tfOperator{op: opSqueeze, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{squeezeDims: []int{9}}}, [][]int{{1, 1, 1, 5}}},
		{"reshape to another size", tfOperator{op: opReshape, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{newShape: []int{2, 5}}}, [][]int{{1, 5}}},
		{"reshape with two −1", tfOperator{op: opReshape, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{newShape: []int{-1, -1}}}, [][]int{{1, 5}}},
		{"reshape with no target", tfOperator{op: opReshape, inputs: []int{0}, outputs: []int{1}}, [][]int{{1, 5}}},
		{"reshape overflowing", tfOperator{op: opReshape, inputs: []int{0}, outputs: []int{1}, opts: tfOptions{newShape: []int{5, 5, 5, 5, 5, 5, 5, 5}}}, [][]int{{1, 5}}},
		{"fully connected, wrong width", tfOperator{op: opFullyConnected, inputs: []int{0, 1}, outputs: []int{2}}, [][]int{{1, 7}, {4, 3}}},
	}
	for _, c := range cases {
		m := &tfModel{}
		for _, s := range c.shapes {
			m.tensors = append(m.tensors, tfTensor{shape: s})
		}
		m.tensors = append(m.tensors, tfTensor{name: "out"})
		m.operators = []tfOperator{c.op}
		if err := inferShapes(m); !errors.Is(err, ErrModel) {
			t.Errorf("%s: error %v, want one wrapping ErrModel", c.name, err)
		}
	}
}

// TestEncoderInfersEmptyShapes writes the tiny test network with every
// activation shape but the input's left empty, as MobileNet-EdgeTPU's file
// has them, and checks that it runs exactly like the same network with its
// shapes written out.
func TestEncoderInfersEmptyShapes(t *testing.T) {
	n := newTinyNet(3)
	full, err := NewEncoder(n.model.flatbuffer(), &EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	bare := *n.model
	bare.tensors = slices.Clone(bare.tensors)
	for i := range bare.tensors {
		if bare.tensors[i].data == nil && int32(i) != bare.inputs[0] {
			bare.tensors[i].shape = nil
		}
	}
	enc, err := NewEncoder(bare.flatbuffer(), &EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []Grid{GridFinal, GridBlock13} {
		h1, w1, d1 := full.net.grids[g].h, full.net.grids[g].w, full.net.grids[g].d
		h2, w2, d2 := enc.net.grids[g].h, enc.net.grids[g].w, enc.net.grids[g].d
		if h1 != h2 || w1 != w2 || d1 != d2 {
			t.Errorf("%v: %d×%d×%d inferred, %d×%d×%d declared", g, h2, w2, d2, h1, w1, d1)
		}
	}
	_, x := tinyInput(7, full)
	f1, p1, err := full.Encode(x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f2, p2, err := enc.Encode(x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f1, f2) || !slices.Equal(p1, p2) {
		t.Errorf("inferred shapes give features %v and probabilities %v, declared ones %v and %v", f2, p2, f1, p1)
	}
}

// TestDepthwise5x5 compares the depthwise convolution with 5×5 windows,
// MobileNet-EdgeTPU's, against the plain reference loop, at the sizes and
// strides that network uses and on borders where SAME padding is uneven.
func TestDepthwise5x5(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct{ h, w, ch, stride int }{
		{14, 14, 24, 2}, {7, 7, 40, 1}, {8, 6, 8, 2}, {5, 5, 3, 1}, {3, 4, 16, 1}, {1, 1, 8, 2},
	} {
		outH, padTop := samePad(c.h, 5, c.stride, 1, padSame)
		outW, padLeft := samePad(c.w, 5, c.stride, 1, padSame)
		win := window{kh: 5, kw: 5, strideH: c.stride, strideW: c.stride, dilH: 1, dilW: 1,
			padTop: padTop, padLeft: padLeft, inH: c.h, inW: c.w, outH: outH, outW: outW}
		d := depthwise{win: win, ch: c.ch, w: randSlice(r, 25*c.ch), bias: randSlice(r, c.ch), lo: 0, hi: float32(math.Inf(1)), zeros: make([]float32, c.w*c.ch)}
		in := randSlice(r, c.h*c.w*c.ch)
		got := make([]float32, outH*outW*c.ch)
		d.run(in, got, parallel{2}, []*scratch{newScratch(25*c.ch, c.ch), newScratch(25*c.ch, c.ch)})
		want := refDepthwise(in, c.h, c.w, c.ch, d.w, d.bias, 5, c.stride, 1, padSame, 0, float32(math.Inf(1)))
		if i := closeTo(got, want, 1e-5); i >= 0 {
			t.Errorf("%d×%d×%d stride %d: out[%d] = %v, want %v", c.h, c.w, c.ch, c.stride, i, got[i], want[i])
		}
	}
}
