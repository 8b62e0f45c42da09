package safetensors_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/models/safetensors"
)

// tinyModel is the model file of the examples.
func tinyModel() *safetensors.File {
	return &safetensors.File{
		Kind:   "asr",
		Config: json.RawMessage(`{"hidden":2}`),
		Vocab:  []string{"<eos>", "a", "b"},
		Tensors: []safetensors.Tensor{
			{Name: "out.w", Shape: []int{3, 2}, Data: []float32{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}},
			{Name: "out.b", Shape: []int{3}, Data: []float32{0, 0, 1}},
		},
	}
}

func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "attend-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	path := filepath.Join(dir, "model.safetensors")
	if err := safetensors.WriteFile(path, tinyModel(), safetensors.F16); err != nil {
		log.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Size(), "bytes")
	// Output: 290 bytes
}

func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "attend-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.safetensors")
	if err := safetensors.WriteFile(path, tinyModel(), safetensors.F16); err != nil {
		log.Fatal(err)
	}

	// A loader: check the kind, rebuild the config, take each tensor
	// with its expected shape, then make sure nothing was left over.
	f, err := safetensors.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := f.CheckKind("asr"); err != nil {
		log.Fatal(err)
	}
	var config struct {
		Hidden int `json:"hidden"`
	}
	if err := f.DecodeConfig(&config); err != nil {
		log.Fatal(err)
	}
	w, err := f.Expect("out.w", len(f.Vocab), config.Hidden)
	if err != nil {
		log.Fatal(err)
	}
	b, err := f.Expect("out.b", len(f.Vocab))
	if err != nil {
		log.Fatal(err)
	}
	if err := f.CheckNames([]string{"out.w", "out.b"}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Kind, f.FormatVersion, f.Vocab, config.Hidden)
	fmt.Println(w) // float16 precision
	fmt.Println(b)
	// Output:
	// asr 1 [<eos> a b] 2
	// [0.099975586 0.19995117 0.30004883 0.39990234 0.5 0.60009766]
	// [0 0 1]
}

func ExampleFile_Expect() {
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, tinyModel(), safetensors.F32); err != nil {
		log.Fatal(err)
	}
	f, err := safetensors.Parse(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	f.Source = "embedded asr model"
	_, err = f.Expect("out.w", 3, 4)
	fmt.Println(err)
	fmt.Println(errors.Is(err, safetensors.ErrMismatch))
	// Output:
	// models: embedded asr model: tensor "out.w" has shape [3 2], want [3 4]
	// true
}

func ExampleNewReader() {
	// Any safetensors file, attend model or not, such as a fixture with
	// float64 values for a gradient check.
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, tinyModel(), safetensors.F32); err != nil {
		log.Fatal(err)
	}
	s, err := safetensors.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range s.Tensors() {
		fmt.Println(t.Name, t.DType, t.Shape, t.Begin, t.End)
	}
	b, err := s.Float64s("out.b")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(b, s.Metadata()["attend.kind"])
	// Output:
	// out.b F32 [3] 0 12
	// out.w F32 [3 2] 12 36
	// [0 0 1] asr
}

func ExampleFloat16bits() {
	for _, x := range []float32{1, 0.1, 65504, 65520, 0x1p-25, 0x3p-25} {
		h := safetensors.Float16bits(x)
		fmt.Printf("%-13g → %#04x → %g\n", x, h, safetensors.Float16frombits(h))
	}
	// Output:
	// 1             → 0x3c00 → 1
	// 0.1           → 0x2e66 → 0.099975586
	// 65504         → 0x7bff → 65504
	// 65520         → 0x7c00 → +Inf
	// 2.9802322e-08 → 0x0000 → 0
	// 8.940697e-08  → 0x0002 → 1.1920929e-07
}
