package vision

import "math"

// A layer is one operator of the network, bound to the activation slots it
// reads and writes. Layers are immutable and shared by clones of an
// Encoder; the slots live in each Encoder's state.
type layer interface {
	run(s *state)
	// output is the tensor index (in the model file) the layer writes.
	output() int
}

// state is the per-Encoder memory: one buffer per activation slot, the
// im2col matrix and per-goroutine kernel scratch.
type state struct {
	slots   [][]float32
	col     []float32
	scratch []*scratch // one per goroutine
	par     parallel
}

// ports names the slots of a layer's inputs and output, and the output's
// tensor index.
type ports struct {
	in, in2, out int // slots; in2 is −1 when unused
	tensor       int
}

func (l *ports) output() int { return l.tensor }

type convLayer struct {
	ports
	conv
}

func (l *convLayer) run(s *state) {
	l.conv.run(s.slots[l.in], s.slots[l.out], s.col, s.par, s.scratch)
}

type depthwiseLayer struct {
	ports
	depthwise
}

func (l *depthwiseLayer) run(s *state) {
	l.depthwise.run(s.slots[l.in], s.slots[l.out], s.par, s.scratch)
}

// addLayer is ADD of two tensors of one shape, with a fused activation.
type addLayer struct {
	ports
	n      int
	lo, hi float32
}

func (l *addLayer) run(s *state) {
	a, b, out := s.slots[l.in][:l.n], s.slots[l.in2][:l.n], s.slots[l.out][:l.n]
	for i := range out {
		out[i] = clamp(a[i]+b[i], l.lo, l.hi)
	}
}

// poolLayer is AVERAGE_POOL_2D: the mean over the window of the inputs
// inside the image (TFLite does not count padding), then the activation.
type poolLayer struct {
	ports
	win    window
	ch     int
	lo, hi float32
}

func (l *poolLayer) run(s *state) {
	in, out := s.slots[l.in], s.slots[l.out]
	win := &l.win
	for y := 0; y < win.outH; y++ {
		for x := 0; x < win.outW; x++ {
			dst := out[(y*win.outW+x)*l.ch:][:l.ch]
			clear(dst)
			n := 0
			for ky := 0; ky < win.kh; ky++ {
				iy := y*win.strideH + ky - win.padTop
				for kx := 0; kx < win.kw; kx++ {
					ix := x*win.strideW + kx - win.padLeft
					if iy < 0 || iy >= win.inH || ix < 0 || ix >= win.inW {
						continue
					}
					src := in[(iy*win.inW+ix)*l.ch:][:l.ch]
					for c, v := range src {
						dst[c] += v
					}
					n++
				}
			}
			inv := 1 / float32(max(n, 1))
			for c, v := range dst {
				dst[c] = clamp(v*inv, l.lo, l.hi)
			}
		}
	}
}

// copyLayer is an operator that keeps the values: RESHAPE, and QUANTIZE
// and DEQUANTIZE, which are identities when activations are float.
type copyLayer struct {
	ports
	n int
}

func (l *copyLayer) run(s *state) {
	copy(s.slots[l.out][:l.n], s.slots[l.in][:l.n])
}

// softmaxLayer is SOFTMAX over the last dimension:
//
//	out[i] = exp(β·(x[i] − max x)) / Σ_j exp(β·(x[j] − max x))
type softmaxLayer struct {
	ports
	rows, n int
	beta    float32
}

func (l *softmaxLayer) run(s *state) {
	for r := 0; r < l.rows; r++ {
		x := s.slots[l.in][r*l.n : (r+1)*l.n]
		y := s.slots[l.out][r*l.n : (r+1)*l.n]
		m := float32(math.Inf(-1))
		for _, v := range x {
			m = max(m, v)
		}
		var sum float64
		for i, v := range x {
			e := float32(math.Exp(float64(l.beta * (v - m))))
			y[i] = e
			sum += float64(e)
		}
		inv := float32(1 / sum)
		for i := range y {
			y[i] *= inv
		}
	}
}

// activationRange is the clamp interval of a fused activation.
func activationRange(a tfActivation) (lo, hi float32, ok bool) {
	inf := float32(math.Inf(1))
	switch a {
	case actNone:
		return -inf, inf, true
	case actRelu:
		return 0, inf, true
	case actRelu1:
		return -1, 1, true
	case actRelu6:
		return 0, 6, true
	}
	return 0, 0, false
}
