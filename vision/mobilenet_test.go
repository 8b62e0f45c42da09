package vision

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// tinyInput returns random HWC bytes for the tiny network and the same
// image as a CHW tensor normalized for enc.
func tinyInput(seed uint64, enc *Encoder) ([]byte, *Tensor) {
	r := rand.New(rand.NewPCG(seed, 7))
	const size = 10
	pixels := make([]byte, size*size*3)
	for i := range pixels {
		pixels[i] = byte(r.IntN(256))
	}
	norm := enc.Normalization()
	t := &Tensor{C: 3, H: size, W: size, Data: make([]float32, 3*size*size)}
	for c := 0; c < 3; c++ {
		for i := 0; i < size*size; i++ {
			v := float32(pixels[i*3+c])
			t.Data[c*size*size+i] = (v/255 - norm.Mean[c]) / norm.Std[c]
		}
	}
	return pixels, t
}

func TestEncoderTinyNet(t *testing.T) {
	net := newTinyNet(1)
	model := net.model.flatbuffer()
	withKernels(t, func(t *testing.T) {
		for _, threads := range []int{1, 3} {
			t.Run(fmt.Sprintf("threads%d", threads), func(t *testing.T) {
				final, err := NewEncoder(model, &EncoderOptions{Threads: threads})
				if err != nil {
					t.Fatal(err)
				}
				block13, err := NewEncoder(model, &EncoderOptions{Threads: threads, Grid: GridBlock13})
				if err != nil {
					t.Fatal(err)
				}
				if got := final.InputSize(); got != 10 {
					t.Errorf("InputSize = %d, want 10", got)
				}
				if got := final.NumClasses(); got != 5 {
					t.Errorf("NumClasses = %d, want 5", got)
				}
				for _, tc := range []struct {
					enc     *Encoder
					h, w, d int
				}{{final, 3, 3, 16}, {block13, 5, 5, 8}} {
					if h, w, d := tc.enc.GridShape(); h != tc.h || w != tc.w || d != tc.d {
						t.Errorf("%v: GridShape = %d, %d, %d; want %d, %d, %d", tc.enc.Grid(), h, w, d, tc.h, tc.w, tc.d)
					}
				}
				for seed := uint64(0); seed < 3; seed++ {
					pixels, img := tinyInput(seed, final)
					want13, wantFinal, wantProbs := net.forward(pixels)
					checks := []struct {
						name      string
						got, want []float32
					}{}
					f, err := final.Features(nil, img)
					if err != nil {
						t.Fatal(err)
					}
					checks = append(checks, struct {
						name      string
						got, want []float32
					}{"GridFinal features", f, wantFinal})
					f13, err := block13.Features(nil, img)
					if err != nil {
						t.Fatal(err)
					}
					checks = append(checks, struct {
						name      string
						got, want []float32
					}{"GridBlock13 features", f13, want13})
					p, err := final.Classify(nil, img)
					if err != nil {
						t.Fatal(err)
					}
					checks = append(checks, struct {
						name      string
						got, want []float32
					}{"Classify", p, wantProbs})
					ef, ep, err := block13.Encode(img, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					checks = append(checks, struct {
						name      string
						got, want []float32
					}{"Encode features", ef, want13}, struct {
						name      string
						got, want []float32
					}{"Encode probabilities", ep, wantProbs})
					for _, c := range checks {
						if len(c.got) != len(c.want) {
							t.Fatalf("seed %d: %s has %d values, want %d", seed, c.name, len(c.got), len(c.want))
						}
						if i := closeTo(c.got, c.want, 1e-4); i >= 0 {
							t.Errorf("seed %d: %s[%d] = %v, want %v", seed, c.name, i, c.got[i], c.want[i])
						}
					}
				}
			})
		}
	})
}

func TestEncoderNormalization(t *testing.T) {
	enc, err := NewEncoder(newTinyNet(1).model.flatbuffer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The input is uint8 with scale 1/128 and zero point 128.
	n := enc.Normalization()
	for _, tc := range []struct {
		v    float32
		want float32
	}{{0, -1}, {128, 0}, {255, 127.0 / 128}} {
		got := (tc.v/255 - n.Mean[0]) / n.Std[0]
		if d := got - tc.want; d > 1e-6 || d < -1e-6 {
			t.Errorf("byte %v maps to %v, want %v", tc.v, got, tc.want)
		}
	}
	pre, err := enc.NewPreprocessor(&PreprocessOptions{Norm: ImageNetNorm, Fit: Squash})
	if err != nil {
		t.Fatal(err)
	}
	if pre.Size() != 10 || pre.Normalization() != n {
		t.Errorf("NewPreprocessor: size %d, normalization %+v; want 10, %+v", pre.Size(), pre.Normalization(), n)
	}
}

func TestEncoderDstReuse(t *testing.T) {
	enc, err := NewEncoder(newTinyNet(1).model.flatbuffer(), &EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, img := tinyInput(0, enc)
	buf := make([]float32, 0, 200)
	f, err := enc.Features(buf, img)
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 9*16 || &f[0] != &buf[:1][0] {
		t.Errorf("Features did not write into dst (len %d)", len(f))
	}
	p, err := enc.Classify(buf[:0:3], img)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 5 || &p[0] == &buf[:1][0] {
		t.Errorf("Classify into a short dst: len %d, reused %v; want a new slice of 5", len(p), &p[0] == &buf[:1][0])
	}
}

// TestEncoderClone runs clones on several goroutines; each must give the
// results of the original run alone.
func TestEncoderClone(t *testing.T) {
	enc, err := NewEncoder(newTinyNet(2).model.flatbuffer(), &EncoderOptions{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	want := make([][]float32, n)
	imgs := make([]*Tensor, n)
	for i := range imgs {
		_, imgs[i] = tinyInput(uint64(i), enc)
		if want[i], err = enc.Classify(nil, imgs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := enc.Clone()
			for rep := 0; rep < 20; rep++ {
				img := imgs[(i+rep)%n]
				got, err := c.Classify(nil, img)
				if err != nil {
					errs[i] = err
					return
				}
				if j := closeTo(got, want[(i+rep)%n], 0); j >= 0 {
					errs[i] = fmt.Errorf("clone %d, image %d: prob[%d] = %v, want %v", i, (i+rep)%n, j, got[j], want[(i+rep)%n][j])
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestEncoderInputErrors(t *testing.T) {
	enc, err := NewEncoder(newTinyNet(1).model.flatbuffer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		img  *Tensor
		want string
	}{
		{"nil", nil, "nil image tensor"},
		{"size", &Tensor{C: 3, H: 224, W: 224, Data: make([]float32, 3*224*224)}, "3×224×224 with 150528 values, want 3×10×10"},
		{"channels", &Tensor{C: 1, H: 10, W: 10, Data: make([]float32, 100)}, "1×10×10"},
		{"short data", &Tensor{C: 3, H: 10, W: 10, Data: make([]float32, 299)}, "with 299 values"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := enc.Features(nil, tc.img)
			if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Features: %v; want ErrOptions containing %q", err, tc.want)
			}
		})
	}
}

func TestNewEncoderOptions(t *testing.T) {
	model := newTinyNet(1).model.flatbuffer()
	for _, o := range []EncoderOptions{{Grid: 2}, {Grid: -1}, {Threads: -1}} {
		if _, err := NewEncoder(model, &o); !errors.Is(err, ErrOptions) {
			t.Errorf("NewEncoder(%+v): %v, want ErrOptions", o, err)
		}
	}
}

// TestNewEncoderGraphErrors builds variants of the tiny network that a
// float MobileNet encoder must refuse, each with a message that says what
// and where.
func TestNewEncoderGraphErrors(t *testing.T) {
	cases := []struct {
		name   string
		change func(m *tinyModel)
		is     error
		want   string
	}{
		{"unknown operator", func(m *tinyModel) { m.ops[6].code = 17 }, ErrUnsupported, "operator 6 (MAX_POOL_2D): operator not implemented"},
		{"unnamed operator", func(m *tinyModel) { m.ops[6].code = 150 }, ErrUnsupported, "operator 6 (builtin operator 150)"},
		{"custom operator", func(m *tinyModel) { m.ops[0].code = opCustom }, ErrUnsupported, "custom operator"},
		{"conv output shape", func(m *tinyModel) { m.tensors[m.ops[0].outputs[0]].shape = []int32{1, 4, 5, 8} }, ErrModel, "gives 5×5, but the output is declared 4×5"},
		{"filter channels", func(m *tinyModel) { m.tensors[m.ops[5].inputs[1]].shape = []int32{16, 1, 2, 4} }, ErrModel, `filter "conv2/weights" has shape [16 1 2 4], want [16 kh kw 8]`},
		{"fused tanh", func(m *tinyModel) { m.ops[1].opts[4] = uint8(4) }, ErrUnsupported, "operator 1 (DEPTHWISE_CONV_2D): fused activation 4"},
		{"depth multiplier", func(m *tinyModel) { m.ops[1].opts[3] = int32(2) }, ErrUnsupported, "depth multiplier 2"},
		{"zero stride", func(m *tinyModel) { m.ops[0].opts[1] = int32(0) }, ErrModel, "stride 2×0"},
		{"read before write", func(m *tinyModel) { m.ops[0].inputs[0], m.ops[1].inputs[0] = m.ops[1].outputs[0], 0 }, ErrModel, "operator 0 (CONV_2D) reads tensor"},
		{"written twice", func(m *tinyModel) { m.ops[2].outputs[0] = m.ops[1].outputs[0] }, ErrModel, "already written"},
		{"broadcast add", func(m *tinyModel) { m.ops[3].inputs[1] = m.ops[4].outputs[0] }, ErrModel, "before any operator writes it"},
		{"input channels", func(m *tinyModel) { m.tensors[0].shape = []int32{1, 10, 10, 4} }, ErrUnsupported, "want [1 height width 3]"},
		{"float16 weights", func(m *tinyModel) { m.tensors[m.ops[7].inputs[1]].typ = 1 }, ErrModel, "constant tensor of float16"},
		{"two outputs", func(m *tinyModel) { m.outputs = append(m.outputs, 1) }, ErrUnsupported, "2 outputs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := newTinyNet(1)
			tc.change(n.model)
			_, err := NewEncoder(n.model.flatbuffer(), nil)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewEncoder: %v\nwant %v containing %q", err, tc.is, tc.want)
			}
		})
	}
}

func TestNewEncoderMissingGrid(t *testing.T) {
	// Without a stride-2 depthwise convolution there is no GridBlock13.
	n := newTinyNet(1)
	n.model.ops[4].opts[1], n.model.ops[4].opts[2] = int32(1), int32(1)
	n.model.ops[4].opts[0] = uint8(padValid)
	model := n.model.flatbuffer()
	if _, err := NewEncoder(model, nil); err != nil {
		t.Fatalf("GridFinal: %v", err)
	}
	_, err := NewEncoder(model, &EncoderOptions{Grid: GridBlock13})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no GridBlock13 feature map") {
		t.Errorf("GridBlock13: %v, want ErrUnsupported naming the grid", err)
	}
}

func TestTopK(t *testing.T) {
	probs := []float32{0.1, 0.4, 0.1, 0.3, 0.1}
	labels := []string{"a", "b", "c"}
	got := TopK(probs, labels, 4)
	want := []Prediction{{1, "b", 0.4}, {3, "", 0.3}, {0, "a", 0.1}, {2, "c", 0.1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("TopK = %v, want %v", got, want)
	}
	if got := TopK(probs, nil, 10); len(got) != 5 {
		t.Errorf("TopK(k > len) returned %d predictions, want 5", len(got))
	}
	if got := TopK(probs, nil, -1); len(got) != 0 {
		t.Errorf("TopK(k < 0) returned %d predictions, want 0", len(got))
	}
}

// TestEncoderFullyConnected replaces the tiny network's 1×1 classifier
// convolution by the equivalent FULLY_CONNECTED operator.
func TestEncoderFullyConnected(t *testing.T) {
	n := newTinyNet(3)
	op := &n.model.ops[7]
	op.code, op.optTag, op.opts = opFullyConnected, optFullyConnected, fbTable{uint8(actNone)}
	n.model.tensors[op.inputs[1]].shape = []int32{5, 16}
	enc, err := NewEncoder(n.model.flatbuffer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pixels, img := tinyInput(5, enc)
	_, _, want := n.forward(pixels)
	got, err := enc.Classify(nil, img)
	if err != nil {
		t.Fatal(err)
	}
	if i := closeTo(got, want, 1e-4); i >= 0 {
		t.Errorf("prob[%d] = %v, want %v", i, got[i], want[i])
	}
}

func TestImageNetLabels(t *testing.T) {
	labels := ImageNetLabels()
	tests := []struct {
		index int
		short string
	}{{0, "background"}, {1, "tench"}, {986, "daisy"}, {1000, "toilet tissue"}}
	if len(labels) != 1001 {
		t.Fatalf("%d labels, want 1001", len(labels))
	}
	for _, tc := range tests {
		if got := ShortLabel(labels[tc.index]); got != tc.short {
			t.Errorf("label %d = %q (%q), want %q", tc.index, got, labels[tc.index], tc.short)
		}
	}
}
