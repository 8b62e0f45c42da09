package ggml

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMatVecMatchesDequantized checks MatVec, in assembly where the
// machine has it, against the float64 product of the dequantized matrix:
// every type, one to nine rows, rows of one to 48 blocks, weights with
// extreme blocks (all equal, zeros, large scales).
func TestMatVecMatchesDequantized(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, typ := range Types {
		for _, shape := range [][2]int{{1, 32}, {3, 64}, {4, 384}, {9, 96}, {5, 1536}} {
			rows, cols := shape[0], shape[1]
			t.Run(fmt.Sprintf("%v/%dx%d", typ, rows, cols), func(t *testing.T) {
				w := make([]float32, rows*cols)
				for i := range w {
					w[i] = float32(rng.NormFloat64() * math.Exp(rng.NormFloat64()))
				}
				clear(w[:min(len(w), 32)]) // a zero block
				if len(w) >= 64 {
					for i := 32; i < 64; i++ {
						w[i] = -3.5 // a constant block
					}
				}
				x := make([]float32, cols)
				for i := range x {
					x[i] = float32(rng.NormFloat64())
				}
				data, err := Quantize(typ, w)
				if err != nil {
					t.Fatal(err)
				}
				deq := make([]float32, len(w))
				DequantizeRow(deq, data, typ)
				y := make([]float32, rows)
				MatVec(y, data, typ, x)
				for r := range rows {
					var want, scale float64
					for i, v := range deq[r*cols : (r+1)*cols] {
						want += float64(v) * float64(x[i])
						scale += math.Abs(float64(v) * float64(x[i]))
					}
					if d := math.Abs(float64(y[r]) - want); d > 1e-6*scale+1e-30 {
						t.Errorf("row %d: %v, want %v (Σ|w·x| %v)", r, y[r], want, scale)
					}
				}
			})
		}
	}
	t.Logf("assembly kernels: %v", func() (k []Type) {
		for _, typ := range Types {
			if FastMatVec(typ) {
				k = append(k, typ)
			}
		}
		return k
	}())
}

// TestMatVecPanics checks the programming errors MatVec refuses.
func TestMatVecPanics(t *testing.T) {
	for name, call := range map[string]func(){
		"short data":    func() { MatVec(make([]float32, 2), make([]byte, 34), Q8_0, make([]float32, 32)) },
		"partial block": func() { MatVec(make([]float32, 1), make([]byte, 34), Q8_0, make([]float32, 31)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

// TestDequantizeAssembly checks that DequantizeRow, in assembly where
// the machine has it, gives bit for bit what the Go block decoder gives,
// on random bytes (every scale, offset and high-bit pattern, NaN scales
// aside).
func TestDequantizeAssembly(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, typ := range []Type{Q4_0, Q4_1, Q5_0, Q5_1, Q8_0} {
		const blocks = 257
		bb := typ.BlockBytes()
		src := make([]byte, blocks*bb)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		for b := range blocks { // finite scales and offsets
			src[b*bb+1] &= 0x3b
			if typ == Q4_1 || typ == Q5_1 {
				src[b*bb+3] &= 0x3b
			}
		}
		got := make([]float32, blocks*BlockLen)
		DequantizeRow(got, src, typ)
		for b := range blocks {
			var want [BlockLen]float32
			dequantizeBlock(&want, src[b*bb:][:bb], typ)
			for j, v := range want {
				if g := got[b*BlockLen+j]; math.Float32bits(g) != math.Float32bits(v) {
					t.Fatalf("%v block %d value %d: %v, want %v", typ, b, j, g, v)
				}
			}
		}
	}
}

// TestMatVecRows checks that several vectors against the same rows give
// each vector bit for bit what MatVec gives it alone, for every type, one
// to five vectors (pairs and a single one in assembly), and a y whose
// vectors lie further apart than the rows.
func TestMatVecRows(t *testing.T) {
	const n = 96
	r := rand.New(rand.NewPCG(8, 9))
	// 37 rows fit one block of rows of every kernel; 300 rows of q8_0
	// (102 bytes each) take two of its two-vector kernel's 24 KiB.
	for _, rows := range []int{37, 300} {
		w := make([]float32, rows*n)
		for i := range w {
			w[i] = float32(r.NormFloat64())
		}
		for _, typ := range []Type{Q8_0, Q5_0, Q5_1, Q4_0, Q4_1, F16, F32} {
			data, err := Quantize(typ, w)
			if err != nil {
				t.Fatal(err)
			}
			for vecs := 1; vecs <= 5; vecs++ {
				x := make([]float32, vecs*n)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				ldy := rows + 3
				y := make([]float32, (vecs-1)*ldy+rows)
				MatVecRows(y, ldy, data, typ, x, vecs)
				for i := range vecs {
					alone := make([]float32, rows)
					MatVec(alone, data, typ, x[i*n:(i+1)*n])
					for j, v := range alone {
						if y[i*ldy+j] != v {
							t.Fatalf("%v, %d rows, %d vectors: vector %d row %d = %v, alone %v", typ, rows, vecs, i, j, y[i*ldy+j], v)
						}
					}
				}
			}
		}
	}
}
