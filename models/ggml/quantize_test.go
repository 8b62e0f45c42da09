package ggml

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// blockTypes are the quantized types in the order of the golden file.
var blockTypes = []Type{Q4_0, Q4_1, Q5_0, Q5_1, Q8_0}

// TestQuantizeMatchesReference compares Quantize and DequantizeRow bit for
// bit with ggml's own quantize_row_*_ref and dequantize_row_* on the
// blocks of testdata/ggml_reference.bin (made by testdata/gen_reference.c
// from whisper.cpp's ggml/src/ggml-quants.c): random blocks at scales from
// 1e-6 to 2e4, zeros, constants, outliers, values on rounding ties, and
// scales that underflow or overflow a half.
func TestQuantizeMatchesReference(t *testing.T) {
	raw, err := os.ReadFile("testdata/ggml_reference.bin")
	if err != nil {
		t.Fatal(err)
	}
	if string(raw[:4]) != "gref" {
		t.Fatal("testdata/ggml_reference.bin: bad magic")
	}
	nb := int(binary.LittleEndian.Uint32(raw[4:]))
	raw = raw[8:]
	floats := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		raw = raw[4*n:]
		return v
	}
	x := floats(nb * BlockLen)
	for _, typ := range blockTypes {
		n := nb * typ.BlockBytes()
		want := raw[:n]
		raw = raw[n:]
		wantY := floats(nb * BlockLen)
		got, err := Quantize(typ, x)
		if err != nil {
			t.Fatal(err)
		}
		for b := range nb {
			bb := typ.BlockBytes()
			if g, w := got[b*bb:][:bb], want[b*bb:][:bb]; !bytes.Equal(g, w) {
				t.Errorf("%v block %d (inputs %v…): got % x, ggml % x", typ, b, x[b*BlockLen:][:4], g, w)
			}
		}
		y := make([]float32, len(x))
		DequantizeRow(y, want, typ)
		for i := range y {
			if math.Float32bits(y[i]) != math.Float32bits(wantY[i]) {
				t.Errorf("%v: dequantized value %d is %g, ggml's %g", typ, i, y[i], wantY[i])
				break
			}
		}
	}
	if len(raw) != 0 {
		t.Errorf("%d bytes left over in the golden file", len(raw))
	}
}

// TestQuantizeErrorBound checks the quantizers' defining property on
// random rows: every dequantized value is within one step of the input,
// d/2 for the rounding types (q8_0; q4_0 and q5_0 also clamp the top
// level) and d for the truncating min types.
func TestQuantizeErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := make([]float32, 64*BlockLen)
	for i := range x {
		x[i] = float32(rng.NormFloat64()) * float32(1+i%5)
	}
	for _, typ := range blockTypes {
		q, err := Quantize(typ, x)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float32, len(x))
		DequantizeRow(y, q, typ)
		for b := 0; b < len(x); b += BlockLen {
			blk := q[b/BlockLen*typ.BlockBytes():]
			d := float64(abs32(half(blk)))
			for j := b; j < b+BlockLen; j++ {
				// One step, plus the half rounding of d and m scaled up
				// by the largest level.
				if err := math.Abs(float64(y[j] - x[j])); err > 1.02*d+1e-3*math.Abs(float64(x[j])) {
					t.Fatalf("%v: value %d: %g became %g (d %g)", typ, j, x[j], y[j], d)
				}
			}
		}
	}
}

func TestQuantizeRejectsPartialBlocks(t *testing.T) {
	for _, typ := range blockTypes {
		if _, err := Quantize(typ, make([]float32, 33)); err == nil {
			t.Errorf("%v: 33 values quantized without error", typ)
		}
	}
	if _, err := Quantize(Type(12), make([]float32, 32)); err == nil {
		t.Error("q4_K: quantized without error")
	}
	for _, typ := range []Type{F32, F16} {
		b, err := Quantize(typ, []float32{1, -2.5, 3})
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float32, 3)
		DequantizeRow(y, b, typ)
		if y[0] != 1 || y[1] != -2.5 || y[2] != 3 {
			t.Errorf("%v: round trip gave %v", typ, y)
		}
	}
}
