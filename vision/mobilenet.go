package vision

import (
	"fmt"
	"os"
	"runtime"
)

// Grid selects the feature map an Encoder returns from Features.
type Grid int

const (
	// GridFinal is the last feature map before the classifier: the
	// output of MobileNetV2's final 1×1 convolution (Conv_1, ReLU6), the
	// input of its global average pool. 7×7×1280 at 224×224: L = 49
	// regions of D = 1280 channels, each region seeing 32×32 pixels of
	// the input (with a receptive field far wider).
	GridFinal Grid = iota
	// GridBlock13 is the last 14×14 feature map: the expansion output
	// (1×1 convolution, ReLU6) of inverted-residual block 13, the input
	// of the last stride-2 depthwise convolution. 14×14×576 at 224×224:
	// L = 196 regions of D = 576 channels, on a grid as fine as the
	// 14×14×512 VGG conv5_4 map of Show, Attend and Tell. It is
	// reached after about 60% of the network's multiply-adds.
	GridBlock13

	numGrids = 2
)

func (g Grid) String() string {
	switch g {
	case GridFinal:
		return "GridFinal"
	case GridBlock13:
		return "GridBlock13"
	}
	return fmt.Sprintf("Grid(%d)", int(g))
}

// EncoderOptions configures an Encoder. A nil *EncoderOptions, or the zero
// value, means defaults; each field documents its own.
type EncoderOptions struct {
	// Grid is the feature map Features returns. Default GridFinal.
	Grid Grid
	// Threads is the number of goroutines one call may use. Zero means
	// runtime.GOMAXPROCS(0) when the Encoder is made; 1 runs everything
	// on the calling goroutine.
	Threads int
}

// Encoder runs a TFLite image classifier (MobileNetV2) in float32 and
// returns its feature grid and class probabilities.
//
// An Encoder owns its activation buffers, allocated once, so it is not
// safe for concurrent use. To encode on several goroutines give each a
// Clone, which shares the weights.
type Encoder struct {
	net   *network
	grid  Grid
	state state
}

// maxModelBytes bounds the file LoadEncoder reads.
const maxModelBytes = 1 << 30

// LoadEncoder reads a TFLite model file and prepares it for inference.
// Errors name the file and wrap ErrModel (a malformed file),
// ErrUnsupported (an operator or type this package does not implement),
// ErrOptions or the error of the file system.
func LoadEncoder(path string, opts *EncoderOptions) (*Encoder, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vision: encoder model: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("vision: encoder model: %w", err)
	}
	if st.Size() > maxModelBytes {
		return nil, &namedError{path, fmt.Errorf("%w: %d bytes, more than the limit of %d", ErrModel, st.Size(), maxModelBytes)}
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, fmt.Errorf("vision: encoder model %s: %w", path, err)
	}
	e, err := NewEncoder(data, opts)
	if err != nil {
		return nil, &namedError{path, err}
	}
	return e, nil
}

// NewEncoder prepares the TFLite model in data (the contents of a .tflite
// file) for inference. The Encoder keeps no reference to data. See
// LoadEncoder for the errors.
//
// The model must have one image input [1 H W 3] (uint8 or int8 quantized,
// or float32) and one output [1 classes], and use only CONV_2D,
// DEPTHWISE_CONV_2D (depth multiplier 1), FULLY_CONNECTED, ADD,
// AVERAGE_POOL_2D, RESHAPE, SQUEEZE, SOFTMAX, QUANTIZE and DEQUANTIZE,
// with fused activations NONE, RELU, RELU_N1_TO_1 or RELU6.
func NewEncoder(data []byte, opts *EncoderOptions) (*Encoder, error) {
	var o EncoderOptions
	if opts != nil {
		o = *opts
	}
	if o.Grid < 0 || o.Grid >= numGrids {
		return nil, fmt.Errorf("%w: unknown %v", ErrOptions, o.Grid)
	}
	if o.Threads < 0 {
		return nil, fmt.Errorf("%w: Threads %d, want ≥ 0", ErrOptions, o.Threads)
	}
	if o.Threads == 0 {
		o.Threads = runtime.GOMAXPROCS(0)
	}
	m, err := readTFLite(data)
	if err != nil {
		return nil, err
	}
	net, err := compile(m)
	if err != nil {
		return nil, err
	}
	if net.inH != net.inW {
		return nil, fmt.Errorf("%w: input is %d×%d; only square inputs are supported", ErrUnsupported, net.inW, net.inH)
	}
	if !net.grids[o.Grid].ok {
		return nil, fmt.Errorf("%w: the graph has no %v feature map", ErrUnsupported, o.Grid)
	}
	e := &Encoder{net: net, grid: o.Grid}
	e.state = newState(net, o.Threads)
	return e, nil
}

func newState(net *network, threads int) state {
	s := state{par: parallel{n: threads}, col: make([]float32, net.colSize)}
	for _, n := range net.slotSizes {
		s.slots = append(s.slots, make([]float32, n))
	}
	for range threads {
		s.scratch = append(s.scratch, newScratch(net.maxK, net.maxChannels))
	}
	return s
}

// Clone returns an Encoder that shares e's weights and options but has its
// own buffers, for use on another goroutine.
func (e *Encoder) Clone() *Encoder {
	return &Encoder{net: e.net, grid: e.grid, state: newState(e.net, e.state.par.n)}
}

// InputSize is the side of the square image the network reads (224 for
// MobileNetV2 1.0/224).
func (e *Encoder) InputSize() int { return e.net.inH }

// Normalization is the byte-to-input mapping the network expects, derived
// from the quantization of its input tensor: a uint8 input with scale s and
// zero point z reads byte v as s·(v − z). For MobileNetV2 (s = 1/128,
// z = 128) that is (v − 128)/128, which MobileNetNorm approximates as
// v/127.5 − 1.
func (e *Encoder) Normalization() Normalization { return e.net.norm }

// NewPreprocessor returns a Preprocessor for this network: InputSize
// outputs normalized with Normalization. opts.Norm is ignored; the other
// options apply as documented on PreprocessOptions.
func (e *Encoder) NewPreprocessor(opts *PreprocessOptions) (*Preprocessor, error) {
	var o PreprocessOptions
	if opts != nil {
		o = *opts
	}
	o.Norm = e.net.norm
	return NewPreprocessor(e.net.inH, &o)
}

// Grid returns the feature map Features returns.
func (e *Encoder) Grid() Grid { return e.grid }

// GridShape returns the height, width and depth (channels) of the feature
// map: Features returns L = h·w rows of D = d values.
func (e *Encoder) GridShape() (h, w, d int) {
	g := &e.net.grids[e.grid]
	return g.h, g.w, g.d
}

// NumClasses is the length of Classify's output (1001 for MobileNetV2:
// background and the 1000 ImageNet classes).
func (e *Encoder) NumClasses() int { return e.net.classes }

// Features runs the network on img up to the feature grid and returns it
// as an L×D row-major matrix (L = h·w regions in raster order, D
// channels): row y·w+x is the feature vector of grid cell (x, y). img must
// be 3×InputSize×InputSize, normalized with Normalization (see
// NewPreprocessor). The result is written to dst if it has the capacity,
// else to a new slice.
func (e *Encoder) Features(dst []float32, img *Tensor) ([]float32, error) {
	f, _, err := e.encode(img, dst, nil, true, false)
	return f, err
}

// Classify runs the whole network on img and returns its output: for
// MobileNetV2 the softmax probabilities of NumClasses classes, index 0
// being "background". See Features for img and dst.
func (e *Encoder) Classify(dst []float32, img *Tensor) ([]float32, error) {
	_, p, err := e.encode(img, nil, dst, false, true)
	return p, err
}

// Encode runs the whole network once and returns both the feature grid
// (as Features) and the class probabilities (as Classify), written to
// features and probs if they have the capacity.
func (e *Encoder) Encode(img *Tensor, features, probs []float32) ([]float32, []float32, error) {
	return e.encode(img, features, probs, true, true)
}

func (e *Encoder) encode(img *Tensor, features, probs []float32, wantFeatures, wantProbs bool) ([]float32, []float32, error) {
	net, s := e.net, &e.state
	if img == nil {
		return nil, nil, fmt.Errorf("%w: nil image tensor", ErrOptions)
	}
	if img.C != 3 || img.H != net.inH || img.W != net.inW || len(img.Data) != img.C*img.H*img.W {
		return nil, nil, fmt.Errorf("%w: image tensor %d×%d×%d with %d values, want 3×%d×%d",
			ErrOptions, img.C, img.H, img.W, len(img.Data), net.inH, net.inW)
	}
	chwToHWC(s.slots[net.inputSlot], img)
	g := &net.grids[e.grid]
	for i, l := range net.layers {
		l.run(s)
		if wantFeatures && i == g.layer {
			features = grow(features, g.h*g.w*g.d)
			copy(features, s.slots[g.slot])
			if !wantProbs {
				return features, nil, nil
			}
		}
	}
	if wantProbs {
		probs = grow(probs, net.classes)
		copy(probs, s.slots[net.outputSlot])
	}
	return features, probs, nil
}

// grow returns dst resized to n, reallocated if its capacity is short.
func grow(dst []float32, n int) []float32 {
	if cap(dst) < n {
		return make([]float32, n)
	}
	return dst[:n]
}

// chwToHWC writes the CHW tensor t into dst as H×W×C.
func chwToHWC(dst []float32, t *Tensor) {
	n := t.H * t.W
	for c := 0; c < t.C; c++ {
		plane := t.Data[c*n : (c+1)*n]
		for i, v := range plane {
			dst[i*t.C+c] = v
		}
	}
}
