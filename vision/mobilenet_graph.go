package vision

import (
	"fmt"
	"slices"

	"github.com/attend-go/attend/internal/sgemm"
)

// network is a TFLite graph compiled for float32 inference: weights
// dequantized and packed, operators bound to activation slots. It is
// immutable and shared by clones of an Encoder.
type network struct {
	layers []layer

	slotSizes   []int     // floats per activation slot
	tensorSlot  []int     // model tensor index → slot, −1 for constants
	colSize     int       // im2col scratch, floats
	maxK        int       // largest GEMM K, for the edge-tile scratch
	maxChannels int       // most depthwise channels, for the border patch
	zeros       []float32 // a row of zeros for depthwise padding, shared
	macs        int64     // multiply-adds (and pooling adds) per image

	inputSlot           int
	inH, inW            int
	norm                Normalization
	outputSlot, classes int

	// grids are the feature maps an Encoder can return, found by their
	// place in the graph.
	grids [numGrids]gridInfo
}

type gridInfo struct {
	ok      bool
	layer   int // index in layers of the layer that writes it
	slot    int
	h, w, d int
	name    string // the tensor's name in the model file
}

// Budgets that keep a small hostile file from requesting huge buffers or
// hours of work per image. MobileNetV2 1.0/224 needs 3.4 M floats and
// 0.3 G multiply-adds.
var (
	maxActivationFloats       = 1 << 27 // 512 MB of activations and im2col
	maxMACs             int64 = 1 << 36 // about 70 G multiply-adds
)

// compile turns a parsed model into a network. Every shape the kernels rely
// on is checked against the tensors declared in the file.
func compile(m *tfModel) (*network, error) {
	c := &compiler{m: m, net: &network{}}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.net, nil
}

type compiler struct {
	m   *tfModel
	net *network

	lastUse []int // tensor → index of the last operator reading it
	free    []int // slots free for reuse
	opIndex int
}

func (c *compiler) fail(format string, args ...any) error {
	op := c.m.operators[c.opIndex]
	return fmt.Errorf("%w: operator %d (%v): %s", ErrModel, c.opIndex, op.op, fmt.Sprintf(format, args...))
}

func (c *compiler) unsupported(format string, args ...any) error {
	op := c.m.operators[c.opIndex]
	return fmt.Errorf("%w: operator %d (%v): %s", ErrUnsupported, c.opIndex, op.op, fmt.Sprintf(format, args...))
}

func (c *compiler) run() error {
	m, net := c.m, c.net
	if len(m.inputs) != 1 || len(m.outputs) != 1 {
		return fmt.Errorf("%w: graph has %d inputs and %d outputs, want one image input and one output", ErrUnsupported, len(m.inputs), len(m.outputs))
	}
	if len(m.operators) == 0 {
		return fmt.Errorf("%w: graph has no operators", ErrModel)
	}
	in := &m.tensors[m.inputs[0]]
	if len(in.shape) != 4 || in.shape[0] != 1 || in.shape[3] != 3 || in.shape[1] < 1 || in.shape[2] < 1 {
		return fmt.Errorf("%w: input tensor %q has shape %v, want [1 height width 3]", ErrUnsupported, in.name, in.shape)
	}
	if in.data != nil {
		return fmt.Errorf("%w: input tensor %q is a constant", ErrModel, in.name)
	}
	net.inH, net.inW = in.shape[1], in.shape[2]
	norm, err := inputNorm(in)
	if err != nil {
		return err
	}
	net.norm = norm

	// Liveness: a slot is reused once the last reader of its tensor ran.
	nt := len(m.tensors)
	c.lastUse = make([]int, nt)
	written := make([]bool, nt)
	written[m.inputs[0]] = true
	for k, op := range m.operators {
		for _, t := range op.inputs {
			if t < 0 {
				continue
			}
			if m.tensors[t].data == nil && !written[t] {
				return fmt.Errorf("%w: operator %d (%v) reads tensor %d (%q) before any operator writes it", ErrModel, k, op.op, t, m.tensors[t].name)
			}
			c.lastUse[t] = k
		}
		if len(op.outputs) != 1 {
			return fmt.Errorf("%w: operator %d (%v) has %d outputs, want 1", ErrUnsupported, k, op.op, len(op.outputs))
		}
		o := op.outputs[0]
		if written[o] || m.tensors[o].data != nil {
			return fmt.Errorf("%w: operator %d (%v) writes tensor %d (%q), which is a constant or already written", ErrModel, k, op.op, o, m.tensors[o].name)
		}
		written[o] = true
	}
	out := m.outputs[0]
	if !written[out] {
		return fmt.Errorf("%w: graph output tensor %d (%q) is never written", ErrModel, out, m.tensors[out].name)
	}
	c.lastUse[out] = len(m.operators)
	if err := inferShapes(m); err != nil {
		return err
	}

	net.tensorSlot = make([]int, nt)
	for i := range net.tensorSlot {
		net.tensorSlot[i] = -1
	}
	net.inputSlot = c.alloc(m.inputs[0])
	for k := range m.operators {
		c.opIndex = k
		l, err := c.layer(&m.operators[k])
		if err != nil {
			return err
		}
		net.layers = append(net.layers, l)
	}
	for _, l := range net.layers {
		if d, ok := l.(*depthwiseLayer); ok {
			d.zeros = net.zeros
		}
	}
	ot := &m.tensors[out]
	if len(ot.shape) != 2 || ot.shape[0] != 1 {
		return fmt.Errorf("%w: output tensor %q has shape %v, want [1 classes]", ErrUnsupported, ot.name, ot.shape)
	}
	net.outputSlot, net.classes = net.tensorSlot[out], ot.shape[1]
	c.findGrids()

	total := net.colSize
	for _, s := range net.slotSizes {
		total += s
	}
	if total > maxActivationFloats {
		return fmt.Errorf("%w: the graph needs %d MB of activations, more than the limit of %d MB", ErrUnsupported, total>>18, maxActivationFloats>>18)
	}
	if net.macs > maxMACs {
		return fmt.Errorf("%w: the graph needs %d G multiply-adds per image, more than the limit of %d G", ErrUnsupported, net.macs>>30, maxMACs>>30)
	}
	return nil
}

// inputNorm derives the Normalization that maps bytes to what the network
// reads. A uint8 input quantized with scale s and zero point z means the
// byte v stands for s·(v − z); an int8 input stores v − 128. A float input
// is assumed to take [−1, 1] (MobileNetNorm), TensorFlow's convention for
// MobileNet.
func inputNorm(t *tfTensor) (Normalization, error) {
	if t.typ == tfFloat32 && t.quant == nil {
		return MobileNetNorm, nil
	}
	if (t.typ != tfUint8 && t.typ != tfInt8) || t.quant == nil || len(t.quant.scale) != 1 {
		return Normalization{}, fmt.Errorf("%w: input tensor %q of %v needs uint8 or int8 with one quantization scale, or float32", ErrUnsupported, t.name, t.typ)
	}
	zero := float64(t.quant.zero[0])
	if t.typ == tfInt8 {
		zero += 128
	}
	mean := float32(zero / 255)
	std := float32(1 / (255 * float64(t.quant.scale[0])))
	return Normalization{Mean: [3]float32{mean, mean, mean}, Std: [3]float32{std, std, std}}, nil
}

// alloc gives tensor t a slot: a free one that is large enough (the
// smallest such), else the largest free one, grown, else a new one.
func (c *compiler) alloc(t int) int {
	net := c.net
	need := max(elements(c.m.tensors[t].shape), 1)
	best := -1
	for i, s := range c.free {
		size := net.slotSizes[s]
		switch {
		case best < 0:
			best = i
		case size >= need && (net.slotSizes[c.free[best]] < need || size < net.slotSizes[c.free[best]]):
			best = i
		case net.slotSizes[c.free[best]] < need && size > net.slotSizes[c.free[best]]:
			best = i
		}
	}
	var slot int
	if best >= 0 {
		slot = c.free[best]
		c.free = slices.Delete(c.free, best, best+1)
		net.slotSizes[slot] = max(net.slotSizes[slot], need)
	} else {
		slot = len(net.slotSizes)
		net.slotSizes = append(net.slotSizes, need)
	}
	net.tensorSlot[t] = slot
	return slot
}

// release frees the slots of op's inputs that no later operator reads.
func (c *compiler) release(op *tfOperator) {
	for _, t := range op.inputs {
		if t < 0 || c.m.tensors[t].data != nil || c.lastUse[t] != c.opIndex {
			continue
		}
		if s := c.net.tensorSlot[t]; s >= 0 && !slices.Contains(c.free, s) {
			c.free = append(c.free, s)
		}
	}
}

func elements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// activation returns the input tensor i of op, checking that it exists and
// is computed (not a constant).
func (c *compiler) activation(op *tfOperator, i int) (*tfTensor, int, error) {
	if i >= len(op.inputs) || op.inputs[i] < 0 {
		return nil, 0, c.fail("input %d is missing", i)
	}
	t := op.inputs[i]
	if c.m.tensors[t].data != nil {
		return nil, 0, c.unsupported("input %d (%q) is a constant", i, c.m.tensors[t].name)
	}
	return &c.m.tensors[t], c.net.tensorSlot[t], nil
}

// constant returns input i of op as float32 values, or nil if the input
// is optional and omitted.
func (c *compiler) constant(op *tfOperator, i int, optional bool) (*tfTensor, []float32, error) {
	if i >= len(op.inputs) || op.inputs[i] < 0 {
		if optional {
			return nil, nil, nil
		}
		return nil, nil, c.fail("input %d is missing", i)
	}
	t := &c.m.tensors[op.inputs[i]]
	if t.data == nil {
		return nil, nil, c.unsupported("input %d (%q) must be a constant", i, t.name)
	}
	v, err := dequantize(t)
	if err != nil {
		return nil, nil, c.unsupported("%v", err)
	}
	return t, v, nil
}

// layer compiles one operator. The output slot is allocated after the
// input slots are released for the element-wise operators, which may then
// run in place, and before for the others, which read their inputs while
// writing.
func (c *compiler) layer(op *tfOperator) (layer, error) {
	out := op.outputs[0]
	ot := &c.m.tensors[out]
	switch op.op {
	case opConv2D, opFullyConnected:
		return c.convLayer(op, out, ot)
	case opDepthwiseConv2D:
		return c.depthwiseLayer(op, out, ot)
	case opAveragePool2D:
		return c.poolLayer(op, out, ot)
	case opAdd:
		a, sa, err := c.activation(op, 0)
		if err != nil {
			return nil, err
		}
		b, sb, err := c.activation(op, 1)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(a.shape, b.shape) || !slices.Equal(a.shape, ot.shape) {
			return nil, c.unsupported("shapes %v + %v → %v; broadcasting is not supported", a.shape, b.shape, ot.shape)
		}
		lo, hi, ok := activationRange(op.opts.activation)
		if !ok {
			return nil, c.unsupported("fused activation %d", op.opts.activation)
		}
		c.release(op)
		return &addLayer{ports: ports{in: sa, in2: sb, out: c.alloc(out), tensor: out}, n: elements(ot.shape), lo: lo, hi: hi}, nil
	case opReshape, opSqueeze, opQuantize, opDequantize:
		a, sa, err := c.activation(op, 0)
		if err != nil {
			return nil, err
		}
		if elements(a.shape) != elements(ot.shape) {
			return nil, c.fail("%v elements in, %v out", a.shape, ot.shape)
		}
		c.release(op)
		return &copyLayer{ports: ports{in: sa, in2: -1, out: c.alloc(out), tensor: out}, n: elements(ot.shape)}, nil
	case opSoftmax:
		a, sa, err := c.activation(op, 0)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(a.shape, ot.shape) || len(ot.shape) == 0 {
			return nil, c.fail("shape %v in, %v out", a.shape, ot.shape)
		}
		beta := op.opts.beta
		if beta == 0 {
			beta = 1
		}
		n := ot.shape[len(ot.shape)-1]
		c.release(op)
		return &softmaxLayer{ports: ports{in: sa, in2: -1, out: c.alloc(out), tensor: out}, rows: elements(ot.shape) / max(n, 1), n: n, beta: beta}, nil
	case opCustom:
		return nil, c.unsupported("custom operator %q", op.custom)
	}
	return nil, c.unsupported("operator not implemented")
}

// image checks that t is one image [1 H W C] and returns its dimensions.
func (c *compiler) image(t *tfTensor, what string) (h, w, ch int, err error) {
	if len(t.shape) != 4 || t.shape[0] != 1 {
		return 0, 0, 0, c.unsupported("%s %q has shape %v, want [1 height width channels]", what, t.name, t.shape)
	}
	if t.shape[1] == 0 || t.shape[2] == 0 || t.shape[3] == 0 {
		return 0, 0, 0, c.fail("%s %q has an empty shape %v", what, t.name, t.shape)
	}
	return t.shape[1], t.shape[2], t.shape[3], nil
}

// window validates the sliding-window options of op and the output shape
// they imply.
func (c *compiler) window(op *tfOperator, inH, inW, kh, kw, outH, outW int) (window, error) {
	o := &op.opts
	if o.strideH < 1 || o.strideW < 1 || o.dilationH < 1 || o.dilationW < 1 {
		return window{}, c.fail("stride %d×%d, dilation %d×%d", o.strideH, o.strideW, o.dilationH, o.dilationW)
	}
	if o.padding != padSame && o.padding != padValid {
		return window{}, c.fail("padding %d", o.padding)
	}
	if o.strideH > inH || o.strideW > inW || o.dilationH > inH || o.dilationW > inW {
		return window{}, c.unsupported("stride %d×%d or dilation %d×%d larger than the %d×%d input", o.strideH, o.strideW, o.dilationH, o.dilationW, inH, inW)
	}
	win := window{kh: kh, kw: kw, strideH: o.strideH, strideW: o.strideW, dilH: o.dilationH, dilW: o.dilationW, inH: inH, inW: inW}
	var wantH, wantW int
	wantH, win.padTop = samePad(inH, kh, o.strideH, o.dilationH, o.padding)
	wantW, win.padLeft = samePad(inW, kw, o.strideW, o.dilationW, o.padding)
	if wantH != outH || wantW != outW || wantH < 1 || wantW < 1 {
		return window{}, c.fail("a %d×%d window on a %d×%d input gives %d×%d, but the output is declared %d×%d", kh, kw, inH, inW, wantH, wantW, outH, outW)
	}
	win.outH, win.outW = outH, outW
	return win, nil
}

func (c *compiler) convLayer(op *tfOperator, out int, ot *tfTensor) (layer, error) {
	a, sa, err := c.activation(op, 0)
	if err != nil {
		return nil, err
	}
	ft, w, err := c.constant(op, 1, false)
	if err != nil {
		return nil, err
	}
	var cv conv
	var outC int
	if op.op == opFullyConnected {
		// [..., K] · [N K]ᵀ: a 1×1 convolution over M = elements/K rows.
		if len(ft.shape) != 2 {
			return nil, c.fail("weights %q have shape %v, want [out in]", ft.name, ft.shape)
		}
		outC, cv.inC = ft.shape[0], ft.shape[1]
		if cv.inC == 0 || outC == 0 || elements(a.shape) == 0 || elements(a.shape)%cv.inC != 0 || elements(ot.shape) != elements(a.shape)/cv.inC*outC {
			return nil, c.fail("input %v, weights %v, output %v do not match", a.shape, ft.shape, ot.shape)
		}
		m := elements(a.shape) / cv.inC
		cv.win = window{kh: 1, kw: 1, strideH: 1, strideW: 1, dilH: 1, dilW: 1, inH: m, inW: 1, outH: m, outW: 1}
		cv.pointwise = true
	} else {
		inH, inW, inC, err := c.image(a, "input")
		if err != nil {
			return nil, err
		}
		outH, outW, oc, err := c.image(ot, "output")
		if err != nil {
			return nil, err
		}
		if len(ft.shape) != 4 || ft.shape[0] != oc || ft.shape[3] != inC {
			return nil, c.fail("filter %q has shape %v, want [%d kh kw %d]", ft.name, ft.shape, oc, inC)
		}
		if ft.shape[1] < 1 || ft.shape[2] < 1 {
			return nil, c.fail("filter %q has shape %v", ft.name, ft.shape)
		}
		win, err := c.window(op, inH, inW, ft.shape[1], ft.shape[2], outH, outW)
		if err != nil {
			return nil, err
		}
		cv.win, cv.inC, outC = win, inC, oc
		cv.pointwise = win.kh == 1 && win.kw == 1 && win.strideH == 1 && win.strideW == 1
	}
	_, bias, err := c.constant(op, 2, true)
	if err != nil {
		return nil, err
	}
	if bias != nil && len(bias) != outC {
		return nil, c.fail("bias has %d values for %d output channels", len(bias), outC)
	}
	var ok bool
	if cv.lo, cv.hi, ok = activationRange(op.opts.activation); !ok {
		return nil, c.unsupported("fused activation %d", op.opts.activation)
	}
	k := len(w) / max(outC, 1)
	c.net.macs += int64(cv.win.outH*cv.win.outW) * int64(len(w))
	cv.w = sgemm.Pack(w, outC, k, bias)
	c.net.maxK = max(c.net.maxK, k)
	c.net.colSize = max(c.net.colSize, cv.colSize())
	l := &convLayer{ports: ports{in: sa, in2: -1, out: c.alloc(out), tensor: out}, conv: cv}
	c.release(op)
	return l, nil
}

func (c *compiler) depthwiseLayer(op *tfOperator, out int, ot *tfTensor) (layer, error) {
	a, sa, err := c.activation(op, 0)
	if err != nil {
		return nil, err
	}
	inH, inW, ch, err := c.image(a, "input")
	if err != nil {
		return nil, err
	}
	outH, outW, outC, err := c.image(ot, "output")
	if err != nil {
		return nil, err
	}
	if outC != ch || (op.opts.depthMultiplier != 1 && op.opts.depthMultiplier != 0) {
		return nil, c.unsupported("depth multiplier %d (%d → %d channels); only 1 is implemented", op.opts.depthMultiplier, ch, outC)
	}
	ft, w, err := c.constant(op, 1, false)
	if err != nil {
		return nil, err
	}
	if len(ft.shape) != 4 || ft.shape[0] != 1 || ft.shape[3] != ch || ft.shape[1] < 1 || ft.shape[2] < 1 {
		return nil, c.fail("filter %q has shape %v, want [1 kh kw %d]", ft.name, ft.shape, ch)
	}
	win, err := c.window(op, inH, inW, ft.shape[1], ft.shape[2], outH, outW)
	if err != nil {
		return nil, err
	}
	_, bias, err := c.constant(op, 2, true)
	if err != nil {
		return nil, err
	}
	if bias == nil {
		bias = make([]float32, ch)
	}
	if len(bias) != ch {
		return nil, c.fail("bias has %d values for %d channels", len(bias), ch)
	}
	lo, hi, ok := activationRange(op.opts.activation)
	if !ok {
		return nil, c.unsupported("fused activation %d", op.opts.activation)
	}
	c.net.macs += int64(outH*outW) * int64(len(w))
	c.net.maxChannels = max(c.net.maxChannels, ch)
	if n := inW * ch; len(c.net.zeros) < n {
		c.net.zeros = make([]float32, n)
	}
	l := &depthwiseLayer{
		ports:     ports{in: sa, in2: -1, out: c.alloc(out), tensor: out},
		depthwise: depthwise{win: win, ch: ch, w: w, bias: bias, lo: lo, hi: hi},
	}
	c.release(op)
	return l, nil
}

func (c *compiler) poolLayer(op *tfOperator, out int, ot *tfTensor) (layer, error) {
	a, sa, err := c.activation(op, 0)
	if err != nil {
		return nil, err
	}
	inH, inW, ch, err := c.image(a, "input")
	if err != nil {
		return nil, err
	}
	outH, outW, outC, err := c.image(ot, "output")
	if err != nil {
		return nil, err
	}
	if outC != ch {
		return nil, c.fail("%d channels in, %d out", ch, outC)
	}
	kh, kw := op.opts.filterH, op.opts.filterW
	if kh < 1 || kw < 1 || kh > inH || kw > inW {
		return nil, c.unsupported("a %d×%d filter on a %d×%d input", kh, kw, inH, inW)
	}
	o := op.opts
	o.dilationH, o.dilationW = 1, 1
	win, err := c.window(&tfOperator{op: op.op, opts: o}, inH, inW, kh, kw, outH, outW)
	if err != nil {
		return nil, err
	}
	lo, hi, ok := activationRange(op.opts.activation)
	if !ok {
		return nil, c.unsupported("fused activation %d", op.opts.activation)
	}
	c.net.macs += int64(outH*outW*ch) * int64(kh*kw)
	l := &poolLayer{ports: ports{in: sa, in2: -1, out: c.alloc(out), tensor: out}, win: win, ch: ch, lo: lo, hi: hi}
	c.release(op)
	return l, nil
}

// findGrids locates the feature maps of Grid in the compiled graph:
// GridFinal is the input of the global average pool (the last map before
// the classifier), GridBlock13 the input of the last stride-2 depthwise
// convolution (in MobileNetV2 the expansion output of block 13, the last
// 14×14 map).
func (c *compiler) findGrids() {
	m := c.m
	mark := func(g Grid, t int) {
		k := slices.IndexFunc(c.net.layers, func(l layer) bool { return l.output() == t })
		if k < 0 {
			return
		}
		sh := m.tensors[t].shape
		if len(sh) != 4 {
			return
		}
		c.net.grids[g] = gridInfo{ok: true, layer: k, slot: c.net.tensorSlot[t], h: sh[1], w: sh[2], d: sh[3], name: m.tensors[t].name}
	}
	for k := len(m.operators) - 1; k >= 0; k-- {
		op := &m.operators[k]
		if op.op == opAveragePool2D && !c.net.grids[GridFinal].ok {
			if ot := m.tensors[op.outputs[0]].shape; len(ot) == 4 && ot[1] == 1 && ot[2] == 1 {
				mark(GridFinal, op.inputs[0])
			}
		}
		if op.op == opDepthwiseConv2D && !c.net.grids[GridBlock13].ok && (op.opts.strideH > 1 || op.opts.strideW > 1) {
			mark(GridBlock13, op.inputs[0])
		}
	}
}
