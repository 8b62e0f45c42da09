package safetensors_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// benchFile is a model of 10M parameters: ten 1000×1000 matrices of
// N(0, 0.1²) weights, built once.
var benchFile = sync.OnceValue(func() *safetensors.File {
	rng := rand.New(rand.NewPCG(1, 2))
	f := &safetensors.File{Kind: "asr", Config: []byte(`{"hidden":1000}`)}
	for i := range 10 {
		data := make([]float32, 1000*1000)
		for j := range data {
			data[j] = float32(rng.NormFloat64() * 0.1)
		}
		f.Tensors = append(f.Tensors, safetensors.Tensor{Name: fmt.Sprintf("layer%d.w", i), Shape: []int{1000, 1000}, Data: data})
	}
	return f
})

func BenchmarkWriteF32(b *testing.B)     { benchmarkWrite(b, safetensors.F32) }
func BenchmarkWriteF16(b *testing.B)     { benchmarkWrite(b, safetensors.F16) }
func BenchmarkParseF32(b *testing.B)     { benchmarkParse(b, safetensors.F32) }
func BenchmarkParseF16(b *testing.B)     { benchmarkParse(b, safetensors.F16) }
func BenchmarkWriteFileF32(b *testing.B) { benchmarkWriteFile(b, safetensors.F32) }
func BenchmarkWriteFileF16(b *testing.B) { benchmarkWriteFile(b, safetensors.F16) }
func BenchmarkReadFileF32(b *testing.B)  { benchmarkReadFile(b, safetensors.F32) }
func BenchmarkReadFileF16(b *testing.B)  { benchmarkReadFile(b, safetensors.F16) }

// benchmarkWrite measures Write of benchFile to memory; MB/s counts file
// bytes.
func benchmarkWrite(b *testing.B, dtype safetensors.DType) {
	f := benchFile()
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, f, dtype); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := safetensors.Write(&buf, f, dtype); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkParse measures Parse of benchFile held in memory.
func benchmarkParse(b *testing.B, dtype safetensors.DType) {
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, benchFile(), dtype); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := safetensors.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkWriteFile measures WriteFile, fsyncs included.
func benchmarkWriteFile(b *testing.B, dtype safetensors.DType) {
	f := benchFile()
	path := filepath.Join(b.TempDir(), "model.safetensors")
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, f, dtype); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := safetensors.WriteFile(path, f, dtype); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkReadFile measures ReadFile of a file in the page cache.
func benchmarkReadFile(b *testing.B, dtype safetensors.DType) {
	path := filepath.Join(b.TempDir(), "model.safetensors")
	if err := safetensors.WriteFile(path, benchFile(), dtype); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := safetensors.Write(&buf, benchFile(), dtype); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := safetensors.ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
