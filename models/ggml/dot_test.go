package ggml

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotRowMatchesDequantized compares DotRow on every type with the
// float64 dot product of the dequantized row, within the float32
// rounding of the sums.
func TestDotRowMatchesDequantized(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{32, 64, 384, 1280} {
		w := make([]float32, n)
		x := make([]float32, n)
		for i := range w {
			w[i] = float32(rng.NormFloat64())
			x[i] = float32(rng.NormFloat64())
		}
		for _, typ := range Types {
			row, err := Quantize(typ, w)
			if err != nil {
				t.Fatal(err)
			}
			deq := make([]float32, n)
			DequantizeRow(deq, row, typ)
			var want, mag float64
			for i := range deq {
				want += float64(deq[i]) * float64(x[i])
				mag += math.Abs(float64(deq[i]) * float64(x[i]))
			}
			got := DotRow(row, typ, x)
			if tol := 4 * float64(n) * 0x1p-24 * mag; math.Abs(float64(got)-want) > tol {
				t.Errorf("%v n=%d: DotRow %g, dequantized dot %g (tolerance %g)", typ, n, got, want, tol)
			}
		}
	}
}

// TestMulVecBundle multiplies every matrix of the q5_0 and q8_0 bundle
// files by a vector, quantized as stored, and compares with the
// dequantized matrix.
func TestMulVecBundle(t *testing.T) {
	for _, name := range []string{"small-en.ggml-q5_0.bin", "small-en.ggml-q8_0.bin"} {
		f := bundleFile(t, name)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := range f.Tensors {
			tn := &f.Tensors[i]
			if len(tn.Shape) != 2 {
				continue
			}
			x := make([]float32, tn.RowLen())
			for j := range x {
				x[j] = float32(rng.NormFloat64())
			}
			y := make([]float32, tn.Rows())
			tn.MulVec(y, x)
			w, err := tn.Float32s()
			if err != nil {
				t.Fatal(err)
			}
			for r := range y {
				var want, mag float64
				for j, xj := range x {
					p := float64(w[r*len(x)+j]) * float64(xj)
					want += p
					mag += math.Abs(p)
				}
				if math.Abs(float64(y[r])-want) > 4*float64(len(x))*0x1p-24*mag {
					t.Fatalf("%s %s row %d: %g, want %g", name, tn.Name, r, y[r], want)
				}
			}
		}
	}
}

// TestDequantizeFileAgainstF16 checks the quantized bundle files'
// matrices against the f16 file's: within half a step d/2 for q8_0 and a
// whole step for q5_0 (its top level is clamped), plus the half rounding
// of d scaled by the largest level (2⁻¹¹·127 or 2⁻¹¹·16 of d).
func TestDequantizeFileAgainstF16(t *testing.T) {
	ref := bundleFile(t, "small-en.ggml-f16.bin")
	for _, name := range []string{"small-en.ggml-q5_0.bin", "small-en.ggml-q8_0.bin"} {
		f := bundleFile(t, name)
		for i := range f.Tensors {
			tn := &f.Tensors[i]
			if !tn.Type.Quantized() {
				continue
			}
			got, err := tn.Float32s()
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Lookup(tn.Name).Float32s()
			if err != nil {
				t.Fatal(err)
			}
			bound := map[Type]float64{Q8_0: 0.5 + 127*0x1p-11, Q5_0: 1 + 16*0x1p-11}[tn.Type]
			for b := 0; b < len(got); b += BlockLen {
				d := float64(abs32(half(tn.Data[b/BlockLen*tn.Type.BlockBytes():])))
				for j := b; j < b+BlockLen; j++ {
					if math.Abs(float64(got[j]-want[j])) > bound*d {
						t.Fatalf("%s %s[%d]: %g, f16 file %g (d %g)", name, tn.Name, j, got[j], want[j], d)
					}
				}
			}
		}
	}
}

// TestDequantizeKnownBlocks decodes hand-made blocks whose values follow
// from the block equations.
func TestDequantizeKnownBlocks(t *testing.T) {
	one, half2 := []byte{0x00, 0x3c}, []byte{0x00, 0x40} // halves 1 and 2
	q4 := make([]byte, 16)
	for j := range q4 {
		q4[j] = byte(j) | byte(15-j)<<4 // low nibble j, high nibble 15−j
	}
	qh := []byte{0x01, 0x00, 0x01, 0x00} // bit 0: element 0; bit 16: element 16
	q8 := make([]byte, 32)
	for j := range q8 {
		q8[j] = byte(int8(j - 16))
	}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	tests := []struct {
		typ   Type
		block []byte
		want  func(j int) float32
	}{
		{Q4_0, cat(half2, q4), func(j int) float32 { return 2 * float32(nib(j)-8) }},
		{Q4_1, cat(half2, one, q4), func(j int) float32 { return 2*float32(nib(j)) + 1 }},
		{Q5_0, cat(one, qh, q4), func(j int) float32 { return float32(nib(j) + high(j) - 16) }},
		{Q5_1, cat(half2, one, qh, q4), func(j int) float32 { return 2*float32(nib(j)+high(j)) + 1 }},
		{Q8_0, cat(half2, q8), func(j int) float32 { return 2 * float32(j-16) }},
	}
	for _, tc := range tests {
		y := make([]float32, BlockLen)
		DequantizeRow(y, tc.block, tc.typ)
		for j := range y {
			if y[j] != tc.want(j) {
				t.Errorf("%v element %d: %g, want %g", tc.typ, j, y[j], tc.want(j))
			}
		}
	}
}

// nib is element j's nibble in the hand-made blocks: j for the first 16
// (low nibbles), 15−(j−16) for the rest (high nibbles).
func nib(j int) int {
	if j < 16 {
		return j
	}
	return 15 - (j - 16)
}

// high is element j's fifth bit (16) in the hand-made blocks: set for 0
// and 16.
func high(j int) int {
	if j == 0 || j == 16 {
		return 16
	}
	return 0
}

func TestTensorHelpers(t *testing.T) {
	tn := Tensor{Name: "w", Type: Q8_0, Shape: []int{64, 3, 2}}
	if tn.Len() != 384 || tn.RowLen() != 64 || tn.Rows() != 6 || tn.RowBytes() != 68 {
		t.Errorf("Len %d RowLen %d Rows %d RowBytes %d", tn.Len(), tn.RowLen(), tn.Rows(), tn.RowBytes())
	}
	if got := tn.RowMajorShape(); len(got) != 3 || got[0] != 2 || got[1] != 3 || got[2] != 64 {
		t.Errorf("RowMajorShape %v", got)
	}
	scalar := Tensor{Name: "s", Type: F32}
	if scalar.Len() != 1 || scalar.Rows() != 1 || scalar.RowLen() != 1 || len(scalar.RowMajorShape()) != 0 {
		t.Error("scalar helpers")
	}
	if _, err := tn.Float32s(); err == nil {
		t.Error("Float32s of a tensor without data: no error")
	}
	for _, typ := range Types {
		if !typ.Supported() || typ.String() == "" || (typ.BlockLen() == BlockLen) != typ.Quantized() {
			t.Errorf("%v: inconsistent traits", typ)
		}
		if ft, ok := FileTypeOf(typ); !ok || ft.String() != typ.String() {
			t.Errorf("%v: file type %v", typ, ft)
		}
	}
	if Type(13).String() != "q5_K" || Type(99).String() != "type 99" || FileType(12).String() != "ftype 12" {
		t.Error("names of unsupported types")
	}
}
