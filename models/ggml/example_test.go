package ggml_test

import (
	"bytes"
	"fmt"

	"github.com/attend-go/attend/models/ggml"
)

// Example writes a one-tensor q8_0 model, reads it back and multiplies
// its quantized weight by a vector of ones: each row sums 0, 1/8, …, 31/8
// = 62, off by the rounding of d = 3.875/127 to a half.
func Example() {
	values := make([]float32, 2*32) // 2 rows of 32
	for i := range values {
		values[i] = float32(i%32) / 8
	}
	w, err := ggml.NewTensor("w", ggml.Q8_0, []int{32, 2}, values)
	if err != nil {
		panic(err)
	}
	f := &ggml.File{
		Hyper: ggml.Hyper{NVocab: 1, NAudioCtx: 1, NAudioState: 32, NAudioHead: 1, NAudioLayer: 1,
			NTextCtx: 1, NTextState: 32, NTextHead: 1, NTextLayer: 1, NMels: 1,
			FType: int(ggml.FileQ8_0) + ggml.QuantVersionFactor*ggml.QuantVersion},
		Filters: ggml.MelFilters{NMel: 1, NFFT: 1, Data: []float32{1}},
		Vocab:   [][]byte{[]byte("hi")},
		Tensors: []ggml.Tensor{w},
	}
	var buf bytes.Buffer
	if err := ggml.Write(&buf, f); err != nil {
		panic(err)
	}
	format, _ := ggml.Sniff(buf.Bytes()[:ggml.SniffLen])
	g, err := ggml.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		panic(err)
	}
	t := g.Lookup("w")
	ones := make([]float32, t.RowLen())
	for i := range ones {
		ones[i] = 1
	}
	y := make([]float32, t.Rows())
	t.MulVec(y, ones)
	fmt.Println(format, buf.Len(), "bytes;", t.Type, t.RowMajorShape(), "row sums", y)
	// Output: ggml 159 bytes; q8_0 [2 32] row sums [62.01172 62.01172]
}
