package whisper

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/internal/float16"
	"github.com/attend-go/attend/internal/sgemm"
	"github.com/attend-go/attend/models/ggml"
)

// TestMatrixForms checks that every form of a weight matrix (float32,
// half, quantized) computes, for several rows, exactly the float32 product
// of its values (over blocks of rows for a few rows and wide rows:
// mulBlocks), and for one row the same up to the order of the sums.
func TestMatrixForms(t *testing.T) {
	// 70 rows: more than one quantBlockRows block; width 1536 with three
	// rows: five blocks of mulBlocks.
	for _, shape := range []struct{ rows, cols, t int }{{70, 64, 3}, {70, 1536, 3}, {70, 64, 20}} {
		t.Run(fmt.Sprintf("%dx%d·%d rows", shape.rows, shape.cols, shape.t), func(t *testing.T) {
			testMatrixForms(t, shape.rows, shape.cols, shape.t)
		})
	}
}

func testMatrixForms(t *testing.T, rows, cols, t3 int) {
	r := rand.New(rand.NewPCG(4, 5))
	vals := make([]float32, rows*cols)
	for i := range vals {
		vals[i] = float16.Frombits(float16.Bits(float32(r.NormFloat64())))
	}
	x := make([]float32, t3*cols)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	q, err := ggml.Quantize(ggml.Q5_0, vals)
	if err != nil {
		t.Fatal(err)
	}
	deq := make([]float32, len(vals))
	ggml.DequantizeRow(deq, q, ggml.Q5_0)
	tests := []struct {
		name string
		w    matrix
		want []float32 // the matrix's values
	}{
		{"float32", matrix{f32: vals, rows: rows, cols: cols}, vals},
		{"half", newMatrix(vals, rows, cols), vals},
		{"q5_0", matrix{q: q, qtype: ggml.Q5_0, rows: rows, cols: cols}, deq},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := make([]float32, t3*rows)
			sgemm.Gemm(false, true, t3, rows, cols, 1, x, cols, tc.want, cols, 0, want, rows)
			got := make([]float32, t3*rows)
			var buf []float32
			buf = tc.w.mul(got, x, t3, buf)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%d rows: element %d = %v, want %v exactly", t3, i, got[i], want[i])
				}
			}
			one := make([]float32, rows)
			tc.w.mul(one, x[:cols], 1, buf)
			if d := relMaxDiff(one, want[:rows]); d > 1e-6 {
				t.Errorf("one row differs by %.3g of its scale", d)
			}
			row := make([]float32, cols)
			tc.w.rowsTo(row, rows-1, rows)
			for i, v := range row {
				if v != tc.want[(rows-1)*cols+i] {
					t.Fatalf("last row element %d = %v, want %v", i, v, tc.want[(rows-1)*cols+i])
				}
			}
		})
	}
}

// TestLoadedForms checks the forms LoadGGML gives the bundle's files'
// weights: an f16 file's matrices in half precision only (with the half
// kernels), a q5_0 file's encoder weights quantized, its decoder weights
// too where ggml has the one-row kernel, else in float32, and its
// cross-attention's key and value weights quantized (they multiply the
// audio's 1,500 rows once a window, cross.go).
func TestLoadedForms(t *testing.T) {
	f16, err := LoadGGML(bundle(t, "small-en.ggml-f16.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if useHalfAVX2 {
		for name, w := range map[string]*matrix{"token embedding": &f16.tokEmb, "encoder mlp.0": &f16.encBlocks[0].mlp1.w,
			"decoder query": &f16.decBlocks[0].attn.query.w, "decoder cross query": &f16.decBlocks[0].cross.query.w,
			"decoder cross key": &f16.decBlocks[0].cross.key.w} {
			if w.half == nil || w.f32 != nil {
				t.Errorf("f16 file: %s is not in half precision only", name)
			}
		}
	}
	fast := ggml.FastMatVec(ggml.Q5_0)
	q5, err := LoadGGML(bundle(t, "small-en.ggml-q5_0.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		w     *matrix
		quant bool
	}{
		{"encoder query", &q5.encBlocks[0].attn.query.w, true},
		{"encoder mlp.2", &q5.encBlocks[0].mlp2.w, true},
		{"decoder cross key", &q5.decBlocks[0].cross.key.w, true},
		{"decoder cross value", &q5.decBlocks[0].cross.value.w, true},
		{"decoder cross query", &q5.decBlocks[0].cross.query.w, fast},
		{"decoder mlp.0", &q5.decBlocks[0].mlp1.w, fast},
		{"token embedding", &q5.tokEmb, fast},
	} {
		if got := tc.w.q != nil; got != tc.quant || (tc.w.f32 != nil) == tc.quant {
			t.Errorf("q5_0 file: %s quantized %v (float32 %v), want quantized %v", tc.name, got, tc.w.f32 != nil, tc.quant)
		}
	}
}

// TestMulFew checks that several sequences' steps multiplied together
// (mulFew: four rows at a time through halfDotRowsX4AVX2, the rest one by
// one, over blocks of W) give every row bit for bit its one-row product
// (mulVec), for half and quantized weights, for one to eight rows, with
// the matrix's last rows%4 rows and several blocks.
func TestMulFew(t *testing.T) {
	for _, shape := range []struct{ rows, cols int }{{70, 64}, {203, 1536}} {
		r := rand.New(rand.NewPCG(uint64(shape.rows), 6))
		vals := make([]float32, shape.rows*shape.cols)
		for i := range vals {
			vals[i] = float16.Frombits(float16.Bits(float32(r.NormFloat64())))
		}
		forms := map[string]matrix{"half": newMatrix(vals, shape.rows, shape.cols)}
		for _, typ := range []ggml.Type{ggml.Q8_0, ggml.Q5_0} {
			q, err := ggml.Quantize(typ, vals)
			if err != nil {
				t.Fatal(err)
			}
			forms[typ.String()] = matrix{q: q, qtype: typ, rows: shape.rows, cols: shape.cols}
		}
		for name, w := range forms {
			if !w.readsInPlace() {
				continue // no assembly kernels (purego)
			}
			for rows := 1; rows <= fewRows; rows++ {
				x := make([]float32, rows*shape.cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				got := make([]float32, rows*shape.rows)
				w.mulFew(got, x, rows)
				for i := range rows {
					alone := make([]float32, shape.rows)
					w.mulVec(alone, x[i*shape.cols:(i+1)*shape.cols], nil)
					for j, v := range alone {
						if got[i*shape.rows+j] != v {
							t.Fatalf("%s %dx%d, %d rows: row %d element %d = %v, alone %v", name, shape.rows, shape.cols, rows, i, j, got[i*shape.rows+j], v)
						}
					}
				}
			}
		}
	}
}
