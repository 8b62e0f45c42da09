package vision

import (
	"fmt"
	"image"
	"math"
)

// Normalization maps 8-bit channel values to model inputs:
//
//	out[c] = (v/255 − Mean[c]) / Std[c]      v ∈ {0, …, 255}
//
// Mean and Std are in units of the [0, 1] intensity, channels in R, G, B
// order. The zero value means ImageNetNorm.
type Normalization struct {
	Mean [3]float32
	Std  [3]float32
}

// Presets. They are values: assigning one copies it.
var (
	// ImageNetNorm is the per-channel mean and standard deviation of the
	// ImageNet training set, the convention of torchvision models.
	// Outputs lie in about [−2.1, 2.6].
	ImageNetNorm = Normalization{
		Mean: [3]float32{0.485, 0.456, 0.406},
		Std:  [3]float32{0.229, 0.224, 0.225},
	}
	// MobileNetNorm maps to [−1, 1] (mean 127.5, std 127.5 in byte units),
	// the float input convention of TensorFlow's MobileNet and Inception
	// models. The uint8-quantized MobileNetV2 TFLite model takes the raw
	// bytes instead, quantized with scale 1/128 and zero point 128, which
	// is the same mapping up to rounding.
	MobileNetNorm = Normalization{
		Mean: [3]float32{0.5, 0.5, 0.5},
		Std:  [3]float32{0.5, 0.5, 0.5},
	}
	// UnitNorm maps to [0, 1].
	UnitNorm = Normalization{Std: [3]float32{1, 1, 1}}
	// ByteNorm keeps byte values: [0, 255] as float32.
	ByteNorm = Normalization{Std: [3]float32{1.0 / 255, 1.0 / 255, 1.0 / 255}}
)

func (n Normalization) isZero() bool { return n == Normalization{} }

// validate reports a NaN, an infinity or a zero standard deviation.
func (n Normalization) validate() error {
	for c := 0; c < 3; c++ {
		m, s := float64(n.Mean[c]), float64(n.Std[c])
		if math.IsNaN(m) || math.IsInf(m, 0) || math.IsNaN(s) || math.IsInf(s, 0) || s == 0 {
			return fmt.Errorf("%w: Normalization channel %d has mean %v, std %v; want finite values and std != 0",
				ErrOptions, c, n.Mean[c], n.Std[c])
		}
	}
	return nil
}

// lut is the 256-entry table of Normalization outputs for each channel, so
// that normalizing is three table lookups per pixel.
type lut [3][256]float32

func (n Normalization) table() *lut {
	t := new(lut)
	for c := range t {
		for v := range t[c] {
			t[c][v] = float32((float64(v)/255 - float64(n.Mean[c])) / float64(n.Std[c]))
		}
	}
	return t
}

// toCHW writes the RGB channels of src, an opaque image starting at (0, 0),
// into dst as C×H×W planes (len(dst) == 3·W·H).
func (t *lut) toCHW(dst []float32, src *image.RGBA) {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	n := w * h
	r, g, b := dst[:n:n], dst[n:2*n:2*n], dst[2*n:3*n:3*n]
	i := 0
	for y := 0; y < h; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		for x := 0; x+3 < len(row); x += 4 {
			r[i] = t[0][row[x]]
			g[i] = t[1][row[x+1]]
			b[i] = t[2][row[x+2]]
			i++
		}
	}
}
