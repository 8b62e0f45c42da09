package vision

// Tensor is a dense float32 image tensor in CHW layout (channels first),
// the layout of PyTorch and of the caption encoder's input:
//
//	Data[(c*H + y)*W + x] is channel c of pixel (x, y)
//
// with channels in R, G, B order, so len(Data) == C*H*W.
type Tensor struct {
	C, H, W int
	Data    []float32
}

// At returns channel c of pixel (x, y). It panics if an index is out of
// range, like a slice index.
func (t *Tensor) At(c, y, x int) float32 {
	if c < 0 || c >= t.C || y < 0 || y >= t.H || x < 0 || x >= t.W {
		panic("vision: Tensor.At index out of range")
	}
	return t.Data[(c*t.H+y)*t.W+x]
}

// Plane returns channel c as an H×W row-major slice sharing t.Data.
func (t *Tensor) Plane(c int) []float32 {
	n := t.H * t.W
	return t.Data[c*n : (c+1)*n : (c+1)*n]
}
