package ggml

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

func BenchmarkReadF16File(b *testing.B) { benchmarkRead(b, "small-en.ggml-f16.bin") }
func BenchmarkReadQ5File(b *testing.B)  { benchmarkRead(b, "small-en.ggml-q5_0.bin") }

// benchmarkRead reads a bundle file from memory, so the figure is the
// parsing and copying, not the disk.
func benchmarkRead(b *testing.B, name string) {
	raw, err := os.ReadFile(shareddata.Path(b, "whisper/"+name))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(raw), int64(len(raw))); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRowLen is a row of Whisper base's width times the MLP's 4.
const benchRowLen = 2048

// benchRow returns a random row encoded as typ and a random vector.
func benchRow(b *testing.B, typ Type) ([]byte, []float32) {
	rng := rand.New(rand.NewPCG(3, 3))
	w := make([]float32, benchRowLen)
	x := make([]float32, benchRowLen)
	for i := range w {
		w[i], x[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	row, err := Quantize(typ, w)
	if err != nil {
		b.Fatal(err)
	}
	return row, x
}

func BenchmarkDequantize(b *testing.B) {
	for _, typ := range Types {
		b.Run(typ.String(), func(b *testing.B) {
			row, x := benchRow(b, typ)
			b.SetBytes(4 * benchRowLen) // float32 produced
			b.ReportAllocs()
			for b.Loop() {
				DequantizeRow(x, row, typ)
			}
		})
	}
}

func BenchmarkDotRow(b *testing.B) {
	for _, typ := range Types {
		b.Run(typ.String(), func(b *testing.B) {
			row, x := benchRow(b, typ)
			var sink float32
			b.ReportAllocs()
			for b.Loop() {
				sink += DotRow(row, typ, x)
			}
			b.ReportMetric(2*benchRowLen*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			_ = sink
		})
	}
}

func BenchmarkQuantize(b *testing.B) {
	for _, typ := range Types {
		b.Run(typ.String(), func(b *testing.B) {
			_, x := benchRow(b, typ)
			b.SetBytes(4 * benchRowLen) // float32 consumed
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Quantize(typ, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMatVec multiplies a vector by Whisper's token embedding shape
// (51,864×384) in each type: the output layer of a decoding step, bound
// by how fast the blocks stream from memory.
func BenchmarkMatVec(b *testing.B) {
	const rows, cols = 51864, 384
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]float32, rows*cols)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	x, y := w[:cols], make([]float32, rows)
	for _, typ := range []Type{Q4_0, Q4_1, Q5_0, Q5_1, Q8_0} {
		b.Run(typ.String(), func(b *testing.B) {
			data, err := Quantize(typ, w)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				MatVec(y, data, typ, x)
			}
		})
	}
}
