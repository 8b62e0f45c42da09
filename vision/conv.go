package vision

import "github.com/attend-go/attend/internal/sgemm"

// Convolutions over HWC activations (one image: height × width × channels,
// channels fastest, the NHWC layout of TFLite with N = 1).

// window describes a 2-D sliding window: kernel size, stride, dilation and
// the padding before the first row and column (TFLite pads SAME inputs
// with the odd pixel at the bottom and right).
type window struct {
	kh, kw           int
	strideH, strideW int
	dilH, dilW       int
	padTop, padLeft  int
	inH, inW         int
	outH, outW       int
}

// samePad returns TFLite's output size and padding before the first pixel
// for one dimension (tflite::ComputePaddingHeightWidth).
func samePad(in, k, stride, dil int, p tfPadding) (out, before int) {
	eff := (k-1)*dil + 1
	if p == padValid {
		return (in - eff + stride) / stride, 0
	}
	out = (in + stride - 1) / stride
	total := max((out-1)*stride+eff-in, 0)
	return out, total / 2
}

// conv is a convolution computed as one GEMM:
//
//	out[y][x][o] = clamp(bias[o] + Σ_{ky,kx,i} in[y·s+ky·d−p][x·s+kx·d−p][i] · w[o][ky][kx][i], lo, hi)
//
// A 1×1 convolution with stride 1 multiplies the input, an M×inC matrix
// with M = H·W, by the weights directly; any other first unrolls the
// receptive fields into an M×(kh·kw·inC) matrix (im2col), in the order of
// TFLite's [out][kh][kw][in] filters.
type conv struct {
	win       window
	inC       int
	w         *sgemm.Packed // K×outC, K = kh·kw·inC
	lo, hi    float32
	pointwise bool // 1×1, stride 1: no im2col
}

func (c *conv) outC() int { return c.w.N }

// colSize is the im2col scratch this convolution needs, in floats.
func (c *conv) colSize() int {
	if c.pointwise {
		return 0
	}
	return c.win.outH * c.win.outW * c.w.K
}

func (c *conv) run(in, out, col []float32, par parallel, scratch []*scratch) {
	m := c.win.outH * c.win.outW
	if c.pointwise {
		gemm(m, in, c.inC, c.w, out, c.outC(), c.lo, c.hi, par, scratch)
		return
	}
	col = col[:m*c.w.K]
	im2col(&c.win, c.inC, in, col, par)
	gemm(m, col, c.w.K, c.w, out, c.outC(), c.lo, c.hi, par, scratch)
}

// im2col writes row y·outW+x of col: the kh·kw·ch inputs under the window
// at output (y, x), zero where the window hangs over the padding.
func im2col(win *window, ch int, in, col []float32, par parallel) {
	k := win.kh * win.kw * ch
	par.do(win.outH, func(_, y int) {
		for x := 0; x < win.outW; x++ {
			dst := col[(y*win.outW+x)*k:][:k]
			ix0 := x*win.strideW - win.padLeft
			for ky := 0; ky < win.kh; ky++ {
				iy := y*win.strideH + ky*win.dilH - win.padTop
				seg := dst[ky*win.kw*ch : (ky+1)*win.kw*ch]
				if iy < 0 || iy >= win.inH {
					clear(seg)
					continue
				}
				row := in[iy*win.inW*ch : (iy+1)*win.inW*ch]
				if win.dilW == 1 {
					// Taps [lo, hi) are inside the row and adjacent in
					// memory: one copy.
					lo, hi := max(-ix0, 0), min(win.kw, win.inW-ix0)
					if lo >= hi {
						clear(seg)
						continue
					}
					clear(seg[:lo*ch])
					copy(seg[lo*ch:hi*ch], row[(ix0+lo)*ch:])
					clear(seg[hi*ch:])
					continue
				}
				for kx := 0; kx < win.kw; kx++ {
					ix := ix0 + kx*win.dilW
					tap := seg[kx*ch : (kx+1)*ch]
					if ix < 0 || ix >= win.inW {
						clear(tap)
						continue
					}
					copy(tap, row[ix*ch:])
				}
			}
		}
	})
}

// depthwise is a depthwise convolution with depth multiplier 1:
//
//	out[y][x][c] = clamp(bias[c] + Σ_{ky,kx} in[y·s+ky·d−p][x·s+kx·d−p][c] · w[ky][kx][c], lo, hi)
//
// A 3×3 undilated window, the only kind in MobileNet, goes through the
// depthwise3x3 kernel (eight channels at a time with AVX2): a run of
// output pixels whose window lies inside the input in one call, rows of
// the padding read from a shared row of zeros; a pixel at the left or
// right edge is copied with its zero padding into a 3×3 patch first.
// Other windows take a plain loop.
type depthwise struct {
	win    window
	ch     int
	w      []float32 // kh·kw·ch: tap t, channel c at w[t*ch+c]
	bias   []float32 // ch
	lo, hi float32
	zeros  []float32 // at least inW·ch zeros, read only
}

func (d *depthwise) run(in, out []float32, par parallel, scratch []*scratch) {
	win := &d.win
	if win.kh != 3 || win.kw != 3 || win.dilH != 1 || win.dilW != 1 {
		par.do(win.outH, func(_, y int) {
			for x := 0; x < win.outW; x++ {
				d.pixel(in, out[(y*win.outW+x)*d.ch:][:d.ch], y, x)
			}
		})
		return
	}
	// Output columns [x0, x1) have their whole window inside the input.
	x0 := min((win.padLeft+win.strideW-1)/win.strideW, win.outW)
	x1 := x0
	if win.inW >= 3 {
		x1 = max(min((win.inW-3+win.padLeft)/win.strideW+1, win.outW), x0)
	}
	rowLen := win.inW * d.ch
	par.do(win.outH, func(worker, y int) {
		row := out[y*win.outW*d.ch : (y+1)*win.outW*d.ch]
		var rows [3][]float32
		for ky := range rows {
			if iy := y*win.strideH + ky - win.padTop; iy >= 0 && iy < win.inH {
				rows[ky] = in[iy*rowLen : (iy+1)*rowLen]
			} else {
				rows[ky] = d.zeros[:rowLen]
			}
		}
		patch := scratch[worker].patch[:9*d.ch]
		for x := 0; x < x0; x++ {
			d.edgePixel(&rows, patch, row[x*d.ch:(x+1)*d.ch], x)
		}
		if x0 < x1 {
			first := (x0*win.strideW - win.padLeft) * d.ch
			depthwise3x3(x1-x0, d.ch, win.strideW*d.ch, rows[0][first:], rows[1][first:], rows[2][first:],
				d.w, d.bias, row[x0*d.ch:x1*d.ch], d.lo, d.hi)
		}
		for x := x1; x < win.outW; x++ {
			d.edgePixel(&rows, patch, row[x*d.ch:(x+1)*d.ch], x)
		}
	})
}

// edgePixel computes output column x of a 3×3 depthwise convolution whose
// window overhangs the left or right edge: the window is copied into
// patch with zeros for the padding, and the kernel runs on the copy.
func (d *depthwise) edgePixel(rows *[3][]float32, patch, dst []float32, x int) {
	ch := d.ch
	ix0 := x*d.win.strideW - d.win.padLeft
	for ky, r := range rows {
		for kx := 0; kx < 3; kx++ {
			tap := patch[(3*ky+kx)*ch : (3*ky+kx+1)*ch]
			if ix := ix0 + kx; ix >= 0 && ix < d.win.inW {
				copy(tap, r[ix*ch:])
			} else {
				clear(tap)
			}
		}
	}
	depthwise3x3(1, ch, 0, patch[:3*ch], patch[3*ch:6*ch], patch[6*ch:], d.w, d.bias, dst, d.lo, d.hi)
}

// pixel computes one output pixel of any window, skipping taps in the
// padding.
func (d *depthwise) pixel(in, dst []float32, y, x int) {
	win := &d.win
	copy(dst, d.bias)
	for ky := 0; ky < win.kh; ky++ {
		iy := y*win.strideH + ky*win.dilH - win.padTop
		if iy < 0 || iy >= win.inH {
			continue
		}
		for kx := 0; kx < win.kw; kx++ {
			ix := x*win.strideW + kx*win.dilW - win.padLeft
			if ix < 0 || ix >= win.inW {
				continue
			}
			src := in[(iy*win.inW+ix)*d.ch:][:len(dst)]
			w := d.w[(ky*win.kw+kx)*d.ch:][:len(dst)]
			for c := range dst {
				dst[c] += src[c] * w[c]
			}
		}
	}
	for c, v := range dst {
		dst[c] = clamp(v, d.lo, d.hi)
	}
}

// depthwise3x3Go is the portable kernel for n interior pixels of a 3×3
// depthwise convolution: r0, r1, r2 are the three input rows from the
// first tap of pixel 0, step the distance between consecutive pixels' taps
// (stride·ch), out the n×ch outputs.
func depthwise3x3Go(n, ch, step int, r0, r1, r2, w, bias, out []float32, lo, hi float32) {
	w0, w1, w2 := w[0*ch:1*ch], w[1*ch:2*ch], w[2*ch:3*ch]
	w3, w4, w5 := w[3*ch:4*ch], w[4*ch:5*ch], w[5*ch:6*ch]
	w6, w7, w8 := w[6*ch:7*ch], w[7*ch:8*ch], w[8*ch:9*ch]
	bias = bias[:ch]
	for i := 0; i < n; i++ {
		o := out[i*ch : (i+1)*ch]
		a0, b0, c0 := r0[i*step:][:ch], r0[i*step+ch:][:ch], r0[i*step+2*ch:][:ch]
		a1, b1, c1 := r1[i*step:][:ch], r1[i*step+ch:][:ch], r1[i*step+2*ch:][:ch]
		a2, b2, c2 := r2[i*step:][:ch], r2[i*step+ch:][:ch], r2[i*step+2*ch:][:ch]
		for c := range o {
			s := bias[c] + a0[c]*w0[c] + b0[c]*w1[c] + c0[c]*w2[c]
			s += a1[c]*w3[c] + b1[c]*w4[c] + c1[c]*w5[c]
			s += a2[c]*w6[c] + b2[c]*w7[c] + c2[c]*w8[c]
			o[c] = clamp(s, lo, hi)
		}
	}
}
